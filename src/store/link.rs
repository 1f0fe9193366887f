//! Hard links from a cached tree into staging, each checked as it is
//! made: the file a link leads to is opened (never following a link),
//! its owner and mode checked and its bytes hashed, so the digests are
//! those of the files now in staging, whatever was swapped into the
//! cache meanwhile.
//!
//! The files linked are the ones the archive's record lists, not what a
//! walk of the cached folder finds: a file added to the cache is never
//! linked, and a missing one ends the attempt. Every name is resolved
//! relative to an open folder, one component at a time and without
//! following links, which also spares the kernel a walk of the whole
//! path for each of thousands of files.

use std::collections::{BTreeMap, BTreeSet};

use super::limits::Limits;

/// The sha256 of each file placed, by relative path, and the files
/// holding a byte outside ASCII.
pub(super) type Digests = (BTreeMap<String, String>, Vec<String>);

/// What linking a cached tree into staging came to.
pub(super) enum Placed {
    /// Every file linked, with its digest, and the files still writable
    /// (a tree kept before cached files were read-only), to be made
    /// read-only once the whole tree hashes as it should
    /// ([`make_read_only_in`]) and not before: a mode is changed only on
    /// a file known to be the cache's.
    Tree(Digests, Vec<String>),
    /// Something that is no tree a verified archive unpacks to.
    NotATree,
    /// A link could not be made (another file system, a file of another
    /// account).
    LinkFailed(std::io::Error),
}

/// Hard-links each of `files` (paths relative to the tree, `/`-separated)
/// from the cached tree `from` into the folder `to`, checking each link
/// as [the module](self) says. Each file must be executable exactly when
/// `executables` names it; one that is writable is listed to be made
/// read-only after the tree is verified (a tree kept before cached files
/// were), and must have no links but the cache's and the one just made
/// ([`has_expected_links`]). More files or bytes than `limits` allow, a
/// link, a folder or a special file where a listed file should be, a
/// missing file, or a file linked where the cache never links it:
/// [`Placed::NotATree`].
#[cfg(unix)]
pub(super) fn link_listed(
    from: &std::path::Path,
    to: &std::path::Path,
    files: &[String],
    executables: &BTreeSet<String>,
    limits: &Limits,
) -> Placed {
    use rustix::fs::{AtFlags, Mode, OFlags};

    if files.len() > limits.max_entries {
        return Placed::NotATree;
    }
    let (Ok(source), Ok(target)) = (Folders::open(from, false), Folders::open(to, true)) else {
        return Placed::NotATree;
    };
    let (mut source, mut target) = (source, target);
    let mut digests = BTreeMap::new();
    let mut non_ascii = Vec::new();
    let mut budget = limits.max_total_bytes;
    let mut writable = Vec::new();
    for relative in files {
        let Some((parent, name)) = split(relative) else {
            return Placed::NotATree;
        };
        let (Ok(from_dir), Ok(to_dir)) = (source.get(parent), target.get(parent)) else {
            return Placed::NotATree;
        };
        match rustix::fs::linkat(from_dir, name, to_dir, name, AtFlags::empty()) {
            Ok(()) => {}
            // Gone, or a folder or link in the way: not the tree it was.
            Err(rustix::io::Errno::NOENT | rustix::io::Errno::NOTDIR | rustix::io::Errno::PERM) => {
                return Placed::NotATree;
            }
            Err(e) => return Placed::LinkFailed(e.into()),
        }
        // The link, not the cache's entry: what is in staging is checked.
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let Ok(fd) = rustix::fs::openat(to_dir, name, flags, Mode::empty()) else {
            return Placed::NotATree;
        };
        let Ok(stat) = rustix::fs::fstat(&fd) else {
            return Placed::NotATree;
        };
        if rustix::fs::FileType::from_raw_mode(stat.st_mode) != rustix::fs::FileType::RegularFile {
            return Placed::NotATree;
        }
        // A file another account owns is not linked at all: its owner
        // could make it writable again and change the project's copy
        // after the check. The tree is copied instead.
        if stat.st_uid != rustix::process::geteuid().as_raw() {
            return Placed::LinkFailed(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "a cached file belongs to another account",
            ));
        }
        // mode_t and nlink_t are u32 and u64 on Linux, u16 on macOS.
        #[allow(clippy::useless_conversion)]
        let (mode, links) = (u32::from(stat.st_mode) & 0o7777, u64::from(stat.st_nlink));
        // A changed mode, like changed bytes, is a changed tree.
        if (mode & 0o111 != 0) != executables.contains(relative) {
            return Placed::NotATree;
        }
        if !has_expected_links(mode, links) {
            return Placed::NotATree;
        }
        if mode & 0o222 != 0 {
            writable.push(relative.clone());
        }
        let size = stat.st_size as u64;
        if size > budget {
            return Placed::NotATree;
        }
        budget -= size;
        // Exactly the size the file had when opened, and nothing after.
        let read = match super::hash::digest_reader(std::fs::File::from(fd), size) {
            Ok(read) if read.len == size => read,
            _ => return Placed::NotATree,
        };
        if !read.ascii {
            non_ascii.push(relative.clone());
        }
        digests.insert(relative.clone(), read.sha256);
    }
    Placed::Tree((digests, non_ascii), writable)
}

/// Whether a cached file of mode `mode`, just linked into staging, has the
/// `links` the cache expects. The cache makes its files read-only before
/// it shares them, so a read-only file may be linked from any number of
/// projects. A writable one (kept before cached files were read-only) is
/// the cache's alone: its entry and the link just made, two. More means
/// the inode is also a file elsewhere, such as a user's `~/.bashrc`
/// linked into the cache, whose mode is no business of the cache's: the
/// entry counts as corrupted, set aside and fetched again.
#[cfg(any(unix, test))]
fn has_expected_links(mode: u32, links: u64) -> bool {
    match mode & 0o222 {
        0 => links >= 2,
        _ => links == 2,
    }
}

/// Takes the write bits off `files` (relative) in the staged tree `dir`,
/// each opened without following a link; called once the tree is
/// verified.
#[cfg(unix)]
pub(super) fn make_read_only_in(dir: &std::path::Path, files: &[String]) -> std::io::Result<()> {
    use rustix::fs::{Mode, OFlags};
    for relative in files {
        let path = dir.join(relative);
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let fd = rustix::fs::open(&path, flags, Mode::empty())?;
        let mode = rustix::fs::fstat(&fd)?.st_mode & 0o7777;
        rustix::fs::fchmod(&fd, Mode::from_raw_mode(mode & !0o222))?;
    }
    Ok(())
}

/// Nothing is linked here, so nothing is left writable.
#[cfg(not(unix))]
pub(super) fn make_read_only_in(_dir: &std::path::Path, _files: &[String]) -> std::io::Result<()> {
    Ok(())
}

/// Links are not made here: the tree is copied.
#[cfg(not(unix))]
pub(super) fn link_listed(
    _from: &std::path::Path,
    _to: &std::path::Path,
    _files: &[String],
    _executables: &BTreeSet<String>,
    _limits: &Limits,
) -> Placed {
    Placed::LinkFailed(std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        "hard links from the cache are made on Unix only",
    ))
}

/// `relative` as its parent folder (`""` for the top) and file name;
/// `None` unless every part is a plain name.
#[cfg(any(unix, test))]
fn split(relative: &str) -> Option<(&str, &str)> {
    let plain =
        |part: &str| !part.is_empty() && part != "." && part != ".." && !part.contains('\0');
    if !relative.split('/').all(plain) {
        return None;
    }
    Some(relative.rsplit_once('/').unwrap_or(("", relative)))
}

/// The folders of one tree, opened relative to its top without following
/// a link, each once.
#[cfg(unix)]
struct Folders {
    top: std::os::fd::OwnedFd,
    open: std::collections::HashMap<String, std::os::fd::OwnedFd>,
    /// Whether missing folders are made (the staging side).
    make: bool,
}

#[cfg(unix)]
impl Folders {
    fn open(path: &std::path::Path, make: bool) -> rustix::io::Result<Folders> {
        Ok(Folders {
            top: rustix::fs::open(path, directory_flags(), rustix::fs::Mode::empty())?,
            open: std::collections::HashMap::new(),
            make,
        })
    }

    /// The folder `relative` (`""`: the top), opened or made.
    fn get(&mut self, relative: &str) -> rustix::io::Result<std::os::fd::BorrowedFd<'_>> {
        use std::os::fd::AsFd as _;
        if relative.is_empty() {
            return Ok(self.top.as_fd());
        }
        if !self.open.contains_key(relative) {
            let (parent, name) = relative.rsplit_once('/').unwrap_or(("", relative));
            let make = self.make;
            let parent = self.get(parent)?;
            if make {
                match rustix::fs::mkdirat(parent, name, rustix::fs::Mode::from_raw_mode(0o777)) {
                    Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                    Err(e) => return Err(e),
                }
            }
            let fd =
                rustix::fs::openat(parent, name, directory_flags(), rustix::fs::Mode::empty())?;
            self.open.insert(relative.to_string(), fd);
        }
        Ok(self.open[relative].as_fd())
    }
}

#[cfg(unix)]
fn directory_flags() -> rustix::fs::OFlags {
    use rustix::fs::OFlags;
    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writable_cached_file_may_have_no_link_but_the_caches_and_stagings() {
        assert!(has_expected_links(0o444, 2));
        assert!(has_expected_links(0o555, 7));
        assert!(has_expected_links(0o644, 2));
        assert!(!has_expected_links(0o644, 3));
        assert!(!has_expected_links(0o600, 1));
    }

    #[test]
    fn only_plain_relative_names_are_split() {
        assert_eq!(split("SKILL.md"), Some(("", "SKILL.md")));
        assert_eq!(
            split("references/deep/a.md"),
            Some(("references/deep", "a.md"))
        );
        for bad in ["", "/abs", "a//b", "../x", "a/./b", "a/", "a\0b"] {
            assert_eq!(split(bad), None, "{bad:?}");
        }
    }
}
