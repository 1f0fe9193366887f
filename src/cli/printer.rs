//! The one place output is written: data on stdout; status lines,
//! warnings and errors on stderr, shaped like cargo's.

use std::io::{IsTerminal, Write};

use crate::env_vars;

/// How chatty to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    /// `-q`: errors only.
    Quiet,
    /// The default.
    Normal,
    /// `-v`: extra detail.
    Verbose,
}

/// Writes status, warnings and errors to stderr, data to stdout.
#[derive(Debug, Clone, Copy)]
pub struct Printer {
    verbosity: Verbosity,
    color: bool,
}

const GREEN: &str = "\x1b[1;32m";
const YELLOW: &str = "\x1b[1;33m";
const RED: &str = "\x1b[1;31m";
const CYAN: &str = "\x1b[1;36m";
const RESET: &str = "\x1b[0m";

impl Printer {
    /// A printer for this process: colour only on a terminal without `NO_COLOR`.
    pub fn new(verbosity: Verbosity) -> Printer {
        let no_color = std::env::var_os(env_vars::NO_COLOR).is_some_and(|v| !v.is_empty());
        Printer {
            verbosity,
            color: !no_color && std::io::stderr().is_terminal(),
        }
    }

    fn paint(&self, style: &str, text: &str) -> String {
        if self.color {
            format!("{style}{text}{RESET}")
        } else {
            text.to_string()
        }
    }

    /// A cargo-style status line: a right-aligned verb, then the message.
    pub fn status(&self, verb: &str, message: impl std::fmt::Display) {
        if self.verbosity >= Verbosity::Normal {
            let verb = self.paint(GREEN, &format!("{verb:>12}"));
            let _ = writeln!(std::io::stderr(), "{verb} {message}");
        }
    }

    /// `warning: …`, hidden by `-q`.
    pub fn warn(&self, message: impl std::fmt::Display) {
        if self.verbosity >= Verbosity::Normal {
            let _ = writeln!(
                std::io::stderr(),
                "{}: {message}",
                self.paint(YELLOW, "warning")
            );
        }
    }

    /// Detail shown only with `-v`.
    pub fn verbose(&self, message: impl std::fmt::Display) {
        if self.verbosity >= Verbosity::Verbose {
            let _ = writeln!(std::io::stderr(), "{}: {message}", self.paint(CYAN, "note"));
        }
    }

    /// An error with its causes and hints, always shown.
    pub fn error(&self, error: &anyhow::Error) {
        let mut stderr = std::io::stderr().lock();
        let mut hints = Vec::new();
        let mut chain = error.chain();
        if let Some(top) = chain.next() {
            let (message, hint) = split_hints(&top.to_string());
            hints.extend(hint);
            let _ = writeln!(stderr, "{}: {message}", self.paint(RED, "error"));
        }
        for cause in chain {
            let (message, hint) = split_hints(&cause.to_string());
            hints.extend(hint);
            let _ = writeln!(stderr, "  Caused by: {message}");
        }
        for hint in hints {
            let _ = writeln!(stderr, "{}: {hint}", self.paint(CYAN, "hint"));
        }
    }

    /// Writes a line of data to stdout.
    pub fn data(&self, text: impl std::fmt::Display) {
        let _ = writeln!(std::io::stdout(), "{text}");
    }

    /// Writes pretty JSON to stdout.
    pub fn json(&self, value: &impl serde::Serialize) -> anyhow::Result<()> {
        self.data(serde_json::to_string_pretty(value)?);
        Ok(())
    }
}

/// Errors carry hints as trailing `hint: …` lines; they are printed last.
fn split_hints(text: &str) -> (String, Vec<String>) {
    let mut message = Vec::new();
    let mut hints = Vec::new();
    for line in text.lines() {
        match line.strip_prefix("hint: ") {
            Some(hint) => hints.push(hint.to_string()),
            None => message.push(line),
        }
    }
    (message.join("\n"), hints)
}
