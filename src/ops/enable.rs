//! `skillpkg disable` / `enable`: turn a skill off without uninstalling it.
//! The names go in `skills.toml`'s `[install] disabled`; the skill stays
//! installed and locked, and is left out of `exec`, `serve`, prompts and
//! the agents' folders skillpkg manages. Turning a skill off only takes
//! something away, so it needs no project trust.

use anyhow::bail;

use crate::dirs::Dirs;
use crate::hint::{Hinted, shell_quote};
use crate::ops::edit::Edit;
use crate::ops::install::{Change, InstallOptions};
use crate::project::Project;

/// What `disable` or `enable` changed.
pub(crate) struct Toggled {
    /// The names whose state changed, as recorded.
    pub changed: Vec<String>,
    /// The names that were already so.
    pub unchanged: Vec<String>,
    /// What putting the agents' folders right did.
    pub changes: Vec<Change>,
}

/// Disables (`enabled` false) or enables the skills `names` of `project`,
/// then brings the agents' folders in line (a no-op install otherwise).
pub(crate) fn set_enabled(
    project: &Project,
    dirs: &Dirs,
    names: &[String],
    enabled: bool,
    options: InstallOptions,
) -> anyhow::Result<Toggled> {
    let mut edit = Edit::open(project, dirs)?;
    let root = project.skill_root(edit.manifest.install_root())?;
    let mut disabled = edit.manifest.install.disabled.clone();
    let mut toggled = Toggled {
        changed: Vec::new(),
        unchanged: Vec::new(),
        changes: Vec::new(),
    };
    for name in names {
        let short = crate::manifest::skill_name(name);
        let known = edit.lock.get(name).is_some()
            || edit.lock.by_folder(short).is_some()
            || root.join(short).join("SKILL.md").is_file();
        let was_disabled = edit.manifest.install.is_disabled(name);
        let lingering = enabled && was_disabled;
        if !known && !lingering {
            let installed = edit.lock.skills().iter().map(|s| s.name.as_str());
            let hint = match crate::hint::did_you_mean(name, installed) {
                Some(meant) => format!("did you mean {}?", shell_quote(meant)),
                None => "`skillpkg list` shows the skills here".to_string(),
            };
            bail!(
                Hinted::new(format!(
                    "no skill named {name} is installed in {}",
                    root.display()
                ))
                .hint(hint)
            );
        }
        match (enabled, was_disabled) {
            (false, false) => disabled.push(name.clone()),
            (true, true) => disabled.retain(|d| crate::manifest::skill_name(d) != short),
            _ => {
                toggled.unchanged.push(name.clone());
                continue;
            }
        }
        toggled.changed.push(name.clone());
    }
    if toggled.changed.is_empty() {
        return Ok(toggled);
    }
    edit.doc.set_disabled(&disabled)?;
    edit.manifest.install.disabled = disabled;
    toggled.changes = crate::ops::install::install_edited(&mut edit, dirs, options, &[])?;
    edit.commit()?;
    Ok(toggled)
}
