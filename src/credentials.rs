//! Secrets: model API keys and index tokens, from the environment, else
//! from `credentials.toml` in the config directory (`ANTHROPIC_API_KEY =
//! "…"`, `SKILLPKG_INDEX_TOKEN_SKILLS_EXAMPLE_COM = "…"`). They are never
//! printed, logged, locked or written to the audit; a credentials file
//! that others can read is refused.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::hint::Hinted;
use anyhow::{Context as _, bail};

/// The credentials file's name in the config directory.
pub const CREDENTIALS_FILE: &str = "credentials.toml";

/// The variable (or `credentials.toml` key) holding the token for the HTTP
/// index at `host` (`host[:port]`): `SKILLPKG_INDEX_TOKEN_` and the host in
/// capitals, other characters as `_` (`skills.example.com:8443` →
/// `SKILLPKG_INDEX_TOKEN_SKILLS_EXAMPLE_COM_8443`).
pub fn index_token_variable(host: &str) -> String {
    let host: String = host
        .chars()
        .map(|c| match c.is_ascii_alphanumeric() {
            true => c.to_ascii_uppercase(),
            false => '_',
        })
        .collect();
    format!("SKILLPKG_INDEX_TOKEN_{host}")
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
        if let Some(key) = std::env::var(var).ok().filter(|v| !v.trim().is_empty()) {
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
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(file)?.permissions().mode();
            if mode & 0o077 != 0 {
                bail!(
                    Hinted::new(format!(
                        "{} can be read by other users (mode {:o}); not using its keys",
                        file.display(),
                        mode & 0o777
                    ))
                    .hint(format!("chmod 600 {}", file.display()))
                );
            }
        }
        let keys: BTreeMap<String, String> = toml::from_str(&text).with_context(|| {
            format!("{} is not a table of KEY = \"value\" lines", file.display())
        })?;
        Ok(keys.get(var).filter(|v| !v.trim().is_empty()).cloned())
    }
}
