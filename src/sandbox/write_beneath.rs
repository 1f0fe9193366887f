//! Writing a file beneath a directory without following any symlink on
//! the way: each folder is opened relative to the one before with
//! `O_NOFOLLOW`, the file is written to a temporary name in the last one
//! and renamed over the target there. A path checked once and then
//! swapped for a symlink (a race with a command the model runs) makes the
//! write fail; it never lands outside the directory.
//!
//! Where there is no `openat` (Windows), each folder on the way is checked
//! not to be a link (a symlink or a junction) before the next is opened by
//! its full path: a swap between the check and the write is not caught
//! there (docs/platforms.md).

use std::ffi::OsString;
use std::path::{Component, Path};

#[cfg(unix)]
use rustix::fs::{AtFlags, Mode, OFlags, mkdirat, openat, renameat, unlinkat};
#[cfg(unix)]
use std::{fs::File, io::Write as _};

/// Opens the folder `name` in `dir`, refusing a symlink.
#[cfg(unix)]
fn open_dir_in(dir: &File, name: &OsString) -> std::io::Result<File> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    Ok(File::from(openat(
        dir,
        name.as_os_str(),
        flags,
        Mode::empty(),
    )?))
}

/// Opens, or creates, the folder `name` in `dir`, refusing a symlink.
#[cfg(unix)]
fn open_or_create_dir_in(dir: &File, name: &OsString) -> std::io::Result<File> {
    match mkdirat(dir, name.as_os_str(), Mode::from_raw_mode(0o777)) {
        Err(e) if e != rustix::io::Errno::EXIST => return Err(e.into()),
        _ => {}
    }
    open_dir_in(dir, name)
}

/// Writes `bytes` to `relative` (plain folder and file names only) beneath
/// `root`, creating missing folders, never following a symlink.
pub(crate) fn write_beneath(root: &Path, relative: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut names = Vec::new();
    for component in relative.components() {
        match component {
            Component::Normal(name) => names.push(name.to_os_string()),
            _ => return Err(std::io::Error::other("not a plain relative path")),
        }
    }
    let Some(file_name) = names.pop() else {
        return Err(std::io::Error::other("no file name"));
    };
    write_in_folders(root, &names, &file_name, bytes)
}

/// A fresh name for a file written in full before it is renamed.
fn temp_name() -> String {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    format!(
        ".skillpkg-write-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    )
}

/// Writes `bytes` to `file_name` in the folders `names` beneath `root`,
/// each opened relative to the one before.
#[cfg(unix)]
fn write_in_folders(
    root: &Path,
    names: &[OsString],
    file_name: &OsString,
    bytes: &[u8],
) -> std::io::Result<()> {
    let mut dir = File::open(root)?;
    for name in names {
        dir = open_or_create_dir_in(&dir, name)?;
    }
    let temp = temp_name();
    // O_EXCL|O_NOFOLLOW never opens anything that already exists.
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut file = File::from(openat(&dir, &temp, flags, Mode::from_raw_mode(0o644))?);
    let written = file.write_all(bytes).and_then(|()| file.sync_all());
    // Within one directory: replaces the entry named `file_name` itself (a
    // symlink there is replaced, not followed).
    let renamed = written.and_then(|()| Ok(renameat(&dir, &temp, &dir, file_name.as_os_str())?));
    if renamed.is_err() {
        let _ = unlinkat(&dir, &temp, AtFlags::empty());
    }
    renamed
}

/// [`write_in_folders`] without `openat`: each folder is checked not to be
/// a link before it is used, then the file is written beside its target
/// and renamed over it.
#[cfg(not(unix))]
fn write_in_folders(
    root: &Path,
    names: &[OsString],
    file_name: &OsString,
    bytes: &[u8],
) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut dir = root.to_path_buf();
    for name in names {
        dir.push(name);
        match std::fs::symlink_metadata(&dir) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                return Err(std::io::Error::other("a folder on the way is a link"));
            }
            Ok(metadata) if metadata.is_dir() => {}
            Ok(_) => return Err(std::io::Error::other("not a folder")),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => std::fs::create_dir(&dir)?,
            Err(e) => return Err(e),
        }
    }
    let temp = dir.join(temp_name());
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)?;
    let written = file.write_all(bytes).and_then(|()| file.sync_all());
    drop(file);
    let renamed = written.and_then(|()| std::fs::rename(&temp, dir.join(file_name)));
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    renamed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_create_folders_and_never_follow_a_symlink() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().join("work");
        let outside = temp.path().join("outside");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        write_beneath(&root, Path::new("a/b/c.txt"), b"hello").unwrap();
        assert_eq!(std::fs::read(root.join("a/b/c.txt")).unwrap(), b"hello");
        write_beneath(&root, Path::new("a/b/c.txt"), b"again").unwrap();
        assert_eq!(std::fs::read(root.join("a/b/c.txt")).unwrap(), b"again");

        // A folder on the way that is a symlink refuses the write.
        std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
        assert!(write_beneath(&root, Path::new("link/x.txt"), b"x").is_err());
        // A file that is a symlink is replaced, its target untouched.
        std::fs::write(outside.join("target"), "kept").unwrap();
        std::os::unix::fs::symlink(outside.join("target"), root.join("file")).unwrap();
        write_beneath(&root, Path::new("file"), b"new").unwrap();
        assert_eq!(
            std::fs::read_to_string(outside.join("target")).unwrap(),
            "kept"
        );
        assert!(!root.join("file").is_symlink());
        for bad in ["../x", "/etc/x", "a/../../x"] {
            assert!(write_beneath(&root, Path::new(bad), b"x").is_err(), "{bad}");
        }
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 1);
        let leftovers: Vec<_> = std::fs::read_dir(root.join("a/b"))
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(".skillpkg-write")
            })
            .collect();
        assert!(leftovers.is_empty());
    }
}
