//! Path, git and OCI dependencies: skills taken straight from a folder, a
//! git repository or a registry's artifact rather than from an index.
//!
//! Every way the skill is validated exactly as `publish` would check it,
//! and the files an archive of it would hold are staged with the names,
//! modes, checks and limits of extracting one (same exclusions, same
//! refusals), without packing and inflating it. A path skill is pinned by the
//! `tree` hash of what was installed; a git skill by its commit, which
//! `skills.lock` records in its source (`git+<url>?rev=…#<commit>`); an
//! OCI skill by its manifest's digest, recorded the same way
//! (`oci+<host>/<repo>?tag=…#sha256:…`), and its tree.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use semver::VersionReq;

use super::options::InstallOptions;
use super::signed_commit::SignedCommit;
use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::index::parse_dependencies;
use crate::manifest::DirectSource;
use crate::manifest::lock::LockedSkill;
use crate::manifest::oci_ref::OciPin;
use crate::manifest::source_id::{GitOrigin, OciOrigin, SourceId};
use crate::manifest::{DependencySpec, Manifest};
use crate::ops::pack::{CheckedSkill, Validity};
use crate::project::Project;
use crate::store::extract::Staged;
use crate::store::limits::Limits;

/// A path or git skill, staged and ready to put in place.
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
    /// The lock's source: `path+<dir>` or `git+<url>[?query]#<commit>`.
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

/// Where and how direct skills are fetched and checked.
pub(crate) struct Fetching<'a> {
    /// The project, which path skills are relative to.
    pub project_dir: &'a Path,
    /// The cache, for git repositories.
    pub cache: &'a Path,
    /// Fetch nothing over the network.
    pub offline: bool,
    /// Where checkouts and archives are made.
    pub staging: &'a Path,
    /// How strictly skills are checked.
    pub validity: Validity,
    /// The root skills are installed into.
    pub root: &'a Path,
    /// The commits this run resolved.
    pub git: &'a crate::git::Resolver,
    /// The sites' indexes this run read.
    pub sites: &'a crate::index::well_known::Sites,
    /// How OCI registries are read.
    pub registries: crate::oci::Settings<'a>,
    /// What a skill may hold.
    pub limits: Limits,
    /// A git skill's commit may be signed by another of its `signed-by`
    /// signers than the locked one (`--allow-signer-change`).
    pub allow_signer_change: bool,
}

impl Fetching<'_> {
    /// How sites are read.
    fn reading(&self) -> super::well_known::Reading<'_> {
        super::well_known::Reading {
            sites: self.sites,
            cache: self.cache,
            offline: self.offline,
            limits: self.limits,
        }
    }
}

/// A locked git skill that is in the root exactly as the lock pins it
/// (its files hash to the lock's tree): nothing to fetch or pack, and its
/// commit stays. `None` when anything differs.
fn already_in_place(
    name: &str,
    origin: &DirectSource,
    locked: Option<&LockedSkill>,
    root: &Path,
) -> anyhow::Result<Option<DirectSkill>> {
    let Some(locked) = locked else {
        return Ok(None);
    };
    let same_origin = match origin {
        DirectSource::Path(_) => false,
        DirectSource::Git {
            url,
            rev,
            subdir,
            signed_by,
            ..
        } => {
            let (shown, _) = crate::net::split_credentials(url)?;
            let wanted = GitOrigin::new(&shown, rev.as_deref(), subdir.as_deref());
            // Only whether the locked signer is still named: no signature is
            // checked, so no trusted root is read.
            let signed = SignedCommit::new(name, &shown, signed_by, None, Some(locked), false)?;
            matches!(&locked.source, SourceId::Git { origin, .. } if *origin == wanted)
                && signed.keeps(locked)
        }
        DirectSource::Oci {
            repository,
            pin,
            skill,
        } => locked_oci_digest(&locked.source, &oci_origin(repository, pin, skill), pin).is_some(),
        DirectSource::WellKnown { site, skill } => {
            super::well_known::pinned(locked, site, skill).is_some()
        }
    };
    if !same_origin {
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

/// The lock's origin of an OCI dependency on `repository` at `pin`,
/// taking `skill` from a collection.
fn oci_origin(repository: &str, pin: &OciPin, skill: &Option<String>) -> OciOrigin {
    OciOrigin {
        repository: repository.to_string(),
        tag: pin.tag().map(str::to_string),
        skill: skill.clone(),
    }
}

/// The digest the lock's `source` pins for the OCI dependency `wanted`
/// at `pin`: the locked digest of the same origin, or the digest asked
/// for when the lock has that one.
fn locked_oci_digest<'l>(
    source: &'l SourceId,
    wanted: &OciOrigin,
    pin: &OciPin,
) -> Option<&'l str> {
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
        project_dir,
        staging,
        validity,
        root,
        registries,
        limits,
        ..
    } = *fetching;
    if let Some(in_place) = already_in_place(name, origin, locked, root)? {
        return Ok(in_place);
    }
    fs_err::create_dir_all(staging)?;
    let wanted = name.rsplit('/').next().unwrap_or(name);
    let checkout = crate::fsutil::private_tempdir(".source-", Some(staging))?;
    let mut artifact_version = None;
    let mut commit_signer = None;
    let (dir, source, shown_origin) = match origin {
        DirectSource::Path(path) => (
            project_dir.join(path),
            SourceId::Path { path: path.clone() },
            None,
        ),
        DirectSource::Git {
            url,
            rev,
            subdir,
            signed_by,
            trusted_root,
        } => {
            let git_source = GitRequest {
                url,
                rev: rev.as_deref(),
                subdir: subdir.as_deref(),
                signed_by,
                trusted_root: trusted_root.as_deref(),
            };
            let exported =
                export_git(name, &git_source, locked, before, fetching, checkout.path())?;
            commit_signer = exported.signer;
            (
                named_after_its_skill(exported.dir, checkout.path())?,
                exported.source,
                Some(exported.shown),
            )
        }
        DirectSource::Oci {
            repository,
            pin,
            skill,
        } => {
            let origin = oci_origin(repository, pin, skill);
            let locked_digest = locked.and_then(|l| locked_oci_digest(&l.source, &origin, pin));
            let pin = match locked_digest {
                Some(digest) => OciPin::Digest(digest.to_string()),
                None => pin.clone(),
            };
            let exported = super::oci::export(
                repository,
                &pin,
                skill.as_deref(),
                checkout.path(),
                &registries,
            )
            .with_context(|| format!("'{name}': could not get oci://{repository}"))?;
            artifact_version = exported.version;
            (
                named_after_its_skill(exported.dir, checkout.path())?,
                SourceId::Oci {
                    origin,
                    digest: exported.digest.clone(),
                },
                Some(format!("{repository}@{}", exported.digest)),
            )
        }
        DirectSource::WellKnown { site, skill } => {
            let (dir, source, shown) = super::well_known::export_locked(
                name,
                site,
                skill,
                locked,
                checkout.path(),
                &fetching.reading(),
            )?;
            (
                named_after_its_skill(dir, checkout.path())?,
                source,
                Some(shown),
            )
        }
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

/// A git dependency, as `skills.toml` gives it.
struct GitRequest<'a> {
    url: &'a str,
    rev: Option<&'a str>,
    subdir: Option<&'a str>,
    signed_by: &'a [String],
    /// The `trusted-root` file, relative to the project.
    trusted_root: Option<&'a str>,
}

/// The text of `file`, a `trusted-root` of the skill `name`: a file inside
/// the project `project_dir` (the project's own trust material, which a
/// teammate's clone has too).
fn project_file(project_dir: &Path, file: &str, name: &str) -> anyhow::Result<String> {
    let path = project_dir.join(file);
    if std::fs::symlink_metadata(&path).is_err() {
        bail!(
            Hinted::new(format!(
                "'{name}': trusted-root {file} is not in the project {}",
                project_dir.display()
            ))
            .hint("commit the trusted_root.json skills.toml names beside it, or take `trusted-root` out for Sigstore's public-good root")
        );
    }
    let inside = fs_err::canonicalize(project_dir)
        .ok()
        .zip(std::fs::canonicalize(&path).ok())
        .is_some_and(|(project, path)| path.starts_with(project));
    if !inside {
        bail!(
            Hinted::new(format!(
                "'{name}': trusted-root {file} is not a file inside the project {}",
                project_dir.display()
            ))
            .hint("put the trusted_root.json in the project (teammates need it too) and name it relative to skills.toml")
        );
    }
    fs_err::read_to_string(&path)
        .with_context(|| format!("'{name}': could not read trusted-root {file}"))
}

/// A git skill's tree, exported.
struct ExportedGit {
    /// Where its files are.
    dir: PathBuf,
    /// The lock's source: the repository and the commit.
    source: SourceId,
    /// How messages name where it came from.
    shown: String,
    /// Who signed the commit, when `signed-by` asks.
    signer: Option<crate::manifest::lock::CommitSigner>,
}

/// Fetches the commit of `request` (the locked one when `locked` pins
/// it), checks its signature when `signed-by` asks, and exports the
/// skill's folder into `scratch`.
fn export_git(
    name: &str,
    request: &GitRequest,
    locked: Option<&LockedSkill>,
    before: Option<&LockedSkill>,
    fetching: &Fetching,
    scratch: &Path,
) -> anyhow::Result<ExportedGit> {
    let GitRequest {
        url,
        rev,
        subdir,
        signed_by,
        trusted_root,
    } = *request;
    // The lock and messages name the repository without credentials.
    let (shown, _) = crate::net::split_credentials(url)?;
    let origin = GitOrigin::new(&shown, rev, subdir);
    let trusted_root = match trusted_root {
        Some(file) => Some(project_file(fetching.project_dir, file, name)?),
        None => None,
    };
    let signed = SignedCommit::new(
        name,
        &shown,
        signed_by,
        trusted_root,
        before,
        fetching.allow_signer_change,
    )?;
    let pinned = locked.and_then(|l| match &l.source {
        SourceId::Git {
            origin: locked_origin,
            commit,
        } if *locked_origin == origin => Some(commit.as_str()),
        _ => None,
    });
    let (repo, commit) = crate::git::fetch_commit(
        fetching.git,
        url,
        rev,
        pinned,
        fetching.cache,
        fetching.offline,
    )
    .with_context(|| format!("'{name}': could not get {shown}"))?;
    let signer = signed.check(&repo, commit)?;
    let dir = scratch.join("skill");
    let limits = fetching.limits;
    let budget = crate::git::tree::Budget::skill(limits.max_entries, limits.max_total_bytes);
    crate::git::export_tree(&repo, commit, subdir, &dir, budget)
        .with_context(|| format!("'{name}': could not read {shown} at {commit}"))?;
    let shown = match subdir {
        Some(subdir) => format!("folder '{subdir}' of {shown} at {commit}"),
        None => format!("{shown} at {commit}"),
    };
    Ok(ExportedGit {
        dir,
        source: SourceId::Git {
            origin,
            commit: commit.to_string(),
        },
        shown,
        signer,
    })
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
    let place = match origin {
        DirectSource::Path(_) => dir.display().to_string(),
        DirectSource::Git { url, subdir, .. } => {
            let shown = crate::net::split_credentials(url)?.0;
            match subdir {
                Some(subdir) => format!("folder '{subdir}' of {shown}"),
                None => format!("the top folder of {shown}"),
            }
        }
        DirectSource::Oci { .. } | DirectSource::WellKnown { .. } => {
            shown_origin.unwrap_or_default().to_string()
        }
    };
    let key = match origin {
        DirectSource::Path(_) => "path",
        DirectSource::Git { .. } => "subdir",
        DirectSource::Oci { .. } => "oci",
        DirectSource::WellKnown { .. } => "well-known",
    };
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
