//! The sandbox helper: skillpkg's own binary, started again with the
//! hidden first argument [`HELPER_ARG`] so that it sets the sandbox up in
//! a fresh process with one thread (namespaces cannot be entered, and
//! should not be built, in a forked copy of a multi-threaded process).
//!
//! The helper enters new user, mount, PID and (without the network)
//! network namespaces, then forks the namespace's init, which mounts a
//! fresh `/proc`, hides the credential stores, binds the protected paths
//! read-only, drops every capability, restricts itself with Landlock and
//! starts the command. When the command ends, init ends, and the kernel
//! kills whatever else is left in the namespace: detached processes end
//! with the command. See docs/sandbox.md.

use std::ffi::{CString, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::spec::{HELPER_ARG, HELPER_PREFIX, SETUP_FAILED, Spec};

/// Character devices a sandboxed command may write (and `ioctl`).
const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

/// When this process was started as skillpkg's sandbox helper (first
/// argument [`HELPER_ARG`]), runs the helper to its end and returns its
/// exit code; otherwise `None`. Called first thing in `main`, while the
/// process has one thread.
pub fn main_if_requested() -> Option<i32> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != HELPER_ARG {
        return None;
    }
    let rest: Vec<OsString> = args.collect();
    Some(match helper(&rest) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{HELPER_PREFIX}{e}");
            SETUP_FAILED
        }
    })
}

/// The helper: namespaces, then init in them; returns init's exit code.
fn helper(args: &[OsString]) -> Result<i32, String> {
    let (spec, command) = args.split_first().ok_or("no sandbox spec was given")?;
    let spec: Spec = spec
        .to_str()
        .and_then(|text| serde_json::from_str(text).ok())
        .ok_or("the sandbox spec is not valid JSON")?;
    if !spec.probe && command.is_empty() {
        return Err("no command was given".into());
    }
    // The helper goes when skillpkg goes.
    // SAFETY: prctl with plain integers.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) };
    enter_namespaces(spec.network)?;
    // SAFETY: this process has a single thread (the helper runs before
    // anything else in main), so the child may allocate and lock freely.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(format!("fork: {}", std::io::Error::last_os_error()));
    }
    if pid == 0 {
        let code = init(&spec, command).unwrap_or_else(|e| {
            eprintln!("{HELPER_PREFIX}{e}");
            SETUP_FAILED
        });
        // SAFETY: ends the child without unwinding into the parent's frames.
        unsafe { libc::_exit(code) }
    }
    Ok(wait_for(pid))
}

/// New user, mount and PID namespaces, and a network namespace (only a
/// loopback, down) unless `network`; the user keeps its own uid and gid.
fn enter_namespaces(network: bool) -> Result<(), String> {
    // SAFETY: getuid and getgid cannot fail.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let mut flags = libc::CLONE_NEWUSER | libc::CLONE_NEWNS | libc::CLONE_NEWPID;
    if !network {
        flags |= libc::CLONE_NEWNET;
    }
    // SAFETY: unshare with flags only.
    if unsafe { libc::unshare(flags) } != 0 {
        return Err(format!(
            "could not create user namespaces: {} (unprivileged user namespaces may be turned off: sysctl kernel.unprivileged_userns_clone, or kernel.apparmor_restrict_unprivileged_userns on Ubuntu)",
            std::io::Error::last_os_error()
        ));
    }
    let write = |file: &str, text: String| {
        std::fs::write(file, text).map_err(|e| format!("could not write {file}: {e}"))
    };
    if Path::new("/proc/self/setgroups").exists() {
        write("/proc/self/setgroups", "deny".into())?;
    }
    write("/proc/self/uid_map", format!("{uid} {uid} 1"))?;
    write("/proc/self/gid_map", format!("{gid} {gid} 1"))
}

/// Waits for init and returns its exit code; dies of the signal that
/// killed it, so that skillpkg sees the same.
fn wait_for(pid: libc::pid_t) -> i32 {
    let mut status = 0;
    loop {
        // SAFETY: waitpid on our own child.
        let waited = unsafe { libc::waitpid(pid, &mut status, 0) };
        if waited == pid {
            break;
        }
        if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return SETUP_FAILED;
        }
    }
    if libc::WIFSIGNALED(status) {
        let signal = libc::WTERMSIG(status);
        // SAFETY: restores the default action of a signal and raises it.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
    exit_code(status)
}

/// A shell's exit code for a wait status: the code, or 128 + the signal.
fn exit_code(status: libc::c_int) -> i32 {
    if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    }
}

/// PID 1 of the new namespace: sets the sandbox up, runs the command,
/// reaps what is orphaned meanwhile, and returns the command's exit code.
fn init(spec: &Spec, command: &[OsString]) -> Result<i32, String> {
    // SAFETY: prctl with plain integers.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) };
    mount(None, "/", None, libc::MS_REC | libc::MS_PRIVATE, None)?;
    // A /proc of the namespace's processes only. A container that masks
    // parts of its /proc may refuse; the old one then stays, and Landlock
    // still keeps the command from reading processes outside.
    let _ = mount(
        Some("proc"),
        "/proc",
        Some("proc"),
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        None,
    );
    let mut writable = spec.writable.clone();
    let shm = mount(
        Some("tmpfs"),
        "/dev/shm",
        Some("tmpfs"),
        libc::MS_NOSUID | libc::MS_NODEV,
        Some("mode=1777"),
    );
    if shm.is_ok() {
        writable.push(PathBuf::from("/dev/shm"));
    }
    for path in &spec.hidden {
        hide(path)?;
    }
    for path in &spec.read_only {
        bind_read_only(path)?;
    }
    drop_capabilities()?;
    restrict(&writable, spec.network)?;
    if spec.probe {
        return Ok(0);
    }
    let program = &command[0];
    let child = match std::process::Command::new(program)
        .args(&command[1..])
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            eprintln!("could not run {}: {e}", Path::new(program).display());
            return Ok(if e.kind() == std::io::ErrorKind::NotFound {
                127
            } else {
                126
            });
        }
    };
    let main = child.id() as libc::pid_t;
    loop {
        let mut status = 0;
        // SAFETY: waitpid on any child: init reaps every orphan.
        let pid = unsafe { libc::waitpid(-1, &mut status, 0) };
        if pid == main {
            return Ok(exit_code(status));
        }
        if pid < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return Err("lost the command's process".into());
        }
    }
}

/// mount(2), its error naming the target.
fn mount(
    source: Option<&str>,
    target: impl AsRef<Path>,
    fstype: Option<&str>,
    flags: libc::c_ulong,
    data: Option<&str>,
) -> Result<(), String> {
    let target = target.as_ref();
    let c = |text: &[u8]| CString::new(text).map_err(|_| format!("{}: a NUL", target.display()));
    let source = source.map(|s| c(s.as_bytes())).transpose()?;
    let fstype = fstype.map(|s| c(s.as_bytes())).transpose()?;
    let data = data.map(|s| c(s.as_bytes())).transpose()?;
    let target_c = c(target.as_os_str().as_bytes())?;
    let ptr = |s: &Option<CString>| s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
    // SAFETY: every pointer is a NUL-terminated string or null.
    let result = unsafe {
        libc::mount(
            ptr(&source),
            target_c.as_ptr(),
            ptr(&fstype),
            flags,
            ptr(&data).cast(),
        )
    };
    if result != 0 {
        return Err(format!(
            "could not mount on {}: {}",
            target.display(),
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

/// Puts an empty read-only folder over a secret folder, `/dev/null` over
/// a secret file.
fn hide(path: &Path) -> Result<(), String> {
    let Ok(metadata) = std::fs::metadata(path) else {
        return Ok(());
    };
    if metadata.is_dir() {
        mount(
            Some("tmpfs"),
            path,
            Some("tmpfs"),
            libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            Some("size=4k,mode=700"),
        )
    } else {
        let null = Path::new("/dev/null").as_os_str().to_str();
        mount(null, path, None, libc::MS_BIND, None)
    }
}

/// Binds `path` onto itself read-only, keeping the flags the mount it
/// lies in has (a user namespace may not clear them).
fn bind_read_only(path: &Path) -> Result<(), String> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(());
    }
    let source = path.to_str().ok_or_else(|| {
        format!(
            "{}: a path that is not UTF-8 cannot be protected",
            path.display()
        )
    })?;
    mount(Some(source), path, None, libc::MS_BIND | libc::MS_REC, None)?;
    let c_path = CString::new(path.as_os_str().as_bytes()).map_err(|e| e.to_string())?;
    // SAFETY: statvfs fills a zeroed struct from a NUL-terminated path.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c_path.as_ptr(), &mut stat) } != 0 {
        return Err(format!(
            "statvfs {}: {}",
            path.display(),
            std::io::Error::last_os_error()
        ));
    }
    let kept = [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ]
    .iter()
    .filter(|(st, _)| stat.f_flag & st != 0)
    .fold(0, |flags, (_, ms)| flags | ms);
    mount(
        None,
        path,
        None,
        libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | kept,
        None,
    )
}

/// Drops every capability (in the bounding, ambient, inheritable,
/// permitted and effective sets): the command cannot undo the mounts or
/// regain a capability by running a program as root.
fn drop_capabilities() -> Result<(), String> {
    let last: libc::c_ulong = std::fs::read_to_string("/proc/sys/kernel/cap_last_cap")
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(63);
    for cap in 0..=last {
        // SAFETY: prctl with plain integers.
        if unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) } != 0
            && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINVAL)
        {
            return Err(format!(
                "could not drop capability {cap}: {}",
                std::io::Error::last_os_error()
            ));
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
    let data = [
        Data {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        },
        Data {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        },
    ];
    // SAFETY: capset with a version-3 header and its two data words.
    if unsafe { libc::syscall(libc::SYS_capset, &header, data.as_ptr()) } != 0 {
        return Err(format!(
            "could not drop capabilities: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

/// Landlock: read and run anything, write only beneath `writable` (and
/// the harmless devices), no TCP unless `network`, no signals to or
/// abstract sockets of processes outside the sandbox, and no reading of
/// their memory or environment (Landlock's ptrace rule).
fn restrict(writable: &[PathBuf], network: bool) -> Result<(), String> {
    use landlock::{
        ABI, Access, AccessFs, AccessNet, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus,
        Scope, path_beneath_rules,
    };
    let abi = ABI::V6;
    let failed = |e: landlock::RulesetError| format!("could not set up Landlock: {e}");
    let mut ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .map_err(failed)?;
    if !network {
        ruleset = ruleset
            .handle_access(AccessNet::from_all(abi))
            .map_err(failed)?;
    }
    let status = ruleset
        .scope(Scope::from_all(abi))
        .map_err(failed)?
        .create()
        .map_err(failed)?
        .add_rules(path_beneath_rules(["/"], AccessFs::from_read(abi)))
        .map_err(failed)?
        .add_rules(path_beneath_rules(writable, AccessFs::from_all(abi)))
        .map_err(failed)?
        .add_rules(path_beneath_rules(DEVICES, AccessFs::from_all(abi)))
        .map_err(failed)?
        .restrict_self()
        .map_err(failed)?;
    if status.ruleset == RulesetStatus::NotEnforced {
        return Err(
            "Landlock is not enabled in this kernel (it needs Linux 5.13 or later, with landlock in the lsm= boot parameter)"
                .into(),
        );
    }
    Ok(())
}
