//! Locked versions their index has since yanked. As cargo does with
//! `Cargo.lock`, a lock keeps working on a yanked version: `install
//! --locked` installs it, and `install`, `add` and `update` keep it where
//! nothing else is allowed. Every command that reads the index for a
//! locked package (`install`, `add`, `update`, `outdated`, `verify`) says
//! so once per package, with the command that moves off it.

use std::collections::BTreeMap;

use semver::{Version, VersionReq};
use serde::Serialize;

use crate::dirs::Dirs;
use crate::index::source::{BUILTIN_REGISTRY, Registry, open_registry};
use crate::index::{IndexEntry, PackageName};
use crate::manifest::lock::{LockedSkill, Lockfile};
use crate::manifest::{Manifest, Source};
use crate::project::Project;

/// A version `skills.lock` pins that its index has yanked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct YankedPin {
    /// `org/name`.
    pub name: String,
    /// The locked, yanked version.
    pub version: String,
    /// What `skills.toml` asks of it; absent for a package that is only
    /// a dependency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requirement: Option<String>,
    /// The newest version not yanked that the requirement allows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed: Option<String>,
    /// The newest version not yanked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub newest: Option<String>,
}

impl YankedPin {
    /// `name` locked at `version`, when `entries` (every version its index
    /// lists) say that version is yanked; `requirement` is what
    /// `skills.toml` asks of it, if it names it.
    pub fn check(
        name: &str,
        version: &str,
        entries: &[IndexEntry],
        requirement: Option<&VersionReq>,
    ) -> Option<YankedPin> {
        if !entries.iter().any(|e| e.vers == version && e.yanked) {
            return None;
        }
        let usable: Vec<Version> = entries
            .iter()
            .filter(|e| !e.yanked)
            .filter_map(|e| Version::parse(&e.vers).ok())
            .filter(|v| v.pre.is_empty())
            .collect();
        let allowed = requirement.and_then(|req| usable.iter().filter(|v| req.matches(v)).max());
        Some(YankedPin {
            name: name.to_string(),
            version: version.to_string(),
            requirement: requirement.map(ToString::to_string),
            allowed: allowed.map(ToString::to_string),
            newest: usable.iter().max().map(ToString::to_string),
        })
    }

    /// The warning: `acme/x 1.1.0, which skills.lock pins, is yanked from
    /// its index`.
    pub fn warning(&self) -> String {
        format!(
            "{} {}, which skills.lock pins, is yanked from its index",
            self.name, self.version
        )
    }

    /// What to do about it: the command that moves off the yanked version.
    pub fn hint(&self) -> String {
        let name = crate::hint::shell_quote(&self.name);
        match (&self.requirement, &self.allowed, &self.newest) {
            (_, Some(allowed), _) => format!(
                "`skillpkg update {name}` moves it to {allowed}, the newest version skills.toml allows"
            ),
            (Some(req), None, Some(newest)) => format!(
                "no other version that skills.toml allows ({req}) is available; `skillpkg add {}` moves it to the newest version not yanked",
                crate::hint::shell_quote(&format!("{}@{newest}", self.name))
            ),
            (None, None, Some(_)) => format!(
                "`skillpkg update {name}` moves it to the newest version not yanked that the skills depending on it allow, if there is one"
            ),
            (Some(_), None, None) => {
                format!("every version of {name} is yanked; `skillpkg remove {name}` drops it")
            }
            (None, None, None) => format!(
                "every version of {name} is yanked; the skills depending on it need another version of it, or to be removed"
            ),
        }
    }
}

/// What `skills.toml` asks of the registry package `name`, if it names it.
pub(crate) fn requirement(manifest: &Manifest, name: &str) -> Option<VersionReq> {
    match manifest.skills.get(name)?.source(name) {
        Ok(Source::Registry { req, .. }) => Some(req),
        _ => None,
    }
}

/// The indexes a lock's registry packages come from, each opened once and
/// its entry files fetched all at once.
pub(crate) struct LockedRegistries {
    by_label: BTreeMap<String, Registry>,
}

impl LockedRegistries {
    /// Opens the index of every registry package of `lock`, from `project`.
    pub(crate) fn open(
        project: &Project,
        lock: &Lockfile,
        dirs: &Dirs,
        offline: bool,
    ) -> anyhow::Result<LockedRegistries> {
        let mut by_label = BTreeMap::new();
        let mut packages: BTreeMap<String, Vec<PackageName>> = BTreeMap::new();
        for skill in lock.skills() {
            let Some(label) = skill.source.registry_index() else {
                continue;
            };
            if !by_label.contains_key(label) {
                let spec = (label != BUILTIN_REGISTRY).then_some(label);
                let registry = open_registry(spec, &project.dir, dirs, offline, &[])?;
                by_label.insert(label.to_string(), registry);
            }
            packages
                .entry(label.to_string())
                .or_default()
                .push(skill.name.parse()?);
        }
        for (label, packages) in &packages {
            by_label[label].prefetch(packages, &|_, _| false, &crate::progress::SILENT)?;
        }
        Ok(LockedRegistries { by_label })
    }

    /// The signing keys the index of the locked registry package `skill`
    /// lists, by org; `None` for a skill from a path or git.
    pub(crate) fn listed_keys(
        &self,
        skill: &LockedSkill,
    ) -> Option<&BTreeMap<String, Vec<String>>> {
        let label = skill.source.registry_index()?;
        Some(&self.by_label[label].config.keys)
    }

    /// Each index opened.
    pub(crate) fn all(&self) -> impl Iterator<Item = &Registry> {
        self.by_label.values()
    }

    /// Every entry the index of the locked registry package `skill` lists;
    /// `None` for a skill from a path or git.
    pub(crate) fn entries(&self, skill: &LockedSkill) -> anyhow::Result<Option<Vec<IndexEntry>>> {
        let Some(label) = skill.source.registry_index() else {
            return Ok(None);
        };
        let package: PackageName = skill.name.parse()?;
        Ok(Some(self.by_label[label].entries(&package)?))
    }
}

/// Every version `lock` pins that its index has yanked, in lock order.
pub(crate) fn yanked_pins(
    manifest: &Manifest,
    lock: &Lockfile,
    registries: &LockedRegistries,
) -> anyhow::Result<Vec<YankedPin>> {
    let mut pins = Vec::new();
    for skill in lock.skills() {
        let Some(entries) = registries.entries(skill)? else {
            continue;
        };
        let requirement = requirement(manifest, &skill.name);
        pins.extend(YankedPin::check(
            &skill.name,
            &skill.version,
            &entries,
            requirement.as_ref(),
        ));
    }
    Ok(pins)
}

/// Every version the lock of `project` pins that its index has yanked.
pub(crate) fn in_project(project: &Project, dirs: &Dirs) -> anyhow::Result<Vec<YankedPin>> {
    let manifest = Manifest::load(&project.manifest_path)?;
    let lock = Lockfile::load(&project.lock_path)?;
    let registries = LockedRegistries::open(project, &lock, dirs, false)?;
    yanked_pins(&manifest, &lock, &registries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(vers: &str, yanked: bool) -> IndexEntry {
        let line = format!(
            r#"{{"name":"acme/x","vers":"{vers}","cksum":"ab","deps":[],"desc":"d","sig":"s","yanked":{yanked},"size":3}}"#
        );
        serde_json::from_str(&line).unwrap()
    }

    fn hint(entries: &[IndexEntry], req: Option<&str>) -> Option<String> {
        let req = req.map(|r| VersionReq::parse(r).unwrap());
        YankedPin::check("acme/x", "1.1.0", entries, req.as_ref()).map(|p| p.hint())
    }

    #[test]
    fn a_pin_not_yanked_is_no_yanked_pin() {
        assert_eq!(hint(&[entry("1.1.0", false)], Some("^1")), None);
    }

    #[test]
    fn the_hint_names_the_command_that_moves_off_a_yanked_pin() {
        let newer = [
            entry("1.0.0", false),
            entry("1.1.0", true),
            entry("1.2.0", false),
        ];
        insta::assert_snapshot!(hint(&newer, Some("^1.1.0")).unwrap(), @"`skillpkg update acme/x` moves it to 1.2.0, the newest version skills.toml allows");
        let older = [entry("1.0.0", false), entry("1.1.0", true)];
        insta::assert_snapshot!(hint(&older, Some("^1.1.0")).unwrap(), @"no other version that skills.toml allows (^1.1.0) is available; `skillpkg add acme/x@1.0.0` moves it to the newest version not yanked");
        insta::assert_snapshot!(hint(&older, None).unwrap(), @"`skillpkg update acme/x` moves it to the newest version not yanked that the skills depending on it allow, if there is one");
        let none = [entry("1.1.0", true)];
        insta::assert_snapshot!(hint(&none, Some("^1")).unwrap(), @"every version of acme/x is yanked; `skillpkg remove acme/x` drops it");
        insta::assert_snapshot!(hint(&none, None).unwrap(), @"every version of acme/x is yanked; the skills depending on it need another version of it, or to be removed");
    }
}
