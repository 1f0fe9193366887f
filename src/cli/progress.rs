//! Progress bars on stderr, drawn only on a terminal and not with `-q`.

use std::io::IsTerminal;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::progress::Progress;

/// One bar at a time, in cargo's layout: a right-aligned verb, the bar, a count.
#[derive(Debug)]
pub struct Bars {
    enabled: bool,
    current: Mutex<Option<ProgressBar>>,
}

impl Bars {
    /// Bars that draw when `enabled` and stderr is a terminal.
    pub fn new(enabled: bool) -> Bars {
        Bars {
            enabled: enabled && std::io::stderr().is_terminal(),
            current: Mutex::new(None),
        }
    }
}

impl Progress for Bars {
    fn start(&self, verb: &str, total: u64) {
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
        if let Some(bar) = &*self.current.lock().expect("bar lock") {
            bar.inc(1);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.current.lock().expect("bar lock").take() {
            bar.finish_and_clear();
        }
    }
}
