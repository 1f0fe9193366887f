//! What an approval prompt shows about a call, in one style for every
//! tool: a heading that says what the tool would do, then one item a
//! line (the caller escapes each to stay one line). Never the model's raw
//! arguments: for `shell` each simple command, for `run_script` the
//! script and its arguments, for `write_file` the file, its size and its
//! first lines, for any other tool each argument by name.

use serde_json::Value;

/// Lines of a `write_file` content shown, at most.
const PREVIEW_LINES: usize = 5;
/// Characters of one shown line, at most.
const PREVIEW_WIDTH: usize = 100;

/// A call as a prompt shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ShownCall {
    /// What the tool would do: `Allow shell to run:`.
    pub heading: String,
    /// The items, one a line, without indentation.
    pub items: Vec<String>,
}

/// How a call of `tool` with `input` is shown for approval.
pub(crate) fn show(tool: &str, input: &Value) -> ShownCall {
    let text = |key: &str| input[key].as_str();
    match (tool, text("command"), text("path")) {
        ("shell", Some(line), _) => ShownCall {
            heading: "Allow shell to run:".into(),
            items: super::command_line::describe(line),
        },
        ("run_script", _, Some(path)) => ShownCall {
            heading: format!(
                "Allow run_script to run a script of the skill '{}':",
                text("skill").unwrap_or("?")
            ),
            items: vec![script_line(path, &input["args"])],
        },
        ("write_file", _, Some(path)) => ShownCall {
            heading: "Allow write_file to write:".into(),
            items: write_items(path, text("content").unwrap_or("")),
        },
        (tool, _, _) => ShownCall {
            heading: format!("Allow {tool} with:"),
            items: arguments(input),
        },
    }
}

/// `path args…`, each word quoted as a shell would need it.
fn script_line(path: &str, args: &Value) -> String {
    let args: Vec<String> = match args {
        Value::Array(items) => items
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .collect(),
        Value::String(line) => crate::agent::slash::split_args(line),
        Value::Null => Vec::new(),
        other => vec![other.to_string()],
    };
    std::iter::once(path.to_string())
        .chain(args)
        .map(|word| crate::hint::shell_quote(&word).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The file, its size, and its first lines, each marked as content.
fn write_items(path: &str, content: &str) -> Vec<String> {
    let lines = content.lines().count();
    let mut items = vec![format!(
        "{path} ({}, {})",
        count(content.len(), "byte"),
        count(lines, "line")
    )];
    for line in content.lines().take(PREVIEW_LINES) {
        let cut: String = line.chars().take(PREVIEW_WIDTH).collect();
        let more = if cut.len() < line.len() { "…" } else { "" };
        items.push(match cut.is_empty() {
            true => "|".to_string(),
            false => format!("| {cut}{more}"),
        });
    }
    if lines > PREVIEW_LINES {
        let more = lines - PREVIEW_LINES;
        let noun = if more == 1 { "line" } else { "lines" };
        items.push(format!("| … ({more} more {noun})"));
    }
    items
}

/// Each argument as `name: value` (strings as they are, other values as
/// JSON).
fn arguments(input: &Value) -> Vec<String> {
    match input {
        Value::Object(fields) if !fields.is_empty() => fields
            .iter()
            .map(|(name, value)| match value {
                Value::String(text) => format!("{name}: {text}"),
                other => format!("{name}: {other}"),
            })
            .collect(),
        Value::Object(_) | Value::Null => vec!["(no arguments)".into()],
        other => vec![other.to_string()],
    }
}

/// `count` and the noun, plural but for one.
fn count(count: usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shown(tool: &str, input: Value) -> String {
        let call = show(tool, &input);
        std::iter::once(call.heading)
            .chain(call.items.iter().map(|item| format!("  {item}")))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn every_tool_is_shown_as_a_heading_and_items_never_as_raw_json() {
        let calls = [
            shown("shell", json!({"command": "git status && ls -la"})),
            shown(
                "run_script",
                json!({"skill": "pdf", "path": "scripts/extract.sh", "args": ["report one.pdf", "-v"]}),
            ),
            shown(
                "write_file",
                json!({"path": "notes/out.md", "content": "# Notes\n\nfirst\nsecond\nthird\nfourth\n"}),
            ),
            shown(
                "fetch_url",
                json!({"url": "https://example.com", "timeout": 5}),
            ),
        ];
        insta::assert_snapshot!(calls.join("\n"), @r"
        Allow shell to run:
          1. git status
          2. ls -la
        Allow run_script to run a script of the skill 'pdf':
          scripts/extract.sh 'report one.pdf' -v
        Allow write_file to write:
          notes/out.md (35 bytes, 6 lines)
          | # Notes
          |
          | first
          | second
          | third
          | … (1 more line)
        Allow fetch_url with:
          timeout: 5
          url: https://example.com
        ");
    }
}
