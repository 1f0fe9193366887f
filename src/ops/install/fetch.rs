//! Fetch and verify: download what the cache lacks, then check every
//! archive (sha256 against the index entry, a minisign signature by a key
//! of its org whose trusted comment names this package, version and
//! checksum, checked by [`crate::ops::provenance::keys`]) before anything
//! touches the root.

use crate::ops::provenance::check::check;
use crate::ops::provenance::claim::{ArchiveStage, Claim, Pins};
use crate::ops::provenance::keys::{self, Release, SignatureClaim};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use super::direct::DirectSkill;
use super::options::InstallOptions;
use super::plan::Planned;
use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::index::source::Registry;
use crate::manifest::lock::{LockedSkill, Lockfile};
use crate::manifest::source_id::SourceId;
use crate::store::hash;
use crate::store::limits::Limits;
use crate::store::verified::{Record, Records, Signature};

/// A package with its archive verified (or staged, for path and git
/// skills), ready to put in place.
pub(super) struct Ready<'a> {
    /// Its name in the lock.
    pub name: String,
    /// The skill's folder in the root.
    pub skill: &'a str,
    /// The version.
    pub version: String,
    /// Where it comes from.
    pub source: SourceId,
    /// `sha256:<hex>` of a registry archive.
    pub checksum: Option<String>,
    /// The tree it installs, when known before unpacking: a path or git
    /// skill's, or the one the cache's record of a registry archive says
    /// it unpacks to.
    pub tree: Option<String>,
    /// The files of that tree, as the record of a registry archive lists
    /// them (empty otherwise).
    pub files: Vec<String>,
    /// The key that signed a registry archive.
    pub signer: Option<String>,
    /// `org/name` of each dependency.
    pub dependencies: Vec<String>,
    /// The archive on disk, for a registry package.
    pub archive: Option<PathBuf>,
    /// The files of a path or git skill, staged; `None` for a registry
    /// package and for a git skill already in place.
    pub staged: Option<crate::store::extract::Staged>,
    /// The files a registry archive, verified, makes executable (relative
    /// to the skill): what a copy of its cached tree must make executable.
    /// `None` for path and git skills, which are not copied from the cache.
    pub executables: Option<BTreeSet<String>>,
    /// The signature checked over a registry archive in this run, for the
    /// cache's record of it.
    pub signature: Option<Signature>,
    /// Who signed a git skill's commit, when its entry says `signed-by`.
    pub commit_signer: Option<crate::manifest::lock::CommitSigner>,
    /// A registry package whose archive was vouched for by the cache's
    /// record rather than read: to check in full if its tree must be
    /// unpacked after all.
    pub unchecked: Option<&'a Planned<'a>>,
    /// What its Sigstore bundle proved, and whether its tree's OMS
    /// signature must be checked.
    pub provenance: ArchiveStage,
    /// What the user should know about how it was verified.
    pub warnings: Vec<String>,
    /// The specification's rules it breaks, installed anyway.
    pub broken_rules: Vec<String>,
}

/// Downloads every registry archive the cache lacks, verifies each, and
/// returns everything ready to extract: registry packages, then path and
/// git skills. A version the old lock pins must come with the lock's
/// checksum and signer. `keys` are the lock's pinned keys, extended on
/// first use.
#[allow(clippy::too_many_arguments)]
pub(super) fn fetch_all<'a>(
    planned: &'a [Planned<'a>],
    registries: &[Registry],
    direct: &'a mut [DirectSkill],
    old_lock: &Lockfile,
    keys: &mut BTreeMap<String, Vec<String>>,
    dirs: &Dirs,
    records: &Records,
    pins: &Pins,
    options: InstallOptions,
) -> anyhow::Result<Vec<Ready<'a>>> {
    for planned in planned {
        check_pinned_checksum(planned, pin_of(planned, old_lock))?;
        if options.require_valid && !planned.entry.invalid.is_empty() {
            bail!(
                Hinted::new(format!(
                    "{}@{} breaks the specification's rules ({}), and --require-valid was given",
                    planned.package,
                    planned.entry.vers,
                    planned.entry.invalid.join(", ")
                ))
                .hint("leave out --require-valid to install it as agents load it")
            );
        }
    }
    let archive_dir = dirs.cache.join("archives");
    for registry in registries {
        let wanted: Vec<_> = planned
            .iter()
            .filter(|p| std::ptr::eq(p.registry, registry))
            .map(|p| (&p.package, &p.entry))
            .collect();
        registry.prefetch_archives(&wanted, &archive_dir, &options.limits, options.progress)?;
    }
    // Checksums, archive listings and signatures are checked on every
    // core; what a signer means for the lock's keys is settled in order.
    let checked = crate::parallel::map(planned.iter().collect(), |planned| {
        check_archive(planned, &dirs.cache, Some(records), &options.limits)
    });
    let mut ready = Vec::new();
    for (planned, checked) in planned.iter().zip(checked) {
        let checked = checked?;
        let name = planned.package.to_string();
        let bundle = planned
            .entry
            .sigstore
            .as_ref()
            .map(|bundle| bundle.to_string());
        let stage = archive_stage(planned, &name, bundle.as_deref(), pins)?;
        let unpoliced_bundle = bundle.is_some() && !pins.asks(&name, &planned.source());
        if unpoliced_bundle && !options.allow_unsigned {
            check_not_only_sigstore(planned)?;
        }
        let Verified {
            archive,
            signer,
            executables,
            tree,
            files,
            signature,
            read,
        } = settle_signer(
            planned,
            checked,
            keys,
            options.allow_unsigned || stage.proven.is_some(),
        )?;
        let pin = pin_of(planned, old_lock);
        check_pinned_signer(planned, pin, signer.as_deref())?;
        if let (Some(pin), Some(tree)) = (pin, &tree)
            && pin.tree != *tree
        {
            bail!(lock_tree_mismatch(
                &planned.package.to_string(),
                &planned.entry.vers,
                &pin.tree,
                &format!("sha256:{}", planned.entry.cksum),
                tree
            ));
        }
        let mut warnings = Vec::new();
        if unpoliced_bundle {
            warnings.push(format!(
                "{name}@{} carries a Sigstore bundle, but no signer policy says who must sign it, so it was not checked; set one with `skillpkg trust {} --sigstore-identity ID --sigstore-issuer URL`",
                planned.entry.vers, planned.package.org
            ));
        }
        if signer.is_none() && stage.proven.is_none() && planned.registry.remote {
            warnings.push(format!(
                "{}@{} is not signed; installed because --allow-unsigned was given (org '{}' has no signing keys)",
                planned.package, planned.entry.vers, planned.package.org
            ));
        }
        ready.push(Ready {
            name,
            skill: &planned.package.name,
            version: planned.entry.vers.clone(),
            source: planned.source(),
            checksum: Some(format!("sha256:{}", planned.entry.cksum)),
            tree,
            files,
            signer,
            dependencies: planned.entry.deps.iter().map(|d| d.name.clone()).collect(),
            archive: Some(archive),
            staged: None,
            executables: Some(executables),
            signature,
            commit_signer: None,
            unchecked: (!read).then_some(planned),
            provenance: stage,
            warnings,
            broken_rules: planned.entry.invalid.clone(),
        });
    }
    for skill in direct {
        let staged = skill.staged.take();
        let skill: &'a DirectSkill = skill;
        ready.push(Ready {
            name: skill.name.clone(),
            skill: &skill.skill,
            version: skill.version.clone(),
            source: skill.source.clone(),
            checksum: None,
            tree: Some(skill.tree.clone()),
            files: Vec::new(),
            signer: None,
            dependencies: skill.dependencies.iter().map(|(n, _)| n.clone()).collect(),
            archive: None,
            staged,
            executables: None,
            signature: None,
            commit_signer: skill.commit_signer.clone(),
            unchecked: None,
            provenance: direct_stage(skill, pins)?,
            warnings: Vec::new(),
            broken_rules: skill.broken_rules.clone(),
        });
    }
    Ok(ready)
}

/// Where the registry package `planned` (`name`) stands once its archive's
/// Sigstore `bundle` is checked against `pins`.
fn archive_stage(
    planned: &Planned,
    name: &str,
    bundle: Option<&str>,
    pins: &Pins,
) -> anyhow::Result<ArchiveStage> {
    let claim = Claim::Archive {
        name,
        version: &format!("v{}", planned.entry.vers),
        source: &planned.source(),
        checksum: &planned.entry.cksum,
        bundle,
    };
    check(claim, pins).into_stage()
}

/// Where the path, git or site skill `skill` stands before its tree is
/// checked against `pins`.
fn direct_stage(skill: &DirectSkill, pins: &Pins) -> anyhow::Result<ArchiveStage> {
    let claim = Claim::Direct {
        name: &skill.name,
        source: &skill.source,
    };
    check(claim, pins).into_stage()
}

/// A package from a remote index that a Sigstore bundle alone signs, when
/// no policy says who must sign it, is as unsigned as any other: refused
/// without --allow-unsigned, with what to do.
fn check_not_only_sigstore(planned: &Planned) -> anyhow::Result<()> {
    if !planned.entry.sig.trim().is_empty() || !planned.registry.remote {
        return Ok(());
    }
    let org = &planned.package.org;
    bail!(
        Hinted::new(format!(
            "{}@{} is signed only with a Sigstore bundle, and no signer policy says who must sign it, so it counts as not signed",
            planned.package, planned.entry.vers
        ))
        .hint(format!(
            "if you know who signs org '{org}', say so with `skillpkg trust {org} --sigstore-identity ID --sigstore-issuer URL`, then add it again"
        ))
    )
}

/// The lock's entry for exactly this version of this package from this
/// registry, if the old lock has one: its content is pinned.
fn pin_of<'l>(planned: &Planned, old_lock: &'l Lockfile) -> Option<&'l LockedSkill> {
    old_lock
        .get(&planned.package.to_string())
        .filter(|pin| pin.version == planned.entry.vers && pin.source == planned.source())
}

/// The index must offer a pinned version with the lock's checksum.
fn check_pinned_checksum(planned: &Planned, pin: Option<&LockedSkill>) -> anyhow::Result<()> {
    let Some(locked) = pin.and_then(|p| p.checksum.as_deref()) else {
        return Ok(());
    };
    let offered = format!("sha256:{}", planned.entry.cksum);
    if locked != offered {
        bail!(changed_release(
            planned,
            format!("skills.lock pins its archive to {locked}, but the index now has {offered}")
        ));
    }
    Ok(())
}

/// A pinned version must be signed by the key the lock names, when it
/// names one (a lock written before signing existed may not).
fn check_pinned_signer(
    planned: &Planned,
    pin: Option<&LockedSkill>,
    signer: Option<&str>,
) -> anyhow::Result<()> {
    let Some(locked) = pin.and_then(|p| p.signer.as_ref()?.minisign_key()) else {
        return Ok(());
    };
    if signer != Some(locked) {
        let now = match signer {
            Some(key) => format!("it is now signed by {key}"),
            None => "it is now unsigned".to_string(),
        };
        bail!(changed_release(
            planned,
            format!("skills.lock pins its signer to {locked}, but {now}")
        ));
    }
    Ok(())
}

/// The error for a released version whose content changed under its lock.
fn changed_release(planned: &Planned, what: String) -> Hinted {
    let package = &planned.package;
    Hinted::new(format!(
        "{package}@{}: {what}; the index changed a released version",
        planned.entry.vers
    ))
    .hint(format!(
        "a released version never changes: it was re-published, or {} or the cache was tampered with; nothing was installed",
        planned.registry.label
    ))
    .hint(format!(
        "if the publisher confirms the change, they should release a new version for `skillpkg update {package}`"
    ))
}

/// An archive whose sha256 and signature were checked, in this run or,
/// as the cache's sealed record of it says, in an earlier one.
pub(super) struct Verified {
    /// Its path in the cache.
    pub archive: PathBuf,
    /// The key that signed it.
    pub signer: Option<String>,
    /// The files it makes executable.
    pub executables: BTreeSet<String>,
    /// The tree it unpacks to, when the cache's record says.
    pub tree: Option<String>,
    /// The files of that tree, as the record lists them.
    pub files: Vec<String>,
    /// The signature checked in this run.
    pub signature: Option<Signature>,
    /// Whether its bytes were read and checked in this run (`false`: the
    /// record vouched for them).
    pub read: bool,
}

/// The error for a lock whose `tree` is not what its archive unpacks to.
pub(super) fn lock_tree_mismatch(
    name: &str,
    version: &str,
    pinned: &str,
    checksum: &str,
    tree: &str,
) -> Hinted {
    Hinted::new(format!(
        "{name}@{version}: skills.lock pins its files to tree {pinned}, but its archive ({checksum}) unpacks to {tree}"
    ))
    .hint("skills.lock was edited by hand or by another tool: restore it from version control; nothing was installed")
}

/// An archive with its sha256 and listing checked and, when signed, the
/// key among those the index lists for its org that signed it.
pub(super) struct Checked {
    pub verified: Verified,
    /// The keys the index lists for the package's org.
    offered: Vec<String>,
}

/// The archive of `planned`, from the cache or the index, with its sha256
/// checked and its signature verified against the keys the index lists.
/// Whether the lock lets that key sign is [`settle_signer`]'s to say.
///
/// With `records`, an archive the cache's sealed record says was checked
/// before, with this very signature by a key the index lists, is not read
/// again: the record gives its listing and tree. A signature checked in
/// full is added to the archive's record, when it has one.
///
/// The archive is read in pieces for each check, never whole; one larger
/// than an archive within `limits` can be is not downloaded.
pub(super) fn check_archive(
    planned: &Planned,
    cache: &Path,
    records: Option<&Records>,
    limits: &Limits,
) -> anyhow::Result<Checked> {
    let claim = SignatureClaim::of(&release_of(planned));
    let cached = cache
        .join("archives")
        .join(format!("{}.skill", planned.entry.cksum));
    let checksum = format!("sha256:{}", planned.entry.cksum);
    let record = records.and_then(|records| records.get(&checksum));
    if let Some(checked) = record
        .as_ref()
        .and_then(|record| vouched_for_by_record(record, &claim, &cached))
    {
        return Ok(checked);
    }
    archive_matching_checksum(planned, &cached, limits)?;
    let executables = safe_listing(planned, &cached)?;
    // A record of the same archive states the same listing; one that does
    // not is no record of it.
    let record = record.filter(|record| record.executables == executables);
    let release = release_of(planned);
    let package = Claim::Package {
        release: &release,
        claim: &claim,
        archive: &cached,
    };
    let signer = check(package, &Pins::none())
        .proof()?
        .and_then(|proof| proof.signer.minisign_key().map(str::to_string));
    let signature = signer.as_ref().map(|key| Signature {
        key: key.clone(),
        signature: claim.signature.clone(),
        comment: claim.comment.clone(),
    });
    if let (Some(records), Some(mut record), Some(signature)) =
        (records, record.clone(), signature.clone())
    {
        record.add_signature(signature);
        records.put(&record);
    }
    Ok(Checked {
        verified: Verified {
            archive: cached,
            signer,
            executables,
            tree: record.as_ref().map(|record| record.tree.clone()),
            files: record.map(|record| record.files).unwrap_or_default(),
            signature,
            read: true,
        },
        offered: claim.offered,
    })
}

/// The archive as the cache's sealed record vouches for it, without
/// reading it: when the entry is unsigned, or the record says this very
/// signature was verified with one of the candidate keys.
fn vouched_for_by_record(
    record: &Record,
    claim: &SignatureClaim,
    cached: &Path,
) -> Option<Checked> {
    let signer = match claim.signed {
        false => None,
        true => Some(
            claim
                .candidates
                .iter()
                .find(|key| record.is_signed(key, &claim.signature, &claim.comment))?
                .clone(),
        ),
    };
    Some(Checked {
        verified: Verified {
            archive: cached.to_path_buf(),
            signer,
            executables: record.executables.clone(),
            tree: Some(record.tree.clone()),
            files: record.files.clone(),
            signature: None,
            read: false,
        },
        offered: claim.offered.clone(),
    })
}
/// Makes sure the cache holds the archive at `cached` with the sha256 the
/// index entry gives: kept when it has it, else downloaded (streamed into
/// a temporary file beside it, renamed into place once it is checked).
fn archive_matching_checksum(
    planned: &Planned,
    cached: &Path,
    limits: &Limits,
) -> anyhow::Result<()> {
    if hash::sha256_file(cached).is_ok_and(|actual| actual == planned.entry.cksum) {
        return Ok(());
    }
    let (package, version) = (&planned.package, &planned.entry.vers);
    let download = crate::fsutil::temp_file_beside(cached)?;
    planned.registry.archive_into(
        package,
        version,
        planned.entry.size,
        limits,
        download.as_file(),
    )?;
    let actual = hash::sha256_file(download.path())?;
    if actual != planned.entry.cksum {
        bail!(
            Hinted::new(format!(
                "checksum mismatch for {package}@{version}: the index says sha256:{} but the archive is sha256:{actual}",
                planned.entry.cksum
            ))
            .hint("the archive or the index entry was tampered with or corrupted; do not install it")
        );
    }
    download
        .persist(cached)
        .map_err(|e| e.error)
        .with_context(|| format!("could not write {}", cached.display()))?;
    Ok(())
}

/// The files the archive at `cached` makes executable, once its listing
/// passed every check of a hostile archive (paths, links, sizes, entries).
fn safe_listing(planned: &Planned, cached: &Path) -> anyhow::Result<BTreeSet<String>> {
    crate::store::archive::executables(cached).map_err(|refusal| {
        anyhow::anyhow!(
            Hinted::new(format!(
                "{}@{}: refusing archive {}: {refusal}",
                planned.package,
                planned.entry.vers,
                cached.display()
            ))
            .hint("the package is broken: do not install it, and tell its publisher")
        )
    })
}

/// `planned` as the keys' checks name a release.
fn release_of<'p>(planned: &'p Planned) -> Release<'p> {
    Release {
        package: &planned.package,
        version: &planned.entry.vers,
        checksum: &planned.entry.cksum,
        signature: &planned.entry.sig,
        index: &planned.registry.label,
        remote: planned.registry.remote,
        org_keys: planned
            .registry
            .config
            .keys
            .get(&planned.package.org)
            .map_or(&[], Vec::as_slice),
    }
}

/// What the lock's keys say of a checked archive ([`keys::settle_signer`]).
fn settle_signer(
    planned: &Planned,
    checked: Checked,
    pinned: &mut BTreeMap<String, Vec<String>>,
    allow_unsigned: bool,
) -> anyhow::Result<Verified> {
    let Checked { verified, offered } = checked;
    keys::settle_signer(
        &release_of(planned),
        verified.signer.as_deref(),
        &offered,
        pinned,
        allow_unsigned,
    )?;
    Ok(verified)
}
