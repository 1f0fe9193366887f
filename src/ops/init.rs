//! `skillpkg init`: start a project manifest.

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::hint::Hinted;
use crate::manifest::MANIFEST_TEMPLATE;
use crate::project::MANIFEST_FILE;

/// Writes a new `skills.toml` in `dir` and returns its path. Refuses to
/// overwrite an existing one.
pub fn init_project(dir: &Path) -> anyhow::Result<PathBuf> {
    let path = dir.join(MANIFEST_FILE);
    if path.exists() {
        bail!(
            Hinted::new(format!("{} already exists", path.display()))
                .hint("add skills to it with `skillpkg add org/name`")
        );
    }
    fs_err::create_dir_all(dir)?;
    crate::fsutil::write_atomically(&path, MANIFEST_TEMPLATE.as_bytes())?;
    Ok(path)
}
