//! What a rule found, and how much it weighs.

use serde::{Deserialize, Serialize};

/// How much a finding weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Severity {
    /// Worth knowing.
    Info,
    /// Shown once in a summary; never refuses.
    Warn,
    /// Refuses the skill unless waived.
    Block,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warn => "warn",
            Severity::Block => "block",
        })
    }
}

/// One rule firing on one place of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Finding {
    /// The rule's id.
    pub rule: &'static str,
    /// Its weight here (a blocking rule warns in documentation).
    pub severity: Severity,
    /// The file, relative to the skill, `/`-separated.
    pub file: String,
    /// 1-based line, when the finding has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What was found, in plain words.
    pub message: String,
    /// The text found, escaped and cut to one short line.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub excerpt: String,
    /// Why it does not count, when a waiver in `skills.lock` accepts it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waived: Option<String>,
}

/// `text` escaped (control and invisible characters as `\u{…}`) and cut
/// to about 100 characters, for one line of a report.
pub(crate) fn excerpt(text: &str) -> String {
    let mut shown = String::new();
    for (count, c) in text.trim().chars().enumerate() {
        if count == 100 {
            shown.push('…');
            break;
        }
        match c {
            c if c.is_control() || crate::skill::hidden::describe(c).is_some() => {
                shown.push_str(&format!("\\u{{{:04X}}}", c as u32));
            }
            c => shown.push(c),
        }
    }
    shown
}
