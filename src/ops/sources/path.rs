//! Folders: a skill read where it is, relative to the project (or
//! absolute), pinned by the `tree` hash of what was installed; the lock's
//! source is `path+<dir>`. It is read anew on every install: nothing but
//! its files can say whether it changed.

use std::path::Path as FsPath;

use anyhow::bail;

use super::kind::{Asking, DirectKind, Fetched, Job, Moved, SourceKind};
use crate::manifest::DirectSource;
use crate::manifest::lock::LockedSkill;
use crate::manifest::source_id::SourceId;

/// The path kind.
pub(super) struct Path;

impl SourceKind for Path {
    fn name(&self) -> &'static str {
        "path"
    }

    fn pins(&self, source: &SourceId) -> bool {
        matches!(source, SourceId::Path { .. })
    }

    fn place(&self, _source: &SourceId) -> Option<String> {
        None
    }

    fn owner(&self, _source: &SourceId) -> Option<String> {
        None
    }

    fn reference(&self, _source: &SourceId) -> Option<(String, &'static str)> {
        None
    }
}

impl DirectKind for Path {
    fn folder_key(&self) -> &'static str {
        "path"
    }

    fn asks(&self, request: &DirectSource) -> bool {
        matches!(request, DirectSource::Path(_))
    }

    fn keeps(
        &self,
        _name: &str,
        _request: &DirectSource,
        _locked: &LockedSkill,
    ) -> anyhow::Result<bool> {
        Ok(false)
    }

    fn fetch(&self, job: &Job, _scratch: &FsPath) -> anyhow::Result<Fetched> {
        let DirectSource::Path(path) = job.request else {
            bail!("'{}' is no path dependency", job.name);
        };
        Ok(Fetched {
            dir: job.fetching.project_dir.join(path),
            source: SourceId::Path { path: path.clone() },
            shown: None,
            version: None,
            commit_signer: None,
        })
    }

    fn place_of_tree(
        &self,
        _request: &DirectSource,
        dir: &FsPath,
        _shown: Option<&str>,
    ) -> anyhow::Result<String> {
        Ok(dir.display().to_string())
    }

    fn same_place(&self, a: &DirectSource, b: &DirectSource, project_dir: &FsPath) -> bool {
        let (DirectSource::Path(a), DirectSource::Path(b)) = (a, b) else {
            return false;
        };
        let place = |path: &str| {
            let joined = project_dir.join(path);
            fs_err::canonicalize(&joined).unwrap_or(joined)
        };
        place(a) == place(b)
    }

    /// A folder names no pin but its files: it never moves.
    fn moved(&self, _skills: &[&LockedSkill], _asking: &Asking) -> anyhow::Result<Vec<Moved>> {
        Ok(Vec::new())
    }
}
