//! Loading the resolved skill set for a command run in a directory.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::dirs::Dirs;
use crate::manifest::Manifest;
use crate::manifest::lock::Lockfile;
use crate::ops::consent::project::{self, TrustedSettings};
use crate::project::{Discovery, Project};
use crate::roots::{Root, SkillSet, discover_roots};
use crate::skill::cache::FrontmatterCache;

/// The roots and every skill in them, for a command run in `cwd`.
pub(crate) struct LoadedSkills {
    /// The roots, highest precedence first.
    pub roots: Vec<Root>,
    /// Their skills.
    pub set: SkillSet,
    /// What discovery passed over (manifests another user owns).
    pub warnings: Vec<String>,
    /// The folder of the project's `skills.toml`, when there is one.
    pub manifest_dir: Option<PathBuf>,
}

/// The project root's directory for a command run in `cwd`, given where
/// discovery found the project: `[install] root` of its skills.toml, else
/// `.agents/skills`; with the project's directory. `None` outside any
/// project.
fn project_root(discovery: &Discovery) -> anyhow::Result<Option<(PathBuf, &Path)>> {
    let Some(dir) = discovery.project_dir() else {
        return Ok(None);
    };
    let project = Project::at(dir);
    let manifest = match &discovery.manifest_dir {
        Some(_) => Some(Manifest::load(&project.manifest_path)?),
        None => None,
    };
    Ok(Some((
        project.skill_root(manifest.as_ref().and_then(Manifest::install_root))?,
        dir,
    )))
}

/// The project directory for a command run in `cwd` (`cwd` itself outside
/// any project) and its manifest: empty when the project has none of this
/// user's.
pub(crate) fn project_manifest(cwd: &Path) -> anyhow::Result<(PathBuf, Manifest)> {
    let discovery = Discovery::from(cwd);
    let dir = discovery.project_dir().unwrap_or(cwd).to_path_buf();
    let manifest = match &discovery.manifest_dir {
        Some(found) => Manifest::load(&Project::at(found).manifest_path)?,
        None => Manifest::default(),
    };
    Ok((dir, manifest))
}

/// A project's settings for a command that runs code (exec, eval).
#[derive(Debug, Clone)]
pub(crate) struct ProjectSettings {
    /// The project directory (`cwd` itself outside any project).
    pub dir: PathBuf,
    /// Its manifest; the `[agent]` table is empty unless the project is
    /// trusted.
    pub manifest: Manifest,
    /// Its lock; the `grants` are empty unless the project is trusted.
    pub lock: Lockfile,
    /// Whether the user trusts the project on this machine (or it has
    /// nothing that needs trust).
    pub trusted: bool,
    /// What was ignored, and how to trust the project, when it is not.
    pub warning: Option<String>,
}

/// The settings of the project around `cwd`: its `[agent]` table and the
/// grants of its lock count only when the user trusts the project on this
/// machine; otherwise they are left out, and the warning says which and
/// how to trust it.
pub(crate) fn project_settings(cwd: &Path, dirs: &Dirs) -> anyhow::Result<ProjectSettings> {
    let (dir, mut manifest) = project_manifest(cwd)?;
    let mut lock = match Discovery::from(cwd).manifest_dir {
        Some(found) => Lockfile::load(&Project::at(&found).lock_path)?,
        None => Lockfile::default(),
    };
    let settings = TrustedSettings::of(&dir, &manifest, &lock);
    let trusted = project::is_trusted(dirs, &dir, &settings)?;
    // Untrusted only for sources outside the project, which installs
    // refuse: there is nothing here to ignore.
    if trusted || settings.runs_nothing() {
        return Ok(ProjectSettings {
            dir,
            manifest,
            lock,
            trusted,
            warning: None,
        });
    }
    let warning = format!(
        "ignoring {}: this project is not trusted on this machine; run `skillpkg trust --project` to use them",
        settings.describe_ignored(&dir)
    );
    manifest.agent = Default::default();
    for skill in lock.skills_mut() {
        skill.grants.clear();
    }
    Ok(ProjectSettings {
        dir,
        manifest,
        lock,
        trusted: false,
        warning: Some(warning),
    })
}

/// The skills `[install] disabled` turns off: the project's (its
/// manifest in `manifest_dir`) and the user's global manifest's. Turning a
/// skill off only removes it, so a project needs no trust for it; a
/// manifest that cannot be read disables nothing here (the commands that
/// install say why).
fn disabled_in(manifest_dir: Option<&Path>, dirs: &Dirs) -> crate::manifest::InstallSection {
    let mut all = crate::manifest::InstallSection::default();
    // Read where the global project keeps it, without making one.
    let global = Project::global_lock_path(dirs)
        .parent()
        .map(|dir| dir.join(crate::project::MANIFEST_FILE));
    let project = manifest_dir.map(|dir| Project::at(dir).manifest_path);
    for path in project.into_iter().chain(global) {
        if path.exists()
            && let Ok(manifest) = Manifest::load(&path)
        {
            all.disabled.extend(manifest.install.disabled);
        }
    }
    all
}

/// Discovers the roots for `cwd` and loads their skills.
pub(crate) fn load_skills(cwd: &Path, dirs: &Dirs) -> anyhow::Result<LoadedSkills> {
    let discovery = Discovery::from(cwd);
    let roots = discover_roots(project_root(&discovery)?, dirs).with_context(|| {
        format!(
            "could not set up the builtin skills under {}",
            dirs.cache.display()
        )
    })?;
    // Frontmatter parsed before, from skillpkg's own cache directory,
    // read while the roots' folders are listed.
    let (cache, listings) = std::thread::scope(|scope| {
        let cache = scope.spawn(|| FrontmatterCache::open(&dirs.cache));
        let listings = SkillSet::list(&roots);
        (
            cache
                .join()
                .expect("opening the frontmatter cache panicked"),
            listings,
        )
    });
    let mut set = SkillSet::load_listed(&roots, listings, Some(&cache));
    let disabled = disabled_in(discovery.manifest_dir.as_deref(), dirs);
    if !disabled.disabled.is_empty() {
        set.disable(|name| disabled.is_disabled(name));
    }
    // A cache that cannot be written only makes the next run slower.
    let _ = cache.save();
    Ok(LoadedSkills {
        roots,
        set,
        warnings: discovery.warnings(),
        manifest_dir: discovery.manifest_dir.clone(),
    })
}
