//! What an OCI reference names: a registry (`HOST[:PORT]`), a repository
//! in it, and a tag or a digest, in the grammar of the OCI distribution
//! specification. Pure: nothing here reads the network.
//!
//! `skills.toml` keeps the repository as `HOST/REPO` (`oci = "…"`) and
//! the tag or digest beside it; `add` takes `oci://HOST/REPO:TAG` or
//! `oci://HOST/REPO@sha256:…`. A registry host is always given: there is
//! no default registry to expand `library/x` against.

use std::fmt;

/// What an OCI reference pins: a tag (which may move) or a manifest
/// digest (which cannot).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OciPin {
    /// A tag, `[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}`.
    Tag(String),
    /// A digest, `sha256:` and 64 lower-case hex digits.
    Digest(String),
}

/// A repository of a registry, with a tag or digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OciReference {
    /// `HOST[:PORT]/REPO`, as skills.toml records it.
    pub(crate) repository: String,
    /// The tag or digest.
    pub(crate) pin: OciPin,
}

impl OciPin {
    /// The tag, when it is one.
    pub fn tag(&self) -> Option<&str> {
        match self {
            OciPin::Tag(tag) => Some(tag),
            OciPin::Digest(_) => None,
        }
    }
}

impl fmt::Display for OciReference {
    /// `HOST/REPO:TAG` or `HOST/REPO@sha256:…`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.pin {
            OciPin::Tag(tag) => write!(f, "{}:{tag}", self.repository),
            OciPin::Digest(digest) => write!(f, "{}@{digest}", self.repository),
        }
    }
}

/// What `add` reads after `oci://`: `HOST/REPO:TAG` or
/// `HOST/REPO@sha256:…`; the error says what is wrong, quoting `text`.
pub(crate) fn parse_reference(text: &str) -> Result<OciReference, String> {
    let shown = format!("oci://{text}");
    let (repository, tag, digest) = split_reference(text);
    check_repository(repository).map_err(|problem| format!("'{shown}': {problem}"))?;
    let pin = match (tag, digest) {
        (Some(_), Some(_)) => {
            return Err(format!(
                "'{shown}' names a tag and a digest: give one (the digest, to pin the artifact)"
            ));
        }
        (Some(tag), None) => OciPin::Tag(tag.to_string()),
        (None, Some(digest)) => OciPin::Digest(digest.to_string()),
        (None, None) => {
            return Err(format!(
                "'{shown}' names no tag or digest: add :TAG (oci://{repository}:1.0.0) or @sha256:… (a digest)"
            ));
        }
    };
    check_pin(&pin).map_err(|problem| format!("'{shown}': {problem}"))?;
    Ok(OciReference {
        repository: repository.to_string(),
        pin,
    })
}

/// `HOST/REPO:TAG@DIGEST` taken apart, unchecked: the repository, the
/// tag (after a `:` that follows the repository's first `/`), the digest
/// (after `@`).
pub(crate) fn split_reference(text: &str) -> (&str, Option<&str>, Option<&str>) {
    let (rest, digest) = match text.split_once('@') {
        Some((rest, digest)) => (rest, Some(digest)),
        None => (text, None),
    };
    match rest.rfind('/') {
        Some(last_slash) => match rest[last_slash..].rfind(':') {
            Some(colon) => (
                &rest[..last_slash + colon],
                Some(&rest[last_slash + colon + 1..]),
                digest,
            ),
            None => (rest, None, digest),
        },
        None => (rest, None, digest),
    }
}

/// Checks `HOST[:PORT]/REPO`: a host name or IP address (IPv6 in
/// brackets) with an optional port, then path components of lower-case
/// letters and digits joined by `.`, `_`, `__` or dashes.
pub(crate) fn check_repository(text: &str) -> Result<(), String> {
    let Some((registry, path)) = text.split_once('/') else {
        return Err(format!(
            "'{text}' names no repository: write HOST/REPOSITORY (registry.example.com/skills/pdf)"
        ));
    };
    check_registry(registry)?;
    if path.len() > 255 {
        return Err(format!(
            "the repository name '{path}' is longer than 255 characters"
        ));
    }
    for component in path.split('/') {
        if !is_path_component(component) {
            return Err(format!(
                "'{component}' is no repository name component: lower-case letters and digits, joined by '.', '_', '__' or '-'"
            ));
        }
    }
    Ok(())
}

/// The registry part of `HOST[:PORT]/REPO`.
pub(crate) fn registry_of(repository: &str) -> &str {
    repository.split_once('/').map_or(repository, |(r, _)| r)
}

/// The repository part of `HOST[:PORT]/REPO`, without the registry.
pub(crate) fn path_of(repository: &str) -> &str {
    repository.split_once('/').map_or("", |(_, p)| p)
}

/// `HOST[:PORT]`: a DNS name or IPv4 address, or an IPv6 address in
/// brackets, and a port of digits.
fn check_registry(registry: &str) -> Result<(), String> {
    let wrong = || format!("'{registry}' is no registry host: write HOST or HOST:PORT");
    let (host, port) = match registry.strip_prefix('[') {
        Some(v6) => {
            let (address, rest) = v6.split_once(']').ok_or_else(wrong)?;
            address.parse::<std::net::Ipv6Addr>().map_err(|_| wrong())?;
            match rest {
                "" => ("", None),
                rest => ("", Some(rest.strip_prefix(':').ok_or_else(wrong)?)),
            }
        }
        None => match registry.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (registry, None),
        },
    };
    let host_ok = registry.starts_with('[')
        || (!host.is_empty()
            && host.split('.').all(|label| {
                !label.is_empty()
                    && label.len() <= 63
                    && label
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                    && !label.starts_with('-')
                    && !label.ends_with('-')
            }));
    let port_ok = port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.parse::<u16>().is_ok());
    match host_ok && port_ok {
        true => Ok(()),
        false => Err(wrong()),
    }
}

/// `[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*`.
fn is_path_component(component: &str) -> bool {
    let bytes = component.as_bytes();
    let alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    if bytes.is_empty() || !alnum(bytes[0]) || !alnum(bytes[bytes.len() - 1]) {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        if alnum(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && !alnum(bytes[i]) {
            i += 1;
        }
        let separator = &component[start..i];
        let dashes = separator.bytes().all(|b| b == b'-');
        if !(separator == "." || separator == "_" || separator == "__" || dashes) {
            return false;
        }
    }
    true
}

/// Checks a tag (`[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}`) or a digest
/// (`sha256:` and 64 lower-case hex digits; other algorithms are not
/// read).
pub(crate) fn check_pin(pin: &OciPin) -> Result<(), String> {
    match pin {
        OciPin::Tag(tag) => {
            let ok = (1..=128).contains(&tag.len())
                && tag.chars().enumerate().all(|(i, c)| {
                    c.is_ascii_alphanumeric() || c == '_' || (i > 0 && (c == '.' || c == '-'))
                });
            match ok {
                true => Ok(()),
                false => Err(format!(
                    "'{tag}' is no tag: up to 128 letters, digits, '_', '.' and '-', not starting with '.' or '-'"
                )),
            }
        }
        OciPin::Digest(digest) => match is_sha256_digest(digest) {
            true => Ok(()),
            false => Err(format!(
                "'{digest}' is no digest skillpkg reads: write sha256: and 64 lower-case hex digits"
            )),
        },
    }
}

/// Whether `text` is `sha256:` and 64 lower-case hex digits.
pub(crate) fn is_sha256_digest(text: &str) -> bool {
    text.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIGEST: &str = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn references_name_a_repository_and_a_tag_or_digest() {
        let tagged = parse_reference("127.0.0.1:5000/skills/pdf:1.0.0").unwrap();
        assert_eq!(tagged.repository, "127.0.0.1:5000/skills/pdf");
        assert_eq!(tagged.pin, OciPin::Tag("1.0.0".into()));
        assert_eq!(tagged.to_string(), "127.0.0.1:5000/skills/pdf:1.0.0");
        let pinned = parse_reference(&format!("ghcr.io/acme/pdf@{DIGEST}")).unwrap();
        assert_eq!(pinned.pin, OciPin::Digest(DIGEST.into()));
        assert_eq!(pinned.to_string(), format!("ghcr.io/acme/pdf@{DIGEST}"));
        let v6 = parse_reference("[::1]:5000/a.b/c__d/e--f:latest").unwrap();
        assert_eq!(registry_of(&v6.repository), "[::1]:5000");
        assert_eq!(path_of(&v6.repository), "a.b/c__d/e--f");
    }

    #[test]
    fn references_outside_the_grammar_are_refused_quoting_them() {
        for (text, expected) in [
            ("host/pdf", "names no tag or digest"),
            (&format!("host/pdf:1@{DIGEST}"), "a tag and a digest"),
            ("pdf:1.0", "names no repository"),
            ("host/PDF:1", "no repository name component"),
            ("host/a..b:1", "no repository name component"),
            ("host/a/../b:1", "no repository name component"),
            ("host/-a:1", "no repository name component"),
            ("host/a:.1", "is no tag"),
            ("host/a:", "is no tag"),
            ("host/a@sha256:abc", "is no digest"),
            ("host/a@sha512:abc", "is no digest"),
            ("ho_st/a:1", "no registry host"),
            ("host:99999/a:1", "no registry host"),
            ("[::1/a:1", "no registry host"),
            ("user@host/a:1", "names no repository"),
        ] {
            let error = parse_reference(text).unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
            assert!(
                error.contains("oci://"),
                "{text}: the error quotes the reference: {error}"
            );
        }
    }
}
