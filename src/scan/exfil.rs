//! `secret-exfiltration` as a data flow through shell commands: a
//! credential store (the stores docs/sandbox.md protects) read by a
//! command, followed through pipes, archives, files written and variables,
//! to a network sink (curl's and wget's upload arguments, `scp`, `rsync`
//! or `sftp` to a remote, `nc`, `ssh`, an inline Python or Node HTTP
//! client, `gh gist`, cloud storage copies). Uploading the project's own
//! files is quiet: only what came from a store is followed. Code files get
//! a coarser check: a store's path built from the home folder, read, in a
//! file that talks to the network.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::finding::{Finding, Severity, excerpt};
use super::pattern::regex;
use super::shell::{self, Stage};
use crate::credential_stores::IN_HOME;

/// Characters that end a path in a shell word.
const PATH_END: &str = r"\s\x22';|&)";

/// Folders of the home that hold much besides credentials: in code, a
/// path that stops at one of them names no store.
const GENERIC_FOLDERS: [&str; 2] = [".config", ".cache"];

/// The credential stores of the home ([`IN_HOME`], the list the sandbox
/// hides) as a pattern alternation: each store, a path inside it, or a
/// folder on the way to one that the path stops at (`~/.aws`, `~/.config/`,
/// `~/.claude/*`), as an archive or a copy of that folder takes the store
/// with it. With `generic` false, a path stopping at one of the
/// [`GENERIC_FOLDERS`] is left out (code names its own files there).
fn stores_pattern(generic: bool) -> String {
    IN_HOME
        .iter()
        .map(|store| {
            let parts: Vec<&str> = store.split('/').collect();
            let mut pattern = format!(
                "{}(?:/[^{PATH_END}]*)?",
                regex::escape(parts[parts.len() - 1])
            );
            for (at, part) in parts.iter().enumerate().rev().skip(1) {
                let stops_here = generic || at > 0 || !GENERIC_FOLDERS.contains(part);
                pattern = match stops_here {
                    true => format!(r"{}(?:/(?:\*|{pattern})?)?", regex::escape(part)),
                    false => format!("{}/{pattern}", regex::escape(part)),
                };
            }
            pattern
        })
        .collect::<Vec<_>>()
        .join("|")
}

/// A credential store's path in a shell word: under `~`, `$HOME`, or a
/// home folder spelled out.
static STORE_PATH: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"(?:^|[=@<:,(\s])((?:~|\$HOME|\$\{{HOME\}}|/root|/home/[\w.-]+|/Users/[\w.-]+)/(?:{}))(?:$|[{PATH_END}])",
        stores_pattern(true)
    ))
});

/// A store's name anywhere, as a cheap first test of a file.
static STORE_NAME: LazyLock<Regex> = LazyLock::new(|| regex(&stores_pattern(true)));

/// A store's path built from the home folder in code.
static CODE_STORE_PATH: LazyLock<Regex> = LazyLock::new(|| {
    let stores = stores_pattern(false);
    regex(&format!(
        r#"(?:Path\.home\(\)|expanduser\(\s*["']~["']\s*\)|os\.homedir\(\)|homedir\(\)|os\.environ\[\s*["']HOME["']\s*\]|process\.env\.HOME)\s*(?:/|,|\+)\s*["']/?(?:{stores})(?:["'/]|\s*\))|expanduser\(\s*["']~/(?:{stores})"#
    ))
});

/// A file's contents read, in code.
static CODE_READ: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\bread_text\s*\(|\bread_bytes\s*\(|\bopen\s*\(|\breadFile(?:Sync)?\s*\(|\bcreateReadStream\s*\(|\bFile\.read\b|\bIO\.read\b",
    )
});

/// A call that sends something over the network, in code.
static CODE_NETWORK: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\brequests\.(?:post|put|patch)\s*\(|\bhttpx\.|\burllib\.request\b|\burlopen\s*\(|\bhttp\.client\b|\bfetch\s*\(|\baxios\b|\bhttps?\.request\s*\(|\bsmtplib\b|\bsocket\.(?:socket|create_connection)\s*\(|\bNet::HTTP\b|\bboto3\b[^\n]*\bupload",
    )
});

/// Inline code that opens a network connection.
static INLINE_NETWORK: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\brequests\b|\burllib\b|\bhttp\.client\b|\bhttpx\b|\bsocket\b|\bfetch\s*\(|\bhttps?\.request\b|\baxios\b|Net::HTTP|LWP::|IO::Socket|\bopen-uri\b",
    )
});

/// Commands that print what they read from the files they are given.
const READERS: &[&str] = &[
    "cat", "head", "tail", "base64", "base32", "basenc", "xxd", "od", "hexdump", "strings", "gzip",
    "bzip2", "xz", "zstd", "lz4", "tar", "zip", "7z", "7za", "openssl", "gpg", "dd", "awk", "sed",
    "grep", "jq", "yq", "sort", "uniq", "cut", "find", "tac", "nl", "paste", "column", "iconv",
    "sops",
];

/// Commands that copy the files they are given to their last argument.
const COPIERS: &[&str] = &["cp", "mv", "install", "ditto", "ln"];

/// Where a secret came from, for the message.
#[derive(Debug, Clone)]
struct Origin {
    store: String,
    line: usize,
}

/// What is known to hold a secret so far in a file.
#[derive(Default)]
struct Taint {
    /// Files (as written in the script) that hold a store's contents, or
    /// are a store.
    files: HashMap<String, Origin>,
    /// Variables holding a store's path, or a file holding its contents.
    path_vars: HashMap<String, Origin>,
    /// Variables holding a store's contents.
    content_vars: HashMap<String, Origin>,
    /// How deep in nested substitutions the reading is now.
    nesting: std::cell::Cell<usize>,
}

/// Substitutions nested deeper than this are not read: a hostile line of
/// `$($($(…)))` must not exhaust the stack (each level is read again).
const MAX_NESTING: usize = 8;

/// How a word holds a secret.
enum Held {
    /// It names a file that is a store or holds one's contents.
    Path(Origin),
    /// It is (or substitutes) a store's contents.
    Content(Origin),
}

impl Taint {
    /// How `word`, at `line`, holds a secret, if it does.
    fn held(&self, word: &str, line: usize) -> Option<Held> {
        for inner in shell::substitutions(word) {
            if let Some(origin) = self.printed(&inner, line) {
                return Some(Held::Content(origin));
            }
        }
        if let Some(origin) = self.var_in(word, &self.content_vars) {
            return Some(Held::Content(origin));
        }
        if let Some(path) = STORE_PATH.captures(word).and_then(|c| c.get(1))
            && !public(path.as_str())
        {
            return Some(Held::Path(Origin {
                store: path.as_str().to_string(),
                line,
            }));
        }
        if let Some(origin) = self.var_in(word, &self.path_vars) {
            return Some(Held::Path(origin));
        }
        self.files
            .iter()
            .find(|(file, _)| names_file(word, file))
            .map(|(_, origin)| Held::Path(origin.clone()))
    }

    /// The origin of the first variable of `vars` that `word` expands.
    fn var_in(&self, word: &str, vars: &HashMap<String, Origin>) -> Option<Origin> {
        vars.iter()
            .find(|(name, _)| expands(word, name))
            .map(|(_, origin)| origin.clone())
    }

    /// Whether the commands `text` (a substitution) print a secret.
    fn printed(&self, text: &str, line: usize) -> Option<Origin> {
        let depth = self.nesting.get();
        if depth >= MAX_NESTING {
            return None;
        }
        self.nesting.set(depth + 1);
        let found = shell::statements(text)
            .iter()
            .find_map(|pipeline| self.pipeline_prints(pipeline, line));
        self.nesting.set(depth);
        found
    }

    /// What a pipeline prints of a secret, at its end.
    fn pipeline_prints(&self, pipeline: &[Stage], line: usize) -> Option<Origin> {
        let mut flowing: Option<Origin> = None;
        for stage in pipeline {
            flowing = self.stage_prints(stage, flowing, line);
        }
        flowing
    }

    /// What `stage` prints of a secret, given what flows into it.
    fn stage_prints(&self, stage: &Stage, input: Option<Origin>, line: usize) -> Option<Origin> {
        let input = input.or_else(|| self.stdin_secret(stage, line));
        let (name, args) = stage.command()?;
        if input.is_some() {
            return input;
        }
        let mut path = None;
        for arg in args {
            match self.held(arg, line) {
                Some(Held::Content(origin)) => return Some(origin),
                Some(Held::Path(origin)) if path.is_none() => path = Some(origin),
                _ => {}
            }
        }
        path.filter(|_| READERS.contains(&name))
    }

    /// A secret a stage reads on standard input from a file or string.
    fn stdin_secret(&self, stage: &Stage, line: usize) -> Option<Origin> {
        stage
            .stdin
            .iter()
            .chain(&stage.here)
            .find_map(|word| match self.held(word, line)? {
                Held::Path(origin) | Held::Content(origin) => Some(origin),
            })
    }

    /// Marks the files `stage` writes and the variables it assigns, given
    /// whether it printed a secret (`printed`).
    fn record_writes(&mut self, stage: &Stage, printed: Option<&Origin>, line: usize) {
        for (name, value) in stage.assignments() {
            let value_held = self.held(value, line);
            match value_held {
                Some(Held::Content(origin)) => {
                    self.content_vars.insert(name.to_string(), origin);
                }
                Some(Held::Path(origin)) => {
                    self.path_vars.insert(name.to_string(), origin);
                }
                None => {}
            }
        }
        let Some((name, args)) = stage.command() else {
            return;
        };
        if name == "for"
            && let [var, keyword, list @ ..] = args
            && keyword == "in"
            && let Some(origin) = list.iter().find_map(|w| match self.held(w, line)? {
                Held::Path(origin) | Held::Content(origin) => Some(origin),
            })
        {
            self.path_vars.insert(var.clone(), origin);
        }
        let path_arg = args.iter().find_map(|w| match self.held(w, line)? {
            Held::Path(origin) => Some(origin),
            Held::Content(_) => None,
        });
        let mut written: Vec<(String, Origin)> = Vec::new();
        if let Some(origin) = printed {
            written.extend(stage.outputs.iter().map(|f| (f.clone(), origin.clone())));
            if name == "tee" {
                let files = args.iter().filter(|a| !a.starts_with('-'));
                written.extend(files.map(|f| (f.clone(), origin.clone())));
            }
            written.extend(output_flags(args).map(|f| (f.to_string(), origin.clone())));
        }
        if let Some(origin) = path_arg {
            let target = match name {
                "tar" => archive_file(args),
                "zip" | "7z" | "7za" => args
                    .iter()
                    .map(String::as_str)
                    .find(|a| !a.starts_with('-') && *a != "a"),
                _ if COPIERS.contains(&name) => args.last().map(String::as_str),
                _ => None,
            };
            if let Some(target) = target.filter(|t| *t != "-") {
                written.push((target.to_string(), origin));
            }
        }
        for (file, origin) in written {
            match variable_of(&file) {
                Some(var) => self.path_vars.insert(var.to_string(), origin),
                None => self.files.insert(file, origin),
            };
        }
    }
}

/// Whether a store path is one that is meant to be shared.
fn public(path: &str) -> bool {
    path.ends_with(".pub") || path.contains("known_hosts")
}

/// Whether `word` expands the variable `name` (`$name`, `${name}`).
fn expands(word: &str, name: &str) -> bool {
    word.match_indices('$').any(|(i, _)| {
        let rest = &word[i + 1..];
        let rest = rest.strip_prefix('{').unwrap_or(rest);
        rest.strip_prefix(name).is_some_and(|after| {
            !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        })
    })
}

/// Whether `word` names `file` (alone, or after `@`, `<` or `=`).
fn names_file(word: &str, file: &str) -> bool {
    word.strip_suffix(file)
        .is_some_and(|before| before.is_empty() || before.ends_with(['@', '<', '=', ':']))
}

/// The variable a written file's name is, when it is just one.
fn variable_of(file: &str) -> Option<&str> {
    let name = file.strip_prefix('$')?;
    let name = name
        .strip_prefix('{')
        .and_then(|n| n.strip_suffix('}'))
        .unwrap_or(name);
    name.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
        .then_some(name)
}

/// The values of output flags (`-o F`, `--output F`, `-out F`, `of=F`).
fn output_flags(args: &[String]) -> impl Iterator<Item = &str> {
    args.iter().enumerate().filter_map(|(i, arg)| {
        if let Some(file) = arg
            .strip_prefix("--output=")
            .or_else(|| arg.strip_prefix("of="))
        {
            return Some(file);
        }
        matches!(arg.as_str(), "-o" | "--output" | "-out")
            .then(|| args.get(i + 1).map(String::as_str))
            .flatten()
    })
}

/// The archive `tar` writes: `-f F`, `--file=F`, or `f` in bundled flags.
fn archive_file(args: &[String]) -> Option<&str> {
    args.iter().enumerate().find_map(|(i, arg)| {
        if let Some(file) = arg.strip_prefix("--file=") {
            return Some(file);
        }
        let short = arg.strip_prefix('-').filter(|f| !f.starts_with('-'));
        // `tar czf F`: the first argument is bundled flags without a dash.
        let flags = short.or_else(|| (i == 0).then_some(arg.as_str()))?;
        let bundled = flags.chars().all(|c| c.is_ascii_alphabetic());
        (bundled && flags.contains('f') || arg == "--file")
            .then(|| args.get(i + 1).map(String::as_str))
            .flatten()
    })
}

/// The flags whose value curl sends, with whether `@FILE` there sends the
/// file (`-F f=@F`, `-d @F`, `-T F`).
const CURL_SENDS: &[&str] = &[
    "-F",
    "--form",
    "--form-string",
    "-d",
    "--data",
    "--data-binary",
    "--data-raw",
    "--data-ascii",
    "--data-urlencode",
    "--json",
    "-T",
    "--upload-file",
    "-H",
    "--header",
    "--url-query",
];

/// The flags whose value wget sends.
const WGET_SENDS: &[&str] = &[
    "--post-file",
    "--body-file",
    "--post-data",
    "--body-data",
    "--header",
];

/// Flags of `scp`, `rsync` and `sftp` whose value is not a file sent.
const REMOTE_COPY_OPTIONS: &[&str] = &[
    "-i", "-F", "-e", "--rsh", "-o", "-P", "-S", "-J", "-l", "-c",
];

/// The values `args` give the flags of `sends`, in `-f V`, `-fV`,
/// `--flag=V` form.
fn sent_values<'a>(args: &'a [String], sends: &[&str]) -> Vec<&'a str> {
    let mut values = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        for flag in sends {
            if arg == flag {
                values.extend(args.get(i + 1).map(String::as_str));
            } else if let Some(value) = arg.strip_prefix(flag) {
                let long = flag.starts_with("--");
                if let Some(value) = value.strip_prefix('=').filter(|_| long) {
                    values.push(value);
                } else if !long && !value.is_empty() {
                    values.push(value);
                }
            }
        }
    }
    values
}

/// Whether `arg` names a remote for `scp`/`rsync`/`sftp` (`host:path`,
/// `user@host:`, `rsync://`).
fn remote(arg: &str) -> bool {
    if arg.starts_with("rsync://") || arg.starts_with("sftp://") || arg.starts_with("scp://") {
        return true;
    }
    let Some((host, _)) = arg.split_once(':') else {
        return false;
    };
    !host.is_empty()
        && !host.contains('/')
        && !host.starts_with(['-', '$', '~', '.'])
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '@'))
}

impl Taint {
    /// The origin of a secret `stage` sends over the network, given what
    /// flows into it, with the sink's name.
    fn sent(&self, stage: &Stage, input: Option<&Origin>, line: usize) -> Option<(String, Origin)> {
        let (name, args) = stage.command()?;
        let piped = input.cloned().or_else(|| self.stdin_secret(stage, line));
        let any_secret = |values: Vec<&str>| {
            values.into_iter().find_map(|v| match self.held(v, line)? {
                Held::Path(origin) | Held::Content(origin) => Some(origin),
            })
        };
        let content_arg = || {
            args.iter().find_map(|a| match self.held(a, line)? {
                Held::Content(origin) => Some(origin),
                Held::Path(_) => None,
            })
        };
        let found = match name {
            "curl" => piped
                .or_else(|| any_secret(sent_values(args, CURL_SENDS)))
                .or_else(content_arg),
            "wget" => piped
                .or_else(|| any_secret(sent_values(args, WGET_SENDS)))
                .or_else(content_arg),
            "scp" | "rsync" | "sftp" if args.iter().any(|a| remote(a)) => {
                let files = args.iter().enumerate().filter(|(i, a)| {
                    !a.starts_with('-')
                        && !remote(a)
                        && !value_of_option(args, *i, |o| REMOTE_COPY_OPTIONS.contains(&o))
                });
                any_secret(files.map(|(_, a)| a.as_str()).collect()).or(piped)
            }
            "nc" | "ncat" | "netcat" | "socat" | "telnet" | "ssh" => piped,
            "openssl" if args.first().is_some_and(|a| a == "s_client") => piped,
            _ if inline_client(name, args) => piped.or_else(content_arg),
            "gh" if args.first().is_some_and(|a| a == "gist") => {
                piped.or_else(|| any_secret(args.iter().map(String::as_str).collect()))
            }
            "aws" | "gsutil" | "rclone" | "az" | "gcloud" if copies_to_storage(args) => {
                let files = args.iter().enumerate().filter(|(i, a)| {
                    !a.starts_with('-') && !value_of_option(args, *i, |o| o.starts_with("--"))
                });
                any_secret(files.map(|(_, a)| a.as_str()).collect()).or(piped)
            }
            _ => None,
        }?;
        Some((name.to_string(), found))
    }
}

/// Whether `args[i]` is the value of an option before it that
/// `takes_value` names.
fn value_of_option(args: &[String], i: usize, takes_value: impl Fn(&str) -> bool) -> bool {
    i.checked_sub(1)
        .is_some_and(|before| takes_value(&args[before]))
}

/// Whether a cloud CLI's arguments copy files to storage.
fn copies_to_storage(args: &[String]) -> bool {
    args.iter().any(|a| {
        matches!(
            a.as_str(),
            "cp" | "mv" | "sync" | "copy" | "copyto" | "move" | "upload" | "upload-batch"
        )
    })
}

/// Whether `name args` runs inline code that opens a network connection
/// (`python -c "…requests…"`, `node -e "…fetch(…)…"`).
fn inline_client(name: &str, args: &[String]) -> bool {
    let interpreter = name.starts_with("python")
        || matches!(name, "node" | "deno" | "bun" | "ruby" | "perl" | "php");
    interpreter
        && args
            .iter()
            .position(|a| matches!(a.as_str(), "-c" | "-e" | "-r" | "--eval"))
            .and_then(|i| args.get(i + 1))
            .is_some_and(|code| INLINE_NETWORK.is_match(code))
}

/// The `secret-exfiltration` findings of the command lines `lines` of the
/// file `file`.
pub(super) fn scan_commands(file: &str, lines: &[(usize, &str, bool)]) -> Vec<Finding> {
    // Every flow starts at a store's name: without one, nothing to follow.
    if !lines.iter().any(|(_, line, _)| STORE_NAME.is_match(line)) {
        return Vec::new();
    }
    let mut taint = Taint::default();
    let mut findings = Vec::new();
    for (number, line) in shell::logical_lines(lines) {
        for pipeline in shell::statements(&line) {
            let mut flowing: Option<Origin> = None;
            for stage in &pipeline {
                if let Some((sink, origin)) = taint.sent(stage, flowing.as_ref(), number) {
                    findings.push(Finding {
                        rule: "secret-exfiltration",
                        severity: Severity::Block,
                        file: file.to_string(),
                        line: Some(number),
                        message: sent_message(&sink, &origin, number),
                        excerpt: excerpt(&line),
                        waived: None,
                    });
                    break;
                }
                let printed = taint.stage_prints(stage, flowing, number);
                taint.record_writes(stage, printed.as_ref(), number);
                flowing = printed;
            }
        }
    }
    findings
}

/// What a finding says: the store, where it was read, and the sink.
fn sent_message(sink: &str, origin: &Origin, line: usize) -> String {
    if origin.line == line {
        format!(
            "the credential store {} is sent over the network by {sink}",
            origin.store
        )
    } else {
        format!(
            "the credential store {}, read on line {}, is sent over the network by {sink}",
            origin.store, origin.line
        )
    }
}

/// The code half: a store's path built from the home folder, in a file
/// that reads files and talks to the network.
pub(super) fn scan_code(file: &str, lines: &[(usize, &str, bool)]) -> Option<Finding> {
    let &(number, line, _) = lines.iter().find(|(_, l, _)| CODE_STORE_PATH.is_match(l))?;
    let reads = lines.iter().any(|(_, l, _)| CODE_READ.is_match(l));
    let network = lines.iter().any(|(_, l, _)| CODE_NETWORK.is_match(l));
    (reads && network).then(|| Finding {
        rule: "secret-exfiltration",
        severity: Severity::Block,
        file: file.to_string(),
        line: Some(number),
        message:
            "a credential store under the home folder is read in a file that talks to the network"
                .into(),
        excerpt: excerpt(line),
        waived: None,
    })
}

#[cfg(test)]
mod tests;
