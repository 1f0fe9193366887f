//! Credentials for a registry, found where container tools keep them, and
//! the challenges registries answer `401` with.
//!
//! In order: a bearer token in `SKILLPKG_REGISTRY_TOKEN_<HOST>` (from the
//! environment or `credentials.toml`, one variable per host as index
//! tokens have); else the container tools' `config.json`
//! (`$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`), read as
//! docker reads it: the host's `credHelpers` entry, else `credsStore`,
//! each a program `docker-credential-NAME` asked with `get` and the host
//! on stdin, else the host's `auths` entry (`auth`: base64 of
//! `user:password`). Identity tokens (OAuth refresh tokens) are not read.
//!
//! Credentials are looked up only when a registry asks for them, and sent
//! only to that registry's origin or to the token realm its challenge
//! names. No secret is ever shown: messages say where a credential came
//! from and for which user.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, bail};
use base64::Engine as _;
use serde::Deserialize;

use crate::hint::Hinted;

/// A credential for a registry, and where it came from.
#[derive(Clone)]
pub(crate) struct Credential {
    /// What is sent.
    pub secret: Secret,
    /// Where it came from, for messages: `~/.docker/config.json (auths)`,
    /// `docker-credential-pass`, `SKILLPKG_REGISTRY_TOKEN_…`.
    pub from: String,
}

/// A credential's secret part.
#[derive(Clone)]
pub(crate) enum Secret {
    /// A user name and password, sent as HTTP Basic (to the registry, or
    /// to its token realm).
    Basic {
        /// The user.
        user: String,
        /// The password.
        password: String,
    },
    /// A bearer token, sent as it is.
    Bearer(String),
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Credential(from {})", self.from)
    }
}

impl Credential {
    /// Who it speaks for, as messages name it: `user alice from …`.
    pub(crate) fn described(&self) -> String {
        match &self.secret {
            Secret::Basic { user, .. } => format!("user '{user}' from {}", self.from),
            Secret::Bearer(_) => format!("the token in {}", self.from),
        }
    }
}

/// Where credentials are looked up.
#[derive(Debug, Clone)]
pub(crate) struct Sources {
    /// `credentials.toml`'s folder (the config directory).
    config: PathBuf,
    /// The container tools' `config.json`, if there is a home to hold it.
    docker_config: Option<PathBuf>,
}

impl Sources {
    /// Credentials from `config` (the config directory) and the container
    /// tools' `config.json`: in `$DOCKER_CONFIG`, else in `home`'s `.docker`.
    pub(crate) fn new(config: &Path, home: Option<&Path>) -> Sources {
        let docker_config = match crate::env_vars::non_blank(crate::env_vars::DOCKER_CONFIG) {
            Some(dir) => Some(PathBuf::from(dir).join("config.json")),
            None => home.map(|h| h.join(".docker/config.json")),
        };
        Sources {
            config: config.to_path_buf(),
            docker_config,
        }
    }

    /// The credential for `registry` (`HOST[:PORT]`), if one is set.
    pub(crate) fn lookup(&self, registry: &str) -> anyhow::Result<Option<Credential>> {
        let origin = crate::net::Origin::of(&format!("https://{registry}"))
            .with_context(|| format!("'{registry}' is no registry host"))?;
        let variable = crate::credentials::registry_token_variable(&origin);
        if let Some(token) =
            crate::credentials::Credentials::new(Some(&self.config)).get(&variable)?
        {
            return Ok(Some(Credential {
                secret: Secret::Bearer(token),
                from: variable,
            }));
        }
        let Some(path) = &self.docker_config else {
            return Ok(None);
        };
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("could not read {}", path.display())),
        };
        let path = path.as_path();
        let config: DockerConfig = serde_json::from_str(&text).map_err(|e| {
            Hinted::new(format!(
                "{}: not a container tools' config.json: {e}",
                path.display()
            ))
            .hint("fix it, or log in again with `docker login`")
        })?;
        let helper = config
            .cred_helpers
            .get(registry)
            .or(config.creds_store.as_ref());
        if let Some(helper) = helper
            && let Some(found) = ask_helper(helper, registry)?
        {
            return Ok(Some(found));
        }
        let entry = config
            .auths
            .iter()
            .find(|(key, _)| auths_key_host(key) == registry)
            .map(|(_, entry)| entry);
        match entry.and_then(|e| e.auth.as_deref()) {
            Some(auth) => decode_auth(auth, path, registry).map(Some),
            None => Ok(None),
        }
    }
}

/// The parts of `config.json` that name credentials.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DockerConfig {
    #[serde(default)]
    auths: BTreeMap<String, AuthEntry>,
    #[serde(default)]
    cred_helpers: BTreeMap<String, String>,
    #[serde(default)]
    creds_store: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct AuthEntry {
    #[serde(default)]
    auth: Option<String>,
}

/// The host an `auths` key names: `https://host/v1/` and `host` alike.
fn auths_key_host(key: &str) -> &str {
    let key = key.split_once("://").map_or(key, |(_, rest)| rest);
    key.split('/').next().unwrap_or(key)
}

/// `auth`: base64 of `user:password`.
fn decode_auth(auth: &str, path: &Path, registry: &str) -> anyhow::Result<Credential> {
    let wrong = || {
        Hinted::new(format!(
            "{}: the auths entry of {registry} is not base64 of user:password",
            path.display()
        ))
        .hint(format!("log in again with `docker login {registry}`"))
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(auth.trim())
        .map_err(|_| wrong())?;
    let text = String::from_utf8(bytes).map_err(|_| wrong())?;
    let (user, password) = text.split_once(':').ok_or_else(wrong)?;
    Ok(Credential {
        secret: Secret::Basic {
            user: user.to_string(),
            password: password.to_string(),
        },
        from: format!("{} (auths)", path.display()),
    })
}

/// What a credential helper answers to `get`.
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct HelperAnswer {
    username: String,
    secret: String,
}

/// How long a credential helper may take to answer (one may wait for the
/// user to unlock a keychain).
const HELPER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// Asks `docker-credential-<helper> get` for `registry`'s credentials;
/// `None` when it has none.
fn ask_helper(helper: &str, registry: &str) -> anyhow::Result<Option<Credential>> {
    if helper.is_empty()
        || !helper
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        bail!("the credential helper {helper:?} in config.json is no program name skillpkg runs");
    }
    let program = format!("docker-credential-{helper}");
    let mut command = Command::new(&program);
    command.arg("get");
    let out = crate::process::run_with_input(&mut command, registry.as_bytes(), HELPER_TIMEOUT)
        .map_err(|e| {
            Hinted::new(format!("could not run the credential helper {program}: {e}"))
                .hint(format!(
                    "config.json names it for {registry}: install it, or take it out of credHelpers/credsStore"
                ))
        })?;
    if !out.status.success() {
        // "credentials not found in native keychain": nothing for this host.
        return Ok(None);
    }
    let answer: HelperAnswer = serde_json::from_slice(&out.stdout)
        .map_err(|e| anyhow::anyhow!("{program} answered no credentials skillpkg reads: {e}"))?;
    if answer.username == "<token>" {
        // An identity token, exchanged by docker for access tokens: not read.
        return Ok(None);
    }
    Ok(Some(Credential {
        secret: Secret::Basic {
            user: answer.username,
            password: answer.secret,
        },
        from: program,
    }))
}

/// A `WWW-Authenticate` challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Challenge {
    /// Get a token from `realm` (with `service` and `scope`), then send it.
    Bearer {
        /// The token endpoint.
        realm: String,
        /// The `service` parameter, if any.
        service: Option<String>,
        /// The `scope` parameter, if any.
        scope: Option<String>,
    },
    /// Send a user name and password.
    Basic,
}

/// The challenge in a `WWW-Authenticate` header; `None` for a scheme
/// skillpkg does not answer.
pub(crate) fn parse_challenge(header: &str) -> Option<Challenge> {
    let header = header.trim();
    let (scheme, rest) = header.split_once(' ').unwrap_or((header, ""));
    if scheme.eq_ignore_ascii_case("basic") {
        return Some(Challenge::Basic);
    }
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    let params = parse_params(rest);
    Some(Challenge::Bearer {
        realm: params.get("realm")?.clone(),
        service: params.get("service").cloned(),
        scope: params.get("scope").cloned(),
    })
}

/// `key="value", key=value, …` with backslash escapes in quotes; keys
/// lower-cased.
fn parse_params(text: &str) -> BTreeMap<String, String> {
    let mut params = BTreeMap::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(|c| *c == ',' || c.is_whitespace()).is_some() {}
        let key: String =
            std::iter::from_fn(|| chars.next_if(|c| *c != '=' && *c != ',')).collect();
        if key.is_empty() || chars.next() != Some('=') {
            return params;
        }
        let mut value = String::new();
        if chars.next_if_eq(&'"').is_some() {
            while let Some(c) = chars.next() {
                match c {
                    '\\' => value.extend(chars.next()),
                    '"' => break,
                    c => value.push(c),
                }
            }
        } else {
            value = std::iter::from_fn(|| chars.next_if(|c| *c != ',')).collect();
        }
        params.insert(key.trim().to_ascii_lowercase(), value.trim().to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_are_read_as_registries_write_them() {
        assert_eq!(
            parse_challenge(
                r#"Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/x:pull""#
            ),
            Some(Challenge::Bearer {
                realm: "https://auth.docker.io/token".into(),
                service: Some("registry.docker.io".into()),
                scope: Some("repository:library/x:pull".into()),
            })
        );
        assert_eq!(
            parse_challenge(r#"bearer Realm="https://r/t\"x", scope=a"#),
            Some(Challenge::Bearer {
                realm: "https://r/t\"x".into(),
                service: None,
                scope: Some("a".into()),
            })
        );
        assert_eq!(
            parse_challenge(r#"Basic realm="Registry Realm""#),
            Some(Challenge::Basic)
        );
        assert_eq!(parse_challenge("Bearer service=x"), None);
        assert_eq!(parse_challenge("Negotiate"), None);
    }

    #[test]
    fn config_json_auths_and_helpers_are_read_without_showing_secrets() {
        let dir = tempfile::tempdir().unwrap();
        let docker = dir.path().join(".docker");
        std::fs::create_dir_all(&docker).unwrap();
        let auth = base64::engine::general_purpose::STANDARD.encode("alice:s3cret");
        std::fs::write(
            docker.join("config.json"),
            format!(
                r#"{{"auths": {{"https://registry.example.com:5000/v1/": {{"auth": "{auth}"}}, "bad.example.com": {{"auth": "???"}}}},
                    "credHelpers": {{"evil.example.com": "../../bin/sh"}}}}"#
            ),
        )
        .unwrap();
        let sources = Sources {
            config: dir.path().join("config"),
            docker_config: Some(docker.join("config.json")),
        };
        let found = sources
            .lookup("registry.example.com:5000")
            .unwrap()
            .unwrap();
        assert!(
            matches!(&found.secret, Secret::Basic { user, password } if user == "alice" && password == "s3cret")
        );
        assert!(!format!("{found:?} {}", found.described()).contains("s3cret"));
        assert!(sources.lookup("other.example.com").unwrap().is_none());
        let error = sources.lookup("bad.example.com").unwrap_err();
        assert!(error.to_string().contains("not base64"), "{error}");
        let error = sources.lookup("evil.example.com").unwrap_err();
        assert!(error.to_string().contains("no program name"), "{error}");
    }
}
