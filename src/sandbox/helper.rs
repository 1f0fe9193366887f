//! The sandbox helper: skillpkg's own binary, started again with the
//! hidden first argument [`HELPER_ARG`] so that it sets the sandbox up in
//! a fresh process with one thread (namespaces cannot be entered, and
//! should not be built, in a forked copy of a multi-threaded process).
//!
//! The helper enters new user, mount, PID and (without the network)
//! network namespaces, then forks the namespace's init, which mounts a
//! fresh `/proc`, replaces `/tmp`, `/run`, `/dev/shm` and the home
//! directory by fresh empty folders and puts back in them only what the
//! command needs, hides the credential stores, binds the protected paths
//! read-only, leaves the user's session keyring, drops every capability,
//! restricts itself with Landlock and a seccomp floor, and starts the
//! command in a session of its own. When the command ends, init ends, and the kernel
//! kills whatever else is left in the namespace: detached processes end
//! with the command. See docs/sandbox.md.

use std::ffi::OsString;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use super::spec::{Bind, Fresh, HELPER_ARG, HELPER_PREFIX, SETUP_FAILED, Spec};
use super::sys::{self, Forked};

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
#[allow(clippy::print_stderr)] // the helper reports a failure to skillpkg on stderr
pub(crate) fn main_if_requested() -> Option<i32> {
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
#[allow(clippy::print_stderr)] // init reports a set-up failure to skillpkg on stderr
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
    sys::die_with_parent();
    enter_namespaces(spec.network)?;
    // The folder inherited from skillpkg lies on mounts that init hides;
    // the helper stays outside the sandbox and holds on to none of them.
    let _ = std::env::set_current_dir("/");
    match sys::fork()? {
        Forked::Child => {
            let code = init(&spec, command).unwrap_or_else(|e| {
                eprintln!("{HELPER_PREFIX}{e}");
                SETUP_FAILED
            });
            sys::exit_now(code)
        }
        Forked::Parent(pid) => Ok(wait_for(pid)),
    }
}

/// New user, mount and PID namespaces, and a network namespace (only a
/// loopback, down) unless `network`; the user keeps its own uid and gid.
fn enter_namespaces(network: bool) -> Result<(), String> {
    let (uid, gid) = (
        rustix::process::getuid().as_raw(),
        rustix::process::getgid().as_raw(),
    );
    let mut flags = libc::CLONE_NEWUSER | libc::CLONE_NEWNS | libc::CLONE_NEWPID;
    if !network {
        flags |= libc::CLONE_NEWNET;
    }
    if let Err(e) = sys::unshare(flags) {
        return Err(format!(
            "could not create user namespaces: {e} (unprivileged user namespaces may be turned off: sysctl kernel.unprivileged_userns_clone, or kernel.apparmor_restrict_unprivileged_userns on Ubuntu)"
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
    let Ok((_, status)) = sys::wait(pid) else {
        return SETUP_FAILED;
    };
    if libc::WIFSIGNALED(status) {
        sys::die_of(libc::WTERMSIG(status));
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
#[allow(clippy::print_stderr)] // says why the command could not start, as a shell does
fn init(spec: &Spec, command: &[OsString]) -> Result<i32, String> {
    sys::die_with_parent();
    let root = Path::new("/");
    sys::mount(None, root, None, libc::MS_REC | libc::MS_PRIVATE, None)?;
    // A /proc of the namespace's processes only. A container that masks
    // parts of its /proc may refuse; the old one then stays, and Landlock
    // still keeps the command from reading processes outside.
    let _ = sys::mount(
        Some(Path::new("proc")),
        Path::new("/proc"),
        Some("proc"),
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        None,
    );
    // Taken along before the fresh folders hide them.
    let trees = spec
        .bound
        .iter()
        .filter(|bind| std::fs::symlink_metadata(&bind.path).is_ok())
        .map(|bind| Ok((bind, sys::clone_tree(&bind.path)?)))
        .collect::<Result<Vec<_>, String>>()?;
    let mut fresh: Vec<&Fresh> = spec.fresh.iter().collect();
    fresh.sort_by_key(|f| f.path.components().count());
    for (i, folder) in fresh.iter().enumerate() {
        let inside_another = fresh[..i].iter().any(|f| folder.path.starts_with(&f.path));
        make_fresh(folder, inside_another)?;
    }
    for (bind, tree) in &trees {
        put_back(bind, tree)?;
    }
    for path in &spec.hidden {
        hide(path)?;
    }
    for path in &spec.read_only {
        bind_read_only(path)?;
    }
    // Entered again by its path: the folder inherited from skillpkg lies
    // on the mounts the fresh folders hide, and paths relative to it would
    // reach what they hide.
    let workdir = spec.workdir.as_deref().unwrap_or(root);
    std::env::set_current_dir(workdir)
        .map_err(|e| format!("could not enter {}: {e}", workdir.display()))?;
    sys::fresh_session_keyring()?;
    sys::drop_capabilities()?;
    restrict(&spec.writable, spec.network)?;
    super::seccomp::install()?;
    if spec.probe {
        return Ok(0);
    }
    let program = &command[0];
    let mut run = std::process::Command::new(program);
    run.args(&command[1..]);
    sys::new_session_on_start(&mut run);
    let child = match run.spawn() {
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
        // init reaps every orphan until the command itself ends.
        match sys::wait(-1) {
            Ok((pid, status)) if pid == main => return Ok(exit_code(status)),
            Ok(_) => {}
            Err(_) => return Err("lost the command's process".into()),
        }
    }
}

/// Puts a fresh, empty folder in place of `folder.path`: a tmpfs, or,
/// inside a fresh folder already made, a plain folder.
fn make_fresh(folder: &Fresh, inside_another: bool) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt as _;
    let path = &folder.path;
    if inside_another {
        std::fs::create_dir_all(path)
            .and_then(|()| {
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(folder.mode))
            })
            .map_err(|e| format!("could not make {}: {e}", path.display()))
    } else {
        sys::mount(
            Some(Path::new("tmpfs")),
            path,
            Some("tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            Some(&format!("mode={:o}", folder.mode)),
        )
    }
}

/// Puts `bind.path` back at its own place from the tree taken before the
/// fresh folders hid it; read-only unless it is writable.
fn put_back(bind: &Bind, tree: &OwnedFd) -> Result<(), String> {
    let path = &bind.path;
    let is_dir = std::fs::metadata(Path::new("/proc/self/fd").join(fd_number(tree)))
        .is_ok_and(|m| m.is_dir());
    let made = match std::fs::symlink_metadata(path) {
        Ok(_) => Ok(()),
        Err(_) if is_dir => std::fs::create_dir_all(path),
        // A file (a resolver's configuration) needs a file to mount on.
        Err(_) => path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::File::create(path).map(drop)),
    };
    made.map_err(|e| format!("could not make {}: {e}", path.display()))?;
    sys::attach_tree(tree, path)?;
    if !bind.writable {
        remount_read_only(path)?;
    }
    Ok(())
}

/// The number of a descriptor, as `/proc/self/fd` names it.
fn fd_number(fd: &OwnedFd) -> String {
    use std::os::fd::AsRawFd as _;
    fd.as_raw_fd().to_string()
}

/// Puts an empty read-only folder over a secret folder, `/dev/null` over
/// a secret file.
fn hide(path: &Path) -> Result<(), String> {
    let Ok(metadata) = std::fs::metadata(path) else {
        return Ok(());
    };
    if metadata.is_dir() {
        sys::mount(
            Some(Path::new("tmpfs")),
            path,
            Some("tmpfs"),
            libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            Some("size=4k,mode=700"),
        )
    } else {
        sys::mount(
            Some(Path::new("/dev/null")),
            path,
            None,
            libc::MS_BIND,
            None,
        )
    }
}

/// Binds `path` onto itself read-only.
fn bind_read_only(path: &Path) -> Result<(), String> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(());
    }
    sys::mount(Some(path), path, None, libc::MS_BIND | libc::MS_REC, None)?;
    remount_read_only(path)
}

/// Makes the bind mount at `path` read-only, keeping the flags the mount
/// has (a user namespace may not clear them).
fn remount_read_only(path: &Path) -> Result<(), String> {
    use rustix::fs::StatVfsMountFlags as St;
    let flags = rustix::fs::statvfs(path)
        .map_err(|e| format!("statvfs {}: {e}", path.display()))?
        .f_flag;
    let kept = [
        (St::NOSUID, libc::MS_NOSUID),
        (St::NODEV, libc::MS_NODEV),
        (St::NOEXEC, libc::MS_NOEXEC),
        (St::NOATIME, libc::MS_NOATIME),
        (St::NODIRATIME, libc::MS_NODIRATIME),
        (St::RELATIME, libc::MS_RELATIME),
    ]
    .iter()
    .filter(|(st, _)| flags.contains(*st))
    .fold(0, |flags, (_, ms)| flags | ms);
    sys::mount(
        None,
        path,
        None,
        libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | kept,
        None,
    )
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
