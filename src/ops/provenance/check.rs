//! The one way in to provenance: [`check`] decides whether a skill, or
//! a record an org signs, is signed as the [`Pins`] require, at every
//! moment a command asks (a [`Claim`]), and says so in one [`Verdict`].
//!
//! | moment | claim | who calls |
//! |---|---|---|
//! | a registry archive's minisign signature, by a key its index lists | [`Claim::Package`] | `install` (fetch) |
//! | a registry archive's Sigstore bundle, against policies and pins | [`Claim::Archive`] | `install` (fetch) |
//! | a path, git or site skill before its tree is read | [`Claim::Direct`] | `install` (fetch) |
//! | the tree about to be put in place (`skill.oms.sig`) | [`Claim::Tree`] | `install` (apply) |
//! | an installed skill, offline, against the lock | [`Claim::Installed`] | `verify` |
//! | a channel move | [`Claim::ChannelRecord`] | `install`, `promote` |
//! | an org's policy | [`Claim::Policy`] | `install` |
//! | an upstream record beside a re-signed version | [`Claim::Upstream`] | `mirror`, `promote` |
//! | a signature given by hand | [`Claim::Given`] | `signature verify` |
//!
//! The moments' own checks are private to the room. Besides `check` it
//! offers only what reads or edits the pins: the lock's `[keys]`
//! (`keys::settle_signer` pins an org's key on first use,
//! `check_signers_pinned`, `check_org_key` before `promote` signs), the
//! signer policies `trust` edits, where a version stands as its checked
//! channel records say (`channels::standing`) and the signing of a move
//! (`channels::promote`). A git commit's `signed-by` is checked as the
//! commit is fetched, before there is a tree (`signed_commit`), and the
//! lock records it as the commit's signer, not the skill's.

use crate::ops::provenance::claim::{Claim, Pins, Verdict};

/// Checks `claim` against `pins`.
pub(crate) fn check(claim: Claim<'_>, pins: &Pins<'_>) -> Verdict {
    use crate::ops::provenance::{channels, given, keys, recheck, records};
    match claim {
        Claim::Package {
            release,
            claim,
            archive,
        } => keys::verified_signer(release, claim, archive).into(),
        Claim::Archive {
            name,
            version,
            source,
            checksum,
            bundle,
        } => match pins.check_archive(name, version, source, checksum, bundle) {
            Ok(stage) => Verdict::staged(stage),
            Err(error) => Verdict::Refused(error),
        },
        Claim::Direct { name, source } => Verdict::staged(pins.direct_stage(name, source)),
        Claim::Tree {
            name,
            version,
            tree,
            stage,
        } => pins.check_tree(name, version, tree, stage).into(),
        Claim::Installed {
            skill,
            dir,
            dirs,
            indexes,
        } => recheck::recheck(skill, dir, pins, dirs, indexes),
        Claim::ChannelRecord { entry, record } => channels::record_proof(entry, record, pins.keys)
            .map(Some)
            .into(),
        Claim::Policy {
            policy,
            text,
            signature,
        } => records::policy_proof(policy, text, signature, pins.keys)
            .map(Some)
            .into(),
        Claim::Upstream {
            upstream,
            package,
            version,
            cksum,
        } => records::upstream_proof(upstream, pins.keys, package, version, cksum)
            .map(Some)
            .into(),
        Claim::Given(given) => given::check(given).map(Some).into(),
    }
}

#[cfg(test)]
mod tests;
