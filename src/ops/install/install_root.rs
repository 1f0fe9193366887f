//! A path dependency on a folder inside the install root, refused: the
//! install would put the folder onto itself.

use std::path::Path;

use anyhow::bail;

use crate::hint::{Hinted, shell_quote};
use crate::manifest::Manifest;
use crate::project::Project;

/// Refuses a path dependency on `folder` (canonical; `given` as the user
/// gave it, in `cwd`) inside the project's install root, where installs
/// put skills: installing it would put the folder onto itself. `import
/// --adopt` takes such a folder over, and the error says how.
pub(super) fn refuse_the_install_root(
    project: &Project,
    cwd: &Path,
    manifest: &Manifest,
    folder: &Path,
    given: &str,
) -> anyhow::Result<()> {
    let install_root = project.skill_root(manifest.install_root())?;
    let shown_root = project.shown(&install_root);
    // The command is run where the user is.
    let from_cwd = match install_root.strip_prefix(cwd) {
        Ok(relative) if relative.as_os_str().is_empty() => Path::new("."),
        Ok(relative) => relative,
        Err(_) => &install_root,
    };
    let Ok(root) = fs_err::canonicalize(&install_root) else {
        return Ok(());
    };
    let Ok(inside) = folder.strip_prefix(&root) else {
        return Ok(());
    };
    let name = match crate::skill::load::load_skill(folder) {
        Ok(skill) => skill.meta.name,
        Err(_) => inside.components().next().map_or_else(String::new, |c| {
            c.as_os_str().to_string_lossy().into_owned()
        }),
    };
    let global = if project.is_global() { " --global" } else { "" };
    bail!(
        Hinted::new(format!(
            "{given} is in the install root {}, where skillpkg installs skills: a path dependency on it would install the folder onto itself",
            shown_root.display()
        ))
        .hint(format!(
            "to take it over as it is, run `skillpkg import{global} --from {} --adopt {}`: it moves to skills/{name}, installs from there and links back",
            crate::hint::shell_path(from_cwd),
            shell_quote(&name)
        ))
    )
}
