//! Commands assembled from variables: simple constant assignments of a
//! script (`a=ba; b=sh`, quoted literals, `$'\x63…'`, `$(printf "\x63…")`,
//! `$(echo -e …)`, and values built from earlier constants) are resolved
//! in the lines that follow, so that the line rules read `curl … | $a$b`
//! as `curl … | bash`. A variable assigned anything else is unknown from
//! there on. A download piped into a command whose name is still an
//! expansion is a finding of its own: what runs is decided elsewhere.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::pattern::regex;
use super::shell;

/// An assignment at the start of a statement, with its raw value.
static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"(?:^|[;&|({]\s*|\bexport\s+|\blocal\s+|\breadonly\s+|\bdeclare\s+(?:-\w+\s+)*)([A-Za-z_]\w*)=('[^']*'|"(?:[^"\\]|\\.)*"|\$'(?:[^'\\]|\\.)*'|\$\([^()]*\)|`[^`]*`|[^\s;&|'"`()<>]*)"#,
    )
});

/// A variable expanded: `$name` or `${name}`.
static EXPANSION: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))"));

/// A plain word left in quotes once resolved.
static QUOTED_WORD: LazyLock<Regex> = LazyLock::new(|| regex(r#""([\w./:@+-]*)""#));

/// The lines of `lines` that read differently once the constants assigned
/// before them are put in, as (number, resolved text, in code).
pub(super) fn resolve(lines: &[(usize, &str, bool)]) -> Vec<(usize, String, bool)> {
    let mut constants: HashMap<String, String> = HashMap::new();
    let mut resolved = Vec::new();
    for &(number, line, in_code) in lines {
        let text = substitute(line, &constants);
        if text != line {
            resolved.push((
                number,
                QUOTED_WORD.replace_all(&text, "$1").into_owned(),
                in_code,
            ));
        }
        for captures in ASSIGNMENT.captures_iter(line) {
            let name = captures[1].to_string();
            match value(&captures[2], &constants) {
                Some(value) => constants.insert(name, value),
                None => constants.remove(&name),
            };
        }
    }
    resolved
}

/// `line` with the known constants put in for their expansions.
fn substitute(line: &str, constants: &HashMap<String, String>) -> String {
    if constants.is_empty() {
        return line.to_string();
    }
    EXPANSION
        .replace_all(line, |c: &Captures| {
            let name = c.get(1).or_else(|| c.get(2)).map_or("", |m| m.as_str());
            constants
                .get(name)
                .cloned()
                .unwrap_or_else(|| c[0].to_string())
        })
        .into_owned()
}

/// The constant a raw assigned value stands for, when it is one.
fn value(raw: &str, constants: &HashMap<String, String>) -> Option<String> {
    let constant = |text: String| (!text.contains(['$', '`'])).then_some(text);
    if let Some(inner) = raw.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
        return Some(inner.to_string());
    }
    if let Some(inner) = raw.strip_prefix("$'").and_then(|r| r.strip_suffix('\'')) {
        return Some(unescape(inner));
    }
    let substituted = raw
        .strip_prefix("$(")
        .and_then(|r| r.strip_suffix(')'))
        .or_else(|| raw.strip_prefix('`').and_then(|r| r.strip_suffix('`')));
    if let Some(command) = substituted {
        return printed(&substitute(command, constants)).and_then(constant);
    }
    let inner = raw
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(raw);
    constant(substitute(inner, constants).replace("\\\"", "\""))
}

/// What `printf …` or `echo …` of literal words prints.
fn printed(command: &str) -> Option<String> {
    let statements = shell::statements(command);
    let [pipeline] = statements.as_slice() else {
        return None;
    };
    let [stage] = pipeline.as_slice() else {
        return None;
    };
    let (name, args) = stage.words.split_first()?;
    match name.as_str() {
        "printf" => {
            let (format, rest) = args.split_first()?;
            let mut rest = rest.iter();
            let mut out = String::new();
            let mut parts = format.split("%s");
            out.push_str(&unescape(parts.next().unwrap_or("")));
            for part in parts {
                out.push_str(rest.next()?);
                out.push_str(&unescape(part));
            }
            (!out.contains('%')).then_some(out)
        }
        "echo" => {
            let mut escapes = false;
            let mut words = args.iter().peekable();
            while let Some(flag) =
                words.next_if(|w| matches!(w.as_str(), "-e" | "-n" | "-en" | "-ne"))
            {
                escapes |= flag.contains('e');
            }
            let text = words.cloned().collect::<Vec<_>>().join(" ");
            Some(if escapes { unescape(&text) } else { text })
        }
        _ => None,
    }
}

/// `text` with the escapes of `printf`, `echo -e` and `$'…'` decoded
/// (`\xHH`, `\NNN` octal, `\uHHHH`, `\n`, `\t`, `\\`, `\'`, `\"`).
fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let digits = |chars: &mut std::iter::Peekable<std::str::Chars>, radix: u32, most: usize| {
            let mut value = String::new();
            while value.len() < most
                && let Some(d) = chars.next_if(|d| d.is_digit(radix))
            {
                value.push(d);
            }
            u32::from_str_radix(&value, radix)
                .ok()
                .and_then(char::from_u32)
        };
        match chars.next() {
            Some('x') => out.extend(digits(&mut chars, 16, 2)),
            Some('u') => out.extend(digits(&mut chars, 16, 4)),
            // `\NNN` (printf, `$'…'`) and `\0NNN` (`echo -e`).
            Some(d @ '0'..='7') => {
                let most = if d == '0' { 3 } else { 2 };
                let mut value = d.to_digit(8).unwrap_or(0);
                for _ in 0..most {
                    match chars.next_if(|c| c.is_digit(8)) {
                        Some(c) => value = value * 8 + c.to_digit(8).unwrap_or(0),
                        None => break,
                    }
                }
                out.extend(char::from_u32(value));
            }
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// The lines of `lines` where a download is piped into a command whose
/// name is still a variable's expansion once constants are resolved.
pub(super) fn download_into_expansion<'a>(
    lines: &[(usize, &'a str, bool)],
    resolved: &[(usize, String, bool)],
) -> Vec<(usize, &'a str, bool)> {
    lines
        .iter()
        .filter(|&&(number, line, _)| {
            let might = |text: &str| {
                text.contains('|')
                    && ["curl", "wget", "iwr", "fetch"]
                        .iter()
                        .any(|d| text.contains(d))
            };
            if !might(line) {
                return false;
            }
            let text = resolved
                .iter()
                .find(|(n, _, _)| *n == number)
                .map_or(line, |(_, text, _)| text.as_str());
            shell::statements(text).iter().any(|pipeline| {
                let download = pipeline.iter().position(|stage| {
                    stage
                        .command()
                        .is_some_and(|(name, _)| matches!(name, "curl" | "wget" | "iwr" | "fetch"))
                });
                download.is_some_and(|at| {
                    pipeline[at + 1..].iter().any(|stage| {
                        stage
                            .command()
                            .is_some_and(|(name, _)| name.starts_with('$'))
                    })
                })
            })
        })
        .copied()
        .collect()
}

#[cfg(test)]
mod tests;
