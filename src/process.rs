//! Every child process skillpkg starts, started one way: registered
//! while it runs, so that the sandbox's sweep of orphaned descendants
//! ([`with_running`]) never takes a child that is still at work; commands
//! and servers in a process group of their own, so that they and whatever
//! they start are ended together (on a timeout, on Ctrl-C, or when the
//! handle is dropped) and never left behind; helpers that may ask the user
//! at the terminal in skillpkg's own group, killed on a timeout. The sandbox's commands (`sandbox::process`), the MCP
//! servers `exec --mcp-skills` starts (`mcp::host`), credential helpers
//! (`oci::auth`) and `gpg` (`git::signature`) all start theirs here.

use std::io::Write as _;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// The children running now, by pid.
static RUNNING: std::sync::Mutex<std::collections::BTreeSet<u32>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// A running child, known to [`with_running`] until dropped.
#[derive(Debug)]
pub(crate) struct Registered(u32);

impl Drop for Registered {
    fn drop(&mut self) {
        running().remove(&self.0);
    }
}

/// The registry, whatever a panicking holder left.
fn running() -> std::sync::MutexGuard<'static, std::collections::BTreeSet<u32>> {
    RUNNING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Calls `f` with the pids of the children running now, holding the
/// registry: no child starts unregistered meanwhile.
#[cfg(target_os = "linux")]
pub(crate) fn with_running<R>(f: impl FnOnce(&std::collections::BTreeSet<u32>) -> R) -> R {
    f(&running())
}

/// Windows' `CREATE_NEW_PROCESS_GROUP`: the child leads a console process
/// group of its own, which the console's Ctrl-C does not reach (skillpkg
/// catches it and ends the child, as on Unix).
#[cfg(windows)]
const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;

/// Spawns `command` in a process group of its own, whose id is the
/// child's pid (on Windows, a console process group, ended as a tree by
/// [`kill_group`]), and registers it in the same step.
pub(crate) fn spawn(command: &mut Command) -> std::io::Result<(Child, Registered)> {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    #[cfg(windows)]
    std::os::windows::process::CommandExt::creation_flags(command, CREATE_NEW_PROCESS_GROUP);
    let mut running = running();
    let child = command.spawn()?;
    let pid = child.id();
    running.insert(pid);
    Ok((child, Registered(pid)))
}

/// Spawns `command` in skillpkg's own process group, registered: for a
/// helper that may ask the user at the terminal (a credential helper
/// unlocking a keychain through `pinentry`), which a group of its own, in
/// the background, would be stopped for. Ctrl-C reaches it with
/// skillpkg; the sandbox's sweep never takes skillpkg's own group.
fn spawn_in_foreground(command: &mut Command) -> std::io::Result<(Child, Registered)> {
    let mut running = running();
    let child = command.spawn()?;
    let pid = child.id();
    running.insert(pid);
    Ok((child, Registered(pid)))
}

/// Kills the process group `pid` leads (one [`spawn`] made), if it is
/// still there. Windows has no signal for a group: `taskkill /T /F` ends
/// the process and every process it started, by their parent ids.
pub(crate) fn kill_group(pid: u32) {
    #[cfg(unix)]
    if let Some(group) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    #[cfg(windows)]
    let _ = Command::new("taskkill")
        .args(["/T", "/F", "/PID", &pid.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    #[cfg(not(any(unix, windows)))]
    let _ = pid;
}

/// A child started async in its own group, which it takes with it when
/// dropped (an MCP server and what it started).
pub(crate) struct AsyncGroup {
    /// The child.
    pub child: tokio::process::Child,
    /// Its registration.
    _registered: Option<Registered>,
}

impl Drop for AsyncGroup {
    fn drop(&mut self) {
        if let Some(pid) = self.child.id() {
            kill_group(pid);
        }
        let _ = self.child.start_kill();
    }
}

/// [`spawn`] for a command run on the async runtime: see [`AsyncGroup`].
pub(crate) fn spawn_async(command: &mut tokio::process::Command) -> std::io::Result<AsyncGroup> {
    #[cfg(unix)]
    command.process_group(0);
    #[cfg(windows)]
    command.creation_flags(CREATE_NEW_PROCESS_GROUP);
    command.kill_on_drop(true);
    let mut running = running();
    let child = command.spawn()?;
    let registered = child.id().map(|pid| {
        running.insert(pid);
        Registered(pid)
    });
    Ok(AsyncGroup {
        child,
        _registered: registered,
    })
}

/// Runs `command` with `input` on its standard input, and returns what it
/// wrote and how it exited; past `timeout`, or on Ctrl-C, it is killed and
/// the run fails. For the short helpers skillpkg asks (credential
/// helpers, `gpg`): their output is small, and they run in skillpkg's
/// process group, where they may ask at the terminal
/// ([`spawn_in_foreground`]). Streams something it started keeps open are
/// given up [`STREAMS_GRACE`] after it ends.
pub(crate) fn run_with_input(
    command: &mut Command,
    input: &[u8],
    timeout: Duration,
) -> std::io::Result<Output> {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let (mut child, _registered) = spawn_in_foreground(command)?;
    // Read both streams while it runs, so that neither fills its pipe.
    let stdout = capture(child.stdout.take(), usize::MAX);
    let stderr = capture(child.stderr.take(), usize::MAX);
    if let Some(mut stdin) = child.stdin.take() {
        // A helper may exit without reading: its answer says what it did.
        let _ = stdin.write_all(input);
    }
    let status = wait(&mut child, timeout)?;
    Ok(Output {
        status,
        stdout: stdout.collect(STREAMS_GRACE).bytes,
        stderr: stderr.collect(STREAMS_GRACE).bytes,
    })
}

/// How long a child's streams may stay open once it exited (something it
/// started may hold them).
pub(crate) const STREAMS_GRACE: Duration = Duration::from_secs(2);

/// A child's output stream, read on a thread as it comes.
pub(crate) struct Capture {
    kept: std::sync::Arc<std::sync::Mutex<Captured>>,
    ended: std::sync::mpsc::Receiver<()>,
}

/// What a stream gave.
#[derive(Debug, Default)]
pub(crate) struct Captured {
    /// Its bytes, at most the `max` [`capture`] was given.
    pub bytes: Vec<u8>,
    /// It gave more than that.
    pub truncated: bool,
    /// It ended (else something outside the child still holds it open).
    pub ended: bool,
}

/// Reads `stream` on a thread, keeping at most `max` bytes of it.
pub(crate) fn capture(stream: Option<impl std::io::Read + Send + 'static>, max: usize) -> Capture {
    let kept = std::sync::Arc::new(std::sync::Mutex::new(Captured::default()));
    let (done, ended) = std::sync::mpsc::channel();
    let filling = kept.clone();
    std::thread::spawn(move || {
        if let Some(mut stream) = stream {
            let mut buf = [0u8; 8192];
            while let Ok(n @ 1..) = stream.read(&mut buf) {
                let mut kept = filling.lock().unwrap_or_else(|e| e.into_inner());
                let room = max.saturating_sub(kept.bytes.len());
                kept.bytes.extend_from_slice(&buf[..n.min(room)]);
                kept.truncated |= n > room;
            }
        }
        let _ = done.send(());
    });
    Capture { kept, ended }
}

impl Capture {
    /// What the stream gave once it ended, or what it gave within `grace`
    /// when something outside the child keeps it open (the reading thread
    /// is then left to end on its own).
    pub(crate) fn collect(self, grace: Duration) -> Captured {
        let ended = self.ended.recv_timeout(grace).is_ok();
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        Captured {
            bytes: std::mem::take(&mut kept.bytes),
            truncated: kept.truncated,
            ended,
        }
    }
}

/// Waits for `child` at most `timeout`, or until Ctrl-C; then kills it
/// and fails, naming why.
fn wait(child: &mut Child, timeout: Duration) -> std::io::Result<ExitStatus> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        let interrupted = crate::sys::interrupt::requested();
        if interrupted || started.elapsed() >= timeout {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                match interrupted {
                    true => "interrupted".to_string(),
                    false => format!("no answer within {} s", timeout.as_secs()),
                },
            ));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_helper_gets_its_input_and_its_answer_is_read() {
        let mut command = Command::new("sh");
        command.args(["-c", "read line; echo \"got $line\"; echo err >&2; exit 3"]);
        let out = run_with_input(&mut command, b"hello\n", Duration::from_secs(10)).unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "got hello\n");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "err\n");
        assert_eq!(out.status.code(), Some(3));
    }

    #[test]
    fn a_helper_that_hangs_is_ended_and_a_stream_held_open_is_given_up() {
        let mut command = Command::new("sh");
        command.args(["-c", "sleep 60"]);
        let started = Instant::now();
        let error = run_with_input(&mut command, b"", Duration::from_millis(300)).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(30));
        // It exits, but what it started keeps its stdout open.
        let mut command = Command::new("sh");
        command.args(["-c", "echo answered; sleep 30 &"]);
        let started = Instant::now();
        let out = run_with_input(&mut command, b"", Duration::from_secs(10)).unwrap();
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "answered\n");
    }
}
