//! The sandbox's seccomp floor, under Landlock and the namespaces: system
//! calls no script needs and an escape would, refused with `EPERM` —
//! the kernel's keyrings (`keyctl`, `add_key`, `request_key`), reading or
//! steering other processes (`ptrace`, `process_vm_readv/writev`), kernel
//! programs and probes (`bpf`, `perf_event_open`), `userfaultfd` and
//! `io_uring` (which reaches around other filters), mounts of every kind,
//! and the ioctls that push input into a terminal (`TIOCSTI`,
//! `TIOCLINUX`). A system call of another architecture (32-bit calls from
//! a 64-bit process) ends the process; x32 calls are refused like their
//! 64-bit twins.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};

/// The bit that marks an x32 system call on x86-64.
const X32_SYSCALL_BIT: i64 = 0x4000_0000;

/// The ioctl number of x32 `ioctl`, whose table differs from x86-64's.
#[cfg(target_arch = "x86_64")]
const X32_IOCTL: i64 = X32_SYSCALL_BIT + 514;

/// System calls refused whatever their arguments.
fn refused() -> Vec<i64> {
    let mut calls = vec![
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_open_tree,
        libc::SYS_move_mount,
        libc::SYS_fsopen,
        libc::SYS_fsconfig,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_mount_setattr,
    ];
    if cfg!(target_arch = "x86_64") {
        let x32: Vec<i64> = calls.iter().map(|nr| nr | X32_SYSCALL_BIT).collect();
        calls.extend(x32);
    }
    calls
}

/// The terminal ioctls refused: pushing input (`TIOCSTI`) and the Linux
/// console's selection paste (`TIOCLINUX`).
fn refused_ioctls() -> Result<Vec<SeccompRule>, String> {
    [libc::TIOCSTI, libc::TIOCLINUX]
        .into_iter()
        // The request's type differs between C libraries.
        .map(|request| {
            #[allow(clippy::unnecessary_cast)]
            let request = request as u64;
            // The kernel reads the request as a 32-bit int: compare only
            // the low 32 bits, so high bits set by the caller change nothing.
            let condition =
                SeccompCondition::new(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, request)
                    .map_err(|e| e.to_string())?;
            SeccompRule::new(vec![condition]).map_err(|e| e.to_string())
        })
        .collect()
}

/// The filter, compiled for this machine's architecture.
pub(super) fn floor() -> Result<BpfProgram, String> {
    let failed = |e: seccompiler::BackendError| format!("could not build the seccomp filter: {e}");
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        refused().into_iter().map(|nr| (nr, Vec::new())).collect();
    rules.insert(libc::SYS_ioctl, refused_ioctls()?);
    #[cfg(target_arch = "x86_64")]
    rules.insert(X32_IOCTL, refused_ioctls()?);
    let arch = std::env::consts::ARCH.try_into().map_err(|_| {
        format!(
            "seccomp filters are not built for {}",
            std::env::consts::ARCH
        )
    })?;
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(failed)?;
    filter.try_into().map_err(failed)
}

/// Installs the filter on this process; everything it starts inherits it.
pub(super) fn install() -> Result<(), String> {
    seccompiler::apply_filter(&floor()?)
        .map_err(|e| format!("could not install the seccomp filter: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_builds_for_this_machine() {
        let program = floor().unwrap();
        assert!(program.len() > refused().len(), "{}", program.len());
        assert!(refused().contains(&libc::SYS_keyctl));
    }
}
