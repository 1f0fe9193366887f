//! Provenance: who may sign what, and whether they did (DESIGN §5, §7),
//! in one room, with one way in: [`check::check`] takes a [`claim::Claim`]
//! (what is claimed signed, at which moment), holds it to the
//! [`claim::Pins`] (who may sign) and gives a [`claim::Verdict`], whose
//! [`Proof`] says who signed. `install`, `verify`, `mirror`, `promote` and
//! `signature verify` all ask it; the moments' own checks below are
//! private to the room.
//!
//! - The families, behind one [`Verifier`] each: [`minisign`]
//!   (skillpkg's own packages and the `minisign` CLI's signatures),
//!   [`sigstore`] (bundles, keyless or keyed), [`gitsign`] (git commits
//!   signed with Sigstore certificates) and [`oms`] (OpenSSF Model
//!   Signing over a skill folder, by a certificate chain or a key). A
//!   verifier checks a [`Subject`] and proves who made the signature as
//!   the lock pins signers ([`LockedSigner`], the one signer type), with
//!   the digest of the signature itself.
//! - Who may sign: the user's and a trusted project's signer policies
//!   ([`signer_policy`], `signers.toml`), and the signers a git
//!   dependency's `signed-by` names ([`signed_commit`]).
//! - Whether they did: at install, against the policies and the lock's
//!   pins ([`install`]), again offline by `verify` ([`recheck`]), and by
//!   hand, against what `signature verify` is given ([`given`]).
//!
//! - The lock's `[keys]`: which minisign keys sign an org's packages, and
//!   whether a release's archive was signed by one ([`keys`]; `ops::keys`
//!   changes them on `trust ORG --key`).
//!
//! - Records an org signs: channel moves ([`channels`]), its policy and
//!   upstream records ([`records`]).
//!
//! The records' formats stay the index's (`index::channel`,
//! `index::policy_file`, `index::upstream`); `store::signing` signs and
//! checks the minisign bytes.

pub(crate) mod channels;
pub(crate) mod check;
pub(crate) mod claim;
pub(crate) mod gitsign;
pub(crate) mod given;
pub(crate) mod install;
pub(crate) mod keys;
pub(crate) mod minisign;
pub(crate) mod oms;
pub(crate) mod recheck;
pub(crate) mod records;
mod ring_provider;
pub(crate) mod signed_commit;
pub(crate) mod signer_policy;
pub(crate) mod sigstore;

use crate::manifest::lock::LockedSigner;

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

/// What proved a skill's (or a record's) provenance: a signature that
/// verified, by whom, and what the lock records of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Proof {
    /// Who made it, as the lock pins it (a keyless Sigstore signer's
    /// `root` only once it was checked against the pins, which know the
    /// root it verified against).
    pub signer: LockedSigner,
    /// `sha256:<hex>` of the signature as given: what the lock records
    /// beside the signer.
    pub signature: String,
    /// What the signature says besides (minisign's trusted comment).
    pub statement: Option<String>,
    /// The files of a folder it vouches for, by `/`-separated name: `None`
    /// when it signs the whole subject (a file's bytes or digest).
    pub vouched: Option<std::collections::BTreeSet<String>>,
    /// The `[roots]` entry re-verifying it needs (fingerprint and text):
    /// set by the pins' check, never by a family's verifier.
    pub root: Option<(String, String)>,
}

/// One signature family's check of one signature.
pub(crate) trait Verifier {
    /// The family's name, as `signature verify` reports it.
    fn family(&self) -> &'static str;

    /// Checks the signature over `subject`: who made it, or why it does
    /// not verify (an error naming the failed check).
    fn verify(&self, subject: Subject<'_>) -> anyhow::Result<Proof>;
}

/// `sha256:<hex>` of `bytes`.
fn sha256(bytes: &[u8]) -> String {
    format!("sha256:{}", crate::store::hash::sha256_hex(bytes))
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
