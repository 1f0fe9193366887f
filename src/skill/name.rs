//! The naming rules of the specification, shared by the validator, the
//! loader and (later) organisation and package names.

use super::pystr;

/// Longest name, in code points after NFKC normalisation.
pub(crate) const MAX_NAME_LENGTH: usize = 64;

/// One way a name breaks the rules, in the reference validator's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NameProblem {
    /// More than 64 code points.
    TooLong(usize),
    /// Not equal to its lowercase form.
    NotLowercase,
    /// Starts or ends with `-`.
    HyphenAtEdge,
    /// Contains `--`.
    ConsecutiveHyphens,
    /// Contains something other than letters, numbers and `-`.
    InvalidCharacters,
}

impl NameProblem {
    /// Stable rule identifier.
    pub(crate) fn rule(&self) -> &'static str {
        match self {
            NameProblem::TooLong(_) => "name-length",
            NameProblem::NotLowercase => "name-lowercase",
            NameProblem::HyphenAtEdge => "name-hyphen",
            NameProblem::ConsecutiveHyphens => "name-hyphen",
            NameProblem::InvalidCharacters => "name-characters",
        }
    }

    /// The reference validator's message for this problem.
    pub(crate) fn message(&self, name: &str) -> String {
        match self {
            NameProblem::TooLong(len) => {
                format!(
                    "Skill name '{name}' exceeds {MAX_NAME_LENGTH} character limit ({len} chars)"
                )
            }
            NameProblem::NotLowercase => format!("Skill name '{name}' must be lowercase"),
            NameProblem::HyphenAtEdge => "Skill name cannot start or end with a hyphen".into(),
            NameProblem::ConsecutiveHyphens => {
                "Skill name cannot contain consecutive hyphens".into()
            }
            NameProblem::InvalidCharacters => format!(
                "Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed."
            ),
        }
    }
}

/// The form a name is compared in: stripped, then NFKC-normalised.
pub(crate) fn normalize_name(name: &str) -> String {
    pystr::nfkc(pystr::strip(name))
}

/// Checks an already normalised name against every rule.
pub(crate) fn check_name(name: &str) -> Vec<NameProblem> {
    let mut problems = Vec::new();
    let len = pystr::len(name);
    if len > MAX_NAME_LENGTH {
        problems.push(NameProblem::TooLong(len));
    }
    if name != pystr::lower(name) {
        problems.push(NameProblem::NotLowercase);
    }
    if name.starts_with('-') || name.ends_with('-') {
        problems.push(NameProblem::HyphenAtEdge);
    }
    if name.contains("--") {
        problems.push(NameProblem::ConsecutiveHyphens);
    }
    if !name.chars().all(|c| c == '-' || pystr::is_alnum(c)) {
        problems.push(NameProblem::InvalidCharacters);
    }
    problems
}

/// Whether a name is valid (non-empty and breaking no rule).
pub(crate) fn is_valid_name(name: &str) -> bool {
    !name.is_empty() && check_name(name).is_empty()
}

/// Whether `name` may name a folder skillpkg creates (DESIGN §5): one
/// path component, not empty, no `/` or `\\`, no leading `.`, no control
/// characters, at most 255 bytes. Names that break the specification's
/// other rules (case, length, characters) still pass: agents load them.
pub(crate) fn is_safe_folder_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 255
        && !name.starts_with('.')
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_folder_names_are_one_plain_component() {
        for ok in ["pdf", "Broken", "café", "a b", "x.y", &"a".repeat(255)] {
            assert!(is_safe_folder_name(ok), "{ok}");
        }
        for bad in [
            "",
            ".",
            "..",
            ".hidden",
            "a/b",
            "a\\b",
            "a\nb",
            &"a".repeat(256),
        ] {
            assert!(!is_safe_folder_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn boundaries() {
        assert!(is_valid_name(&"a".repeat(64)));
        assert_eq!(check_name(&"a".repeat(65)), vec![NameProblem::TooLong(65)]);
        assert!(is_valid_name("café-2"));
        assert!(is_valid_name("123"));
        assert_eq!(check_name("Abc"), vec![NameProblem::NotLowercase]);
        assert_eq!(check_name("-a"), vec![NameProblem::HyphenAtEdge]);
        assert_eq!(check_name("a--b"), vec![NameProblem::ConsecutiveHyphens]);
        assert_eq!(check_name("a_b"), vec![NameProblem::InvalidCharacters]);
        assert_eq!(check_name("e\u{301}"), vec![NameProblem::InvalidCharacters]);
    }

    #[test]
    fn nfkc_can_expand_past_the_limit() {
        // U+FB03 (ﬃ) is one code point that NFKC turns into three.
        let name = normalize_name(&"\u{fb03}".repeat(22));
        assert_eq!(pystr::len(&name), 66);
        assert_eq!(check_name(&name), vec![NameProblem::TooLong(66)]);
    }
}
