//! Provenance: who signed what, behind one verifier for every signature
//! family (DESIGN §7). A [`Verifier`] checks a [`Subject`] (a file's
//! bytes, or a skill folder) and says which [`Signer`] made the
//! signature, in the form `skills.lock` pins, with the digest of the
//! signature itself.
//!
//! Families: [`minisign`] (skillpkg's own packages, and the `minisign`
//! CLI's signatures), [`sigstore`] (Sigstore bundles, keyless or keyed),
//! [`gitsign`] (git commits signed with Sigstore certificates) and [`oms`] (OpenSSF Model Signing over a skill folder, by a
//! certificate chain or a key).

pub(crate) mod gitsign;
pub(crate) mod minisign;
pub(crate) mod oms;
mod ring_provider;
pub(crate) mod sigstore;

use serde::Serialize;

/// What a signature is checked against.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Subject<'a> {
    /// A file's bytes.
    Bytes(&'a [u8]),
    /// A file known only by its SHA-256 digest.
    Sha256([u8; 32]),
    /// A skill folder, every file of which the signature lists.
    Folder(&'a std::path::Path),
}

/// Who made a signature, as the lock pins it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "family", rename_all = "kebab-case")]
pub(crate) enum Signer {
    /// A minisign public key (its base64 line).
    Minisign {
        /// The key.
        key: String,
    },
    /// A keyless Sigstore signature: the certificate's identity and the
    /// OIDC issuer that vouched for it.
    Sigstore {
        /// The SAN: an email, or a workflow URI.
        identity: String,
        /// The OIDC issuer.
        issuer: String,
    },
    /// A keyed Sigstore signature.
    SigstoreKey {
        /// `sha256:<hex>` of the public key (its DER SubjectPublicKeyInfo).
        key: String,
    },
    /// An OMS signature by a certificate chaining to a given root.
    Oms {
        /// The leaf certificate's subject, in RFC 4514 text
        /// (`CN=…,O=…,C=…`).
        subject: String,
        /// `sha256:<hex>` of the DER of the root the chain ended at.
        chain: String,
    },
    /// An OMS signature by a bare key.
    OmsKey {
        /// `sha256:<hex>` of the public key (its DER SubjectPublicKeyInfo).
        key: String,
    },
}

impl std::fmt::Display for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Signer::Minisign { key } => write!(f, "minisign key {key}"),
            Signer::Sigstore { identity, issuer } => {
                write!(f, "{identity} (issuer {issuer})")
            }
            Signer::SigstoreKey { key } => write!(f, "Sigstore key {key}"),
            Signer::Oms { subject, chain } => write!(f, "{subject} (root {chain})"),
            Signer::OmsKey { key } => write!(f, "OMS key {key}"),
        }
    }
}

/// A signature that verified.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Verified {
    /// Who made it.
    pub signer: Signer,
    /// `sha256:<hex>` of the signature as given: what the lock records
    /// beside the signer.
    pub signature: String,
    /// What the signature says besides (minisign's trusted comment).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
    /// The files of a folder it vouches for, by `/`-separated name: `None`
    /// when it signs the whole subject (a file's bytes or digest).
    #[serde(skip)]
    pub vouched: Option<std::collections::BTreeSet<String>>,
}

/// One signature family's check of one signature.
pub(crate) trait Verifier {
    /// The family's name, as `signature verify` reports it.
    fn family(&self) -> &'static str;

    /// Checks the signature over `subject`: who made it, or why it does
    /// not verify (an error naming the failed check).
    fn verify(&self, subject: Subject<'_>) -> anyhow::Result<Verified>;
}

/// `sha256:<hex>` of `bytes`.
fn sha256(bytes: &[u8]) -> String {
    format!("sha256:{}", super::hash::sha256_hex(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each family refuses what it does not sign, saying so.
    #[test]
    fn every_family_refuses_subjects_it_does_not_sign() {
        let folder = Subject::Folder(std::path::Path::new("skill"));
        let minisign = minisign::Minisign {
            keys: Vec::new(),
            signature: String::new(),
            comment: None,
        };
        let refusal = |verifier: &dyn Verifier, subject| {
            format!("{:#}", verifier.verify(subject).unwrap_err())
        };
        assert!(refusal(&minisign, folder).contains("minisign signature signs files, not folders"));
        let sigstore = sigstore::Sigstore {
            bundle: String::new(),
            policy: sigstore::Policy::Key(String::new()),
            root: sigstore::Root::Production,
        };
        assert!(refusal(&sigstore, folder).contains("Sigstore bundle signs files, not folders"));
        let oms = oms::Oms {
            bundle: String::new(),
            trust: oms::OmsTrust::Key(String::new()),
            ignore_unsigned_files: false,
        };
        for subject in [Subject::Bytes(b"x"), Subject::Sha256([0; 32])] {
            assert!(refusal(&oms, subject).contains("covers a skill folder, not a file"));
        }
    }
}
