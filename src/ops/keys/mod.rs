//! Signer policies: which keys may sign an org's packages, pinned in
//! `skills.lock`. `skillpkg trust <org> --key KEY [--replace]` accepts a
//! signing key for an org. (Project trust and skill grants, the other two
//! things users "trust", are consent: `ops/consent/`.)

use crate::dirs::Dirs;
use crate::ops::edit::Edit;
use crate::project::Project;
use crate::store::signing::read_public_key;

/// What `trust` changed in the lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Trusted {
    /// The key, as its base64 line.
    pub key: String,
    /// Whether the lock pinned it already (and still pins it).
    pub already: bool,
    /// The keys `--replace` removed.
    pub removed: Vec<String>,
    /// Every key the lock now pins for the org, sorted.
    pub pinned: Vec<String>,
}

/// Adds `key` (a `.pub` file or base64 line) to the keys the project's
/// lock pins for `org`; with `replace`, it becomes the org's only key.
///
/// Locked packages of the org keep their checksum pins, and their signer
/// pins while the signer stays pinned: adding a key leaves every pin as it
/// was, so the new key cannot re-sign a locked version. Replacing drops the
/// signer pins of the keys it removes, since the user accepted a new key,
/// and the next install records whichever pinned key signs each
/// (unchanged) archive now.
pub(crate) fn trust(
    project: &Project,
    dirs: &Dirs,
    org: &str,
    key: &str,
    replace: bool,
) -> anyhow::Result<Trusted> {
    if !crate::skill::name::is_valid_name(org) {
        anyhow::bail!(
            crate::hint::Hinted::new(format!("'{org}' is not an org: minisign keys are pinned per org"))
                .hint("for a repository or another source, say who signs it with --oms-root CERT or --sigstore-identity ID --sigstore-issuer URL")
        );
    }
    let key = read_public_key(key)?;
    let mut edit = Edit::open(project, dirs)?;
    let lock = &mut edit.lock;
    let pinned = lock.keys.entry(org.to_string()).or_default();
    let already = pinned.contains(&key);
    let removed = match replace {
        true => std::mem::take(pinned)
            .into_iter()
            .filter(|old| *old != key)
            .collect(),
        false => Vec::new(),
    };
    if !pinned.contains(&key) {
        pinned.push(key.clone());
    }
    pinned.sort();
    pinned.dedup();
    let pinned = pinned.clone();
    let prefix = format!("{org}/");
    for skill in lock.skills_mut() {
        if skill.name.starts_with(&prefix) {
            skill.signer.take_if(|signer| {
                signer
                    .minisign_key()
                    .is_some_and(|key| !pinned.iter().any(|pinned| pinned == key))
            });
        }
    }
    edit.commit()?;
    Ok(Trusted {
        key,
        already,
        removed,
        pinned,
    })
}

/// Drops the Sigstore and OMS signers the project's lock pins for skills
/// that `policy` covers: the user accepted a new signer for its source,
/// and the next install records whichever one it accepts (checksums and
/// trees stay pinned). Returns the skills unpinned.
pub(crate) fn forget_pins(
    project: &Project,
    dirs: &Dirs,
    policy: &crate::ops::provenance::signer_policy::Policy,
) -> anyhow::Result<Vec<String>> {
    let mut edit = Edit::open(project, dirs)?;
    let mut dropped = Vec::new();
    for skill in edit.lock.skills_mut() {
        let sources = crate::ops::provenance::signer_policy::sources_of(
            &skill.name,
            &skill.source,
            &project.dir,
        );
        let covered = policy.covers_any(&sources);
        if covered
            && skill
                .signer
                .as_ref()
                .is_some_and(|s| s.minisign_key().is_none())
        {
            skill.signer = None;
            skill.signature = None;
            dropped.push(skill.name.clone());
        }
    }
    if !dropped.is_empty() {
        edit.commit()?;
    }
    Ok(dropped)
}
