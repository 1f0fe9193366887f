//! Characters that could rewrite a terminal or disguise what a line says:
//! control characters (escape sequences, line breaks), the Unicode line
//! and paragraph separators, and bidirectional marks. Names from packages,
//! `allowed-tools` patterns and everything a prompt shows are judged here.

use std::borrow::Cow;

/// Whether `name` holds control characters or bidirectional marks, which
/// could rewrite a terminal or disguise what a name says.
pub(crate) fn has_unsafe_chars(name: &str) -> bool {
    name.chars().any(|c| c.is_control() || is_bidi_mark(c))
}

/// Bidirectional marks and isolates, which reorder how text is shown.
pub(crate) fn is_bidi_mark(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` has no place in text shown on one line: a control
/// character (a line break, a tab, an escape), the Unicode line or
/// paragraph separator, or a bidirectional mark.
pub(crate) fn breaks_one_line(c: char) -> bool {
    c.is_control() || is_bidi_mark(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Whether `text` holds a character that [`breaks_one_line`].
pub(crate) fn has_line_breaking_chars(text: &str) -> bool {
    text.chars().any(breaks_one_line)
}

/// `text` with every character `escaped` picks written out visibly, as
/// `\u{a}`; borrowed when there is none.
pub(crate) fn escape_chars(text: &str, escaped: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&escaped) {
        return Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match escaped(c) {
            true => safe.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            false => safe.push(c),
        }
    }
    Cow::Owned(safe)
}

/// `text` as one line that says what it holds: every character that
/// [`breaks_one_line`] written out as `\u{…}`.
pub(crate) fn one_line_escaped(text: &str) -> Cow<'_, str> {
    escape_chars(text, breaks_one_line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_names_are_found() {
        assert!(has_unsafe_chars("a\u{1b}b") && has_unsafe_chars("a\u{202e}b"));
        assert!(!has_unsafe_chars("café-ß.md"));
    }

    #[test]
    fn what_breaks_a_line_is_written_out() {
        for text in [
            "a\nb",
            "a\rb",
            "a\u{2028}b",
            "a\u{2029}b",
            "a\u{85}b",
            "a\u{2066}b",
        ] {
            assert!(has_line_breaking_chars(text), "{text:?}");
        }
        assert!(!has_line_breaking_chars("Bash(git add:*) — café"));
        assert_eq!(
            one_line_escaped("Read(a\n\u{2028}\u{202e}\tb)"),
            "Read(a\\u{a}\\u{2028}\\u{202e}\\u{9}b)"
        );
        assert!(matches!(one_line_escaped("plain"), Cow::Borrowed("plain")));
    }
}
