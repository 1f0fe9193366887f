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

/// Whether `host` (as a URL holds it: an IPv6 address in brackets) is
/// this machine: `localhost` and names under `.localhost`, 127.0.0.0/8,
/// `::1` (and IPv4-mapped loopback addresses).
pub fn is_loopback(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    match ip_of(&host) {
        Some(std::net::IpAddr::V4(v4)) => v4.is_loopback(),
        Some(std::net::IpAddr::V6(v6)) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
        None => false,
    }
}

/// Whether `host` is this machine or an address of a network that is not
/// the public internet: private (10/8, 172.16/12, 192.168/16, `fc00::/7`),
/// link-local (169.254/16, where clouds answer metadata requests,
/// `fe80::/10`), shared (100.64/10) or unspecified. Only addresses are
/// judged: a name is not resolved here.
pub fn is_private(host: &str) -> bool {
    if is_loopback(host) {
        return true;
    }
    let v4_private = |v4: std::net::Ipv4Addr| {
        let [a, b, ..] = v4.octets();
        v4.is_private()
            || v4.is_link_local()
            || v4.is_unspecified()
            || a == 0
            || (a == 100 && (64..128).contains(&b))
    };
    match ip_of(&host.to_ascii_lowercase()) {
        Some(std::net::IpAddr::V4(v4)) => v4_private(v4),
        Some(std::net::IpAddr::V6(v6)) => {
            let first = v6.segments()[0];
            v6.is_unspecified()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || v6.to_ipv4_mapped().is_some_and(v4_private)
        }
        None => false,
    }
}

/// The address `host` writes, if it is one (`[…]` around IPv6).
fn ip_of(host: &str) -> Option<std::net::IpAddr> {
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    bare.parse().ok()
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
        for local in [
            "localhost",
            "LOCALHOST.",
            "a.localhost",
            "127.0.0.1",
            "127.9.9.9",
            "[::1]",
            "[::ffff:127.0.0.1]",
        ] {
            assert!(is_loopback(local) && is_private(local), "{local}");
        }
        for private in [
            "10.0.0.1",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "[fd00::1]",
            "[fe80::1]",
            "[::ffff:10.0.0.1]",
            "[::]",
        ] {
            assert!(!is_loopback(private) && is_private(private), "{private}");
        }
        for public in [
            "ghcr.io",
            "8.8.8.8",
            "172.32.0.1",
            "100.128.0.1",
            "[2001:db8::1]",
            "localhost.example.com",
        ] {
            assert!(!is_private(public), "{public}");
        }
        let local = Origin::of("http://127.0.0.1:8080/").unwrap();
        assert_eq!(local.authority(), "127.0.0.1:8080");
        assert_eq!(local.explicit_port(), Some(8080));
    }
}
