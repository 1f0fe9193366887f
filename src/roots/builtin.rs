//! The builtin root: the repo's `skills/`, embedded in the binary and
//! materialised under the cache directory on first use, so that its
//! scripts have real paths an agent can run.

use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/builtin_skills.rs"));
}

/// The embedded files: (path relative to the root, executable, contents).
pub fn files() -> &'static [(&'static str, bool, &'static [u8])] {
    embedded::FILES
}

/// A content hash of the embedded files: a new binary with other builtin
/// skills materialises into a new directory and never mixes the two.
fn content_key() -> String {
    let mut hasher = Sha256::new();
    for (path, executable, bytes) in files() {
        hasher.update(path.as_bytes());
        hasher.update([0, u8::from(*executable)]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    }
    let digest = hasher.finalize();
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// Returns the materialised builtin root under `cache`, writing it first if
/// needed. Written into a temporary directory and renamed into place, so a
/// concurrent or interrupted run never leaves a half-written root.
pub fn materialize(cache: &Path) -> std::io::Result<PathBuf> {
    let parent = cache.join("builtin");
    let target = parent.join(format!("{}-{}", env!("CARGO_PKG_VERSION"), content_key()));
    if target.is_dir() {
        return Ok(target);
    }
    fs_err::create_dir_all(&parent)?;
    let staging = tempfile::Builder::new()
        .prefix(".staging-")
        .tempdir_in(&parent)?;
    for (relative, executable, bytes) in files() {
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
