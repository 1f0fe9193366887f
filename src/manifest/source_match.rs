//! Whether a signer policy set on a source covers an install's source
//! (DESIGN §7, §11). Both are brought to one spelling first, so that no
//! other spelling of the same repository slips past a policy:
//! `github:NVIDIA/skills`, `git+https://GitHub.com/nvidia/skills.git/`,
//! `git@github.com:NVIDIA/skills` and `ssh://git@github.com/NVIDIA/skills`
//! are all the repository a policy on `https://github.com/NVIDIA/skills`
//! names.
//!
//! The spelling: an org of an index stays an org; a repository or URL
//! becomes its host (lower-cased, without user, port or scheme: every
//! transport reaches the same repository) and its path segments
//! (percent-decoded, `.` and `..` resolved, a trailing `.git` dropped from
//! the repository's name; lower-cased on hosts whose paths ignore case);
//! an OCI reference (`oci://HOST/REPO:TAG`, `…@sha256:…`) becomes the
//! location of its repository, without the tag or digest (a policy is on
//! a repository, whatever version of it);
//! a folder on this machine becomes its canonical path. A policy covers a
//! source when they are the same org, or the policy's host is the
//! source's and its segments begin the source's, whole segment by whole
//! segment (`NVIDIA/skills` covers `NVIDIA/skills/skills/x`, never
//! `NVIDIA/skills-evil`), or the source's folder lies in the policy's.
//! Where a rule could go either way, it errs towards the policy applying.

use std::path::{Path, PathBuf};

/// Hosts whose repository paths ignore case.
const CASE_INSENSITIVE_HOSTS: [&str; 4] =
    ["github.com", "gitlab.com", "bitbucket.org", "codeberg.org"];

/// A source in the one spelling policies and installs are compared in.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) enum CanonicalSource {
    /// An org of an index (`nvidia`): its packages, from any index.
    Org(String),
    /// A place on a server: host and path segments.
    Location {
        /// The host, lower-cased.
        host: String,
        /// The path, segment by segment.
        segments: Vec<String>,
    },
    /// A folder on this machine, canonical.
    Folder(PathBuf),
}

impl CanonicalSource {
    /// A folder on this machine (relative to `cwd`), canonical.
    pub(crate) fn folder(path: &Path, cwd: &Path) -> CanonicalSource {
        CanonicalSource::Folder(folder(path, cwd))
    }

    /// The folder `subdir` (a `/`-separated path) inside this source.
    pub(crate) fn within(mut self, subdir: &str) -> CanonicalSource {
        match &mut self {
            CanonicalSource::Location { host, segments } => {
                let fold_case = CASE_INSENSITIVE_HOSTS.contains(&host.as_str());
                push_segments(segments, subdir, fold_case);
            }
            CanonicalSource::Folder(path) => {
                *path = crate::fsutil::lexically_normal(&path.join(subdir));
            }
            CanonicalSource::Org(_) => {}
        }
        self
    }

    /// Whether a policy on `self` covers `source`.
    pub(crate) fn covers(&self, source: &CanonicalSource) -> bool {
        match (self, source) {
            (CanonicalSource::Org(a), CanonicalSource::Org(b)) => a == b,
            (
                CanonicalSource::Location { host, segments },
                CanonicalSource::Location {
                    host: other_host,
                    segments: other_segments,
                },
            ) => host == other_host && other_segments.starts_with(segments),
            (CanonicalSource::Folder(a), CanonicalSource::Folder(b)) => b.starts_with(a),
            _ => false,
        }
    }
}

/// The canonical spelling of `text`, a source as `trust SOURCE` or `add`
/// takes it: an org, a URL (`https://`, `git+…`, `ssh://`, `git://`,
/// `file://`, `oci://`), scp-like `user@host:path`, a `github:`/`gitlab:`
/// short form, or a path (relative to `cwd`).
pub(crate) fn canonical(text: &str, cwd: &Path) -> Result<CanonicalSource, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("a source cannot be empty".to_string());
    }
    if let Some(short) = super::shorthand::expand(text) {
        let short = short?;
        let mut source = canonical(&short.url, cwd)?;
        if let (CanonicalSource::Location { segments, .. }, Some(subdir)) =
            (&mut source, short.subdir)
        {
            push_segments(segments, &subdir, false);
        }
        return Ok(source);
    }
    let text = text.strip_prefix("git+").unwrap_or(text);
    if let Some(path) = text.strip_prefix("file://") {
        let path = path.strip_prefix("localhost").unwrap_or(path);
        let decoded = String::from_utf8_lossy(&crate::net::percent_decode_bytes(path)).into_owned();
        return Ok(CanonicalSource::Folder(folder(Path::new(&decoded), cwd)));
    }
    if let Some(reference) = text.strip_prefix("oci://") {
        return Ok(location(super::oci_ref::split_reference(reference).0));
    }
    if let Some((scheme, rest)) = text.split_once("://") {
        if scheme.is_empty()
            || !scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        {
            return Err(format!("'{text}' is not a URL a source can have"));
        }
        return Ok(location(rest));
    }
    if let Some((authority, path)) = scp_like(text) {
        return Ok(location(&format!("{authority}/{path}")));
    }
    let is_org = !text.contains(['/', '\\', ':'])
        && !text.starts_with('.')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if is_org {
        return Ok(CanonicalSource::Org(text.to_ascii_lowercase()));
    }
    Ok(CanonicalSource::Folder(folder(Path::new(text), cwd)))
}

/// `user@host:path` or `host.tld:path`, as git reads scp-like URLs: the
/// authority and the path. Not `C:\…`, not `./x:y`, not `o/r:x`.
fn scp_like(text: &str) -> Option<(&str, &str)> {
    let (authority, path) = text.split_once(':')?;
    let host = authority.rsplit('@').next()?;
    let hostlike = authority.contains('@') || host.contains('.') || host == "localhost";
    (!authority.contains('/') && authority.len() > 1 && hostlike).then_some((authority, path))
}

/// `authority/path…` (after a scheme) as a location: the host without
/// user or port, the path's segments.
fn location(rest: &str) -> CanonicalSource {
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host_and_port = authority.rsplit('@').next().unwrap_or(authority);
    let host = match host_and_port.strip_prefix('[') {
        // [v6]:port
        Some(v6) => v6.split(']').next().unwrap_or(v6).to_string(),
        None => host_and_port
            .split(':')
            .next()
            .unwrap_or(host_and_port)
            .to_string(),
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let mut segments = Vec::new();
    let fold_case = CASE_INSENSITIVE_HOSTS.contains(&host.as_str());
    push_segments(&mut segments, path, fold_case);
    // `repo.git` and `repo` are one repository.
    if let Some(last) = segments.last_mut()
        && let Some(name) = last.strip_suffix(".git")
        && !name.is_empty()
    {
        *last = name.to_string();
    }
    CanonicalSource::Location { host, segments }
}

/// Appends the segments of `path` to `segments`: percent-decoded, empty
/// and `.` segments dropped, `..` taking one back.
fn push_segments(segments: &mut Vec<String>, path: &str, fold_case: bool) {
    for raw in path.split('/') {
        let decoded = String::from_utf8_lossy(&crate::net::percent_decode_bytes(raw)).into_owned();
        match decoded.as_str() {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            segment if fold_case => segments.push(segment.to_lowercase()),
            segment => segments.push(segment.to_string()),
        }
    }
}

/// `path` (relative to `cwd`) as a canonical folder where it exists, else
/// made absolute with `.` and `..` resolved by name.
fn folder(path: &Path, cwd: &Path) -> PathBuf {
    let joined = cwd.join(path);
    if let Ok(canonical) = joined.canonicalize() {
        return canonical;
    }
    crate::fsutil::lexically_normal(&joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> CanonicalSource {
        canonical(text, Path::new("/work/project")).unwrap()
    }

    #[test]
    fn every_spelling_of_one_repository_is_covered_by_a_policy_on_it() {
        let policy = of("https://github.com/NVIDIA/skills");
        for spelling in [
            "https://github.com/NVIDIA/skills",
            "github:NVIDIA/skills",
            "github:nvidia/skills/skills/cuda@v1",
            "https://github.com/nvidia/skills.git",
            "git+https://GitHub.com/NVIDIA/skills/",
            "git+https://github.com./NVIDIA/skills",
            "https://user:token@github.com:443/NVIDIA/skills?tab=readme#top",
            "git@github.com:NVIDIA/skills.git",
            "ssh://git@github.com/NVIDIA/skills",
            "git://github.com/NVIDIA/skills",
            "http://github.com/NVIDIA//skills/./x",
            "https://github.com/NVIDIA/%73kills",
            "https://github.com/NVIDIA/other/../skills/x",
        ] {
            assert!(
                policy.covers(&of(spelling)),
                "{spelling}: {:?}",
                of(spelling)
            );
        }
    }

    #[test]
    fn a_policy_covers_whole_segments_on_its_own_host_only() {
        let policy = of("github:NVIDIA/skills");
        for other in [
            "https://github.com/NVIDIA/skills-evil",
            "https://github.com/NVIDIA",
            "https://github.com/NVIDIA/skillsx/x",
            "https://github.com.evil.example/NVIDIA/skills",
            "https://evil.example/github.com/NVIDIA/skills",
            "https://gitlab.com/NVIDIA/skills",
            "nvidia",
            "file:///srv/NVIDIA/skills",
        ] {
            assert!(!policy.covers(&of(other)), "{other}: {:?}", of(other));
        }
        // Paths keep their case where the host does not say otherwise.
        let policy = of("https://git.example.com/Team/skills");
        assert!(!policy.covers(&of("https://git.example.com/team/skills")));
        assert!(policy.covers(&of("git+ssh://git@GIT.example.com/Team/skills.git")));
    }

    #[test]
    fn orgs_and_folders_match_as_themselves() {
        assert!(of("nvidia").covers(&of("NVIDIA")));
        assert!(!of("nvidia").covers(&of("nvidia-labs")));
        let policy = of("/srv/skills");
        assert!(policy.covers(&of("file:///srv/skills/pdf")));
        assert!(policy.covers(&of("/srv/./skills/../skills/pdf")));
        assert!(!policy.covers(&of("/srv/skills-evil")));
        assert_eq!(
            of("../shared"),
            CanonicalSource::Folder(PathBuf::from("/work/shared"))
        );
    }

    #[test]
    fn oci_references_are_their_repositories() {
        let policy = of("oci://registry.example.com:5000/skills");
        for covered in [
            "oci://registry.example.com/skills/pdf",
            "oci://Registry.example.com:5000/skills/pdf:1.0.0",
            "oci://registry.example.com/skills/pdf@sha256:0123",
            "oci://registry.example.com:5000/skills:latest",
        ] {
            assert!(policy.covers(&of(covered)), "{covered}: {:?}", of(covered));
        }
        assert!(!policy.covers(&of("oci://registry.example.com/skills-evil/pdf")));
        assert!(
            of("oci://registry.example.com:5000/skills/pdf:1")
                .covers(&of("oci://registry.example.com/skills/pdf"))
        );
        assert_eq!(of("oci://localhost:5000"), of("oci://localhost"));
    }

    #[test]
    fn what_is_no_source_is_refused() {
        assert!(canonical("", Path::new("/")).is_err());
        assert!(canonical("github:", Path::new("/")).is_err());
        assert!(canonical("://x", Path::new("/")).is_err());
    }
}
