//! The copies `npx skills` put in the install root: whether one holds
//! exactly what its source holds (as `npx skills` copies it), and
//! putting a link where one stood.

use super::npx_lock::{NPX_SKIPPED_FILES, NPX_SKIPPED_FOLDERS};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::project::Project;

/// How a copy `npx skills` installed compares with its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CopyOfSource {
    /// The same files, every one of them.
    Exact,
    /// The same files but those `npx skills` never copies
    /// ([`NPX_SKIPPED_FILES`], [`NPX_SKIPPED_FOLDERS`]), which the source
    /// holds and the copy does not.
    AsNpxCopies,
    /// Anything else: edited since, or from another version.
    Different,
}

/// How the folder `copy` compares with the files `source` (path →
/// sha256) holds.
pub(super) fn compare_copy(
    copy: &Path,
    source: &BTreeMap<String, String>,
) -> std::io::Result<CopyOfSource> {
    let copied = crate::store::hash::file_digests(copy)?;
    if copied == *source {
        return Ok(CopyOfSource::Exact);
    }
    let npx_copies = source.iter().filter(|(path, _)| npx_copies(path));
    match copied.iter().eq(npx_copies) {
        true => Ok(CopyOfSource::AsNpxCopies),
        false => Ok(CopyOfSource::Different),
    }
}

/// Whether `npx skills` copies the file at `relative` (`/`-separated,
/// relative to the skill) into an install.
pub(super) fn npx_copies(relative: &str) -> bool {
    let parts: Vec<&str> = relative.split('/').collect();
    let (file, folders) = parts.split_last().expect("split yields one part at least");
    !NPX_SKIPPED_FILES.contains(file)
        && !folders
            .iter()
            .any(|f| NPX_SKIPPED_FILES.contains(f) || NPX_SKIPPED_FOLDERS.contains(f))
}

/// The folder (not a link) where a copy of the skill `name` sits: in the
/// install root `root`, else in an agent's folder of the project.
pub(super) fn copy_of(project: &Project, root: &Path, name: &str) -> Option<PathBuf> {
    let agent_folders = match project.is_global() {
        true => Vec::new(),
        // An agent's folder that leads outside the project (a link a
        // cloned repository planted) is not looked in: relinking would
        // delete there.
        false => crate::roots::AGENT_FOLDERS
            .iter()
            .map(|folder| project.dir.join(folder))
            .filter(|folder| project.check_inside(folder, "an agent's folder").is_ok())
            .map(|folder| folder.join(name))
            .collect(),
    };
    std::iter::once(root.join(name))
        .chain(agent_folders)
        .find(|path| path.symlink_metadata().is_ok_and(|m| m.is_dir()))
}

/// Replaces the folder `copy` with a link to the installed skill of the
/// same name in `root`, when both hold the same files (but those `npx
/// skills` never copies). Whether it did.
pub(super) fn relink(copy: &Path, root: &Path) -> anyhow::Result<bool> {
    let Some(name) = copy.file_name() else {
        return Ok(false);
    };
    let installed = root.join(name);
    let installed_files = crate::store::hash::file_digests(&installed)?;
    if compare_copy(copy, &installed_files)? == CopyOfSource::Different {
        return Ok(false);
    }
    fs_err::remove_dir_all(copy)?;
    let parent = copy.parent().expect("a folder in an agent's folder");
    Ok(crate::ops::install::targets::expose(parent, &installed)?.is_none())
}

#[cfg(test)]
mod tests {
    use super::npx_copies;

    #[test]
    fn npx_skips_metadata_json_and_cache_folders_at_any_depth() {
        for skipped in [
            "metadata.json",
            "rules/metadata.json",
            "__pycache__/x.pyc",
            "scripts/__pypackages__/a/b.py",
            ".git/HEAD",
            "metadata.json/inside.md",
        ] {
            assert!(!npx_copies(skipped), "{skipped}");
        }
        for copied in ["SKILL.md", "rules/check.md", "metadata.jsonc", ".gitignore"] {
            assert!(npx_copies(copied), "{copied}");
        }
    }
}
