//! Finding the project a command works on, its paths, and locking it
//! against concurrent runs.
//!
//! A project is the nearest directory up holding `skills.toml` (else, for
//! reading skills, the git work tree root). Its state lives in
//! `.skillpkg/` beside the manifest: the process lock, staging and trash
//! folders of installs, audit logs and history.

use std::path::{Component, Path, PathBuf};

use anyhow::{Context as _, bail};

use crate::dirs::Dirs;
use crate::fsutil::{
    FileLock, ignore_in_git, lock_exclusive, owned_by_someone_else, write_atomically,
};
use crate::hint::Hinted;

/// The manifest file that marks a project.
pub(crate) const MANIFEST_FILE: &str = "skills.toml";

/// The lockfile's name, beside the manifest.
pub(crate) const LOCK_FILE: &str = "skills.lock";

/// The project root's skill directory, relative to the project, unless
/// `[install] root` says otherwise.
pub(crate) const DEFAULT_PROJECT_ROOT: &str = ".agents/skills";

/// The project's own state folder, beside the manifest.
pub(crate) const STATE_DIR: &str = ".skillpkg";

/// The global manifest a first `--global` command writes.
const GLOBAL_MANIFEST_TEMPLATE: &str = "# Skills installed for this user (`skillpkg add --global`), into the user\n# root. skills.lock beside this file records exactly what was installed.\n\n[skills]\n";

/// Where the search for a project ended, and what it passed over.
#[derive(Debug, Clone, Default)]
pub(crate) struct Discovery {
    /// The nearest directory at or above the start holding a
    /// `skills.toml` of this user's, within the git work tree.
    pub manifest_dir: Option<PathBuf>,
    /// The nearest git work tree root at or above the start.
    pub git_root: Option<PathBuf>,
    /// Manifests passed over because another user owns them.
    pub foreign: Vec<PathBuf>,
}

impl Discovery {
    /// Walks up from `start` to the nearest `skills.toml`, stopping at the
    /// root of the git work tree (or of the file system, outside git): a
    /// manifest planted in a shared parent folder is not this project's.
    /// A manifest another user owns is passed over, as git passes over a
    /// repository another user owns.
    pub(crate) fn from(start: &Path) -> Discovery {
        let mut discovery = Discovery::default();
        for dir in start.ancestors() {
            let manifest = dir.join(MANIFEST_FILE);
            if discovery.manifest_dir.is_none() && manifest.is_file() {
                match owned_by_someone_else(&manifest) {
                    true => discovery.foreign.push(manifest),
                    false => discovery.manifest_dir = Some(dir.to_path_buf()),
                }
            }
            if dir.join(".git").exists() {
                discovery.git_root = Some(dir.to_path_buf());
                break;
            }
        }
        discovery
    }

    /// The project directory: the manifest's, else the git work tree root.
    pub(crate) fn project_dir(&self) -> Option<&Path> {
        self.manifest_dir.as_deref().or(self.git_root.as_deref())
    }

    /// One warning per manifest passed over.
    pub(crate) fn warnings(&self) -> Vec<String> {
        self.foreign
            .iter()
            .map(|path| {
                format!(
                    "ignored {}: another user owns it, so it is not this user's project",
                    path.display()
                )
            })
            .collect()
    }
}

/// A project: its manifest, lock and root.
#[derive(Debug, Clone)]
pub struct Project {
    /// The directory holding `skills.toml`.
    pub dir: PathBuf,
    /// `skills.toml`.
    pub manifest_path: PathBuf,
    /// `skills.lock`.
    pub lock_path: PathBuf,
    /// The root skills go into, when it is not the manifest's
    /// `[install] root` (the user root, for the global project).
    pub root: Option<PathBuf>,
}

impl Project {
    /// The project whose `skills.toml` is in `cwd` or above, within the
    /// git work tree.
    pub fn find(cwd: &Path) -> anyhow::Result<Project> {
        let discovery = Discovery::from(cwd);
        if let Some(dir) = &discovery.manifest_dir {
            return Ok(Project::at(dir));
        }
        let upto = match &discovery.git_root {
            Some(root) => format!("up to the git work tree's root {}", root.display()),
            None => "or any parent directory".to_string(),
        };
        let whose = match discovery.foreign.is_empty() {
            true => "",
            false => " of yours",
        };
        let mut error = Hinted::new(format!(
            "no {MANIFEST_FILE}{whose} in {} {upto}",
            cwd.display()
        ));
        for warning in discovery.warnings() {
            error = error.hint(warning);
        }
        bail!(error.hint("run `skillpkg init` to start one"))
    }

    /// The project whose manifest is in `dir`.
    pub fn at(dir: &Path) -> Project {
        Project {
            manifest_path: dir.join(MANIFEST_FILE),
            lock_path: dir.join(LOCK_FILE),
            dir: dir.to_path_buf(),
            root: None,
        }
    }

    /// The global project: a manifest and lock under the data directory
    /// that install into the user root. Created on first use.
    pub fn global(dirs: &Dirs) -> anyhow::Result<Project> {
        let dir = Project::global_lock_path(dirs)
            .parent()
            .expect("the lock is in a folder")
            .to_path_buf();
        let manifest_path = dir.join(MANIFEST_FILE);
        if !manifest_path.exists() {
            write_atomically(&manifest_path, GLOBAL_MANIFEST_TEMPLATE.as_bytes())
                .with_context(|| format!("could not write {}", manifest_path.display()))?;
        }
        Ok(Project {
            root: Some(dirs.user_root.clone()),
            ..Project::at(&dir)
        })
    }

    /// `path` as a user in the project would type it: relative to the
    /// project when inside it, else as it is.
    pub fn shown<'p>(&self, path: &'p Path) -> &'p Path {
        path.strip_prefix(&self.dir).unwrap_or(path)
    }

    /// The global project's lock, which may not exist.
    pub fn global_lock_path(dirs: &Dirs) -> PathBuf {
        dirs.data.join("global").join(LOCK_FILE)
    }

    /// The global project with `global`, else the one around `cwd`.
    pub fn locate(cwd: &Path, dirs: &Dirs, global: bool) -> anyhow::Result<Project> {
        if global {
            Project::global(dirs)
        } else {
            Project::find(cwd)
        }
    }

    /// Where this project's skills are installed, given the manifest's
    /// `[install] root`: a proper subfolder of the project, outside
    /// `.git/` and `.skillpkg/`, written with plain path components.
    pub fn skill_root(&self, configured: Option<&str>) -> anyhow::Result<PathBuf> {
        if let Some(root) = &self.root {
            return Ok(root.clone());
        }
        let relative = configured.unwrap_or(DEFAULT_PROJECT_ROOT);
        let components: Vec<Component> = Path::new(relative).components().collect();
        let plain = !components.is_empty()
            && components.iter().all(|c| match c {
                Component::Normal(name) => *name != ".git" && *name != STATE_DIR,
                _ => false,
            });
        if !plain {
            bail!(
                Hinted::new(format!(
                    "{}: [install] root = {relative:?} is not a folder inside the project",
                    self.manifest_path.display()
                ))
                .hint(format!(
                    "use a relative path below the project, outside .git and {STATE_DIR} (the default is {DEFAULT_PROJECT_ROOT:?})"
                ))
            );
        }
        Ok(self.dir.join(relative))
    }

    /// Whether this is the global project, which works on the user's own
    /// folders by design.
    pub fn is_global(&self) -> bool {
        self.root.is_some()
    }

    /// Refuses `path` (named `what` in the error) when it, or the nearest
    /// part of it that exists, resolves outside the project: a symlink a
    /// cloned repository planted must not make skillpkg write elsewhere.
    pub fn check_inside(&self, path: &Path, what: &str) -> anyhow::Result<()> {
        if self.is_global() {
            return Ok(());
        }
        let project = fs_err::canonicalize(&self.dir)?;
        let mut existing = path;
        while std::fs::symlink_metadata(existing).is_err() {
            match existing.parent() {
                Some(parent) => existing = parent,
                None => return Ok(()),
            }
        }
        let resolved = std::fs::canonicalize(existing).ok();
        if resolved.as_ref().is_some_and(|r| r.starts_with(&project)) {
            return Ok(());
        }
        let target = match &resolved {
            Some(resolved) => format!("leads outside the project, to {}", resolved.display()),
            None => "is a link that leads nowhere".to_string(),
        };
        bail!(
            Hinted::new(format!("{what} {} {target}", existing.display())).hint(format!(
                "skillpkg writes only inside the project {}; replace the link with a folder",
                project.display()
            ))
        )
    }

    /// The project's state folder, `.skillpkg/`.
    pub fn state_dir(&self) -> PathBuf {
        self.dir.join(STATE_DIR)
    }

    /// Where installs stage archives and trees before moving them in.
    pub fn staging_dir(&self) -> PathBuf {
        self.state_dir().join("staging")
    }

    /// Where installs move replaced trees before deleting them.
    pub fn trash_dir(&self) -> PathBuf {
        self.state_dir().join("trash")
    }

    /// Locks the project against concurrent skillpkg runs until the lock
    /// is dropped, and clears what a killed run left in staging or trash.
    /// The state folder ignores itself, so it never shows up in version
    /// control.
    pub fn lock(&self) -> anyhow::Result<FileLock> {
        let state = self.state_dir();
        self.check_inside(&state, "the state folder")?;
        let lock = lock_exclusive(&state.join("lock"))
            .with_context(|| format!("could not lock {}", self.dir.display()))?;
        for leftovers in [self.staging_dir(), self.trash_dir()] {
            if leftovers.exists() {
                fs_err::remove_dir_all(&leftovers)?;
            }
        }
        ignore_in_git(&state)?;
        Ok(lock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nearest project up from `start`, as discovery finds it.
    fn find_project(start: &Path) -> Option<PathBuf> {
        Discovery::from(start).project_dir().map(Path::to_path_buf)
    }

    #[test]
    fn manifest_wins_over_git_root() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path();
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("sub/deeper")).unwrap();
        assert_eq!(find_project(&repo.join("sub/deeper")).unwrap(), repo);
        std::fs::write(repo.join("sub/skills.toml"), "").unwrap();
        assert_eq!(
            find_project(&repo.join("sub/deeper")).unwrap(),
            repo.join("sub")
        );
    }

    #[test]
    fn the_skill_root_is_configured_else_the_default() {
        let project = Project::at(Path::new("/p"));
        assert_eq!(
            project.skill_root(None).unwrap(),
            Path::new("/p/.agents/skills")
        );
        assert_eq!(
            project.skill_root(Some("skills")).unwrap(),
            Path::new("/p/skills")
        );
        for outside in [
            "",
            ".",
            "..",
            "../x",
            "/abs",
            "a/../../b",
            ".git",
            ".git/hooks",
            "x/.skillpkg",
        ] {
            assert!(project.skill_root(Some(outside)).is_err(), "{outside:?}");
        }
    }
}
