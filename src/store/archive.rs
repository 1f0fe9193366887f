//! A package's archive in whichever form its index serves it: a `.skill`
//! zip ([`super::extract`]), or, from an OCI index, the Agent Skills layer
//! (a gzip-compressed tar rooted at `<name>/`, [`super::untar`]). Both are
//! kept in the archive cache under their checksum and told apart by their
//! first bytes; both are extracted with the same limits and refusals.

use std::collections::BTreeSet;
use std::io::Read as _;
use std::path::Path;

use tempfile::NamedTempFile;

use super::extract::{ExtractError, Refusal, Staged};
use super::limits::Limits;

/// Whether `bytes` start as a gzip stream does (an OCI layer rather than a
/// `.skill` zip).
pub(crate) fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

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

/// The files of the archive at `path` that extraction makes executable,
/// as [`super::extract::executables`] reads them from a zip's central
/// directory (or the tar headers of a layer, read through in pieces).
pub(crate) fn executables(path: &Path) -> Result<BTreeSet<String>, Refusal> {
    let unreadable = |e: std::io::Error| Refusal::NotZip(e.to_string());
    let mut file = std::io::BufReader::new(std::fs::File::open(path).map_err(unreadable)?);
    let mut magic = [0u8; 2];
    let is_layer = file.read_exact(&mut magic).is_ok() && is_gzip(&magic);
    std::io::Seek::rewind(&mut file).map_err(unreadable)?;
    match is_layer {
        true => super::untar::layer_executables(file),
        false => super::extract::executables(file),
    }
}

/// An archive written in full to a temporary file (deleted unless
/// persisted), with its sha256 and size: archives are streamed to disk,
/// never held in memory.
#[derive(Debug)]
pub struct ArchiveFile {
    file: NamedTempFile,
    /// sha256 of its bytes, hex.
    pub sha256: String,
    /// Its size in bytes.
    pub size: u64,
}

impl ArchiveFile {
    /// The archive `file`, written in full, hashed from its start.
    pub(crate) fn hashed(file: NamedTempFile) -> std::io::Result<ArchiveFile> {
        let streamed = super::hash::digest_reader(file.reopen()?, u64::MAX)?;
        Ok(ArchiveFile {
            file,
            sha256: streamed.sha256,
            size: streamed.len,
        })
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// Its bytes, read from the start.
    pub(crate) fn open(&self) -> std::io::Result<std::fs::File> {
        self.file.reopen()
    }

    /// Renames it to `path`, on the same file system, as
    /// [`crate::fsutil::write_atomically`] writes a file.
    pub(crate) fn persist(self, path: &Path) -> std::io::Result<()> {
        crate::fsutil::persist_shared(self.file, path)
    }
}
