//! What validation reports: problems, their severity, and the parsed
//! SKILL.md the author warnings work on.

use std::path::PathBuf;

use serde::Serialize;

use crate::skill::strict_yaml::StrictValue;

/// How serious a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The reference validator rejects the skill.
    Error,
    /// A hint for authors (`--strict`); the skill is still valid.
    Warning,
}

/// One problem found in a skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The file the problem is in (the skill directory when there is no file).
    pub file: PathBuf,
    /// 1-based line, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// 1-based column of that line, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// A stable rule identifier such as `name-lowercase`.
    pub rule: &'static str,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, in the reference validator's words where it has one.
    pub message: String,
}

impl Problem {
    /// Where it is, as compilers say it: `file:line:column`, or as much
    /// of that as is known.
    pub fn location(&self) -> String {
        let file = self.file.display();
        match (self.line, self.column) {
            (Some(line), Some(column)) => format!("{file}:{line}:{column}"),
            (Some(line), None) => format!("{file}:{line}"),
            _ => file.to_string(),
        }
    }
}

/// A SKILL.md that parsed as StrictYAML: what the linter works on.
pub struct Parsed {
    /// The SKILL.md file.
    pub skill_md: PathBuf,
    /// The frontmatter mapping.
    pub frontmatter: StrictValue,
    /// The body, after the closing delimiter.
    pub body: String,
    /// The 1-based line of the file where the `description` key is.
    pub description_line: Option<usize>,
    /// The 1-based line of the file where the body starts (the closing
    /// delimiter's, whose rest is the body's first line).
    pub body_line: usize,
}
