//! Everything an install wants, whatever its source, and the checks made
//! on the whole set before anything is downloaded.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::bail;

use super::direct::DirectSkill;
use super::plan::Planned;
use crate::hint::Hinted;
use crate::manifest::lock::Lockfile;
use crate::manifest::source_id::SourceId;
use crate::project::MANIFEST_FILE;

/// One skill an install wants in the root.
#[derive(Debug, Clone)]
pub(super) struct Wanted<'a> {
    /// Its name in the lock: `org/name`, or the manifest key of a path or git skill.
    pub name: String,
    /// The skill's own name: its folder in the root.
    pub skill: &'a str,
    /// The version.
    pub version: String,
    /// Where it comes from.
    pub source: SourceId,
    /// The hash of its files, when known before installing (path and git
    /// skills).
    pub tree: Option<String>,
}

/// The registry packages resolution chose, then the path and git skills.
pub(super) fn collect<'a>(planned: &'a [Planned], direct: &'a [DirectSkill]) -> Vec<Wanted<'a>> {
    planned
        .iter()
        .map(|p| Wanted {
            name: p.package.to_string(),
            skill: &p.package.name,
            version: p.entry.vers.clone(),
            source: p.source(),
            tree: None,
        })
        .chain(direct.iter().map(|d| Wanted {
            name: d.name.clone(),
            skill: &d.skill,
            version: d.version.clone(),
            source: d.source.clone(),
            tree: Some(d.tree.clone()),
        }))
        .collect()
}

/// Two packages may not install the same skill name into one root.
pub(super) fn check_one_skill_per_name(wanted: &[Wanted], root: &Path) -> anyhow::Result<()> {
    let mut by_skill: BTreeMap<&str, &str> = BTreeMap::new();
    for w in wanted {
        if let Some(other) = by_skill.insert(w.skill, &w.name) {
            bail!(Hinted::new(format!("{other} and {} both install a skill named '{}' into {}; one root holds one skill of a name", w.name, w.skill, root.display())).hint(format!("remove one of them from {MANIFEST_FILE}")));
        }
    }
    Ok(())
}

/// The refusal of a path or git skill `name` whose files hash to `new`
/// where the lock says `old`, under `--locked` or `--frozen` (`flag`).
pub(super) fn changed_under_lock(
    name: &str,
    lock_path: &Path,
    old: &str,
    new: &str,
    flag: &str,
) -> Hinted {
    Hinted::new(format!(
        "{name} changed since {} was written (its files hash {old} → {new}), and {flag} was given",
        lock_path.display()
    ))
    .hint(format!(
        "run `skillpkg install` without {flag} and commit the new lock"
    ))
}

/// With `--locked` (or `--frozen`, named by `flag`): the lock already
/// says exactly what is wanted, and no path skill's files changed under it.
/// The error lists each difference as `name old → new`.
pub(super) fn check_locked(
    wanted: &[Wanted],
    direct: &[DirectSkill],
    old_lock: &Lockfile,
    lock_path: &Path,
    flag: &str,
) -> anyhow::Result<()> {
    let hint = format!("run `skillpkg install` without {flag} and commit the new lock");
    for skill in direct {
        // A tree signed file by file is compared once what its signature
        // does not vouch for is left out, when it is put in place.
        if let Some(old) = old_lock.get(&skill.name)
            && old.tree != skill.tree
            && old
                .signer
                .as_ref()
                .is_none_or(|s| s.minisign_key().is_some())
        {
            bail!(changed_under_lock(
                &skill.name,
                lock_path,
                &old.tree,
                &skill.tree,
                flag
            ));
        }
    }
    // What each name is at: its version, and where from when that is not
    // the version alone (a git commit, another index or folder).
    let shown =
        |version: &str, source: &SourceId| crate::ops::sources::of_pin(source).at(version, source);
    let want: BTreeMap<&str, String> = wanted
        .iter()
        .map(|w| (w.name.as_str(), shown(&w.version, &w.source)))
        .collect();
    let have: BTreeMap<&str, String> = old_lock
        .skills()
        .iter()
        .map(|s| (s.name.as_str(), shown(&s.version, &s.source)))
        .collect();
    let names: BTreeSet<&str> = want.keys().chain(have.keys()).copied().collect();
    let differences: Vec<String> = names
        .into_iter()
        .filter_map(|name| match (have.get(name), want.get(name)) {
            (Some(old), Some(new)) if old == new => None,
            (Some(old), Some(new)) => Some(format!("{name} {old} → {new}")),
            (None, Some(new)) => Some(format!("{name} (not locked) → {new}")),
            (Some(old), None) => Some(format!("{name} {old} → (removed)")),
            (None, None) => None,
        })
        .collect();
    if differences.is_empty() {
        return Ok(());
    }
    bail!(
        Hinted::new(format!(
            "{} needs to change, and {flag} was given:\n  {}",
            lock_path.display(),
            differences.join("\n  ")
        ))
        .hint(hint)
    )
}
