//! Progress bars on stderr, drawn only on a terminal and not with `-q`.
//!
//! A hidden hook lets tests stop a run at a chosen step: when
//! [`SKILLPKG_PROGRESS_PAUSE`](crate::env_vars::SKILLPKG_PROGRESS_PAUSE) is
//! set, whatever the verbosity, every event is written to stderr as one line
//! (`progress: start Installing 0/8`, `progress: Installing 3/8`,
//! `progress: finish Installing 8/8`), and the process then waits for a line
//! on stdin (or its end) before it goes on. No bars are drawn then.

use std::io::{BufRead, IsTerminal, Write};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::env_vars::SKILLPKG_PROGRESS_PAUSE;
use crate::progress::Progress;

/// One bar at a time, in cargo's layout: a right-aligned verb, the bar, a count.
#[derive(Debug)]
pub struct Bars {
    enabled: bool,
    current: Mutex<Option<ProgressBar>>,
    /// With the test hook on, the step being reported.
    paused: Option<Mutex<Option<Step>>>,
}

/// A step as the test hook reports it: `Installing 3/8`.
#[derive(Debug)]
struct Step {
    verb: String,
    done: u64,
    total: u64,
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}/{}", self.verb, self.done, self.total)
    }
}

impl Bars {
    /// Bars that draw when `enabled` and stderr is a terminal.
    pub fn new(enabled: bool) -> Bars {
        let paused = std::env::var_os(SKILLPKG_PROGRESS_PAUSE).map(|_| Mutex::new(None));
        Bars {
            enabled: enabled && paused.is_none() && std::io::stderr().is_terminal(),
            current: Mutex::new(None),
            paused,
        }
    }

    /// The test hook: applies `event` to the step, writes the line it
    /// returns, and waits for a line on stdin. Does nothing when the hook is off.
    fn pause(&self, event: impl FnOnce(&mut Option<Step>) -> Option<String>) {
        let Some(step) = &self.paused else { return };
        let mut step = step.lock().expect("step lock");
        let Some(line) = event(&mut step) else { return };
        let mut stderr = std::io::stderr().lock();
        let _ = writeln!(stderr, "progress: {line}");
        let _ = stderr.flush();
        let _ = std::io::stdin().lock().read_line(&mut String::new());
    }
}

impl Progress for Bars {
    fn start(&self, verb: &str, total: u64) {
        self.pause(|step| {
            let started = step.insert(Step {
                verb: verb.to_string(),
                done: 0,
                total,
            });
            Some(format!("start {started}"))
        });
        if !self.enabled || total == 0 {
            return;
        }
        let style = ProgressStyle::with_template("{prefix:>12.cyan.bold} [{bar:27}] {pos}/{len}")
            .expect("the template is valid")
            .progress_chars("=> ");
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
            .with_style(style)
            .with_prefix(verb.to_string());
        if let Some(old) = self.current.lock().expect("bar lock").replace(bar) {
            old.finish_and_clear();
        }
    }

    fn advance(&self) {
        self.pause(|step| {
            let step = step.as_mut()?;
            step.done += 1;
            Some(step.to_string())
        });
        if let Some(bar) = &*self.current.lock().expect("bar lock") {
            bar.inc(1);
        }
    }

    fn finish(&self) {
        self.pause(|step| Some(format!("finish {}", step.take()?)));
        if let Some(bar) = self.current.lock().expect("bar lock").take() {
            bar.finish_and_clear();
        }
    }
}
