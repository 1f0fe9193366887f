//! What the manifest wants against what the lock pins: path and git
//! skills fetched and staged, registry requirements resolved against
//! their indexes, keeping every pin the [`Unlock`] keeps.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context as _, bail};
use semver::{Version, VersionReq};

use super::channels::{ChannelFilter, Deprecated};
use super::direct::{DirectSkill, prepare};
use super::options::{InstallOptions, Unlock};
use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::index::channel::Channel;
use crate::index::freshness::Freshness;
use crate::index::http::Settled;
use crate::index::source::{Registry, open_registry};
use crate::index::{IndexEntry, PackageName};
use crate::manifest::lock::Lockfile;
use crate::manifest::source_id::SourceId;
use crate::manifest::{Manifest, Source};
use crate::ops::yanked::YankedPin;
use crate::progress::Progress;
use crate::project::Project;
use crate::resolve::{Candidate, Universe, resolve};

/// A package no version of which the index lists: an error whose hints
/// the command that asked for it may add to (`add` suggests the
/// repository `npx skills` would read the name as).
#[derive(Debug, thiserror::Error)]
#[error("{name} is not in the index {index}")]
pub(crate) struct NotInIndex {
    /// The package, `org/name`.
    pub name: String,
    /// The index, as messages name it.
    pub index: String,
    /// What the user can do.
    pub hints: Vec<String>,
    /// The index lists versions of it, in channels below the one asked
    /// for.
    pub in_lower_channels: bool,
}

/// Requirements on one registry: `(org/name, requirement)`.
type Requirements = Vec<(String, VersionReq)>;

/// What the manifest asks for, by where it comes from.
pub(super) struct Requests {
    /// Requirements on registries, by index (`None`: the built-in one).
    /// Names that point at one index share it, and path and git skills'
    /// own dependencies join the default registry's.
    pub by_registry: BTreeMap<Option<String>, Requirements>,
    /// Path and git skills, fetched, validated and staged.
    pub direct: Vec<DirectSkill>,
    /// The channel each registry package asks for in `skills.toml`.
    pub channels: BTreeMap<String, Channel>,
    /// The channel of packages that name none (`--channel`, else
    /// published).
    pub default_channel: Channel,
    /// Versions must carry channel signatures (the org's policy says so).
    pub require_channel_signatures: bool,
    /// The default index, as `by_registry` keys it.
    pub default_spec: Option<String>,
}

impl Requests {
    /// Refuses what `policy` does not let the project ask for: a channel
    /// below its lowest. Notes whether it requires channel signatures.
    pub(super) fn check_policy(
        &mut self,
        policy: &super::org_policy::ProjectPolicy,
    ) -> anyhow::Result<()> {
        for (name, _) in self.by_registry.values().flatten() {
            let asked = self
                .channels
                .get(name)
                .copied()
                .unwrap_or(self.default_channel);
            policy.check_channel(name, asked)?;
        }
        self.require_channel_signatures = policy.requires_channel_signatures();
        Ok(())
    }
}

/// A registry package resolution chose.
pub(super) struct Planned<'r> {
    /// The package.
    pub package: PackageName,
    /// Its index entry at the chosen version.
    pub entry: IndexEntry,
    /// The registry it comes from.
    pub registry: &'r Registry,
    /// When the chosen version is a locked one its index has yanked: what
    /// to say about it.
    pub yanked: Option<YankedPin>,
    /// When the chosen version is deprecated: what to say about it.
    pub deprecated: Option<Deprecated>,
    /// For the version the lock pins, which is seen whatever its channel:
    /// where its signatures put it, for the org policy's lowest channel.
    pub locked_channel: Option<Channel>,
}

impl Planned<'_> {
    /// Its source, as the lock records it.
    pub(super) fn source(&self) -> SourceId {
        SourceId::registry(&self.registry.label)
    }
}

/// Refuses what `planned` takes that `policy` does not allow: a locked
/// version below its lowest channel, or, once it expired, any version of
/// its index that the lock does not pin exactly. Returns the warning for
/// an install of exactly the lock under an expired policy.
pub(super) fn check_planned(
    policy: &super::org_policy::ProjectPolicy,
    planned: &[Planned<'_>],
    old_lock: &Lockfile,
) -> anyhow::Result<Option<String>> {
    for p in planned {
        if let Some(channel) = p.locked_channel {
            policy.check_locked_channel(&p.package.to_string(), &p.entry.vers, channel)?;
        }
    }
    let taken: Vec<(String, String)> = planned
        .iter()
        .filter(|p| p.registry.label == policy.index)
        .filter(|p| {
            let name = p.package.to_string();
            let checksum = format!("sha256:{}", p.entry.cksum);
            !old_lock.skills().iter().any(|s| {
                s.name == name
                    && s.version == p.entry.vers
                    && s.checksum.as_deref() == Some(checksum.as_str())
            })
        })
        .map(|p| (p.package.to_string(), p.entry.vers.clone()))
        .collect();
    policy.check_expiry(&taken)
}

/// Reads the manifest's wants; path and git skills are fetched, validated
/// and staged now, since their dependencies join the requirements.
#[allow(clippy::too_many_arguments)]
pub(super) fn gather(
    project: &Project,
    root: &Path,
    manifest: &Manifest,
    old_lock: &Lockfile,
    unlock: &Unlock,
    dirs: &Dirs,
    views: &crate::ops::edit::Views,
    options: InstallOptions,
) -> anyhow::Result<Requests> {
    let mut requests = Requests {
        by_registry: BTreeMap::new(),
        direct: Vec::new(),
        channels: BTreeMap::new(),
        default_channel: options.channel.unwrap_or_default(),
        require_channel_signatures: false,
        default_spec: registry_spec(manifest, None)?.map(str::to_string),
    };
    let fetching = crate::ops::sources::Fetching {
        project_dir: &project.dir,
        cache: &dirs.cache,
        offline: options.offline,
        staging: &project.staging_dir(),
        validity: options.validity(),
        root,
        git: &views.git,
        sites: &views.sites,
        registries: options.registries(dirs),
        limits: options.limits,
        allow_signer_change: options.allow_signer_change,
    };
    for (name, spec) in &manifest.skills {
        let origin = match spec.source(name)? {
            Source::Registry {
                req,
                registry,
                channel,
            } => {
                name.parse::<PackageName>()?;
                if let Some(channel) = channel {
                    requests.channels.insert(name.clone(), channel);
                }
                let index = registry_spec(manifest, registry.as_deref())?.map(str::to_string);
                requests
                    .by_registry
                    .entry(index)
                    .or_default()
                    .push((name.clone(), req));
                continue;
            }
            Source::Direct(origin) => origin,
        };
        let locked = old_lock.get(name).filter(|_| unlock.keeps(name));
        let skill = prepare(name, &origin, locked, old_lock.get(name), &fetching)?;
        let default = registry_spec(manifest, None)?.map(str::to_string);
        requests
            .by_registry
            .entry(default)
            .or_default()
            .extend(skill.dependencies.iter().cloned());
        requests.direct.push(skill);
    }
    Ok(requests)
}

/// Opens every index the requests name, once each, in their order;
/// `default` (the default index, opened already) is taken as it is.
pub(super) fn open_registries(
    requests: &Requests,
    project: &Project,
    dirs: &Dirs,
    options: &InstallOptions,
    default: Option<Registry>,
) -> anyhow::Result<Vec<Registry>> {
    let mut default = default;
    let default_spec = requests.default_spec.clone();
    requests
        .by_registry
        .keys()
        .map(|spec| {
            if spec.is_some()
                && *spec == default_spec
                && let Some(registry) = default.take()
            {
                return Ok(registry);
            }
            open_registry(
                spec.as_deref(),
                &project.dir,
                dirs,
                options.offline,
                options.insecure_registries,
            )
        })
        .collect()
}

/// Resolves each registry's requirements against its index, keeping the
/// lock's versions where `unlock` allows, each index's channel records
/// checked by its `freshness`.
pub(super) fn resolve_all<'r>(
    requests: &Requests,
    registries: &'r [Registry],
    freshness: &[Freshness],
    old_lock: &Lockfile,
    unlock: &Unlock,
    progress: &dyn Progress,
) -> anyhow::Result<Vec<Planned<'r>>> {
    let mut plan = Vec::new();
    for ((requirements, registry), freshness) in
        requests.by_registry.values().zip(registries).zip(freshness)
    {
        let source = SourceId::registry(&registry.label);
        let pinned: Vec<_> = old_lock
            .skills()
            .iter()
            .filter(|s| s.source == source && unlock.keeps(&s.name))
            .collect();
        let locked: BTreeMap<String, Version> = pinned
            .iter()
            .filter_map(|s| Some((s.name.clone(), Version::parse(&s.version).ok()?)))
            .collect();
        // Entry files the cache holds with the version and checksum the
        // lock pins are not asked for again (entries are append-only but
        // for `yanked`, and a locked version is kept even when yanked)...
        let from_cache = std::cell::Cell::new(false);
        let pins: std::collections::HashMap<&str, &crate::manifest::lock::LockedSkill> =
            pinned.iter().map(|s| (s.name.as_str(), *s)).collect();
        let holds_pin = |package: &PackageName, entries: &[IndexEntry]| {
            let holds = pins.get(package.to_string().as_str()).is_some_and(|s| {
                let checksum = s
                    .checksum
                    .as_deref()
                    .and_then(|c| c.strip_prefix("sha256:"));
                entries
                    .iter()
                    .any(|e| e.vers == s.version && checksum == Some(e.cksum.as_str()))
            });
            from_cache.set(from_cache.get() || holds);
            holds
        };
        let filter = ChannelFilter {
            asked: &requests.channels,
            default: requests.default_channel,
            pinned: &old_lock.keys,
            listed: &registry.config.keys,
            require_signed: requests.require_channel_signatures,
            freshness,
        };
        let reading = Reading {
            registry,
            filter: &filter,
            locked: &locked,
            progress,
        };
        let (universe, entries) = fetch_universe(&reading, requirements, &holds_pin)?;
        let first = resolve(&universe, requirements, &locked);
        // ...as long as resolution keeps every pin; otherwise it runs
        // again on what the server has now.
        let keeps_pins = |resolved: &BTreeMap<String, Version>| {
            resolved
                .iter()
                .all(|(name, version)| locked.get(name).is_none_or(|pin| pin == version))
        };
        let (attempt, mut universe, mut entries) = match first {
            Ok(resolved) if !from_cache.get() || keeps_pins(&resolved) => {
                (Ok(resolved), universe, entries)
            }
            Err(e) if !from_cache.get() => (Err(e), universe, entries),
            _ => {
                let read: Vec<PackageName> = entries
                    .keys()
                    .filter_map(|name| name.parse().ok())
                    .collect();
                registry.forget(&read);
                let (universe, entries) = fetch_universe(&reading, requirements, &|_, _| false)?;
                let attempt = resolve(&universe, requirements, &locked);
                (attempt, universe, entries)
            }
        };
        let resolved = match attempt {
            Ok(resolved) => resolved,
            Err(e) => keeping_yanked_pins(
                &universe,
                requirements,
                &locked,
                &yanked_let_go(old_lock, &source, unlock, &entries),
            )
            .ok_or(e)?,
        };
        let settling = Settling {
            filter: &filter,
            requirements,
            locked: &locked,
        };
        let (resolved, mut deprecated) = settling.run(resolved, &mut universe, &mut entries)?;
        let requirement_of: std::collections::HashMap<&str, &semver::VersionReq> = requirements
            .iter()
            .map(|(n, req)| (n.as_str(), req))
            .collect();
        for (name, version) in resolved {
            let all = entries
                .get_mut(&name)
                .expect("resolved versions come from the fetched entries");
            let requirement = requirement_of.get(name.as_str()).copied();
            let yanked = YankedPin::check(&name, &version.to_string(), all, requirement);
            let at = all
                .iter()
                .position(|e| e.vers == version.to_string())
                .expect("resolved versions come from the fetched entries");
            let deprecated = deprecated.remove(&name);
            let entry = all.swap_remove(at);
            let locked_channel = (locked.get(&name) == Some(&version))
                .then(|| filter.standing(&name, &entry).channel);
            plan.push(Planned {
                package: name.parse()?,
                entry,
                registry,
                yanked,
                deprecated,
                locked_channel,
            });
        }
    }
    // What the resolution accepted is kept for the next one.
    for freshness in freshness {
        freshness.save()?;
    }
    Ok(plan)
}

/// The versions `old_lock` pins in the registry `source` that `unlock`
/// lets go of and that `entries` say are yanked.
fn yanked_let_go(
    old_lock: &Lockfile,
    source: &SourceId,
    unlock: &Unlock,
    entries: &BTreeMap<String, Vec<IndexEntry>>,
) -> BTreeMap<String, Version> {
    old_lock
        .skills()
        .iter()
        .filter(|s| s.source == *source && !unlock.keeps(&s.name))
        .filter(|s| {
            entries
                .get(&s.name)
                .is_some_and(|all| all.iter().any(|e| e.vers == s.version && e.yanked))
        })
        .filter_map(|s| Some((s.name.clone(), Version::parse(&s.version).ok()?)))
        .collect()
}

/// Resolution once more, for an update that found nothing: with the
/// yanked versions it let go of (`yanked`) pinned again, as a lock keeps
/// working on a yanked version where nothing else is allowed (the install
/// then warns of each). `None` when there are none, or it fails too.
fn keeping_yanked_pins(
    universe: &Universe,
    requirements: &[(String, VersionReq)],
    locked: &BTreeMap<String, Version>,
    yanked: &BTreeMap<String, Version>,
) -> Option<BTreeMap<String, Version>> {
    if yanked.is_empty() {
        return None;
    }
    let mut pins = locked.clone();
    pins.extend(
        yanked
            .iter()
            .map(|(name, version)| (name.clone(), version.clone())),
    );
    resolve(universe, requirements, &pins).ok()
}

/// The index of the registry `name` (the default when `None`); `None`
/// for the embedded sample index.
fn registry_spec<'m>(
    manifest: &'m Manifest,
    name: Option<&str>,
) -> anyhow::Result<Option<&'m str>> {
    match name {
        None => Ok(manifest.registries.get("default").map(|r| r.index.as_str())),
        Some(name) => manifest
            .registries
            .get(name)
            .map(|r| Some(r.index.as_str()))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    Hinted::new(format!("no registry named '{name}' in skills.toml")).hint(
                        format!(
                            "add it with `skillpkg registry add {} URL`",
                            crate::hint::shell_quote(name)
                        )
                    )
                )
            }),
    }
}

/// Where resolution reads one index's entries from, and what it sees of
/// them.
struct Reading<'a> {
    registry: &'a Registry,
    filter: &'a ChannelFilter<'a>,
    /// The versions the lock pins there, seen whatever their channel.
    locked: &'a BTreeMap<String, Version>,
    progress: &'a dyn Progress,
}

/// Every version of every package reachable from `requirements` that its
/// project sees (claiming its channel or above), fetched a layer of the
/// dependency graph at a time: as resolution sees them, and the entries
/// themselves by package name.
fn fetch_universe(
    reading: &Reading<'_>,
    requirements: &[(String, VersionReq)],
    settled: &Settled,
) -> anyhow::Result<(Universe, BTreeMap<String, Vec<IndexEntry>>)> {
    let registry = reading.registry;
    let mut universe = Universe::default();
    let mut fetched = BTreeMap::new();
    let mut layer: BTreeSet<String> = requirements.iter().map(|(n, _)| n.clone()).collect();
    while !layer.is_empty() {
        let packages = layer
            .iter()
            .map(|name| name.parse::<PackageName>())
            .collect::<Result<Vec<_>, _>>()?;
        registry.prefetch(&packages, settled, reading.progress)?;
        let mut next = BTreeSet::new();
        for (name, package) in layer.iter().zip(&packages) {
            let all = registry.entries(package)?;
            let listed_any = !all.is_empty();
            let locked = reading.locked.get(name).map(ToString::to_string);
            let seen = reading.filter.seen(name, all, locked.as_deref());
            let mut candidates = Vec::new();
            for entry in &seen {
                let Some(mut candidate) = candidate_of(entry, name, registry)? else {
                    continue;
                };
                candidate.deprecated = crate::index::channel::claimed(entry) == Channel::Deprecated;
                for (dependency, _) in &candidate.dependencies {
                    if !universe.packages.contains_key(dependency) && !layer.contains(dependency) {
                        next.insert(dependency.clone());
                    }
                }
                candidates.push(candidate);
            }
            if candidates.is_empty() {
                bail!(not_in_index(
                    registry,
                    name,
                    listed_any,
                    reading.filter.asked_for(name)
                ));
            }
            universe.packages.insert(name.clone(), candidates);
            fetched.insert(name.clone(), seen);
        }
        layer = next;
    }
    Ok((universe, fetched))
}

/// The channel checks of what resolution chose: each chosen version's
/// signatures are verified (not every version an index lists), and one
/// that is not seen after all is taken out and resolution runs again.
struct Settling<'a> {
    filter: &'a ChannelFilter<'a>,
    requirements: &'a [(String, VersionReq)],
    locked: &'a BTreeMap<String, Version>,
}

/// How many times resolution runs again for versions whose channel
/// claims do not verify, before every listed version is checked at once.
const LAZY_ROUNDS: usize = 3;

impl Settling<'_> {
    /// `resolved`, with every chosen version's channel verified, and the
    /// deprecated ones among them, by package name.
    fn run(
        &self,
        mut resolved: BTreeMap<String, Version>,
        universe: &mut Universe,
        entries: &mut BTreeMap<String, Vec<IndexEntry>>,
    ) -> anyhow::Result<(BTreeMap<String, Version>, BTreeMap<String, Deprecated>)> {
        for round in 0.. {
            let mut deprecated = BTreeMap::new();
            let mut hidden = Vec::new();
            for (name, version) in &resolved {
                let vers = version.to_string();
                let entry = entries[name]
                    .iter()
                    .find(|e| e.vers == vers)
                    .expect("resolved versions come from the fetched entries");
                let is_locked = self.locked.get(name) == Some(version);
                match self.filter.verified(name, entry, is_locked)? {
                    Some(Some(deprecation)) => {
                        deprecated.insert(name.clone(), deprecation);
                    }
                    Some(None) => {}
                    None => hidden.push(name.clone()),
                }
            }
            if hidden.is_empty() {
                return Ok((resolved, deprecated));
            }
            // A forged claim: leave the version out, or after a few rounds
            // every version whose claim is not verified yet.
            for name in &hidden {
                let vers = resolved[name].to_string();
                self.hide(universe, entries, name, |e| e.vers == vers);
            }
            if round + 1 >= LAZY_ROUNDS {
                let names: Vec<String> = entries.keys().cloned().collect();
                for name in names {
                    let locked = self.locked.get(&name).map(ToString::to_string);
                    let filter = self.filter;
                    self.hide(universe, entries, &name, |e| {
                        // A record that does not hold (replayed, of another
                        // index, expired) hides its version here, as an
                        // unverified claim does: it was not chosen.
                        !matches!(
                            filter.verified(&name, e, locked.as_deref() == Some(e.vers.as_str())),
                            Ok(Some(_))
                        )
                    });
                }
            }
            resolved = resolve(universe, self.requirements, self.locked)?;
        }
        unreachable!("the loop returns")
    }

    /// Takes the versions of `name` that `hidden` picks out of the
    /// universe and the entries.
    fn hide(
        &self,
        universe: &mut Universe,
        entries: &mut BTreeMap<String, Vec<IndexEntry>>,
        name: &str,
        hidden: impl Fn(&IndexEntry) -> bool,
    ) {
        let Some(all) = entries.get_mut(name) else {
            return;
        };
        let gone: Vec<String> = all
            .iter()
            .filter(|e| hidden(e))
            .map(|e| e.vers.clone())
            .collect();
        all.retain(|e| !gone.contains(&e.vers));
        if let Some(candidates) = universe.packages.get_mut(name) {
            candidates.retain(|c| !gone.contains(&c.version.to_string()));
        }
    }
}

/// The error for `name`, of which `registry` shows no version: a did-you-
/// mean from its listing, or, when it lists versions in channels below
/// `asked`, how to ask for them.
fn not_in_index(registry: &Registry, name: &str, listed_any: bool, asked: Channel) -> NotInIndex {
    let hint = match listed_any {
        true => format!(
            "no version of it is in the {asked} channel or above; a project that asks for the testing or draft channel sees those (`--channel testing`, or `channel = \"testing\"` on it in skills.toml)"
        ),
        false => {
            let listed = registry.listing().ok().flatten();
            let meant = listed.as_ref().and_then(|listing| {
                crate::hint::did_you_mean(name, listing.entries().map(|e| e.name.as_str()))
            });
            match meant {
                Some(meant) => format!("did you mean {meant}?"),
                None => "check the name with `skillpkg search`".to_string(),
            }
        }
    };
    NotInIndex {
        name: name.to_string(),
        index: registry.label.clone(),
        hints: vec![hint],
        in_lower_channels: listed_any,
    }
}

/// An index entry as resolution sees it; `None` for a version that is
/// not semver (skipped, as cargo skips them).
fn candidate_of(
    entry: &IndexEntry,
    name: &str,
    registry: &Registry,
) -> anyhow::Result<Option<Candidate>> {
    let Ok(version) = Version::parse(&entry.vers) else {
        return Ok(None);
    };
    let dependencies = entry
        .deps
        .iter()
        .map(|dep| {
            let req = VersionReq::parse(&dep.req).with_context(|| {
                format!(
                    "{name}@{version} in {}: invalid requirement on {}",
                    registry.label, dep.name
                )
            })?;
            Ok((dep.name.clone(), req))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Some(Candidate {
        version,
        dependencies,
        yanked: entry.yanked,
        deprecated: false,
    }))
}

impl crate::hint::Advice for NotInIndex {
    fn hints(&self) -> Vec<String> {
        self.hints.clone()
    }
}
