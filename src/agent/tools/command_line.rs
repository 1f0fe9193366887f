//! A shell command line read as a shell would split it, so that grants
//! can be matched per simple command: `git status && id` is two commands,
//! and a grant for `git` covers only the first.
//!
//! The reader understands words (plain, `'single'`, `"double"` and
//! backslash-escaped) and the separators `;`, `&&`, `||`, `|` and newlines.
//! Everything whose effect it cannot judge makes its command *opaque*, and
//! no prefix grant covers an opaque command: `$…` expansions, command
//! substitution (`$(…)`, backticks), redirections (`<`, `>`), subshells
//! and groups (`(`, `)`), background jobs (`&`), environment prefixes
//! (`NAME=value cmd`), keywords and tests (`if`, `!`, `[`), brace
//! expansion (`a{b,c}`), globs that could match a file named as an
//! option (`*`, `-x*`) or name the program, and what the shell refuses
//! (an operator with no command before or after it). The `grant_parser`
//! fuzz target checks this reading against a shell grammar.

/// One simple command of a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleCommand {
    /// Its words, quotes removed.
    pub words: Vec<String>,
    /// What makes it opaque, if anything (`"a redirection"`, …).
    pub opaque: Option<&'static str>,
}

impl SimpleCommand {
    /// The program it runs: its first word.
    pub fn program(&self) -> Option<&str> {
        self.words.first().map(String::as_str)
    }

    /// The command as words joined by spaces, for showing to the user.
    pub fn display(&self) -> String {
        self.words.join(" ")
    }
}

/// Splits `line` into its simple commands. Empty commands (`;;`, a
/// trailing `;`) are dropped.
pub fn split(line: &str) -> Vec<SimpleCommand> {
    let mut commands = Vec::new();
    let mut current = SimpleCommand {
        words: Vec::new(),
        opaque: None,
    };
    // The word being read: its characters, each with whether it is quoted.
    let mut word: Option<Vec<(char, bool)>> = None;
    // After `&&`, `||` or `|`: a command must follow (newlines may come
    // first).
    let mut needs_command = false;
    let mut chars = line.chars().peekable();
    let opaque = |current: &mut SimpleCommand, why: &'static str| {
        current.opaque.get_or_insert(why);
    };
    let end_word = |word: &mut Option<Vec<(char, bool)>>, current: &mut SimpleCommand| {
        if let Some(done) = word.take() {
            if let Some(why) = word_opaque(&done, current.words.is_empty()) {
                current.opaque.get_or_insert(why);
            }
            current
                .words
                .push(done.into_iter().map(|(c, _)| c).collect());
        }
    };
    // Ends the command at a separator; `operator` when it is `;`, `&`,
    // `&&`, `||` or `|`, which the shell refuses after no command.
    let end_command =
        |current: &mut SimpleCommand, commands: &mut Vec<SimpleCommand>, operator: bool| {
            if operator && current.words.is_empty() && current.opaque.is_none() {
                current.opaque = Some("a syntax error");
            }
            let done = std::mem::replace(
                current,
                SimpleCommand {
                    words: Vec::new(),
                    opaque: None,
                },
            );
            if !done.words.is_empty() || done.opaque.is_some() {
                commands.push(done);
            }
        };
    while let Some(c) = chars.next() {
        if !matches!(c, ' ' | '\t' | '\n' | '#') {
            needs_command = false;
        }
        match c {
            ' ' | '\t' => end_word(&mut word, &mut current),
            '\n' => {
                end_word(&mut word, &mut current);
                end_command(&mut current, &mut commands, false);
            }
            ';' => {
                end_word(&mut word, &mut current);
                end_command(&mut current, &mut commands, true);
            }
            '|' => {
                end_word(&mut word, &mut current);
                // bash's `|&` also sends standard error down the pipe
                // (`2>&1 |`); `sh` may refuse it.
                if chars.next_if_eq(&'&').is_some() {
                    opaque(&mut current, "a redirection");
                } else {
                    chars.next_if_eq(&'|');
                }
                end_command(&mut current, &mut commands, true);
                needs_command = true;
            }
            '&' => {
                end_word(&mut word, &mut current);
                if chars.next_if_eq(&'&').is_some() {
                    needs_command = true;
                } else {
                    opaque(&mut current, "a background job");
                }
                end_command(&mut current, &mut commands, true);
            }
            '#' if word.is_none() => {
                // A comment runs to the end of the line.
                while chars.next_if(|&n| n != '\n').is_some() {}
            }
            '\'' => {
                let text = word.get_or_insert_with(Vec::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => text.push((c, true)),
                        None => {
                            opaque(&mut current, "an unclosed quote");
                            break;
                        }
                    }
                }
            }
            '"' => {
                let text = word.get_or_insert_with(Vec::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => text.push((c, true)),
                            Some('\n') => {}
                            Some(c) => {
                                text.push(('\\', true));
                                text.push((c, true));
                            }
                            None => {}
                        },
                        Some(c @ ('$' | '`')) => {
                            text.push((c, true));
                            opaque(&mut current, "an expansion or command substitution");
                        }
                        Some(c) => text.push((c, true)),
                        None => {
                            opaque(&mut current, "an unclosed quote");
                            break;
                        }
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => word.get_or_insert_with(Vec::new).push((c, true)),
                None => {
                    // The shell keeps it; refused rather than guessed.
                    word.get_or_insert_with(Vec::new).push(('\\', true));
                    opaque(&mut current, "a backslash at the end");
                }
            },
            '$' | '`' => {
                word.get_or_insert_with(Vec::new).push((c, false));
                opaque(&mut current, "an expansion or command substitution");
            }
            '<' | '>' => {
                word.get_or_insert_with(Vec::new).push((c, false));
                opaque(&mut current, "a redirection");
            }
            // `(` and `)` end a word wherever they stand.
            '(' | ')' => {
                word.get_or_insert_with(Vec::new).push((c, false));
                opaque(&mut current, "a subshell or group");
            }
            '{' | '}' if word.is_none() => {
                word.get_or_insert_with(Vec::new).push((c, false));
                opaque(&mut current, "a subshell or group");
            }
            c => word.get_or_insert_with(Vec::new).push((c, false)),
        }
    }
    end_word(&mut word, &mut current);
    if needs_command && current.words.is_empty() {
        opaque(&mut current, "a syntax error");
    }
    end_command(&mut current, &mut commands, false);
    commands
}

/// Words the shell reads as part of its grammar, not as a program, when
/// they start a command unquoted (`[` and `[[` are tests).
const KEYWORDS: [&str; 23] = [
    "!", "[", "[[", "]]", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for",
    "function", "if", "in", "select", "then", "time", "until", "while", "{", "}",
];

/// What makes a word (its characters, each with whether it is quoted)
/// opaque, `first` when it starts a command: an environment prefix, a
/// keyword, a glob that could match a file named as an option, or a brace
/// expansion.
fn word_opaque(chars: &[(char, bool)], first: bool) -> Option<&'static str> {
    let text: String = chars.iter().map(|(c, _)| c).collect();
    let unquoted = chars.iter().all(|(_, quoted)| !quoted);
    // `NAME=value` before the program sets its environment. Which words
    // are assignments differs between shells and parsers (bash's
    // `a+=1`, `a[1]=1`; tree-sitter-bash's `2a=1`, `-a=1`), and no
    // program is named with `=`: any first word holding one is taken
    // for one.
    if first && text.contains('=') {
        return Some("an environment prefix");
    }
    // A leading `!` is read as negation by some parsers (tree-sitter-bash
    // reads `!x` so), though `sh` and `bash` run `!x`: not guessed.
    if first
        && (unquoted && KEYWORDS.contains(&text.as_str()) || chars.first() == Some(&('!', false)))
    {
        return Some("a shell keyword");
    }
    // A pattern expands to the names of files, which may be named as
    // options (`--pre=x`): only one behind a plain first character that
    // is not `-` (`src/*.rs`) cannot become one, and a program is never
    // a pattern.
    let pattern = |&(c, quoted): &(char, bool)| !quoted && matches!(c, '*' | '?' | '[');
    if chars.iter().any(pattern)
        && (first || chars.first().is_some_and(|c| pattern(c) || c.0 == '-'))
    {
        return Some("a glob");
    }
    // `a{b,c}` and `a{1..3}` are several words to bash.
    if let Some(open) = chars.iter().position(|&c| c == ('{', false)) {
        let rest = &chars[open + 1..];
        if rest.contains(&(',', false)) || rest.windows(2).any(|w| w == [('.', false); 2]) {
            return Some("a brace expansion");
        }
    }
    None
}

/// The command line in plain words, one line per simple command, each
/// with what makes it opaque: what an approval prompt shows. The lines
/// hold the words as the model wrote them; the prompt escapes them.
pub fn describe(line: &str) -> Vec<String> {
    let commands = split(line);
    if commands.is_empty() {
        return vec!["(nothing)".to_string()];
    }
    commands
        .iter()
        .enumerate()
        .map(|(i, command)| match command.opaque {
            None => format!("{}. {}", i + 1, command.display()),
            Some(why) => format!(
                "{}. {}   ({why}: runs as written)",
                i + 1,
                command.display()
            ),
        })
        .collect()
}

/// Programs whose options make them run other programs or code, and
/// those options: a grant for the program does not cover them.
const RUNS_OTHER_PROGRAMS: [(&str, &[&str]); 5] = [
    (
        "git",
        &[
            "-c",
            "--config-env",
            "--exec-path",
            "--upload-pack",
            "--receive-pack",
            "-u",
            "--exec",
        ],
    ),
    ("find", &["-exec", "-execdir", "-ok", "-okdir"]),
    ("rg", &["--pre"]),
    (
        "tar",
        &[
            "--to-command",
            "--use-compress-program",
            "-I",
            "--checkpoint-action",
        ],
    ),
    ("rsync", &["-e", "--rsh", "--rsync-path"]),
];

/// Whether a grant of the words `granted` (`["git"]`, `["npm", "test"]`)
/// covers `command`: not opaque, the same leading words, and none of the
/// options by which the program runs others.
pub(crate) fn grant_covers(granted: &[&str], command: &SimpleCommand) -> bool {
    if command.opaque.is_some() || granted.is_empty() || command.words.len() < granted.len() {
        return false;
    }
    if command.words.iter().zip(granted).any(|(w, g)| w != g) {
        return false;
    }
    let program = granted[0];
    let dangerous = RUNS_OTHER_PROGRAMS
        .iter()
        .find(|(name, _)| *name == program)
        .map_or(&[][..], |(_, options)| *options);
    command.words[1..].iter().enumerate().all(|(i, word)| {
        // tar reads a first word without a dash as a cluster of options.
        let word = match (program, i, word.starts_with('-')) {
            ("tar", 0, false) => format!("-{word}"),
            _ => word.clone(),
        };
        !dangerous.iter().any(|option| names_option(&word, option))
    })
}

/// Whether `word` gives `option`: itself, with `=value`, or, for a
/// one-letter option (`-e`), with its value attached (`-efoo`) or inside
/// a cluster of one-letter options (`-ae`, `-xI`).
fn names_option(word: &str, option: &str) -> bool {
    if word == option || word.starts_with(&format!("{option}=")) {
        return true;
    }
    match option.strip_prefix('-').filter(|letter| letter.len() == 1) {
        Some(letter) => {
            word.starts_with(option)
                || (word.starts_with('-') && !word.starts_with("--") && word[1..].contains(letter))
        }
        None => false,
    }
}

/// Whether `program` is named as a command anywhere in `line`, even
/// inside what makes a command opaque: deny rules match any part.
pub(crate) fn mentions_program(line: &str, program: &str) -> bool {
    line.split(|c: char| c.is_whitespace() || ";&|()`<>{}\"'$".contains(c))
        .filter(|word| !word.is_empty())
        .any(|word| word == program || word.rsplit('/').next() == Some(program))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn programs(line: &str) -> Vec<(String, bool)> {
        split(line)
            .into_iter()
            .map(|c| (c.display(), c.opaque.is_none()))
            .collect()
    }

    #[test]
    fn lines_split_into_simple_commands() {
        assert_eq!(programs("git status"), [("git status".into(), true)]);
        assert_eq!(
            programs("git status && id; ls -la | wc -l || true\necho 'a;b'"),
            [
                ("git status".into(), true),
                ("id".into(), true),
                ("ls -la".into(), true),
                ("wc -l".into(), true),
                ("true".into(), true),
                ("echo a;b".into(), true),
            ]
        );
        assert_eq!(programs("echo \"$(id)\""), [("echo $(id)".into(), false)]);
        assert_eq!(
            programs("git log > out.txt"),
            [("git log > out.txt".into(), false)]
        );
        assert_eq!(
            programs("X=1 git status"),
            [("X=1 git status".into(), false)]
        );
        assert_eq!(
            programs("git status # ; rm x"),
            [("git status".into(), true)]
        );
        assert_eq!(
            programs("sleep 9 & id"),
            [("sleep 9".into(), false), ("id".into(), true)]
        );
    }

    /// Each line below was read as plain simple commands although the
    /// shell reads it otherwise; found by the `grant_parser` fuzz target,
    /// which checks `split` against tree-sitter-bash's grammar.
    #[test]
    fn what_the_shell_reads_otherwise_is_opaque() {
        let opaque = |line: &str| split(line).iter().any(|c| c.opaque.is_some());
        for line in [
            // Keywords and tests, not programs.
            "if true; then ls; fi",
            "for x in a; do ls; done",
            "! ls",
            "!ls",
            "[ -f x ]",
            "[[ a ]]",
            "while",
            "time ls",
            // `(` and `)` end a word wherever they stand.
            "echo a(b)",
            "git(){ ls; }",
            // Syntax errors: no command before an operator, none after.
            "echo a;; echo b",
            "; ls",
            "ls & ; id",
            "ls |",
            "ls &&",
            "ls && # c",
            // `2>&1 |` to bash, a syntax error to dash.
            "ls |& wc",
            // bash's other assignments set the environment too.
            "a+=1 ls",
            "a[1]=1 ls",
            "2a=1 ls",
            "-a=1",
            // The shell keeps a final backslash.
            "echo a\\",
            // Brace expansion: `--exec-path=/tmp/x --exec-path` to bash.
            "git --exec-path{=/tmp/x,}",
            "echo x{1..3}",
            // A glob may match a file named as an option, or a program.
            "rg x *",
            "rg --pr? x",
            "rg x '-'*",
            "gi? status",
        ] {
            assert!(
                opaque(line),
                "{line:?} was read as plain: {:?}",
                split(line)
            );
        }
        for line in [
            "ls src/*.rs",
            "git log @{u}",
            "echo '*' \\? \"{a,b}\"",
            "ls &&\n  id",
            "ls |\n wc -l",
            "echo a=b",
            "echo fi",
        ] {
            assert!(!opaque(line), "{line:?} was made opaque: {:?}", split(line));
        }
    }

    #[test]
    fn options_that_run_other_programs_are_found_in_every_spelling() {
        let covered = |granted: &[&str], line: &str| {
            let commands = split(line);
            commands.len() == 1 && grant_covers(granted, &commands[0])
        };
        for line in [
            "git ls-remote --upload-pack='touch x; git-upload-pack' repo",
            "git fetch --upload-pack=evil origin",
            "git ls-remote -u evil repo",
            "git push --receive-pack=evil origin",
            "git archive --remote=r --exec=evil HEAD",
        ] {
            assert!(!covered(&["git"], line), "{line}");
        }
        assert!(!covered(&["rsync"], "rsync -ae 'sh -c x' a b"));
        assert!(!covered(&["tar"], "tar -xI cmd -f a.tar"));
        assert!(!covered(&["tar"], "tar xI cmd"));
        assert!(covered(&["git"], "git status"));
        assert!(covered(&["tar"], "tar xf a.tar"));
        assert!(covered(&["rsync"], "rsync -av a b"));
    }

    #[test]
    fn approval_prompts_list_the_commands_in_plain_words() {
        assert_eq!(
            describe("git status && git log > out"),
            [
                "1. git status",
                "2. git log > out   (a redirection: runs as written)"
            ]
        );
    }
}
