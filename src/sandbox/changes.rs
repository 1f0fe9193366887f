//! What a run changed in the workspace: a snapshot of every file's path,
//! size, modification time and inode, taken once before the first command
//! or write, compared with the workspace as it is at the end. The walk
//! stops at [`MAX_FILES`] files, so a workspace with a large
//! `node_modules` pays a bounded walk twice per run, not once per call;
//! past the cap the list says it may be incomplete.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// Files recorded, at most, in one snapshot.
pub(crate) const MAX_FILES: usize = 20_000;

/// Folders not walked: version control (read-only to commands) and
/// skillpkg's own state (the audit log changes during every run).
const NOT_WALKED: [&str; 2] = [".git", crate::project::STATE_DIR];

/// What identifies a file's content cheaply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    size: u64,
    mtime: (i64, i64),
    inode: u64,
    mode: u32,
}

impl Stamp {
    /// The stamp of a file from its metadata. Where there are no inodes
    /// and modes (Windows), the modification time stands alone with the
    /// size, and the read-only flag for the mode.
    fn of(metadata: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            Stamp {
                size: metadata.len(),
                mtime: (metadata.mtime(), metadata.mtime_nsec()),
                inode: metadata.ino(),
                mode: metadata.mode(),
            }
        }
        #[cfg(not(unix))]
        {
            let since_epoch = metadata
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .unwrap_or_default();
            Stamp {
                size: metadata.len(),
                mtime: (
                    since_epoch.as_secs() as i64,
                    i64::from(since_epoch.subsec_nanos()),
                ),
                inode: 0,
                mode: u32::from(metadata.permissions().readonly()),
            }
        }
    }
}

/// The files of a workspace at one moment.
#[derive(Debug, Clone)]
pub(crate) struct Snapshot {
    workspace: PathBuf,
    files: BTreeMap<PathBuf, Stamp>,
    complete: bool,
}

/// How one file changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    /// It is new.
    Created,
    /// Its size, time, inode or mode differ.
    Changed,
    /// It is gone.
    Deleted,
}

/// What a run changed in the workspace.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Changes {
    /// Each changed file, relative to the workspace, in path order.
    pub files: Vec<(PathBuf, Change)>,
    /// Whether either walk stopped at [`MAX_FILES`]: files beyond it are
    /// not listed.
    pub incomplete: bool,
}

impl Snapshot {
    /// The files of `workspace` now (at most `max_files`).
    pub(crate) fn take(workspace: &Path, max_files: usize) -> Snapshot {
        let mut files = BTreeMap::new();
        let mut complete = true;
        let mut walker = walkdir::WalkDir::new(workspace)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter();
        while let Some(entry) = walker.next() {
            let Ok(entry) = entry else { continue };
            let name = entry.file_name().to_string_lossy();
            if entry.file_type().is_dir() {
                if entry.depth() > 0 && NOT_WALKED.contains(&name.as_ref()) {
                    walker.skip_current_dir();
                }
                continue;
            }
            if files.len() >= max_files {
                complete = false;
                break;
            }
            let Ok(metadata) = entry.metadata() else {
                continue;
            };
            let relative = entry.path().strip_prefix(workspace).unwrap_or(entry.path());
            files.insert(relative.to_path_buf(), Stamp::of(&metadata));
        }
        Snapshot {
            workspace: workspace.to_path_buf(),
            files,
            complete,
        }
    }

    /// What changed between this snapshot and the workspace now.
    pub(crate) fn changes(&self, max_files: usize) -> Changes {
        let now = Snapshot::take(&self.workspace, max_files);
        let mut files: Vec<(PathBuf, Change)> = Vec::new();
        for (path, stamp) in &now.files {
            match self.files.get(path) {
                None if self.complete => files.push((path.clone(), Change::Created)),
                Some(before) if before != stamp => files.push((path.clone(), Change::Changed)),
                _ => {}
            }
        }
        if now.complete {
            files.extend(
                self.files
                    .keys()
                    .filter(|path| !now.files.contains_key(*path))
                    .map(|path| (path.clone(), Change::Deleted)),
            );
        }
        files.sort();
        Changes {
            files,
            incomplete: !self.complete || !now.complete,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_changed_and_deleted_files_are_listed_and_state_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path();
        for (path, text) in [("keep.txt", "k"), ("edit.txt", "a"), ("gone.txt", "g")] {
            std::fs::write(ws.join(path), text).unwrap();
        }
        std::fs::create_dir_all(ws.join(".skillpkg/runs")).unwrap();
        let before = Snapshot::take(ws, MAX_FILES);
        std::fs::write(ws.join("edit.txt"), "longer").unwrap();
        std::fs::remove_file(ws.join("gone.txt")).unwrap();
        std::fs::create_dir_all(ws.join("new")).unwrap();
        std::fs::write(ws.join("new/file.txt"), "n").unwrap();
        std::fs::write(ws.join(".skillpkg/runs/log.jsonl"), "{}").unwrap();
        let changes = before.changes(MAX_FILES);
        assert_eq!(
            changes.files,
            [
                (PathBuf::from("edit.txt"), Change::Changed),
                (PathBuf::from("gone.txt"), Change::Deleted),
                (PathBuf::from("new/file.txt"), Change::Created),
            ]
        );
        assert!(!changes.incomplete);
    }

    #[test]
    fn a_walk_past_the_cap_says_the_list_may_be_incomplete() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..5 {
            std::fs::write(dir.path().join(format!("{i}.txt")), "x").unwrap();
        }
        let before = Snapshot::take(dir.path(), 3);
        std::fs::write(dir.path().join("0.txt"), "changed").unwrap();
        let changes = before.changes(3);
        assert!(changes.incomplete);
        assert_eq!(changes.files, [(PathBuf::from("0.txt"), Change::Changed)]);
    }
}
