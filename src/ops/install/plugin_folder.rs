//! `add --path DIR` where `DIR` is a plugin (see [`crate::ops::plugin`])
//! rather than a skill: each skill it holds becomes a path dependency of
//! its own, recorded under its name.

use std::path::Path;

use anyhow::bail;

use crate::hint::Hinted;
use crate::manifest::{DependencySpec, DetailedSpec};
use crate::ops::plugin::Plugin;
use crate::ops::plugin::tree::FolderTree;
use crate::project::Project;

/// The plugin in the folder `dir` (canonical; `given` as the user gave
/// it), when it holds no `SKILL.md` of its own but a plugin manifest.
pub(super) fn find(dir: &Path, given: &str) -> anyhow::Result<Option<Plugin>> {
    if ["SKILL.md", "skill.md"]
        .iter()
        .any(|file| dir.join(file).symlink_metadata().is_ok())
    {
        return Ok(None);
    }
    let tree = FolderTree {
        top: dir.to_path_buf(),
    };
    crate::ops::plugin::find(&tree, given)
}

/// How a path dependency on `folder` (canonical) is recorded: relative
/// to the project when it lies inside it.
pub(super) fn recorded(project: &Project, folder: &Path) -> anyhow::Result<String> {
    let project_dir = fs_err::canonicalize(&project.dir)?;
    Ok(crate::fsutil::slashed_beneath(folder, &project_dir))
}

/// A plugin folder added: what it is, and the names its skills were
/// added under.
#[derive(Debug)]
pub(crate) struct AddedPlugin {
    /// The plugin.
    pub plugin: Plugin,
    /// The names added.
    pub skills: Vec<String>,
}

/// A plugin folder being added.
pub(super) struct PluginFolder<'a> {
    /// Its folder, canonical.
    pub dir: &'a Path,
    /// As the user gave it.
    pub given: &'a str,
    /// What it holds.
    pub plugin: Plugin,
}

impl PluginFolder<'_> {
    /// The path dependencies to add: each skill of the plugin that agents
    /// can load, under its name (or `name`, when it holds one). Skills
    /// agents cannot load are skipped, with why among the plugin's
    /// warnings.
    pub(super) fn specs(
        mut self,
        project: &Project,
        name: Option<&str>,
    ) -> anyhow::Result<(AddedPlugin, Vec<(String, DependencySpec)>)> {
        let mut added = Vec::new();
        for folder in &self.plugin.skills {
            let dir = self.dir.join(folder);
            let skill = match crate::skill::load_skill(&dir) {
                Ok(skill) if crate::skill::name::is_safe_folder_name(&skill.meta.name) => skill,
                Ok(skill) => {
                    self.plugin.warnings.push(format!(
                        "skipped {folder}: the name {:?} cannot name a folder",
                        skill.meta.name
                    ));
                    continue;
                }
                Err(e) => {
                    self.plugin.warnings.push(format!("skipped {folder}: {e}"));
                    continue;
                }
            };
            let spec = DependencySpec::Detailed(DetailedSpec {
                path: Some(recorded(project, &dir)?),
                ..Default::default()
            });
            let key = name.map_or(skill.meta.name, str::to_string);
            spec.source(&key)?;
            added.push((key, spec));
        }
        let title = self.plugin.title();
        if added.is_empty() {
            bail!(self.plugin.holds_no_skill(self.given, &[]));
        }
        if name.is_some() && added.len() != 1 {
            bail!(
                Hinted::new(format!(
                    "a name can be given to one skill, and the plugin {title} at {} holds {} of them",
                    self.given,
                    added.len()
                ))
                .hint("add one of its skills with --path DIR/skills/NAME, or leave the name out")
            );
        }
        let skills = added.iter().map(|(key, _)| key.clone()).collect();
        let plugin = self.plugin;
        Ok((AddedPlugin { plugin, skills }, added))
    }
}
