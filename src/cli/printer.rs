//! The one place output is written: data on stdout; status lines,
//! warnings and errors on stderr, shaped like cargo's.

use std::io::{IsTerminal, Write};

use crate::env_vars;
use crate::hint::{Hinted, hints_if};
use crate::ops::install::NotInIndex;
use crate::ops::pack::RefusedOnInstall;
use crate::store::extract::ExtractError;
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
            let message = terminal_safe(&message.to_string()).into_owned();
            let _ = writeln!(std::io::stderr(), "{verb} {message}");
        }
    }

    /// `warning: …`, hidden by `-q`.
    pub fn warn(&self, message: impl std::fmt::Display) {
        if self.verbosity >= Verbosity::Normal {
            let message = terminal_safe(&message.to_string()).into_owned();
            let _ = writeln!(
                std::io::stderr(),
                "{}: {message}",
                self.paint(YELLOW, "warning")
            );
        }
    }

    /// `hint: …` after a warning, hidden by `-q`.
    pub fn hint(&self, message: impl std::fmt::Display) {
        if self.verbosity >= Verbosity::Normal {
            let message = terminal_safe(&message.to_string()).into_owned();
            let _ = writeln!(std::io::stderr(), "{}: {message}", self.paint(CYAN, "hint"));
        }
    }

    /// Whether `-q` was given: errors only.
    pub fn is_quiet(&self) -> bool {
        self.verbosity < Verbosity::Normal
    }

    /// Whether `-v` was given.
    pub fn is_verbose(&self) -> bool {
        self.verbosity >= Verbosity::Verbose
    }

    /// Detail shown only with `-v`.
    pub fn verbose(&self, message: impl std::fmt::Display) {
        if self.verbosity >= Verbosity::Verbose {
            let message = terminal_safe(&message.to_string()).into_owned();
            let _ = writeln!(std::io::stderr(), "{}: {message}", self.paint(CYAN, "note"));
        }
    }

    /// An error with its causes, then the hints of the whole chain,
    /// always shown.
    pub fn error(&self, error: &anyhow::Error) {
        let mut stderr = std::io::stderr().lock();
        let mut chain = error.chain();
        if let Some(top) = chain.next() {
            let top = terminal_safe(&top.to_string()).into_owned();
            let _ = writeln!(stderr, "{}: {top}", self.paint(RED, "error"));
        }
        for cause in chain {
            let cause = terminal_safe(&cause.to_string()).into_owned();
            let _ = writeln!(stderr, "  Caused by: {cause}");
        }
        for hint in hints_in(error) {
            let hint = terminal_safe(&hint).into_owned();
            let _ = writeln!(stderr, "{}: {hint}", self.paint(CYAN, "hint"));
        }
    }

    /// Writes a line of data to stdout, made safe for a terminal.
    pub fn data(&self, text: impl std::fmt::Display) {
        let text = terminal_safe(&text.to_string()).into_owned();
        note_stdout_error(writeln!(std::io::stdout(), "{text}"));
    }

    /// Writes pretty JSON to stdout (JSON escapes control characters itself).
    pub fn json(&self, value: &impl serde::Serialize) -> anyhow::Result<()> {
        // Straight into one buffer of stdout: a listing of ten thousand
        // skills is megabytes, and stdout on its own flushes every line.
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        match serde_json::to_writer_pretty(&mut out, value) {
            Err(e) if !e.is_io() => return Err(e.into()),
            Err(e) => note_stdout_error(Err(e.into())),
            Ok(()) => note_stdout_error(writeln!(out).and_then(|()| out.flush())),
        }
        Ok(())
    }
}

/// The first error writing data to stdout (a full disk, a closed pipe):
/// the command's output is incomplete, which its exit status must say.
static STDOUT_ERROR: std::sync::OnceLock<std::io::Error> = std::sync::OnceLock::new();

fn note_stdout_error(written: std::io::Result<()>) {
    if let Err(e) = written {
        let _ = STDOUT_ERROR.set(e);
    }
}

/// Flushes stdout and returns the first error writing to it, if any. A
/// closed pipe (`skillpkg list | head`) is not an error: the reader has
/// what it wanted.
pub(super) fn stdout_failure() -> Option<&'static std::io::Error> {
    note_stdout_error(std::io::stdout().flush());
    STDOUT_ERROR
        .get()
        .filter(|e| e.kind() != std::io::ErrorKind::BrokenPipe)
}

/// `text` on one line (runs of whitespace as one space) and at most
/// `width` characters long, ending in `…` when cut. What the cut leaves at
/// the end (spaces, a comma, an ellipsis of the text's own) goes, so no
/// line ends in `,…` or `……`.
pub(super) fn one_line(text: &str, width: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= width {
        return text;
    }
    let kept: String = text.chars().take(width.saturating_sub(1)).collect();
    let kept = kept
        .trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '…' | '.' | ',' | ';' | ':'));
    format!("{kept}…")
}

/// `count` and the noun, plural but for one: `1 file`, `2 files`.
pub(super) fn count(count: usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// `text` with what could take over a terminal written out visibly:
/// control characters other than newline and tab (escape sequences among
/// them) and bidirectional marks, as `\u{1b}`. Names, descriptions and
/// file names from packages, and what a model writes, pass through here.
pub(super) fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    crate::skill::chars::escape_chars(text, |c| {
        (c.is_control() && c != '\n' && c != '\t') || crate::skill::chars::is_bidi_mark(c)
    })
}

/// Renders the text a run streams (the model's answer, and what it quotes
/// of tool output) for a terminal, as a user reading it expects: newlines
/// and tabs as they are, a CR LF pair as a newline, every other control
/// character in caret notation (`^L` for a form feed, `^[` for the escape
/// that starts a colour sequence, `^M` for a lone carriage return, `^?`
/// for DEL), C1 controls and bidirectional marks as `\u{9b}`. What the
/// text holds stays visible and nothing in it can rewrite the terminal.
/// Only what is shown changes: the model and the audit log get the text
/// as it is.
#[derive(Debug, Default)]
pub(super) struct Transcript {
    /// A carriage return ended the last piece: a newline may follow.
    pending_cr: bool,
}

impl Transcript {
    /// `piece`, the next part of the stream, as it is shown.
    pub(super) fn render(&mut self, piece: &str) -> String {
        let mut shown = String::with_capacity(piece.len());
        for c in piece.chars() {
            if std::mem::take(&mut self.pending_cr) && c != '\n' {
                shown.push_str("^M");
            }
            match c {
                '\n' | '\t' => shown.push(c),
                '\r' => self.pending_cr = true,
                '\u{0}'..='\u{1f}' => {
                    shown.push('^');
                    shown.push(char::from(b'@' + c as u8));
                }
                '\u{7f}' => shown.push_str("^?"),
                c if c.is_control() || crate::skill::chars::is_bidi_mark(c) => {
                    shown.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
                }
                c => shown.push(c),
            }
        }
        shown
    }

    /// What is left to show when the stream ends.
    pub(super) fn finish(&mut self) -> &'static str {
        match std::mem::take(&mut self.pending_cr) {
            true => "^M",
            false => "",
        }
    }
}

/// `text` made safe to show as one item on one line: what
/// [`terminal_safe`] escapes, and line breaks, tabs and the Unicode line
/// and paragraph separators too, so that no item of a prompt or a list
/// can push another off the screen or pose as a line of its own.
pub(super) fn one_line_safe(text: &str) -> std::borrow::Cow<'_, str> {
    crate::skill::chars::one_line_escaped(text)
}

/// The hints of every error in the chain that carries some, outermost
/// first: [`Hinted`] errors, and the library's typed errors that know what
/// to advise.
/// The error types that advise ([`crate::hint::Advice`]): a type whose
/// errors can reach the CLI inside an `anyhow::Error` is listed here once.
const ADVISING: [HintsOf; 6] = [
    hints_if::<Hinted>,
    hints_if::<NotInIndex>,
    hints_if::<PackError>,
    hints_if::<RefusedOnInstall>,
    hints_if::<SigningError>,
    hints_if::<ExtractError>,
];

/// How the hints of one advising type are found in a chain.
type HintsOf = fn(&(dyn std::error::Error + 'static)) -> Option<Vec<String>>;

pub(super) fn hints_in(error: &anyhow::Error) -> Vec<String> {
    let mut hints = Vec::new();
    let mut found: Vec<*const Hinted> = Vec::new();
    for cause in error.chain() {
        if let Some(hinted) = cause.downcast_ref::<Hinted>() {
            found.push(hinted);
        }
        if let Some(advice) = ADVISING.iter().find_map(|hints_of| hints_of(cause)) {
            hints.extend(advice);
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
    fn every_error_type_that_advises_is_listed() {
        let printer = include_str!("printer.rs");
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut unlisted = Vec::new();
        for entry in walkdir::WalkDir::new(&src)
            .into_iter()
            .filter_map(Result::ok)
        {
            if entry.path().extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(entry.path()).unwrap();
            for line in text.lines() {
                let Some(rest) = line
                    .strip_prefix("impl crate::hint::Advice for ")
                    .or_else(|| line.strip_prefix("impl Advice for "))
                else {
                    continue;
                };
                let name = rest.trim_end_matches(" {");
                if !printer.contains(&format!("hints_if::<{name}>")) {
                    unlisted.push(format!("{name} ({})", entry.path().display()));
                }
            }
        }
        assert!(
            unlisted.is_empty(),
            "error types whose hints the CLI would never print (list them in ADVISING): {unlisted:?}"
        );
    }

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

#[cfg(test)]
mod safety {
    use super::terminal_safe;

    #[test]
    fn escapes_and_bidi_marks_are_written_out() {
        assert_eq!(terminal_safe("plain\ttext\n"), "plain\ttext\n");
        assert_eq!(
            terminal_safe("a\u{1b}[2Jb\u{202e}c\r"),
            "a\\u{1b}[2Jb\\u{202e}c\\u{d}"
        );
        assert_eq!(
            super::one_line_safe("Read(a\n\tb\u{2028})\u{1b}"),
            "Read(a\\u{a}\\u{9}b\\u{2028})\\u{1b}"
        );
    }
}

#[cfg(test)]
mod transcript {
    use super::Transcript;

    #[test]
    fn controls_show_in_caret_notation_and_newlines_and_tabs_stay() {
        let mut t = Transcript::default();
        let shown = t.render("page 1\u{c}page 2\r\nname\tsize\n\u{1b}[31mred\u{1b}[0m\u{7f}\u{0}");
        assert_eq!(shown, "page 1^Lpage 2\nname\tsize\n^[[31mred^[[0m^?^@");
        assert_eq!(t.finish(), "");
        // A lone carriage return (a progress line redrawn) shows; C1
        // controls and bidirectional marks are written out.
        assert_eq!(
            t.render("10%\r50%\u{9b}2J\u{202e}x"),
            "10%^M50%\\u{9b}2J\\u{202e}x"
        );
        // A CR LF split between two pieces of the stream is one newline.
        assert_eq!(t.render("end\r"), "end");
        assert_eq!(t.render("\nnext\r"), "\nnext");
        assert_eq!(t.finish(), "^M");
        assert_eq!(t.render("plain"), "plain");
    }
}

#[cfg(test)]
mod shortening {
    use super::{count, one_line};

    #[test]
    fn lines_are_cut_to_their_width_with_one_ellipsis() {
        assert_eq!(one_line("short\n  text", 72), "short text");
        let cut = one_line(&"word ".repeat(30), 20);
        assert_eq!(cut, "word word word word…");
        assert!(cut.chars().count() <= 20);
        // A text's own ellipsis, or a comma, where the cut falls.
        assert_eq!(one_line("Reads files… and much more", 13), "Reads files…");
        assert_eq!(one_line("Reads, writes and more", 7), "Reads…");
        // Exactly the width: untouched, its own ellipsis kept.
        assert_eq!(one_line("Ends here…", 10), "Ends here…");
        assert_eq!(count(1, "case"), "1 case");
        assert_eq!(count(0, "case"), "0 cases");
    }
}
