//! `skillpkg outdated`: locked versions that have newer releases or are
//! yanked, and locked git skills whose branch moved.

use semver::Version;
use serde::Serialize;

use crate::dirs::Dirs;
use std::collections::BTreeMap;

use crate::index::channel::Channel;
use crate::index::freshness::Freshness;
use crate::manifest::Manifest;
use crate::manifest::lock::{LockedSkill, Lockfile};
use crate::ops::install::channels::{self, ChannelFilter};
use crate::ops::yanked::{LockedRegistries, YankedPin, requirement};
use crate::project::Project;

/// A locked package with a newer release: one object of `outdated
/// --json`, whose schema `docs/outdated.schema.json` fixes.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Outdated {
    /// `org/name`, or a git, OCI or well-known skill's name.
    pub name: String,
    /// Where it comes from: `registry`, `git`, `oci` or `well-known`.
    pub kind: &'static str,
    /// The locked version (for git, OCI and well-known skills, the short
    /// commit or digest).
    #[serde(rename = "current")]
    pub locked: String,
    /// The newest version `skills.toml` allows (`update` moves to it);
    /// absent for packages that are only dependencies.
    #[serde(rename = "wanted", skip_serializing_if = "Option::is_none")]
    pub compatible: Option<String>,
    /// The newest version in the channel asked for.
    pub latest: String,
    /// For a registry package: the channel its versions are taken from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<Channel>,
    /// For a git skill: the repository, whose branch (or tag, or HEAD)
    /// moved; the versions above are then commits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    /// Whether the locked version is yanked from its index.
    pub yanked: bool,
    /// With `--diff`: what the version `update` moves to newly does, one
    /// sentence each (empty: nothing new).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub newly: Option<Vec<String>>,
    /// With `--diff`: the signer, when the update changes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signer: Option<crate::ops::install::SignerChange>,
    /// With `--diff`: why `update` would refuse the new version (the
    /// scanner's findings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked: Option<String>,
}

impl Outdated {
    /// A moved git, OCI or well-known skill, `from` and `to` as shown.
    fn moved(
        name: &str,
        kind: &'static str,
        from: String,
        to: String,
        repository: String,
    ) -> Outdated {
        Outdated {
            name: name.to_string(),
            kind,
            locked: from,
            compatible: Some(to.clone()),
            latest: to,
            channel: None,
            repository: Some(repository),
            yanked: false,
            newly: None,
            signer: None,
            blocked: None,
        }
    }
}

/// What `outdated` finds: the packages with newer versions, and the
/// locked versions their index has yanked.
#[derive(Debug, Clone, Default)]
pub(crate) struct OutdatedReport {
    /// Locked packages with a newer release, or locked at a yanked
    /// version with another to move to.
    pub packages: Vec<Outdated>,
    /// Locked versions their index has yanked, once each.
    pub yanked: Vec<YankedPin>,
}

/// Every locked registry package whose index has a newer non-yanked
/// version in the channel the project asks for (`channel` for packages
/// that name none) or above, or whose locked version is yanked; and every
/// locked git skill whose branch moved.
pub(crate) fn outdated(
    project: &Project,
    dirs: &Dirs,
    channel: Option<Channel>,
) -> anyhow::Result<OutdatedReport> {
    let manifest = Manifest::load(&project.manifest_path)?;
    let lock = Lockfile::load(&project.lock_path)?;
    let registries = LockedRegistries::open(project, &lock, dirs, false)?;
    let asked = channels::asked_in(&manifest);
    let default = channel.unwrap_or_default();
    // The org policy of the default index, as an install applies it: no
    // channel below its lowest, channel signatures when it wants them.
    let options = crate::ops::install::InstallOptions::default();
    use crate::ops::install::org_policy::{default_registry, for_project};
    let policy = match default_registry(project, &manifest, dirs, &options)? {
        Some(registry) => {
            let freshness = Freshness::of(&registry, &dirs.data)?;
            let policy = for_project(&registry, &lock, &freshness)?;
            freshness.save()?;
            policy
        }
        None => None,
    };
    if let Some(policy) = &policy {
        for skill in lock.skills() {
            if skill.source.registry_index().is_some() {
                let wanted = asked.get(&skill.name).copied().unwrap_or(default);
                policy.check_channel(&skill.name, wanted)?;
            }
        }
    }
    let require_signed = policy
        .as_ref()
        .is_some_and(|p| p.requires_channel_signatures());
    let mut freshness = BTreeMap::new();
    for registry in registries.all() {
        let mut checks = Freshness::of(registry, &dirs.data)?;
        checks.required = policy
            .as_ref()
            .is_some_and(|p| p.index == registry.label && p.requires_fresh_metadata());
        freshness.insert(registry.label.clone(), checks);
    }
    let mut report = OutdatedReport::default();
    for skill in lock.skills() {
        let (Some(entries), Some(listed), Some(label)) = (
            registries.entries(skill)?,
            registries.listed_keys(skill),
            skill.source.registry_index(),
        ) else {
            continue;
        };
        let filter = ChannelFilter {
            asked: &asked,
            default,
            pinned: &lock.keys,
            listed,
            require_signed,
            freshness: &freshness[label],
        };
        let entries = filter.seen(&skill.name, entries, Some(&skill.version));
        let requirement = requirement(&manifest, &skill.name);
        let yanked = YankedPin::check(&skill.name, &skill.version, &entries, requirement.as_ref());
        // Newest first; a version is counted once its channel verifies.
        let mut versions: Vec<(Version, &crate::index::IndexEntry)> = entries
            .iter()
            .filter(|e| !e.yanked)
            .filter_map(|e| Some((Version::parse(&e.vers).ok()?, e)))
            .filter(|(v, _)| v.pre.is_empty())
            .collect();
        versions.sort_by(|a, b| b.0.cmp(&a.0));
        let newest = |allowed: &dyn Fn(&Version) -> bool| -> anyhow::Result<Option<Version>> {
            for (version, entry) in versions.iter().filter(|(v, _)| allowed(v)) {
                let is_locked = version.to_string() == skill.version;
                if filter.verified(&skill.name, entry, is_locked)?.is_some() {
                    return Ok(Some(version.clone()));
                }
            }
            Ok(None)
        };
        let locked = Version::parse(&skill.version).ok();
        let latest = newest(&|_| true)?;
        let compatible = match &requirement {
            Some(req) => newest(&|v| req.matches(v))?,
            None => None,
        };
        if let (Some(locked), Some(latest)) = (locked, latest) {
            let newer = latest > locked || compatible.as_ref().is_some_and(|c| *c > locked);
            if newer || yanked.is_some() {
                report.packages.push(Outdated {
                    name: skill.name.clone(),
                    kind: "registry",
                    locked: locked.to_string(),
                    compatible: compatible.map(|v| v.to_string()),
                    latest: latest.to_string(),
                    channel: Some(filter.asked_for(&skill.name)),
                    repository: None,
                    yanked: yanked.is_some(),
                    newly: None,
                    signer: None,
                    blocked: None,
                });
            }
        }
        report.yanked.extend(yanked);
    }
    report.packages.extend(moved_skills(&lock, dirs)?);
    Ok(report)
}

/// The locked skills whose source names another pin now, kind by kind
/// (git, OCI, `.well-known`), each source asked once.
fn moved_skills(lock: &Lockfile, dirs: &Dirs) -> anyhow::Result<Vec<Outdated>> {
    let asking = crate::ops::sources::Asking { dirs };
    let mut outdated = Vec::new();
    for kind in crate::ops::sources::DIRECT {
        let skills: Vec<&LockedSkill> = lock
            .skills()
            .iter()
            .filter(|skill| kind.pins(&skill.source))
            .collect();
        for moved in kind.moved(&skills, &asking)? {
            outdated.push(Outdated::moved(
                &moved.name,
                kind.name(),
                moved.from,
                moved.to,
                moved.place,
            ));
        }
    }
    Ok(outdated)
}
