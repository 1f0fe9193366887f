//! File trees shipped inside the binary, and writing them out.
//!
//! Each tree is materialised once under the cache, in a directory named by
//! a hash of its contents: a new binary with other contents gets a new
//! directory, and a concurrent or interrupted run never leaves a
//! half-written one (temporary directory, then rename).

use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// An embedded file: (path relative to its tree, executable, contents).
pub(crate) type EmbeddedFile = (&'static str, bool, &'static [u8]);

mod builtin_skills {
    include!(concat!(env!("OUT_DIR"), "/builtin_skills.rs"));
}

mod registry_index {
    include!(concat!(env!("OUT_DIR"), "/registry_index.rs"));
}

/// The repo's `skills/`: the builtin root.
pub(crate) static BUILTIN_SKILLS: &[EmbeddedFile] = builtin_skills::FILES;

/// The repo's `registry-index/`: the default registry.
pub static REGISTRY_INDEX: &[EmbeddedFile] = registry_index::FILES;

/// A short content hash of a tree.
pub(crate) fn content_key(files: &[EmbeddedFile]) -> String {
    let mut hasher = Sha256::new();
    for (path, executable, bytes) in files {
        hasher.update(path.as_bytes());
        hasher.update([0, u8::from(*executable)]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    }
    hasher.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Writes `files` under `parent/<version>-<content key>/` unless already
/// there, and returns that directory.
pub fn materialize(files: &[EmbeddedFile], parent: &Path) -> std::io::Result<PathBuf> {
    let target = parent.join(format!(
        "{}-{}",
        env!("CARGO_PKG_VERSION"),
        content_key(files)
    ));
    if target.is_dir() {
        return Ok(target);
    }
    fs_err::create_dir_all(parent)?;
    let staging = tempfile::Builder::new()
        .prefix(".staging-")
        .tempdir_in(parent)?;
    for (relative, executable, bytes) in files {
        let path = staging.path().join(relative);
        if let Some(dir) = path.parent() {
            fs_err::create_dir_all(dir)?;
        }
        let mut file = fs_err::File::create(&path)?;
        file.write_all(bytes)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = if *executable { 0o755 } else { 0o644 };
            fs_err::set_permissions(&path, std::fs::Permissions::from_mode(mode))?;
        }
        #[cfg(not(unix))]
        let _ = executable;
    }
    let staging = staging.keep();
    match std::fs::rename(&staging, &target) {
        Ok(()) => Ok(target),
        // Another process materialised the same content first.
        Err(_) if target.is_dir() => {
            let _ = fs_err::remove_dir_all(&staging);
            Ok(target)
        }
        Err(e) => {
            let _ = fs_err::remove_dir_all(&staging);
            Err(e)
        }
    }
}
