//! A package's archive in whichever form its index serves it: a `.skill`
//! zip ([`super::extract`]), or, from an OCI index, the Agent Skills layer
//! (a gzip-compressed tar rooted at `<name>/`, [`super::untar`]). Both are
//! kept in the archive cache under their checksum and told apart by their
//! first bytes; both are extracted with the same limits and refusals.

use std::collections::BTreeSet;
use std::io::Read as _;
use std::path::Path;

use super::extract::{ExtractError, Limits, Refusal, Staged};
use super::layer::is_gzip;

/// Extracts the archive at `archive` into a new staging directory under
/// `staging_parent`, as [`super::extract::extract`] does a zip.
pub fn extract(
    archive: &Path,
    expected: Option<&str>,
    staging_parent: &Path,
    limits: &Limits,
) -> Result<Staged, ExtractError> {
    let mut magic = [0u8; 2];
    let is_layer = fs_err::File::open(archive)
        .and_then(|mut file| file.read_exact(&mut magic))
        .is_ok()
        && is_gzip(&magic);
    match is_layer {
        true => super::untar::extract_staged(archive, expected, staging_parent, limits),
        false => super::extract::extract(archive, expected, staging_parent, limits),
    }
}

/// The files of the archive `bytes` that extraction makes executable, as
/// [`super::extract::executables`] reads them from a zip.
pub fn executables(bytes: &[u8]) -> Result<BTreeSet<String>, Refusal> {
    match is_gzip(bytes) {
        true => super::untar::layer_executables(bytes),
        false => super::extract::executables(bytes),
    }
}
