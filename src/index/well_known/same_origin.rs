//! Where an index may send skillpkg: the URL of each artifact (a
//! `SKILL.md`, an archive, a file of an older entry), resolved against
//! the index's URL as RFC 3986 says, must stay on the index's own origin.
//! The site is untrusted (DESIGN §11): an entry may not turn an install
//! into a request elsewhere, nor down to plain HTTP, nor, from a site on
//! the internet, to this machine or a private network (169.254.169.254
//! answers clouds' metadata requests). Only addresses are judged: a name
//! that resolves to one is not.

use reqwest::Url;

use crate::net::{Origin, is_private};

/// Whether the artifact at `to` may be fetched for the index at `index`;
/// the error says why not, naming `to`.
pub(crate) fn check_artifact(index: &Url, to: &Url) -> Result<(), String> {
    match to.scheme() {
        "https" | "http" => {}
        other => return Err(format!("it is a {other}: URL ({to})")),
    }
    let (Some(home), Some(there)) = (Origin::of(index.as_str()), Origin::of(to.as_str())) else {
        return Err(format!("{to} is no URL skillpkg fetches"));
    };
    if index.scheme() == "https" && to.scheme() == "http" {
        return Err(format!("it leads to plain HTTP ({to})"));
    }
    if !is_private(home.host()) && is_private(there.host()) {
        return Err(format!(
            "a site on the internet sends skillpkg to {}, an address of this machine or a private network",
            there.authority()
        ));
    }
    if home != there {
        return Err(format!(
            "it leads to another origin ({}://{}), and an index's skills must come from its own site",
            to.scheme(),
            there.authority()
        ));
    }
    Ok(())
}

/// Whether `path`, a file of an older (v0.1.0) entry, is one skillpkg
/// fetches: relative, `/`-separated, no empty, `.` or `..` segment, and
/// printable ASCII only, without `\`, `?`, `#`, `[`, `]` or `%` (so no
/// escape can turn into `..` once the URL is parsed). The error says why
/// not.
pub(crate) fn check_file_path(path: &str) -> Result<(), String> {
    if path.starts_with('/') {
        return Err(format!("{path:?} is an absolute path"));
    }
    if let Some(c) = path
        .chars()
        .find(|c| !(' '..='~').contains(c) || matches!(c, '\\' | '?' | '#' | '[' | ']' | '%'))
    {
        return Err(format!("{path:?} holds the character {c:?}"));
    }
    if path
        .split('/')
        .any(|segment| matches!(segment, "" | "." | ".."))
    {
        return Err(format!("{path:?} has an empty, '.' or '..' segment"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(index: &str, to: &str) -> Result<(), String> {
        let index = Url::parse(index).unwrap();
        check_artifact(&index, &index.join(to).unwrap())
    }

    #[test]
    fn artifacts_stay_on_the_index_origin() {
        let index = "https://example.com/.well-known/agent-skills/index.json";
        for ok in [
            "/.well-known/agent-skills/pdf/SKILL.md",
            "pdf/SKILL.md",
            "../../pdf.tar.gz",
            "https://example.com:443/x.zip",
        ] {
            assert_eq!(judge(index, ok), Ok(()), "{ok}");
        }
        for (to, why) in [
            ("https://cdn.example.net/pdf.zip", "another origin"),
            ("https://example.com:8443/pdf.zip", "another origin"),
            ("//evil.example/pdf.zip", "another origin"),
            ("http://example.com/pdf.zip", "plain HTTP"),
            ("file:///etc/passwd", "file: URL"),
            ("http://169.254.169.254/latest", "plain HTTP"),
            ("https://169.254.169.254/latest", "private network"),
            ("https://127.0.0.1/x", "private network"),
            ("https://[::1]/x", "private network"),
        ] {
            let error = judge(index, to).unwrap_err();
            assert!(error.contains(why), "{to}: {error}");
        }
        // A site on this machine may use this machine's URLs, over HTTP.
        let local = "http://127.0.0.1:8080/.well-known/agent-skills/index.json";
        assert_eq!(judge(local, "/x/SKILL.md"), Ok(()));
        let error = judge(local, "http://127.0.0.1:9090/x").unwrap_err();
        assert!(error.contains("another origin"), "{error}");
    }

    #[test]
    fn file_paths_stay_inside_the_skill() {
        for ok in ["SKILL.md", "scripts/run.sh", "references/API v2.md"] {
            assert_eq!(check_file_path(ok), Ok(()), "{ok}");
        }
        for bad in [
            "/etc/passwd",
            "../x",
            "a/../../x",
            "a//b",
            "./x",
            "a\\b",
            "%2e%2e/x",
            "x?y",
            "x#y",
            "tab\tx",
            "é.md",
            "",
        ] {
            assert!(check_file_path(bad).is_err(), "{bad:?}");
        }
    }
}
