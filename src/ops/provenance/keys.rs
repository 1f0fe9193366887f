//! The lock's `[keys]`: which minisign keys may sign an org's packages,
//! and whether a release's archive was signed by one of them. An index
//! lists its orgs' keys; the lock pins them on first use, and a key the
//! index offers later is refused until `skillpkg trust ORG --key` accepts
//! it. Every archive's signature is checked against the keys whose id it
//! names, with a trusted comment naming its package, version and checksum.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::bail;

use crate::hint::Hinted;
use crate::index::PackageName;
use crate::manifest::lock::{LockedSigner, Lockfile};
use crate::ops::provenance::Proof;
use crate::store::signing;

/// A release of a registry package, as the checks of its signature name
/// it.
pub(crate) struct Release<'a> {
    /// The package.
    pub package: &'a PackageName,
    /// The version.
    pub version: &'a str,
    /// The archive's sha256, in hex.
    pub checksum: &'a str,
    /// The minisign signature its index entry carries (blank: none).
    pub signature: &'a str,
    /// The index, as messages name it.
    pub index: &'a str,
    /// Whether the index is remote (unsigned packages need
    /// `--allow-unsigned` then).
    pub remote: bool,
    /// The keys the index lists for the package's org.
    pub org_keys: &'a [String],
}

/// What an index entry claims about its archive's signature, and the keys
/// that could have made it.
pub(crate) struct SignatureClaim {
    /// The keys the index lists for the package's org.
    pub offered: Vec<String>,
    /// Those of them whose id the signature names: only such a key can
    /// have made it, so the archive is hashed for that key alone, however
    /// many keys are listed.
    pub candidates: Vec<String>,
    /// The trusted comment a signature of this package, version and
    /// checksum carries.
    pub comment: String,
    /// The signature the entry carries (blank: none).
    pub signature: String,
    /// Whether the entry carries a signature at all.
    pub signed: bool,
}

impl SignatureClaim {
    pub(crate) fn of(release: &Release) -> SignatureClaim {
        let package = release.package;
        let offered = release.org_keys.to_vec();
        let named = signing::signature_key_id(release.signature);
        let candidates = offered
            .iter()
            .filter(|key| named.is_some() && signing::public_key_id(key) == named)
            .cloned()
            .collect();
        SignatureClaim {
            offered,
            candidates,
            comment: signing::package_comment(
                release.signature,
                &package.to_string(),
                release.version,
                release.checksum,
            ),
            signature: release.signature.to_string(),
            signed: !release.signature.trim().is_empty(),
        }
    }
}

/// The key among the candidates that made the entry's signature over
/// the archive at `archive`, read in pieces, as the proof of it (`None`:
/// the entry is unsigned); an error when none did.
pub(super) fn verified_signer(
    release: &Release,
    claim: &SignatureClaim,
    archive: &Path,
) -> anyhow::Result<Option<Proof>> {
    if !claim.signed {
        return Ok(None);
    }
    let (package, version) = (release.package, release.version);
    let mut last_error = None;
    for key in &claim.candidates {
        let data = std::io::BufReader::new(fs_err::File::open(archive)?);
        match signing::verify_reader_for(key, data, &claim.signature, &claim.comment) {
            Ok(()) => {
                return Ok(Some(Proof {
                    signer: LockedSigner::Minisign(key.clone()),
                    signature: super::sha256(claim.signature.as_bytes()),
                    statement: Some(claim.comment.clone()),
                    vouched: None,
                    root: None,
                }));
            }
            Err(e) => last_error = Some(e),
        }
    }
    match last_error {
        Some(e) => Err(anyhow::Error::new(e).context(format!(
            "the signature of {package}@{version} does not verify"
        ))),
        None => bail!(
            Hinted::new(format!(
                "the signature of {package}@{version} names a key that {} does not list for org '{}'",
                release.index, package.org
            ))
            .hint("the signature was altered or made with another key: do not install it")
        ),
    }
}

/// What the lock's keys (`pinned`, extended on first use) say of a checked
/// archive `signer` signed (`offered`: the keys the index lists for its
/// org): its signer must be pinned for its org, and an unsigned archive
/// is refused from an org that signs.
pub(crate) fn settle_signer(
    release: &Release,
    signer: Option<&str>,
    offered: &[String],
    pinned: &mut BTreeMap<String, Vec<String>>,
    allow_unsigned: bool,
) -> anyhow::Result<()> {
    let package = release.package;
    match signer {
        Some(key) => check_signer_pinned(release, key, offered, pinned)?,
        None => {
            let pinned_keys = pinned
                .get(&package.org)
                .is_some_and(|keys| !keys.is_empty());
            if !offered.is_empty() || pinned_keys {
                let whose = match pinned_keys {
                    true => "skills.lock pins its keys",
                    false => "the index lists its keys",
                };
                bail!(
                    Hinted::new(format!(
                        "{package}@{} is not signed, but org '{}' signs its packages ({whose})",
                        release.version, package.org
                    ))
                    .hint(format!(
                        "the signature was dropped from {}: do not install it; --allow-unsigned does not cover orgs with keys",
                        release.index
                    ))
                );
            }
            if release.remote && !allow_unsigned {
                bail!(
                    Hinted::new(format!("{package}@{} is not signed", release.version)).hint(format!(
                        "org '{}' has no signing keys anywhere; pass --allow-unsigned to install its unsigned packages from {}",
                        package.org, release.index
                    ))
                );
            }
        }
    }
    Ok(())
}

/// `key`, which signed `release`, must be one the lock pins for its org.
/// On first use of the org, every key the index lists for it (`listed`) is
/// pinned, so packages signed by each install side by side; a key the index
/// lists later is refused until the user accepts it with `skillpkg trust`.
fn check_signer_pinned(
    release: &Release,
    key: &str,
    listed: &[String],
    pinned: &mut BTreeMap<String, Vec<String>>,
) -> anyhow::Result<()> {
    let package = release.package;
    let org = &package.org;
    let trusted = pinned.entry(org.clone()).or_default();
    if trusted.is_empty() {
        trusted.extend(
            listed
                .iter()
                .filter(|listed| signing::public_key_id(listed).is_some())
                .cloned(),
        );
        return Ok(());
    }
    if trusted.iter().any(|trusted| trusted == key) {
        return Ok(());
    }
    let error = Hinted::new(format!(
        "{package}@{} is signed by key {key}, which skills.lock does not pin for org '{org}' (it pins {})",
        release.version,
        trusted.join(", ")
    ));
    let label = release.index;
    let hint = match listed.iter().any(|listed| trusted.contains(listed)) {
        true => format!(
            "{label} lists this key for org '{org}' beside the pinned ones: if the org really added it, accept it with `skillpkg trust {org} --key {key}`"
        ),
        false => format!(
            "{label} no longer lists any key pinned for org '{org}': if the org really changed its key, accept it with `skillpkg trust {org} --key {key} --replace`"
        ),
    };
    bail!(
        error
            .hint(hint)
            .hint("nothing was installed; ask the org before trusting a key an index offers")
    )
}

/// Every signer the lock records must be among the keys it pins for that
/// package's org: a lock that lost a key (or never had it) would let the
/// index pin its keys again as if on first use.
pub(crate) fn check_signers_pinned(lock: &Lockfile, lock_path: &Path) -> anyhow::Result<()> {
    for skill in lock.skills() {
        let (Some(signer), Some((org, _))) = (
            skill.signer.as_ref().and_then(|s| s.minisign_key()),
            skill.name.split_once('/'),
        ) else {
            continue;
        };
        let keys = lock.keys.get(org).map(Vec::as_slice).unwrap_or_default();
        if keys.iter().any(|key| key == signer) {
            continue;
        }
        let pins = match keys.is_empty() {
            true => "no key".to_string(),
            false => keys.join(", "),
        };
        bail!(
            Hinted::new(format!(
                "{}: {} is locked to signer {signer}, but its [keys] table pins {pins} for org '{org}'",
                lock_path.display(),
                skill.name
            ))
            .hint("restore skills.lock from version control; nothing was installed")
            .hint(format!(
                "if {signer} really is a key of org '{org}', accept it with `skillpkg trust {org} --key {signer}`"
            ))
        );
    }
    Ok(())
}

/// Refuses `key` for signing `package`'s channel records unless it is one
/// of `keys`, the org's in the index.
pub(crate) fn check_org_key(
    key: &signing::SigningKey,
    package: &PackageName,
    keys: &[String],
    index: &str,
) -> anyhow::Result<()> {
    if keys.contains(&key.public_key()) {
        return Ok(());
    }
    bail!(
        Hinted::new(format!(
            "the key {} is not one of org '{}''s keys in {index}, so it cannot sign {package}'s channel",
            key.public_key(),
            package.org
        ))
        .hint("pass one of the org's secret keys with --key; `skillpkg index init INDEX --org ORG --key PUB` adds a key")
    );
}
