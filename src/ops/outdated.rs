//! `skillpkg outdated`: locked versions that have newer releases, and
//! locked git skills whose branch moved.

use std::collections::BTreeMap;

use anyhow::Context as _;
use semver::Version;
use serde::Serialize;

use crate::dirs::Dirs;
use crate::index::PackageName;
use crate::index::source::{BUILTIN_REGISTRY, open_registry};
use crate::manifest::lock::Lockfile;
use crate::manifest::source_id::SourceId;
use crate::manifest::{Manifest, Source};
use crate::project::Project;

/// A locked package with a newer release.
#[derive(Debug, Clone, Serialize)]
pub struct Outdated {
    /// `org/name`.
    pub name: String,
    /// The locked version.
    pub locked: String,
    /// The newest version `skills.toml` allows (`update` moves to it);
    /// absent for packages that are only dependencies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compatible: Option<String>,
    /// The newest version published.
    pub latest: String,
    /// For a git skill: the repository, whose branch (or tag, or HEAD)
    /// moved; the versions above are then commits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
}

/// Every locked registry package whose index has a newer non-yanked version.
pub fn outdated(project: &Project, dirs: &Dirs) -> anyhow::Result<Vec<Outdated>> {
    let manifest = Manifest::load(&project.manifest_path)?;
    let lock = Lockfile::load(&project.lock_path)?;
    // Each registry is opened once, and its entries fetched all at once.
    let mut registries = BTreeMap::new();
    for skill in &lock.skills {
        let Some(label) = skill.source.registry_index() else {
            continue;
        };
        if !registries.contains_key(label) {
            let spec = (label != BUILTIN_REGISTRY).then_some(label);
            let registry = open_registry(spec, &project.dir, dirs, false)?;
            registries.insert(label, (registry, Vec::new()));
        }
        let package: PackageName = skill.name.parse()?;
        registries.get_mut(label).expect("inserted").1.push(package);
    }
    for (registry, packages) in registries.values() {
        registry.prefetch(packages, &|_, _| false, &crate::progress::SILENT)?;
    }
    let mut results = Vec::new();
    for skill in &lock.skills {
        let Some(label) = skill.source.registry_index() else {
            continue;
        };
        let registry = &registries[label].0;
        let package: PackageName = skill.name.parse()?;
        let versions: Vec<Version> = registry
            .entries(&package)?
            .iter()
            .filter(|e| !e.yanked)
            .filter_map(|e| Version::parse(&e.vers).ok())
            .filter(|v| v.pre.is_empty())
            .collect();
        let Ok(locked) = Version::parse(&skill.version) else {
            continue;
        };
        let Some(latest) = versions.iter().max().cloned() else {
            continue;
        };
        let requirement = match manifest
            .skills
            .get(&skill.name)
            .map(|spec| spec.source(&skill.name))
        {
            Some(Ok(Source::Registry { req, .. })) => Some(req),
            _ => None,
        };
        let compatible =
            requirement.and_then(|req| versions.iter().filter(|v| req.matches(v)).max().cloned());
        if latest > locked || compatible.as_ref().is_some_and(|c| *c > locked) {
            results.push(Outdated {
                name: skill.name.clone(),
                locked: locked.to_string(),
                compatible: compatible.map(|v| v.to_string()),
                latest: latest.to_string(),
                repository: None,
            });
        }
    }
    results.extend(moved_git_skills(&lock, dirs)?);
    Ok(results)
}

/// Every locked git skill whose branch, tag or HEAD now names another
/// commit than the lock's (a skill pinned to a commit id never moves).
/// Each repository is fetched once.
fn moved_git_skills(lock: &Lockfile, dirs: &Dirs) -> anyhow::Result<Vec<Outdated>> {
    let short = |commit: &str| commit.chars().take(12).collect::<String>();
    let mut moved = Vec::new();
    for skill in &lock.skills {
        let SourceId::Git { origin, commit } = &skill.source else {
            continue;
        };
        let pinned_to_commit = origin
            .rev
            .as_deref()
            .is_some_and(|rev| rev.len() == 40 && rev.chars().all(|c| c.is_ascii_hexdigit()));
        if pinned_to_commit {
            continue;
        }
        let (_, now) = crate::index::git::fetch_commit(
            &origin.url,
            origin.rev.as_deref(),
            None,
            &dirs.cache,
            false,
        )
        .with_context(|| format!("could not check {} for {}", origin.url, skill.name))?;
        if now.to_string() != *commit {
            moved.push(Outdated {
                name: skill.name.clone(),
                locked: short(commit),
                compatible: Some(short(&now.to_string())),
                latest: short(&now.to_string()),
                repository: Some(origin.url.clone()),
            });
        }
    }
    Ok(moved)
}
