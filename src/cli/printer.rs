//! The one place output is written: data on stdout; status lines,
//! warnings and errors on stderr, shaped like cargo's.

use std::io::{IsTerminal, Write};

use crate::env_vars;
use crate::hint::Hinted;
use crate::store::pack::PackError;
use crate::store::signing::SigningError;

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

    /// An error with its causes, then the hints of the whole chain,
    /// always shown.
    pub fn error(&self, error: &anyhow::Error) {
        let mut stderr = std::io::stderr().lock();
        let mut chain = error.chain();
        if let Some(top) = chain.next() {
            let _ = writeln!(stderr, "{}: {top}", self.paint(RED, "error"));
        }
        for cause in chain {
            let _ = writeln!(stderr, "  Caused by: {cause}");
        }
        for hint in hints_in(error) {
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

/// The hints of every error in the chain that carries some, outermost
/// first: [`Hinted`] errors, and the library's typed errors that know what
/// to advise.
pub(super) fn hints_in(error: &anyhow::Error) -> Vec<String> {
    let mut hints = Vec::new();
    let mut found: Vec<*const Hinted> = Vec::new();
    for cause in error.chain() {
        if let Some(hinted) = cause.downcast_ref::<Hinted>() {
            found.push(hinted);
            hints.extend(hinted.hints().iter().cloned());
        } else if let Some(e) = cause.downcast_ref::<PackError>() {
            hints.extend(e.hint());
        } else if let Some(e) = cause.downcast_ref::<SigningError>() {
            hints.extend(e.hint());
        }
    }
    // A `Hinted` given as context is not a link of the chain; anyhow still
    // finds the outermost one.
    if let Some(hinted) = error.downcast_ref::<Hinted>()
        && !found.contains(&(hinted as *const Hinted))
    {
        hints.splice(0..0, hinted.hints().iter().cloned());
    }
    hints
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context as _;

    #[test]
    fn hints_are_found_below_context_and_in_typed_errors() {
        let inner: anyhow::Result<()> = Err(Hinted::new("the index is gone")
            .hint("try again later")
            .into());
        let error = inner
            .context("could not fetch acme/x")
            .map_err(|e| e.context(Hinted::new("could not add").hint("check the name")))
            .unwrap_err();
        assert_eq!(error.to_string(), "could not add");
        assert_eq!(hints_in(&error), ["check the name", "try again later"]);

        let typed = anyhow::Error::new(SigningError::NoPassword).context("could not sign");
        assert_eq!(
            hints_in(&typed),
            ["set SKILLPKG_KEY_PASSWORD to the password"]
        );
    }
}
