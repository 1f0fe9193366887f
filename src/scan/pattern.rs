//! The scanner's patterns, compiled.

/// `pattern` compiled; the scanner's patterns are constants, so one that
/// does not compile is a bug.
pub(super) fn regex(pattern: &str) -> regex::Regex {
    regex::Regex::new(pattern).expect("a valid scanner pattern")
}
