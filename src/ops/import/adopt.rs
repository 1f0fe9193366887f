//! `import --from DIR [--adopt]`: folders placed by hand, listed, or
//! moved into the project as path dependencies.

use super::lock::LeftOut;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::manifest::lock::Lockfile;
use crate::manifest::{DependencySpec, DetailedSpec, Manifest};
use crate::ops::install::{Change, InstallOptions, add_dependencies};
use crate::project::Project;

/// A folder `--from` found.
#[derive(Debug, Clone)]
pub struct Found {
    /// The skill's name.
    pub name: String,
    /// Its folder.
    pub folder: PathBuf,
    /// Where `--adopt` moves it: its source from then on.
    pub source: PathBuf,
}

/// What `--from` found, and with `--adopt`, did.
#[derive(Debug, Default)]
pub struct Adopted {
    /// The folders taken over (or, without `--adopt`, that would be).
    pub found: Vec<Found>,
    /// The folders left as they are.
    pub left_out: Vec<LeftOut>,
    /// What the install changed.
    pub changes: Vec<Change>,
}

/// The skill folders in `from` that no lock manages (of `names`, when
/// given); with `adopt`, moves each to `skills/<name>` in the project,
/// installs it from there, and links it back where it was.
pub fn adopt_folders(
    project: &Project,
    dirs: &Dirs,
    from: &Path,
    names: &[String],
    adopt: bool,
    options: InstallOptions,
) -> anyhow::Result<Adopted> {
    let manifest = Manifest::load(&project.manifest_path)?;
    let root = project.skill_root(manifest.install_root())?;
    let managed = Lockfile::load(&project.lock_path)?;
    let canonical = |p: &Path| fs_err::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let from_is_root = canonical(from) == canonical(&root);
    let mut adopted = Adopted::default();
    let mut entries: Vec<_> = fs_err::read_dir(from)
        .with_context(|| format!("could not read {}", from.display()))?
        .collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let folder = entry.path();
        // Links are some other folder's skill (the install root's, often).
        if !entry.file_type()?.is_dir() {
            continue;
        }
        let Ok(skill) = crate::skill::load_skill(&folder) else {
            continue;
        };
        let name = skill.meta.name;
        if !names.is_empty() && !names.contains(&name) {
            continue;
        }
        let leave = |reason: String| LeftOut {
            name: name.clone(),
            reason,
            hint: String::new(),
        };
        if manifest.skills.contains_key(&name) || managed.by_folder(&name).is_some() {
            adopted
                .left_out
                .push(leave("skillpkg manages it already".to_string()));
            continue;
        }
        if !crate::skill::name::is_safe_folder_name(&name) {
            adopted
                .left_out
                .push(leave(format!("its name {name:?} cannot name a folder")));
            continue;
        }
        let source = project.dir.join("skills").join(&name);
        if source.symlink_metadata().is_ok() {
            adopted.left_out.push(leave(format!(
                "{} exists already",
                project.shown(&source).display()
            )));
            continue;
        }
        if !from_is_root && root.join(&name).symlink_metadata().is_ok() {
            adopted.left_out.push(leave(format!(
                "the install root holds another {name} in {}",
                project.shown(&root.join(&name)).display()
            )));
            continue;
        }
        adopted.found.push(Found {
            name,
            folder,
            source,
        });
    }
    for name in names {
        if !adopted.found.iter().any(|f| &f.name == name)
            && !adopted.left_out.iter().any(|l| &l.name == name)
        {
            bail!(
                Hinted::new(format!(
                    "{} holds no skill folder named '{name}'",
                    from.display()
                ))
                .hint("leave out the names to list every folder it holds")
            );
        }
    }
    if !adopt || adopted.found.is_empty() {
        return Ok(adopted);
    }
    adopted.changes = move_and_install(project, dirs, &adopted.found, options)?;
    if !from_is_root {
        for found in &adopted.found {
            let parent = found.folder.parent().unwrap_or(from);
            if let Some(warning) =
                crate::ops::install::targets::expose(parent, &root.join(&found.name))?
            {
                bail!(warning);
            }
        }
    }
    Ok(adopted)
}

/// Moves each found folder to its source, then installs them all; puts
/// the folders back if the install fails.
pub(super) fn move_and_install(
    project: &Project,
    dirs: &Dirs,
    found: &[Found],
    options: InstallOptions,
) -> anyhow::Result<Vec<Change>> {
    // The folders `skills/` was made in, when this run made it: removed
    // again (if still empty) when the folders go back.
    let made: Vec<&Path> = found
        .iter()
        .filter_map(|f| f.source.parent())
        .filter(|parent| !parent.exists())
        .collect();
    let put_back = |moved: &[&Found]| {
        for f in moved {
            let _ = fs_err::rename(&f.source, &f.folder);
        }
        for parent in &made {
            let _ = std::fs::remove_dir(parent);
        }
    };
    let mut moved = Vec::new();
    let mut specs = Vec::new();
    for f in found {
        let parent = f.source.parent().expect("a folder in skills/");
        if let Err(e) =
            fs_err::create_dir_all(parent).and_then(|()| fs_err::rename(&f.folder, &f.source))
        {
            put_back(&moved);
            return Err(e.into());
        }
        moved.push(f);
        let path = format!("skills/{}", f.name);
        specs.push((
            f.name.clone(),
            DependencySpec::Detailed(DetailedSpec {
                path: Some(path),
                ..Default::default()
            }),
        ));
    }
    match add_dependencies(project, dirs, &specs, &[], options) {
        Ok(changes) => Ok(changes),
        Err(e) => {
            put_back(&moved);
            Err(e)
        }
    }
}
