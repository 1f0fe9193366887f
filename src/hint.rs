//! Errors that carry advice as data: what went wrong, and what the user
//! can do about it. The CLI prints the message in the error chain and
//! every hint of the chain after it, as `hint: …` lines (one place renders
//! them: `cli::printer`).

use std::fmt;

/// An error with hints for the user.
///
/// ```
/// use skillpkg::hint::Hinted;
/// let error = Hinted::new("skills.toml already exists")
///     .hint("add skills to it with `skillpkg add org/name`");
/// assert_eq!(error.to_string(), "skills.toml already exists");
/// assert_eq!(error.hints(), ["add skills to it with `skillpkg add org/name`"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hinted {
    message: String,
    hints: Vec<String>,
}

impl Hinted {
    /// An error saying `message`, with no hint yet.
    pub fn new(message: impl fmt::Display) -> Hinted {
        Hinted {
            message: message.to_string(),
            hints: Vec::new(),
        }
    }

    /// Adds a hint: what the user can do next.
    #[must_use]
    pub fn hint(mut self, hint: impl fmt::Display) -> Hinted {
        self.hints.push(hint.to_string());
        self
    }

    /// The message, without hints.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The hints, in the order they were added.
    pub fn hints(&self) -> &[String] {
        &self.hints
    }
}

impl fmt::Display for Hinted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Hinted {}
