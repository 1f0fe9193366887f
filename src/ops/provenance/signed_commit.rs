//! The signature check of a git skill whose `skills.toml` entry says
//! `signed-by`: the commit resolution chose (or the lock pinned) must be
//! signed by one of the signers named, and a commit signed by another of
//! them than the locked one is a signer change the user must allow.
//! gitsign signatures are checked here, by provenance's verifier, against
//! the dependency's `trusted-root` (Sigstore's public-good root when it
//! names none).

use anyhow::bail;

use crate::git::signature::{
    AllowedSigner, CommitPlace, CommitSigner as Signed, allowed_signers, not_allowed, verify_commit,
};
use crate::hint::Hinted;
use crate::manifest::lock::{CommitSigner, LockedSkill};
use crate::manifest::lock::{LockedSigner, SignerTable};
use crate::manifest::source_id::SourceId;
use crate::ops::provenance::gitsign::{Gitsign, claimed};
use crate::ops::provenance::sigstore::{Policy, Root};
use crate::ops::provenance::{Subject, Verifier as _};

/// What the check of one git skill needs.
pub(crate) struct SignedCommit<'a> {
    /// The skill's key in `skills.toml`.
    name: &'a str,
    /// Its repository, without credentials.
    url: &'a str,
    /// Its `signed-by`, read.
    allowed: Vec<AllowedSigner>,
    /// Its lock entry before this run, whatever may move.
    before: Option<&'a LockedSkill>,
    /// `--allow-signer-change`.
    allow_change: bool,
    /// The `trusted_root.json` gitsign certificates must chain to.
    root: Root,
}

impl<'a> SignedCommit<'a> {
    /// The check of the git skill `name` from `url` whose `signed-by` is
    /// `signed_by` (an error names an entry that is no signer), locked as
    /// `before`; `trusted_root` is the text of the `trusted_root.json`
    /// gitsign signatures are checked against (`None`: Sigstore's
    /// public-good root).
    pub(crate) fn new(
        name: &'a str,
        url: &'a str,
        signed_by: &[String],
        trusted_root: Option<String>,
        before: Option<&'a LockedSkill>,
        allow_change: bool,
    ) -> anyhow::Result<SignedCommit<'a>> {
        Ok(SignedCommit {
            name,
            url,
            allowed: allowed_signers(name, signed_by)?,
            before,
            allow_change,
            root: trusted_root.map_or(Root::Production, Root::Json),
        })
    }

    /// Who signed `commit` of `repo`, when `signed-by` asks for a check;
    /// an error when no signer named did, or when the signer changed from
    /// the locked commit's without `--allow-signer-change`.
    pub(crate) fn check(
        &self,
        repo: &git2::Repository,
        commit: git2::Oid,
    ) -> anyhow::Result<Option<CommitSigner>> {
        if self.allowed.is_empty() {
            return Ok(None);
        }
        let place = CommitPlace {
            name: self.name,
            url: self.url,
            commit,
        };
        let x509 = |armored: &str, signed: &[u8]| self.gitsign(&place, armored, signed);
        let signer = match verify_commit(repo, &place, &self.allowed, &x509)? {
            Signed::Ssh(key) => CommitSigner::Ssh(key),
            Signed::Gpg(fingerprint) => CommitSigner::Gpg(fingerprint),
            Signed::Sigstore { identity, issuer } => CommitSigner::Sigstore { identity, issuer },
        };
        if let Some((before, previous)) = self.previous()
            && *previous != signer
            && !self.allow_change
        {
            bail!(
                Hinted::new(format!(
                    "'{}': commit {commit} of {} is signed by {signer}, but the locked commit {before} was signed by {previous}",
                    self.name, self.url
                ))
                .hint(format!(
                    "both are signers skills.toml names; if the change is expected, run `skillpkg update {} --allow-signer-change`",
                    self.name
                ))
            );
        }
        Ok(Some(signer))
    }

    /// The locked commit and its signer, when that signer is still one
    /// `signed-by` names: a signer taken out of `signed-by` is a change
    /// the user made already.
    fn previous(&self) -> Option<(&str, &CommitSigner)> {
        let before = self.before?;
        let SourceId::Git { commit, .. } = &before.source else {
            return None;
        };
        let signer = before.commit_signer.as_ref()?;
        self.admits(signer).then_some((commit.as_str(), signer))
    }

    /// Whether the locked signer of `locked` is still one `signed-by`
    /// names (a skill in place as locked keeps its commit only then).
    pub(crate) fn keeps(&self, locked: &LockedSkill) -> bool {
        self.allowed.is_empty()
            || locked
                .commit_signer
                .as_ref()
                .is_some_and(|s| self.admits(s))
    }

    fn admits(&self, signer: &CommitSigner) -> bool {
        let signer = match signer {
            CommitSigner::Ssh(key) => Signed::Ssh(key.clone()),
            CommitSigner::Gpg(fingerprint) => Signed::Gpg(fingerprint.clone()),
            CommitSigner::Sigstore { identity, issuer } => Signed::Sigstore {
                identity: identity.clone(),
                issuer: issuer.clone(),
            },
        };
        self.allowed.iter().any(|a| a.admits(&signer))
    }

    /// The gitsign signature `armored` over `signed`: the signer its
    /// certificate names picks the `signed-by` entry to check it against
    /// (only a name: the check proves it), then the verifier proves the
    /// certificate, the log entry and the signature.
    fn gitsign(&self, place: &CommitPlace, armored: &str, signed: &[u8]) -> anyhow::Result<Signed> {
        let named = claimed(armored).map_err(|e| {
            place.refusal(&format!(
                "carries an X.509 signature that is not gitsign's: {e:#}"
            ))
        })?;
        let claim = Signed::Sigstore {
            identity: named.identity.clone(),
            issuer: named.issuer.clone(),
        };
        let Some(policy) = self.allowed.iter().find_map(|a| match a {
            AllowedSigner::Sigstore {
                identity,
                regexp,
                issuer,
            } if a.admits(&claim) => Some(Policy::keyless(identity, *regexp, issuer)),
            _ => None,
        }) else {
            bail!(not_allowed(
                place,
                &format!("{named}, by gitsign"),
                &self.allowed
            ));
        };
        let check = Gitsign {
            signature: armored.to_string(),
            policy,
            root: self.root.clone(),
        };
        let verified = check.verify(Subject::Bytes(signed)).map_err(|e| {
            let refusal = place.refusal(&format!(
                "carries a gitsign signature by {named} that does not verify: {e:#}"
            ));
            let hints = e.downcast_ref::<Hinted>().map(Hinted::hints);
            hints
                .unwrap_or_default()
                .iter()
                .fold(refusal, |refusal, hint| refusal.hint(hint))
        })?;
        match verified.signer {
            LockedSigner::Other(SignerTable::Sigstore {
                identity, issuer, ..
            }) => Ok(Signed::Sigstore { identity, issuer }),
            other => bail!(place.refusal(&format!(
                "was verified as signed by {other}, which is no gitsign certificate"
            ))),
        }
    }
}
