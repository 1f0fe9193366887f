//! Where a request goes: the scheme, host and port of a URL, read by the
//! parser of the client that sends the request (reqwest's, the WHATWG URL
//! standard's), never by splitting the string. The two disagree on URLs
//! such as `http://attacker.example\@skills.example.com/`, which a string
//! split reads as `skills.example.com` and the client sends to
//! `attacker.example`; credentials follow only the parsed origin.

use reqwest::Url;

/// The origin of an HTTP(S) URL, as the HTTP client sends requests to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    scheme: String,
    /// Lower-case, IDNA-encoded; IPv6 addresses in brackets.
    host: String,
    /// The port requests go to (the scheme's default when none is given).
    port: u16,
    /// Whether `port` is other than the scheme's default.
    explicit_port: bool,
}

impl Origin {
    /// The origin of `url`; `None` for a URL the client cannot parse or
    /// one without a host.
    pub fn of(url: &str) -> Option<Origin> {
        let parsed = Url::parse(url).ok()?;
        Some(Origin {
            scheme: parsed.scheme().to_string(),
            host: parsed.host_str()?.to_string(),
            port: parsed.port_or_known_default()?,
            explicit_port: parsed.port().is_some(),
        })
    }

    /// The host, as the client parsed it (`skills.example.com`,
    /// `127.0.0.1`, `[::1]`).
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The port, when it is not the scheme's default.
    pub fn explicit_port(&self) -> Option<u16> {
        self.explicit_port.then_some(self.port)
    }

    /// `host` or `host:port` (a port other than the scheme's default), as
    /// messages name an index.
    pub fn authority(&self) -> String {
        match self.explicit_port() {
            Some(port) => format!("{}:{port}", self.host),
            None => self.host.clone(),
        }
    }
}

/// Whether a request for `url` goes to `origin`: credentials meant for
/// `origin` may be sent with it. A URL the client cannot parse goes
/// nowhere credentials may follow.
pub fn goes_to(url: &str, origin: &Origin) -> bool {
    Origin::of(url).as_ref() == Some(origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_read_as_the_client_reads_them() {
        let index = Origin::of("https://Skills.Example.com/index/").unwrap();
        assert_eq!(index.authority(), "skills.example.com");
        assert!(goes_to(
            "https://skills.example.com:443/packages/a.skill",
            &index
        ));
        assert!(goes_to("https://user:pw@skills.example.com/x", &index));
        for elsewhere in [
            // The client sends these to attacker.example: `\` ends the
            // host as `/` does.
            "https://attacker.example\\@skills.example.com/packages/a.skill",
            "https://attacker.example\\\\@skills.example.com/",
            "https://skills.example.com.attacker.example/",
            "https://skills.example.com:8443/",
            "http://skills.example.com/",
            "https:/\\attacker.example/skills.example.com",
            "not a url",
        ] {
            assert!(!goes_to(elsewhere, &index), "{elsewhere}");
        }
        let attacker = Origin::of("http://attacker.example\\@skills.example.com/").unwrap();
        assert_eq!(attacker.host(), "attacker.example");
        let local = Origin::of("http://127.0.0.1:8080/").unwrap();
        assert_eq!(local.authority(), "127.0.0.1:8080");
        assert_eq!(local.explicit_port(), Some(8080));
    }
}
