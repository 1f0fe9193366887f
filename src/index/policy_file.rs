//! An org's policy for the projects that use its index as their default:
//! `policy.toml` at the index's root, signed (`policy.toml.minisig`) by
//! one of the org's keys. It names the sources members may install from,
//! the signers they must have, the lowest channel they may ask for,
//! whether channels must be signed, and scanner rules that may not be
//! waived. Projects pin it on first use, as they pin keys.

use serde::{Deserialize, Serialize};

use crate::hint::Hinted;
use crate::manifest::channel::Channel;
use crate::store::hash::sha256_hex;
use crate::store::signing::{self, SigningError, SigningKey};

/// The policy's file name, at the index root.
pub(crate) const POLICY_FILE: &str = "policy.toml";
/// Its signature's file name, beside it.
pub(crate) const POLICY_SIGNATURE_FILE: &str = "policy.toml.minisig";
/// The most bytes a policy may have.
pub(crate) const MAX_POLICY_BYTES: u64 = 64 * 1024;

/// `policy.toml`. Fields this skillpkg does not know are refused: a
/// restriction it would silently skip is worse than an error.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Policy {
    /// The org whose keys sign it.
    pub org: String,
    /// Raised with every new version of the policy: a project refuses
    /// one whose serial is not above the one it pinned (an index host
    /// serving an older, looser policy the org once signed).
    #[serde(default)]
    pub serial: u64,
    /// Where members may install skills from, as prefixes of their
    /// sources (index URLs, repository URLs, `oci://HOST/REPO`, sites);
    /// absent: anywhere. The index itself always is; a project's own
    /// path skills always are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_sources: Option<Vec<String>>,
    /// Every skill from outside the project must be signed.
    #[serde(default)]
    pub require_signatures: bool,
    /// When not empty, the only signers of what members install: minisign
    /// keys, Sigstore identities, OMS roots.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub signers: Vec<PolicySigner>,
    /// The lowest channel a member's project may ask for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lowest_channel: Option<Channel>,
    /// Versions must carry channel signatures: those signed before
    /// channels existed count as drafts.
    #[serde(default)]
    pub require_channel_signatures: bool,
    /// Scanner rules whose findings no waiver accepts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unwaivable: Vec<String>,
    /// The index this policy is for, as its org named it at `index init`
    /// (`identity` in `config.json`): a project refuses it from any other
    /// index ([`super::freshness`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
    /// When the org stops vouching for it (RFC 3339): past it, projects
    /// take no new version from the index; the lock's still install.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "instant"
    )]
    pub expires: Option<String>,
    /// Channel records must name this index and their sequence: those
    /// from before records were bound count as drafts.
    #[serde(default)]
    pub require_fresh_metadata: bool,
    /// Every git skill must name who signs its commits (`signed-by`), and
    /// its pinned commit must be signed by one of them.
    #[serde(default)]
    pub require_signed_commits: bool,
}

/// A signer a policy lets in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PolicySigner {
    /// A minisign public key (its base64 line).
    Minisign(String),
    /// A keyless Sigstore identity, vouched for by `sigstore-issuer`.
    #[serde(rename_all = "kebab-case")]
    Sigstore {
        /// The certificate's identity (an email, a workflow URI), or with
        /// `regexp` a pattern the whole identity must match.
        sigstore_identity: String,
        /// The OIDC issuer.
        sigstore_issuer: String,
        /// Whether `sigstore-identity` is a pattern.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        regexp: bool,
    },
    /// An OMS root certificate, by `sha256:<hex>` of its DER (as
    /// `skills.lock`'s `[roots]` names it).
    #[serde(rename_all = "kebab-case")]
    Oms {
        /// The fingerprint.
        oms_root: String,
    },
}

impl PolicySigner {
    /// Whether `signer`, as an install verified it, is this one.
    pub(crate) fn admits(&self, signer: &crate::manifest::lock::LockedSigner) -> bool {
        use crate::manifest::lock::{LockedSigner, SignerTable};
        match (self, signer) {
            (PolicySigner::Minisign(key), LockedSigner::Minisign(signed)) => key == signed,
            (
                PolicySigner::Sigstore {
                    sigstore_identity,
                    sigstore_issuer,
                    regexp,
                },
                LockedSigner::Other(SignerTable::Sigstore {
                    identity, issuer, ..
                }),
            ) => {
                sigstore_issuer == issuer
                    && match regexp {
                        true => anchored(sigstore_identity).is_ok_and(|re| re.is_match(identity)),
                        false => sigstore_identity == identity,
                    }
            }
            (
                PolicySigner::Oms { oms_root },
                LockedSigner::Other(SignerTable::Oms { chain, .. }),
            ) => oms_root == chain,
            _ => false,
        }
    }
}

impl std::fmt::Display for PolicySigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PolicySigner::Minisign(key) => write!(f, "{key}"),
            PolicySigner::Sigstore {
                sigstore_identity,
                sigstore_issuer,
                regexp: true,
            } => write!(
                f,
                "an identity matching /{sigstore_identity}/ (issuer {sigstore_issuer})"
            ),
            PolicySigner::Sigstore {
                sigstore_identity,
                sigstore_issuer,
                ..
            } => write!(f, "{sigstore_identity} (issuer {sigstore_issuer})"),
            PolicySigner::Oms { oms_root } => write!(f, "OMS root {oms_root}"),
        }
    }
}

/// `pattern` as a regex the whole text must match.
fn anchored(pattern: &str) -> Result<regex::Regex, regex::Error> {
    regex::Regex::new(&format!("^(?:{pattern})$"))
}

/// An instant, written as a TOML date-time or a string.
fn instant<'de, D: serde::Deserializer<'de>>(reader: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Instant {
        Datetime(toml::value::Datetime),
        Text(String),
    }
    Ok(
        Option::<Instant>::deserialize(reader)?.map(|instant| match instant {
            Instant::Datetime(at) => at.to_string(),
            Instant::Text(text) => text,
        }),
    )
}

/// An index's `policy.toml` and signature, as read.
pub(crate) struct PolicyFiles {
    /// The policy's bytes.
    pub text: Vec<u8>,
    /// Its `.minisig`, when there is one.
    pub signature: Option<String>,
    /// Where it was read.
    pub origin: String,
}

/// A policy as an index serves it. Whether its org signed it is
/// provenance's to say (`ops::provenance::check`), before it is used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexPolicy {
    /// What it says.
    pub policy: Policy,
    /// `sha256:<hex>` of the file, as `skills.lock` pins it.
    pub digest: String,
    /// Where it was read, for messages.
    pub origin: String,
}

impl IndexPolicy {
    /// The policy `text` read from `origin`, parsed, with its digest.
    pub fn read(text: &[u8], origin: &str) -> anyhow::Result<IndexPolicy> {
        Ok(IndexPolicy {
            policy: parse(text, origin)?,
            digest: format!("sha256:{}", crate::store::hash::sha256_hex(text)),
            origin: origin.to_string(),
        })
    }

    /// The refusal of `what` for `why`, naming the policy.
    pub fn refusal(&self, what: &str, why: &str) -> Hinted {
        Hinted::new(format!(
            "{what} is refused by the policy of org '{}' ({}): {why}",
            self.policy.org, self.origin
        ))
        .hint("the org's policy applies to projects whose default registry is its index; ask the org, or use another default registry")
    }
}

/// The trusted comment of a policy's signature.
pub fn comment(org: &str, digest: &str) -> String {
    format!("skillpkg-policy {org} {digest}")
}

/// Parses the policy `text` read from `origin` (naming it in errors).
pub fn parse(text: &[u8], origin: &str) -> anyhow::Result<Policy> {
    let text = std::str::from_utf8(text).map_err(|_| anyhow::anyhow!("{origin} is not UTF-8"))?;
    let policy: Policy = toml::from_str(text).map_err(|e| {
        anyhow::anyhow!(
            "{origin} is not a policy skillpkg reads: {}",
            e.to_string().trim()
        )
    })?;
    if !crate::skill::name::is_valid_name(&policy.org) {
        anyhow::bail!("{origin}: '{}' is no org name", policy.org);
    }
    for signer in &policy.signers {
        match signer {
            PolicySigner::Minisign(key) => {
                signing::read_public_key(key)
                    .map_err(|e| anyhow::anyhow!("{origin}: signers: {e}"))?;
            }
            PolicySigner::Sigstore {
                sigstore_identity,
                regexp: true,
                ..
            } => {
                anchored(sigstore_identity).map_err(|e| {
                    anyhow::anyhow!(
                        "{origin}: signers: /{sigstore_identity}/ is not a pattern: {e}"
                    )
                })?;
            }
            PolicySigner::Sigstore { .. } => {}
            PolicySigner::Oms { oms_root } => {
                let hex = oms_root.strip_prefix("sha256:").unwrap_or_default();
                if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    anyhow::bail!(
                        "{origin}: signers: oms-root is `sha256:` and the hex digest of the root certificate's DER, not '{oms_root}'"
                    );
                }
            }
        }
    }
    if let Some(rule) = policy.unwaivable.iter().find(|rule| {
        !crate::scan::RULES
            .iter()
            .any(|known| known.id == rule.as_str())
    }) {
        let known: Vec<&str> = crate::scan::RULES.iter().map(|r| r.id).collect();
        anyhow::bail!(
            Hinted::new(format!(
                "{origin}: unwaivable names '{rule}', which is no rule of skillpkg's scanner"
            ))
            .hint(format!("the rules are: {}", known.join(", ")))
        );
    }
    if let Some(index) = &policy.index {
        super::check_identity(index).map_err(|why| anyhow::anyhow!("{origin}: index: {why}"))?;
    }
    if policy.require_fresh_metadata && policy.index.is_none() {
        anyhow::bail!(
            "{origin}: require-fresh-metadata asks that records name their index, so the policy must name it too (`index = \"…\"`, as the index's config.json names it)"
        );
    }
    Ok(policy)
}

/// The signature of the policy `text` by `key`, for `org`.
pub fn sign(key: &SigningKey, org: &str, text: &[u8]) -> Result<String, SigningError> {
    let digest = format!("sha256:{}", sha256_hex(text));
    key.sign(text, &comment(org, &digest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unwaivable_rule_the_scanner_does_not_have_is_an_error() {
        let text = b"org = \"corp\"\nunwaivable = [\"remote-code-run\", \"remote-code-runs\"]\n";
        let err = parse(text, "policy.toml").unwrap_err();
        assert!(
            err.to_string().contains(
                "unwaivable names 'remote-code-runs', which is no rule of skillpkg's scanner"
            ),
            "{err}"
        );
        assert!(parse(b"org = \"corp\"\nunwaivable = [\"remote-code-run\"]\n", "p").is_ok());
    }

    #[test]
    fn signers_name_minisign_keys_sigstore_identities_and_oms_roots() {
        use crate::manifest::lock::{LockedSigner, SignerTable};
        let root = format!("sha256:{}", "ab".repeat(32));
        let text = format!(
            "org = \"corp\"\nsigners = [{{ sigstore-identity = \"https://github.com/corp/.+\", sigstore-issuer = \"https://issuer\", regexp = true }}, {{ oms-root = \"{root}\" }}]\nexpires = 2027-01-31T00:00:00Z\nindex = \"https://skills.corp/\"\nrequire-fresh-metadata = true\n"
        );
        let policy = parse(text.as_bytes(), "policy.toml").unwrap();
        assert_eq!(policy.expires.as_deref(), Some("2027-01-31T00:00:00Z"));
        let sigstore = |identity: &str, issuer: &str| {
            LockedSigner::Other(SignerTable::Sigstore {
                identity: identity.into(),
                issuer: issuer.into(),
                root: None,
            })
        };
        let admits = |signer: &LockedSigner| policy.signers.iter().any(|s| s.admits(signer));
        assert!(admits(&sigstore(
            "https://github.com/corp/x",
            "https://issuer"
        )));
        assert!(!admits(&sigstore(
            "https://github.com/corp/x",
            "https://other"
        )));
        // Anchored: a prefix elsewhere in the identity does not count.
        assert!(!admits(&sigstore(
            "https://evil/https://github.com/corp/x",
            "https://issuer"
        )));
        let oms = |chain: &str| {
            LockedSigner::Other(SignerTable::Oms {
                subject: "CN=x".into(),
                chain: chain.into(),
            })
        };
        assert!(admits(&oms(&root)));
        assert!(!admits(&oms(&format!("sha256:{}", "cd".repeat(32)))));
        assert!(!admits(&LockedSigner::Minisign("RWQ".into())));
        let bad = b"org = \"corp\"\nsigners = [{ oms-root = \"ab\" }]\n";
        assert!(parse(bad, "p").is_err());
        let unbound = b"org = \"corp\"\nrequire-fresh-metadata = true\n";
        assert!(parse(unbound, "p").is_err());
    }
}
