//! `add`, `remove` and `install`: resolve the manifest against its
//! registries, verify and install every package into the project root, and
//! write `skills.lock`.
//!
//! Every archive is checked before extraction (sha256 against the index
//! entry, minisign signature by a key of its org whose trusted comment
//! names this package, version and checksum). Skills are extracted into a
//! staging directory and renamed into place, one at a time; the lock is
//! written last, atomically.
//!
//! A warm install copies instead of extracting: every extracted registry
//! tree is kept in the cache under its `h1:` hash
//! ([`crate::store::trees`]), and a locked package whose tree is there is
//! staged by copying it, hashing each file from the bytes written, with
//! the executable bits of its verified archive. A copy that does not hash
//! to the lock's `tree` is never installed: the cached tree is replaced
//! from the archive, with a warning. An archive that does not unpack to
//! the `tree` the lock pins for its checksum is refused. A process lock serialises concurrent runs on
//! one project. Folders the lock does not manage are never touched.

pub(crate) mod add_request;
pub(crate) mod add_site;
pub(crate) mod add_source;
mod apply;
mod change;
pub(crate) mod channels;
mod collisions;
mod direct;
mod fetch;
mod gate;
mod install_root;
mod newly;
pub(crate) mod oci_source;
mod options;
pub(crate) mod org_policy;
mod plan;
mod plugin_folder;
pub(crate) mod repo;
mod request;
pub(crate) mod targets;
mod vouched;
mod wanted;

pub(crate) use change::{Action, Change, SignerChange};
pub(crate) use collisions::Replaced;
pub(crate) use direct::source_files;
pub(crate) use options::{InstallOptions, Unlock};
pub(crate) use plan::NotInIndex;
pub(crate) use plugin_folder::AddedPlugin;
use request::{name_the_org, parse_request, suggest_repository};

use std::path::Path;

use anyhow::{Context as _, bail};

use crate::dirs::Dirs;
use crate::hint::{Hinted, shell_quote};
use crate::manifest::lock::Lockfile;
use crate::manifest::{DependencySpec, Manifest};
use crate::ops::edit::Edit;
use crate::project::Project;

/// Installs what the edited manifest asks for, keeping every pin it can,
/// into `edit.lock`, without committing the edit. Sources outside the
/// project are read only in a project trusted before the change, or when
/// their keys are in `named`: the user gave them on this command line.
pub(crate) fn install_edited(
    edit: &mut Edit,
    dirs: &Dirs,
    options: InstallOptions,
    named: &[String],
) -> anyhow::Result<Vec<Change>> {
    edit.check_outside(named)?;
    let (lock, changes) = sync(edit, dirs, options, &Unlock::Nothing, Mode::Apply)?;
    edit.lock = lock;
    Ok(changes)
}

/// Adds `added` (name and source each) to the manifest, refusing names it
/// takes from another source unless `replace` names them (with `--skill`
/// offered when `pickable`), installs, and commits the edit.
fn add_all(
    mut edit: Edit,
    dirs: &Dirs,
    added: Vec<(String, DependencySpec)>,
    replace: &[String],
    pickable: bool,
    options: InstallOptions,
) -> anyhow::Result<Vec<Change>> {
    for (key, spec) in &added {
        spec.source(key)?;
    }
    let replaced = collisions::check(&edit.project.dir, &edit.manifest, &added, replace, pickable)?;
    for (key, spec) in &added {
        edit.manifest.skills.insert(key.clone(), spec.clone());
    }
    let named: Vec<String> = added.iter().map(|(key, _)| key.clone()).collect();
    let changes = install_edited(&mut edit, dirs, options, &named)?;
    for (key, spec) in &added {
        edit.doc.set_dependency(key, spec)?;
    }
    edit.commit()?;
    Ok(mark_replaced(changes, replaced))
}

/// Adds packages to the manifest, then installs. A package given without
/// a requirement is recorded as `^<the version resolved>`. A name the
/// manifest takes from another source is refused unless `replace` names
/// it (see [`collisions`]).
pub(crate) fn add_packages(
    project: &Project,
    dirs: &Dirs,
    requests: &[String],
    registry: Option<&str>,
    replace: &[String],
    options: InstallOptions,
) -> anyhow::Result<Vec<Change>> {
    let mut edit = Edit::open(project, dirs)?;
    if let Some(name) = registry
        && !edit.manifest.registries.contains_key(name)
    {
        bail!(
            Hinted::new(format!(
                "no registry named '{name}' in {}",
                project.manifest_path.display()
            ))
            .hint(format!(
                "add it with `skillpkg registry add {} URL`",
                shell_quote(name)
            ))
        );
    }
    let parsed = requests
        .iter()
        .map(|r| parse_request(r).map_err(|e| name_the_org(e, r, project, dirs, registry)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    // The channel a package asks for: --channel, else what skills.toml
    // says already.
    let channels: std::collections::HashMap<String, Option<crate::index::channel::Channel>> =
        parsed
            .iter()
            .map(|(package, _)| {
                let name = package.to_string();
                let recorded = match edit.manifest.skills.get(&name) {
                    Some(DependencySpec::Detailed(spec)) => spec.channel,
                    _ => None,
                };
                (name, options.channel.or(recorded))
            })
            .collect();
    let wanted: Vec<(String, DependencySpec)> = parsed
        .iter()
        .map(|(package, req)| {
            let req = req
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_else(|| "*".into());
            let name = package.to_string();
            let spec = spec_for(req, registry, channels[&name]);
            (name, spec)
        })
        .collect();
    let replaced = collisions::check(&project.dir, &edit.manifest, &wanted, replace, false)?;
    for (key, spec) in wanted {
        edit.manifest.skills.insert(key, spec);
    }
    // `add internal/x`, where `internal` names a registry, not an org.
    let registry_named = parsed.iter().find(|(package, _)| {
        registry.is_none() && edit.manifest.registries.contains_key(&package.org)
    });
    let changes = match install_edited(&mut edit, dirs, options, &[]) {
        Ok(installed) => installed,
        Err(e) => match registry_named {
            Some((package, _)) => {
                return Err(e.context(
                    Hinted::new(format!("{package} could not be added")).hint(format!(
                        "'{org}' is a registry in skills.toml, not an org: `skillpkg add <org>/{name} --registry {org}` takes <org>/{name} from it",
                        org = package.org,
                        name = package.name
                    )),
                ));
            }
            None => return Err(suggest_repository(e, requests)),
        },
    };
    for (package, req) in parsed {
        let name = package.to_string();
        let req = match req {
            Some(req) => req.to_string(),
            None => {
                let locked = edit
                    .lock
                    .get(&name)
                    .expect("every requested package is resolved");
                format!("^{}", locked.version)
            }
        };
        edit.doc
            .set_dependency(&name, &spec_for(req, registry, channels[&name]))?;
    }
    edit.commit()?;
    Ok(mark_replaced(changes, replaced))
}

/// Adds a path skill under `name` (the skill's own name when `None`),
/// then installs; a folder that is a plugin adds each of its skills
/// ([`plugin_folder`]), and is returned. A name the manifest takes from
/// another source is refused unless `replace` names it.
pub(crate) fn add_direct(
    project: &Project,
    cwd: &Path,
    dirs: &Dirs,
    name: Option<&str>,
    mut spec: crate::manifest::DetailedSpec,
    replace: &[String],
    options: InstallOptions,
) -> anyhow::Result<(Option<AddedPlugin>, Vec<Change>)> {
    let edit = Edit::open(project, dirs)?;
    if let Some(path) = &spec.path {
        // Recorded relative to the project when it lies inside it.
        let absolute = cwd.join(path);
        if absolute.symlink_metadata().is_err() {
            let mut error = Hinted::new(format!("there is no folder at {path}"));
            if let Some(meant) = crate::hint::closest_path(&absolute) {
                let meant = meant.strip_prefix(cwd).unwrap_or(&meant);
                error = error.hint(format!("did you mean {}?", meant.display()));
            }
            bail!(error);
        }
        let absolute = fs_err::canonicalize(&absolute)
            .with_context(|| format!("no skill folder at {}", absolute.display()))?;
        install_root::refuse_the_install_root(project, cwd, &edit.manifest, &absolute, path)?;
        if let Some(plugin) = plugin_folder::find(&absolute, path)? {
            let folder = plugin_folder::PluginFolder {
                dir: &absolute,
                given: path,
                plugin,
            };
            let (added, specs) = folder.specs(project, name)?;
            let changes = add_all(edit, dirs, specs, replace, false, options)?;
            return Ok((Some(added), changes));
        }
        spec.path = Some(plugin_folder::recorded(project, &absolute)?);
    }
    let name = match (name, &spec.path) {
        (Some(name), _) => name.to_string(),
        (None, Some(path)) => {
            crate::skill::load::load_skill(&project.dir.join(path))
                .with_context(|| format!("could not read the skill in {path}"))?
                .meta
                .name
        }
        (None, None) => bail!("give --path, or add a git repository with add_repo"),
    };
    let spec = DependencySpec::Detailed(spec);
    spec.source(&name)?;
    let changes = add_all(edit, dirs, vec![(name, spec)], replace, false, options)?;
    Ok((None, changes))
}

/// Adds the skills of a git repository that `patterns` pick (all of them
/// when there are none; the one in `request.subdir` when given), each
/// under its own name (or `name`, for one skill), all at one commit, then
/// installs. Names the manifest takes from another source are refused,
/// all of them before anything is written, unless `replace` names them.
/// Returns what the repository holds and what changed.
pub(crate) fn add_repo(
    project: &Project,
    dirs: &Dirs,
    request: repo::RepoRequest,
    patterns: &[String],
    name: Option<&str>,
    replace: &[String],
    options: InstallOptions,
) -> anyhow::Result<(repo::RepoListing, Vec<Change>)> {
    let edit = Edit::open(project, dirs)?;
    fs_err::create_dir_all(project.staging_dir())?;
    let scratch = crate::fsutil::private_tempdir(".list-", Some(&project.staging_dir()))?;
    let listing = repo::list_repo(
        &edit.views.git,
        request,
        &dirs.cache,
        options.offline,
        scratch.path(),
    )?;
    let picked = repo::pick(&listing, patterns)?;
    if name.is_some() && picked.len() != 1 {
        bail!(
            Hinted::new(format!(
                "a name can be given to one skill, and {} holds {} of them",
                listing.url,
                picked.len()
            ))
            .hint("pick one with --skill NAME or --subdir DIR, or leave the name out")
        );
    }
    let mut added = Vec::new();
    for skill in picked {
        let key = name.map_or_else(|| skill.name.clone(), str::to_string);
        let spec = DependencySpec::Detailed(crate::manifest::DetailedSpec {
            git: Some(request.url.to_string()),
            rev: request.rev.map(str::to_string),
            subdir: skill.subdir.clone(),
            signed_by: crate::manifest::SignedBy::of(request.signed_by.to_vec()),
            trusted_root: request.trusted_root.map(str::to_string),
            ..Default::default()
        });
        spec.source(&key)?;
        added.push((key, spec));
    }
    let changes = add_all(edit, dirs, added, replace, true, options)?;
    Ok((listing, changes))
}

/// `changes`, with the names `add --replace` gave to another source
/// marked as such.
fn mark_replaced(mut changes: Vec<Change>, replaced: Vec<(String, Replaced)>) -> Vec<Change> {
    for (name, replaced) in replaced {
        if let Some(change) = changes.iter_mut().find(|c| c.name == name) {
            change.replaced = Some(replaced);
        }
    }
    changes
}

/// Adds `specs` to the manifest, each under its key (keys it holds
/// already are left as they are), installs once, and saves. `import` uses
/// it to take over what another installer put in the root. Of the sources
/// outside the project, those whose keys are in `consented` are read in an
/// untrusted project too: the user allowed them.
pub(crate) fn add_dependencies(
    project: &Project,
    dirs: &Dirs,
    specs: &[(String, DependencySpec)],
    consented: &[String],
    options: InstallOptions,
) -> anyhow::Result<Vec<Change>> {
    let mut edit = Edit::open(project, dirs)?;
    let mut added = Vec::new();
    for (key, spec) in specs {
        if edit.manifest.skills.contains_key(key) {
            continue;
        }
        spec.source(key)?;
        edit.manifest.skills.insert(key.clone(), spec.clone());
        added.push((key, spec));
    }
    let changes = install_edited(&mut edit, dirs, options, consented)?;
    for (key, spec) in added {
        edit.doc.set_dependency(key, spec)?;
    }
    edit.commit()?;
    Ok(changes)
}

fn spec_for(
    req: String,
    registry: Option<&str>,
    channel: Option<crate::index::channel::Channel>,
) -> DependencySpec {
    match (registry, channel) {
        (None, None) => DependencySpec::Version(req),
        _ => DependencySpec::Detailed(crate::manifest::DetailedSpec {
            version: Some(req),
            registry: registry.map(str::to_string),
            channel,
            ..Default::default()
        }),
    }
}

/// The manifest names `names` stand for: a repository's URL (or short
/// form, `github:owner/repo`, or `oci://HOST/REPO`) stands for every
/// skill the manifest takes from that repository; any other name for
/// itself.
fn expand_repositories(manifest: &Manifest, names: &[String]) -> anyhow::Result<Vec<String>> {
    let mut expanded = Vec::new();
    for name in names {
        let url = match crate::manifest::shorthand::expand(name) {
            Some(short) => short.map_err(anyhow::Error::msg)?.url,
            None if name.contains("://") || name.starts_with("git@") => name.clone(),
            None => {
                expanded.push(name.clone());
                continue;
            }
        };
        let from_it: Vec<String> = manifest
            .skills
            .iter()
            .filter(|(_, spec)| match (spec, url.strip_prefix("oci://")) {
                (DependencySpec::Detailed(d), Some(reference)) => {
                    d.oci.as_deref() == Some(crate::manifest::oci_ref::split_reference(reference).0)
                }
                (DependencySpec::Detailed(d), None) if d.well_known.is_some() => {
                    let site = crate::manifest::well_known_ref::parse_site;
                    d.well_known.as_deref().map(site).and_then(Result::ok) == site(&url).ok()
                }
                (DependencySpec::Detailed(d), None) => d
                    .git
                    .as_deref()
                    .is_some_and(|g| crate::ops::sources::same_repository(g, &url)),
                (DependencySpec::Version(_), _) => false,
            })
            .map(|(key, _)| key.clone())
            .collect();
        if from_it.is_empty() {
            bail!(
                Hinted::new(format!("no skill in skills.toml comes from {name}"))
                    .hint("`skillpkg list` shows the installed skills")
            );
        }
        expanded.extend(from_it);
    }
    Ok(expanded)
}

/// Removes packages from the manifest and their skills from the root. A
/// repository's URL removes every skill taken from it.
pub(crate) fn remove(
    project: &Project,
    dirs: &Dirs,
    names: &[String],
    options: InstallOptions,
) -> anyhow::Result<Vec<Change>> {
    let mut edit = Edit::open(project, dirs)?;
    let names = expand_repositories(&edit.manifest, names)?;
    for name in &names {
        if edit.manifest.skills.remove(name).is_none() {
            let mut error = Hinted::new(format!(
                "{name} is not in {}",
                project.manifest_path.display()
            ));
            let names = edit.manifest.skills.keys().map(String::as_str);
            error = match crate::hint::did_you_mean(name, names.clone()) {
                Some(meant) => error.hint(format!(
                    "did you mean `skillpkg remove {}`?",
                    shell_quote(meant)
                )),
                None if edit.manifest.skills.is_empty() => {
                    error.hint("it names no skills; `skillpkg list` shows the installed skills")
                }
                None => {
                    const SHOWN: usize = 10;
                    let count = edit.manifest.skills.len();
                    let mut shown = names.take(SHOWN).collect::<Vec<_>>().join(", ");
                    if count > SHOWN {
                        shown.push_str(&format!(" and {} more", count - SHOWN));
                    }
                    error.hint(format!("it names {shown}"))
                }
            };
            bail!(error);
        }
        edit.doc.remove_dependency(name)?;
    }
    let changes = install_edited(&mut edit, dirs, options, &[])?;
    edit.commit()?;
    Ok(changes)
}

/// Installs what the manifest asks for, keeping locked versions.
pub(crate) fn install(
    project: &Project,
    dirs: &Dirs,
    options: InstallOptions,
) -> anyhow::Result<Vec<Change>> {
    let mut edit = Edit::open(project, dirs)?;
    let changes = install_edited(&mut edit, dirs, options, &[])?;
    edit.commit()?;
    Ok(changes)
}

/// How far a command goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Install, and write the lock.
    Apply,
    /// Say what would change, from the indexes alone (`--dry-run`).
    DryRun,
    /// Fetch, verify, stage and scan what would change, and say what each
    /// update newly does; nothing is put in place or written
    /// (`outdated --diff`).
    Preview,
}

/// Moves locked versions forward: of `names`, or of every package when
/// `names` is empty; `mode` says how far.
pub(crate) fn update(
    project: &Project,
    dirs: &Dirs,
    names: &[String],
    mode: Mode,
    options: InstallOptions,
) -> anyhow::Result<Vec<Change>> {
    let mut edit = Edit::open(project, dirs)?;
    let old_lock = &edit.lock;
    let names = expand_repositories(&edit.manifest, names)?;
    let unlock = if names.is_empty() {
        Unlock::Everything
    } else {
        for name in &names {
            if old_lock.get(name).is_none() {
                let locked = old_lock.skills().iter().map(|s| s.name.as_str());
                let hint = match crate::hint::did_you_mean(name, locked) {
                    Some(meant) => {
                        format!("did you mean `skillpkg update {}`?", shell_quote(meant))
                    }
                    None => format!("`skillpkg add {}` installs it", shell_quote(name)),
                };
                bail!(
                    Hinted::new(format!("{name} is not in {}", project.lock_path.display()))
                        .hint(hint)
                );
            }
        }
        Unlock::Packages(names.iter().cloned().collect())
    };
    edit.check_outside(&[])?;
    let (lock, changes) = sync(&edit, dirs, options, &unlock, mode)?;
    if mode == Mode::Apply {
        edit.lock = lock;
        edit.commit()?;
    }
    Ok(changes)
}

/// The agents' folders `[install] targets` names for the project's
/// manifest as it is: those installs link skills into, and notes on those
/// that need no link (the agent reads the install root itself).
pub(crate) fn targets_of(project: &Project, dirs: &Dirs) -> anyhow::Result<targets::Targets> {
    let manifest = Manifest::load(&project.manifest_path)?;
    let root = project.skill_root(manifest.install_root())?;
    targets::resolve_targets(
        project,
        &root,
        &manifest.install.targets,
        dirs.home.as_deref(),
    )
}

/// Resolves and installs; returns the new lock and what changed. The
/// steps: plan what the manifest wants against the lock, check the whole
/// set, fetch and verify every archive, then apply them to the root.
fn sync(
    edit: &Edit,
    dirs: &Dirs,
    options: InstallOptions,
    unlock: &Unlock,
    mode: Mode,
) -> anyhow::Result<(Lockfile, Vec<Change>)> {
    let (project, manifest, views) = (edit.project, &edit.manifest, &edit.views);
    let old_lock = Lockfile::load(&project.lock_path)?;
    crate::ops::provenance::keys::check_signers_pinned(&old_lock, &project.lock_path)?;
    let root = project.skill_root(manifest.install_root())?;
    project.check_inside(&root, "the install root")?;
    let targets = targets::resolve_targets(
        project,
        &root,
        &manifest.install.targets,
        dirs.home.as_deref(),
    )?
    .folders;
    for target in &targets {
        project.check_inside(target, "the install target folder")?;
    }

    let default_registry = org_policy::default_registry(project, manifest, dirs, &options)?;
    let (policy, default_freshness) =
        org_policy::and_freshness(default_registry.as_ref(), &old_lock, dirs)?;
    let mut requests = plan::gather(
        project, &root, manifest, &old_lock, unlock, dirs, views, options,
    )?;
    if let Some(policy) = &policy {
        requests.check_policy(policy)?;
    }
    let registries = plan::open_registries(&requests, project, dirs, &options, default_registry)?;
    let freshness = org_policy::freshness_of(&registries, default_freshness, dirs)?;
    let planned = plan::resolve_all(
        &requests,
        &registries,
        &freshness,
        &old_lock,
        unlock,
        options.progress,
    )?;
    let expiry_warning = match &policy {
        Some(policy) => plan::check_planned(policy, &planned, &old_lock)?,
        None => None,
    };
    let yanked: Vec<_> = planned.iter().filter_map(|p| p.yanked.clone()).collect();
    let deprecated: Vec<(String, String)> = planned
        .iter()
        .filter_map(|p| {
            let warning = p
                .deprecated
                .as_ref()?
                .warning(&p.package.to_string(), &p.entry.vers);
            Some((p.package.to_string(), warning))
        })
        .collect();

    let wanted = wanted::collect(&planned, &requests.direct);
    wanted::check_one_skill_per_name(&wanted, &root)?;
    if options.locked {
        let flag = if options.frozen {
            "--frozen"
        } else {
            "--locked"
        };
        wanted::check_locked(
            &wanted,
            &requests.direct,
            &old_lock,
            &project.lock_path,
            flag,
        )?;
    }
    if mode == Mode::DryRun {
        let mut changes = change::planned(&wanted, &old_lock);
        change::note_yanked(&mut changes, yanked);
        change::note_deprecated(&mut changes, &deprecated);
        return Ok((old_lock.clone(), changes));
    }

    let mut keys = old_lock.keys.clone();
    let records = crate::store::verified::Records::new(&dirs.cache, &dirs.config);
    let mut policies = crate::ops::provenance::signer_policy::Policies::load(dirs)?.policies;
    policies.extend(crate::ops::provenance::signer_policy::project_policies(
        project, manifest,
    )?);
    let pins = crate::ops::provenance::claim::Pins::of_project(&old_lock, &project.dir, &policies);
    let ready = fetch::fetch_all(
        &planned,
        &registries,
        &mut requests.direct,
        &old_lock,
        &mut keys,
        dirs,
        &records,
        &pins,
        options,
    )?;
    let mut gate = gate::Gate::new(&dirs.cache, &records, options.scan, edit.consented());
    if let Some(policy) = &policy {
        gate.unwaivable = policy.unwaivable().to_vec();
    }
    let apply = apply::Apply {
        project,
        gate: &gate,
        root: &root,
        targets: &targets,
        install: &manifest.install,
        old_lock: &old_lock,
        cache: &dirs.cache,
        records: &records,
        pins: &pins,
        options,
        preview: mode == Mode::Preview,
        policy: policy.as_ref(),
        link_failure_said: Default::default(),
    };
    let apply::Applied {
        locked: mut skills,
        mut changes,
        asks,
        proven,
    } = apply.run(ready)?;
    if mode == Mode::Preview {
        return Ok((old_lock, changes));
    }
    let roots = pins.roots(proven.iter().flatten());
    targets::take_back_former_exposures(project, &root, &targets, &old_lock, &skills)?;
    // `--locked` promises the lock does not change: nothing is approved.
    let consent = match options.locked {
        true => crate::ops::consent::grants::install::GrantConsent::Leave,
        false => options.grants,
    };
    change::settle_grants(&mut skills, &mut changes, asks, consent);
    change::note_yanked(&mut changes, yanked);
    change::note_deprecated(&mut changes, &deprecated);
    if let (Some(warning), Some(first)) = (expiry_warning, changes.first_mut()) {
        first.warnings.insert(0, warning);
    }
    // Waivers still waiting for their package; adopted ones are in entries.
    let mut pending = old_lock.pending_waivers.clone();
    pending.retain(|name, _| !skills.iter().any(|s| s.name == *name));
    let mut lock = Lockfile::new(skills, keys, roots);
    lock.pending_waivers = pending;
    lock.policies = old_lock.policies.clone();
    if let Some(policy) = &policy {
        policy.pin(&mut lock);
    }
    Ok((lock, changes))
}
