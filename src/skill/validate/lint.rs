//! `validate --strict`: warnings that help authors beyond the reference rules.

use std::path::Path;

use super::problem::{Parsed, Problem, Severity};
use crate::skill::model::split_tool_string;
use crate::skill::spec::MAX_BODY_LINES;
use crate::skill::strict_yaml::StrictValue;
use crate::skill::template;
use crate::skill::tool_pattern;

/// Phrases that tell an agent *when* to use a skill.
const TRIGGER_CUES: [&str; 8] = [
    "use when",
    "when ",
    "use this",
    "use for",
    "whenever",
    "if the user",
    "trigger",
    "use it",
];

fn warning(file: &Path, rule: &'static str, message: impl Into<String>) -> Problem {
    Problem {
        file: file.to_path_buf(),
        line: None,
        column: None,
        rule,
        severity: Severity::Warning,
        message: message.into(),
    }
}

/// Adds author warnings for a skill whose frontmatter parsed.
pub(super) fn lint(dir: &Path, parsed: &Parsed, problems: &mut Vec<Problem>) {
    let file = parsed.skill_md.as_path();
    let fm = &parsed.frontmatter;

    let body_lines = parsed.body.lines().count();
    if body_lines > MAX_BODY_LINES {
        problems.push(warning(
            file,
            "body-length",
            format!("Body has {body_lines} lines (over {MAX_BODY_LINES}): move detail into references/ files"),
        ));
    }
    if fm
        .get("compatibility")
        .and_then(StrictValue::as_str)
        .is_some_and(|c| c.trim().is_empty())
    {
        problems.push(warning(
            file,
            "compatibility-empty",
            "Field 'compatibility' is empty: remove it or say what the skill needs",
        ));
    }
    if !metadata_is_string_map(fm.get("metadata")) {
        problems.push(warning(
            file,
            "metadata-not-string-map",
            "Field 'metadata' should map string keys to string values (no nesting or lists)",
        ));
    }
    match fm.get("allowed-tools") {
        None => {}
        Some(StrictValue::Str(tools)) if !tools.contains(',') => {}
        Some(_) => problems.push(warning(
            file,
            "allowed-tools-format",
            "Field 'allowed-tools' should be one space-separated string, such as \"Bash(git:*) Read\"",
        )),
    }
    for pattern in tool_patterns(fm.get("allowed-tools")) {
        if tool_pattern::is_unsafe(&pattern) {
            problems.push(warning(
                file,
                tool_pattern::UNSAFE_PATTERN_RULE,
                format!(
                    "{}; agents loading it through skillpkg drop it",
                    tool_pattern::describe_unsafe(&pattern)
                ),
            ));
        }
    }
    if has_angle_brackets(fm) {
        problems.push(warning(
            file,
            "angle-brackets",
            "Frontmatter contains '<' or '>': agents embed it in XML prompts, where they can break the markup",
        ));
    }
    if let Some(description) = fm.get("description").and_then(StrictValue::as_str) {
        let lower = description.to_lowercase();
        if !TRIGGER_CUES.iter().any(|cue| lower.contains(cue)) {
            problems.push(warning(
                file,
                "description-no-trigger",
                "Description does not say when to use the skill (e.g. \"Use when the user asks to …\")",
            ));
        }
    }

    placeholders(parsed, problems);

    // What installs warn about, said before publishing.
    if let Ok(hidden) = crate::skill::hidden::scan_hidden_unicode(dir) {
        for found in hidden {
            problems.push(warning(
                &dir.join(&found.file),
                "hidden-unicode",
                found.to_string(),
            ));
        }
    }

    let links = links_of(&parsed.body);
    for target in local_references(&parsed.body) {
        let path = dir.join(&target);
        // A path in a code span may be one the skill creates or one in
        // the user's project: only a link claims the file is there.
        if !path.exists() && links.contains(&target) {
            problems.push(warning(
                file,
                "missing-reference",
                format!("Referenced file '{target}' does not exist"),
            ));
        } else if path.extension().is_some_and(|e| e == "md")
            && let Ok(text) = std::fs::read_to_string(&path)
        {
            let base = path.parent().unwrap_or(dir);
            for nested in local_references(&text) {
                if base.join(&nested).exists() && !is_skill_md(&base.join(&nested)) {
                    problems.push(warning(
                        &path,
                        "deep-reference",
                        format!("'{target}' references '{nested}': keep references one level deep from SKILL.md"),
                    ));
                }
            }
        }
    }
}

/// Warns, at its line, about each piece of the `skillpkg new` template's
/// placeholder text still in the skill: the description, and each run of
/// the body's lines.
fn placeholders(parsed: &Parsed, problems: &mut Vec<Problem>) {
    let file = parsed.skill_md.as_path();
    let at = |line: usize, message: String| Problem {
        line: Some(line),
        ..warning(file, "template-placeholder", message)
    };
    if parsed
        .frontmatter
        .get("description")
        .and_then(StrictValue::as_str)
        .is_some_and(template::is_placeholder_description)
    {
        problems.push(at(
            parsed.description_line.unwrap_or(1),
            "The description is still the placeholder `skillpkg new` wrote: say what the skill does and when to use it".into(),
        ));
    }
    for (first, last) in template::placeholder_runs(&parsed.body) {
        let through = match first == last {
            true => String::new(),
            false => format!(" (through line {})", parsed.body_line + last),
        };
        problems.push(at(
            parsed.body_line + first,
            format!("The body still has the placeholder text `skillpkg new` wrote{through}: replace it with the skill's instructions"),
        ));
    }
}

/// The patterns of an `allowed-tools` value, split as the lenient loader
/// splits them.
fn tool_patterns(value: Option<&StrictValue>) -> Vec<String> {
    match value {
        Some(StrictValue::Str(tools)) => split_tool_string(tools),
        Some(StrictValue::Seq(items)) => items
            .iter()
            .filter_map(StrictValue::as_str)
            .flat_map(split_tool_string)
            .collect(),
        _ => Vec::new(),
    }
}

fn is_skill_md(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.eq_ignore_ascii_case("skill.md"))
}

fn metadata_is_string_map(value: Option<&StrictValue>) -> bool {
    match value {
        None => true,
        Some(StrictValue::Map(entries)) => entries
            .iter()
            .all(|(_, v)| matches!(v, StrictValue::Str(_))),
        Some(_) => false,
    }
}

fn has_angle_brackets(value: &StrictValue) -> bool {
    match value {
        StrictValue::Str(s) => s.contains('<') || s.contains('>'),
        StrictValue::Seq(items) => items.iter().any(has_angle_brackets),
        StrictValue::Map(entries) => entries
            .iter()
            .any(|(k, v)| k.contains('<') || k.contains('>') || has_angle_brackets(v)),
        StrictValue::NotCollection => false,
    }
}

/// The relative link targets of a Markdown text.
fn links_of(markdown: &str) -> Vec<String> {
    references(markdown, false)
}

/// Relative file paths a Markdown text points at: link targets and
/// backticked paths under `scripts/`, `references/` or `assets/`.
pub(super) fn local_references(markdown: &str) -> Vec<String> {
    references(markdown, true)
}

/// Relative link targets, and with `code_spans` backticked paths.
fn references(markdown: &str, code_spans: bool) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut push = |target: &str| {
        let target = target.split('#').next().unwrap_or("").trim();
        let is_local = !target.is_empty()
            && !target.contains("://")
            && !target.starts_with('/')
            && !target.ends_with('/')
            && !target.starts_with("mailto:")
            && !target.contains(char::is_whitespace)
            && !target.contains(['{', '}', '$', '*', '<', '>']);
        if is_local && !found.iter().any(|f| f == target) {
            found.push(target.to_string());
        }
    };
    let mut in_fence = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find("](") {
            let after = &rest[start + 2..];
            let Some(end) = after.find(')') else { break };
            push(&after[..end]);
            rest = &after[end..];
        }
        for (i, chunk) in line.split('`').enumerate() {
            let looks_like_path = ["scripts/", "references/", "assets/"]
                .iter()
                .any(|p| chunk.starts_with(p));
            if code_spans && i % 2 == 1 && looks_like_path {
                push(chunk);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_links_and_backticked_paths() {
        let md = "See [the guide](references/guide.md#top) and `scripts/run.sh`.\n```\n[x](inside-fence.md)\n```\n[web](https://example.com) `not/a/skill/path`";
        assert_eq!(
            local_references(md),
            vec!["references/guide.md", "scripts/run.sh"]
        );
    }
}
