//! Dependencies that name their pin themselves (a folder, a git
//! repository, an OCI artifact, a site's skill) rather than an index's
//! version: each is resolved and fetched by its kind
//! ([`crate::ops::sources`]), then checked and staged here, the same way
//! whatever the kind.
//!
//! Every way the skill is validated exactly as `publish` would check it,
//! and the files an archive of it would hold are staged with the names,
//! modes, checks and limits of extracting one (same exclusions, same
//! refusals), without packing and inflating it. Its kind's pin (a commit,
//! a digest) goes into the lock's source, and its `tree` beside it.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use semver::VersionReq;

use super::options::InstallOptions;
use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::index::parse_dependencies;
use crate::manifest::DirectSource;
use crate::manifest::lock::LockedSkill;
use crate::manifest::source_id::SourceId;
use crate::manifest::{DependencySpec, Manifest};
use crate::ops::pack::CheckedSkill;
use crate::ops::sources::{Fetched, Fetching, Job};
use crate::project::Project;
use crate::store::extract::Staged;

/// A skill of a direct kind, staged and ready to put in place.
#[derive(Debug)]
pub(crate) struct DirectSkill {
    /// Its key in `skills.toml`.
    pub name: String,
    /// The skill's own name: its folder in the root.
    pub skill: String,
    /// The `h1:` hash of its files, as installed.
    pub tree: String,
    /// `metadata.version`, else `0.0.0`.
    pub version: String,
    /// The lock's source: its kind, where, and the pin.
    pub source: SourceId,
    /// Its files, staged; `None` when the skill in the root is already
    /// exactly what the lock pins.
    pub staged: Option<Staged>,
    /// `metadata.dependencies`, for resolution against the default registry.
    pub dependencies: Vec<(String, VersionReq)>,
    /// The reference rules it breaks, installed anyway (as agents load it).
    pub broken_rules: Vec<String>,
    /// Who signed its commit, for a git skill whose entry says `signed-by`.
    pub commit_signer: Option<crate::manifest::lock::CommitSigner>,
}

/// A locked skill that is in the root exactly as the lock pins it (its
/// kind says the lock's pin still answers the request, and its files hash
/// to the lock's tree): nothing to fetch or pack, and its pin stays.
/// `None` when anything differs.
fn already_in_place(
    name: &str,
    request: &DirectSource,
    locked: Option<&LockedSkill>,
    root: &Path,
) -> anyhow::Result<Option<DirectSkill>> {
    let Some(locked) = locked else {
        return Ok(None);
    };
    if !crate::ops::sources::of_request(request).keeps(name, request, locked)? {
        return Ok(None);
    }
    let target = root.join(locked.folder());
    if !target.is_dir() || crate::store::hash::tree_hash(&target)? != locked.tree {
        return Ok(None);
    }
    let skill = crate::skill::load_skill(&target)?;
    Ok(Some(DirectSkill {
        name: name.to_string(),
        skill: locked.folder().to_string(),
        tree: locked.tree.clone(),
        version: locked.version.clone(),
        source: locked.source.clone(),
        staged: None,
        dependencies: dependencies_of(name, &skill)?,
        broken_rules: Vec::new(),
        commit_signer: locked.commit_signer.clone(),
    }))
}

/// `metadata.dependencies` of `skill`, parsed.
fn dependencies_of(
    name: &str,
    skill: &crate::skill::Skill,
) -> anyhow::Result<Vec<(String, VersionReq)>> {
    match skill.meta.metadata.get("dependencies") {
        Some(text) => parse_dependencies(text)
            .with_context(|| format!("'{name}': invalid metadata.dependencies"))?
            .into_iter()
            .map(|d| {
                let req = VersionReq::parse(&d.req)
                    .with_context(|| format!("'{name}': invalid requirement on {}", d.name))?;
                Ok((d.name, req))
            })
            .collect(),
        None => Ok(Vec::new()),
    }
}

/// Fetches (for git), validates and stages the skill `name` from `origin`.
/// `locked` is its lock entry when resolution may keep it; `before` its
/// lock entry whatever may move (for a signer change).
pub(crate) fn prepare(
    name: &str,
    origin: &DirectSource,
    locked: Option<&LockedSkill>,
    before: Option<&LockedSkill>,
    fetching: &Fetching,
) -> anyhow::Result<DirectSkill> {
    let Fetching {
        staging,
        validity,
        root,
        limits,
        ..
    } = *fetching;
    if let Some(in_place) = already_in_place(name, origin, locked, root)? {
        return Ok(in_place);
    }
    fs_err::create_dir_all(staging)?;
    let wanted = name.rsplit('/').next().unwrap_or(name);
    let checkout = crate::fsutil::private_tempdir(".source-", Some(staging))?;
    let kind = crate::ops::sources::of_request(origin);
    let job = Job {
        name,
        request: origin,
        locked,
        before,
        fetching,
    };
    let Fetched {
        dir,
        source,
        shown: shown_origin,
        version: artifact_version,
        commit_signer,
    } = kind.fetch(&job, checkout.path())?;
    // A tree fetched into the checkout is judged in a folder named as it
    // will be installed; a path skill is judged where it is.
    let dir = match dir.starts_with(checkout.path()) {
        true => named_after_its_skill(dir, checkout.path())?,
        false => dir,
    };
    if !dir.join("SKILL.md").is_file() && !dir.join("skill.md").is_file() {
        bail!(no_skill_md(name, origin, &dir, shown_origin.as_deref())?);
    }
    let CheckedSkill {
        skill,
        files,
        broken_rules,
    } = crate::ops::pack::check_skill(&dir, validity, shown_origin.as_deref(), &limits)
        .with_context(|| format!("'{name}' cannot be installed"))?;
    if skill.meta.name != wanted {
        bail!(
            Hinted::new(format!(
                "'{name}' names the skill '{}', but skills.toml calls it '{name}'",
                skill.meta.name
            ))
            .hint(format!(
                "use \"{}\" (or \"<org>/{}\") as its key in skills.toml",
                skill.meta.name, skill.meta.name
            ))
        );
    }
    let dependencies = dependencies_of(name, &skill)?;
    let staged = crate::store::stage::stage_files(&dir, &skill.meta.name, &files, staging, &limits)
        .with_context(|| format!("'{name}' cannot be installed"))?;
    Ok(DirectSkill {
        name: name.to_string(),
        skill: skill.meta.name,
        tree: staged.tree_hash(),
        version: skill
            .meta
            .metadata
            .get("version")
            .cloned()
            .or(artifact_version)
            .unwrap_or_else(|| crate::manifest::lock::UNVERSIONED.to_string()),
        source,
        staged: Some(staged),
        dependencies,
        broken_rules,
        commit_signer,
    })
}

/// The files the path or git skill `name` of `spec` installs, each with
/// its sha256, by path relative to the skill: read from its source as it
/// is now (a git source at the commit its `rev` names now), checked and
/// staged as an install would. Their `h1:` tree is
/// [`crate::store::hash::tree_hash_of`] of them.
pub(crate) fn source_files(
    project: &Project,
    dirs: &Dirs,
    name: &str,
    spec: &DependencySpec,
    options: InstallOptions,
) -> anyhow::Result<std::collections::BTreeMap<String, String>> {
    let crate::manifest::Source::Direct(origin) = spec.source(name)? else {
        bail!("'{name}' is no path, git or OCI dependency");
    };
    let manifest = Manifest::load(&project.manifest_path)?;
    let root = project.skill_root(manifest.install_root())?;
    let views = crate::ops::edit::Views::default();
    let fetching = Fetching {
        project_dir: &project.dir,
        cache: &dirs.cache,
        offline: options.offline,
        staging: &project.staging_dir(),
        validity: options.validity(),
        root: &root,
        git: &views.git,
        sites: &views.sites,
        registries: options.registries(dirs),
        limits: options.limits,
        allow_signer_change: options.allow_signer_change,
    };
    // Without a lock entry, nothing is kept in place: it is always staged.
    match prepare(name, &origin, None, None, &fetching)?.staged {
        Some(staged) => Ok(staged.digests().clone()),
        None => bail!("'{name}': its source was not read"),
    }
}

/// The error for the skill `name` from `origin`, exported into `dir`
/// (`shown_origin`: how messages name where it came from), that holds no
/// `SKILL.md`: where, and which key of skills.toml to point elsewhere.
fn no_skill_md(
    name: &str,
    origin: &DirectSource,
    dir: &Path,
    shown_origin: Option<&str>,
) -> anyhow::Result<Hinted> {
    let kind = crate::ops::sources::of_request(origin);
    let place = kind.place_of_tree(origin, dir, shown_origin)?;
    let key = kind.folder_key();
    Ok(Hinted::new(format!("'{name}': {place} holds no SKILL.md"))
        .hint(format!("point `{key}` at the skill's own folder")))
}

/// Moves an exported skill into a folder of `parent` named after the
/// skill, as it will be installed (and as agents will load it), so that
/// checks judge it in that folder. A skill that cannot be read, or whose
/// name is no folder name, stays where it is, for the checks to refuse.
fn named_after_its_skill(exported: PathBuf, parent: &Path) -> anyhow::Result<PathBuf> {
    let Ok(skill) = crate::skill::load_skill(&exported) else {
        return Ok(exported);
    };
    if !crate::skill::name::is_safe_folder_name(&skill.meta.name) || skill.meta.name == "skill" {
        return Ok(exported);
    }
    let named = parent.join(&skill.meta.name);
    fs_err::rename(&exported, &named)?;
    Ok(named)
}
