//! Sigstore bundles, verified offline with `sigstore-verify`: the Fulcio
//! chain, the Rekor inclusion proof or SET, timestamps and SCTs against a
//! trusted root, then the signer against a policy (an identity and its
//! OIDC issuer, or a public key for keyed bundles).

use super::{Proof, Subject, Verifier};
use crate::manifest::lock::{LockedSigner, SignerTable};
use anyhow::Context as _;
use sigstore_verify::trust_root::{
    SIGSTORE_PRODUCTION_TRUSTED_ROOT, SIGSTORE_STAGING_TRUSTED_ROOT, TrustedRoot,
};
use sigstore_verify::types::{Bundle, DerPublicKey, Sha256Hash};
use sigstore_verify::{PublicKeyVerificationPolicy, VerificationPolicy};

/// Who may have made the signature.
#[derive(Debug, Clone)]
pub(crate) enum Policy {
    /// A keyless signature by exactly this identity (the certificate's
    /// SAN: an email or a workflow URI), from this OIDC issuer.
    Identity { identity: String, issuer: String },
    /// A keyless signature by an identity the whole of `pattern` matches,
    /// from this OIDC issuer.
    IdentityPattern { pattern: String, issuer: String },
    /// A keyed signature by this public key (its PEM text).
    Key(String),
}

impl Policy {
    /// A keyless signature by `identity` (with `regexp`, by an identity
    /// the whole of that regex matches), from `issuer`.
    pub(crate) fn keyless(identity: &str, regexp: bool, issuer: &str) -> Policy {
        match regexp {
            true => Policy::IdentityPattern {
                pattern: identity.to_string(),
                issuer: issuer.to_string(),
            },
            false => Policy::Identity {
                identity: identity.to_string(),
                issuer: issuer.to_string(),
            },
        }
    }
}

/// The trust material the bundle is checked against.
#[derive(Debug, Clone)]
pub(crate) enum Root {
    /// Sigstore's public-good instance (the root embedded in skillpkg).
    Production,
    /// Sigstore's staging instance.
    Staging,
    /// A `trusted_root.json`'s text.
    Json(String),
}

/// A Sigstore bundle and what it must prove.
#[derive(Debug, Clone)]
pub(crate) struct Sigstore {
    /// The bundle's JSON text.
    pub bundle: String,
    /// Who may have signed.
    pub policy: Policy,
    /// What the bundle's certificates, log entries and timestamps must
    /// chain to.
    pub root: Root,
}

impl Verifier for Sigstore {
    fn family(&self) -> &'static str {
        "sigstore"
    }

    fn verify(&self, subject: Subject<'_>) -> anyhow::Result<Proof> {
        if let Subject::Folder(_) = subject {
            return Err(not_a_file());
        }
        super::ring_provider::install();
        let root = match &self.root {
            Root::Production => TrustedRoot::from_json(SIGSTORE_PRODUCTION_TRUSTED_ROOT),
            Root::Staging => TrustedRoot::from_json(SIGSTORE_STAGING_TRUSTED_ROOT),
            Root::Json(json) => TrustedRoot::from_json(json),
        }
        .context("the trusted root cannot be read")?;
        let verifier =
            sigstore_verify::Verifier::new(&root).context("the trusted root is not usable")?;
        let bundle = Bundle::from_json(&self.bundle).context("the bundle cannot be read")?;
        let check = |result: sigstore_verify::Result<sigstore_verify::VerificationResult>| {
            result.context("the bundle does not verify")
        };
        let verify_with = |policy: &dyn sigstore_verify::Policy| match subject {
            Subject::Bytes(bytes) => check(verifier.verify(bytes, &bundle, policy)),
            Subject::Sha256(digest) => {
                check(verifier.verify(Sha256Hash::new(digest), &bundle, policy))
            }
            Subject::Folder(_) => Err(not_a_file()),
        };
        let signer = match &self.policy {
            Policy::Identity { identity, issuer } => {
                verify_with(&VerificationPolicy::new(identity, issuer))?;
                LockedSigner::Other(SignerTable::Sigstore {
                    identity: identity.clone(),
                    issuer: issuer.clone(),
                    root: None,
                })
            }
            Policy::IdentityPattern { pattern, issuer } => {
                let regex = regex::Regex::new(&format!("^(?:{pattern})$"))
                    .with_context(|| format!("the identity pattern {pattern:?} is not a regex"))?;
                let result =
                    verify_with(&VerificationPolicy::any_identity().require_issuer(issuer))?;
                let identity = result
                    .identity()
                    .filter(|_| result.certificate_verified())
                    .map(|identity| identity.as_str().to_owned())
                    .context("the bundle names no verified identity")?;
                if !regex.is_match(&identity) {
                    anyhow::bail!(
                        "the bundle was signed by {identity}, which the identity pattern {pattern:?} does not match"
                    );
                }
                LockedSigner::Other(SignerTable::Sigstore {
                    identity,
                    issuer: issuer.clone(),
                    root: None,
                })
            }
            Policy::Key(pem) => {
                let key = DerPublicKey::from_pem(pem)
                    .context("the public key is not a PEM public key")?;
                let fingerprint = super::sha256(key.as_bytes());
                verify_with(&PublicKeyVerificationPolicy::new(key))?;
                LockedSigner::Other(SignerTable::SigstoreKey { key: fingerprint })
            }
        };
        Ok(Proof {
            signer,
            signature: super::sha256(self.bundle.as_bytes()),
            statement: None,
            vouched: None,
            root: None,
        })
    }
}

/// The refusal of a folder: a bundle signs one file.
fn not_a_file() -> anyhow::Error {
    crate::hint::Hinted::new("a Sigstore bundle signs files, not folders")
        .hint("give the signed file's path, or verify a folder's OMS signature")
        .into()
}
