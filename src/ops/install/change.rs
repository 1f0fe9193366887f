//! What an install did, or would do, to each skill.

use serde::Serialize;

use super::wanted::Wanted;
use crate::manifest::lock::{LockedSkill, Lockfile, short_commit, short_digest, shown_version};
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

/// A signer that changed with an update, as `skills.lock` records
/// signers (a minisign key, or a table for other families).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignerChange {
    /// The locked version's.
    pub from: crate::manifest::lock::LockedSigner,
    /// The new version's.
    pub to: crate::manifest::lock::LockedSigner,
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
    /// What the scanner asks a reviewer to look at in the tree this
    /// install put in place (`warn` findings), said once.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scan_warnings: Vec<ScanWarning>,
    /// What an updated skill newly does against the version it replaced
    /// (DESIGN §12), one plain sentence each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub newly: Vec<String>,
    /// Why the scanner would refuse it (a preview, `outdated --diff`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<String>,
    /// An updated skill's signer, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signer: Option<SignerChange>,
    /// Patterns of its `allowed-tools` approved by this install.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub approved_grants: Vec<String>,
    /// Patterns of its `allowed-tools` it asks for that stay unapproved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unapproved_grants: Vec<String>,
    /// The version as reports show it: `v1.2.0`, or for a path or git
    /// skill without `metadata.version`, its short commit or tree hash
    /// (see [`crate::manifest::lock::shown_version`]).
    pub shown_version: String,
    /// The commit a git skill is at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// What an updated skill was before, as reports show a version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous: Option<String>,
    /// The commit an updated git skill was at before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_commit: Option<String>,
    /// The manifest digest an OCI skill is at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// The manifest digest an updated OCI skill was at before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_digest: Option<String>,
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

/// A scanner finding of `warn` weight (DESIGN §12) in an installed tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScanWarning {
    /// The rule's id.
    pub rule: String,
    /// The file, relative to the skill.
    pub file: String,
    /// Its 1-based line, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What was found.
    pub message: String,
}

impl ScanWarning {
    pub(super) fn of(finding: &crate::scan::Finding) -> ScanWarning {
        ScanWarning {
            rule: finding.rule.to_string(),
            file: finding.file.clone(),
            line: finding.line,
            message: finding.message.clone(),
        }
    }
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
    /// A change with no warnings, of a skill whose version shows as it is.
    pub fn new(name: &str, version: &str, action: Action) -> Change {
        Change {
            name: name.to_string(),
            version: version.to_string(),
            action,
            warnings: Vec::new(),
            scan_warnings: Vec::new(),
            newly: Vec::new(),
            refusal: None,
            signer: None,
            approved_grants: Vec::new(),
            unapproved_grants: Vec::new(),
            shown_version: format!("v{version}"),
            commit: None,
            previous: None,
            previous_commit: None,
            digest: None,
            previous_digest: None,
            yanked: None,
            replaced: None,
            broken_rules: None,
        }
    }

    /// The removal of the locked skill `old`.
    pub(super) fn removed(old: &LockedSkill) -> Change {
        Change {
            shown_version: old.shown_version(),
            commit: old.source.git_commit().map(str::to_string),
            ..Change::new(&old.name, &old.version, Action::Removed)
        }
    }

    /// A change of a skill now from `source` at `version`, whose files
    /// hash to `tree` (when known), which the lock had as `old` (if at
    /// all): with the commit of a git skill, and what an updated skill
    /// was before.
    pub(super) fn of(
        name: &str,
        version: &str,
        source: &SourceId,
        tree: Option<&str>,
        old: Option<&LockedSkill>,
        action: Action,
    ) -> Change {
        let updated = match (&action, old) {
            (Action::Updated, Some(old)) => Some(old),
            _ => None,
        };
        Change {
            shown_version: shown_version(version, source, tree),
            commit: source.git_commit().map(str::to_string),
            previous: updated.map(LockedSkill::shown_version),
            previous_commit: updated.and_then(|o| o.source.git_commit().map(str::to_string)),
            digest: pinned_digest(source),
            previous_digest: updated.and_then(|o| pinned_digest(&o.source)),
            ..Change::new(name, version, action)
        }
    }

    /// How the report shows the version: `v1.1.0`, `0123456789ab` (a git
    /// skill's commit), `h1:Qm9vYmFy` (a path skill's tree); for an update
    /// `v1.0.0 → v1.1.0`, or for a git or OCI skill whose version stayed,
    /// `v1.0.0 (abc → def)` with short commits or digests.
    pub fn shown(&self) -> String {
        let pins = match (
            (&self.previous_commit, &self.commit),
            (&self.previous_digest, &self.digest),
        ) {
            ((Some(before), Some(now)), _) => Some((short_commit(before), short_commit(now))),
            (_, (Some(before), Some(now))) => Some((short_digest(before), short_digest(now))),
            _ => None,
        };
        match (&self.previous, pins) {
            (Some(previous), Some((before, now)))
                if *previous == self.shown_version && before != now =>
            {
                format!("{} ({before} → {now})", self.shown_version)
            }
            (Some(previous), _) if *previous != self.shown_version => {
                format!("{previous} → {}", self.shown_version)
            }
            _ => self.shown_version.clone(),
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
            Change::of(
                &w.name,
                &w.version,
                &w.source,
                w.tree.as_deref(),
                old,
                action,
            )
        })
        .collect();
    let still_wanted: std::collections::HashSet<&str> =
        wanted.iter().map(|w| w.name.as_str()).collect();
    for old in old_lock.skills() {
        if !still_wanted.contains(old.name.as_str()) {
            changes.push(Change::removed(old));
        }
    }
    changes
}

/// The digest that pins a skill of `source`: an OCI manifest's, or the
/// artifact's of a `well-known` skill.
fn pinned_digest(source: &SourceId) -> Option<String> {
    source
        .oci_digest()
        .or_else(|| source.well_known_digest())
        .map(str::to_string)
}

/// Settles the grants of the locked `skills` by consent's rules, given
/// what each `asks` to pre-approve, and records on each change what was
/// approved and what stays unapproved.
pub(super) fn settle_grants(
    skills: &mut [crate::manifest::lock::LockedSkill],
    changes: &mut [Change],
    asks: Vec<Vec<String>>,
    consent: crate::ops::consent::grants::install::GrantConsent,
) {
    let change_of: std::collections::HashMap<String, usize> = changes
        .iter()
        .enumerate()
        .map(|(at, c)| (c.name.clone(), at))
        .collect();
    let reported = |name: &str| {
        change_of
            .get(name)
            .map(|&at| changes[at].action != Action::Unchanged)
    };
    let settled = crate::ops::consent::grants::install::settle(skills, reported, asks, consent);
    for grants in settled {
        if let Some(&at) = change_of.get(&grants.name) {
            changes[at].approved_grants = grants.approved;
            changes[at].unapproved_grants = grants.unapproved;
        }
    }
}

/// Notes on the change of each package its yanked pin, so that the
/// command warns of it once.
pub(super) fn note_yanked(changes: &mut [Change], pins: Vec<crate::ops::yanked::YankedPin>) {
    for pin in pins {
        if let Some(change) = changes.iter_mut().find(|c| c.name == pin.name) {
            change.yanked = Some(pin);
        }
    }
}

/// Adds to the change of each deprecated package this command installs
/// or updates the warning naming its replacement: `(name, warning)`.
pub(super) fn note_deprecated(changes: &mut [Change], deprecated: &[(String, String)]) {
    for (name, warning) in deprecated {
        if let Some(change) = changes
            .iter_mut()
            .find(|c| c.name == *name && matches!(c.action, Action::Installed | Action::Updated))
        {
            change.warnings.push(warning.clone());
        }
    }
}

/// The files that differ from the locked archive, one per line, when the
/// archive is in the cache.
pub(super) fn describe_edits(
    target: &std::path::Path,
    old: &LockedSkill,
    cache: &std::path::Path,
) -> String {
    let Some(archive) = old
        .checksum
        .as_deref()
        .and_then(|c| c.strip_prefix("sha256:"))
        .map(|c| cache.join("archives").join(format!("{c}.skill")))
        .filter(|a| a.is_file())
    else {
        return String::new();
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Ok(scratch) = crate::fsutil::private_tempdir("skillpkg-diff-", None) else {
        return String::new();
    };
    match crate::store::diff::diff_against_archive(target, &archive, &name, scratch.path()) {
        Ok(changes) => changes
            .iter()
            .map(|(path, change)| format!("\n  {change}: {path}"))
            .collect(),
        Err(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locked(version: &str, source: &str, tree: &str) -> LockedSkill {
        LockedSkill {
            tree: tree.into(),
            ..LockedSkill::example("x", version, source.parse().unwrap())
        }
    }

    const A: &str = "aaaaaaaaaaaa1111111111111111111111111111";
    const B: &str = "bbbbbbbbbbbb2222222222222222222222222222";

    #[test]
    fn path_and_git_skills_show_their_commit_or_tree_unless_they_give_a_version() {
        let git_a = format!("git+https://example.com/r.git#{A}");
        let git_b: SourceId = format!("git+https://example.com/r.git#{B}")
            .parse()
            .unwrap();
        let old = locked("0.0.0", &git_a, "h1:old");
        let change = Change::of("x", "0.0.0", &git_b, None, Some(&old), Action::Updated);
        assert_eq!(change.shown(), "aaaaaaaaaaaa → bbbbbbbbbbbb");
        let installed = Change::of("x", "0.0.0", &git_b, None, None, Action::Installed);
        assert_eq!(installed.shown(), "bbbbbbbbbbbb");

        // A metadata.version that stayed: the commits say what moved.
        let old = locked("1.2.0", &git_a, "h1:old");
        let change = Change::of("x", "1.2.0", &git_b, None, Some(&old), Action::Updated);
        assert_eq!(change.shown(), "v1.2.0 (aaaaaaaaaaaa → bbbbbbbbbbbb)");
        let change = Change::of("x", "1.3.0", &git_b, None, Some(&old), Action::Updated);
        assert_eq!(change.shown(), "v1.2.0 → v1.3.0");

        let path: SourceId = "path+skills/x".parse().unwrap();
        let old = locked("0.0.0", "path+skills/x", "h1:OLDOLDOLDOLD");
        let change = Change::of(
            "x",
            "0.0.0",
            &path,
            Some("h1:NEWNEWNEWNEW"),
            Some(&old),
            Action::Updated,
        );
        assert_eq!(change.shown(), "h1:OLDOLDOL → h1:NEWNEWNE");
        assert_eq!(Change::removed(&old).shown(), "h1:OLDOLDOL");

        let registry = Change::of(
            "acme/x",
            "0.0.0",
            &SourceId::registry("builtin"),
            None,
            None,
            Action::Installed,
        );
        assert_eq!(registry.shown(), "v0.0.0");
    }
}
