//! Loading the resolved skill set for a command run in a directory.

use std::path::Path;

use anyhow::Context as _;

use crate::dirs::Dirs;
use crate::roots::{Root, SkillSet, discover_roots};

/// The roots and every skill in them, for a command run in `cwd`.
pub struct LoadedSkills {
    /// The roots, highest precedence first.
    pub roots: Vec<Root>,
    /// Their skills.
    pub set: SkillSet,
}

/// Discovers the roots for `cwd` and loads their skills.
pub fn load_skills(cwd: &Path, dirs: &Dirs) -> anyhow::Result<LoadedSkills> {
    let roots = discover_roots(cwd, dirs).with_context(|| {
        format!(
            "could not set up the builtin skills under {}",
            dirs.cache.display()
        )
    })?;
    let set = SkillSet::load(&roots);
    Ok(LoadedSkills { roots, set })
}
