//! Unpacked trees in the cache: `<cache>/trees/<sha256 of the archive>/`,
//! one folder per verified archive, so that a warm install copies files
//! instead of inflating archives.
//!
//! A tree is kept under the checksum of the archive it was extracted
//! from, never under its own hash: a lock pins a checksum (verified
//! against the archive and its signature) and a tree, and only the
//! checksum says which cached files an install may take. Keyed by tree
//! hash, a lock edited to pin one package's signed archive with another
//! cached tree's hash would install those other files.
//!
//! The cache may be hostile (DESIGN.md §11: it may not change the content
//! of a locked version), so a cached tree is never trusted as it is:
//! [`TreeCache::stage`] copies it into a fresh staging directory, hashing
//! each file from the very bytes it writes, and hands the copy over only
//! when its `h1:` hash is the one the lock pins. Anything else (a changed,
//! added or missing file, a link, a FIFO, a tree past the extraction
//! limits) discards both the copy and the cached tree, and the caller
//! falls back to the sha256-verified archive, whose extraction puts a
//! fresh tree back with [`TreeCache::keep`]. Permissions are not taken
//! from the cache either: the executable bits come from the verified
//! archive's listing (see [`super::extract::executables`]).
//!
//! How a cached tree reaches a project is the [`LinkMode`]. By default
//! ([`LinkMode::Copy`]) each file is a copy-on-write clone where the file
//! system makes them (btrfs, XFS: no data written, nothing an edit could
//! share) and a plain copy elsewhere (ext4), hashed from what the project
//! holds. With [`LinkMode::Hardlink`] (opt-in, as uv and pnpm do) files
//! are hard-linked, which writes no file data either: the links are
//! checked as they are made, each one opened and hashed, so the tree put
//! in place is the one the lock pins whatever the cache held. A linked
//! file is shared with the cache, so cached files are read-only, but root
//! and editors that write in place write anyway: the cache's copy changes,
//! and with it every project linked to it, until the tree hash catches it
//! (the next install from the cache sees a tree that no longer hashes to
//! the lock and replaces it from the archive, and `skillpkg verify`
//! reports the edited projects). Where links cannot be made (another file
//! system), files are copied. A tree is written into a temporary folder beside the others
//! and renamed into place, so a reader never sees half of one.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::extract::Staged;
use super::limits::Limits;
use super::link::{Digests, Placed, link_listed, make_read_only_in};
use super::regular::open_regular;

/// How the files of a cached tree are put into a project.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LinkMode {
    /// Hard links to the cache's read-only files, checked as they are
    /// made; a copy where links cannot be made. Opt-in: a file edited in
    /// place through a link (by root, or an editor that writes anyway)
    /// changes the cache's copy and every project linked to it, until the
    /// tree hash catches it.
    Hardlink,
    /// Copy-on-write clones where the file system makes them, else
    /// copies; hashed from what the project holds. Nothing in the project
    /// is shared with the cache in a way an edit could reach.
    #[default]
    Copy,
}

/// The folder of unpacked trees in a cache directory.
#[derive(Debug, Clone)]
pub(crate) struct TreeCache {
    dir: PathBuf,
    /// What a tree may hold: one past them is no tree a verified archive
    /// unpacks to.
    limits: Limits,
}

impl TreeCache {
    /// The trees of the cache directory `cache` (`<cache>/trees`), within
    /// the default limits.
    #[cfg(test)]
    pub(crate) fn new(cache: &Path) -> TreeCache {
        TreeCache::within(cache, Limits::default())
    }

    /// The trees of the cache directory `cache`, each within `limits`.
    pub(crate) fn within(cache: &Path, limits: Limits) -> TreeCache {
        TreeCache {
            dir: cache.join("trees"),
            limits,
        }
    }

    /// Where the tree extracted from the archive `checksum`
    /// (`sha256:<hex>`) is kept: `<cache>/trees/<hex>`. `None` for
    /// anything but a sha256 in lowercase hex.
    pub(crate) fn path_of(&self, checksum: &str) -> Option<PathBuf> {
        let hex = checksum.strip_prefix("sha256:")?;
        let valid = hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        valid.then(|| self.dir.join(hex))
    }

    /// Puts the tree cached for the archive `checksum`, which must hash
    /// to `tree` and hold `files`, into a new staging directory under
    /// `staging_parent`, as the skill `name`, linked or copied as `mode`
    /// says. Copies have the files in `executables` (paths relative to the
    /// skill) made executable and every other file not; links must
    /// already be so. Leaves nothing behind in staging unless the result
    /// hashes to `tree`; a cached tree that does not is removed, to be
    /// replaced.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn stage(
        &self,
        checksum: &str,
        tree: &str,
        files: &[String],
        name: &str,
        executables: &BTreeSet<String>,
        staging_parent: &Path,
        mode: LinkMode,
    ) -> std::io::Result<Lookup> {
        let Some(cached) = self.path_of(checksum) else {
            return Ok(Lookup::Miss);
        };
        if !cached.is_dir() {
            return Ok(Lookup::Miss);
        }
        fs_err::create_dir_all(staging_parent)?;
        let new_staging = || {
            tempfile::Builder::new()
                .prefix(".cached-")
                .tempdir_in(staging_parent)
        };
        let limits = self.limits;
        let copy = |staging: &tempfile::TempDir| {
            match copy_verified(&cached, staging.path(), executables, &limits) {
                Ok(Some(copied)) => Placed::Tree(copied, Vec::new()),
                // A cached tree that cannot be read as a tree is replaced
                // like a changed one.
                _ => Placed::NotATree,
            }
        };
        let mut staging = new_staging()?;
        let mut link_error = None;
        let placed = match mode {
            LinkMode::Copy => copy(&staging),
            LinkMode::Hardlink => {
                match link_listed(&cached, staging.path(), files, executables, &limits) {
                    Placed::LinkFailed(error) => {
                        link_error = Some(error);
                        staging = new_staging()?;
                        copy(&staging)
                    }
                    placed => placed,
                }
            }
        };
        match placed {
            Placed::Tree((digests, non_ascii), writable)
                if super::hash::tree_hash_of(&digests) == tree =>
            {
                // Only now is every file known to be the cache's.
                make_read_only_in(staging.path(), &writable)?;
                let staged = Staged::from_parts(staging, name.to_string(), digests, non_ascii);
                Ok(match link_error {
                    None => Lookup::Hit(staged),
                    Some(error) => Lookup::Copied(staged, error),
                })
            }
            _ => {
                drop(staging);
                self.discard(&cached)?;
                Ok(Lookup::Replaced(cached))
            }
        }
    }

    /// Keeps `staged`, extracted from the verified archive `checksum`,
    /// unless a tree is kept for it already: its files hard-linked into
    /// the cache and made read-only with [`LinkMode::Hardlink`] (so the
    /// staged files are the cache's from then on), else copied as
    /// read-only files; where a link fails (another file system), the
    /// staged files are left as they were. Written into a temporary folder and renamed into
    /// place.
    pub(crate) fn keep(
        &self,
        staged: &Staged,
        checksum: &str,
        mode: LinkMode,
    ) -> std::io::Result<()> {
        let Some(target) = self.path_of(checksum) else {
            return Ok(());
        };
        if target.exists() {
            return Ok(());
        }
        fs_err::create_dir_all(&self.dir)?;
        let temp = tempfile::Builder::new()
            .prefix(".new-")
            .tempdir_in(&self.dir)?;
        let source = staged.path();
        let mut link = mode == LinkMode::Hardlink;
        for entry in walkdir::WalkDir::new(&source).follow_links(false) {
            let entry = entry.map_err(std::io::Error::other)?;
            let relative = entry
                .path()
                .strip_prefix(&source)
                .expect("walk stays under its root");
            let to = temp.path().join(relative);
            if entry.file_type().is_dir() {
                fs_err::create_dir_all(&to)?;
            } else if entry.file_type().is_file() {
                if link {
                    // Another file system: copy this file and the rest,
                    // leaving the staged files as they are.
                    link = std::fs::hard_link(entry.path(), &to).is_ok();
                    if link {
                        // The inode is shared from here on; the temporary
                        // folder is private until it is renamed in place.
                        make_read_only(&to)?;
                    }
                }
                if !link {
                    fs_err::copy(entry.path(), &to)?;
                    make_read_only(&to)?;
                }
            }
        }
        match std::fs::rename(temp.path(), &target) {
            Ok(()) => {
                // Renamed away: nothing left for the guard to remove.
                let _ = temp.keep();
                Ok(())
            }
            // Another run kept the same tree first.
            Err(_) if target.exists() => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Moves a bad cached tree out of the way, then deletes it.
    fn discard(&self, cached: &Path) -> std::io::Result<()> {
        let aside = crate::fsutil::private_tempdir(".bad-", Some(&self.dir))?;
        fs_err::rename(cached, aside.path().join("tree"))?;
        Ok(())
    }
}

/// What [`TreeCache::stage`] found.
#[derive(Debug)]
pub(crate) enum Lookup {
    /// The cached tree, linked or copied as asked, and verified.
    Hit(Staged),
    /// The cached tree, copied and verified, because linking it failed
    /// (with this error): the cache is on another file system, say.
    Copied(Staged, std::io::Error),
    /// No cached tree.
    Miss,
    /// A cached tree (at this path) that did not hash to the tree asked
    /// for: tampered with or damaged. It was removed.
    Replaced(PathBuf),
}

/// Takes the write bits off a file in the cache (or about to be shared
/// with it).
fn make_read_only(path: &Path) -> std::io::Result<()> {
    let mut permissions = fs_err::metadata(path)?.permissions();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        permissions.set_mode(permissions.mode() & !0o222);
    }
    #[cfg(not(unix))]
    permissions.set_readonly(true);
    fs_err::set_permissions(path, permissions)
}

/// Copies the regular files under `from` into `to`, hashing the bytes as
/// they are written. `None` when the tree holds anything but folders and
/// regular files, a name that is not UTF-8, or more than `limits` allow:
/// such a tree is no tree a verified archive unpacks to.
fn copy_verified(
    from: &Path,
    to: &Path,
    executables: &BTreeSet<String>,
    limits: &Limits,
) -> std::io::Result<Option<Digests>> {
    let mut digests = BTreeMap::new();
    let mut non_ascii = Vec::new();
    let mut budget = limits.max_total_bytes;
    let mut made = std::collections::HashSet::new();
    // Until the file system refuses the first clone.
    let mut clones = true;
    if !to.is_dir() {
        fs_err::create_dir_all(to)?;
    }
    made.insert(to.to_path_buf());
    for entry in walkdir::WalkDir::new(from)
        .follow_links(false)
        .follow_root_links(false)
        .min_depth(1)
    {
        let entry = entry.map_err(std::io::Error::other)?;
        let Some(relative) = relative_name(entry.path(), from) else {
            return Ok(None);
        };
        let kind = entry.file_type();
        // Folders are made for the files in them: archives hold no empty ones.
        if kind.is_dir() {
            continue;
        }
        if !kind.is_file() || digests.len() >= limits.max_entries {
            return Ok(None);
        }
        let source = open_regular(entry.path())?;
        let target = to.join(&relative);
        let parent = target.parent().expect("a file under the tree");
        if !made.contains(parent) {
            fs_err::create_dir_all(parent)?;
            made.insert(parent.to_path_buf());
        }
        let mode = match executables.contains(&relative) {
            true => 0o755,
            false => 0o644,
        };
        let file = super::extract::create_with_mode(&target, mode)?;
        // A clone shares the cached file's blocks until either is written:
        // an edit in the project, even one forced as root, never reaches
        // the cache. What is hashed is what the project now holds.
        let read = match clones && clone_into(&file, &source) {
            true => super::hash::digest_reader(open_regular(&target)?, budget)?,
            false => {
                clones = false;
                let mut out = super::hash::HashingWriter::new(file);
                std::io::copy(&mut source.take(budget + 1), &mut out)?;
                out.finish().1
            }
        };
        if read.len > budget {
            return Ok(None);
        }
        budget -= read.len;
        if !read.ascii {
            non_ascii.push(relative.clone());
        }
        digests.insert(relative, read.sha256);
    }
    Ok(Some((digests, non_ascii)))
}

/// Copies an installed skill's tree `from` into the new folder `to` as
/// [`copy_verified`] does, each file executable when its source is: the
/// sha256 of each file written, by relative path; `None` when the tree
/// holds anything but folders and regular files, a name that is not
/// UTF-8, or more than the extraction limits allow.
pub(crate) fn copy_tree(
    from: &Path,
    to: &Path,
) -> std::io::Result<Option<BTreeMap<String, String>>> {
    #[cfg_attr(not(unix), allow(unused_mut))]
    let mut executables = BTreeSet::new();
    #[cfg(unix)]
    for entry in walkdir::WalkDir::new(from)
        .follow_links(false)
        .follow_root_links(false)
        .min_depth(1)
    {
        use std::os::unix::fs::PermissionsExt as _;
        let entry = entry.map_err(std::io::Error::other)?;
        let metadata = entry.metadata().map_err(std::io::Error::other)?;
        if metadata.is_file()
            && metadata.permissions().mode() & 0o111 != 0
            && let Some(relative) = relative_name(entry.path(), from)
        {
            executables.insert(relative);
        }
    }
    let copied = copy_verified(from, to, &executables, &Limits::default())?;
    Ok(copied.map(|(digests, _)| digests))
}

/// Makes `file` a copy-on-write clone of `source` (`FICLONE`: btrfs, XFS,
/// bcachefs, …); false where the file system cannot, and the caller
/// copies.
fn clone_into(file: &fs_err::File, source: &std::fs::File) -> bool {
    #[cfg(target_os = "linux")]
    return rustix::fs::ioctl_ficlone(file.file(), source).is_ok();
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (file, source);
        false
    }
}

/// `path` relative to `root`, with `/` separators; `None` when a part is
/// not UTF-8.
fn relative_name(path: &Path, root: &Path) -> Option<String> {
    let parts: Option<Vec<&str>> = path
        .strip_prefix(root)
        .ok()?
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect();
    Some(parts?.join("/"))
}

#[cfg(test)]
#[allow(clippy::print_stderr)] // tests say when they skip
mod tests {
    use super::*;

    /// The checksum the demo tree is kept under.
    const SUM: &str = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

    fn staged_demo(dir: &Path) -> Staged {
        let skill = crate::store::demo_skill(dir, "demo");
        let archive = dir.join("demo.skill");
        std::fs::write(
            &archive,
            super::super::pack::pack_to_bytes(&skill, "demo").unwrap(),
        )
        .unwrap();
        super::super::archive::extract(
            &archive,
            Some("demo"),
            &dir.join("staging"),
            &Limits::default(),
        )
        .unwrap()
    }

    /// The demo staged in a temporary folder and kept in a cache there.
    fn kept_demo(mode: LinkMode) -> (tempfile::TempDir, Staged, TreeCache) {
        let dir = tempfile::tempdir().unwrap();
        let staged = staged_demo(dir.path());
        let trees = TreeCache::new(&dir.path().join("cache"));
        trees.keep(&staged, SUM, mode).unwrap();
        (dir, staged, trees)
    }

    #[test]
    fn a_kept_tree_is_staged_again_with_the_same_hash_and_modes() {
        let (dir, staged, trees) = kept_demo(LinkMode::Copy);
        let tree = staged.tree_hash();
        let executables = BTreeSet::from(["scripts/run.sh".to_string()]);
        let Lookup::Hit(again) = trees
            .stage(
                SUM,
                &tree,
                &staged.files(),
                "demo",
                &executables,
                &dir.path().join("s2"),
                LinkMode::Copy,
            )
            .unwrap()
        else {
            panic!("the kept tree")
        };
        assert_eq!(again.tree_hash(), tree);
        assert_eq!(crate::store::hash::tree_hash(&again.path()).unwrap(), tree);
        assert_eq!(
            again.scan_hidden_unicode().unwrap(),
            staged.scan_hidden_unicode().unwrap()
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = |p: PathBuf| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(again.path().join("scripts/run.sh")), 0o755);
            assert_eq!(mode(again.path().join("SKILL.md")), 0o644);
        }
    }

    #[test]
    #[cfg(unix)]
    fn a_kept_tree_is_linked_read_only_and_checked() {
        use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
        let (dir, staged, trees) = kept_demo(LinkMode::Hardlink);
        let tree = staged.tree_hash();
        let cached = trees.path_of(SUM).unwrap();
        let meta = |p: PathBuf| std::fs::metadata(p).unwrap();
        // Kept by linking the staged files, made read-only first.
        assert_eq!(
            meta(cached.join("SKILL.md")).ino(),
            meta(staged.path().join("SKILL.md")).ino()
        );
        assert_eq!(
            meta(cached.join("SKILL.md")).permissions().mode() & 0o222,
            0
        );
        let executables = BTreeSet::from(["scripts/run.sh".to_string()]);
        let stage = |executables: &BTreeSet<String>| {
            trees
                .stage(
                    SUM,
                    &tree,
                    &staged.files(),
                    "demo",
                    executables,
                    &dir.path().join("s2"),
                    LinkMode::Hardlink,
                )
                .unwrap()
        };
        let Lookup::Hit(linked) = stage(&executables) else {
            panic!("the kept tree")
        };
        assert_eq!(crate::store::hash::tree_hash(&linked.path()).unwrap(), tree);
        assert_eq!(
            meta(linked.path().join("references/deep/a.md")).ino(),
            meta(cached.join("references/deep/a.md")).ino()
        );
        assert_eq!(
            linked.scan_hidden_unicode().unwrap(),
            staged.scan_hidden_unicode().unwrap()
        );
        // A writable cached file (kept by an older version) that is the
        // cache's alone is made read-only, once the tree is verified,
        // rather than refused.
        let file = cached.join("SKILL.md");
        let bytes = std::fs::read(&file).unwrap();
        std::fs::remove_file(&file).unwrap();
        std::fs::write(&file, bytes).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(matches!(stage(&executables), Lookup::Hit(_)));
        assert_eq!(meta(file.clone()).permissions().mode() & 0o222, 0);
        // A file whose executable bit the archive does not give it is a
        // changed tree: links cannot take their modes from the archive.
        assert!(matches!(stage(&BTreeSet::new()), Lookup::Replaced(_)));
        assert!(!cached.exists());
        // A writable cached file that is also a file elsewhere (here, the
        // staged tree's) is a corrupted entry, and its mode is left alone.
        trees.keep(&staged, SUM, LinkMode::Hardlink).unwrap();
        let shared = staged.path().join("references/deep/a.md");
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(matches!(stage(&executables), Lookup::Replaced(_)));
        assert_eq!(meta(shared).permissions().mode() & 0o777, 0o644);
    }

    #[test]
    #[cfg(unix)]
    fn a_cached_file_of_another_account_is_copied_not_linked() {
        use std::os::unix::fs::MetadataExt as _;
        if !rustix::process::geteuid().is_root() {
            eprintln!("SKIPPED: giving a file to another account takes root");
            return;
        }
        let (dir, staged, trees) = kept_demo(LinkMode::Hardlink);
        let cached = trees.path_of(SUM).unwrap();
        // A copy of the same bytes, owned by nobody: the kept tree is
        // linked with the staged one, which the test still reads.
        let file = cached.join("SKILL.md");
        let bytes = std::fs::read(&file).unwrap();
        std::fs::remove_file(&file).unwrap();
        std::fs::write(&file, bytes).unwrap();
        std::os::unix::fs::chown(&file, Some(65534), Some(65534)).unwrap();
        let executables = BTreeSet::from(["scripts/run.sh".to_string()]);
        let lookup = trees
            .stage(
                SUM,
                &staged.tree_hash(),
                &staged.files(),
                "demo",
                &executables,
                &dir.path().join("s2"),
                LinkMode::Hardlink,
            )
            .unwrap();
        let Lookup::Copied(copied, error) = lookup else {
            panic!("a copy, with why it was not linked: {lookup:?}")
        };
        assert_eq!(error.kind(), std::io::ErrorKind::PermissionDenied);
        let meta = std::fs::metadata(copied.path().join("SKILL.md")).unwrap();
        assert_ne!(meta.ino(), std::fs::metadata(&file).unwrap().ino());
        assert_eq!(meta.uid(), 0);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn links_across_file_systems_fall_back_to_checked_copies() {
        use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
        let dir = tempfile::tempdir().unwrap();
        let other = match tempfile::tempdir_in("/dev/shm") {
            Ok(other)
                if std::fs::metadata(other.path()).unwrap().dev()
                    != std::fs::metadata(dir.path()).unwrap().dev() =>
            {
                other
            }
            _ => {
                eprintln!("SKIPPED: no second file system at /dev/shm to link across");
                return;
            }
        };
        let staged = staged_demo(dir.path());
        let trees = TreeCache::new(&dir.path().join("cache"));
        trees.keep(&staged, SUM, LinkMode::Hardlink).unwrap();
        let executables = BTreeSet::from(["scripts/run.sh".to_string()]);
        let lookup = trees
            .stage(
                SUM,
                &staged.tree_hash(),
                &staged.files(),
                "demo",
                &executables,
                other.path(),
                LinkMode::Hardlink,
            )
            .unwrap();
        let Lookup::Copied(copied, error) = lookup else {
            panic!("a copy, with the link's error: {lookup:?}")
        };
        assert_eq!(error.raw_os_error(), Some(libc::EXDEV));
        assert_eq!(
            crate::store::hash::tree_hash(&copied.path()).unwrap(),
            staged.tree_hash()
        );
        // One staging folder: the one with the copy.
        assert_eq!(std::fs::read_dir(other.path()).unwrap().count(), 1);
        // Kept across file systems: copied, read-only, and the staged
        // files, which are not the cache's, keep their modes.
        let fresh = staged_demo(&dir.path().join("fresh"));
        let cache = TreeCache::new(&other.path().join("cache"));
        cache.keep(&fresh, SUM, LinkMode::Hardlink).unwrap();
        let kept = cache.path_of(SUM).unwrap();
        assert_eq!(
            crate::store::hash::tree_hash(&kept).unwrap(),
            staged.tree_hash()
        );
        let writable = |p: PathBuf| std::fs::metadata(p).unwrap().permissions().mode() & 0o200;
        assert_eq!(writable(kept.join("SKILL.md")), 0);
        for file in fresh.files() {
            assert_ne!(writable(fresh.path().join(&file)), 0, "{file}");
        }
    }

    #[test]
    fn a_tampered_tree_is_refused_and_removed() {
        let (dir, staged, trees) = kept_demo(LinkMode::Copy);
        let tree = staged.tree_hash();
        let cached = trees.path_of(SUM).unwrap();
        let staging = dir.path().join("s2");
        let stage = || {
            trees
                .stage(
                    SUM,
                    &tree,
                    &staged.files(),
                    "demo",
                    &BTreeSet::new(),
                    &staging,
                    LinkMode::Copy,
                )
                .unwrap()
        };
        std::fs::write(cached.join("scripts/run.sh"), "#!/bin/sh\nrm -rf ~\n").unwrap();
        assert!(matches!(stage(), Lookup::Replaced(path) if path == cached));
        assert!(!cached.exists(), "the tampered tree is gone");
        assert_eq!(std::fs::read_dir(&staging).unwrap().count(), 0);
        // An added file, or a link, is refused as well.
        trees.keep(&staged, SUM, LinkMode::Copy).unwrap();
        std::fs::write(cached.join("extra.md"), "x").unwrap();
        assert!(matches!(stage(), Lookup::Replaced(_)));
        trees.keep(&staged, SUM, LinkMode::Copy).unwrap();
        #[cfg(unix)]
        {
            std::fs::remove_file(cached.join("SKILL.md")).unwrap();
            std::os::unix::fs::symlink(staged.path().join("SKILL.md"), cached.join("SKILL.md"))
                .unwrap();
            assert!(matches!(stage(), Lookup::Replaced(_)));
        }
    }

    #[test]
    fn only_sha256_checksums_name_a_tree() {
        let trees = TreeCache::new(Path::new("/cache"));
        assert!(trees.path_of("sha256:../../etc").is_none());
        assert!(trees.path_of("h1:abc").is_none());
        assert!(trees.path_of(&SUM.to_uppercase()).is_none());
        let path = trees.path_of(SUM).unwrap();
        assert_eq!(path.parent().unwrap(), Path::new("/cache/trees"));
        assert_eq!(path.file_name().unwrap().len(), 64);
    }

    #[test]
    fn a_tree_is_found_only_under_the_archive_it_came_from() {
        let dir = tempfile::tempdir().unwrap();
        let staged = staged_demo(dir.path());
        let trees = TreeCache::new(&dir.path().join("cache"));
        trees.keep(&staged, SUM, LinkMode::Copy).unwrap();
        let other = format!("sha256:{}", "b".repeat(64));
        let lookup = trees
            .stage(
                &other,
                &staged.tree_hash(),
                &staged.files(),
                "demo",
                &BTreeSet::new(),
                &dir.path().join("s"),
                LinkMode::Hardlink,
            )
            .unwrap();
        assert!(matches!(lookup, Lookup::Miss));
    }
}
