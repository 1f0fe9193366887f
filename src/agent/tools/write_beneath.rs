//! Writing a file beneath a directory without following any symlink on
//! the way: each folder is opened relative to the one before with
//! `O_NOFOLLOW`, the file is written to a temporary name in the last one
//! and renamed over the target there. A path checked once and then
//! swapped for a symlink (a race with a command the model runs) makes the
//! write fail; it never lands outside the directory.

use std::ffi::CString;
use std::fs::File;
use std::io::Write as _;
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path};

fn c_name(name: &std::ffi::OsStr) -> std::io::Result<CString> {
    CString::new(name.as_bytes()).map_err(|_| std::io::Error::other("a name holds a NUL byte"))
}

/// Opens the folder `name` in `dir`, refusing a symlink.
fn open_dir_in(dir: &File, name: &CString) -> std::io::Result<File> {
    // SAFETY: openat on a valid directory fd with a NUL-terminated name;
    // the returned fd is owned by the File.
    let fd = unsafe {
        libc::openat(
            dir.as_raw_fd(),
            name.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
        )
    };
    match fd {
        -1 => Err(std::io::Error::last_os_error()),
        // SAFETY: a fresh fd this function owns.
        fd => Ok(unsafe { File::from_raw_fd(fd) }),
    }
}

/// Opens, or creates, the folder `name` in `dir`, refusing a symlink.
fn open_or_create_dir_in(dir: &File, name: &CString) -> std::io::Result<File> {
    // SAFETY: mkdirat on a valid directory fd with a NUL-terminated name.
    let made = unsafe { libc::mkdirat(dir.as_raw_fd(), name.as_ptr(), 0o777) };
    if made == -1 {
        let error = std::io::Error::last_os_error();
        if error.kind() != std::io::ErrorKind::AlreadyExists {
            return Err(error);
        }
    }
    open_dir_in(dir, name)
}

/// Writes `bytes` to `relative` (plain folder and file names only) beneath
/// `root`, creating missing folders, never following a symlink.
pub fn write_beneath(root: &Path, relative: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut names = Vec::new();
    for component in relative.components() {
        match component {
            Component::Normal(name) => names.push(c_name(name)?),
            _ => return Err(std::io::Error::other("not a plain relative path")),
        }
    }
    let Some(file_name) = names.pop() else {
        return Err(std::io::Error::other("no file name"));
    };
    let mut dir = File::open(root)?;
    for name in &names {
        dir = open_or_create_dir_in(&dir, name)?;
    }
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let temp = c_name(std::ffi::OsStr::new(&format!(
        ".skillpkg-write-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    )))?;
    // SAFETY: openat on a valid directory fd; O_EXCL|O_NOFOLLOW never
    // opens anything that already exists.
    let fd = unsafe {
        libc::openat(
            dir.as_raw_fd(),
            temp.as_ptr(),
            libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            0o644,
        )
    };
    if fd == -1 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: a fresh fd this function owns.
    let mut file = unsafe { File::from_raw_fd(fd) };
    let written = file.write_all(bytes).and_then(|()| file.sync_all());
    // SAFETY: renameat within one directory fd: replaces the entry named
    // `file_name` itself (a symlink there is replaced, not followed).
    let renamed = written.and_then(|()| {
        match unsafe {
            libc::renameat(
                dir.as_raw_fd(),
                temp.as_ptr(),
                dir.as_raw_fd(),
                file_name.as_ptr(),
            )
        } {
            -1 => Err(std::io::Error::last_os_error()),
            _ => Ok(()),
        }
    });
    if renamed.is_err() {
        // SAFETY: unlinkat of the temporary file this function created.
        unsafe {
            libc::unlinkat(dir.as_raw_fd(), temp.as_ptr(), 0);
        }
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
