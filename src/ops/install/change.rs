//! What an install did, or would do, to each skill.

use serde::Serialize;

use super::wanted::Wanted;
use crate::manifest::lock::{LockedSkill, Lockfile};
use crate::manifest::source_id::SourceId;

/// What happened to one skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Newly installed.
    Installed,
    /// Replaced by another version.
    Updated,
    /// Already in place.
    Unchanged,
    /// Removed: no longer wanted.
    Removed,
}

/// One line of an install report.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    /// `org/name`.
    pub name: String,
    /// The version now installed (or removed).
    pub version: String,
    /// What happened.
    pub action: Action,
    /// Warnings about the installed files (hidden Unicode), naming file and line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Patterns of its `allowed-tools` approved by this install.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub approved_grants: Vec<String>,
    /// Patterns of its `allowed-tools` it asks for that stay unapproved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unapproved_grants: Vec<String>,
    /// The commit a git skill is at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// What an updated skill was before: its version, or for a git skill
    /// whose version did not change, its commit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous: Option<String>,
    /// Its locked version, kept, is yanked from its index.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yanked: Option<crate::ops::yanked::YankedPin>,
    /// The sources a name changed between (`add --replace`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced: Option<super::collisions::Replaced>,
    /// The specification's rules the skill breaks, said when this install
    /// put it in place (it is installed as agents load it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub broken_rules: Option<BrokenRules>,
}

/// The specification's rules an installed skill breaks, and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BrokenRules {
    /// The rules' identifiers (`unknown-field`, `description-length`, …),
    /// sorted, once each.
    pub rules: Vec<String>,
    /// The skill's folder, as shown to the user (relative to the project
    /// when inside it).
    pub folder: std::path::PathBuf,
}

impl BrokenRules {
    /// The warning for the one skill `name`: which rules it breaks, and
    /// the command that shows why.
    pub fn warning(&self, name: &str) -> String {
        format!(
            "{name} breaks the specification's rules ({}), and is installed as agents load it; `skillpkg validate {}` shows why, and --require-valid refuses such skills",
            self.rules.join(", "),
            crate::hint::shell_path(&self.folder)
        )
    }
}

impl Change {
    /// A change with no warnings.
    pub fn new(name: &str, version: &str, action: Action) -> Change {
        Change {
            name: name.to_string(),
            version: version.to_string(),
            action,
            warnings: Vec::new(),
            approved_grants: Vec::new(),
            unapproved_grants: Vec::new(),
            commit: None,
            previous: None,
            yanked: None,
            replaced: None,
            broken_rules: None,
        }
    }

    /// A change of a skill now from `source` at `version`, which the lock
    /// had as `old` (if at all): with the commit of a git skill, and what an
    /// updated skill was before.
    pub(super) fn of(
        name: &str,
        version: &str,
        source: &SourceId,
        old: Option<&LockedSkill>,
        action: Action,
    ) -> Change {
        let commit = source.git_commit().map(str::to_string);
        let previous = match (&action, old) {
            (Action::Updated, Some(old)) if old.version != version => Some(old.version.clone()),
            (Action::Updated, Some(old)) => old.source.git_commit().map(str::to_string),
            _ => None,
        };
        Change {
            commit,
            previous,
            ..Change::new(name, version, action)
        }
    }

    /// How the report shows the version: `v1.1.0`; for an update
    /// `v1.0.0 → v1.1.0`, or for a git skill whose version stayed,
    /// `v0.0.0 (abc → def)` with short commits.
    pub fn shown(&self) -> String {
        let short = |commit: &str| commit.chars().take(12).collect::<String>();
        match (&self.previous, &self.commit) {
            (Some(previous), Some(commit)) if previous.len() == 40 => format!(
                "v{} ({} → {})",
                self.version,
                short(previous),
                short(commit)
            ),
            (Some(previous), _) => format!("v{previous} → v{}", self.version),
            (None, _) => format!("v{}", self.version),
        }
    }
}

/// What installing `wanted` would change, without doing it (`--dry-run`).
pub(super) fn planned(wanted: &[Wanted], old_lock: &Lockfile) -> Vec<Change> {
    let mut changes: Vec<Change> = wanted
        .iter()
        .map(|w| {
            let old = old_lock.get(&w.name);
            let action = match old {
                None => Action::Installed,
                Some(old) if old.version == w.version && old.source == w.source => {
                    Action::Unchanged
                }
                Some(_) => Action::Updated,
            };
            Change::of(&w.name, &w.version, &w.source, old, action)
        })
        .collect();
    for old in &old_lock.skills {
        if !wanted.iter().any(|w| w.name == old.name) {
            changes.push(Change::new(&old.name, &old.version, Action::Removed));
        }
    }
    changes
}
