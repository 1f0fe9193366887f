//! Every question skillpkg asks on the terminal, asked one way: the lines
//! that explain it, each escaped onto a line of its own
//! ([`super::printer::one_line_safe`]), then the question with its
//! choices; the answer read as one trimmed, lowercased line. Anything but
//! a listed choice, or no answer at all, is the default: no.
//!
//! Nothing here decides what to ask: the library builds the lines (the
//! grants a skill asks for, what trusting a project lets apply, what a
//! tool call would do), and the commands ask only on a terminal
//! ([`on_a_terminal`]).

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::ops::consent::grants::install::{GrantAsker, GrantRequest};

/// Whether questions can be asked: stdin and stderr are both a terminal.
pub(super) fn on_a_terminal() -> bool {
    use std::io::IsTerminal as _;
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// One answer a question accepts besides no: the words that give it.
pub(super) struct Choice<T> {
    /// What the user may type (`"y"`, `"yes"`).
    pub words: &'static [&'static str],
    /// What it means.
    pub value: T,
}

/// Asks `question` after `lines` and returns the value of the choice
/// typed, else `no`.
pub(super) fn ask<T: Copy>(lines: &[String], question: &str, choices: &[Choice<T>], no: T) -> T {
    let Some(answer) = read_answer(lines, question) else {
        return no;
    };
    choices
        .iter()
        .find(|choice| choice.words.contains(&answer.as_str()))
        .map_or(no, |choice| choice.value)
}

/// A yes/no question, no by default: `[y/N]` is added to it.
pub(super) fn confirm(lines: &[String], question: &str) -> bool {
    const YES: Choice<bool> = Choice {
        words: &["y", "yes"],
        value: true,
    };
    ask(lines, &format!("{question} [y/N]"), &[YES], false)
}

/// Writes the question and reads one line: `None` when nothing can be read.
fn read_answer(lines: &[String], question: &str) -> Option<String> {
    use std::io::BufRead as _;
    let mut asked = String::new();
    for line in lines {
        asked.push_str(&super::printer::one_line_safe(line));
        asked.push('\n');
    }
    asked.push_str(&super::printer::one_line_safe(question));
    let mut stderr = std::io::stderr().lock();
    let _ = write!(stderr, "{asked} ");
    let _ = stderr.flush();
    drop(stderr);
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer).ok()?;
    Some(answer.trim().to_lowercase())
}

/// The install's questions about grants: one per skill, until `a`
/// approves every later one of the same command.
#[derive(Default)]
pub(super) struct GrantQuestions {
    approve_all: AtomicBool,
}

/// What `a` at a grant question means.
#[derive(Clone, Copy)]
enum GrantAnswer {
    No,
    Yes,
    All,
}

impl GrantAsker for GrantQuestions {
    /// One line per pattern, each escaped, the strongest last, right before
    /// the question.
    fn approve(&self, request: &GrantRequest) -> bool {
        if self.approve_all.load(Ordering::Relaxed) {
            return true;
        }
        let mut lines = vec![format!(
            "{} {} asks to pre-approve, while it is active:",
            request.name, request.version
        )];
        lines.extend(super::grants::pattern_lines(&request.unapproved));
        let choices = [
            Choice {
                words: &["y", "yes"],
                value: GrantAnswer::Yes,
            },
            Choice {
                words: &["a", "all"],
                value: GrantAnswer::All,
            },
        ];
        match ask(&lines, "Approve? [y/N/a = all]", &choices, GrantAnswer::No) {
            GrantAnswer::No => false,
            GrantAnswer::Yes => true,
            GrantAnswer::All => {
                self.approve_all.store(true, Ordering::Relaxed);
                true
            }
        }
    }
}
