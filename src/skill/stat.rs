//! What `stat` says of a file, as loading a skill needs it: the cache's
//! key and the mode for the world-writable check. Taken relative to an
//! open root folder where it can be, so that each of ten thousand skills
//! costs a look-up of two names instead of the whole path.

use std::path::Path;

/// A file's identity, size, times and mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileStat {
    /// Device.
    pub dev: u64,
    /// Inode.
    pub ino: u64,
    /// Size in bytes.
    pub size: u64,
    /// Modification time: seconds and nanoseconds.
    pub mtime: (i64, i64),
    /// Status change time: seconds and nanoseconds.
    pub ctime: (i64, i64),
    /// Permission bits and file type (`st_mode`); 0 where there is none.
    pub mode: u32,
    /// Whether it is a folder.
    pub is_dir: bool,
}

impl FileStat {
    /// The stat `metadata` holds.
    pub(crate) fn of(metadata: &std::fs::Metadata) -> FileStat {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            FileStat {
                dev: metadata.dev(),
                ino: metadata.ino(),
                size: metadata.size(),
                mtime: (metadata.mtime(), metadata.mtime_nsec()),
                ctime: (metadata.ctime(), metadata.ctime_nsec()),
                mode: metadata.mode(),
                is_dir: metadata.is_dir(),
            }
        }
        #[cfg(not(unix))]
        FileStat {
            dev: 0,
            ino: 0,
            size: metadata.len(),
            mtime: (0, 0),
            ctime: (0, 0),
            mode: 0,
            is_dir: metadata.is_dir(),
        }
    }

    /// The stat of `path` (symlinks followed).
    pub(crate) fn of_path(path: &Path) -> std::io::Result<FileStat> {
        std::fs::metadata(path).map(|m| FileStat::of(&m))
    }

    /// The stat of `relative` inside the open folder `dir` (symlinks
    /// followed), as [`FileStat::of_path`] of their join would give.
    #[cfg(unix)]
    pub(crate) fn at(dir: &std::fs::File, relative: &Path) -> std::io::Result<FileStat> {
        use rustix::fs::{AtFlags, FileType, statat};
        let stat = statat(dir, relative, AtFlags::empty())?;
        Ok(FileStat {
            dev: stat.st_dev as u64,
            ino: stat.st_ino as u64,
            size: stat.st_size as u64,
            mtime: (stat.st_mtime as i64, stat.st_mtime_nsec as i64),
            ctime: (stat.st_ctime as i64, stat.st_ctime_nsec as i64),
            mode: stat.st_mode as u32,
            is_dir: FileType::from_raw_mode(stat.st_mode) == FileType::Directory,
        })
    }

    /// Whether anyone on the machine may change it.
    pub(crate) fn world_writable(&self) -> bool {
        self.mode & 0o002 != 0
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_stat_relative_to_a_folder_is_the_stat_of_the_joined_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a")).unwrap();
        std::fs::write(dir.path().join("a/SKILL.md"), "x").unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("link")).unwrap();
        let root = std::fs::File::open(dir.path()).unwrap();
        for relative in ["a", "a/SKILL.md", "link", "link/SKILL.md"] {
            let at = FileStat::at(&root, Path::new(relative)).unwrap();
            assert_eq!(
                at,
                FileStat::of_path(&dir.path().join(relative)).unwrap(),
                "{relative}"
            );
        }
        assert!(FileStat::at(&root, Path::new("a")).unwrap().is_dir);
        assert!(FileStat::at(&root, Path::new("missing")).is_err());
    }
}
