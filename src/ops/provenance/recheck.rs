//! `verify` re-checks each locked skill's signature offline, against the
//! signer the lock pins and what the lock carries (`[keys]`, `[roots]`):
//! a Sigstore bundle from the index entry in the cache over the archive's
//! digest; a minisign signature from the same entry over the cached
//! archive; an OMS signature over the installed tree. What the cache
//! lacks is said, not guessed.

use std::path::Path;

use crate::dirs::Dirs;
use crate::index::PackageName;
use crate::manifest::lock::{LockedSigner, LockedSkill, Lockfile, SignerTable};
use crate::manifest::source_id::SourceId;
use crate::ops::provenance::claim::{OfflineIndexes, Pins, Verdict};
use crate::ops::provenance::oms::{self, Oms, OmsTrust};
use crate::ops::provenance::sigstore::{self, Sigstore};
use crate::ops::provenance::{Proof, Subject, Verifier as _};

/// What re-checking a skill's signature found.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SignatureCheck {
    /// It verifies, by the pinned signer.
    Verified,
    /// It could not be re-checked offline (why).
    Unavailable(String),
    /// It does not verify (why).
    Broken(String),
}

/// Re-checks the `skill.oms.sig` of the skill installed in `dir` against
/// the OMS signer the lock pins and the root its `[roots]` carries.
fn recheck_oms(dir: &Path, subject: &str, chain: &str, lock: &Lockfile) -> SignatureCheck {
    let Some(root) = lock.roots.get(chain) else {
        return SignatureCheck::Broken(format!("the lock's [roots] lacks {chain}"));
    };
    let bundle = match fs_err::read_to_string(dir.join(oms::SIGNATURE_FILE)) {
        Ok(bundle) => bundle,
        Err(e) => return SignatureCheck::Broken(format!("{e}")),
    };
    let verifier = Oms {
        bundle,
        trust: OmsTrust::Roots(root.clone()),
        ignore_unsigned_files: false,
    };
    match verifier.verify(Subject::Folder(dir)) {
        Ok(verified) => match verified.signer {
            LockedSigner::Other(SignerTable::Oms {
                subject: signed_by,
                chain: signed_chain,
            }) if signed_by == subject && signed_chain == chain => {
                all_vouched(dir, &verified.vouched)
            }
            LockedSigner::Other(SignerTable::Oms {
                subject: signed_by,
                chain: signed_chain,
            }) => SignatureCheck::Broken(format!(
                "it is signed by {signed_by} (root {signed_chain}), not {subject}"
            )),
            other => SignatureCheck::Broken(format!("it is signed by {other}, not {subject}")),
        },
        Err(e) => SignatureCheck::Broken(format!("{e:#}")),
    }
}

/// Whether `signer` is a keyless Sigstore signer.
fn is_keyless(signer: &LockedSigner) -> bool {
    matches!(signer, LockedSigner::Other(SignerTable::Sigstore { .. }))
}

/// Verified when every file installed in `dir` is one the signature
/// vouches for (`vouched`, by name); broken, naming them, when the folder
/// holds files it does not cover (`.github/`, `.gitignore` and the
/// statement's `ignore_paths` are outside what model_signing signs, and
/// install leaves them out).
fn all_vouched(dir: &Path, vouched: &Option<std::collections::BTreeSet<String>>) -> SignatureCheck {
    let Some(vouched) = vouched else {
        return SignatureCheck::Verified;
    };
    let files = match crate::store::hash::file_digests(dir) {
        Ok(files) => files,
        Err(e) => return SignatureCheck::Broken(format!("{e}")),
    };
    let outside: Vec<&str> = files
        .keys()
        .filter(|name| !vouched.contains(*name))
        .map(String::as_str)
        .collect();
    match outside.as_slice() {
        [] => SignatureCheck::Verified,
        names => SignatureCheck::Broken(format!(
            "{} {} in the folder but not covered by its signature",
            names.join(", "),
            if names.len() == 1 { "is" } else { "are" }
        )),
    }
}

/// Re-checks the keyless `skill.oms.sig` of the skill installed in `dir`
/// against the Sigstore identity the lock pins.
fn recheck_keyless_oms(
    dir: &Path,
    identity: &str,
    issuer: &str,
    root: Option<&str>,
    lock: &Lockfile,
) -> SignatureCheck {
    let root = match root {
        None => sigstore::Root::Production,
        Some(fingerprint) => match lock.roots.get(fingerprint) {
            Some(json) => sigstore::Root::Json(json.clone()),
            None => {
                return SignatureCheck::Broken(format!("the lock's [roots] lacks {fingerprint}"));
            }
        },
    };
    let bundle = match fs_err::read_to_string(dir.join(oms::SIGNATURE_FILE)) {
        Ok(bundle) => bundle,
        Err(e) => return SignatureCheck::Broken(format!("{e}")),
    };
    let verifier = Oms {
        bundle,
        trust: OmsTrust::Sigstore(
            sigstore::Policy::Identity {
                identity: identity.to_string(),
                issuer: issuer.to_string(),
            },
            root,
        ),
        ignore_unsigned_files: false,
    };
    match verifier.verify(Subject::Folder(dir)) {
        Ok(verified) => all_vouched(dir, &verified.vouched),
        Err(e) => SignatureCheck::Broken(format!("{e:#}")),
    }
}

/// Re-checks the signature of `skill`, installed in `dir`, offline: it
/// verifies by the signer its lock entry pins (the proof is that pin),
/// it does not, or the cache lacks what it takes; unasked when the entry
/// pins no signer to re-check.
pub(super) fn recheck(
    skill: &LockedSkill,
    dir: &Path,
    pins: &Pins<'_>,
    dirs: &Dirs,
    indexes: &mut OfflineIndexes,
) -> Verdict {
    let lock = pins.lock;
    match recheck_signature(skill, dir, lock, pins.project_dir, dirs, indexes) {
        None => Verdict::Unasked,
        Some(SignatureCheck::Unavailable(why)) => Verdict::Unavailable(why),
        Some(SignatureCheck::Broken(why)) => Verdict::Refused(anyhow::anyhow!(why)),
        Some(SignatureCheck::Verified) => match &skill.signer {
            Some(signer) => Verdict::Signed(Proof {
                signer: signer.clone(),
                signature: skill.signature.clone().unwrap_or_default(),
                statement: None,
                vouched: None,
                root: signer
                    .root()
                    .and_then(|root| Some((root.to_string(), lock.roots.get(root)?.clone()))),
            }),
            None => Verdict::Unasked,
        },
    }
}

/// [`recheck`]'s finding. `None`: nothing to re-check.
fn recheck_signature(
    skill: &LockedSkill,
    dir: &Path,
    lock: &Lockfile,
    project_dir: &Path,
    dirs: &Dirs,
    indexes: &mut OfflineIndexes,
) -> Option<SignatureCheck> {
    let signer = skill.signer.as_ref()?;
    if let LockedSigner::Other(SignerTable::Oms { subject, chain }) = signer {
        return Some(recheck_oms(dir, subject, chain, lock));
    }
    if let (
        LockedSigner::Other(SignerTable::Sigstore {
            identity,
            issuer,
            root,
        }),
        SourceId::Path { .. } | SourceId::Git { .. },
    ) = (signer, &skill.source)
    {
        return Some(recheck_keyless_oms(
            dir,
            identity,
            issuer,
            root.as_deref(),
            lock,
        ));
    }
    let SourceId::Registry { index } = &skill.source else {
        return None;
    };
    let checksum = skill.checksum.as_deref()?.strip_prefix("sha256:")?;
    let (LockedSigner::Minisign(_) | LockedSigner::Other(SignerTable::Sigstore { .. })) = signer
    else {
        return None;
    };
    let unavailable = |why: &str| Some(SignatureCheck::Unavailable(why.to_string()));
    let registry = match indexes.get(index, project_dir, dirs) {
        Ok(registry) => registry,
        Err(why) => return unavailable(why),
    };
    let Ok(package) = skill.name.parse::<PackageName>() else {
        return None;
    };
    let entries = match registry.entries(&package) {
        Ok(entries) => entries,
        Err(_) => return unavailable("its index entry is not in the cache"),
    };
    let Some(entry) = entries
        .iter()
        .find(|entry| entry.vers == skill.version && entry.cksum == checksum)
    else {
        return Some(SignatureCheck::Broken(format!(
            "the index no longer lists version {} with checksum sha256:{checksum}",
            skill.version
        )));
    };
    Some(match signer {
        LockedSigner::Minisign(key) => {
            let archive = dirs
                .cache
                .join("archives")
                .join(format!("{checksum}.skill"));
            // Read in pieces, twice: memory does not grow with the archive.
            let Ok(actual) = crate::store::hash::sha256_file(&archive) else {
                return unavailable("its archive is not in the cache");
            };
            if actual != checksum {
                return Some(SignatureCheck::Broken(
                    "the cached archive does not match the lock's checksum".into(),
                ));
            }
            let Ok(file) = fs_err::File::open(&archive) else {
                return unavailable("its archive is not in the cache");
            };
            let comment = crate::store::signing::package_comment(
                &entry.sig,
                &skill.name,
                &skill.version,
                checksum,
            );
            let data = std::io::BufReader::new(file);
            match crate::store::signing::verify_reader_for(key, data, &entry.sig, &comment) {
                Ok(()) => SignatureCheck::Verified,
                Err(e) => SignatureCheck::Broken(format!("the minisign signature by {key}: {e}")),
            }
        }
        LockedSigner::Other(SignerTable::Sigstore {
            identity,
            issuer,
            root,
        }) => {
            let Some(bundle) = &entry.sigstore else {
                return Some(SignatureCheck::Broken(
                    "the index entry carries no Sigstore bundle".into(),
                ));
            };
            let root = match root {
                None => sigstore::Root::Production,
                Some(fingerprint) => match lock.roots.get(fingerprint) {
                    Some(json) => sigstore::Root::Json(json.clone()),
                    None => {
                        return Some(SignatureCheck::Broken(format!(
                            "the lock's [roots] lacks {fingerprint}"
                        )));
                    }
                },
            };
            let verifier = Sigstore {
                bundle: bundle.to_string(),
                policy: sigstore::Policy::Identity {
                    identity: identity.clone(),
                    issuer: issuer.clone(),
                },
                root,
            };
            let digest = crate::store::hash::unhex(checksum)
                .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())?;
            match verifier.verify(Subject::Sha256(digest)) {
                Ok(verified) if is_keyless(&verified.signer) => {
                    match Some(&verified.signature) == skill.signature.as_ref()
                        || skill.signature.is_none()
                    {
                        true => SignatureCheck::Verified,
                        false => SignatureCheck::Broken(format!(
                            "the index entry's bundle ({}) is not the one the lock pins",
                            verified.signature
                        )),
                    }
                }
                Ok(_) => SignatureCheck::Broken("the bundle is not keyless".into()),
                Err(e) => SignatureCheck::Broken(format!("{e:#}")),
            }
        }
        _ => return None,
    })
}
