//! Lenient YAML parsing for the loader: standard YAML 1.2, as agents read
//! it, within limits that make hostile documents fail fast.

use serde_json::Value;

/// Why YAML did not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    /// Where, as a 1-based line and column of the YAML text, when the
    /// parser says.
    pub at: Option<(usize, usize)>,
    /// What is wrong, without the parser's own position or snippet.
    pub message: String,
}

/// Parses frontmatter YAML with limits that make hostile documents (alias
/// bombs, deep nesting, huge node counts) fail fast with a clear error.
pub fn parse_yaml(yaml: &str) -> Result<Value, YamlError> {
    let options = serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_depth: 64,
            max_aliases: 64,
            max_anchors: 64,
            max_nodes: 20_000,
            max_events: 100_000,
            max_documents: 1,
            max_recorded_anchor_events: 10_000,
            max_recorded_anchor_bytes: 1 << 20,
        },
    };
    serde_saphyr::from_str_with_options::<Option<Value>>(yaml, options)
        .map(|v| v.unwrap_or(Value::Null))
        .map_err(|e| YamlError {
            at: e
                .location()
                .map(|l| (l.line() as usize, l.column() as usize)),
            message: plain_message(&e.without_snippet().to_string()),
        })
}

/// The parser's message without its own location prefix (its lines count
/// from the start of the frontmatter; callers report file lines instead)
/// and without advice about parser options that users cannot set.
fn plain_message(rendered: &str) -> String {
    let first = rendered.lines().next().unwrap_or("invalid YAML");
    if first.contains("budget breached") {
        return "it is too large or uses too many anchors, aliases or nested levels for a frontmatter".to_string();
    }
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let first = match first
        .strip_prefix("line ")
        .and_then(|rest| rest.split_once(": "))
    {
        Some((position, message)) if position.contains(" column ") => message,
        _ => first,
    };
    let first = first
        .split(", set DuplicateKeyPolicy")
        .next()
        .unwrap_or(first);
    match first.rsplit_once(" at line ") {
        Some((message, position)) if position.contains(", column ") => message.to_string(),
        _ => first.to_string(),
    }
}
