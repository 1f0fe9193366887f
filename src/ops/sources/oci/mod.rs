//! OCI artifacts: a skill pulled from a registry ([`artifact`]), pinned by
//! its manifest's digest, which `skills.lock` records in its source
//! (`oci+<host>/<repo>?tag=…#sha256:…`).

pub(crate) mod artifact;

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context as _, bail};

use super::kind::{Asking, DirectKind, Fetched, Job, Moved, SourceKind};
use crate::manifest::DirectSource;
use crate::manifest::lock::{LockedSkill, short_digest};
use crate::manifest::oci_ref::OciPin;
use crate::manifest::source_id::{OciOrigin, SourceId};

/// The OCI kind.
pub(super) struct Oci;

impl SourceKind for Oci {
    fn name(&self) -> &'static str {
        "oci"
    }

    fn pins(&self, source: &SourceId) -> bool {
        matches!(source, SourceId::Oci { .. })
    }

    fn place(&self, source: &SourceId) -> Option<String> {
        let SourceId::Oci { origin, .. } = source else {
            return None;
        };
        Some(format!("oci://{}", origin.repository))
    }

    fn owner(&self, source: &SourceId) -> Option<String> {
        let SourceId::Oci { origin, .. } = source else {
            return None;
        };
        let namespace = origin.repository.rsplit_once('/').map(|(ns, _)| ns)?;
        Some(namespace.to_string())
    }

    fn reference(&self, source: &SourceId) -> Option<(String, &'static str)> {
        let SourceId::Oci { origin, digest } = source else {
            return None;
        };
        Some((
            format!("oci://{}@{digest}", origin.repository),
            "distribution",
        ))
    }
}

impl DirectKind for Oci {
    fn folder_key(&self) -> &'static str {
        "oci"
    }

    fn asks(&self, request: &DirectSource) -> bool {
        matches!(request, DirectSource::Oci { .. })
    }

    fn keeps(
        &self,
        _name: &str,
        request: &DirectSource,
        locked: &LockedSkill,
    ) -> anyhow::Result<bool> {
        let DirectSource::Oci {
            repository,
            pin,
            skill,
        } = request
        else {
            return Ok(false);
        };
        Ok(locked_digest(&locked.source, &origin(repository, pin, skill), pin).is_some())
    }

    fn fetch(&self, job: &Job, scratch: &Path) -> anyhow::Result<Fetched> {
        let DirectSource::Oci {
            repository,
            pin,
            skill,
        } = job.request
        else {
            bail!("'{}' is no OCI dependency", job.name);
        };
        let origin = origin(repository, pin, skill);
        let locked = job
            .locked
            .and_then(|l| locked_digest(&l.source, &origin, pin));
        let pin = match locked {
            Some(digest) => OciPin::Digest(digest.to_string()),
            None => pin.clone(),
        };
        let exported = artifact::export(
            repository,
            &pin,
            skill.as_deref(),
            scratch,
            &job.fetching.registries,
        )
        .with_context(|| format!("'{}': could not get oci://{repository}", job.name))?;
        Ok(Fetched {
            dir: exported.dir,
            shown: Some(format!("{repository}@{}", exported.digest)),
            source: SourceId::Oci {
                origin,
                digest: exported.digest,
            },
            version: exported.version,
            commit_signer: None,
        })
    }

    fn same_place(&self, a: &DirectSource, b: &DirectSource, _project_dir: &Path) -> bool {
        matches!(
            (a, b),
            (DirectSource::Oci { repository: a, .. }, DirectSource::Oci { repository: b, .. })
                if a == b
        )
    }

    /// A skill whose tag names another manifest now (a skill pinned to a
    /// digest never moves). Each repository and tag is asked once.
    fn moved(&self, skills: &[&LockedSkill], asking: &Asking) -> anyhow::Result<Vec<Moved>> {
        let dirs = asking.dirs;
        let settings = crate::oci::Settings {
            cache: &dirs.cache,
            config: &dirs.config,
            home: dirs.home.as_deref(),
            offline: false,
            insecure: &[],
            limits: crate::store::limits::Limits::default(),
        };
        let mut asked = HashMap::new();
        let mut moved = Vec::new();
        for skill in skills {
            let SourceId::Oci { origin, digest } = &skill.source else {
                continue;
            };
            let Some(tag) = &origin.tag else {
                continue;
            };
            let key = (origin.repository.clone(), tag.clone());
            let now = match asked.get(&key) {
                Some(now) => now,
                None => {
                    let now = crate::oci::tag_digest(&origin.repository, tag, &settings)
                        .with_context(|| {
                            format!(
                                "could not check oci://{}:{tag} for {}",
                                origin.repository, skill.name
                            )
                        })?;
                    asked.entry(key).or_insert(now)
                }
            };
            if now != digest {
                moved.push(Moved {
                    name: skill.name.clone(),
                    from: short_digest(digest),
                    to: short_digest(now),
                    place: format!("oci://{}:{tag}", origin.repository),
                });
            }
        }
        Ok(moved)
    }
}

/// The lock's origin of an OCI dependency on `repository` at `pin`,
/// taking `skill` from a collection.
fn origin(repository: &str, pin: &OciPin, skill: &Option<String>) -> OciOrigin {
    OciOrigin {
        repository: repository.to_string(),
        tag: pin.tag().map(str::to_string),
        skill: skill.clone(),
    }
}

/// The digest the lock's `source` pins for the OCI dependency `wanted`
/// at `pin`: the locked digest of the same origin, or the digest asked
/// for when the lock has that one.
fn locked_digest<'l>(source: &'l SourceId, wanted: &OciOrigin, pin: &OciPin) -> Option<&'l str> {
    let SourceId::Oci { origin, digest } = source else {
        return None;
    };
    let same = origin == wanted
        && match pin {
            OciPin::Digest(asked) => asked == digest,
            OciPin::Tag(_) => true,
        };
    same.then_some(digest.as_str())
}
