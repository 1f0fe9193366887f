//! How an install may behave, and which pins it may move.

use std::collections::BTreeSet;

use crate::progress::{Progress, SILENT};

/// How `install` may behave.
#[derive(Clone, Copy)]
pub struct InstallOptions<'p> {
    /// Fail if the lock would change.
    pub locked: bool,
    /// Overwrite managed skills that were edited locally.
    pub force: bool,
    /// Accept unsigned packages from remote indexes.
    pub allow_unsigned: bool,
    /// Use only what is on this machine: no index fetches.
    pub offline: bool,
    /// Where downloads and installs report their progress.
    pub progress: &'p dyn Progress,
}

impl Default for InstallOptions<'_> {
    fn default() -> Self {
        InstallOptions {
            locked: false,
            force: false,
            allow_unsigned: false,
            offline: false,
            progress: &SILENT,
        }
    }
}

impl std::fmt::Debug for InstallOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InstallOptions")
            .field("locked", &self.locked)
            .field("force", &self.force)
            .field("allow_unsigned", &self.allow_unsigned)
            .field("offline", &self.offline)
            .finish_non_exhaustive()
    }
}

/// Which locked versions resolution may move.
#[derive(Debug, Clone, Default)]
pub enum Unlock {
    /// None: `install`, `add`, `remove` keep every pin they can.
    #[default]
    Nothing,
    /// Every package: `update` with no names.
    Everything,
    /// These packages: `update org/name…`.
    Packages(BTreeSet<String>),
}

impl Unlock {
    /// Whether the pin of `name` stays where the lock has it.
    pub fn keeps(&self, name: &str) -> bool {
        match self {
            Unlock::Nothing => true,
            Unlock::Everything => false,
            Unlock::Packages(names) => !names.contains(name),
        }
    }
}
