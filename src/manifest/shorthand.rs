//! Short forms of git sources, as `npx skills` users type them:
//! `github:owner/repo[/path][@rev]` and `gitlab:owner/repo[/path][@rev]`,
//! expanded to the https URL, the folder and the revision. The manifest
//! records the expanded form.

/// A short form, expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitShorthand {
    /// The repository's https URL.
    pub url: String,
    /// The folder inside it, when given.
    pub subdir: Option<String>,
    /// The branch, tag or commit, when given.
    pub rev: Option<String>,
}

/// The hosts short forms name.
const HOSTS: [(&str, &str); 2] = [("github:", "github.com"), ("gitlab:", "gitlab.com")];

/// Expands `text` when it is a short form: `None` when it is not one,
/// an error (saying what is expected) when it is one written wrong.
pub fn expand(text: &str) -> Option<Result<GitShorthand, String>> {
    let (prefix, host) = HOSTS.iter().find(|(prefix, _)| text.starts_with(prefix))?;
    let rest = &text[prefix.len()..];
    let wrong = || {
        format!(
            "'{text}' is not a short form of a repository: write {prefix}owner/repo[/path][@rev]"
        )
    };
    let (path, rev) = match rest.rsplit_once('@') {
        Some((path, rev)) if !rev.is_empty() => (path, Some(rev.to_string())),
        Some(_) => return Some(Err(wrong())),
        None => (rest, None),
    };
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    let plain = |part: &&str| {
        !part.is_empty()
            && *part != "."
            && *part != ".."
            && !part.chars().any(|c| c.is_control() || c == '\\')
    };
    if parts.len() < 2 || !parts.iter().all(plain) {
        return Some(Err(wrong()));
    }
    // `.git` dropped, the name must still be one (`o/.git` is not `o/`).
    let repo = parts[1].trim_end_matches(".git");
    if !plain(&repo) {
        return Some(Err(wrong()));
    }
    Some(Ok(GitShorthand {
        url: format!("https://{host}/{}/{repo}", parts[0]),
        subdir: (parts.len() > 2).then(|| parts[2..].join("/")),
        rev,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expanded(text: &str) -> (String, Option<String>, Option<String>) {
        let s = expand(text).unwrap().unwrap();
        (s.url, s.subdir, s.rev)
    }

    #[test]
    fn short_forms_expand_to_url_folder_and_revision() {
        assert_eq!(
            expanded("github:anthropics/skills"),
            ("https://github.com/anthropics/skills".into(), None, None)
        );
        assert_eq!(
            expanded("github:anthropics/skills/skills/pdf@v1.2"),
            (
                "https://github.com/anthropics/skills".into(),
                Some("skills/pdf".into()),
                Some("v1.2".into())
            )
        );
        assert_eq!(
            expanded("gitlab:team/tools.git@main"),
            (
                "https://gitlab.com/team/tools".into(),
                None,
                Some("main".into())
            )
        );
        assert_eq!(
            expanded("github:o/r@feature/x"),
            (
                "https://github.com/o/r".into(),
                None,
                Some("feature/x".into())
            )
        );
        assert!(expand("acme/pdf").is_none());
        assert!(expand("https://github.com/o/r").is_none());
        for bad in [
            "github:",
            "github:owner",
            "github:o/../x",
            "github:o/r@",
            "github:/r",
        ] {
            assert!(matches!(expand(bad), Some(Err(_))), "{bad}");
        }
    }

    /// Found by the `git_shorthand` fuzz target: a repository named only
    /// `.git` (or `..git`, `...git`) expanded to `https://github.com/o/`
    /// (or `/o/.`, `/o/..`), no repository at all.
    #[test]
    fn a_repository_name_is_left_after_dropping_dot_git() {
        for bad in ["github:o/.git", "github:o/..git", "github:o/...git@v1"] {
            assert!(matches!(expand(bad), Some(Err(_))), "{bad}");
        }
        assert_eq!(expanded("github:o/r.git").0, "https://github.com/o/r");
    }
}
