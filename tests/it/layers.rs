//! Every arrow points down: reads every `crate::`, `super::` and `self::`
//! path in `src/` (in `use` declarations and inline), resolves it to the
//! file that defines what it names (following `pub use` re-exports), and
//! fails when a module reaches a module of its own layer or a higher one
//! (the layer table of docs/architecture.md), or when files form a
//! cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top-level modules by layer, lowest first. A module may use modules of
/// lower layers and itself, nothing else.
const LAYERS: &[(&str, u8)] = &[
    ("env_vars", 0),
    ("fsutil", 0),
    ("hint", 0),
    ("dirs", 0),
    ("progress", 0),
    ("parallel", 0),
    ("process", 0),
    ("net", 0),
    ("sys", 0),
    ("time", 0),
    ("credential_stores", 0),
    ("skill", 1),
    ("scan", 2),
    ("credentials", 2),
    ("embedded", 2),
    ("manifest", 2),
    ("store", 2),
    ("resolve", 2),
    ("project", 2),
    ("roots", 2),
    ("git", 2),
    ("oci", 3),
    ("index", 3),
    ("sandbox", 3),
    ("ops", 4),
    ("agent", 4),
    ("mcp", 4),
    ("eval", 5),
    ("cli", 6),
];

/// Arrows within one layer that are allowed, each for a reason:
/// `dirs`, `net` and `time` read the environment variables `env_vars` names; a
/// request that failed every attempt is a `hint::Hinted` error; the
/// builtin root is written out from the trees `embedded` ships; a
/// registry namespace is an index read and written through the OCI client.
const WITHIN_LAYER: &[(&str, &str)] = &[
    ("dirs", "env_vars"),
    ("net", "env_vars"),
    ("time", "env_vars"),
    ("net", "hint"),
    ("process", "sys"),
    ("roots", "embedded"),
    ("index", "oci"),
];

#[test]
fn every_arrow_points_down_and_no_files_form_a_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let crate_map = CrateMap::read(&src);
    let mut problems = Vec::new();
    let mut graph: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (file, module) in &crate_map.files {
        let from_top = module.path.first().map(String::as_str);
        for reference in &module.references {
            let Some(target) = crate_map.resolve(&reference.path) else {
                continue;
            };
            if target != *file {
                graph
                    .entry(file.clone())
                    .or_default()
                    .insert(target.clone());
            }
            let to_top = crate_map.files[&target].path.first().map(String::as_str);
            let (Some(from_top), Some(to_top)) = (from_top, to_top) else {
                continue; // lib.rs and main.rs sit above every layer
            };
            if from_top == to_top {
                continue;
            }
            let (from_layer, to_layer) = (layer(from_top), layer(to_top));
            if to_layer > from_layer
                || (to_layer == from_layer && !WITHIN_LAYER.contains(&(from_top, to_top)))
            {
                problems.push(format!(
                    "{}:{}: `{}` (layer {from_layer}) uses `{}` (layer {to_layer}) through {}",
                    relative(&src, file),
                    reference.line,
                    from_top,
                    to_top,
                    reference.path.join("::"),
                ));
            }
        }
    }
    for cycle in cycles(&graph) {
        let files: Vec<String> = cycle.iter().map(|f| relative(&src, f)).collect();
        problems.push(format!("files form a cycle: {}", files.join(" ↔ ")));
    }
    assert!(
        problems.is_empty(),
        "{} arrow(s) point the wrong way (see the layers in docs/architecture.md):\n{}",
        problems.len(),
        problems.join("\n")
    );
    // The scan found what it should: a known downward arrow.
    assert!(
        graph
            .get(&src.join("cli/mod.rs"))
            .is_some_and(|targets| !targets.is_empty()),
        "the scanner found no references in src/cli/mod.rs"
    );
}

/// The most lines a file in `src/` may have, its unit tests not counted.
const MAX_FILE_LINES: usize = 800;

#[test]
fn no_source_file_is_over_800_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let crate_map = CrateMap::read(&src);
    let mut long = Vec::new();
    for file in crate_map.files.keys() {
        let text = std::fs::read_to_string(file).unwrap();
        let lines = text
            .lines()
            .take_while(|line| line.trim() != "#[cfg(test)]")
            .count();
        if lines > MAX_FILE_LINES {
            long.push(format!("{}: {lines} lines", relative(&src, file)));
        }
    }
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines (split them by what they do):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_scanner_reads_groups_aliases_inline_paths_and_skips_text() {
    let source = r##"
        pub use crate::{a::{b, c as d}, e::*};
        use super::f::G;
        pub(crate) use self::h::I;
        // use crate::in_a_comment;
        /* use crate::in_a_block /* nested */ comment; */
        fn x() -> crate::j::K { let _ = "crate::in_a_string"; let _ = r#"crate::raw"#; let c = '"'; crate::l::m(c) }
        fn y<'a>(v: &'a str) -> &'a str { super::super::n::o(v) }
        mod inner { use super::p::Q; }
    "##;
    let module = scan(source, &["top".into(), "file".into()], &BTreeSet::new());
    let paths: Vec<String> = module
        .references
        .iter()
        .map(|r| r.path.join("::"))
        .collect();
    assert_eq!(
        paths,
        [
            "a::b",
            "a::c",
            "e::*",
            "top::f::G",
            "top::file::h::I",
            "j::K",
            "l::m",
            "n::o",
            "top::file::p::Q",
        ]
    );
    assert_eq!(module.exports.get("d"), Some(&vec!["a".into(), "c".into()]));
    assert_eq!(
        module.exports.get("I"),
        Some(&vec!["top".into(), "file".into(), "h".into(), "I".into()])
    );
}

fn layer(top: &str) -> u8 {
    LAYERS
        .iter()
        .find(|(name, _)| *name == top)
        .map(|(_, layer)| *layer)
        .unwrap_or_else(|| {
            panic!("src/{top} has no layer: add it to LAYERS and docs/architecture.md")
        })
}

fn relative(src: &Path, file: &Path) -> String {
    format!(
        "src/{}",
        file.strip_prefix(src).unwrap_or(file).to_string_lossy()
    )
}

/// One path a file names, absolute from the crate root.
#[derive(Debug)]
struct Reference {
    path: Vec<String>,
    line: usize,
}

/// What one file names and re-exports.
#[derive(Debug, Default)]
struct Module {
    /// The file's module path from the crate root (`["skill", "load"]`).
    path: Vec<String>,
    references: Vec<Reference>,
    /// Names this file re-exports (`pub use`), to the absolute path they stand for.
    exports: BTreeMap<String, Vec<String>>,
}

/// Every file of the crate by its path.
struct CrateMap {
    src: PathBuf,
    files: BTreeMap<PathBuf, Module>,
}

impl CrateMap {
    fn read(src: &Path) -> CrateMap {
        let mut files = BTreeMap::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let module_path = module_path(src, &path);
                    let children = child_modules(&path);
                    let text = std::fs::read_to_string(&path).unwrap();
                    files.insert(path, scan(&text, &module_path, &children));
                }
            }
        }
        CrateMap {
            src: src.to_path_buf(),
            files,
        }
    }

    /// The file of a module path, if it is one.
    fn file_of(&self, module: &[String]) -> Option<PathBuf> {
        if module.is_empty() {
            return Some(self.src.join("lib.rs"));
        }
        let joined: PathBuf = module.iter().collect();
        [
            self.src.join(&joined).with_extension("rs"),
            self.src.join(&joined).join("mod.rs"),
        ]
        .into_iter()
        .find(|f| self.files.contains_key(f))
    }

    /// The file that defines what `path` names, following re-exports.
    fn resolve(&self, path: &[String]) -> Option<PathBuf> {
        let mut path = path.to_vec();
        for _ in 0..16 {
            let (file, consumed) = (0..=path.len())
                .rev()
                .find_map(|n| Some((self.file_of(&path[..n])?, n)))?;
            let Some(item) = path.get(consumed) else {
                return Some(file);
            };
            match self.files[&file].exports.get(item) {
                Some(target) => {
                    let mut next = target.clone();
                    next.extend_from_slice(&path[consumed + 1..]);
                    path = next;
                }
                None => return Some(file),
            }
        }
        None
    }
}

fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The modules a file declares with `mod name;` (whose files sit below it).
fn child_modules(file: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let tokens = tokenize(&text);
    let mut children = BTreeSet::new();
    for window in tokens.windows(3) {
        if let [
            (Token::Ident(m), _),
            (Token::Ident(name), _),
            (Token::Punct(';'), _),
        ] = window
            && m == "mod"
        {
            children.insert(name.clone());
        }
    }
    children
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Token {
    Ident(String),
    PathSep,
    Punct(char),
}

/// Rust tokens with comments, strings and character literals left out,
/// each with its line.
pub(super) fn tokenize(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(chars[i] == '\n');
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && at(i + 1) == 'r'))
            && matches!(at(i + 1 + usize::from(c == 'b')), '#' | '"')
        {
            // A raw string: r"…", r#"…"#, br"…".
            let mut j = i + 1 + usize::from(c == 'b');
            let mut hashes = 0;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            if at(j) != '"' {
                tokens.push((Token::Ident(c.to_string()), line));
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|k| at(j + 1 + k) == '#') {
                    j += 1 + hashes;
                    break;
                }
                line += usize::from(chars[j] == '\n');
                j += 1;
            }
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                line += usize::from(at(i) == '\n');
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1F600}') or a lifetime ('a).
            if at(i + 1) == '\\' {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1; // a lifetime: its name follows as an identifier
            }
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let word = word.strip_prefix("r#").map(str::to_string).unwrap_or(word);
            tokens.push((Token::Ident(word), line));
        } else if c == ':' && at(i + 1) == ':' {
            tokens.push((Token::PathSep, line));
            i += 2;
        } else {
            tokens.push((Token::Punct(c), line));
            i += 1;
        }
    }
    tokens
}

/// Reads the references and re-exports of one file whose module path is
/// `module`; `children` are the modules it declares.
fn scan(text: &str, module: &[String], children: &BTreeSet<String>) -> Module {
    let tokens = tokenize(text);
    let mut result = Module {
        path: module.to_vec(),
        ..Module::default()
    };
    // Inline `mod name { … }` blocks, with the brace depth they opened at.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        let current: Vec<String> = module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(name, _)| name.clone()))
            .collect();
        match &tokens[i].0 {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth -= 1;
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            Token::Ident(word) if word == "mod" => {
                if let (Some((Token::Ident(name), _)), Some((Token::Punct('{'), _))) =
                    (tokens.get(i + 1), tokens.get(i + 2))
                {
                    inline.push((name.clone(), depth));
                    depth += 1;
                    i += 3;
                    continue;
                }
            }
            Token::Ident(word) if word == "use" => {
                let exported = is_exported(&tokens[..i]);
                let mut j = i + 1;
                let mut paths = Vec::new();
                parse_use_tree(&tokens, &mut j, Vec::new(), &mut paths);
                for (path, alias) in paths {
                    let local_children = if inline.is_empty() {
                        children
                    } else {
                        &BTreeSet::new()
                    };
                    let Some(absolute) = absolute(&path, &current, local_children) else {
                        continue;
                    };
                    if exported
                        && let Some(alias) = alias.or_else(|| path.last().cloned())
                        && alias != "*"
                        && alias != "self"
                    {
                        result.exports.insert(alias, absolute.clone());
                    }
                    result.references.push(Reference {
                        path: absolute,
                        line: tokens[i].1,
                    });
                }
                i = j;
                continue;
            }
            Token::Ident(word)
                if matches!(word.as_str(), "crate" | "super" | "self")
                    && matches!(tokens.get(i + 1), Some((Token::PathSep, _)))
                    && !matches!(i.checked_sub(1).map(|p| &tokens[p].0), Some(Token::PathSep)) =>
            {
                let mut path = vec![word.clone()];
                let mut j = i + 1;
                while let (Some((Token::PathSep, _)), Some((Token::Ident(next), _))) =
                    (tokens.get(j), tokens.get(j + 1))
                {
                    path.push(next.clone());
                    j += 2;
                }
                if let Some(absolute) = absolute(&path, &current, &BTreeSet::new()) {
                    result.references.push(Reference {
                        path: absolute,
                        line: tokens[i].1,
                    });
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    result
}

/// Whether the `use` after `before` is `pub` or `pub(…)`.
fn is_exported(before: &[(Token, usize)]) -> bool {
    let n = before.len();
    let ident = |k: usize| match before.get(k) {
        Some((Token::Ident(w), _)) => Some(w.as_str()),
        _ => None,
    };
    ident(n.wrapping_sub(1)) == Some("pub")
        || (n >= 4
            && before[n - 1].0 == Token::Punct(')')
            && ident(n - 4) == Some("pub")
            && before[n - 3].0 == Token::Punct('('))
}

/// Parses one use tree at `tokens[*i]`, appending `(path, alias)` pairs.
fn parse_use_tree(
    tokens: &[(Token, usize)],
    i: &mut usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    loop {
        match tokens.get(*i).map(|t| &t.0) {
            Some(Token::PathSep) => *i += 1,
            Some(Token::Ident(word)) if word == "as" => {
                *i += 1;
                let alias = match tokens.get(*i).map(|t| &t.0) {
                    Some(Token::Ident(alias)) => alias.clone(),
                    _ => "_".into(),
                };
                *i += 1;
                out.push((prefix, Some(alias)));
                return;
            }
            Some(Token::Ident(word)) => {
                prefix.push(word.clone());
                *i += 1;
            }
            Some(Token::Punct('*')) => {
                prefix.push("*".into());
                *i += 1;
            }
            Some(Token::Punct('{')) => {
                *i += 1;
                loop {
                    match tokens.get(*i).map(|t| &t.0) {
                        Some(Token::Punct('}')) => {
                            *i += 1;
                            return;
                        }
                        Some(Token::Punct(',')) => *i += 1,
                        None => return,
                        _ => parse_use_tree(tokens, i, prefix.clone(), out),
                    }
                }
            }
            _ => {
                // `;`, `,` or `}` ends this tree.
                if matches!(tokens.get(*i).map(|t| &t.0), Some(Token::Punct(';'))) {
                    *i += 1;
                }
                if !prefix.is_empty() {
                    out.push((prefix, None));
                }
                return;
            }
        }
    }
}

/// `path` from the crate root, as seen from module `current`; `None` for
/// paths into other crates.
fn absolute(
    path: &[String],
    current: &[String],
    children: &BTreeSet<String>,
) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    let mut base = match first.as_str() {
        "crate" => Vec::new(),
        "self" => current.to_vec(),
        "super" => {
            let mut base = current.to_vec();
            base.pop();
            let mut rest = rest;
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
            base.extend(rest.iter().cloned());
            return Some(base);
        }
        name if children.contains(name) => {
            let mut base = current.to_vec();
            base.push(name.to_string());
            base
        }
        _ => return None,
    };
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The strongly connected components of more than one file (Tarjan).
fn cycles(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'g> {
        graph: &'g BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'g PathBuf, usize>,
        low: BTreeMap<&'g PathBuf, usize>,
        stack: Vec<&'g PathBuf>,
        on_stack: BTreeSet<&'g PathBuf>,
        found: Vec<Vec<PathBuf>>,
    }
    fn visit<'g>(state: &mut State<'g>, node: &'g PathBuf) {
        let n = state.index.len();
        state.index.insert(node, n);
        state.low.insert(node, n);
        state.stack.push(node);
        state.on_stack.insert(node);
        for next in state.graph.get(node).into_iter().flatten() {
            if !state.index.contains_key(next) {
                visit(state, next);
                let low = state.low[next].min(state.low[node]);
                state.low.insert(node, low);
            } else if state.on_stack.contains(next) {
                let low = state.index[next].min(state.low[node]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut component = Vec::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(member);
                component.push(member.clone());
                if member == node {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                state.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node) {
            visit(&mut state, node);
        }
    }
    state.found
}

#[test]
fn every_test_file_is_part_of_the_test_binary() {
    // A file under tests/it/ that main.rs does not declare compiles into
    // nothing, and its tests pass by never running.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    let declared: BTreeSet<&str> = main
        .lines()
        .filter_map(|line| line.trim().strip_prefix("mod "))
        .filter_map(|rest| rest.strip_suffix(';'))
        .collect();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let is_module = path.extension().is_some_and(|e| e == "rs") || path.join("mod.rs").exists();
        if is_module && name != "main" && !declared.contains(name.as_str()) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "tests/it/main.rs leaves out: {missing:?}"
    );
}
