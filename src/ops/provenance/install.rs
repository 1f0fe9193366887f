//! Signer policies and pinned signers at install time (DESIGN §5, §7):
//! every install whose source a policy covers (the user's, or one a
//! trusted project adds) must be signed by a signer the policy accepts,
//! and one whose lock entry pins a Sigstore or OMS signer must be signed
//! by that very signer, on every transport. A registry entry's Sigstore
//! bundle is checked over the archive's digest before anything is put in
//! place; a `skill.oms.sig` over the tree about to be put in place.
//!
//! What verified a skill is pinned in its lock entry (`signer`, with the
//! signature's digest), and what re-verifying it needs (an OMS root, a
//! private Sigstore trusted root) in the lock's `[roots]`, so that a
//! teammate's `install --locked` re-verifies offline with no policy.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::bail;

use crate::hint::Hinted;
use crate::manifest::lock::{LockedSigner, LockedSkill, SignerTable};
use crate::manifest::source_id::SourceId;
use crate::ops::provenance::claim::{ArchiveStage, Pins};
use crate::ops::provenance::oms::{self, Oms, OmsTrust};
use crate::ops::provenance::signer_policy::{
    Policy, SigstoreIdentity, root_certificates, sources_of,
};
use crate::ops::provenance::sigstore::{self, Sigstore};
use crate::ops::provenance::{Proof, Subject, Verifier as _};

impl Pins<'_> {
    /// The policies covering `name` from `source`, with their indices.
    fn covering(&self, name: &str, source: &SourceId) -> Vec<(usize, &Policy)> {
        let sources = sources_of(name, source, self.project_dir);
        self.policies
            .iter()
            .enumerate()
            .filter(|(_, policy)| policy.covers_any(&sources))
            .collect()
    }

    /// The Sigstore or OMS signer the old lock pins for `name`.
    fn pin(&self, name: &str) -> Option<&LockedSkill> {
        self.lock.get(name).filter(|pin| {
            pin.signer
                .as_ref()
                .is_some_and(|s| s.minisign_key().is_none())
        })
    }

    /// Whether anything requires `name` from `source` to be signed beyond
    /// minisign: a policy covers it or the lock pins such a signer.
    pub(crate) fn asks(&self, name: &str, source: &SourceId) -> bool {
        self.pin(name).is_some() || !self.covering(name, source).is_empty()
    }

    /// Checks a registry package's Sigstore `bundle` (its entry's) over the
    /// archive whose sha256 is `checksum` (hex) against every policy
    /// covering it that names Sigstore identities, and against its pinned
    /// Sigstore signer. Policies that accept OMS roots, and an OMS pin, are
    /// left for [`Pins::check_tree`].
    pub(super) fn check_archive(
        &self,
        name: &str,
        version: &str,
        source: &SourceId,
        checksum: &str,
        bundle: Option<&str>,
    ) -> anyhow::Result<ArchiveStage> {
        let policies = self.covering(name, source);
        let pin = self.pin(name);
        let mut stage = ArchiveStage::default();
        let digest =
            crate::store::hash::unhex(checksum).and_then(|bytes| <[u8; 32]>::try_from(bytes).ok());
        let verify =
            |identity: &SigstoreIdentity, root: Option<&String>| -> anyhow::Result<Proof> {
                let (Some(bundle), Some(digest)) = (bundle, digest) else {
                    bail!("it carries no Sigstore bundle");
                };
                let verifier = Sigstore {
                    bundle: bundle.to_string(),
                    policy: sigstore_policy(identity),
                    root: sigstore_root(root),
                };
                keyless_proof(verifier.verify(Subject::Sha256(digest))?, root)
            };
        for &(index, policy) in &policies {
            if policy.sigstore.is_empty() {
                stage.needs_tree = true;
                stage.pending.push(index);
                continue;
            }
            let mut failures = Vec::new();
            let proven = policy.sigstore.iter().find_map(|identity| {
                verify(identity, policy.sigstore_root.as_ref())
                    .map_err(|e| failures.push(format!("{identity}: {e:#}")))
                    .ok()
            });
            match proven {
                Some(proven) => {
                    stage.proven.get_or_insert(proven);
                }
                None if !policy.oms_roots.is_empty() => {
                    stage.needs_tree = true;
                    stage.pending.push(index);
                }
                None => bail!(refused(name, version, policy, &failures)),
            }
        }
        if let Some(pin) = pin
            && let Some(LockedSigner::Other(SignerTable::Sigstore {
                identity,
                issuer,
                root,
            })) = &pin.signer
        {
            let root_text = match root {
                Some(fingerprint) => Some(self.lock_root(name, fingerprint)?),
                None => None,
            };
            let pinned = SigstoreIdentity {
                identity: identity.clone(),
                regexp: false,
                issuer: issuer.clone(),
            };
            match &stage.proven {
                Some(proven) => check_same_signer(name, version, pin, proven, &sources(&policies))?,
                None => match verify(&pinned, root_text.as_ref()) {
                    Ok(proven) => stage.proven = Some(proven),
                    Err(e) => bail!(pin_broken(name, version, pin, &e)),
                },
            }
        } else if pin.is_some() {
            stage.needs_tree = true;
        }
        Ok(stage)
    }

    /// Where a path or git skill stands before its tree is checked: every
    /// policy covering it, and its pin, wait for its `skill.oms.sig`.
    pub(super) fn direct_stage(&self, name: &str, source: &SourceId) -> ArchiveStage {
        let pending: Vec<usize> = self
            .covering(name, source)
            .into_iter()
            .map(|(index, _)| index)
            .collect();
        ArchiveStage {
            proven: None,
            needs_tree: !pending.is_empty() || self.pin(name).is_some(),
            pending,
        }
    }

    /// Checks the `skill.oms.sig` of the tree about to be put in place
    /// (`tree`) against the policies `stage` left pending and the OMS
    /// signer the lock pins; returns what proved the skill (the archive
    /// stage's proof, if any, else the OMS signature's), with the files
    /// every OMS signature checked here vouches for: only those may be put
    /// in place.
    pub(super) fn check_tree(
        &self,
        name: &str,
        version: &str,
        tree: &Path,
        stage: &ArchiveStage,
    ) -> anyhow::Result<Option<Proof>> {
        let mut vouched: Option<BTreeSet<String>> = None;
        let proven = self.check_tree_signers(name, version, tree, stage, &mut |oms: &Proof| {
            if let Some(files) = &oms.vouched {
                vouched = Some(match vouched.take() {
                    Some(before) => before.intersection(files).cloned().collect(),
                    None => files.clone(),
                });
            }
        })?;
        Ok(proven.map(|proven| Proof {
            vouched: vouched.or(proven.vouched.clone()),
            ..proven
        }))
    }

    /// [`Pins::check_tree`]'s checks, telling `seen` of each OMS
    /// signature that verified.
    fn check_tree_signers(
        &self,
        name: &str,
        version: &str,
        tree: &Path,
        stage: &ArchiveStage,
        seen: &mut dyn FnMut(&Proof),
    ) -> anyhow::Result<Option<Proof>> {
        let mut proven = stage.proven.clone();
        if !stage.needs_tree {
            return Ok(proven);
        }
        let signature_path = tree.join(oms::SIGNATURE_FILE);
        let bundle = match fs_err::read_to_string(&signature_path) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e.into()),
        };
        let verify = |roots: String| -> anyhow::Result<Proof> {
            let Some(bundle) = &bundle else {
                bail!("it carries no {}", oms::SIGNATURE_FILE);
            };
            let verified = Oms {
                bundle: bundle.clone(),
                trust: OmsTrust::Roots(roots.clone()),
                ignore_unsigned_files: false,
            }
            .verify(Subject::Folder(tree))?;
            let LockedSigner::Other(SignerTable::Oms { subject, chain }) = verified.signer else {
                bail!("the OMS signature is not by a certificate");
            };
            let root = root_certificates(&roots)?
                .into_iter()
                .find(|root| root.fingerprint == chain)
                .map(|root| (chain.clone(), root.pem));
            Ok(Proof {
                signer: LockedSigner::Other(SignerTable::Oms { subject, chain }),
                root,
                ..verified
            })
        };
        // `model_signing sign sigstore`: the same file, signed keylessly.
        let keyless =
            |identity: &SigstoreIdentity, root: Option<&String>| -> anyhow::Result<Proof> {
                let Some(bundle) = &bundle else {
                    bail!("it carries no {}", oms::SIGNATURE_FILE);
                };
                let verified = Oms {
                    bundle: bundle.clone(),
                    trust: OmsTrust::Sigstore(sigstore_policy(identity), sigstore_root(root)),
                    ignore_unsigned_files: false,
                }
                .verify(Subject::Folder(tree))?;
                keyless_proof(verified, root)
            };
        let mut sources = Vec::new();
        for &index in &stage.pending {
            let policy = &self.policies[index];
            sources.push(policy.source.as_str());
            let mut failures = Vec::new();
            let mut found = None;
            if !policy.oms_roots.is_empty() {
                match verify(policy.oms_roots.join("\n")) {
                    Ok(oms) => found = Some(oms),
                    Err(e) => failures.push(format!("{e:#}")),
                }
            }
            for identity in &policy.sigstore {
                if found.is_some() {
                    break;
                }
                match keyless(identity, policy.sigstore_root.as_ref()) {
                    Ok(oms) => found = Some(oms),
                    Err(e) => failures.push(format!("{identity}: {e:#}")),
                }
            }
            match found {
                Some(oms) => {
                    seen(&oms);
                    proven.get_or_insert(oms);
                }
                None => bail!(refused(name, version, policy, &failures)),
            }
        }
        let Some(pin) = self.pin(name) else {
            return Ok(proven);
        };
        if let Some(proven) = &proven {
            check_same_signer(name, version, pin, proven, &sources)?;
            return Ok(Some(proven.clone()));
        }
        let again = match &pin.signer {
            Some(LockedSigner::Other(SignerTable::Oms { chain, .. })) => {
                verify(self.lock_root(name, chain)?)
            }
            Some(LockedSigner::Other(SignerTable::Sigstore {
                identity,
                issuer,
                root,
            })) => {
                let root = root
                    .as_ref()
                    .map(|fingerprint| self.lock_root(name, fingerprint))
                    .transpose()?;
                let pinned = SigstoreIdentity {
                    identity: identity.clone(),
                    regexp: false,
                    issuer: issuer.clone(),
                };
                keyless(&pinned, root.as_ref())
            }
            _ => return Ok(None),
        };
        match again {
            Ok(oms) => {
                seen(&oms);
                check_same_signer(name, version, pin, &oms, &sources)?;
                Ok(Some(oms))
            }
            Err(e) => bail!(pin_broken(name, version, pin, &e)),
        }
    }

    /// The `[roots]` entry `fingerprint` of the old lock.
    fn lock_root(&self, name: &str, fingerprint: &str) -> anyhow::Result<String> {
        match self.lock.roots.get(fingerprint) {
            Some(text) => Ok(text.clone()),
            None => bail!(
                Hinted::new(format!(
                    "skills.lock pins the signer of {name} to root {fingerprint}, but its [roots] table lacks it"
                ))
                .hint("restore skills.lock from version control; nothing was installed")
            ),
        }
    }

    /// The `[roots]` the new lock carries: the old lock's, with those the
    /// proofs of this install add (the lock keeps only those in use).
    pub(crate) fn roots<'p>(
        &self,
        proven: impl IntoIterator<Item = &'p Proof>,
    ) -> BTreeMap<String, String> {
        let mut roots = self.lock.roots.clone();
        for proven in proven {
            if let Some((fingerprint, text)) = &proven.root {
                roots.insert(fingerprint.clone(), text.clone());
            }
        }
        roots
    }
}

/// The sources of `policies`, as refusals name them.
fn sources<'p>(policies: &[(usize, &'p Policy)]) -> Vec<&'p str> {
    policies
        .iter()
        .map(|(_, policy)| policy.source.as_str())
        .collect()
}

/// The Sigstore verifier's policy for `identity`.
fn sigstore_policy(identity: &SigstoreIdentity) -> sigstore::Policy {
    sigstore::Policy::keyless(&identity.identity, identity.regexp, &identity.issuer)
}

/// The trusted root: a `trusted_root.json`'s text, or the public-good one.
fn sigstore_root(root: Option<&String>) -> sigstore::Root {
    match root {
        Some(json) => sigstore::Root::Json(json.clone()),
        None => sigstore::Root::Production,
    }
}

/// What a keyless Sigstore signature, verified against `root`, proves.
fn keyless_proof(verified: Proof, root: Option<&String>) -> anyhow::Result<Proof> {
    let root = root.map(|json| (sha256_text(json), json.clone()));
    let LockedSigner::Other(SignerTable::Sigstore {
        identity, issuer, ..
    }) = verified.signer
    else {
        bail!("the signature is not a keyless Sigstore signature");
    };
    Ok(Proof {
        signer: LockedSigner::Other(SignerTable::Sigstore {
            identity,
            issuer,
            root: root.as_ref().map(|(fingerprint, _)| fingerprint.clone()),
        }),
        root,
        ..verified
    })
}

/// `sha256:<hex>` of a text.
fn sha256_text(text: &str) -> String {
    format!("sha256:{}", crate::store::hash::sha256_hex(text.as_bytes()))
}

/// The refusal of a skill no signer of `policy` signed.
fn refused(name: &str, version: &str, policy: &Policy, failures: &[String]) -> Hinted {
    Hinted::new(format!(
        "{name} {version} is refused by your signer policy for {}: {}",
        policy.source,
        failures.join("; ")
    ))
    .hint(format!(
        "nothing was installed; `skillpkg trust --list` shows the policy, and `skillpkg trust {} {} --replace` changes it if the source really changed its signer",
        crate::hint::shell_quote(&policy.source),
        match policy.oms_roots.is_empty() {
            true => "--sigstore-identity ID --sigstore-issuer URL",
            false => "--oms-root CERT",
        }
    ))
}

/// The flags of `trust SOURCE … --replace` that accept `signer`.
fn accepting_flags(signer: &LockedSigner) -> String {
    match signer {
        LockedSigner::Other(SignerTable::Sigstore {
            identity,
            issuer,
            root,
        }) => format!(
            "--sigstore-identity {} --sigstore-issuer {}{}",
            crate::hint::shell_quote(identity),
            crate::hint::shell_quote(issuer),
            match root {
                Some(_) => " --trusted-root FILE",
                None => "",
            }
        ),
        _ => "--oms-root CERT".to_string(),
    }
}

/// The refusal of a skill whose lock pins a signer that did not sign it.
fn pin_broken(name: &str, version: &str, pin: &LockedSkill, error: &anyhow::Error) -> Hinted {
    let signer = pin.signer.as_ref().expect("a pin has a signer");
    Hinted::new(format!(
        "{name} {version}: skills.lock pins its signer to {signer}, but that signer's signature does not verify: {error:#}"
    ))
    .hint("nothing was installed; if the source really changed its signer, set a policy for it with `skillpkg trust SOURCE … --replace`")
}

/// A skill a policy let in, signed by another signer than its pin.
fn check_same_signer(
    name: &str,
    version: &str,
    pin: &LockedSkill,
    proven: &Proof,
    sources: &[&str],
) -> anyhow::Result<()> {
    let Some(pinned) = &pin.signer else {
        return Ok(());
    };
    if *pinned == proven.signer {
        return Ok(());
    }
    let source = sources
        .first()
        .map(|source| crate::hint::shell_quote(source))
        .unwrap_or_else(|| "SOURCE".into());
    bail!(
        Hinted::new(format!(
            "{name} {version}: skills.lock pins its signer to {pinned}, but it is now signed by {}",
            proven.signer
        ))
        .hint(format!(
            "nothing was installed; if the source really changed its signer, accept it with `skillpkg trust {source} {} --replace`, then install again",
            accepting_flags(&proven.signer)
        ))
    )
}
