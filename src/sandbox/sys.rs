//! Every system call the sandbox helper makes that no safe wrapper covers:
//! namespaces, `fork`, mounts (classic and detached trees), capabilities,
//! the session keyring and a new session for the command. Each function is
//! safe to call; each `unsafe` block says why it holds. Nothing else in
//! the crate but `crate::sys` may use `unsafe`.

use std::ffi::CString;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// `open_tree(2)`: clone the mount tree rather than open it in place.
const OPEN_TREE_CLONE: libc::c_uint = 1;
/// `open_tree(2)` and friends: the whole tree beneath, submounts included.
const AT_RECURSIVE: libc::c_uint = 0x8000;
/// `move_mount(2)`: the source is the file descriptor itself.
const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;
/// `keyctl(2)`: join (here: make) a new anonymous session keyring.
const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;

/// The last OS error, prefixed with what failed.
fn failed(what: impl std::fmt::Display) -> String {
    format!("{what}: {}", std::io::Error::last_os_error())
}

/// A path as a C string, or an error naming it.
fn c_path(path: &Path) -> Result<CString, String> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| format!("{}: a path with a NUL byte", path.display()))
}

/// Makes this process receive SIGKILL when its parent dies.
pub(super) fn die_with_parent() {
    let _ = rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL));
}

/// `unshare(2)` with `flags`.
pub(super) fn unshare(flags: libc::c_int) -> std::io::Result<()> {
    // SAFETY: unshare takes flags only; the helper has a single thread,
    // which entering a user namespace requires.
    match unsafe { libc::unshare(flags) } {
        0 => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    }
}

/// Which side of a `fork` this is.
pub(super) enum Forked {
    /// The parent, with the child's pid.
    Parent(libc::pid_t),
    /// The child.
    Child,
}

/// `fork(2)`.
///
/// Only for the helper, whose process has a single thread: the child may
/// then allocate and take locks freely.
pub(super) fn fork() -> Result<Forked, String> {
    // SAFETY: the helper runs before anything else in `main`, with one
    // thread, so no lock can be held by a thread that the child lacks.
    match unsafe { libc::fork() } {
        -1 => Err(failed("fork")),
        0 => Ok(Forked::Child),
        pid => Ok(Forked::Parent(pid)),
    }
}

/// Ends this process at once with `code`, without unwinding or running
/// the parent's exit handlers.
pub(super) fn exit_now(code: i32) -> ! {
    // SAFETY: _exit has no preconditions.
    unsafe { libc::_exit(code) }
}

/// Waits for `pid` (or any child, with -1); the pid that ended and its
/// wait status, retrying on EINTR.
pub(super) fn wait(pid: libc::pid_t) -> std::io::Result<(libc::pid_t, libc::c_int)> {
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes one int through a valid pointer.
        let waited = unsafe { libc::waitpid(pid, &mut status, 0) };
        if waited >= 0 {
            return Ok((waited, status));
        }
        let error = std::io::Error::last_os_error();
        if error.raw_os_error() != Some(libc::EINTR) {
            return Err(error);
        }
    }
}

/// Dies of `signal`, as a child that was killed by it did.
pub(super) fn die_of(signal: libc::c_int) {
    // SAFETY: restores the default action of a signal and raises it; no
    // handler runs.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// `mount(2)`, its error naming the target.
pub(super) fn mount(
    source: Option<&Path>,
    target: &Path,
    fstype: Option<&str>,
    flags: libc::c_ulong,
    data: Option<&str>,
) -> Result<(), String> {
    let c = |text: &[u8]| CString::new(text).map_err(|_| format!("{}: a NUL", target.display()));
    let source = source.map(|s| c(s.as_os_str().as_bytes())).transpose()?;
    let fstype = fstype.map(|s| c(s.as_bytes())).transpose()?;
    let data = data.map(|s| c(s.as_bytes())).transpose()?;
    let target_c = c_path(target)?;
    let ptr = |s: &Option<CString>| s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
    // SAFETY: every pointer is a NUL-terminated string that outlives the
    // call, or null.
    let result = unsafe {
        libc::mount(
            ptr(&source),
            target_c.as_ptr(),
            ptr(&fstype),
            flags,
            ptr(&data).cast(),
        )
    };
    match result {
        0 => Ok(()),
        _ => Err(failed(format_args!(
            "could not mount on {}",
            target.display()
        ))),
    }
}

/// A detached copy of the mount tree at `path`, submounts included
/// (`open_tree(2)` with `OPEN_TREE_CLONE | AT_RECURSIVE`), to be put back
/// with [`attach_tree`] once what hides it is in place.
pub(super) fn clone_tree(path: &Path) -> Result<OwnedFd, String> {
    let c = c_path(path)?;
    let flags = OPEN_TREE_CLONE | AT_RECURSIVE | libc::O_CLOEXEC as libc::c_uint;
    // SAFETY: a NUL-terminated path and plain flags; a returned fd is new
    // and owned by nobody else.
    let fd = unsafe { libc::syscall(libc::SYS_open_tree, libc::AT_FDCWD, c.as_ptr(), flags) };
    if fd < 0 {
        return Err(failed(format_args!(
            "could not take {} along into the sandbox",
            path.display()
        )));
    }
    // SAFETY: a fresh descriptor, owned from here on.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as libc::c_int) })
}

/// Mounts a tree made by [`clone_tree`] on `target` (`move_mount(2)`).
pub(super) fn attach_tree(tree: &OwnedFd, target: &Path) -> Result<(), String> {
    use std::os::fd::AsRawFd as _;
    let c = c_path(target)?;
    let empty = c"";
    // SAFETY: a valid descriptor, NUL-terminated strings, plain flags.
    let result = unsafe {
        libc::syscall(
            libc::SYS_move_mount,
            tree.as_raw_fd(),
            empty.as_ptr(),
            libc::AT_FDCWD,
            c.as_ptr(),
            MOVE_MOUNT_F_EMPTY_PATH,
        )
    };
    match result {
        0 => Ok(()),
        _ => Err(failed(format_args!(
            "could not put {} back",
            target.display()
        ))),
    }
}

/// Gives this process a new, empty session keyring, so nothing it starts
/// inherits the keys of the user's session.
pub(super) fn fresh_session_keyring() -> Result<(), String> {
    // SAFETY: KEYCTL_JOIN_SESSION_KEYRING with a null name makes an
    // anonymous keyring; no memory is passed.
    let result = unsafe {
        libc::syscall(
            libc::SYS_keyctl,
            KEYCTL_JOIN_SESSION_KEYRING,
            std::ptr::null::<libc::c_char>(),
        )
    };
    match result {
        // A kernel without keys has no keyring to leave.
        -1 if std::io::Error::last_os_error().raw_os_error() == Some(libc::ENOSYS) => Ok(()),
        -1 => Err(failed("could not make a fresh session keyring")),
        _ => Ok(()),
    }
}

/// Drops every capability (in the bounding, ambient, inheritable,
/// permitted and effective sets): the command cannot undo the mounts or
/// regain a capability by running a program as root.
pub(super) fn drop_capabilities() -> Result<(), String> {
    let last: libc::c_ulong = std::fs::read_to_string("/proc/sys/kernel/cap_last_cap")
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(63);
    for cap in 0..=last {
        // SAFETY: prctl with plain integers.
        if unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) } != 0
            && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINVAL)
        {
            return Err(failed(format_args!("could not drop capability {cap}")));
        }
    }
    // SAFETY: prctl with plain integers.
    unsafe {
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        )
    };
    #[repr(C)]
    struct Header {
        version: u32,
        pid: libc::c_int,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    let header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let none = Data {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    };
    let data = [none; 2];
    // SAFETY: capset reads a version-3 header and its two data words.
    if unsafe { libc::syscall(libc::SYS_capset, &header, data.as_ptr()) } != 0 {
        return Err(failed("could not drop capabilities"));
    }
    Ok(())
}

/// Has `command` start in a session of its own, without a controlling
/// terminal: it cannot open `/dev/tty`, nor push input into a terminal
/// (`TIOCSTI` needs the terminal to be the caller's own).
pub(super) fn new_session_on_start(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt as _;
    // SAFETY: setsid is async-signal-safe and touches no memory, as code
    // between fork and exec must.
    unsafe {
        command.pre_exec(|| {
            rustix::process::setsid()?;
            Ok(())
        });
    }
}
