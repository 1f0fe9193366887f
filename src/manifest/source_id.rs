//! Where a locked skill came from, as `skills.lock` records it in
//! `source`: `registry+<index>`, `path+<dir>`,
//! `git+<url>[?rev=…&subdir=…]#<commit>` or
//! `oci+<host>/<repository>[?tag=…&skill=…]#sha256:<manifest digest>` or
//! `well-known+<site>?skill=…[#sha256:<artifact digest>]`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A locked skill's origin. Its text form is what `skills.lock` holds;
/// any other text is an error when the lock is read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum SourceId {
    /// A package from an index, named as the manifest names it (`builtin`
    /// for the embedded sample index).
    Registry {
        /// The index's label.
        index: String,
    },
    /// A skill from a folder, relative to the project (or absolute).
    Path {
        /// The folder.
        path: String,
    },
    /// A skill from a git repository, pinned to a commit.
    Git {
        /// Where the repository is, and what the manifest asked for.
        origin: GitOrigin,
        /// The commit installed.
        commit: String,
    },
    /// A skill from an OCI registry, pinned to a manifest digest.
    Oci {
        /// The repository, and the tag the manifest asked for.
        origin: OciOrigin,
        /// `sha256:<hex>` of the manifest (or image index) installed.
        digest: String,
    },
    /// A skill a site's Agent Skills discovery index lists, pinned to the
    /// digest of the artifact installed (none for an entry of the older
    /// form, whose files come one by one: its `tree` pins it).
    WellKnown {
        /// The site and the skill.
        origin: WellKnownOrigin,
        /// `sha256:<hex>` of the `SKILL.md` or archive installed.
        digest: Option<String>,
    },
}

/// A `well-known` dependency as the manifest gives it: the site (as
/// [`super::well_known_ref::parse_site`] writes it) and the skill's name
/// in its index.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WellKnownOrigin {
    /// The site, or its index's URL.
    pub site: String,
    /// The skill.
    pub skill: String,
}

impl fmt::Display for WellKnownOrigin {
    /// `well-known+<site>?skill=<skill>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "well-known+{}?skill={}", self.site, self.skill)
    }
}

/// An OCI dependency as the manifest gives it: `HOST/REPO`, the tag
/// (none when the manifest pins a digest: the lock's is that one), and
/// the skill taken from a collection.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OciOrigin {
    /// `HOST[:PORT]/REPO`.
    pub repository: String,
    /// The tag asked for.
    pub tag: Option<String>,
    /// The skill of a collection.
    pub skill: Option<String>,
}

impl fmt::Display for OciOrigin {
    /// `oci+<host>/<repository>`, with `?tag=…&skill=…` when the manifest
    /// gives them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "oci+{}", self.repository)?;
        write_query(f, [("tag", &self.tag), ("skill", &self.skill)])
    }
}

/// `?key=value&…` of the `pairs` that have a value; nothing when none has.
fn write_query(f: &mut fmt::Formatter<'_>, pairs: [(&str, &Option<String>); 2]) -> fmt::Result {
    let query: Vec<String> = pairs
        .into_iter()
        .filter_map(|(key, value)| Some(format!("{key}={}", value.as_ref()?)))
        .collect();
    match query.is_empty() {
        true => Ok(()),
        false => write!(f, "?{}", query.join("&")),
    }
}

/// A git dependency as the manifest gives it: repository, revision, folder.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GitOrigin {
    /// The repository URL (without a `git+` prefix).
    pub url: String,
    /// The branch, tag or commit asked for.
    pub rev: Option<String>,
    /// The skill's folder inside the repository.
    pub subdir: Option<String>,
}

impl GitOrigin {
    /// The origin of `url` (a leading `git+` is dropped).
    pub fn new(url: &str, rev: Option<&str>, subdir: Option<&str>) -> GitOrigin {
        GitOrigin {
            url: url.strip_prefix("git+").unwrap_or(url).to_string(),
            rev: rev.map(str::to_string),
            subdir: subdir.map(str::to_string),
        }
    }
}

impl fmt::Display for GitOrigin {
    /// `git+<url>`, with `?rev=…&subdir=…` when the manifest gives them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "git+{}", self.url)?;
        write_query(f, [("rev", &self.rev), ("subdir", &self.subdir)])
    }
}

impl SourceId {
    /// A package from the index labelled `index`.
    pub fn registry(index: &str) -> SourceId {
        SourceId::Registry {
            index: index.to_string(),
        }
    }

    /// The index label of a registry package.
    pub(crate) fn registry_index(&self) -> Option<&str> {
        match self {
            SourceId::Registry { index } => Some(index),
            _ => None,
        }
    }

    /// The commit of a git source.
    pub(crate) fn git_commit(&self) -> Option<&str> {
        match self {
            SourceId::Git { commit, .. } => Some(commit),
            _ => None,
        }
    }

    /// The manifest digest of an OCI source.
    pub(crate) fn oci_digest(&self) -> Option<&str> {
        match self {
            SourceId::Oci { digest, .. } => Some(digest),
            _ => None,
        }
    }

    /// The artifact digest of a `well-known` source, when it has one.
    pub(crate) fn well_known_digest(&self) -> Option<&str> {
        match self {
            SourceId::WellKnown { digest, .. } => digest.as_deref(),
            _ => None,
        }
    }
}

impl fmt::Display for SourceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceId::Registry { index } => write!(f, "registry+{index}"),
            SourceId::Path { path } => write!(f, "path+{path}"),
            SourceId::Git { origin, commit } => write!(f, "{origin}#{commit}"),
            SourceId::Oci { origin, digest } => write!(f, "{origin}#{digest}"),
            SourceId::WellKnown {
                origin,
                digest: Some(digest),
            } => write!(f, "{origin}#{digest}"),
            SourceId::WellKnown {
                origin,
                digest: None,
            } => write!(f, "{origin}"),
        }
    }
}

/// Why a `source` could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InvalidSource {
    /// No kind of source reads this text.
    #[error(
        "unknown source '{0}': a source is registry+<index>, path+<dir>, git+<url>[?rev=…&subdir=…]#<commit>, oci+<host>/<repository>[?tag=…]#sha256:<digest> or well-known+<site>?skill=<name>[#sha256:<digest>]"
    )]
    Unknown(String),
    /// A path source written with `\`: the lock writes paths with `/` on
    /// every platform, so that one lock serves Windows and Unix alike.
    #[error(
        "the path source '{0}' is written with '\\': skills.lock writes paths with '/' on every platform (Windows reads them too): write it '{1}'"
    )]
    Backslash(String, String),
}

impl FromStr for SourceId {
    type Err = InvalidSource;

    fn from_str(text: &str) -> Result<SourceId, InvalidSource> {
        let invalid = || InvalidSource::Unknown(text.to_string());
        if let Some(index) = text.strip_prefix("registry+") {
            return match index.is_empty() {
                true => Err(invalid()),
                false => Ok(SourceId::registry(index)),
            };
        }
        if let Some(path) = text.strip_prefix("path+") {
            if path.contains('\\') {
                let fixed = format!("path+{}", path.replace('\\', "/"));
                return Err(InvalidSource::Backslash(text.to_string(), fixed));
            }
            return match path.is_empty() {
                true => Err(invalid()),
                false => Ok(SourceId::Path {
                    path: path.to_string(),
                }),
            };
        }
        if let Some(rest) = text.strip_prefix("oci+") {
            return parse_oci(rest).ok_or_else(invalid);
        }
        if let Some(rest) = text.strip_prefix("well-known+") {
            return parse_well_known(rest).ok_or_else(invalid);
        }
        let rest = text.strip_prefix("git+").ok_or_else(invalid)?;
        let (base, commit) = rest.rsplit_once('#').ok_or_else(invalid)?;
        if commit.is_empty() || !commit.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(invalid());
        }
        let (url, query) = match base.split_once('?') {
            Some((url, query)) => (url, Some(query)),
            None => (base, None),
        };
        let mut origin = GitOrigin::new(url, None, None);
        for pair in query.into_iter().flat_map(|q| q.split('&')) {
            match pair.split_once('=') {
                Some(("rev", rev)) => origin.rev = Some(rev.to_string()),
                Some(("subdir", subdir)) => origin.subdir = Some(subdir.to_string()),
                _ => return Err(invalid()),
            }
        }
        if origin.url.is_empty() {
            return Err(invalid());
        }
        Ok(SourceId::Git {
            origin,
            commit: commit.to_string(),
        })
    }
}

/// An OCI source after `oci+`; `None` when it is no valid one.
fn parse_oci(rest: &str) -> Option<SourceId> {
    use super::oci_ref::{OciPin, check_pin, check_repository, is_sha256_digest};
    let (base, digest) = rest.rsplit_once('#')?;
    let (repository, query) = match base.split_once('?') {
        Some((repository, query)) => (repository, Some(query)),
        None => (base, None),
    };
    check_repository(repository).ok()?;
    let mut origin = OciOrigin {
        repository: repository.to_string(),
        tag: None,
        skill: None,
    };
    for pair in query.into_iter().flat_map(|q| q.split('&')) {
        match pair.split_once('=')? {
            ("tag", tag) if check_pin(&OciPin::Tag(tag.to_string())).is_ok() => {
                origin.tag = Some(tag.to_string());
            }
            ("skill", skill) if crate::skill::name::is_safe_folder_name(skill) => {
                origin.skill = Some(skill.to_string());
            }
            _ => return None,
        }
    }
    is_sha256_digest(digest).then(|| SourceId::Oci {
        origin,
        digest: digest.to_string(),
    })
}

/// A `well-known` source after `well-known+`; `None` when it is no valid
/// one: the site as `add` writes it, exactly one `skill=` of a valid
/// name, and a sha256 digest if any.
fn parse_well_known(rest: &str) -> Option<SourceId> {
    let (base, digest) = match rest.rsplit_once('#') {
        Some((base, digest)) => (base, Some(digest)),
        None => (rest, None),
    };
    let (site, skill) = base.split_once("?skill=")?;
    if !super::well_known_ref::is_site(site) || !crate::skill::name::is_valid_name(skill) {
        return None;
    }
    if digest.is_some_and(|d| !super::oci_ref::is_sha256_digest(d)) {
        return None;
    }
    Some(SourceId::WellKnown {
        origin: WellKnownOrigin {
            site: site.to_string(),
            skill: skill.to_string(),
        },
        digest: digest.map(str::to_string),
    })
}

impl TryFrom<String> for SourceId {
    type Error = InvalidSource;

    fn try_from(text: String) -> Result<SourceId, InvalidSource> {
        text.parse()
    }
}

impl From<SourceId> for String {
    fn from(source: SourceId) -> String {
        source.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIGEST: &str = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn sources_round_trip_through_their_text() {
        for text in [
            "registry+builtin",
            "registry+https://skills.example.com/index/",
            "path+tools/helper",
            "git+https://example.com/s.git#0123abcd",
            "git+file:///tmp/r?rev=v1&subdir=skills/lint#89ef",
            "git+https://h/s.git?subdir=lint#89ef",
            &format!("oci+127.0.0.1:5000/skills/pdf?tag=1.0.0#{DIGEST}"),
            &format!("oci+ghcr.io/acme/pdf#{DIGEST}"),
            &format!("oci+ghcr.io/acme/skills?tag=v2&skill=pdf#{DIGEST}"),
            &format!("well-known+https://example.com?skill=pdf#{DIGEST}"),
            "well-known+http://127.0.0.1:8080/docs?skill=pdf",
        ] {
            let source: SourceId = text.parse().unwrap();
            assert_eq!(source.to_string(), text);
        }
    }

    #[test]
    fn git_origins_name_url_rev_and_subdir() {
        assert_eq!(
            GitOrigin::new("https://example.com/s.git", None, None).to_string(),
            "git+https://example.com/s.git"
        );
        assert_eq!(
            GitOrigin::new("git+https://example.com/s.git", Some("v1"), Some("lint")).to_string(),
            "git+https://example.com/s.git?rev=v1&subdir=lint"
        );
    }

    #[test]
    fn other_sources_are_refused() {
        for text in [
            "",
            "registry+",
            "path+",
            "http://x",
            "git+https://h/s.git",
            "git+https://h/s.git#",
            "git+https://h/s.git#not-hex",
            "git+https://h/s.git?branch=x#abc",
            "git+#abc",
            "oci+ghcr.io/acme/pdf",
            "oci+ghcr.io/acme/pdf#sha256:abc",
            &format!("oci+ghcr.io/acme/pdf?rev=1#{DIGEST}"),
            &format!("oci+ghcr.io/acme/PDF?tag=1#{DIGEST}"),
            &format!("oci+ghcr.io/acme/pdf?tag=.1#{DIGEST}"),
            "well-known+https://example.com",
            "well-known+https://example.com/?skill=pdf",
            "well-known+http://example.com?skill=pdf",
            "well-known+https://example.com?skill=PDF",
            "well-known+https://example.com?skill=pdf#sha256:abc",
            "well-known+https://example.com?skill=pdf&x=1",
        ] {
            assert!(text.parse::<SourceId>().is_err(), "{text}");
        }
    }

    #[test]
    fn a_path_source_written_with_backslashes_is_refused_naming_the_slashed_one() {
        let error = r"path+tools\helper".parse::<SourceId>().unwrap_err();
        assert!(
            matches!(&error, InvalidSource::Backslash(_, fixed) if fixed == "path+tools/helper"),
            "{error}"
        );
        assert!(
            error
                .to_string()
                .contains(r"'path+tools\helper' is written with '\'")
        );
    }
}
