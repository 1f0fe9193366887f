//! Ctrl-C during a run: the first SIGINT is caught and only noted, so the
//! loop can end between steps (killing a running command's process group)
//! and still write a complete audit log.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_interrupt(_: libc::c_int) {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Catches SIGINT from now on.
pub fn catch() {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_interrupt as *const () as libc::sighandler_t,
        );
    }
}

/// Whether the user pressed Ctrl-C.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Forgets an earlier Ctrl-C (the REPL starts each input afresh).
pub fn reset() {
    REQUESTED.store(false, Ordering::SeqCst);
}
