//! Sites' Agent Skills discovery indexes: a skill a site lists
//! ([`site`]), pinned by the digest of its artifact, which `skills.lock`
//! records in its source (`well-known+<site>?skill=…#sha256:…`); an entry of
//! the older form, whose files come one by one, is pinned by its tree.

mod site;

pub(crate) use site::{Reading, entry, pick, read_index};

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use super::kind::{Asking, DirectKind, Fetched, Job, Moved, SourceKind};
use crate::hint::{Hinted, shell_quote};
use crate::manifest::DirectSource;
use crate::manifest::lock::LockedSkill;
use crate::manifest::source_id::{SourceId, WellKnownOrigin};

/// The `.well-known` kind.
pub(super) struct WellKnown;

impl SourceKind for WellKnown {
    fn name(&self) -> &'static str {
        "well-known"
    }

    fn pins(&self, source: &SourceId) -> bool {
        matches!(source, SourceId::WellKnown { .. })
    }

    fn place(&self, source: &SourceId) -> Option<String> {
        let SourceId::WellKnown { origin, .. } = source else {
            return None;
        };
        Some(origin.site.clone())
    }

    fn owner(&self, source: &SourceId) -> Option<String> {
        self.place(source)
    }

    fn reference(&self, source: &SourceId) -> Option<(String, &'static str)> {
        Some((self.place(source)?, "distribution"))
    }
}

impl DirectKind for WellKnown {
    fn folder_key(&self) -> &'static str {
        "well-known"
    }

    fn asks(&self, request: &DirectSource) -> bool {
        matches!(request, DirectSource::WellKnown { .. })
    }

    fn keeps(
        &self,
        _name: &str,
        request: &DirectSource,
        locked: &LockedSkill,
    ) -> anyhow::Result<bool> {
        let DirectSource::WellKnown { site, skill } = request else {
            return Ok(false);
        };
        Ok(pinned(locked, site, skill).is_some())
    }

    fn fetch(&self, job: &Job, scratch: &Path) -> anyhow::Result<Fetched> {
        let DirectSource::WellKnown { site, skill } = job.request else {
            bail!("'{}' is no well-known dependency", job.name);
        };
        let fetching = job.fetching;
        let reading = Reading {
            sites: fetching.sites,
            cache: fetching.cache,
            offline: fetching.offline,
            limits: fetching.limits,
        };
        let (dir, source, shown) =
            export_locked(job.name, site, skill, job.locked, scratch, &reading)?;
        Ok(Fetched {
            dir,
            source,
            shown: Some(shown),
            version: None,
            commit_signer: None,
        })
    }

    fn same_place(&self, a: &DirectSource, b: &DirectSource, _project_dir: &Path) -> bool {
        matches!(
            (a, b),
            (DirectSource::WellKnown { site: a, .. }, DirectSource::WellKnown { site: b, .. })
                if a == b
        )
    }

    /// A skill the lock pins to an artifact keeps the tree put in place:
    /// what the site's digest vouches for, once the rest is left out (an
    /// update moves the pin, and the source with it).
    fn check_tree(
        &self,
        name: &str,
        source: &SourceId,
        locked: Option<&LockedSkill>,
        tree: &str,
    ) -> anyhow::Result<()> {
        let SourceId::WellKnown { origin, .. } = source else {
            return Ok(());
        };
        check_pinned_tree(name, &origin.site, &origin.skill, locked, tree)
    }

    /// A skill whose site's index now gives another digest than the one
    /// locked (an entry without digests is not judged: that would mean
    /// fetching it). Each site's index is read once.
    fn moved(&self, skills: &[&LockedSkill], _asking: &Asking) -> anyhow::Result<Vec<Moved>> {
        use crate::manifest::lock::short_digest;
        let mut indexes = HashMap::new();
        let sites = crate::index::well_known::Sites::default();
        let mut changed = Vec::new();
        for skill in skills {
            let SourceId::WellKnown {
                origin,
                digest: Some(digest),
            } = &skill.source
            else {
                continue;
            };
            let could_not = || format!("could not check {} for {}", origin.site, skill.name);
            let index = match indexes.get(&origin.site) {
                Some(index) => index,
                None => {
                    let index = read_index(&sites, &origin.site).with_context(could_not)?;
                    indexes.entry(origin.site.clone()).or_insert(index)
                }
            };
            let now = entry(index, &origin.skill)
                .with_context(could_not)?
                .artifact
                .digest();
            if let Some(now) = now
                && now != digest
            {
                changed.push(Moved {
                    name: skill.name.clone(),
                    from: short_digest(digest),
                    to: short_digest(now),
                    place: origin.site.clone(),
                });
            }
        }
        Ok(changed)
    }
}

/// The lock's pin of the `well-known` dependency on `skill` of `site`,
/// when `locked` is of that origin: `Some(digest)` (the digest itself
/// `None` for an entry whose files come one by one).
fn pinned<'l>(locked: &'l LockedSkill, site: &str, skill: &str) -> Option<Option<&'l str>> {
    match &locked.source {
        SourceId::WellKnown { origin, digest } if origin.site == site && origin.skill == skill => {
            Some(digest.as_deref())
        }
        _ => None,
    }
}

/// [`export`] for the dependency `name` on `skill` of `site`, keeping the
/// digest `locked` pins for it: the skill's folder, its lock source, and
/// how messages name it.
fn export_locked(
    name: &str,
    site: &str,
    skill: &str,
    locked: Option<&LockedSkill>,
    checkout: &Path,
    reading: &Reading,
) -> anyhow::Result<(PathBuf, SourceId, String)> {
    use anyhow::Context as _;
    let locked_digest = locked.and_then(|l| pinned(l, site, skill)).flatten();
    let exported = site::export(site, skill, locked_digest, checkout, reading)
        .with_context(|| format!("'{name}': could not get the skill '{skill}' of {site}"))?;
    let shown = match &exported.digest {
        Some(digest) => format!("the skill '{skill}' of {site} ({digest})"),
        None => format!("the skill '{skill}' of {site}"),
    };
    let source = SourceId::WellKnown {
        origin: WellKnownOrigin {
            site: site.to_string(),
            skill: skill.to_string(),
        },
        digest: exported.digest,
    };
    Ok((exported.dir, source, shown))
}

/// Refuses a tree of the dependency `name` on `skill` of `site` other than
/// the one the lock pins for it (`tree`: what was staged now): an entry
/// without digests is pinned by its tree alone, and only `update` moves a
/// pin.
fn check_pinned_tree(
    name: &str,
    site: &str,
    skill: &str,
    locked: Option<&LockedSkill>,
    tree: &str,
) -> anyhow::Result<()> {
    let Some(locked) = locked.filter(|l| pinned(l, site, skill).is_some()) else {
        return Ok(());
    };
    if locked.tree == tree {
        return Ok(());
    }
    bail!(
        Hinted::new(format!(
            "'{name}': the skill '{skill}' of {site} now has files that hash to {tree}, but skills.lock pins {}; the site changed what it serves",
            locked.tree
        ))
        .hint(format!(
            "nothing was installed; if you trust the change, `skillpkg update {}` moves the pin",
            shell_quote(name)
        ))
    )
}
