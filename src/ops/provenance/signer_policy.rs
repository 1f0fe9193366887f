//! Signer policies per source (DESIGN §7): `skillpkg trust SOURCE
//! --oms-root CERT` or `--sigstore-identity ID --sigstore-issuer URL`,
//! kept in the user's config dir (`signers.toml`, private to the user),
//! matched against every install's source in its canonical spelling
//! ([`crate::manifest::source_match`]), on every transport.
//!
//! A policy lists the signers it accepts for one source: any of them may
//! sign. Several policies covering one install (an org's and a
//! repository's, the user's and a trusted project's) must all hold.

use std::path::Path;

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::manifest::source_id::SourceId;
use crate::manifest::source_match::{CanonicalSource, canonical};

/// The file in the config directory that holds the user's policies.
pub(crate) const POLICY_FILE: &str = "signers.toml";

/// The signers one source accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) struct Policy {
    /// The source as the user gave it (what `trust --list` shows).
    pub source: String,
    /// Its canonical spelling, which installs are matched against.
    pub canonical: CanonicalSource,
    /// OMS root certificates (PEM, one each) a skill's `skill.oms.sig`
    /// may chain to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub oms_roots: Vec<String>,
    /// Sigstore identities that may sign its packages.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sigstore: Vec<SigstoreIdentity>,
    /// The `trusted_root.json` Sigstore bundles are verified against;
    /// absent, Sigstore's public-good root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigstore_root: Option<String>,
}

/// A keyless Sigstore signer: an identity and the issuer vouching for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) struct SigstoreIdentity {
    /// The certificate's identity (an email or a workflow URI), or with
    /// `regexp` a regex the whole identity must match.
    pub identity: String,
    /// Whether `identity` is a regex.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub regexp: bool,
    /// The OIDC issuer.
    pub issuer: String,
}

impl std::fmt::Display for SigstoreIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.regexp {
            true => write!(f, "an identity matching /{}/", self.identity)?,
            false => write!(f, "{}", self.identity)?,
        }
        write!(f, " (issuer {})", self.issuer)
    }
}

/// A signer `trust` adds to a source's policy.
#[derive(Debug, Clone)]
pub(crate) enum Accept {
    /// OMS certificates chaining to these roots (PEM text, one or more).
    OmsRoots(String),
    /// A Sigstore identity, with the trusted root to check it against.
    Sigstore {
        /// Who.
        identity: SigstoreIdentity,
        /// A `trusted_root.json`'s text; `None`: the public-good root.
        root: Option<String>,
    },
}

/// The user's policies.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Policies {
    /// One per source.
    #[serde(default, rename = "policy")]
    pub policies: Vec<Policy>,
}

/// One root certificate of a PEM file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RootCertificate {
    /// Its PEM block.
    pub pem: String,
    /// `sha256:<hex>` of its DER.
    pub fingerprint: String,
    /// Its subject, RFC 4514.
    pub subject: String,
}

/// The certificates of a PEM text, each with its fingerprint and subject.
pub(crate) fn root_certificates(text: &str) -> anyhow::Result<Vec<RootCertificate>> {
    use base64::Engine as _;
    use x509_cert::der::Decode as _;
    const BEGIN: &str = "-----BEGIN CERTIFICATE-----";
    const END: &str = "-----END CERTIFICATE-----";
    let mut roots = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(BEGIN) {
        let body_start = start + BEGIN.len();
        let end = rest[body_start..]
            .find(END)
            .map(|end| body_start + end)
            .context("a certificate has no END line")?;
        let body: String = rest[body_start..end]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let der = base64::engine::general_purpose::STANDARD
            .decode(body)
            .context("a certificate is not base64")?;
        let certificate =
            x509_cert::Certificate::from_der(&der).context("a certificate is not X.509 DER")?;
        roots.push(RootCertificate {
            pem: format!("{}{}\n", &rest[start..end], END),
            fingerprint: format!("sha256:{}", crate::store::hash::sha256_hex(&der)),
            subject: certificate.tbs_certificate.subject.to_string(),
        });
        rest = &rest[end + END.len()..];
    }
    if roots.is_empty() {
        anyhow::bail!("it holds no PEM certificate");
    }
    Ok(roots)
}

fn path(dirs: &Dirs) -> std::path::PathBuf {
    dirs.config.join(POLICY_FILE)
}

impl Policies {
    /// Reads the user's policies; a missing file holds none.
    pub(crate) fn load(dirs: &Dirs) -> anyhow::Result<Policies> {
        let path = path(dirs);
        match std::fs::read_to_string(&path) {
            Ok(text) => toml::from_str(&text).map_err(|e| {
                anyhow::anyhow!(
                    Hinted::new(format!(
                        "{}: not a file of signer policies: {}",
                        path.display(),
                        e.to_string().trim()
                    ))
                    .hint("fix it, or delete it and set the policies again with `skillpkg trust SOURCE …`")
                )
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Policies::default()),
            Err(e) => Err(e).with_context(|| format!("could not read {}", path.display())),
        }
    }

    /// Changes the file under a lock and writes it back atomically,
    /// private to the user.
    fn update<T>(
        dirs: &Dirs,
        change: impl FnOnce(&mut Policies) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        let path = path(dirs);
        let _lock = crate::fsutil::lock_exclusive(&dirs.config.join(".signers.lock"))
            .with_context(|| format!("could not lock {}", path.display()))?;
        let mut policies = Policies::load(dirs)?;
        let result = change(&mut policies)?;
        let text = format!(
            "# Signer policies, written by `skillpkg trust SOURCE`.\n{}",
            toml::to_string(&policies).expect("the policies serialise")
        );
        crate::fsutil::write_private(&path, text.as_bytes())
            .with_context(|| format!("could not write {}", path.display()))?;
        Ok(result)
    }
}

impl Policy {
    /// Whether it covers a source spelled any of `sources` ways.
    pub(crate) fn covers_any(&self, sources: &[CanonicalSource]) -> bool {
        sources.iter().any(|source| self.canonical.covers(source))
    }
}

/// `source` (as `trust` or `add` takes it, relative to `cwd`) in its
/// canonical spelling, or an error saying why it is no source.
pub(crate) fn canonical_source(source: &str, cwd: &Path) -> anyhow::Result<CanonicalSource> {
    canonical(source, cwd).map_err(|problem| {
        Hinted::new(format!("'{source}' is not a source: {problem}"))
            .hint(
                "give an org (nvidia), a repository URL, a github:/gitlab: short form or a folder",
            )
            .into()
    })
}

/// Adds `accept` to the policy of `source`, making the policy if there is
/// none; with `replace`, it becomes the policy's only signer. Returns the
/// policy as it now is.
pub(crate) fn accept(
    dirs: &Dirs,
    source: &str,
    cwd: &Path,
    accept: Accept,
    replace: bool,
) -> anyhow::Result<Policy> {
    let canonical = canonical_source(source, cwd)?;
    if let Accept::OmsRoots(pem) = &accept {
        root_certificates(pem).context("the OMS root is not a certificate")?;
    }
    Policies::update(dirs, |policies| {
        let index = match policies
            .policies
            .iter()
            .position(|policy| policy.canonical == canonical)
        {
            Some(index) => index,
            None => {
                policies.policies.push(Policy {
                    source: shown_source(source, &canonical),
                    canonical: canonical.clone(),
                    oms_roots: Vec::new(),
                    sigstore: Vec::new(),
                    sigstore_root: None,
                });
                policies.policies.len() - 1
            }
        };
        let policy = &mut policies.policies[index];
        if replace {
            policy.oms_roots.clear();
            policy.sigstore.clear();
        }
        match accept {
            Accept::OmsRoots(pem) => {
                for root in root_certificates(&pem)? {
                    let known = policy.oms_roots.iter().any(|known| {
                        root_certificates(known).is_ok_and(|known| {
                            known.iter().any(|k| k.fingerprint == root.fingerprint)
                        })
                    });
                    if !known {
                        policy.oms_roots.push(root.pem);
                    }
                }
            }
            Accept::Sigstore { identity, root } => {
                if !policy.sigstore.contains(&identity) {
                    policy.sigstore.push(identity);
                }
                if root.is_some() || replace {
                    policy.sigstore_root = root;
                }
            }
        }
        Ok(policy.clone())
    })
}

/// Removes the policy of `source`; whether there was one.
pub(crate) fn revoke(dirs: &Dirs, source: &str, cwd: &Path) -> anyhow::Result<bool> {
    let canonical = canonical_source(source, cwd)?;
    Policies::update(dirs, |policies| {
        let before = policies.policies.len();
        policies
            .policies
            .retain(|policy| policy.canonical != canonical);
        Ok(policies.policies.len() != before)
    })
}

/// The canonical spellings of where the locked skill `name` comes from,
/// which policies are matched against: its org (for `org/name`) and its
/// index, repository (with its folder), OCI repository or folder.
pub(crate) fn sources_of(
    name: &str,
    source: &SourceId,
    project_dir: &Path,
) -> Vec<CanonicalSource> {
    let mut sources = Vec::new();
    if let Some((org, _)) = name.split_once('/') {
        sources.push(CanonicalSource::Org(org.to_ascii_lowercase()));
    }
    let place = match source {
        SourceId::Registry { index } if index.contains("://") => canonical(index, project_dir).ok(),
        SourceId::Registry { .. } => None,
        SourceId::Path { path } => Some(CanonicalSource::folder(Path::new(path), project_dir)),
        SourceId::Git { origin, .. } => {
            canonical(&origin.url, project_dir)
                .ok()
                .map(|repository| match &origin.subdir {
                    Some(subdir) => repository.within(subdir),
                    None => repository,
                })
        }
        SourceId::Oci { origin, .. } => {
            canonical(&format!("oci://{}", origin.repository), project_dir).ok()
        }
        SourceId::WellKnown { origin, .. } => canonical(&origin.site, project_dir).ok(),
    };
    sources.extend(place);
    sources
}

/// The policies a project's `[signers]` adds: each an org or source with
/// an OMS root (a PEM file inside the project) or a Sigstore identity.
/// They apply whether or not the project is trusted: they can only add
/// checks, never relax the user's. Errors name `skills.toml` and the source.
pub(crate) fn project_policies(
    project: &crate::project::Project,
    manifest: &crate::manifest::Manifest,
) -> anyhow::Result<Vec<Policy>> {
    let mut policies = Vec::new();
    for (source, requirement) in &manifest.signers {
        let problem = |what: String| {
            anyhow::anyhow!(
                Hinted::new(format!(
                    "{}: [signers] {source:?}: {what}",
                    project.manifest_path.display()
                ))
                .hint("give `oms-root = \"FILE\"`, or `sigstore-identity` (or `sigstore-identity-regexp`) with `sigstore-issuer`, files inside the project")
            )
        };
        let read = |file: &str, what: &str| -> anyhow::Result<String> {
            let path = project.dir.join(file);
            project
                .check_inside(&path, what)
                .map_err(|e| problem(format!("{e:#}")))?;
            fs_err::read_to_string(&path).map_err(|e| problem(format!("{e}")))
        };
        let canonical =
            canonical_source(source, &project.dir).map_err(|e| problem(format!("{e:#}")))?;
        let mut policy = Policy {
            source: source.clone(),
            canonical,
            oms_roots: Vec::new(),
            sigstore: Vec::new(),
            sigstore_root: None,
        };
        if let Some(file) = &requirement.oms_root {
            let text = read(file, "an OMS root of [signers]")?;
            let roots = root_certificates(&text).map_err(|e| problem(format!("{file}: {e:#}")))?;
            policy.oms_roots = roots.into_iter().map(|root| root.pem).collect();
        }
        let identity = match (
            &requirement.sigstore_identity,
            &requirement.sigstore_identity_regexp,
        ) {
            (Some(identity), None) => Some((identity, false)),
            (None, Some(pattern)) => Some((pattern, true)),
            (Some(_), Some(_)) => {
                return Err(problem(
                    "give sigstore-identity or sigstore-identity-regexp, not both".into(),
                ));
            }
            (None, None) => None,
        };
        match (identity, &requirement.sigstore_issuer) {
            (Some((identity, regexp)), Some(issuer)) => policy.sigstore.push(SigstoreIdentity {
                identity: identity.clone(),
                regexp,
                issuer: issuer.clone(),
            }),
            (None, None) => {}
            _ => {
                return Err(problem(
                    "a Sigstore identity needs sigstore-issuer, and sigstore-issuer an identity"
                        .into(),
                ));
            }
        }
        if let Some(file) = &requirement.trusted_root {
            policy.sigstore_root = Some(read(file, "a trusted root of [signers]")?);
        }
        if policy.oms_roots.is_empty() && policy.sigstore.is_empty() {
            return Err(problem("it names no signer".into()));
        }
        policies.push(policy);
    }
    Ok(policies)
}

/// How a policy names its source: a folder by its canonical path (the
/// text given may be relative), anything else as given.
fn shown_source(source: &str, canonical: &CanonicalSource) -> String {
    match canonical {
        CanonicalSource::Folder(path) => path.display().to_string(),
        _ => source.trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_policy_on_a_repository_covers_its_other_spellings_and_nothing_beside_it() {
        let cwd = Path::new("/work/project");
        let policies = Policies {
            policies: vec![Policy {
                source: "https://github.com/NVIDIA/skills".into(),
                canonical: canonical_source("https://github.com/NVIDIA/skills", cwd).unwrap(),
                oms_roots: Vec::new(),
                sigstore: Vec::new(),
                sigstore_root: None,
            }],
        };
        let covered = |source: &str| {
            policies.policies[0].covers_any(&[canonical_source(source, cwd).unwrap()])
        };
        assert!(covered("github:NVIDIA/skills/skills/cuda"));
        assert!(covered("git@github.com:nvidia/skills.git"));
        assert!(!covered("https://github.com/NVIDIA/skills-evil"));
        assert!(!covered("nvidia"));
    }

    #[test]
    fn policies_round_trip_through_their_file_format() {
        let cwd = Path::new("/work/project");
        let policies = Policies {
            policies: vec![Policy {
                source: "nvidia".into(),
                canonical: canonical_source("nvidia", cwd).unwrap(),
                oms_roots: vec!["PEM".into()],
                sigstore: vec![SigstoreIdentity {
                    identity: "https://github.com/acme/.*".into(),
                    regexp: true,
                    issuer: "https://token.actions.githubusercontent.com".into(),
                }],
                sigstore_root: None,
            }],
        };
        let text = toml::to_string(&policies).unwrap();
        let parsed: Policies = toml::from_str(&text).unwrap();
        assert_eq!(parsed.policies, policies.policies, "{text}");
    }
}
