//! `add`, `remove` and `install`: resolve the manifest against its
//! registries, verify and install every package into the project root, and
//! write `skills.lock`.
//!
//! Every archive is checked before extraction (sha256 against the index
//! entry, minisign signature by a key of its org whose trusted comment
//! names this package, version and checksum). Skills are extracted into a
//! staging directory and renamed into place, one at a time; the lock is
//! written last, atomically. A process lock serialises concurrent runs on
//! one project. Folders the lock does not manage are never touched.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use semver::{Version, VersionReq};
use serde::Serialize;

use crate::dirs::Dirs;
use crate::index::source::{Registry, open_registry};
use crate::index::{IndexEntry, PackageName};
use crate::manifest::edit::ManifestDocument;
use crate::manifest::lock::{LockedSkill, Lockfile};
use crate::manifest::{DependencySpec, Manifest, Source};
use crate::ops::direct::{git_folder_name, prepare as prepare_direct};
use crate::progress::{Progress, SILENT};
use crate::project::{MANIFEST_FILE, Project};
use crate::resolve::{Candidate, Universe, resolve};
use crate::store::extract::{Limits, extract};
use crate::store::{hash, signing};

/// How `install` may behave.
#[derive(Clone, Copy)]
pub struct InstallOptions<'p> {
    /// Fail if the lock would change.
    pub locked: bool,
    /// Overwrite managed skills that were edited locally.
    pub force: bool,
    /// Accept unsigned packages from remote indexes.
    pub allow_unsigned: bool,
    /// Use only what is on this machine: no index fetches.
    pub offline: bool,
    /// Where downloads and installs report their progress.
    pub progress: &'p dyn Progress,
}

impl Default for InstallOptions<'_> {
    fn default() -> Self {
        InstallOptions {
            locked: false,
            force: false,
            allow_unsigned: false,
            offline: false,
            progress: &SILENT,
        }
    }
}

impl std::fmt::Debug for InstallOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InstallOptions")
            .field("locked", &self.locked)
            .field("force", &self.force)
            .field("allow_unsigned", &self.allow_unsigned)
            .field("offline", &self.offline)
            .finish_non_exhaustive()
    }
}

/// Which locked versions resolution may move.
#[derive(Debug, Clone, Default)]
pub enum Unlock {
    /// None: `install`, `add`, `remove` keep every pin they can.
    #[default]
    Nothing,
    /// Every package: `update` with no names.
    Everything,
    /// These packages: `update org/name…`.
    Packages(BTreeSet<String>),
}

impl Unlock {
    fn keeps(&self, name: &str) -> bool {
        match self {
            Unlock::Nothing => true,
            Unlock::Everything => false,
            Unlock::Packages(names) => !names.contains(name),
        }
    }
}

/// What happened to one skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Newly installed.
    Installed,
    /// Replaced by another version.
    Updated,
    /// Already in place.
    Unchanged,
    /// Removed: no longer wanted.
    Removed,
}

/// One line of an install report.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    /// `org/name`.
    pub name: String,
    /// The version now installed (or removed).
    pub version: String,
    /// What happened.
    pub action: Action,
    /// Warnings about the installed files (hidden Unicode), naming file and line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// A project's manifest opened for a change, with the project locked
/// against other runs until it is dropped.
struct Editing {
    _lock: crate::fsutil::FileLock,
    /// The manifest as data.
    manifest: Manifest,
    /// The manifest as a document, for edits that keep its comments.
    doc: ManifestDocument,
}

impl Editing {
    fn open(project: &Project) -> anyhow::Result<Editing> {
        let lock = project.lock()?;
        let text = fs_err::read_to_string(&project.manifest_path)?;
        Ok(Editing {
            manifest: Manifest::parse(&text, &project.manifest_path)?,
            doc: ManifestDocument::parse(&text, &project.manifest_path)?,
            _lock: lock,
        })
    }

    /// Installs what the edited manifest asks for, keeping every pin it can.
    fn install(
        &self,
        project: &Project,
        dirs: &Dirs,
        options: InstallOptions,
    ) -> anyhow::Result<(Lockfile, Vec<Change>)> {
        sync(
            project,
            &self.manifest,
            dirs,
            options,
            &Unlock::Nothing,
            false,
        )
    }

    /// Writes `lock`, then the edited manifest, each atomically.
    fn save(&self, project: &Project, lock: &Lockfile) -> anyhow::Result<()> {
        lock.write(&project.lock_path)?;
        crate::fsutil::write_atomically(&project.manifest_path, self.doc.to_text().as_bytes())
            .with_context(|| format!("could not write {}", project.manifest_path.display()))
    }
}

/// Parses `org/name[@req]`.
fn parse_request(text: &str) -> anyhow::Result<(PackageName, Option<VersionReq>)> {
    let (name, req) = match text.split_once('@') {
        Some((name, req)) => (name, Some(req)),
        None => (text, None),
    };
    let package: PackageName = name.parse()?;
    let req = req
        .map(|r| {
            VersionReq::parse(r)
                .map_err(|e| anyhow::anyhow!("'{text}': invalid version requirement '{r}': {e}"))
        })
        .transpose()?;
    Ok((package, req))
}

/// Adds packages to the manifest, then installs. A package given without
/// a requirement is recorded as `^<the version resolved>`.
pub fn add(
    project: &Project,
    dirs: &Dirs,
    requests: &[String],
    registry: Option<&str>,
    options: InstallOptions,
) -> anyhow::Result<Vec<Change>> {
    let mut edit = Editing::open(project)?;
    if let Some(name) = registry
        && !edit.manifest.registries.contains_key(name)
    {
        bail!(
            "no registry named '{name}' in {}\nhint: add it under [registries]",
            project.manifest_path.display()
        );
    }
    let parsed = requests
        .iter()
        .map(|r| parse_request(r))
        .collect::<anyhow::Result<Vec<_>>>()?;
    for (package, req) in &parsed {
        let spec = spec_for(
            req.as_ref()
                .map(ToString::to_string)
                .unwrap_or_else(|| "*".into()),
            registry,
        );
        edit.manifest.skills.insert(package.to_string(), spec);
    }
    let (lock, changes) = edit.install(project, dirs, options)?;
    for (package, req) in parsed {
        let name = package.to_string();
        let req = match req {
            Some(req) => req.to_string(),
            None => {
                let locked = lock
                    .get(&name)
                    .expect("every requested package is resolved");
                format!("^{}", locked.version)
            }
        };
        edit.doc.set_dependency(&name, &spec_for(req, registry))?;
    }
    edit.save(project, &lock)?;
    Ok(changes)
}

/// Adds a path or git skill under `name` (derived from the source when
/// `None`), then installs.
pub fn add_direct(
    project: &Project,
    cwd: &Path,
    dirs: &Dirs,
    name: Option<&str>,
    mut spec: crate::manifest::DetailedSpec,
    options: InstallOptions,
) -> anyhow::Result<Vec<Change>> {
    let mut edit = Editing::open(project)?;
    if let Some(path) = &spec.path {
        // Recorded relative to the project when it lies inside it.
        let absolute = cwd.join(path);
        let absolute = fs_err::canonicalize(&absolute)
            .with_context(|| format!("no skill folder at {}", absolute.display()))?;
        let project_dir = fs_err::canonicalize(&project.dir)?;
        spec.path = Some(match absolute.strip_prefix(&project_dir) {
            Ok(relative) => relative.display().to_string(),
            Err(_) => absolute.display().to_string(),
        });
    }
    let name = match name {
        Some(name) => name.to_string(),
        None => match (&spec.path, &spec.git) {
            (Some(path), _) => {
                crate::skill::load::load_skill(&project.dir.join(path))
                    .with_context(|| format!("could not read the skill in {path}"))?
                    .meta
                    .name
            }
            (None, Some(url)) => git_folder_name(url, spec.subdir.as_deref()).to_string(),
            (None, None) => bail!("give --path or --git"),
        },
    };
    let spec = DependencySpec::Detailed(spec);
    spec.source(&name)?;
    edit.manifest.skills.insert(name.clone(), spec.clone());
    let (lock, changes) = edit.install(project, dirs, options)?;
    edit.doc.set_dependency(&name, &spec)?;
    edit.save(project, &lock)?;
    Ok(changes)
}

fn spec_for(req: String, registry: Option<&str>) -> DependencySpec {
    match registry {
        None => DependencySpec::Version(req),
        Some(registry) => DependencySpec::Detailed(crate::manifest::DetailedSpec {
            version: Some(req),
            registry: Some(registry.to_string()),
            ..Default::default()
        }),
    }
}

/// Removes packages from the manifest and their skills from the root.
pub fn remove(
    project: &Project,
    dirs: &Dirs,
    names: &[String],
    options: InstallOptions,
) -> anyhow::Result<Vec<Change>> {
    let mut edit = Editing::open(project)?;
    for name in names {
        if edit.manifest.skills.remove(name).is_none() {
            bail!("{name} is not in {}", project.manifest_path.display());
        }
        edit.doc.remove_dependency(name)?;
    }
    let (lock, changes) = edit.install(project, dirs, options)?;
    edit.save(project, &lock)?;
    Ok(changes)
}

/// Installs what the manifest asks for, keeping locked versions.
pub fn install(
    project: &Project,
    dirs: &Dirs,
    options: InstallOptions,
) -> anyhow::Result<Vec<Change>> {
    let project = project.clone();
    let _lock = project.lock()?;
    let manifest = Manifest::load(&project.manifest_path)?;
    let (lock, changes) = sync(&project, &manifest, dirs, options, &Unlock::Nothing, false)?;
    lock.write(&project.lock_path)?;
    Ok(changes)
}

/// Moves locked versions forward: of `names`, or of every package when
/// `names` is empty. With `dry_run`, only reports what would change.
pub fn update(
    project: &Project,
    dirs: &Dirs,
    names: &[String],
    dry_run: bool,
    options: InstallOptions,
) -> anyhow::Result<Vec<Change>> {
    let project = project.clone();
    let _lock = project.lock()?;
    let manifest = Manifest::load(&project.manifest_path)?;
    let old_lock = Lockfile::load(&project.lock_path)?;
    let unlock = if names.is_empty() {
        Unlock::Everything
    } else {
        for name in names {
            if old_lock.get(name).is_none() {
                bail!(
                    "{name} is not in {}\nhint: `skillpkg add {name}` installs it",
                    project.lock_path.display()
                );
            }
        }
        Unlock::Packages(names.iter().cloned().collect())
    };
    let (lock, changes) = sync(&project, &manifest, dirs, options, &unlock, dry_run)?;
    if !dry_run {
        lock.write(&project.lock_path)?;
    }
    Ok(changes)
}

/// A package with its archive verified (or packed, for path and git
/// skills), ready to extract.
struct Ready<'a> {
    name: String,
    skill: &'a str,
    version: String,
    source: String,
    checksum: Option<String>,
    /// The tree it installs, when known before unpacking (path and git skills).
    tree: Option<String>,
    signer: Option<String>,
    dependencies: Vec<String>,
    archive: PathBuf,
}

/// A resolved package, ready to install.
struct Planned<'r> {
    package: PackageName,
    entry: IndexEntry,
    registry: &'r Registry,
}

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
                    "no registry named '{name}' in skills.toml\nhint: add it under [registries]"
                )
            }),
    }
}

/// Resolves and installs; returns the new lock and what changed.
fn sync(
    project: &Project,
    manifest: &Manifest,
    dirs: &Dirs,
    options: InstallOptions,
    unlock: &Unlock,
    dry_run: bool,
) -> anyhow::Result<(Lockfile, Vec<Change>)> {
    let old_lock = Lockfile::load(&project.lock_path)?;
    let root = project.skill_root(manifest.install_root());
    let targets = manifest
        .install
        .targets
        .iter()
        .map(|t| crate::ops::targets::target_dir(&project.targets_base, t))
        .collect::<anyhow::Result<Vec<_>>>()?;

    // Path and git skills are fetched, validated and packed first: their
    // dependencies join the default registry's requirements.
    let staging_parent = project.staging_dir();
    let mut groups: BTreeMap<Option<String>, Vec<(String, VersionReq)>> = BTreeMap::new();
    let mut direct = Vec::new();
    for (name, spec) in &manifest.skills {
        let origin = match spec.source(name)? {
            Source::Registry { req, registry } => {
                name.parse::<PackageName>()?;
                groups
                    .entry(registry)
                    .or_default()
                    .push((name.clone(), req));
                continue;
            }
            Source::Direct(origin) => origin,
        };
        let locked = old_lock.get(name).filter(|_| unlock.keeps(name));
        let skill = prepare_direct(
            name,
            &origin,
            &project.dir,
            locked,
            &dirs.cache,
            options.offline,
            &staging_parent,
        )?;
        for (dependency, req) in &skill.dependencies {
            groups
                .entry(None)
                .or_default()
                .push((dependency.clone(), req.clone()));
        }
        direct.push(skill);
    }
    let mut registries = Vec::new();
    for registry_name in groups.keys() {
        let spec = registry_spec(manifest, registry_name.as_deref())?;
        registries.push(open_registry(
            spec,
            &project.dir,
            &dirs.cache,
            options.offline,
        )?);
    }

    let mut plan: Vec<Planned> = Vec::new();
    for ((_, requirements), registry) in groups.iter().zip(&registries) {
        let (universe, mut entries) = fetch_universe(registry, requirements, options.progress)?;
        let source = format!("registry+{}", registry.label);
        let locked: BTreeMap<String, Version> = old_lock
            .skills
            .iter()
            .filter(|s| s.source == source && unlock.keeps(&s.name))
            .filter_map(|s| Some((s.name.clone(), Version::parse(&s.version).ok()?)))
            .collect();
        let solution = resolve(&universe, requirements, &locked)?;
        for (name, version) in solution {
            let package: PackageName = name.parse()?;
            let entry = entries
                .get_mut(&name)
                .and_then(|all| {
                    let at = all.iter().position(|e| e.vers == version.to_string())?;
                    Some(all.swap_remove(at))
                })
                .expect("resolved versions come from the fetched entries");
            plan.push(Planned {
                package,
                entry,
                registry,
            });
        }
    }
    // (lock name, skill folder, version, source) of everything wanted.
    let wanted: Vec<(String, &str, String, String)> = plan
        .iter()
        .map(|p| {
            (
                p.package.to_string(),
                p.package.name.as_str(),
                p.entry.vers.clone(),
                format!("registry+{}", p.registry.label),
            )
        })
        .chain(direct.iter().map(|d| {
            (
                d.name.clone(),
                d.skill.as_str(),
                d.version.clone(),
                d.source.clone(),
            )
        }))
        .collect();

    // Two packages may not install the same skill name into one root.
    let mut by_skill: BTreeMap<&str, &str> = BTreeMap::new();
    for (name, skill, _, _) in &wanted {
        if let Some(other) = by_skill.insert(skill, name) {
            bail!(
                "{other} and {name} both install a skill named '{skill}' into {}; one root holds one skill of a name\nhint: remove one of them from {MANIFEST_FILE}",
                root.display()
            );
        }
    }

    if options.locked {
        // A path skill's folder may change under the same version.
        for skill in &direct {
            if let Some(old) = old_lock.get(&skill.name)
                && old.tree != skill.tree
            {
                bail!(
                    "{} changed since {} was written (its files hash to {}, the lock says {}) but --locked was given\nhint: run `skillpkg install` without --locked and commit the new lock",
                    skill.name,
                    project.lock_path.display(),
                    skill.tree,
                    old.tree
                );
            }
        }
        let want: BTreeSet<(&str, &str, &str)> = wanted
            .iter()
            .map(|(n, _, v, s)| (n.as_str(), v.as_str(), s.as_str()))
            .collect();
        let have: BTreeSet<(&str, &str, &str)> = old_lock
            .skills
            .iter()
            .map(|s| (s.name.as_str(), s.version.as_str(), s.source.as_str()))
            .collect();
        if want != have {
            let differences: Vec<String> = want
                .symmetric_difference(&have)
                .map(|(n, v, _)| format!("{n}@{v}"))
                .collect();
            bail!(
                "{} needs to change ({}) but --locked was given\nhint: run `skillpkg install` without --locked and commit the new lock",
                project.lock_path.display(),
                differences.join(", ")
            );
        }
    }

    if dry_run {
        let versions: Vec<(String, String)> = wanted
            .iter()
            .map(|(n, _, v, _)| (n.clone(), v.clone()))
            .collect();
        return Ok((old_lock.clone(), planned_changes(&versions, &old_lock)));
    }

    // Download what the cache lacks, all at once, then verify every
    // archive before touching the root.
    let archive_dir = dirs.cache.join("archives");
    for registry in &registries {
        let wanted: Vec<(&PackageName, &IndexEntry)> = plan
            .iter()
            .filter(|p| std::ptr::eq(p.registry, registry))
            .map(|p| (&p.package, &p.entry))
            .collect();
        registry.prefetch_archives(&wanted, &archive_dir, options.progress)?;
    }
    let mut keys = old_lock.keys.clone();
    let mut ready = Vec::new();
    for planned in &plan {
        let (archive, signer) = fetch_verified(planned, &mut keys, dirs, options)?;
        ready.push(Ready {
            name: planned.package.to_string(),
            skill: &planned.package.name,
            version: planned.entry.vers.clone(),
            source: format!("registry+{}", planned.registry.label),
            checksum: Some(format!("sha256:{}", planned.entry.cksum)),
            tree: None,
            signer,
            dependencies: planned.entry.deps.iter().map(|d| d.name.clone()).collect(),
            archive,
        });
    }
    for skill in &direct {
        ready.push(Ready {
            name: skill.name.clone(),
            skill: &skill.skill,
            version: skill.version.clone(),
            source: skill.source.clone(),
            checksum: None,
            tree: Some(skill.tree.clone()),
            signer: None,
            dependencies: skill.dependencies.iter().map(|(n, _)| n.clone()).collect(),
            archive: skill.archive.path().to_path_buf(),
        });
    }

    let mut changes = Vec::new();
    let mut new_lock = Lockfile {
        keys,
        ..Lockfile::default()
    };
    fs_err::create_dir_all(&root)?;
    options.progress.start("Installing", ready.len() as u64);
    for ready in ready {
        let target = root.join(ready.skill);
        let old = old_lock.get(&ready.name);
        // The tree this package installs, when known without unpacking
        // it: a path or git skill's, or the locked one for the locked archive.
        let known_tree = ready.tree.clone().or_else(|| {
            old.filter(|o| o.version == ready.version && o.checksum == ready.checksum)
                .map(|o| o.tree.clone())
        });
        let current = match target.exists() {
            true => Some(hash::tree_hash(&target)?),
            false => None,
        };
        let mut warnings = Vec::new();
        let in_place = known_tree.is_some() && current == known_tree;
        let tree = match known_tree {
            Some(tree) if in_place => tree,
            _ => {
                let staged = extract(
                    &ready.archive,
                    Some(ready.skill),
                    &staging_parent,
                    &Limits::default(),
                )?;
                let tree = staged.tree_hash();
                warnings = staged
                    .scan_hidden_unicode()?
                    .iter()
                    .map(|hidden| format!("{}: {hidden}", ready.name))
                    .collect();
                match &current {
                    // An interrupted run already put it there.
                    Some(current) if *current == tree => {}
                    Some(current) => {
                        check_replaceable(
                            &target,
                            &ready.name,
                            old,
                            current,
                            options,
                            &dirs.cache,
                        )?;
                        swap_into_place(staged, &target, &project.trash_dir())?;
                    }
                    None => swap_into_place(staged, &target, &project.trash_dir())?,
                }
                tree
            }
        };
        let in_place = current.as_deref() == Some(tree.as_str());
        let action = match old {
            Some(o)
                if in_place
                    && o.version == ready.version
                    && o.tree == tree
                    && o.source == ready.source =>
            {
                Action::Unchanged
            }
            Some(o) if o.version != ready.version || o.tree != tree => Action::Updated,
            // New, or the locked version put back (missing or replaced with --force).
            _ => Action::Installed,
        };
        changes.push(Change {
            name: ready.name.clone(),
            version: ready.version.clone(),
            action,
            warnings,
        });
        new_lock.skills.push(LockedSkill {
            name: ready.name,
            version: ready.version,
            source: ready.source,
            checksum: ready.checksum,
            tree,
            signer: ready.signer,
            dependencies: ready.dependencies,
        });
        options.progress.advance();
    }
    options.progress.finish();

    // Skills the lock managed that are no longer wanted.
    for old in &old_lock.skills {
        if new_lock.get(&old.name).is_some() {
            continue;
        }
        let skill_name = old.name.rsplit('/').next().unwrap_or(&old.name);
        let target = root.join(skill_name);
        if target.exists() {
            let tree = hash::tree_hash(&target)?;
            if tree != old.tree && !options.force {
                bail!(
                    "{} was edited since it was installed; not removing it{}\nhint: pass --force to remove it anyway",
                    target.display(),
                    describe_changes(&target, old, &dirs.cache)
                );
            }
            fs_err::remove_dir_all(&target)?;
        }
        for target in &targets {
            crate::ops::targets::unexpose(target, &root.join(skill_name))?;
        }
        changes.push(Change {
            name: old.name.clone(),
            version: old.version.clone(),
            action: Action::Removed,
            warnings: Vec::new(),
        });
    }

    // Expose every installed skill in the agents' folders the manifest names.
    for target in &targets {
        for skill in &new_lock.skills {
            let dir = root.join(skill.name.rsplit('/').next().unwrap_or(&skill.name));
            if let Some(warning) = crate::ops::targets::expose(target, &dir)?
                && let Some(change) = changes.iter_mut().find(|c| c.name == skill.name)
            {
                change.warnings.push(warning);
            }
        }
    }
    Ok((new_lock, changes))
}

/// What installing `wanted` (`(name, version)`) would change, without doing it.
fn planned_changes(wanted: &[(String, String)], old_lock: &Lockfile) -> Vec<Change> {
    let mut changes: Vec<Change> = wanted
        .iter()
        .map(|(name, version)| {
            let action = match old_lock.get(name) {
                None => Action::Installed,
                Some(old) if &old.version == version => Action::Unchanged,
                Some(_) => Action::Updated,
            };
            Change {
                name: name.clone(),
                version: version.clone(),
                action,
                warnings: Vec::new(),
            }
        })
        .collect();
    for old in &old_lock.skills {
        if !wanted.iter().any(|(name, _)| *name == old.name) {
            changes.push(Change {
                name: old.name.clone(),
                version: old.version.clone(),
                action: Action::Removed,
                warnings: Vec::new(),
            });
        }
    }
    changes
}

/// Every version of every package reachable from `requirements`, fetched
/// a layer of the dependency graph at a time: as resolution sees them, and
/// the entries themselves by package name.
fn fetch_universe(
    registry: &Registry,
    requirements: &[(String, VersionReq)],
    progress: &dyn Progress,
) -> anyhow::Result<(Universe, BTreeMap<String, Vec<IndexEntry>>)> {
    let mut universe = Universe::default();
    let mut fetched = BTreeMap::new();
    let mut layer: BTreeSet<String> = requirements.iter().map(|(n, _)| n.clone()).collect();
    while !layer.is_empty() {
        let packages = layer
            .iter()
            .map(|name| name.parse::<PackageName>())
            .collect::<Result<Vec<_>, _>>()?;
        registry.prefetch(&packages, progress)?;
        let mut next = BTreeSet::new();
        for (name, package) in layer.iter().zip(&packages) {
            let mut candidates = Vec::new();
            let entries = registry.entries(package)?;
            for entry in &entries {
                let Ok(version) = Version::parse(&entry.vers) else {
                    continue;
                };
                let mut dependencies = Vec::new();
                for dep in &entry.deps {
                    let req = VersionReq::parse(&dep.req).with_context(|| {
                        format!(
                            "{name}@{version} in {}: invalid requirement on {}",
                            registry.label, dep.name
                        )
                    })?;
                    if !universe.packages.contains_key(&dep.name) && !layer.contains(&dep.name) {
                        next.insert(dep.name.clone());
                    }
                    dependencies.push((dep.name.clone(), req));
                }
                candidates.push(Candidate {
                    version,
                    dependencies,
                    yanked: entry.yanked,
                });
            }
            if candidates.is_empty() {
                bail!(
                    "{name} is not in the index {}\nhint: check the name with `skillpkg search`",
                    registry.label
                );
            }
            universe.packages.insert(name.clone(), candidates);
            fetched.insert(name.clone(), entries);
        }
        layer = next;
    }
    Ok((universe, fetched))
}

/// The archive of `planned`, from the cache or the index, with its sha256
/// and signature verified. Returns its cached path and the signer key.
fn fetch_verified(
    planned: &Planned,
    pinned: &mut BTreeMap<String, Vec<String>>,
    dirs: &Dirs,
    options: InstallOptions,
) -> anyhow::Result<(PathBuf, Option<String>)> {
    let package = &planned.package;
    let version = &planned.entry.vers;
    let cached = dirs
        .cache
        .join("archives")
        .join(format!("{}.skill", planned.entry.cksum));
    let bytes = match fs_err::read(&cached) {
        Ok(bytes) if hash::sha256_hex(&bytes) == planned.entry.cksum => bytes,
        _ => {
            let bytes = planned.registry.archive(package, version)?;
            let actual = hash::sha256_hex(&bytes);
            if actual != planned.entry.cksum {
                bail!(
                    "checksum mismatch for {package}@{version}: the index says sha256:{} but the archive is sha256:{actual}\nhint: the archive or the index entry was tampered with or corrupted; do not install it",
                    planned.entry.cksum
                );
            }
            crate::fsutil::write_cache_file(&cached, &bytes)?;
            bytes
        }
    };

    if planned.entry.sig.trim().is_empty() {
        if planned.registry.remote && !options.allow_unsigned {
            bail!(
                "{package}@{version} is not signed\nhint: pass --allow-unsigned to install unsigned packages from {}",
                planned.registry.label
            );
        }
        return Ok((cached, None));
    }
    let offered = planned
        .registry
        .config
        .keys
        .get(&package.org)
        .cloned()
        .unwrap_or_default();
    let comment = signing::trusted_comment(&package.to_string(), version, &planned.entry.cksum);
    let mut last_error = None;
    for key in &offered {
        match signing::verify_for(key, &bytes, &planned.entry.sig, &comment) {
            Ok(()) => {
                let trusted = pinned.entry(package.org.clone()).or_default();
                if trusted.is_empty() {
                    trusted.push(key.clone()); // trust on first use
                } else if !trusted.contains(key) {
                    bail!(
                        "{package}@{version} is signed by key {key}, but skills.lock pins org '{}' to {}\nhint: if the org really changed its key, accept it with `skillpkg trust {} --key {key}`",
                        package.org,
                        trusted.join(", "),
                        package.org
                    );
                }
                return Ok((cached, Some(key.clone())));
            }
            Err(e) => last_error = Some(e),
        }
    }
    match last_error {
        Some(e) => Err(anyhow::Error::new(e).context(format!(
            "the signature of {package}@{version} does not verify"
        ))),
        None => bail!(
            "{package}@{version} is signed, but the index lists no keys for org '{}'",
            package.org
        ),
    }
}

/// Refuses to replace `target`, whose files hash to `current`, unless it
/// is a pristine managed skill (or `--force`).
fn check_replaceable(
    target: &Path,
    name: &str,
    old: Option<&LockedSkill>,
    current: &str,
    options: InstallOptions,
    cache: &Path,
) -> anyhow::Result<()> {
    match old {
        None => bail!(
            "{} already exists and skillpkg does not manage it (a hand-written skill?); not overwriting it\nhint: rename or move that folder, then install {name} again",
            target.display()
        ),
        Some(old) if old.tree != current && !options.force => bail!(
            "{} was edited since it was installed (its files no longer match skills.lock){}\nhint: keep your edits elsewhere, or pass --force to replace it with {name}",
            target.display(),
            describe_changes(target, old, cache)
        ),
        Some(_) => Ok(()),
    }
}

/// The files that differ from the locked archive, one per line, when the
/// archive is in the cache.
fn describe_changes(target: &Path, old: &LockedSkill, cache: &Path) -> String {
    let Some(archive) = old
        .checksum
        .as_deref()
        .and_then(|c| c.strip_prefix("sha256:"))
        .map(|c| cache.join("archives").join(format!("{c}.skill")))
        .filter(|a| a.is_file())
    else {
        return String::new();
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Ok(scratch) = tempfile::tempdir() else {
        return String::new();
    };
    match crate::store::diff::diff_against_archive(target, &archive, &name, scratch.path()) {
        Ok(changes) => changes
            .iter()
            .map(|(path, change)| format!("\n  {change}: {path}"))
            .collect(),
        Err(_) => String::new(),
    }
}

/// Renames the staged skill into `target`, moving any old tree aside first
/// and deleting it after, so the root never shows a half-installed skill.
fn swap_into_place(
    staged: crate::store::extract::Staged,
    target: &Path,
    trash: &Path,
) -> anyhow::Result<()> {
    fs_err::create_dir_all(trash)?;
    let aside = tempfile::Builder::new()
        .prefix("old-")
        .tempdir_in(trash)?
        .keep();
    let old = aside.join("tree");
    if target.exists() {
        fs_err::rename(target, &old)?;
    }
    staged
        .persist(target)
        .with_context(|| format!("could not move the new skill into {}", target.display()))?;
    let _ = fs_err::remove_dir_all(&aside);
    Ok(())
}
