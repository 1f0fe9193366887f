//! What a `well-known` source names: a site that publishes an Agent
//! Skills discovery index (`/.well-known/agent-skills/index.json`), or
//! the URL of such an index. Pure: nothing here reads the network.
//!
//! `skills.toml` keeps the site as `add` normalised it: an `https://` URL
//! (plain `http://` only for a host on this machine) with a host, no
//! credentials, query or fragment, and no trailing `/`.

use crate::net::{Origin, is_loopback};

/// The site `text` names, normalised as `skills.toml` records it; the
/// error says what is wrong, quoting `text`.
pub(crate) fn parse_site(text: &str) -> Result<String, String> {
    let wrong = |why: &str| format!("'{text}' is no site skillpkg reads agent skills from: {why}");
    let Ok(url) = reqwest::Url::parse(text) else {
        return Err(wrong("write https://HOST[/PATH]"));
    };
    let Some(origin) = Origin::of(url.as_str()) else {
        return Err(wrong("write https://HOST[/PATH]"));
    };
    match url.scheme() {
        "https" => {}
        "http" if is_loopback(origin.host()) => {}
        "http" => {
            return Err(wrong(
                "plain HTTP is read only from this machine; write https://",
            ));
        }
        _ => return Err(wrong("write https://HOST[/PATH]")),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(wrong("a site URL carries no user name or password"));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(wrong("leave out the ?query and #fragment"));
    }
    let text = url.as_str().trim_end_matches('/');
    Ok(text.to_string())
}

/// Whether `text` is a site as [`parse_site`] writes it.
pub(crate) fn is_site(text: &str) -> bool {
    parse_site(text).is_ok_and(|site| site == text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sites_are_https_urls_or_http_on_this_machine() {
        for (text, site) in [
            ("https://Example.com", "https://example.com"),
            ("https://example.com/", "https://example.com"),
            ("https://example.com/docs/", "https://example.com/docs"),
            (
                "https://example.com/.well-known/agent-skills/index.json",
                "https://example.com/.well-known/agent-skills/index.json",
            ),
            ("http://127.0.0.1:8080/", "http://127.0.0.1:8080"),
            ("http://localhost:9/x", "http://localhost:9/x"),
        ] {
            assert_eq!(parse_site(text).as_deref(), Ok(site), "{text}");
            assert!(is_site(site), "{site}");
        }
        for (text, why) in [
            ("http://example.com", "plain HTTP"),
            ("http://10.0.0.1/", "plain HTTP"),
            ("ftp://example.com", "https://HOST"),
            ("example.com", "https://HOST"),
            ("https://u:p@example.com", "user name"),
            ("https://example.com/?x=1", "?query"),
            ("https://example.com/#x", "?query"),
        ] {
            let error = parse_site(text).unwrap_err();
            assert!(
                error.contains(why) && error.contains(text),
                "{text}: {error}"
            );
        }
        assert!(!is_site("https://example.com/"));
    }
}
