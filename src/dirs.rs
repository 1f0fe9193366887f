//! Where skillpkg keeps its files: config, cache, data and the user root.
//! Every location can be redirected with a `SKILLPKG_*` variable, so tests
//! never touch the real home directory.

use std::path::PathBuf;

use crate::env_vars;

/// The directories skillpkg uses outside a project.
#[derive(Debug, Clone)]
pub struct Dirs {
    /// Configuration (`SKILLPKG_CONFIG_DIR`).
    pub config: PathBuf,
    /// Re-creatable files: downloads, the materialised builtin skills (`SKILLPKG_CACHE_DIR`).
    pub cache: PathBuf,
    /// State worth keeping: the global manifest and lock (`SKILLPKG_DATA_DIR`).
    pub data: PathBuf,
    /// The user skill root (`SKILLPKG_USER_ROOT`, default `~/.agents/skills`).
    pub user_root: PathBuf,
    /// The home directory, when there is one (where agents keep their
    /// user-level skill folders, for the global project's targets).
    pub home: Option<PathBuf>,
}

/// No home directory could be found and no override was set.
#[derive(Debug, thiserror::Error)]
#[error("could not determine the {what} directory: no home directory was found")]
pub(crate) struct DirsError {
    what: &'static str,
}

impl DirsError {
    /// The variable that would fix it.
    pub(crate) fn hint(&self) -> String {
        let var = match self.what {
            "config" => env_vars::SKILLPKG_CONFIG_DIR,
            "cache" => env_vars::SKILLPKG_CACHE_DIR,
            "data" => env_vars::SKILLPKG_DATA_DIR,
            _ => env_vars::SKILLPKG_USER_ROOT,
        };
        format!("set HOME, or set {var} to a directory")
    }
}

fn from_env(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

impl Dirs {
    /// Resolves every directory from the environment and the platform's conventions.
    pub(crate) fn from_env() -> Result<Dirs, DirsError> {
        let project = directories::ProjectDirs::from("", "", "skillpkg");
        let home = directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf());
        let pick = |var: &str, what: &'static str, default: Option<PathBuf>| {
            from_env(var).or(default).ok_or(DirsError { what })
        };
        Ok(Dirs {
            config: pick(
                env_vars::SKILLPKG_CONFIG_DIR,
                "config",
                project.as_ref().map(|p| p.config_dir().to_path_buf()),
            )?,
            cache: pick(
                env_vars::SKILLPKG_CACHE_DIR,
                "cache",
                project.as_ref().map(|p| p.cache_dir().to_path_buf()),
            )?,
            data: pick(
                env_vars::SKILLPKG_DATA_DIR,
                "data",
                project.as_ref().map(|p| p.data_dir().to_path_buf()),
            )?,
            user_root: pick(
                env_vars::SKILLPKG_USER_ROOT,
                "user skill root",
                home.as_ref().map(|h| h.join(".agents").join("skills")),
            )?,
            home,
        })
    }
}
