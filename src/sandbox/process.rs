//! Running scripts and shell commands for the model: in their own process
//! group (killed whole on timeout), output captured and truncated. The
//! command comes built, with its environment, from [`super::sandbox`].

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

/// How a command ended.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Outcome {
    /// Its exit code (`None` when killed by a signal).
    pub code: Option<i32>,
    /// Whether it was killed at the timeout.
    pub timed_out: bool,
    /// stdout, truncated to the limit.
    pub stdout: String,
    /// stderr, truncated to the limit.
    pub stderr: String,
    /// Whether either stream was cut.
    pub truncated: bool,
}

impl Outcome {
    /// The text the model gets back.
    pub(crate) fn report(&self) -> String {
        let mut text = String::new();
        if self.timed_out {
            text.push_str("[killed: the command ran past its time limit]\n");
        }
        text.push_str(&format!(
            "exit status: {}\n",
            self.code
                .map_or("killed by a signal".to_string(), |c| c.to_string())
        ));
        if !self.stdout.is_empty() {
            text.push_str("stdout:\n");
            text.push_str(&self.stdout);
            if !self.stdout.ends_with('\n') {
                text.push('\n');
            }
        }
        if !self.stderr.is_empty() {
            text.push_str("stderr:\n");
            text.push_str(&self.stderr);
            if !self.stderr.ends_with('\n') {
                text.push('\n');
            }
        }
        if self.truncated {
            text.push_str("[output truncated]\n");
        }
        text
    }
}

/// Whether an environment variable looks like a secret: API keys,
/// tokens, passwords, private keys.
pub(crate) fn is_secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    [
        "_API_KEY",
        "_TOKEN",
        "_SECRET",
        "_PASSWORD",
        "_ACCESS_KEY",
        "_PRIVATE_KEY",
    ]
    .iter()
    .any(|suffix| upper.ends_with(suffix))
        || ["API_KEY", "TOKEN", "PASSWORD", "SECRET"].contains(&upper.as_str())
        || upper.contains("SECRET")
        || upper.starts_with("AWS_SECRET")
}

/// Runs `command` (built with its program, arguments, working directory
/// and environment); kills its whole process group after `timeout`; keeps
/// at most `max_output` bytes of each stream.
pub(crate) fn run(
    mut command: Command,
    timeout: Duration,
    max_output: usize,
) -> std::io::Result<Outcome> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    become_subreaper();
    let (mut child, _running) = crate::process::spawn(&mut command)?;
    let group = child.id();
    let stdout = crate::process::capture(child.stdout.take(), max_output);
    let stderr = crate::process::capture(child.stderr.take(), max_output);
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        let interrupted = crate::sys::interrupt::requested();
        if started.elapsed() >= timeout || interrupted {
            timed_out = !interrupted;
            crate::process::kill_group(group);
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    // Whatever the group left behind goes with it, so the pipes close;
    // so do descendants that left the group (setsid) and, orphaned, were
    // handed to skillpkg as their subreaper.
    // The group may already be gone.
    crate::process::kill_group(group);
    sweep_orphans();
    let (stdout, cut_out) = collect(stdout);
    let (stderr, cut_err) = collect(stderr);
    Ok(Outcome {
        code: status.code(),
        timed_out,
        stdout,
        stderr,
        truncated: cut_out || cut_err,
    })
}

/// The text of a captured stream once it ends, or what it gave within
/// [`crate::process::STREAMS_GRACE`] when something outside the command
/// (a daemon it asked a server to start, a stream handed over a socket)
/// keeps it open, said so; and whether it was cut at the limit.
fn collect(capture: crate::process::Capture) -> (String, bool) {
    let captured = capture.collect(crate::process::STREAMS_GRACE);
    let mut text = String::from_utf8_lossy(&captured.bytes).into_owned();
    if !captured.ended {
        text.push_str("\n[the stream was still held open by a process outside the command]\n");
    }
    (text, captured.truncated)
}

/// Makes skillpkg the subreaper of what its commands start: a process
/// that detaches (`setsid`, a double fork) and loses its parent is handed
/// to skillpkg instead of init, so it can be ended with the run. Linux
/// alone has subreapers; elsewhere the command's process group is what
/// ends with it (docs/platforms.md).
#[cfg(target_os = "linux")]
fn become_subreaper() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
    });
}

#[cfg(not(target_os = "linux"))]
fn become_subreaper() {}

/// Kills and reaps every child of skillpkg that is not a running child
/// ([`crate::process`]) and is outside skillpkg's own process group: what commands left behind
/// and the subreaper inherited. Commands start in groups of their own;
/// what the rest of skillpkg starts stays in its group and is left alone.
/// The registry of running children ([`crate::process::with_running`]) is
/// held throughout, so no child starts unregistered meanwhile.
#[cfg(target_os = "linux")]
fn sweep_orphans() {
    let me = std::process::id() as i32;
    let own_group = rustix::process::getpgrp().as_raw_nonzero().get();
    for _ in 0..64 {
        let swept = crate::process::with_running(|running| {
            let orphans: Vec<i32> = children_of(me)
                .into_iter()
                .filter(|(pid, group)| {
                    !u32::try_from(*pid).is_ok_and(|pid| running.contains(&pid))
                        && *group != own_group
                })
                .map(|(pid, _)| pid)
                .collect();
            for pid in &orphans {
                if let Some(pid) = rustix::process::Pid::from_raw(*pid) {
                    let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                    let _ =
                        rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty());
                }
            }
            orphans.len()
        });
        if swept == 0 {
            return;
        }
    }
}

/// Without a subreaper, no orphan is skillpkg's to sweep.
#[cfg(not(target_os = "linux"))]
fn sweep_orphans() {}

/// The pids whose parent is `parent`, with their process groups, from /proc.
#[cfg(target_os = "linux")]
fn children_of(parent: i32) -> Vec<(i32, i32)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // After the command name, which may hold spaces: state, ppid, pgrp.
            let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(1);
            let ppid: i32 = fields.next()?.parse().ok()?;
            let group: i32 = fields.next()?.parse().ok()?;
            (ppid == parent).then_some((pid, group))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Commands of parallel runs (eval's `--jobs`) are children of one
    /// process: the sweep that ends one command's leftovers must never
    /// take another command that has just been started.
    #[test]
    fn a_sweep_never_kills_another_threads_command() {
        let threads: Vec<_> = (0..6)
            .map(|_| {
                std::thread::spawn(|| {
                    (0..40)
                        .map(|_| {
                            let outcome = run(Command::new("true"), Duration::from_secs(30), 1024)
                                .expect("true runs");
                            outcome.code
                        })
                        .filter(|code| *code != Some(0))
                        .count()
                })
            })
            .collect();
        let killed: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
        assert_eq!(killed, 0, "commands killed by another thread's sweep");
    }

    #[test]
    fn a_sweep_never_kills_a_helper_that_skillpkg_itself_is_asking() {
        // A credential helper or gpg, started in its own group by another
        // thread while commands come and go.
        let helper = std::thread::spawn(|| {
            let mut command = Command::new("sh");
            command.args(["-c", "sleep 1; echo answered"]);
            crate::process::run_with_input(&mut command, b"", Duration::from_secs(30))
        });
        std::thread::sleep(Duration::from_millis(100));
        for _ in 0..20 {
            run(Command::new("true"), Duration::from_secs(30), 1024).expect("true runs");
        }
        let out = helper.join().unwrap().expect("the helper ran");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "answered\n");
        assert_eq!(out.status.code(), Some(0));
    }

    #[test]
    fn secrets_are_recognised() {
        for name in [
            "ANTHROPIC_API_KEY",
            "OPENAI_API_KEY",
            "GITHUB_TOKEN",
            "AWS_SECRET_ACCESS_KEY",
            "DB_PASSWORD",
        ] {
            assert!(is_secret(name), "{name}");
        }
        for name in [
            "PATH",
            "HOME",
            "LANG",
            "SKILL_DIR",
            "TOKENIZERS_PARALLELISM",
        ] {
            assert!(!is_secret(name), "{name}");
        }
    }

    #[test]
    fn output_is_truncated_with_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let mut command = Command::new("/bin/sh");
        command
            .args(["-c", "yes | head -c 100000"])
            .current_dir(dir.path());
        let outcome = run(command, Duration::from_secs(10), 1000).unwrap();
        assert_eq!(outcome.stdout.len(), 1000);
        assert!(outcome.truncated);
        assert!(outcome.report().ends_with("[output truncated]\n"));
    }

    #[test]
    fn a_stream_held_open_outside_the_command_does_not_hang_the_run() {
        // The command hands its stdout over a Unix socket to a listener
        // that never accepts (as a tmux client does to a server it
        // mistakes one for): the pipe stays open after the command ends.
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("held.sock");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        let script = format!(
            "import array, socket\n\
             s = socket.socket(socket.AF_UNIX)\n\
             s.connect({socket:?})\n\
             s.sendmsg([b'x'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', [1]))])\n\
             print('handed over', flush=True)\n",
            socket = socket.display().to_string()
        );
        let mut command = Command::new("python3");
        command.args(["-c", &script]).current_dir(dir.path());
        let started = Instant::now();
        let outcome = run(command, Duration::from_secs(30), 1000).unwrap();
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
        assert!(
            outcome.stdout.starts_with("handed over\n"),
            "{}",
            outcome.stdout
        );
        assert!(outcome.stdout.contains("held open"), "{}", outcome.stdout);
    }
}
