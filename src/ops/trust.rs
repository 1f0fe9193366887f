//! `skillpkg trust <org> --key KEY`: accept a new signing key for an org.

use crate::manifest::lock::Lockfile;
use crate::project::Project;
use crate::store::signing::read_public_key;

/// Pins `key` (a `.pub` file or base64 line) as the only trusted key of
/// `org` in the project's lock. Returns the keys it replaced.
///
/// Locked packages of the org keep their checksum pins, but no longer
/// their signer pins: the user accepted a new key, so the next install
/// records whichever trusted key signs each (unchanged) archive now.
pub fn trust(project: &Project, org: &str, key: &str) -> anyhow::Result<Vec<String>> {
    if !crate::skill::name::is_valid_name(org) {
        anyhow::bail!("invalid org name '{org}'");
    }
    let key = read_public_key(key)?;
    let _lock = project.lock()?;
    let mut lock = Lockfile::load(&project.lock_path)?;
    let previous = lock
        .keys
        .insert(org.to_string(), vec![key])
        .unwrap_or_default();
    let prefix = format!("{org}/");
    for skill in &mut lock.skills {
        if skill.name.starts_with(&prefix) {
            skill.signer = None;
        }
    }
    lock.write(&project.lock_path)?;
    Ok(previous)
}
