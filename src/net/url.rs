//! Taking URLs apart: the credentials written into them, and percent
//! escapes.

use crate::hint::Hinted;

/// Credentials written into a URL (`https://user:secret@host/…`).
#[derive(Clone, PartialEq, Eq)]
pub struct UrlCredentials {
    /// The user name, percent-decoded.
    pub user: String,
    /// The password, percent-decoded, if one was given.
    pub password: Option<String>,
}

impl std::fmt::Debug for UrlCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UrlCredentials(…)")
    }
}

/// `url` without the credentials written into it, and those credentials.
/// What is shown, logged, locked or used to name a cache folder is the
/// URL without them. A user name or password that holds control
/// characters once percent-decoded is refused: it could inject lines into
/// a credential helper's protocol (git's CVE-2020-5260).
pub fn split_credentials(url: &str) -> anyhow::Result<(String, Option<UrlCredentials>)> {
    let Some((scheme, rest)) = url.split_once("://") else {
        return Ok((url.to_string(), None));
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    let Some((userinfo, host)) = authority.rsplit_once('@') else {
        return Ok((url.to_string(), None));
    };
    let decode = |part: &str| -> anyhow::Result<String> {
        let decoded = percent_decode(part);
        if decoded.chars().any(char::is_control) {
            anyhow::bail!(
                Hinted::new(format!(
                    "{scheme}://…@{host}{path}: the user name or password in the URL holds control characters; refused"
                ))
                .hint("such a URL can make git send your credentials to another host; check where it came from")
            );
        }
        Ok(decoded)
    };
    let (user, password) = match userinfo.split_once(':') {
        Some((user, password)) => (decode(user)?, Some(decode(password)?)),
        None => (decode(userinfo)?, None),
    };
    Ok((
        format!("{scheme}://{host}{path}"),
        Some(UrlCredentials { user, password }),
    ))
}

/// `text` with `%XX` escapes decoded (invalid ones kept as written), as
/// bytes: URL user info here, `file:` paths for git sources in `ops`.
pub fn percent_decode_bytes(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (byte, ..) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

/// [`percent_decode_bytes`], with bytes that are not UTF-8 replaced.
fn percent_decode(text: &str) -> String {
    String::from_utf8_lossy(&percent_decode_bytes(text)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_split_off_urls_and_control_characters_refused() {
        let (url, credentials) =
            split_credentials("https://alice:s%3Acret@Host:8443/index/?q#f").unwrap();
        assert_eq!(url, "https://Host:8443/index/?q#f");
        let credentials = credentials.unwrap();
        assert_eq!(credentials.user, "alice");
        assert_eq!(credentials.password.as_deref(), Some("s:cret"));
        let (url, credentials) = split_credentials("file:///tmp/a@b/index").unwrap();
        assert_eq!(url, "file:///tmp/a@b/index");
        assert!(credentials.is_none());
        let attack = "http://x%0aurl=https%3a%2f%2fgithub.com@evil/r.git";
        let error = split_credentials(attack).unwrap_err().to_string();
        assert!(
            error.starts_with("http://…@evil/r.git: the user name"),
            "{error}"
        );
        assert!(!error.contains("github"), "{error}");
    }
}
