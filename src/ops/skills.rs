//! Loading the resolved skill set for a command run in a directory.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::dirs::Dirs;
use crate::manifest::Manifest;
use crate::project::{Project, find_project};
use crate::roots::{Root, SkillSet, discover_roots};

/// The roots and every skill in them, for a command run in `cwd`.
pub struct LoadedSkills {
    /// The roots, highest precedence first.
    pub roots: Vec<Root>,
    /// Their skills.
    pub set: SkillSet,
}

/// The project root's directory for a command run in `cwd`: `[install]
/// root` of the project's skills.toml, else `.agents/skills`, under the
/// project (see [`find_project`]). `None` outside any project.
pub fn project_root(cwd: &Path) -> anyhow::Result<Option<PathBuf>> {
    let Some(project) = find_project(cwd) else {
        return Ok(None);
    };
    let project = Project::at(&project);
    let manifest = match project.manifest_path.is_file() {
        true => Some(Manifest::load(&project.manifest_path)?),
        false => None,
    };
    Ok(Some(project.skill_root(
        manifest.as_ref().and_then(Manifest::install_root),
    )?))
}

/// Discovers the roots for `cwd` and loads their skills.
pub fn load_skills(cwd: &Path, dirs: &Dirs) -> anyhow::Result<LoadedSkills> {
    let roots = discover_roots(project_root(cwd)?, dirs).with_context(|| {
        format!(
            "could not set up the builtin skills under {}",
            dirs.cache.display()
        )
    })?;
    let set = SkillSet::load(&roots);
    Ok(LoadedSkills { roots, set })
}
