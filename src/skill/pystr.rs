//! Python `str` semantics that the reference validator (skills-ref) relies on.
//!
//! The specification's reference implementation is written in Python, so its
//! verdicts depend on `str.strip`, `str.lower`, `str.isalnum`, `len` and
//! `unicodedata.normalize("NFKC", …)`. These helpers reproduce them exactly
//! (up to differences between the Unicode versions of the two runtimes).

use unicode_general_category::{GeneralCategory, get_general_category};
use unicode_normalization::UnicodeNormalization;

/// Python's `str.isspace` for one character: Unicode `White_Space` plus the
/// four ASCII information separators (U+001C..U+001F), which Python counts as
/// whitespace because of their bidirectional class.
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()` with no argument.
pub(crate) fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// Python's `str.isalnum` for one character: general category L* or N*
/// (Nd, Nl, No). Combining marks (Mn, Mc, Me) are not alphanumeric.
pub(crate) fn is_alnum(c: char) -> bool {
    use GeneralCategory::*;
    matches!(
        get_general_category(c),
        UppercaseLetter
            | LowercaseLetter
            | TitlecaseLetter
            | ModifierLetter
            | OtherLetter
            | DecimalNumber
            | LetterNumber
            | OtherNumber
    )
}

/// Python's `len(str)`: the number of code points.
pub(crate) fn len(s: &str) -> usize {
    s.chars().count()
}

/// `unicodedata.normalize("NFKC", s)`.
pub(crate) fn nfkc(s: &str) -> String {
    // ASCII is its own NFKC form: most names are ASCII.
    if s.is_ascii() {
        return s.to_string();
    }
    s.nfkc().collect()
}

/// Python's `str.lower()` (full case mapping, final sigma included).
pub(crate) fn lower(s: &str) -> String {
    s.to_lowercase()
}

/// Python's universal-newline decoding (`Path.read_text`): `\r\n` and lone
/// `\r` both become `\n`.
pub(crate) fn universal_newlines(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\r') {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(s.replace("\r\n", "\n").replace('\r', "\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_matches_python_whitespace() {
        assert_eq!(strip("\u{1c} a b\u{3000}\n"), "a b");
        assert_eq!(strip("\u{200b}a"), "\u{200b}a", "ZWSP is not whitespace");
    }

    #[test]
    fn alnum_rejects_marks_and_accepts_numbers() {
        assert!(is_alnum('é'));
        assert!(is_alnum('٣'));
        assert!(is_alnum('½'));
        assert!(!is_alnum('\u{301}'), "combining acute accent");
        assert!(!is_alnum('\u{93e}'), "devanagari vowel sign (Mc)");
        assert!(!is_alnum('_'));
    }

    #[test]
    fn newlines_are_translated() {
        assert_eq!(universal_newlines("a\r\nb\rc\n"), "a\nb\nc\n");
    }
}
