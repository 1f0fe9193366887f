//! What a file name inside a skill may be, shared by packing and
//! extraction so that what one writes the other accepts.

/// Which characters a name may not hold is the skill layer's rule, shared
/// with what prompts escape.
pub(crate) use crate::skill::chars::has_unsafe_chars;

/// Directory names never packed and never extracted: version-control
/// metadata.
pub(crate) const VCS_DIRS: [&str; 7] = [".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", "CVS"];

/// Whether `name` is a version-control folder's name. Dot-folders match
/// without regard to case, as case-insensitive file systems treat `.GIT`
/// as `.git`.
pub(crate) fn is_vcs_dir(name: &str) -> bool {
    VCS_DIRS.iter().any(|vcs| match vcs.starts_with('.') {
        true => vcs.eq_ignore_ascii_case(name),
        false => *vcs == name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_judged_as_the_file_systems_would() {
        assert!(is_vcs_dir(".git") && is_vcs_dir(".GIT") && is_vcs_dir("CVS"));
        assert!(!is_vcs_dir("cvs") && !is_vcs_dir("git") && !is_vcs_dir(".github"));
    }
}
