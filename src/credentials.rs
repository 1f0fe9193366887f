//! Secrets: model API keys and index tokens, from the environment, else
//! from `credentials.toml` in the config directory (`ANTHROPIC_API_KEY =
//! "…"`, `SKILLPKG_INDEX_TOKEN_SKILLS_EXAMPLE_COM = "…"`; see
//! [`index_token_variable`] for how a host is spelt). They are never
//! printed, logged, locked or written to the audit; a credentials file
//! that others can read is refused.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::net::Origin;
use anyhow::Context as _;

/// The credentials file's name in the config directory.
pub(crate) const CREDENTIALS_FILE: &str = "credentials.toml";

/// The variable (or `credentials.toml` key) holding the token for the HTTP
/// index at `origin`: `SKILLPKG_INDEX_TOKEN_` and its host, with its port
/// when it is not the scheme's default, spelt so that no two hosts share a
/// name (a token keyed ambiguously would go to a look-alike host a cloned
/// `skills.toml` names):
///
/// - a DNS name (letters, digits and hyphens in dot-separated labels, no
///   label starting or ending with a hyphen, the last not all digits) or
///   an IPv4 address: letters in capitals, digits as they are, `.` as
///   `_`, `-` as `__`, and the port after a `_`
///   (`skills.example.com:8443` → `…_SKILLS_EXAMPLE_COM_8443`,
///   `skills-example.com` → `…_SKILLS__EXAMPLE_COM`). A lone `_` stands
///   for a dot or, before the digits that end the name, for the port (a
///   DNS name's last label is never all digits, an IPv4 address has four
///   parts); a run of `2n` is `n` hyphens (no label begins or ends with
///   one, so none touches a dot);
/// - any other host (an IPv6 address, a name with `_`): `_`, then the
///   host and port with every character but letters and digits written as
///   `_` and its two hex digits (`[::1]:8080` → `…___5B_3A_3A1_5D_3A8080`).
///   A readable name never starts with `_`, so the two never meet.
///
/// Names of hosts without hyphens read as they did before this encoding.
pub(crate) fn index_token_variable(origin: &Origin) -> String {
    token_variable(TOKEN_PREFIX, origin)
}

/// The variable (or `credentials.toml` key) holding a bearer token for
/// the OCI registry at `origin`: `SKILLPKG_REGISTRY_TOKEN_` and the host,
/// spelt as [`index_token_variable`] spells it. One variable per host, so
/// that no token reaches a registry a cloned `skills.toml` names.
pub(crate) fn registry_token_variable(origin: &Origin) -> String {
    token_variable(REGISTRY_TOKEN_PREFIX, origin)
}

/// `prefix` and the host of `origin`, spelt as [`index_token_variable`]
/// says.
fn token_variable(prefix: &str, origin: &Origin) -> String {
    let host = origin.host();
    let name = match is_readable_host(host) {
        true => {
            let mut name = readable(host);
            if let Some(port) = origin.explicit_port() {
                name.push_str(&format!("_{port}"));
            }
            name
        }
        false => format!("_{}", hex_escaped(&origin.authority())),
    };
    format!("{prefix}{name}")
}

/// What every index token's variable starts with.
const TOKEN_PREFIX: &str = "SKILLPKG_INDEX_TOKEN_";
/// What every registry token's variable starts with.
const REGISTRY_TOKEN_PREFIX: &str = "SKILLPKG_REGISTRY_TOKEN_";

/// Whether `host` is written in the readable form of
/// [`index_token_variable`]: an IPv4 address, or a DNS name whose labels
/// are letters, digits and inner hyphens and whose last label is not all
/// digits.
fn is_readable_host(host: &str) -> bool {
    if host.parse::<std::net::Ipv4Addr>().is_ok() {
        return true;
    }
    let label_ok = |label: &str| {
        !label.is_empty()
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    };
    host.split('.').all(label_ok)
        && !host
            .rsplit('.')
            .next()
            .is_some_and(|last| last.bytes().all(|b| b.is_ascii_digit()))
}

/// `host` in capitals, `.` as `_` and `-` as `__`.
fn readable(host: &str) -> String {
    host.chars()
        .map(|c| match c {
            '.' => "_".to_string(),
            '-' => "__".to_string(),
            c => c.to_ascii_uppercase().to_string(),
        })
        .collect()
}

/// `text` in capitals, every byte but letters and digits as `_XX` (hex).
fn hex_escaped(text: &str) -> String {
    text.bytes()
        .map(|b| match b.is_ascii_alphanumeric() {
            true => (b.to_ascii_uppercase() as char).to_string(),
            false => format!("_{b:02X}"),
        })
        .collect()
}

/// The variable earlier versions read the token of `origin` from (every
/// character but letters and digits as `_`), when it is not the one
/// [`index_token_variable`] reads now: it is no longer read for this
/// index, because other hosts share it (`skills-example.com` and
/// `skills.example.com` both had `…_SKILLS_EXAMPLE_COM`).
pub(crate) fn retired_index_token_variable(origin: &Origin) -> Option<String> {
    let old: String = origin
        .authority()
        .chars()
        .map(|c| match c.is_ascii_alphanumeric() {
            true => c.to_ascii_uppercase(),
            false => '_',
        })
        .collect();
    let old = format!("{TOKEN_PREFIX}{old}");
    (old != index_token_variable(origin)).then_some(old)
}

/// Where keys are looked up.
#[derive(Debug, Clone, Default)]
pub struct Credentials {
    file: Option<PathBuf>,
}

impl Credentials {
    /// Keys from the environment, then from `config_dir/credentials.toml`.
    pub fn new(config_dir: Option<&Path>) -> Credentials {
        Credentials {
            file: config_dir.map(|d| d.join(CREDENTIALS_FILE)),
        }
    }

    /// The key named `var`, if any.
    pub fn get(&self, var: &str) -> anyhow::Result<Option<String>> {
        if let Some(key) = crate::env_vars::non_blank(var) {
            return Ok(Some(key));
        }
        let Some(file) = &self.file else {
            return Ok(None);
        };
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("could not read {}", file.display())),
        };
        #[cfg(unix)]
        {
            use crate::hint::Hinted;
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(file)?.permissions().mode();
            if mode & 0o077 != 0 {
                anyhow::bail!(
                    Hinted::new(format!(
                        "{} can be read by other users (mode {:o}); not using its keys",
                        file.display(),
                        mode & 0o777
                    ))
                    .hint(format!("chmod 600 {}", crate::hint::shell_path(file)))
                );
            }
        }
        let keys: BTreeMap<String, String> = toml::from_str(&text).with_context(|| {
            format!("{} is not a table of KEY = \"value\" lines", file.display())
        })?;
        Ok(keys.get(var).filter(|v| !v.trim().is_empty()).cloned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variable(url: &str) -> String {
        index_token_variable(&Origin::of(url).unwrap())
    }

    #[test]
    fn registries_have_token_variables_of_their_own() {
        let origin = Origin::of("https://registry.example.com:5000").unwrap();
        assert_eq!(
            registry_token_variable(&origin),
            "SKILLPKG_REGISTRY_TOKEN_REGISTRY_EXAMPLE_COM_5000"
        );
    }

    #[test]
    fn each_index_host_has_a_token_variable_of_its_own() {
        assert_eq!(
            variable("https://skills.example.com/index/"),
            "SKILLPKG_INDEX_TOKEN_SKILLS_EXAMPLE_COM"
        );
        assert_eq!(
            variable("https://skills-example.com/"),
            "SKILLPKG_INDEX_TOKEN_SKILLS__EXAMPLE_COM"
        );
        assert_eq!(
            variable("https://Skills.Example.com:8443/"),
            "SKILLPKG_INDEX_TOKEN_SKILLS_EXAMPLE_COM_8443"
        );
        assert_eq!(
            variable("https://skills.example.com:443/"),
            "SKILLPKG_INDEX_TOKEN_SKILLS_EXAMPLE_COM"
        );
        assert_eq!(
            variable("http://127.0.0.1:8080/"),
            "SKILLPKG_INDEX_TOKEN_127_0_0_1_8080"
        );
        assert_eq!(
            variable("http://[::1]:8080/"),
            "SKILLPKG_INDEX_TOKEN___5B_3A_3A1_5D_3A8080"
        );
        assert_eq!(
            variable("http://my_host.example/"),
            "SKILLPKG_INDEX_TOKEN__MY_5FHOST_2EEXAMPLE"
        );
        // Hosts that shared a variable before have one each now.
        let hosts = [
            "http://skills.example.com/",
            "http://skills-example.com/",
            "http://skills-example-com/",
            "http://skills.example.com:8443/",
            "http://skills.example.com.8443x/",
            "http://a--b.example/",
            "http://a-b-c.example/",
            "http://a_b.example/",
            "http://a-b.example/",
            "http://127.0.0.1/",
            "http://127.0.0.1:80/",
            "http://127.0.0.1:81/",
            "http://[::1]/",
            "http://[::1]:81/",
        ];
        let mut names: Vec<String> = hosts.iter().map(|url| variable(url)).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), hosts.len() - 1, "{names:?}"); // :80 is the default
        assert_eq!(
            retired_index_token_variable(&Origin::of("http://skills-example.com/").unwrap())
                .as_deref(),
            Some("SKILLPKG_INDEX_TOKEN_SKILLS_EXAMPLE_COM")
        );
        assert_eq!(
            retired_index_token_variable(&Origin::of("http://skills.example.com:8443/").unwrap()),
            None
        );
    }
}
