//! Running scripts and shell commands for the model: in their own process
//! group (killed whole on timeout), output captured and truncated. The
//! command comes built, with its environment, from [`super::sandbox`].

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

/// How a command ended.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
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
    pub fn report(&self) -> String {
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
pub fn is_secret(name: &str) -> bool {
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
pub fn run(mut command: Command, timeout: Duration, max_output: usize) -> std::io::Result<Outcome> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    become_subreaper();
    let (mut child, _running) = Running::spawn(&mut command)?;
    let group = child.id() as i32;
    let capture = |stream: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut truncated = false;
            if let Some(mut stream) = stream {
                let mut buf = [0u8; 8192];
                while let Ok(n) = stream.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let room = max_output.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                    truncated |= n > room;
                }
            }
            (String::from_utf8_lossy(&kept).into_owned(), truncated)
        })
    };
    let stdout = capture(
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let stderr = capture(
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        let interrupted = crate::sys::interrupt::requested();
        if started.elapsed() >= timeout || interrupted {
            timed_out = !interrupted;
            kill_group(group);
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    // Whatever the group left behind goes with it, so the pipes close;
    // so do descendants that left the group (setsid) and, orphaned, were
    // handed to skillpkg as their subreaper.
    // The group may already be gone.
    kill_group(group);
    sweep_orphans();
    let (stdout, cut_out) = stdout.join().unwrap_or_default();
    let (stderr, cut_err) = stderr.join().unwrap_or_default();
    Ok(Outcome {
        code: status.code(),
        timed_out,
        stdout,
        stderr,
        truncated: cut_out || cut_err,
    })
}

/// Makes skillpkg the subreaper of what its commands start: a process
/// that detaches (`setsid`, a double fork) and loses its parent is handed
/// to skillpkg instead of init, so it can be ended with the run.
fn become_subreaper() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
    });
}

/// Kills the process group `group` (one this module created), if it is
/// still there.
fn kill_group(group: i32) {
    if let Some(group) = rustix::process::Pid::from_raw(group) {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
}

/// The commands running now, by pid: the children a sweep leaves alone.
static RUNNING: std::sync::Mutex<std::collections::BTreeSet<i32>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// A running command, known to sweeps until dropped.
struct Running(i32);

impl Running {
    /// Spawns `command` and registers it in one step, under the lock a
    /// sweep holds: a sweep of another thread never sees it unregistered.
    fn spawn(command: &mut Command) -> std::io::Result<(std::process::Child, Running)> {
        let mut running = RUNNING.lock().expect("running lock");
        let child = command.spawn()?;
        let pid = child.id() as i32;
        running.insert(pid);
        Ok((child, Running(pid)))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.lock().expect("running lock").remove(&self.0);
    }
}

/// Kills and reaps every child of skillpkg that is not a running command
/// and is outside skillpkg's own process group: what commands left behind
/// and the subreaper inherited. Commands start in groups of their own;
/// what the rest of skillpkg starts stays in its group and is left alone.
/// The lock is held throughout, so no command starts unregistered meanwhile.
fn sweep_orphans() {
    let me = std::process::id() as i32;
    let own_group = rustix::process::getpgrp().as_raw_nonzero().get();
    for _ in 0..64 {
        let running = RUNNING.lock().expect("running lock");
        let orphans: Vec<i32> = children_of(me)
            .into_iter()
            .filter(|(pid, group)| !running.contains(pid) && *group != own_group)
            .map(|(pid, _)| pid)
            .collect();
        if orphans.is_empty() {
            return;
        }
        for pid in orphans {
            if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                let _ = rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty());
            }
        }
    }
}

/// The pids whose parent is `parent`, with their process groups, from /proc.
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
}
