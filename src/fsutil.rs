//! File-system helpers shared by every module: atomic writes and locks.

use std::io::Write;
use std::path::Path;

/// `path` with `.` and `..` resolved by name alone, without asking the
/// file system (so a link is not followed): what the path says, to
/// compare with where it really leads.
pub(crate) fn lexically_normal(path: &Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Writes `bytes` to a temporary file beside `path`, syncs it, then renames
/// it over `path`: readers never see a half-written file, and a killed
/// process leaves the old file intact. The file keeps the mode it had, and
/// a new one gets what the umask allows (0644 under 022), as any editor's
/// would: these files are committed or shared (`skills.toml`,
/// `skills.lock`, packed skills, index files).
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_renamed(path, true, Some(shared_mode(path)), |file| {
        file.write_all(bytes)
    })
}

/// [`write_atomically`] of what `write` writes into the temporary file:
/// a file of any size, streamed rather than held in memory.
pub(crate) fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    write_renamed(path, true, Some(shared_mode(path)), write)
}

/// [`write_atomically`] of a copy of the file `from`, streamed.
pub(crate) fn copy_atomically(from: &Path, path: &Path) -> std::io::Result<()> {
    let mut source = fs_err::File::open(from)?;
    write_atomically_with(path, |file| std::io::copy(&mut source, file).map(drop))
}

/// Appends `text`, whole lines, to the file at `path` in one write, then
/// syncs it: a line is added without reading or rewriting what is there.
/// The file (and its folder) is created when missing, with what the umask
/// allows, as [`write_atomically`] does; a file that does not end in a newline
/// (edited by hand) gets one first. Returns the file's size after.
///
/// A reader sees the file before or after the write on a local file
/// system; a process killed in the write can leave a torn last line, which
/// readers name by file and line.
pub(crate) fn append_lines(path: &Path, text: &[u8]) -> std::io::Result<u64> {
    use std::io::{Read as _, Seek as _};
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs_err::create_dir_all(parent)?;
    }
    let mut file = fs_err::OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)?;
    let size = file.metadata()?.len();
    let mut bytes = Vec::with_capacity(text.len() + 1);
    if size > 0 {
        let mut last = [0u8];
        file.seek(std::io::SeekFrom::Start(size - 1))?;
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
            bytes.push(b'\n');
        }
    }
    bytes.extend_from_slice(text);
    file.write_all(&bytes)?;
    file.sync_data()?;
    Ok(size + bytes.len() as u64)
}

/// [`write_atomically`] for a file only its owner may read (mode 0600),
/// from the moment it exists.
pub(crate) fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_renamed(path, true, None, |file| file.write_all(bytes))
}

/// Like [`write_atomically`] without the sync: for cache files, which are
/// checked against a hash on every read, so a file a power cut tore is
/// refetched rather than trusted. Readers still never see a partial file.
pub(crate) fn write_cache_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_renamed(path, false, None, |file| file.write_all(bytes))
}

/// A new temporary file beside `path` (its folder made when missing),
/// for a file to be renamed over `path` once written in full.
pub(crate) fn temp_file_beside(path: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs_err::create_dir_all(parent)?;
    tempfile::NamedTempFile::new_in(parent)
}

/// `mode`: the permissions to give the file (`None`: the temporary
/// file's own, 0600).
fn write_renamed(
    path: &Path,
    sync: bool,
    mode: Option<u32>,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut temp = temp_file_beside(path)?;
    write(temp.as_file_mut())?;
    rename_over(temp, path, sync, mode)
}

/// Renames `temp`, a temporary file written in full on the file system
/// of `path`, over `path`, synced, with the mode a shared file gets (as
/// [`write_atomically`]'s).
pub(crate) fn persist_shared(temp: tempfile::NamedTempFile, path: &Path) -> std::io::Result<()> {
    rename_over(temp, path, true, Some(shared_mode(path)))
}

fn rename_over(
    temp: tempfile::NamedTempFile,
    path: &Path,
    sync: bool,
    mode: Option<u32>,
) -> std::io::Result<()> {
    #[cfg(unix)]
    if let Some(mode) = mode {
        use std::os::unix::fs::PermissionsExt as _;
        temp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    if sync {
        temp.as_file().sync_all()?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The mode a shared file written at `path` gets: the one it has, else
/// 0666 less the umask.
fn shared_mode(path: &Path) -> u32 {
    #[cfg(unix)]
    if let Ok(metadata) = std::fs::metadata(path) {
        use std::os::unix::fs::PermissionsExt as _;
        return metadata.permissions().mode() & 0o7777;
    }
    let _ = path;
    0o666 & !umask()
}

/// The process's umask, read once. Linux shows it in `/proc/self/status`;
/// elsewhere it can only be read by setting it, which is done once, early
/// and put back at once.
fn umask() -> u32 {
    static UMASK: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *UMASK.get_or_init(|| {
        #[cfg(target_os = "linux")]
        let from_proc = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|status| {
                status
                    .lines()
                    .find_map(|line| line.strip_prefix("Umask:"))
                    .and_then(|value| u32::from_str_radix(value.trim(), 8).ok())
            });
        #[cfg(not(target_os = "linux"))]
        let from_proc: Option<u32> = None;
        #[cfg(unix)]
        let fallback = || {
            use rustix::fs::Mode;
            // The old mask is restored at once.
            let old = rustix::process::umask(Mode::from_raw_mode(0o022));
            rustix::process::umask(old);
            // mode_t is u32 on Linux and u16 on macOS.
            #[allow(clippy::useless_conversion)]
            u32::from(old.bits())
        };
        #[cfg(not(unix))]
        let fallback = || 0o022;
        from_proc.unwrap_or_else(fallback)
    })
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
pub(crate) fn on_lock_wait(notice: impl Fn(&Path) + Send + Sync + 'static) {
    let _ = WAIT_NOTICE.set(Box::new(notice));
}

/// Takes an exclusive lock on `path` (created if needed). When another
/// process holds it, says so (see [`on_lock_wait`]) and waits.
pub(crate) fn lock_exclusive(path: &Path) -> std::io::Result<FileLock> {
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

/// A new scratch folder named `<prefix><random>`, private to the user
/// (0700, whatever the umask: `tempfile` alone makes it 0755 under 022),
/// removed with everything in it when dropped. It is made in `parent`, or
/// in the system's temporary folder when `parent` is `None`.
pub(crate) fn private_tempdir(
    prefix: &str,
    parent: Option<&Path>,
) -> std::io::Result<tempfile::TempDir> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        builder.permissions(std::fs::Permissions::from_mode(0o700));
    }
    match parent {
        Some(parent) => builder.tempdir_in(parent),
        None => builder.tempdir(),
    }
}

/// Makes sure `dir` exists and holds a `.gitignore` that ignores it whole:
/// skillpkg's working folders (`.skillpkg/`) never show up in version control.
pub(crate) fn ignore_in_git(dir: &Path) -> std::io::Result<()> {
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
pub(crate) fn owned_by_someone_else(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = rustix::process::geteuid().as_raw();
        std::fs::metadata(path).is_ok_and(|m| m.uid() != me)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// `path` as skills.toml, skills.lock and index files record it: its
/// components joined with `/` whatever the platform (`tools\helper` on
/// Windows is `tools/helper`), a drive as `C:` (a verbatim `\\?\C:`
/// too) and a share as `//server/share`, which Windows reads as well.
pub(crate) fn slashed(path: &Path) -> String {
    use std::path::{Component, Prefix};
    let mut out = String::new();
    for component in path.components() {
        match component {
            Component::Prefix(prefix) => match prefix.kind() {
                Prefix::Disk(drive) | Prefix::VerbatimDisk(drive) => {
                    out.push_str(&format!("{}:", drive as char));
                }
                Prefix::UNC(server, share) | Prefix::VerbatimUNC(server, share) => {
                    let (server, share) = (server.to_string_lossy(), share.to_string_lossy());
                    out.push_str(&format!("//{server}/{share}"));
                }
                _ => out.push_str(&prefix.as_os_str().to_string_lossy().replace('\\', "/")),
            },
            Component::RootDir => out.push('/'),
            other => {
                if !out.is_empty() && !out.ends_with('/') {
                    out.push('/');
                }
                out.push_str(&other.as_os_str().to_string_lossy());
            }
        }
    }
    out
}

/// `path`, found by walking `base`, as a `/`-separated path relative to
/// it (lossily, for names that are not UTF-8).
pub(crate) fn relative_slashed(path: &Path, base: &Path) -> String {
    slashed(
        path.strip_prefix(base)
            .expect("a walk stays under its root"),
    )
}

/// `path` as a dependency on it is recorded: relative to `base` (the
/// project's folder, canonical) when it lies beneath it, else whole;
/// `/`-separated either way.
pub(crate) fn slashed_beneath(path: &Path, base: &Path) -> String {
    slashed(path.strip_prefix(base).unwrap_or(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_paths_are_slashed() {
        assert_eq!(slashed(Path::new("tools/helper")), "tools/helper");
        assert_eq!(slashed(Path::new("./tools//helper/")), "./tools/helper");
        assert_eq!(slashed(Path::new("../up")), "../up");
        assert_eq!(slashed(Path::new("/abs/x")), "/abs/x");
        #[cfg(windows)]
        {
            assert_eq!(slashed(Path::new(r"tools\helper")), "tools/helper");
            assert_eq!(slashed(Path::new(r"C:\x\y")), "C:/x/y");
            assert_eq!(slashed(Path::new(r"\\?\C:\x")), "C:/x");
            assert_eq!(slashed(Path::new(r"\\server\share\x")), "//server/share/x");
        }
        let project = Path::new("/work/project");
        let beneath = project.join("tools").join("helper");
        assert_eq!(slashed_beneath(&beneath, project), "tools/helper");
        assert_eq!(
            slashed_beneath(Path::new("/elsewhere/x"), project),
            "/elsewhere/x"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_private_tempdir_is_0700_whatever_the_umask() {
        use std::os::unix::fs::PermissionsExt as _;
        let parent = tempfile::tempdir().unwrap();
        let dir = private_tempdir(".scratch-", Some(parent.path())).unwrap();
        let mode = std::fs::metadata(dir.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        assert!(
            dir.path()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".scratch-")
        );
        let path = dir.path().to_path_buf();
        drop(dir);
        assert!(!path.exists());
    }
}
