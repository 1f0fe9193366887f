//! The index: `config.json`, one entry file per package (one JSON object
//! per line, one line per version) and the archives, in one layout whatever
//! serves it.
//!
//! ```text
//! config.json
//! search.jsonl
//! index/<org>/<name>
//! packages/<org>/<name>/<name>-<version>.skill
//! ```

pub(crate) mod builtin;
pub mod channel;
pub mod freshness;
pub mod git;
pub(crate) mod http;
pub mod listing;
pub mod local;
pub(crate) mod oci;
pub mod policy_file;
pub mod seen;
pub(crate) mod source;
pub mod upstream;
pub(crate) mod well_known;

use std::collections::BTreeMap;

use anyhow::{Context as _, bail};
use serde::{Deserialize, Serialize};

use crate::hint::Hinted;

use crate::skill::name::{check_name, is_valid_name};

/// The `dl` template a new index gets.
pub(crate) const DEFAULT_DL: &str = "{index}/packages/{org}/{name}/{name}-{version}.skill";
/// The most signing keys an index may list for one org.
pub(crate) const MAX_KEYS_PER_ORG: usize = 16;
/// The index format version this skillpkg reads and writes.
pub(crate) const CONFIG_VERSION: u32 = 1;

/// `config.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexConfig {
    /// Format version (1).
    pub version: u32,
    /// URL template of archives: `{index}`, `{org}`, `{name}`, `{version}`.
    pub dl: String,
    /// Each org's minisign public keys (base64 lines) allowed to sign its packages.
    #[serde(default)]
    pub keys: BTreeMap<String, Vec<String>>,
    /// `sha256:<hex>` of the index's signed `policy.toml`, when it has
    /// one ([`policy`]): projects read the policy only when this says
    /// there is one (or their lock pins one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
    /// The index's identity, as its org named it at `index init` (its
    /// canonical URL, or `oci://HOST/NAMESPACE`): channel records and the
    /// policy are signed for it, so that another index of the org cannot
    /// serve them ([`freshness`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<String>,
    /// Fields this version does not know, kept when the file is rewritten.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

impl Default for IndexConfig {
    fn default() -> IndexConfig {
        IndexConfig {
            version: CONFIG_VERSION,
            dl: DEFAULT_DL.to_string(),
            keys: BTreeMap::new(),
            policy: None,
            identity: None,
            extra: BTreeMap::new(),
        }
    }
}

impl IndexConfig {
    /// Parses `config.json` read from `origin` (named in errors), refusing
    /// a format version this skillpkg does not read.
    pub fn parse(bytes: &[u8], origin: &str) -> anyhow::Result<IndexConfig> {
        let config: IndexConfig = serde_json::from_slice(bytes)
            .with_context(|| format!("{origin} is not a valid index config"))?;
        if let Some((org, keys)) = config
            .keys
            .iter()
            .find(|(_, keys)| keys.len() > MAX_KEYS_PER_ORG)
        {
            bail!(
                Hinted::new(format!(
                    "{origin} lists {} signing keys for org '{org}'; at most {MAX_KEYS_PER_ORG} are accepted",
                    keys.len()
                ))
                .hint("an org signs with a few keys; an index listing this many is broken or hostile")
            );
        }
        if config.version != CONFIG_VERSION {
            bail!(
                Hinted::new(format!(
                    "{origin} has index format version {}, but this skillpkg reads version {CONFIG_VERSION}",
                    config.version
                ))
                .hint("upgrade skillpkg")
            );
        }
        if let Some(identity) = &config.identity {
            check_identity(identity).map_err(|why| anyhow::anyhow!("{origin}: identity: {why}"))?;
        }
        Ok(config)
    }

    /// Renders the file: pretty JSON with a final newline.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("config serialises");
        text.push('\n');
        text
    }
}

/// The most bytes an index identity may have.
pub(crate) const MAX_IDENTITY_BYTES: usize = 512;

/// Refuses an index identity that a signed statement could not carry as
/// one field: empty, too long, or with spaces or control characters.
pub(crate) fn check_identity(identity: &str) -> Result<(), String> {
    if identity.is_empty() || identity.len() > MAX_IDENTITY_BYTES {
        return Err(format!(
            "an index identity has 1 to {MAX_IDENTITY_BYTES} bytes"
        ));
    }
    if identity
        .chars()
        .any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(format!(
            "'{}' has spaces or control characters",
            identity.escape_debug()
        ));
    }
    Ok(())
}

/// A dependency in an entry line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dependency {
    /// `org/name`.
    pub name: String,
    /// A cargo-style version requirement.
    pub req: String,
}

/// One line of an entry file: one version of one package.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexEntry {
    /// `org/name`.
    pub name: String,
    /// The semver version.
    pub vers: String,
    /// sha256 of the archive, hex.
    pub cksum: String,
    /// Dependencies.
    #[serde(default)]
    pub deps: Vec<Dependency>,
    /// The skill's description.
    #[serde(default)]
    pub desc: String,
    /// The full text of the `.minisig` file.
    #[serde(default)]
    pub sig: String,
    /// A Sigstore bundle over the archive, beside or instead of `sig`:
    /// checked under the signer policy of the package's org or index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigstore: Option<serde_json::Value>,
    /// Whether the version is yanked.
    #[serde(default)]
    pub yanked: bool,
    /// Archive size in bytes.
    #[serde(default)]
    pub size: u64,
    /// The reference rules the skill breaks, when it was published with
    /// `--allow-invalid` (rule identifiers, such as `description-length`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invalid: Vec<String>,
    /// The channel the entry claims ([`channel`]): what counts is the one
    /// its last record in `channels` signs. Absent on entries published
    /// before channels existed.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "channel::lenient_option"
    )]
    pub channel: Option<channel::Channel>,
    /// The signed history of its channel, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub channels: Vec<channel::ChannelRecord>,
    /// For a mirrored version: where it came from, signed by the org.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstream: Option<upstream::Upstream>,
}

impl IndexEntry {
    /// The line as stored (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("entry serialises")
    }
}

/// A namespaced package name, `org/name`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PackageName {
    /// The organisation.
    pub org: String,
    /// The skill name.
    pub name: String,
}

impl std::fmt::Display for PackageName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.org, self.name)
    }
}

/// An invalid `org/name`.
#[derive(Debug, thiserror::Error)]
#[error("invalid package name '{input}': {reason}")]
pub struct PackageNameError {
    input: String,
    reason: String,
}

impl std::str::FromStr for PackageName {
    type Err = PackageNameError;

    fn from_str(input: &str) -> Result<PackageName, PackageNameError> {
        let fail = |reason: String| PackageNameError {
            input: input.to_string(),
            reason,
        };
        let (org, name) = input
            .split_once('/')
            .ok_or_else(|| fail("expected org/name".into()))?;
        for (part, what) in [(org, "org"), (name, "name")] {
            if !is_valid_name(part) {
                let why = check_name(part)
                    .first()
                    .map(|p| {
                        let named = match what {
                            "org" => "The org",
                            _ => "The name",
                        };
                        p.message(part).replacen("Skill name", named, 1)
                    })
                    .unwrap_or_else(|| format!("the {what} is empty"));
                return Err(fail(why));
            }
        }
        Ok(PackageName {
            org: org.to_string(),
            name: name.to_string(),
        })
    }
}

impl PackageName {
    /// `index/<org>/<name>`, relative to the index root.
    pub fn entry_path(&self) -> String {
        format!("index/{}/{}", self.org, self.name)
    }

    /// `packages/<org>/<name>/<name>-<version>.skill`, relative to the index root.
    pub fn archive_path(&self, version: &str) -> String {
        format!(
            "packages/{}/{}/{}-{version}.skill",
            self.org, self.name, self.name
        )
    }
}

/// Parses an entry file. Blank lines are ignored; a bad line is an error
/// naming the file and line.
pub fn parse_entries(text: &str, file: &str) -> anyhow::Result<Vec<IndexEntry>> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line)
                .map_err(|e| anyhow::anyhow!("{file}:{}: invalid index entry: {e}", i + 1))
        })
        .collect()
}

/// Parses `metadata.dependencies`: comma-separated `org/name@req` (a
/// missing `@req` means any version).
pub(crate) fn parse_dependencies(text: &str) -> anyhow::Result<Vec<Dependency>> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            let (name, req) = item.split_once('@').unwrap_or((item, "*"));
            let package: PackageName = name.trim().parse()?;
            let req = req.trim();
            semver::VersionReq::parse(req).map_err(|e| {
                anyhow::anyhow!("dependency '{item}': invalid version requirement '{req}': {e}")
            })?;
            Ok(Dependency {
                name: package.to_string(),
                req: req.to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names_follow_skill_rules() {
        let p: PackageName = "acme/pdf-processing".parse().unwrap();
        assert_eq!(p.entry_path(), "index/acme/pdf-processing");
        assert_eq!(
            p.archive_path("1.2.3"),
            "packages/acme/pdf-processing/pdf-processing-1.2.3.skill"
        );
        for bad in ["acme", "Acme/x", "acme/-x", "/x", "a/b/c"] {
            assert!(bad.parse::<PackageName>().is_err(), "{bad}");
        }
    }

    #[test]
    fn dependencies_parse_with_requirements() {
        let deps = parse_dependencies("example/base@^1, example/util").unwrap();
        assert_eq!(
            deps[0],
            Dependency {
                name: "example/base".into(),
                req: "^1".into()
            }
        );
        assert_eq!(deps[1].req, "*");
        assert!(parse_dependencies("example/base@not-a-req").is_err());
    }

    #[test]
    fn entry_lines_round_trip() {
        let line = r#"{"name":"acme/x","vers":"1.0.0","cksum":"ab","deps":[],"desc":"d","sig":"s","yanked":false,"size":3}"#;
        let entries = parse_entries(line, "index/acme/x").unwrap();
        assert_eq!(entries[0].to_line(), line);
    }

    /// docs/index-format.md promises this order, and the Renovate preset
    /// (renovate/skillpkg.json) matches lines with a pattern relying on it.
    #[test]
    fn entry_fields_are_written_in_the_documented_order() {
        let entry = IndexEntry {
            name: "acme/x".into(),
            vers: "1.0.0".into(),
            sigstore: Some(serde_json::json!({})),
            invalid: vec!["rule".into()],
            channel: Some(channel::Channel::Published),
            channels: vec![channel::ChannelRecord {
                channel: channel::Channel::Published,
                replacement: None,
                index: None,
                seq: None,
                expires: None,
                at: None,
                sig: String::new(),
            }],
            upstream: Some(upstream::Upstream {
                source: "s".into(),
                commit: None,
                digest: None,
                signer: None,
                by: String::new(),
                at: String::new(),
                sig: String::new(),
            }),
            ..IndexEntry::default()
        };
        let value: serde_json::Value = serde_json::from_str(&entry.to_line()).unwrap();
        let line = entry.to_line();
        let order: Vec<&str> = [
            "name", "vers", "cksum", "deps", "desc", "sig", "sigstore", "yanked", "size",
            "invalid", "channel", "channels", "upstream",
        ]
        .into_iter()
        .inspect(|key| assert!(value.get(key).is_some(), "{key}"))
        .collect();
        let positions: Vec<usize> = order
            .iter()
            .map(|key| line.find(&format!("\"{key}\":")).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{line}");
    }
}
