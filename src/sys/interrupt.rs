//! Ctrl-C during a run: the first SIGINT (or SIGTERM, or SIGHUP; on
//! Windows, Ctrl-C or Ctrl-Break, which the C runtime's `signal` turns
//! into SIGINT and SIGBREAK) is caught and only noted, so the loop can end between steps (killing a
//! running command and what it started, and abandoning a model request)
//! and still write a complete audit log.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

#[cfg(any(unix, windows))]
extern "C" fn on_interrupt(_: libc::c_int) {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// The signals caught: those that ask a process to end.
#[cfg(unix)]
const CAUGHT: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];
/// On Windows, the console's Ctrl-C and Ctrl-Break (`SIGBREAK` is 21 in
/// the C runtime's `signal.h`) and SIGTERM.
#[cfg(windows)]
const CAUGHT: [libc::c_int; 3] = [libc::SIGINT, 21, libc::SIGTERM];

/// Catches SIGINT, SIGTERM and SIGHUP (Windows: Ctrl-C and Ctrl-Break)
/// from now on.
pub(crate) fn catch() {
    #[cfg(any(unix, windows))]
    for signal in CAUGHT {
        // SAFETY: the handler only stores to an atomic, which is
        // async-signal-safe.
        unsafe {
            libc::signal(signal, on_interrupt as *const () as libc::sighandler_t);
        }
    }
}

/// Resolves once an interrupt has been requested (checked every 50 ms),
/// for racing against a model request.
pub(crate) async fn requested_soon() {
    while !requested() {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Whether the user pressed Ctrl-C.
pub(crate) fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Forgets an earlier Ctrl-C (the REPL starts each input afresh).
pub(crate) fn reset() {
    REQUESTED.store(false, Ordering::SeqCst);
}
