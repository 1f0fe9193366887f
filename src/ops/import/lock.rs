//! `import` from a lock of `npx skills`: each entry a dependency, one
//! install for all, the copies in place taken over when they are the
//! source's files.

use super::npx_lock::parse_npx_lock;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use super::copies::{CopyOfSource, compare_copy, copy_of, relink};
use super::sources::{LocalSkills, describe, spec_of};
use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::manifest::Manifest;
use crate::manifest::lock::Lockfile;
use crate::ops::consent::outside::outside_dependency;
use crate::ops::install::{Change, InstallOptions, add_dependencies, source_files};
use crate::project::Project;

/// A skill left out of the manifest.
#[derive(Debug, Clone)]
pub struct LeftOut {
    /// Its name.
    pub name: String,
    /// Why.
    pub reason: String,
    /// What the user can do about it (empty: nothing to say).
    pub hint: String,
}

/// What an import did.
#[derive(Debug, Default)]
pub struct Imported {
    /// The skills now in `skills.toml`, with where they come from.
    pub added: Vec<(String, String)>,
    /// The skills `skills.toml` named already, left as they were.
    pub already: Vec<String>,
    /// The skills left out, untouched.
    pub left_out: Vec<LeftOut>,
    /// What the install changed.
    pub changes: Vec<Change>,
    /// Copies in agents' folders now linked to the installed skills.
    pub relinked: Vec<PathBuf>,
}

/// Reads the `npx skills` lock at `lock_file`, adds a dependency for each
/// skill it can take over, and installs them in one run. A source outside
/// the project is read only with `allow_outside`: the lock may be a cloned
/// repository's (DESIGN §11).
pub fn import_lock(
    project: &Project,
    dirs: &Dirs,
    lock_file: &Path,
    allow_outside: bool,
    options: InstallOptions,
) -> anyhow::Result<Imported> {
    let text = match fs_err::read_to_string(lock_file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            Hinted::new(format!("there is no {}", lock_file.display()))
                .hint("`npx skills add` writes it; for folders without a lock, `skillpkg import --from DIR` lists what --adopt would take over")
        ),
        Err(e) => return Err(e.into()),
    };
    let lock = parse_npx_lock(&text)
        .with_context(|| format!("{} is not a lock `npx skills` writes", lock_file.display()))?;
    let lock_dir = lock_file.parent().unwrap_or(Path::new("."));
    let manifest = Manifest::load(&project.manifest_path)?;
    let root = project.skill_root(manifest.install_root())?;
    let managed = Lockfile::load(&project.lock_path)?;
    let mut imported = Imported::default();
    let mut specs = Vec::new();
    let mut local = LocalSkills::default();
    let mut outside = Vec::new();
    let mut npx_copies_in_root = Vec::new();
    for (name, entry) in &lock.skills {
        if manifest.skills.contains_key(name) {
            imported.already.push(name.clone());
            continue;
        }
        let folder = root.join(name);
        // Where npx put its copy: the install root, or (`--agent
        // claude-code` alone) the agent's own folder.
        let copy = copy_of(project, &root, name);
        let global = if project.is_global() { " --global" } else { "" };
        // Only a folder in place can be adopted as it is, and never one
        // whose source is a git repository: that would make it a path
        // dependency, cut off from its repository.
        let from_git = matches!(entry.source_type.as_str(), "github" | "gitlab" | "git");
        let takeover = match &copy {
            Some(copy) if !from_git => format!(
                "`skillpkg import{global} --from {} --adopt {}` takes it over as it is",
                crate::hint::shell_path(project.shown(copy.parent().unwrap_or(&root))),
                crate::hint::shell_quote(name)
            ),
            _ => String::new(),
        };
        let spec = match spec_of(project, dirs, name, entry, lock_dir, options, &mut local)? {
            Ok(spec) => spec,
            Err(reason) => {
                imported.left_out.push(LeftOut {
                    name: name.clone(),
                    reason,
                    hint: takeover,
                });
                continue;
            }
        };
        // A lock in the project may not make skillpkg read the user's other
        // folders (DESIGN §11) unless the user says so.
        if !project.is_global()
            && let Some(source) = outside_dependency(&project.dir, name, &spec)
        {
            if !allow_outside {
                imported.left_out.push(LeftOut {
                    name: name.clone(),
                    reason: format!(
                        "its source {} is outside the project, which import reads only with --allow-outside",
                        source.leads_to(),
                    ),
                    hint: takeover,
                });
                continue;
            }
            outside.push(name.clone());
        }
        // Fetched (and checked) now, so that one source out of reach or
        // broken leaves that skill out rather than failing the rest.
        let source = match source_files(project, dirs, name, &spec, options) {
            Ok(source) => source,
            Err(e) => {
                let hint = match from_git {
                    true => format!(
                        "`skillpkg import{global}` takes it over once its source can be installed"
                    ),
                    false => takeover,
                };
                imported.left_out.push(LeftOut {
                    name: name.clone(),
                    reason: format!("its source {} cannot be installed ({e:#})", describe(&spec)),
                    hint,
                });
                continue;
            }
        };
        let managed_here = managed.by_folder(name).is_some();
        let foreign = copy
            .as_ref()
            .filter(|copy| !(managed_here && **copy == folder));
        if let Some(copy) = foreign {
            let compared = compare_copy(copy, &source)?;
            if compared == CopyOfSource::Different {
                let shown = project.shown(copy);
                let hint = match from_git {
                    true => format!(
                        "to install what {} holds now instead, move {} aside (it keeps your changes) and run `skillpkg import{global}` again",
                        describe(&spec),
                        shown.display()
                    ),
                    false => takeover,
                };
                imported.left_out.push(LeftOut {
                    name: name.clone(),
                    reason: format!("{} differs from what its source holds now", shown.display()),
                    hint,
                });
                continue;
            }
            if *copy != folder {
                imported.relinked.push(copy.clone());
            } else if compared == CopyOfSource::AsNpxCopies {
                // Not what the install puts there: out of its way.
                npx_copies_in_root.push(copy.clone());
            }
        }
        imported.added.push((name.clone(), describe(&spec)));
        specs.push((name.clone(), spec));
    }
    if !specs.is_empty() {
        imported.changes = install_over(&root, &npx_copies_in_root, || {
            add_dependencies(project, dirs, &specs, &outside, options)
        })?;
    }
    // The copies in agents' folders, the same files as installed now,
    // become links to the installed skills: one skill, in one place.
    imported
        .relinked
        .retain(|copy| relink(copy, &root).unwrap_or(false));
    Ok(imported)
}

/// Runs `install` with the folders `copies` (npx's copies in the install
/// root `root`, which lack only what npx never copies) moved out of its
/// way, into a private folder of `root`; deletes them once it succeeded
/// (the install put their files, and the rest of their source's, in
/// their place), and puts them back if it failed.
pub(super) fn install_over(
    root: &Path,
    copies: &[PathBuf],
    install: impl FnOnce() -> anyhow::Result<Vec<Change>>,
) -> anyhow::Result<Vec<Change>> {
    if copies.is_empty() {
        return install();
    }
    let aside = crate::fsutil::private_tempdir(".import-", Some(root))
        .with_context(|| format!("could not make a folder in {}", root.display()))?;
    let put_back = |moved: &[&PathBuf]| {
        for copy in moved {
            if let Some(name) = copy.file_name() {
                let _ = fs_err::rename(aside.path().join(name), copy);
            }
        }
    };
    let mut moved = Vec::new();
    for copy in copies {
        let name = copy.file_name().expect("a skill's folder in the root");
        if let Err(e) = fs_err::rename(copy, aside.path().join(name)) {
            put_back(&moved);
            return Err(e.into());
        }
        moved.push(copy);
    }
    match install() {
        Ok(changes) => Ok(changes),
        Err(e) => {
            put_back(&moved);
            Err(e)
        }
    }
}
