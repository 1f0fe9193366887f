//! The grant parser (`command_line::split`) decides which simple commands
//! a model's command line runs, and a grant covers a line only when each
//! of them is plain (not opaque). Whenever it reads a line as plain simple
//! commands, the shell must read the same line as exactly those commands
//! with exactly those words: anything else lets a grant cover what it was
//! not given for.
//!
//! The reference is tree-sitter-bash, a real shell grammar, run in process
//! (microseconds a line). A line `split` reads as plain must parse with no
//! ERROR node (where it has one, `sh -n` and `bash -n`, which read a line
//! without running it, decide: a line either refuses is a failure, one
//! both accept is the grammar's own error and is skipped) into a program
//! of simple commands, lists (`&&`, `||`, `;`, newlines), pipelines and
//! comments only, each command's name and
//! arguments nothing but plain words, `'single'` and `"double"` quoted
//! strings without expansions, and concatenations of those; their words,
//! unquoted as the shell unquotes them, must be `split`'s words. Anything
//! else the grammar sees there (an expansion, substitution, redirection,
//! assignment, heredoc, subshell, keyword, test, background job) is a
//! command `split` should have made opaque.
//!
//! What the grammar leaves inside a plain word but the shell still
//! expands is checked on the words themselves: an unquoted glob as the
//! program or where it could match a file named as an option (the word
//! starts with `-` or with a pattern character) and brace expansion
//! (`a{b,c}`, bash's, and `sh` is bash on some systems) must make the
//! command opaque too. Tilde expansion is left alone: it cannot make an
//! option or a program name.
//!
//! Lines the grammar splits into words otherwise than the shell can are
//! not compared (`misread_by_grammar` and the checks before it): white
//! space other than space, tab and newline, a backslash-newline, an
//! escaped blank, a blank inside a grammar word, and two words of a
//! command with no blank or more than blanks between them.
#![no_main]

use std::cell::RefCell;
use std::process::{Command, Stdio};

use libfuzzer_sys::fuzz_target;
use skillpkg::agent::tools::command_line::split;
use tree_sitter::{Node, Parser};

thread_local! {
    static PARSER: RefCell<Parser> = RefCell::new({
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_bash::LANGUAGE.into())
            .expect("the bash grammar loads");
        parser
    });
}

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    // `sh -c LINE` cannot be given a NUL. The grammar takes any white
    // space (a carriage return, a vertical tab) for a blank and a
    // backslash-newline for a break between words; the shell's blanks
    // are space and tab only, and it removes a backslash-newline
    // (`a\<newline>b` is `ab`), as `split` does: not compared.
    let other_blank = |c: char| c.is_whitespace() && !matches!(c, ' ' | '\t' | '\n');
    if line.contains('\0') || line.contains(other_blank) || line.contains("\\\n") {
        return;
    }
    let commands = split(line);
    if commands.is_empty() || commands.iter().any(|c| c.opaque.is_some()) {
        return;
    }
    let words: Vec<Vec<String>> = commands.into_iter().map(|c| c.words).collect();
    let tree = PARSER
        .with(|p| p.borrow_mut().parse(line, None))
        .expect("a tree");
    if tree.root_node().has_error() {
        // Not every error of the grammar is the shell's (it refuses
        // `iec%`): the shells themselves read the line, without running
        // it, and a line either refuses is one `split` must not read.
        match refused_by(line) {
            Some(shell) => panic!(
                "split read {line:?} as the plain commands {words:?}, but {shell} refuses it: {}",
                tree.root_node().to_sexp()
            ),
            None => return,
        }
    }
    if misread_by_grammar(tree.root_node(), line) {
        return;
    }
    match reference(tree.root_node(), line) {
        Ok(reference) => assert_eq!(
            words, reference,
            "split and the shell grammar read {line:?} as different commands"
        ),
        Err(why) => panic!(
            "split read {line:?} as the plain commands {words:?}, but the shell grammar sees {why}"
        ),
    }
});

/// The simple commands of `root` and their words, unquoted, or what in
/// the line is not a plain simple command.
fn reference(root: Node, line: &str) -> Result<Vec<Vec<String>>, String> {
    if root.kind() != "program" {
        return Err(format!("a {}", root.kind()));
    }
    let mut commands = Vec::new();
    statements(root, line, &mut commands)?;
    Ok(commands)
}

/// Whether the grammar splits words otherwise than the shell can: it
/// drops an escaped blank (`\ -` is the word ` -` to the shell, `-` to
/// the grammar, and `\<tab>` a word of its own), reads an unquoted blank
/// inside a word (`] ]]` after `]]A`), or leaves between two words of a
/// command no blank (`.]` and `\A9` in `.]\A9`) or more than blanks.
/// Such lines are not compared.
fn misread_by_grammar(root: Node, line: &str) -> bool {
    if has_escaped_blank(line) {
        return true;
    }
    let mut cursor = root.walk();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.kind() == "word"
            && unquote_plain(&line[node.byte_range()])
                .iter()
                .any(|&(c, quoted)| !quoted && matches!(c, ' ' | '\t' | '\n'))
        {
            return true;
        }
        let children: Vec<Node> = node.children(&mut cursor).collect();
        // Between two words of a command, the shell sees blanks only.
        if node.kind() == "command"
            && children.windows(2).any(|w| {
                let gap = &line[w[0].end_byte()..w[1].start_byte()];
                gap.is_empty() || !gap.chars().all(|c| matches!(c, ' ' | '\t'))
            })
        {
            return true;
        }
        stack.extend(children);
    }
    false
}

/// Whether `line` has a backslash before a space or tab outside quotes
/// and comments.
fn has_escaped_blank(line: &str) -> bool {
    let mut chars = line.chars();
    let mut word_start = true;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(' ' | '\t') => return true,
                _ => word_start = false,
            },
            '\'' => {
                while chars.next().is_some_and(|c| c != '\'') {}
                word_start = false;
            }
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                word_start = false;
            }
            '#' if word_start => while chars.next().is_some_and(|c| c != '\n') {},
            c => word_start = matches!(c, ' ' | '\t' | '\n' | ';' | '&' | '|' | '(' | ')'),
        }
    }
    false
}

/// The shell (`sh` or `bash`) that refuses `line` as a syntax error, if
/// any: `-n` reads commands without running them, and `--` keeps a line
/// that starts with `-` or `+` from being read as the shell's options.
fn refused_by(line: &str) -> Option<&'static str> {
    ["sh", "bash"].into_iter().find(|shell| {
        !Command::new(shell)
            .args(["-n", "-c", "--", line])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("the shell runs")
            .success()
    })
}

fn statements(node: Node, line: &str, commands: &mut Vec<Vec<String>>) -> Result<(), String> {
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match child.kind() {
            "command" => commands.push(command(child, line)?),
            "list" | "pipeline" => statements(child, line, commands)?,
            "comment" | ";" | "&&" | "||" | "|" | "|&" | "\n" => {}
            kind => return Err(describe(kind, child, line)),
        }
    }
    Ok(())
}

fn command(node: Node, line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cursor = node.walk();
    for (i, child) in node.children(&mut cursor).enumerate() {
        let field = node.field_name_for_child(i as u32);
        let word = match (field, child.kind()) {
            (Some("name"), "command_name") => {
                let [name] = named_children(child)[..] else {
                    return Err(describe("command_name", child, line));
                };
                word(name, line, true)?
            }
            (Some("argument"), _) | (None, "==" | "=~") => word(child, line, false)?,
            (_, kind) => return Err(describe(kind, child, line)),
        };
        words.push(word);
    }
    Ok(words)
}

fn named_children(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// One word, unquoted as the shell unquotes it, after a look for what
/// the shell would still expand in it.
fn word(node: Node, line: &str, program: bool) -> Result<String, String> {
    let chars = chars_of(node, line)?;
    let text = &line[node.byte_range()];
    expansions_in(&chars, program).map_err(|why| format!("{why} in the word {text:?}"))?;
    Ok(chars.into_iter().map(|(c, _)| c).collect())
}

/// The characters of a word as the shell reads them, each with whether
/// it is quoted.
fn chars_of(node: Node, line: &str) -> Result<Vec<(char, bool)>, String> {
    let text = &line[node.byte_range()];
    let quoted = |s: String| s.chars().map(|c| (c, true)).collect();
    match node.kind() {
        // The grammar reads `==` and `=~` as tokens of its own where a
        // test may use them; to the shell they are words.
        "word" | "number" | "==" | "=~" => Ok(unquote_plain(text)),
        "raw_string" => Ok(quoted(text[1..text.len() - 1].to_string())),
        "string" => {
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                if !matches!(child.kind(), "\"" | "string_content") {
                    return Err(describe(child.kind(), child, line));
                }
            }
            Ok(quoted(unquote_double(&text[1..text.len() - 1])))
        }
        "concatenation" => {
            let mut joined = Vec::new();
            let mut end = node.start_byte();
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                if child.start_byte() != end {
                    return Err(format!("a gap in the concatenation {text:?}"));
                }
                end = child.end_byte();
                joined.extend(chars_of(child, line)?);
            }
            if end != node.end_byte() {
                return Err(format!("a gap in the concatenation {text:?}"));
            }
            Ok(joined)
        }
        kind => Err(describe(kind, node, line)),
    }
}

fn describe(kind: &str, node: Node, line: &str) -> String {
    format!("a {kind} ({:?})", &line[node.byte_range()])
}

/// An unquoted word as the shell reads it: a backslash quotes the next
/// character, a backslash-newline is removed, a final backslash stays.
fn unquote_plain(text: &str) -> Vec<(char, bool)> {
    let mut out = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => out.push((c, true)),
                None => out.push(('\\', true)),
            },
            c => out.push((c, false)),
        }
    }
    out
}

/// The inside of `"…"` as the shell reads it: a backslash quotes only
/// `"`, `\`, `$`, `` ` `` and a newline (removed); else it stays.
fn unquote_double(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('\n') => {
                    chars.next();
                }
                Some(&n @ ('"' | '\\' | '$' | '`')) => {
                    chars.next();
                    out.push(n);
                }
                _ => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// What the shell expands in a word that the grammar leaves plain: an
/// unquoted glob that is the program or could match a file named as an
/// option (the word starts with `-` or with a pattern character), and a
/// brace expansion.
fn expansions_in(chars: &[(char, bool)], program: bool) -> Result<(), &'static str> {
    let pattern = |&(c, quoted): &(char, bool)| !quoted && matches!(c, '*' | '?' | '[');
    if chars.iter().any(pattern) {
        if program {
            return Err("a glob as the program");
        }
        match chars.first() {
            Some(first) if pattern(first) => return Err("a glob"),
            Some(('-', _)) => return Err("a glob"),
            _ => {}
        }
    }
    if let Some(open) = chars.iter().position(|&(c, q)| c == '{' && !q) {
        let rest = &chars[open + 1..];
        let comma = rest.iter().any(|&(c, q)| c == ',' && !q);
        let range = rest
            .windows(2)
            .any(|w| w[0] == ('.', false) && w[1] == ('.', false));
        if comma || range {
            return Err("a brace expansion");
        }
    }
    Ok(())
}
