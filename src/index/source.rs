//! Opening the registry a dependency names: the embedded sample index (the
//! default), a folder, or a git repository.

use std::path::Path;

use anyhow::{Context as _, bail};

use super::git::{GitIndex, is_git_index};
use super::local::IndexDir;
use super::{IndexConfig, IndexEntry, PackageName};
use crate::embedded::{REGISTRY_INDEX, materialize};

/// The source label of the embedded index, as `skills.lock` records it.
pub const BUILTIN_REGISTRY: &str = "builtin";

/// An index ready to read.
pub struct Registry {
    /// How `skills.lock` names it (after `registry+`).
    pub label: String,
    /// Its files.
    pub dir: IndexDir,
    /// Its `config.json`, read once when it was opened.
    pub config: IndexConfig,
    /// Whether it came over a network transport (unsigned packages are
    /// refused from those unless the user opts in).
    pub remote: bool,
}

/// Opens the registry at `spec`, or the embedded sample index for `None`.
/// With `offline`, a git index is read from its checkout in the cache
/// without fetching (an error says so when there is none yet).
pub fn open_registry(
    spec: Option<&str>,
    cwd: &Path,
    cache: &Path,
    offline: bool,
) -> anyhow::Result<Registry> {
    let Some(spec) = spec else {
        let dir = materialize(REGISTRY_INDEX, &cache.join("registry")).with_context(|| {
            format!(
                "could not write the built-in index under {}",
                cache.display()
            )
        })?;
        return Registry::new(BUILTIN_REGISTRY.to_string(), IndexDir::open(&dir)?, false);
    };
    let git = GitIndex::new(spec, cache);
    // A git index already checked out is one even when its URL is out of
    // reach (a `file://` repository that moved, a network that is down).
    if is_git_index(spec) || git.checkout().join(".git").is_dir() {
        if offline {
            if !git.checkout().join(".git").is_dir() {
                bail!(
                    "the index {spec} is not in the cache and --offline forbids fetching it\nhint: run once without --offline (or --frozen) to fetch it"
                );
            }
        } else {
            git.sync()?;
        }
        return Registry::new(
            spec.to_string(),
            IndexDir::open(git.checkout())?,
            !spec.starts_with("file://")
                && !spec.starts_with("git+file://")
                && !Path::new(spec).exists(),
        );
    }
    if spec.starts_with("http://") || spec.starts_with("https://") {
        bail!(
            "{spec}: this version of skillpkg reads folder and git indexes only, not HTTP ones\nhint: point the registry at the git repository or folder behind {spec}"
        );
    }
    let path = cwd.join(spec.strip_prefix("file://").unwrap_or(spec));
    Registry::new(spec.to_string(), IndexDir::open(&path)?, false)
}

impl Registry {
    fn new(label: impl Into<String>, dir: IndexDir, remote: bool) -> anyhow::Result<Registry> {
        let config = dir.config()?;
        Ok(Registry {
            label: label.into(),
            dir,
            config,
            remote,
        })
    }

    /// Every version of `package`.
    pub fn entries(&self, package: &PackageName) -> anyhow::Result<Vec<IndexEntry>> {
        self.dir.entries(package)
    }

    /// The archive bytes of one version.
    pub fn archive(&self, package: &PackageName, version: &str) -> anyhow::Result<Vec<u8>> {
        let path = self.dir.root().join(package.archive_path(version));
        fs_err::read(&path).with_context(|| {
            format!("the index lists {package}@{version} but has no archive for it")
        })
    }
}
