//! Loading the resolved skill set for a command run in a directory.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::dirs::Dirs;
use crate::manifest::Manifest;
use crate::project::{Discovery, Project};
use crate::roots::{Root, SkillSet, discover_roots};

/// The roots and every skill in them, for a command run in `cwd`.
pub struct LoadedSkills {
    /// The roots, highest precedence first.
    pub roots: Vec<Root>,
    /// Their skills.
    pub set: SkillSet,
    /// What discovery passed over (manifests another user owns).
    pub warnings: Vec<String>,
}

/// The project root's directory for a command run in `cwd`, given where
/// discovery found the project: `[install] root` of its skills.toml, else
/// `.agents/skills`. `None` outside any project.
fn project_root(discovery: &Discovery) -> anyhow::Result<Option<PathBuf>> {
    let Some(dir) = discovery.project_dir() else {
        return Ok(None);
    };
    let project = Project::at(dir);
    let manifest = match &discovery.manifest_dir {
        Some(_) => Some(Manifest::load(&project.manifest_path)?),
        None => None,
    };
    Ok(Some(project.skill_root(
        manifest.as_ref().and_then(Manifest::install_root),
    )?))
}

/// The project directory for a command run in `cwd` (`cwd` itself outside
/// any project) and its manifest: empty when the project has none of this
/// user's.
pub fn project_manifest(cwd: &Path) -> anyhow::Result<(PathBuf, Manifest)> {
    let discovery = Discovery::from(cwd);
    let dir = discovery.project_dir().unwrap_or(cwd).to_path_buf();
    let manifest = match &discovery.manifest_dir {
        Some(found) => Manifest::load(&Project::at(found).manifest_path)?,
        None => Manifest::default(),
    };
    Ok((dir, manifest))
}

/// The project directory and manifest for a command that runs code (exec,
/// eval): the `[agent]` settings count only when the user trusts the
/// project on this machine; otherwise they are left out, and the warning
/// says which and how to trust it.
pub fn trusted_project_manifest(
    cwd: &Path,
    dirs: &Dirs,
) -> anyhow::Result<(PathBuf, Manifest, Option<String>)> {
    let (dir, mut manifest) = project_manifest(cwd)?;
    if crate::ops::project_trust::is_trusted(dirs, &dir, &manifest)? {
        return Ok((dir, manifest, None));
    }
    let ignored = crate::ops::project_trust::ignored_settings(&manifest.agent);
    let warning = format!(
        "ignoring [agent] {} in {}: this project is not trusted on this machine; run `skillpkg trust --project` to use them",
        ignored.join(", "),
        dir.join(crate::project::MANIFEST_FILE).display()
    );
    manifest.agent = Default::default();
    Ok((dir, manifest, Some(warning)))
}

/// Discovers the roots for `cwd` and loads their skills.
pub fn load_skills(cwd: &Path, dirs: &Dirs) -> anyhow::Result<LoadedSkills> {
    let discovery = Discovery::from(cwd);
    let roots = discover_roots(project_root(&discovery)?, dirs).with_context(|| {
        format!(
            "could not set up the builtin skills under {}",
            dirs.cache.display()
        )
    })?;
    let set = SkillSet::load(&roots);
    Ok(LoadedSkills {
        roots,
        set,
        warnings: discovery.warnings(),
    })
}
