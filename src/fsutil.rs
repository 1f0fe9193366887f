//! File-system helpers shared by every module: atomic writes and locks.

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to a temporary file beside `path`, syncs it, then renames
/// it over `path`: readers never see a half-written file, and a killed
/// process leaves the old file intact.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_renamed(path, bytes, true)
}

/// Like [`write_atomically`] without the sync: for cache files, which are
/// checked against a hash on every read, so a file a power cut tore is
/// refetched rather than trusted. Readers still never see a partial file.
pub fn write_cache_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_renamed(path, bytes, false)
}

fn write_renamed(path: &Path, bytes: &[u8], sync: bool) -> std::io::Result<()> {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs_err::create_dir_all(parent)?;
    let mut temp = tempfile::NamedTempFile::new_in(parent)?;
    temp.write_all(bytes)?;
    if sync {
        temp.as_file().sync_all()?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// An exclusive lock on a file, held until dropped.
#[derive(Debug)]
pub struct FileLock {
    _file: std::fs::File,
}

/// What to tell the user when a lock is held by another process.
type WaitNotice = Box<dyn Fn(&Path) + Send + Sync>;

static WAIT_NOTICE: std::sync::OnceLock<WaitNotice> = std::sync::OnceLock::new();

/// Sets what happens when [`lock_exclusive`] has to wait for another
/// process (the CLI prints a status line). Set once; later calls are ignored.
pub fn on_lock_wait(notice: impl Fn(&Path) + Send + Sync + 'static) {
    let _ = WAIT_NOTICE.set(Box::new(notice));
}

/// Takes an exclusive lock on `path` (created if needed). When another
/// process holds it, says so (see [`on_lock_wait`]) and waits.
pub fn lock_exclusive(path: &Path) -> std::io::Result<FileLock> {
    if let Some(parent) = path.parent() {
        fs_err::create_dir_all(parent)?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            if let Some(notice) = WAIT_NOTICE.get() {
                notice(path);
            }
            file.lock()?;
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(e),
    }
    Ok(FileLock { _file: file })
}

/// Makes sure `dir` exists and holds a `.gitignore` that ignores it whole:
/// skillpkg's working folders (`.skillpkg/`) never show up in version control.
pub fn ignore_in_git(dir: &Path) -> std::io::Result<()> {
    let ignore = dir.join(".gitignore");
    if !ignore.exists() {
        write_atomically(
            &ignore,
            b"# skillpkg's working files: not for version control.\n*\n",
        )?;
    }
    Ok(())
}

/// Whether another user owns `path` (as git's `safe.directory` judges).
pub fn owned_by_someone_else(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        std::fs::metadata(path).is_ok_and(|m| m.uid() != me)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}
