//! A ratchet on the size of what is in `src/`: a new file holds at most
//! 600 code lines and a new function at most 100 lines; the files and
//! functions over those sizes today are listed here with their size,
//! which may only shrink. When one shrinks, its figure here is lowered to
//! the new size (the test says so), so it cannot grow back; once it is
//! within the limit, it leaves the list.
//!
//! Code lines are the lines of a file before its `#[cfg(test)]` that are
//! neither blank nor comments; a function's lines run from its `fn` line
//! to its closing brace (rustfmt's layout, which `cargo fmt --check`
//! keeps).

use std::collections::BTreeMap;
use std::path::Path;

/// The most code lines a file not listed in [`LONG_FILES`] may have.
const MAX_CODE_LINES: usize = 600;

/// The most lines a function not listed in [`LONG_FUNCTIONS`] may have.
const MAX_FUNCTION_LINES: usize = 100;

/// Files over [`MAX_CODE_LINES`], with their code lines.
const LONG_FILES: &[(&str, usize)] = &[
    ("src/cli/exec.rs", 643),
    ("src/ops/publish.rs", 658),
    ("src/resolve/report.rs", 640),
];

/// Functions over [`MAX_FUNCTION_LINES`]: file, name, lines.
const LONG_FUNCTIONS: &[(&str, &str, usize)] = &[
    ("src/agent/run.rs", "run", 131),
    ("src/agent/tools/command_line.rs", "split", 157),
    ("src/cli/exec.rs", "repl", 109),
    ("src/cli/exec.rs", "run", 109),
    ("src/cli/show.rs", "run", 118),
    ("src/git/fetch.rs", "fetch_commit", 113),
    ("src/index/oci/mod.rs", "read_entries", 101),
    ("src/ops/import/lock.rs", "import_lock", 141),
    ("src/ops/install/apply.rs", "install_one", 115),
    ("src/ops/install/fetch.rs", "fetch_all", 140),
    ("src/ops/install/mod.rs", "sync", 151),
    ("src/ops/install/plan.rs", "resolve_all", 130),
    ("src/ops/install/repo.rs", "list_repo", 106),
    ("src/ops/outdated.rs", "outdated", 108),
    ("src/ops/provenance/install.rs", "check_tree_signers", 122),
    ("src/ops/provenance/recheck.rs", "recheck_signature", 138),
    ("src/ops/publish.rs", "prepare", 107),
    ("src/scan/flows.rs", "scan", 112),
    ("src/scan/shell.rs", "run", 105),
    ("src/skill/validate/lint.rs", "lint", 109),
    ("src/skill/validate/mod.rs", "check", 108),
    ("src/store/extract.rs", "survey", 107),
];

#[test]
fn files_and_functions_only_shrink_past_their_limits() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = BTreeMap::new();
    let mut functions = BTreeMap::new();
    for file in rust_files(&root.join("src")) {
        let name = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text
            .lines()
            .take_while(|line| line.trim() != "#[cfg(test)]")
            .collect();
        files.insert(name.clone(), code_lines(&lines));
        for (function, length) in function_lengths(&lines) {
            let longest = functions.entry((name.clone(), function)).or_insert(0);
            *longest = length.max(*longest);
        }
    }
    let mut problems = Vec::new();
    let listed_files: BTreeMap<&str, usize> = LONG_FILES.iter().copied().collect();
    for (file, &lines) in &files {
        problems.extend(judge(
            &format!("{file}: {lines} code lines"),
            lines,
            listed_files.get(file.as_str()).copied(),
            MAX_CODE_LINES,
        ));
    }
    for (file, _) in LONG_FILES {
        if !files.contains_key(*file) {
            problems.push(format!("{file} is gone: take it out of LONG_FILES"));
        }
    }
    let listed_functions: BTreeMap<(&str, &str), usize> = LONG_FUNCTIONS
        .iter()
        .map(|(file, function, lines)| ((*file, *function), *lines))
        .collect();
    for ((file, function), &lines) in &functions {
        problems.extend(judge(
            &format!("{file}: fn {function}: {lines} lines"),
            lines,
            listed_functions
                .get(&(file.as_str(), function.as_str()))
                .copied(),
            MAX_FUNCTION_LINES,
        ));
    }
    for (file, function, _) in LONG_FUNCTIONS {
        if !functions.contains_key(&(file.to_string(), function.to_string())) {
            problems.push(format!(
                "{file}: fn {function} is gone: take it out of LONG_FUNCTIONS"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "the size ratchet (tests/it/ratchet.rs) moved:\n{}",
        problems.join("\n")
    );
    // The measure found what it should.
    assert!(files.len() > 100, "{} files", files.len());
    assert!(
        functions.contains_key(&("src/cli/mod.rs".to_string(), "main".to_string())),
        "src/cli/mod.rs has fn main"
    );
}

/// What is wrong with a size of `lines` against a limit of `limit`, when
/// the ratchet lists it at `listed`.
fn judge(what: &str, lines: usize, listed: Option<usize>, limit: usize) -> Option<String> {
    match listed {
        None if lines > limit => Some(format!(
            "{what}, over the limit of {limit}: split it by what it does"
        )),
        None => None,
        Some(_) if lines <= limit => Some(format!(
            "{what}, within the limit of {limit} now: take it out of the ratchet's list"
        )),
        Some(listed) if lines > listed => Some(format!(
            "{what}, grown past the {listed} the ratchet allows: it may only shrink"
        )),
        Some(listed) if lines < listed => Some(format!(
            "{what}, shrunk from {listed}: lower its figure in the ratchet's list to {lines}"
        )),
        Some(_) => None,
    }
}

/// The lines of `lines` that are neither blank nor comments.
fn code_lines(lines: &[&str]) -> usize {
    lines
        .iter()
        .filter(|line| {
            let line = line.trim();
            !line.is_empty() && !line.starts_with("//")
        })
        .count()
}

/// Each function with a body in `lines`, and its length: from its `fn`
/// line to the closing brace at the `fn`'s indentation.
fn function_lengths(lines: &[&str]) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = function_name(line) else {
            continue;
        };
        let indent = &line[..line.len() - line.trim_start().len()];
        let Some(open) = (start..lines.len()).find(|&i| {
            let end = lines[i].trim_end();
            end.ends_with('{') || end.ends_with(';') || end.ends_with("{}")
        }) else {
            continue;
        };
        let end = lines[open].trim_end();
        if end.ends_with(';') {
            continue; // a declaration in a trait
        }
        if end.ends_with("{}") {
            found.push((name.to_string(), open - start + 1));
            continue;
        }
        let close = (open..lines.len())
            .find(|&i| lines[i].trim_end() == format!("{indent}}}"))
            .unwrap_or(lines.len() - 1);
        found.push((name.to_string(), close - start + 1));
    }
    found
}

/// The name of the function `line` starts, if it starts one.
fn function_name(line: &str) -> Option<&str> {
    let mut words = line.trim_start();
    if words.starts_with("pub") {
        words = words.strip_prefix("pub")?;
        if words.starts_with('(') {
            words = &words[words.find(')')? + 1..];
        }
        words = words.trim_start();
    }
    for qualifier in ["const ", "async ", "unsafe "] {
        words = words.strip_prefix(qualifier).unwrap_or(words);
    }
    if let Some(rest) = words.strip_prefix("extern \"") {
        words = rest.split_once("\" ")?.1;
    }
    let rest = words.strip_prefix("fn ")?;
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

#[test]
fn functions_are_measured_from_fn_to_their_closing_brace() {
    let source = "\
impl X {
    pub(crate) async fn long(
        a: u8,
    ) -> u8 {
        a
    }

    fn declared(&self);
}
pub fn top() {}
";
    let lines: Vec<&str> = source.lines().collect();
    assert_eq!(
        function_lengths(&lines),
        [("long".to_string(), 5), ("top".to_string(), 1)]
    );
    assert_eq!(code_lines(&["// a", "", "  x", "/// b"]), 1);
    assert_eq!(
        function_name("    fn not_a_function_call();"),
        Some("not_a_function_call")
    );
    assert_eq!(function_name("let f = fn_pointer;"), None);
}
