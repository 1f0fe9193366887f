//! What an install did, or would do, to each skill.

use serde::Serialize;

use super::wanted::Wanted;
use crate::manifest::lock::Lockfile;

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
        }
    }
}

/// What installing `wanted` would change, without doing it (`--dry-run`).
pub(super) fn planned(wanted: &[Wanted], old_lock: &Lockfile) -> Vec<Change> {
    let mut changes: Vec<Change> = wanted
        .iter()
        .map(|w| {
            let action = match old_lock.get(&w.name) {
                None => Action::Installed,
                Some(old) if old.version == w.version => Action::Unchanged,
                Some(_) => Action::Updated,
            };
            Change::new(&w.name, &w.version, action)
        })
        .collect();
    for old in &old_lock.skills {
        if !wanted.iter().any(|w| w.name == old.name) {
            changes.push(Change::new(&old.name, &old.version, Action::Removed));
        }
    }
    changes
}
