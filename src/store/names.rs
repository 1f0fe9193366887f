//! What a file name inside a skill may be, shared by packing and
//! extraction so that what one writes the other accepts.

/// Directory names never packed and never extracted: version-control
/// metadata.
pub const VCS_DIRS: [&str; 7] = [".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", "CVS"];

/// Whether `name` is a version-control folder's name. Dot-folders match
/// without regard to case, as case-insensitive file systems treat `.GIT`
/// as `.git`.
pub fn is_vcs_dir(name: &str) -> bool {
    VCS_DIRS.iter().any(|vcs| match vcs.starts_with('.') {
        true => vcs.eq_ignore_ascii_case(name),
        false => *vcs == name,
    })
}

/// Whether `name` holds control characters or bidirectional marks, which
/// could rewrite a terminal or disguise what a name says.
pub fn has_unsafe_chars(name: &str) -> bool {
    name.chars().any(|c| c.is_control() || is_bidi_mark(c))
}

/// Bidirectional marks and isolates, which reorder how text is shown.
pub fn is_bidi_mark(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_judged_as_the_file_systems_would() {
        assert!(is_vcs_dir(".git") && is_vcs_dir(".GIT") && is_vcs_dir("CVS"));
        assert!(!is_vcs_dir("cvs") && !is_vcs_dir("git") && !is_vcs_dir(".github"));
        assert!(has_unsafe_chars("a\u{1b}b") && has_unsafe_chars("a\u{202e}b"));
        assert!(!has_unsafe_chars("café-ß.md"));
    }
}
