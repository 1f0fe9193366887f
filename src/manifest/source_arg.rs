//! What a positional argument of `add` names: a package of an index
//! (`org/name[@req]`, the default), or a git repository in one of the
//! forms `npx skills` users type. Pure: nothing here reads a file or the
//! network; an http(s) URL of a host not known here is only marked to be
//! probed ([`SourceArg::Probe`]), which the caller does.
//!
//! The forms, in the order they are tried:
//!
//! 1. Text whose part before the first `@` is a valid `org/name` is an
//!    index package, whatever follows: `acme/pdf@^1`, never a URL. No
//!    other rule sees it, so no package is ever taken for a repository or
//!    probed over HTTP.
//! 2. `github:owner/repo[/path][@rev]` and `gitlab:…` ([`super::shorthand`]).
//! 3. A URL with a scheme: `oci://HOST/REPO:TAG` or
//!    `oci://HOST/REPO@sha256:…`, an artifact of an OCI registry
//!    ([`super::oci_ref`]); `git+https://`, `git+http://`, `git+ssh://`,
//!    `git+file://` (the `git+` dropped), `ssh://`, `git://`, `file://`,
//!    taken as given. `https://` and `http://`: a page of a known host
//!    (github.com, gitlab.com, bitbucket.org, codeberg.org) maps to its
//!    repository, revision and folder (below); any other URL whose path
//!    ends in `.git` is a repository; any other is to be probed. Other
//!    schemes are refused.
//! 4. scp-like `user@host:path`, and `host:path` when the host has a dot
//!    or is `localhost`, or the path ends in `.git` (so `C:\x`, `./x:y`,
//!    `o/r:x` and `word:x` are not: a `/` before the first `:` makes a
//!    path, one letter a drive). Another `word:…` is refused, naming the
//!    prefixes there are.
//! 5. Anything else is for the index, which reports it if it is no
//!    package name.
//!
//! Pages of known hosts (github.com, gitlab.com, bitbucket.org,
//! codeberg.org) are read by [`super::host_pages`].

use super::host_pages::{Host, known_page};
use super::shorthand;

/// A git repository named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GitSource {
    /// The repository's URL, as git is given it.
    pub url: String,
    /// The branch, tag or commit, when the text gives one.
    pub rev: Option<String>,
    /// The folder inside it, when the text gives one.
    pub subdir: Option<String>,
    /// For a page `…/tree/REV/PATH` of a host: `REV` and `PATH` as one
    /// list of segments, so that `--rev feature/x` can take two of them.
    tree: Option<Vec<String>>,
}

/// What a positional argument of `add` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SourceArg {
    /// No repository: a package of an index (or text the index refuses).
    Package,
    /// A git repository.
    Git(GitSource),
    /// An http(s) URL of a host not known here: a repository only if it
    /// answers git's smart HTTP there (or with `.git` added).
    Probe(String),
    /// An artifact of an OCI registry.
    Oci(super::oci_ref::OciReference),
    /// A repository's form written wrong, or a scheme skillpkg does not
    /// read: what is expected, quoting the text.
    Invalid(String),
}

/// Classifies one positional argument of `add`.
pub(crate) fn classify(text: &str) -> SourceArg {
    if is_index_request(text) {
        return SourceArg::Package;
    }
    if let Some(short) = shorthand::expand(text) {
        return match short {
            Ok(short) => SourceArg::Git(GitSource {
                url: short.url,
                rev: short.rev,
                subdir: short.subdir,
                tree: None,
            }),
            Err(message) => SourceArg::Invalid(message),
        };
    }
    if let Some((scheme, rest)) = split_scheme(text) {
        return classify_url(text, &scheme, rest);
    }
    classify_scp(text)
}

/// Whether `text` is `org/name` or `org/name@…` with a valid `org/name`
/// (as the index parses package names).
pub(crate) fn is_index_request(text: &str) -> bool {
    let name = text.split('@').next().unwrap_or(text);
    name.split_once('/').is_some_and(|(org, name)| {
        crate::skill::name::is_valid_name(org) && crate::skill::name::is_valid_name(name)
    })
}

/// The short form to suggest for `text`, as `npx skills` reads it: a
/// GitHub repository `owner/repo`, perhaps with a folder
/// (`owner/repo/path`) and a requirement part, which npx reads as a skill
/// (`owner/repo@skill`); `None` unless the owner and repository are names
/// GitHub allows. Returns the source and the skill, if any.
pub(crate) fn github_suggestion(text: &str) -> Option<(String, Option<String>)> {
    let (path, skill) = match text.split_once('@') {
        Some((path, skill)) => (path, Some(skill)),
        None => (text, None),
    };
    let mut parts = path.split('/');
    let owner = parts.next()?;
    let repo = parts.next()?;
    let rest: Vec<&str> = parts.collect();
    let owner_ok = (1..=39).contains(&owner.len())
        && owner.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && !owner.starts_with('-')
        && !owner.ends_with('-');
    let repo_ok = (1..=100).contains(&repo.len())
        && repo
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && repo != "."
        && repo != "..";
    let rest_ok = rest.iter().all(|part| {
        !part.is_empty()
            && *part != "."
            && *part != ".."
            && !part
                .chars()
                .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
    });
    // npx reads `owner/repo@skill` as a skill's name: no URL, no range.
    let skill_ok = skill.is_none_or(|skill| {
        !skill.is_empty()
            && skill
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
    });
    if !(owner_ok && repo_ok && rest_ok && skill_ok) {
        return None;
    }
    Some((format!("github:{path}"), skill.map(str::to_string)))
}

impl GitSource {
    /// This source with `--rev` and `--subdir` taken in. A value given
    /// both ways must be the same; but a page `…/tree/feature/x/skills`
    /// read with `--rev feature/x` takes `skills` as the folder (a
    /// branch whose name holds `/`). `text` is the argument, for messages.
    pub(crate) fn with_flags(
        mut self,
        text: &str,
        rev: Option<&str>,
        subdir: Option<&str>,
    ) -> Result<GitSource, String> {
        if let (Some(flag), Some(given), Some(tree)) = (rev, &self.rev, &self.tree)
            && flag != given
        {
            let flag_parts: Vec<&str> = flag.split('/').collect();
            if tree.len() >= flag_parts.len() && tree.iter().zip(&flag_parts).all(|(a, b)| a == b) {
                let rest = &tree[flag_parts.len()..];
                self.rev = Some(flag.to_string());
                self.subdir = (!rest.is_empty()).then(|| rest.join("/"));
            }
        }
        match (rev, &self.rev) {
            (Some(flag), Some(given)) if flag != given => {
                return Err(format!(
                    "'{text}' names the revision '{given}', and --rev '{flag}' another: give it once"
                ));
            }
            (Some(flag), _) => self.rev = Some(flag.to_string()),
            (None, _) => {}
        }
        match (subdir, &self.subdir) {
            (Some(flag), Some(given)) if flag.trim_matches('/') != given.trim_matches('/') => {
                return Err(format!(
                    "'{text}' names the folder '{given}', and --subdir '{flag}' another: give it once"
                ));
            }
            (Some(flag), None) => self.subdir = Some(flag.to_string()),
            _ => {}
        }
        Ok(self)
    }
}

/// `(scheme, rest)` of `scheme://rest`, the scheme lowercased; `None`
/// when `text` does not start with one.
fn split_scheme(text: &str) -> Option<(String, &str)> {
    let (scheme, rest) = text.split_once("://")?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    let plain = first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    plain.then(|| (scheme.to_ascii_lowercase(), rest))
}

fn git(url: impl Into<String>) -> SourceArg {
    SourceArg::Git(GitSource {
        url: url.into(),
        rev: None,
        subdir: None,
        tree: None,
    })
}

/// A URL with `scheme`.
fn classify_url(text: &str, scheme: &str, rest: &str) -> SourceArg {
    match scheme {
        "git+https" | "git+http" | "git+ssh" | "git+file" | "git+git" => git(&text[4..]),
        "ssh" | "git" | "file" => git(text),
        "oci" => match super::oci_ref::parse_reference(rest) {
            Ok(reference) => SourceArg::Oci(reference),
            Err(message) => SourceArg::Invalid(message),
        },
        "https" | "http" => {
            let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
            let (authority, after) = rest.split_at(authority_end);
            let (userinfo, host) = match authority.rsplit_once('@') {
                Some((userinfo, host)) => (Some(userinfo), host),
                None => (None, authority),
            };
            let path = after.split(['?', '#']).next().unwrap_or("");
            if let Some((known, name)) = Host::of(host) {
                return match known_page(text, known, name, userinfo, path) {
                    Ok(page) => SourceArg::Git(GitSource {
                        url: page.url,
                        rev: page.rev,
                        subdir: page.subdir,
                        tree: page.tree,
                    }),
                    Err(message) => SourceArg::Invalid(message),
                };
            }
            if path.trim_end_matches('/').ends_with(".git") {
                return git(text);
            }
            SourceArg::Probe(text.to_string())
        }
        other => SourceArg::Invalid(format!(
            "'{text}': skillpkg does not read {other}:// sources; a git repository is given as https://…, ssh://…, git@host:path, file://… or github:owner/repo, an OCI artifact as oci://HOST/REPO:TAG"
        )),
    }
}

/// Text without a scheme: scp-like `[user@]host:path`, an unknown
/// `word:` prefix (refused), or a package.
fn classify_scp(text: &str) -> SourceArg {
    let Some((before, path)) = text.split_once(':') else {
        return SourceArg::Package;
    };
    // A `/` or `\` before the first `:` makes a path (`./x:y`, `o/r:x`).
    if before.contains(['/', '\\']) || path.is_empty() {
        return SourceArg::Package;
    }
    let (user, host) = match before.rsplit_once('@') {
        Some((user, host)) => (Some(user), host),
        None => (None, before),
    };
    let hostname = !host.is_empty()
        && !host.starts_with(['.', '-'])
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    if !hostname || user.is_some_and(str::is_empty) {
        return SourceArg::Package;
    }
    // One letter and no user: a Windows drive (`C:\x`, `C:x`).
    if user.is_none() && host.len() == 1 {
        return SourceArg::Package;
    }
    let is_git_path = path.trim_end_matches('/').ends_with(".git");
    if user.is_some() || host.contains('.') || host == "localhost" || is_git_path {
        return git(text);
    }
    SourceArg::Invalid(format!(
        "'{text}': '{host}:' is no prefix skillpkg knows: the short forms are github:owner/repo and gitlab:owner/repo; an ssh host is given as user@host:path, any other repository as its URL or with --git"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(text: &str) -> (String, Option<String>, Option<String>) {
        match classify(text) {
            SourceArg::Git(g) => (g.url, g.rev, g.subdir),
            other => panic!("{text}: {other:?}"),
        }
    }

    fn plain(url: &str) -> (String, Option<String>, Option<String>) {
        (url.to_string(), None, None)
    }

    fn at(url: &str, rev: &str, subdir: Option<&str>) -> (String, Option<String>, Option<String>) {
        (
            url.to_string(),
            Some(rev.to_string()),
            subdir.map(str::to_string),
        )
    }

    #[test]
    fn index_packages_stay_packages_whatever_follows_the_name() {
        for text in [
            "acme/pdf",
            "acme/pdf@1.0",
            "acme/pdf@^1.2",
            "acme/pdf@>=1, <2",
            "acme/x@git@github.com:o/r.git",
            "acme/x@https://evil.example/r.git",
            "acme/x@file:///etc",
            "pdf-processing",
            "Example/pdf-processing",
            "owner/repo/path",
            "./x:y",
            "../x:y",
            "o/r:x",
            "C:\\skills",
            "C:/skills",
            "c:skills",
            ":x",
            "x:",
            "",
        ] {
            assert_eq!(classify(text), SourceArg::Package, "{text:?}");
        }
        assert!(is_index_request("acme/pdf@https://x"));
        assert!(!is_index_request("git@github.com:o/r"));
    }

    #[test]
    fn short_forms_and_git_urls_are_repositories_as_given() {
        assert_eq!(
            repo("github:anthropics/skills/skills/pdf@v1"),
            at(
                "https://github.com/anthropics/skills",
                "v1",
                Some("skills/pdf")
            )
        );
        assert!(
            matches!(classify("github:owner"), SourceArg::Invalid(m) if m.contains("github:owner"))
        );
        for (text, url) in [
            ("git+https://example.com/r", "https://example.com/r"),
            ("git+http://example.com/r", "http://example.com/r"),
            (
                "git+ssh://git@example.com/r.git",
                "ssh://git@example.com/r.git",
            ),
            ("git+file:///srv/r", "file:///srv/r"),
            (
                "ssh://git@example.com:2222/r.git",
                "ssh://git@example.com:2222/r.git",
            ),
            ("git://example.com/r.git", "git://example.com/r.git"),
            ("file:///srv/repo", "file:///srv/repo"),
            ("FILE://localhost/srv/repo", "FILE://localhost/srv/repo"),
            (
                "https://example.com/team/r.git",
                "https://example.com/team/r.git",
            ),
            (
                "https://example.com/team/r.git/",
                "https://example.com/team/r.git/",
            ),
            ("http://10.0.0.1:8080/r.git", "http://10.0.0.1:8080/r.git"),
            ("git@github.com:o/r.git", "git@github.com:o/r.git"),
            ("git@example.com:team/r", "git@example.com:team/r"),
            (
                "deploy@build-box:repos/skills",
                "deploy@build-box:repos/skills",
            ),
            ("example.com:team/r", "example.com:team/r"),
            ("localhost:repos/r", "localhost:repos/r"),
            ("buildbox:repos/r.git", "buildbox:repos/r.git"),
        ] {
            assert_eq!(repo(text), plain(url), "{text}");
        }
    }

    #[test]
    fn other_http_urls_are_probed_and_other_schemes_refused() {
        for text in [
            "https://example.com/team/skills",
            "https://example.com/team/skills/",
            "http://127.0.0.1:8080/skills",
            "HTTPS://example.com/x",
            "https://example.com",
            "https://github.com.evil.example/o/r",
        ] {
            assert_eq!(classify(text), SourceArg::Probe(text.to_string()), "{text}");
        }
        for text in [
            "oci://registry/skills",
            "oci://registry/Skills:1",
            "ftp://example.com/r.git",
            "s3://b/k",
        ] {
            assert!(
                matches!(classify(text), SourceArg::Invalid(m) if m.contains(text)),
                "{text}"
            );
        }
        for text in ["bitbucket:o/r", "npm:thing"] {
            assert!(
                matches!(classify(text), SourceArg::Invalid(m) if m.contains("github:owner/repo")),
                "{text}"
            );
        }
    }

    #[test]
    fn oci_references_are_artifacts() {
        let SourceArg::Oci(reference) = classify("oci://127.0.0.1:5000/skills/pdf:1.0.0") else {
            panic!("not an artifact")
        };
        assert_eq!(reference.to_string(), "127.0.0.1:5000/skills/pdf:1.0.0");
    }

    #[test]
    fn pages_of_known_hosts_map_to_repository_revision_and_folder() {
        let gh = "https://github.com/anthropics/skills";
        for (text, expected) in [
            ("https://github.com/anthropics/skills", plain(gh)),
            ("http://www.GitHub.com/anthropics/skills.git/", plain(gh)),
            (
                "https://github.com/anthropics/skills?tab=readme-ov-file#pdf",
                plain(gh),
            ),
            (
                "https://github.com/anthropics/skills/tree/main",
                at(gh, "main", None),
            ),
            (
                "https://github.com/anthropics/skills/tree/main/skills/pdf",
                at(gh, "main", Some("skills/pdf")),
            ),
            (
                "https://github.com/anthropics/skills/tree/v1.2/skills/my%20skill/",
                at(gh, "v1.2", Some("skills/my skill")),
            ),
            (
                "https://github.com/anthropics/skills/blob/main/skills/pdf/SKILL.md",
                at(gh, "main", Some("skills/pdf")),
            ),
            (
                "https://github.com/anthropics/skills/blob/main/SKILL.md",
                at(gh, "main", None),
            ),
            (
                "https://github.com/anthropics/skills/commit/abc123",
                at(gh, "abc123", None),
            ),
            (
                "https://gitlab.com/group/sub/tools/-/tree/dev/skills/lint",
                at(
                    "https://gitlab.com/group/sub/tools",
                    "dev",
                    Some("skills/lint"),
                ),
            ),
            (
                "https://gitlab.com/group/sub/tools.git",
                plain("https://gitlab.com/group/sub/tools"),
            ),
            (
                "https://gitlab.com/g/r/-/blob/main/x/SKILL.md",
                at("https://gitlab.com/g/r", "main", Some("x")),
            ),
            (
                "https://bitbucket.org/o/r/src/main/skills/pdf/SKILL.md",
                at("https://bitbucket.org/o/r", "main", Some("skills/pdf")),
            ),
            (
                "https://codeberg.org/o/r/src/branch/main/skills/pdf",
                at("https://codeberg.org/o/r", "main", Some("skills/pdf")),
            ),
            (
                "https://codeberg.org/o/r/src/tag/v1",
                at("https://codeberg.org/o/r", "v1", None),
            ),
            (
                "https://alice:tok@github.com/o/r/tree/main",
                at("https://alice:tok@github.com/o/r", "main", None),
            ),
        ] {
            assert_eq!(repo(text), expected, "{text}");
        }
        for text in [
            "https://github.com/anthropics",
            "https://github.com/",
            "https://github.com/o/r/pulls",
            "https://github.com/o/r/tree",
            "https://github.com/o/r/blob/main",
            "https://github.com/o/.git",
            "https://github.com/o/r/tree/main/%2e%2e/x",
            "https://github.com/o/r/tree/main/a%2fb",
            "https://gitlab.com/solo",
            "https://codeberg.org/o/r/src/main",
        ] {
            assert!(
                matches!(classify(text), SourceArg::Invalid(m) if m.contains(text)),
                "{text}"
            );
        }
    }

    #[test]
    fn flags_join_the_page_and_a_slashed_branch_takes_its_segments() {
        let text = "https://github.com/o/r/tree/feature/x/skills/pdf";
        let SourceArg::Git(page) = classify(text) else {
            panic!()
        };
        assert_eq!(page.rev.as_deref(), Some("feature"));
        let split = page
            .clone()
            .with_flags(text, Some("feature/x"), None)
            .unwrap();
        assert_eq!(split.rev.as_deref(), Some("feature/x"));
        assert_eq!(split.subdir.as_deref(), Some("skills/pdf"));
        // The same value twice is no conflict; another is.
        let same = page
            .clone()
            .with_flags(text, Some("feature"), Some("x/skills/pdf/"))
            .unwrap();
        assert_eq!(same.subdir.as_deref(), Some("x/skills/pdf"));
        let error = page
            .clone()
            .with_flags(text, Some("main"), None)
            .unwrap_err();
        assert!(error.contains("--rev 'main'"), "{error}");
        let error = page.with_flags(text, None, Some("other")).unwrap_err();
        assert!(error.contains("--subdir 'other'"), "{error}");
        // A source that names neither takes the flags.
        let SourceArg::Git(bare) = classify("github:o/r") else {
            panic!()
        };
        let flagged = bare
            .with_flags("github:o/r", Some("v2"), Some("skills/x"))
            .unwrap();
        assert_eq!(
            (flagged.rev.as_deref(), flagged.subdir.as_deref()),
            (Some("v2"), Some("skills/x"))
        );
    }

    #[test]
    fn owner_repo_names_get_a_github_suggestion_and_others_none() {
        assert_eq!(
            github_suggestion("vercel-labs/agent-skills"),
            Some(("github:vercel-labs/agent-skills".into(), None))
        );
        assert_eq!(
            github_suggestion("Anthropics/skills.js/skills/pdf"),
            Some(("github:Anthropics/skills.js/skills/pdf".into(), None))
        );
        assert_eq!(
            github_suggestion("vercel-labs/agent-skills@react"),
            Some((
                "github:vercel-labs/agent-skills".into(),
                Some("react".into())
            ))
        );
        for text in [
            "pdf",
            "-o/r",
            "o_x/r",
            "o/..",
            "o/r//x",
            "o/r@",
            "o/r@http://x/y",
            "o/r@^1.2",
            "café/r",
            &format!("{}/r", "o".repeat(40)),
        ] {
            assert_eq!(github_suggestion(text), None, "{text}");
        }
    }
}
