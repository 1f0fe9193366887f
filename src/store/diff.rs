//! Which files of an installed skill differ from the archive it came from.

use std::path::Path;

use serde::Serialize;

use super::extract::extract;
use super::hash;
use super::limits::Limits;

/// How one file differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum FileChange {
    /// Present in both, with other contents.
    Modified,
    /// In the archive, not on disk.
    Missing,
    /// On disk, not in the archive.
    Extra,
}

impl std::fmt::Display for FileChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileChange::Modified => "modified",
            FileChange::Missing => "missing",
            FileChange::Extra => "extra",
        })
    }
}

/// Compares the skill installed at `installed` with the archive it was
/// installed from (extracted into a temporary directory under `scratch`).
/// Returns every differing file, sorted by path.
pub(crate) fn diff_against_archive(
    installed: &Path,
    archive: &Path,
    name: &str,
    scratch: &Path,
) -> anyhow::Result<Vec<(String, FileChange)>> {
    let staged = extract(archive, Some(name), scratch, &Limits::default())?;
    let pristine = hash::file_digests(&staged.path())?;
    let current = hash::file_digests(installed)?;
    Ok(diff_digests(&pristine, &current))
}

/// Every file that differs between two trees given as `relative path →
/// sha256 hex`, `pristine` being the reference, sorted by path.
pub(crate) fn diff_digests(
    pristine: &std::collections::BTreeMap<String, String>,
    current: &std::collections::BTreeMap<String, String>,
) -> Vec<(String, FileChange)> {
    let mut changes = Vec::new();
    for (path, digest) in pristine {
        match current.get(path) {
            None => changes.push((path.clone(), FileChange::Missing)),
            Some(now) if now != digest => changes.push((path.clone(), FileChange::Modified)),
            Some(_) => {}
        }
    }
    for path in current.keys() {
        if !pristine.contains_key(path) {
            changes.push((path.clone(), FileChange::Extra));
        }
    }
    changes.sort();
    changes
}
