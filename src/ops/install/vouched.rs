//! Exactly what a signature vouches for is put in place. An OMS signature
//! over a folder leaves some of its files out of what it signs (`.github/`,
//! `.gitignore`, `.gitattributes`, the statement's `ignore_paths`, as
//! model_signing does); those files are left out of the install, saying
//! so, so that nothing unsigned lands under a signer's name in the lock.
//! An archive's signature (minisign, Sigstore) vouches for every file the
//! archive holds.

use std::collections::BTreeMap;
use std::path::Path;

use crate::ops::provenance::Proof;
use crate::store::extract::Staged;

/// At most this many left-out files are named in one warning.
const SHOWN: usize = 10;

/// The files of a tree (`digests`, by `/`-separated name) that `proven`
/// does not vouch for, in order; none when nothing proved the tree
/// file by file.
fn unvouched<'d>(proven: Option<&Proof>, digests: &'d BTreeMap<String, String>) -> Vec<&'d str> {
    let Some(vouched) = proven.and_then(|proven| proven.vouched.as_ref()) else {
        return Vec::new();
    };
    digests
        .keys()
        .filter(|name| !vouched.contains(*name))
        .map(String::as_str)
        .collect()
}

/// Whether every file of the tree in `dir` is one `proven` vouches for
/// (read only when it vouches file by file).
pub(super) fn all_vouched(proven: Option<&Proof>, dir: &Path) -> std::io::Result<bool> {
    if proven.and_then(|proven| proven.vouched.as_ref()).is_none() {
        return Ok(true);
    }
    let digests = crate::store::hash::file_digests(dir)?;
    Ok(unvouched(proven, &digests).is_empty())
}

/// Removes from `staged` the files `proven` does not vouch for; the
/// warning that says which, if any were.
pub(super) fn leave_out_unvouched(
    name: &str,
    proven: Option<&Proof>,
    staged: &mut Staged,
) -> anyhow::Result<Option<String>> {
    let left_out: Vec<String> = unvouched(proven, staged.digests())
        .into_iter()
        .map(str::to_string)
        .collect();
    if left_out.is_empty() {
        return Ok(None);
    }
    staged.leave_out(&left_out)?;
    let mut named = left_out
        .iter()
        .take(SHOWN)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if left_out.len() > SHOWN {
        named.push_str(&format!(" and {} more", left_out.len() - SHOWN));
    }
    let files = match left_out.len() {
        1 => "1 file",
        _ => "files",
    };
    Ok(Some(format!(
        "{name}: left out {files} its signature does not cover ({named}): only what a signature vouches for is installed"
    )))
}
