//! `export plugin`: the project's locked skills, written as an Agent
//! Plugin (Agent Plugins 1.0.0) that agents reading plugins load: a
//! `plugin.json` with exactly the manifest's fields, and `skills/<name>/`
//! holding each skill as skills.lock pins it.
//!
//! Each installed skill is hashed against the lock's `tree` before
//! anything is written, and its copy is hashed again from the bytes
//! written, so the plugin holds what the lock verified or nothing: a
//! skill edited since it was installed, or missing, is refused by name.
//! The plugin is staged in a folder beside `OUT` and renamed into place;
//! an `OUT` that holds anything is replaced only with `force`, and only
//! when it is a plugin folder (it holds a `plugin.json`), never the
//! project, a folder holding it, or the install root.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use serde::Serialize;

use super::manifest::{SCHEMA_1_0_0, check_name};
use crate::hint::{Hinted, shell_path};
use crate::manifest::Manifest;
use crate::manifest::lock::Lockfile;
use crate::project::Project;

/// What to write.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ExportRequest<'a> {
    /// The plugin folder to write (absolute).
    pub out: &'a Path,
    /// It, as the user gave it.
    pub given: &'a Path,
    /// The plugin's name (§5.5).
    pub name: &'a str,
    /// Its version.
    pub version: &'a str,
    /// Its description.
    pub description: Option<&'a str>,
    /// Replace a plugin folder that is there.
    pub force: bool,
}

/// What was written.
#[derive(Debug, Clone)]
pub(crate) struct Exported {
    /// The skills, by folder name, sorted.
    pub skills: Vec<String>,
    /// Whether a plugin folder that was there was replaced.
    pub replaced: bool,
}

/// The manifest written: the fields of Agent Plugins 1.0.0, in the
/// order the specification lists them.
#[derive(Serialize)]
struct PluginJson<'a> {
    #[serde(rename = "$schema")]
    schema: &'a str,
    name: &'a str,
    version: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
}

/// Writes the skills `project`'s lock pins, as installed, into the Agent
/// Plugin folder `request.out`.
pub(crate) fn export_plugin(project: &Project, request: ExportRequest) -> anyhow::Result<Exported> {
    if let Err(why) = check_name(request.name) {
        bail!(
            Hinted::new(format!("the plugin name {:?} {why}", request.name)).hint(
                "Agent Plugins names are 1 to 64 of a-z, 0-9, '-' and '.', starting and ending with a letter or digit, e.g. acme-tools"
            )
        );
    }
    if request.version.trim().is_empty() {
        bail!(
            Hinted::new("the plugin version is empty")
                .hint("give one with --version, e.g. --version 1.0.0")
        );
    }
    let out = crate::fsutil::lexically_normal(request.out);
    let request = ExportRequest {
        out: &out,
        ..request
    };
    let _lock = project.lock()?;
    let manifest = Manifest::load(&project.manifest_path)?;
    let lock = Lockfile::load(&project.lock_path)?;
    let root = project.skill_root(manifest.install_root())?;
    if lock.skills().is_empty() {
        bail!(
            Hinted::new(format!(
                "{} pins no skills, so there is nothing to export",
                project.lock_path.display()
            ))
            .hint("add skills with `skillpkg add`, then export them")
        );
    }
    let replaced = check_out(project, &root, request)?;
    let parent = request
        .out
        .parent()
        .context("the plugin folder has no parent")?;
    fs_err::create_dir_all(parent)?;
    let staging = tempfile::Builder::new()
        .prefix(".skillpkg-export-")
        .tempdir_in(parent)
        .with_context(|| format!("could not make a folder in {}", parent.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        fs_err::set_permissions(staging.path(), std::fs::Permissions::from_mode(0o755))?;
    }
    let mut skills = Vec::new();
    for skill in lock.skills() {
        let folder = skill.name.rsplit('/').next().unwrap_or(&skill.name);
        copy_skill(project, &root, folder, &skill.tree, staging.path())?;
        skills.push(folder.to_string());
    }
    skills.sort();
    let json = PluginJson {
        schema: SCHEMA_1_0_0,
        name: request.name,
        version: request.version,
        description: request.description,
    };
    let mut text = serde_json::to_string_pretty(&json)?;
    text.push('\n');
    fs_err::write(staging.path().join("plugin.json"), text)?;
    put_in_place(staging, request.out)?;
    Ok(Exported { skills, replaced })
}

/// Copies the installed skill `folder` of `root` into `staging/skills/`,
/// refusing it unless both it and the copy hash to `tree`.
fn copy_skill(
    project: &Project,
    root: &Path,
    folder: &str,
    tree: &str,
    staging: &Path,
) -> anyhow::Result<()> {
    let installed = root.join(folder);
    let shown = project.shown(&installed).display().to_string();
    let is_folder = installed
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_dir());
    if !is_folder {
        bail!(
            Hinted::new(format!(
                "{folder} is locked in skills.lock but not installed at {shown}"
            ))
            .hint("run `skillpkg install` to install what skills.lock pins, then export")
        );
    }
    let modified = || {
        Hinted::new(format!(
            "{folder} at {shown} was modified since it was installed (its files no longer match skills.lock), so it is not exported"
        ))
        .hint("`skillpkg verify` shows what changed; `skillpkg install --force` puts back what skills.lock pins")
    };
    if crate::store::hash::tree_hash(&installed)? != tree {
        bail!(modified());
    }
    let target = staging.join("skills").join(folder);
    let copied = crate::store::trees::copy_tree(&installed, &target)
        .with_context(|| format!("could not copy {shown}"))?;
    match copied {
        Some(digests) if crate::store::hash::tree_hash_of(&digests) == tree => Ok(()),
        // Changed between the hash and the copy.
        _ => bail!(modified()),
    }
}

/// Checks that `request.out` may be written: nothing there, an empty
/// folder, or with `force` a plugin folder that is not the project, a
/// folder holding it, or in the install root. Whether something is
/// replaced.
fn check_out(project: &Project, root: &Path, request: ExportRequest) -> anyhow::Result<bool> {
    let out = request.out;
    let shown = shell_path(request.given);
    let project_dir = fs_err::canonicalize(&project.dir)?;
    let install_root = resolved(root)?;
    let resolved = resolved(out)?;
    let refused = if project_dir.starts_with(&resolved) {
        Some(format!(
            "{shown} is the project or a folder holding it: the plugin is not written over it"
        ))
    } else if resolved.starts_with(&install_root) {
        Some(format!(
            "{shown} is in the install root {}, where skillpkg installs skills",
            project.shown(root).display()
        ))
    } else {
        None
    };
    if let Some(refused) = refused {
        bail!(Hinted::new(refused).hint("name a folder of its own, e.g. dist/plugin"));
    }
    let Ok(metadata) = out.symlink_metadata() else {
        return Ok(false);
    };
    if metadata.file_type().is_symlink() || !metadata.is_dir() {
        bail!(
            Hinted::new(format!("{shown} is not a folder"))
                .hint("name a folder to write the plugin into (it is made if it is not there)")
        );
    }
    if fs_err::read_dir(out)?.next().is_none() {
        return Ok(false);
    }
    if !request.force {
        bail!(Hinted::new(format!("{shown} is not empty")).hint(
            "pass --force to replace a plugin folder exported before, or name another folder"
        ));
    }
    if !out.join("plugin.json").is_file() {
        bail!(
            Hinted::new(format!(
                "{shown} holds files but no plugin.json: --force replaces only a plugin folder"
            ))
            .hint("name another folder, or empty this one yourself")
        );
    }
    Ok(true)
}

/// Where `path` leads: its nearest existing folder, links resolved, with
/// the parts that do not exist yet after it.
fn resolved(path: &Path) -> anyhow::Result<PathBuf> {
    let mut existing = path;
    let mut rest = Vec::new();
    while existing.symlink_metadata().is_err() {
        let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) else {
            break;
        };
        rest.push(name);
        existing = parent;
    }
    let mut resolved = fs_err::canonicalize(existing)?;
    resolved.extend(rest.iter().rev());
    Ok(resolved)
}

/// Renames `staging` to `out`, moving what is there aside first and
/// deleting it once the new plugin is in place.
fn put_in_place(staging: tempfile::TempDir, out: &Path) -> anyhow::Result<()> {
    let aside: Option<PathBuf> = match out.symlink_metadata() {
        Ok(_) => {
            let aside = tempfile::Builder::new()
                .prefix(".skillpkg-export-old-")
                .tempdir_in(out.parent().unwrap_or(Path::new(".")))?
                .keep();
            fs_err::rename(out, &aside)?;
            Some(aside)
        }
        Err(_) => None,
    };
    if let Err(e) = fs_err::rename(staging.path(), out) {
        if let Some(aside) = &aside {
            let _ = fs_err::rename(aside, out);
        }
        return Err(e.into());
    }
    let _ = staging.keep();
    if let Some(aside) = aside {
        fs_err::remove_dir_all(aside)?;
    }
    Ok(())
}
