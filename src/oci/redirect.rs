//! Which redirects a registry's answers may take skillpkg to. Redirects
//! are followed by hand ([`crate::net::Redirects::None`]), each judged
//! here before it is followed:
//!
//! - a blob may move to another host over HTTPS (registries hand blobs
//!   to a CDN); what comes back is checked against the descriptor's
//!   digest and size wherever it came from, and no `Authorization` header
//!   goes with it (the client sends credentials to the registry's origin
//!   only);
//! - a manifest, tag list or token may move within its own origin only;
//! - nothing moves to plain HTTP, except within one origin (a registry
//!   already spoken to over HTTP) or from a registry on this machine to
//!   this machine;
//! - a registry elsewhere may not send skillpkg to this machine or to a
//!   private network (169.254.169.254 answers clouds' metadata requests).
//!   Only addresses are judged: a name that resolves to one is not.

use reqwest::Url;

use crate::net::{Origin, is_loopback, is_private};

/// What a request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Asked {
    /// A manifest or an image index.
    Manifest,
    /// A repository's tag list.
    Tags,
    /// A token, of the realm a registry's challenge names.
    Token,
    /// A blob (a layer or a config), checked against its digest.
    Blob,
}

/// Whether a request for `asked`, sent to `from` on behalf of the
/// registry at `registry` (`home`: the origin the request was first sent
/// to), may follow a redirect to `to`; the error says why not.
pub(crate) fn check(
    asked: Asked,
    registry: &Origin,
    home: &Origin,
    from: &Url,
    to: &Url,
) -> Result<(), String> {
    let to_origin =
        Origin::of(to.as_str()).ok_or_else(|| format!("{to} is no URL skillpkg follows"))?;
    let from_origin = Origin::of(from.as_str());
    let same_origin = from_origin.as_ref() == Some(&to_origin);
    match to.scheme() {
        "https" => {}
        "http" if same_origin => {}
        "http" if is_loopback(registry.host()) && is_loopback(to_origin.host()) => {}
        "http" => return Err(format!("it leads to plain HTTP ({to})")),
        other => return Err(format!("it leads to a {other}: URL ({to})")),
    }
    if asked != Asked::Blob && to_origin != *home {
        return Err(format!(
            "it leads to another host ({}), and only blobs may move",
            to_origin.authority()
        ));
    }
    if !is_private(registry.host()) && is_private(to_origin.host()) {
        return Err(format!(
            "a registry on the internet sends skillpkg to {}, an address of this machine or a private network",
            to_origin.authority()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(asked: Asked, registry: &str, from: &str, to: &str) -> Result<(), String> {
        let registry = Origin::of(registry).unwrap();
        let from = Url::parse(from).unwrap();
        let home = Origin::of(from.as_str()).unwrap();
        check(asked, &registry, &home, &from, &Url::parse(to).unwrap())
    }

    #[test]
    fn blobs_may_move_to_a_cdn_over_https_and_nothing_else_moves_away() {
        let ghcr = "https://ghcr.io";
        let blob = "https://ghcr.io/v2/a/blobs/sha256:1";
        assert_eq!(
            judge(Asked::Blob, ghcr, blob, "https://cdn.example.net/x?sig=1"),
            Ok(())
        );
        assert_eq!(
            judge(Asked::Manifest, ghcr, blob, "https://ghcr.io/v2/other"),
            Ok(())
        );
        for asked in [Asked::Manifest, Asked::Tags, Asked::Token] {
            let refused = judge(asked, ghcr, blob, "https://cdn.example.net/x").unwrap_err();
            assert!(refused.contains("another host"), "{refused}");
        }
        for (to, why) in [
            ("http://cdn.example.net/x", "plain HTTP"),
            ("http://ghcr.io/x", "plain HTTP"),
            ("ftp://cdn.example.net/x", "ftp:"),
            ("https://127.0.0.1/x", "private network"),
            (
                "https://169.254.169.254/latest/meta-data",
                "private network",
            ),
            ("https://[::1]/x", "private network"),
            ("https://10.1.2.3/x", "private network"),
        ] {
            let refused = judge(Asked::Blob, ghcr, blob, to).unwrap_err();
            assert!(refused.contains(why), "{to}: {refused}");
        }
    }

    #[test]
    fn registries_on_this_machine_may_use_plain_http_on_this_machine() {
        let local = "http://127.0.0.1:5000";
        let blob = "http://127.0.0.1:5000/v2/a/blobs/sha256:1";
        assert_eq!(
            judge(Asked::Blob, local, blob, "http://127.0.0.1:6000/x"),
            Ok(())
        );
        assert_eq!(
            judge(Asked::Blob, local, blob, "http://localhost:6000/x"),
            Ok(())
        );
        assert!(judge(Asked::Blob, local, blob, "http://cdn.example.net/x").is_err());
        assert!(judge(Asked::Manifest, local, blob, "http://127.0.0.1:6000/x").is_err());
        // An --insecure-registry host keeps to its own origin over HTTP.
        let insecure = "http://registry.internal:5000";
        let from = "http://registry.internal:5000/v2/a/manifests/1";
        assert_eq!(
            judge(
                Asked::Manifest,
                insecure,
                from,
                "http://registry.internal:5000/v2/b"
            ),
            Ok(())
        );
        assert!(judge(Asked::Blob, insecure, from, "http://cdn.internal/x").is_err());
    }
}
