//! The private store of MCP-served skills: `<cache>/mcp-skills/<id>/<name>/`,
//! where `<id>` comes from the skill's digest set, so a folder there only
//! ever holds one content. A skill is written to a temporary folder and
//! renamed into place whole; a folder found there is used only when every
//! listed file in it still matches its digest and nothing else is there.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::ListedFile;

/// The folder of the skill `name` whose digest set is `digest_set`.
pub(super) fn dir_of(store: &Path, digest_set: &str, name: &str) -> PathBuf {
    let hex = digest_set.strip_prefix("sha256:").unwrap_or(digest_set);
    store.join(&hex[..hex.len().min(32)]).join(name)
}

/// Whether `dir` holds exactly `files`, each matching its digest.
pub(super) fn holds(dir: &Path, files: &BTreeMap<String, ListedFile>) -> bool {
    let mut found = 0;
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let Ok(entry) = entry else { return false };
        if entry.file_type().is_dir() {
            continue;
        }
        let relative = crate::fsutil::relative_slashed(entry.path(), dir);
        let matches = entry.file_type().is_file()
            && files.get(&relative).is_some_and(|file| {
                crate::store::hash::sha256_file_digest(entry.path())
                    .is_ok_and(|digest| file.digest == digest)
            });
        if !matches {
            return false;
        }
        found += 1;
    }
    found == files.len()
}

/// A skill being written to the store.
pub(super) struct Pending {
    temp: tempfile::TempDir,
    skill: PathBuf,
}

impl Pending {
    /// Starts writing the skill `name` in a temporary folder of `store`.
    pub(super) fn new(store: &Path, name: &str) -> std::io::Result<Pending> {
        private_dir(store)?;
        let temp = tempfile::Builder::new().prefix(".tmp-").tempdir_in(store)?;
        let skill = temp.path().join(name);
        std::fs::create_dir(&skill)?;
        Ok(Pending { temp, skill })
    }

    /// Writes one file, read-only, at `relative` (checked by the caller to
    /// stay inside the skill). MCP carries no file modes: a file that
    /// starts with `#!` is made executable, as its author meant it to be
    /// (it still runs only once the user approves the skill).
    pub(super) fn add(&mut self, relative: &str, bytes: &[u8]) -> std::io::Result<()> {
        let path = self.skill.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(
            &mut options,
            if bytes.starts_with(b"#!") {
                0o555
            } else {
                0o444
            },
        );
        options.open(&path)?.write_all(bytes)
    }

    /// Puts the skill at `dir` (from [`dir_of`]), replacing a folder there
    /// that [`holds`] found wrong.
    pub(super) fn finish(self, dir: &Path) -> std::io::Result<()> {
        let id = dir.parent().expect("a store folder has a parent");
        if id.exists() {
            std::fs::remove_dir_all(id)?;
        }
        match std::fs::rename(self.temp.path(), id) {
            Ok(()) => {
                // Renamed: nothing is left for the temporary folder to remove.
                let _ = self.temp.keep();
                Ok(())
            }
            // Another run put the same content there first.
            Err(_) if id.join(dir.file_name().expect("named")).is_dir() => Ok(()),
            Err(e) => Err(e),
        }
    }
}

/// Makes `dir` (and its parents), private to the user.
fn private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}
