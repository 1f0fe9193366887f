//! How an install may behave, and which pins it may move.

use std::collections::BTreeSet;

use crate::ops::consent::grants::install::GrantConsent;
use crate::progress::{Progress, SILENT};
use crate::store::limits::Limits;
use crate::store::trees::LinkMode;

/// How `install` may behave.
#[derive(Clone, Copy)]
pub struct InstallOptions<'p> {
    /// Fail if the lock would change.
    pub locked: bool,
    /// `--frozen` was given (`--locked` and `--offline`): errors name it.
    pub frozen: bool,
    /// Overwrite managed skills that were edited locally.
    pub force: bool,
    /// Accept unsigned packages from remote indexes.
    pub allow_unsigned: bool,
    /// Accept a git skill's commit signed by another of its `signed-by`
    /// signers than the locked commit was.
    pub allow_signer_change: bool,
    /// Use only what is on this machine: no index fetches.
    pub offline: bool,
    /// Refuse skills the reference validator rejects (`--require-valid`);
    /// otherwise they install as agents load them, with a warning.
    pub require_valid: bool,
    /// Where downloads and installs report their progress.
    pub progress: &'p dyn Progress,
    /// What to do about grants new or changed skills ask for.
    pub grants: GrantConsent<'p>,
    /// How cached trees are put in place.
    pub link_mode: LinkMode,
    /// OCI registries (`HOST` or `HOST:PORT`) spoken to over plain HTTP,
    /// besides those on this machine (`--insecure-registry`).
    pub insecure_registries: &'p [String],
    /// What a skill may hold (`--max-skill-size`), for every source.
    pub limits: Limits,
    /// Scan every tree before it is put in place (DESIGN §12); `--no-scan`
    /// turns it off, and the lock entry says so.
    pub scan: bool,
    /// The channel registry packages that name none in `skills.toml` are
    /// resolved in (`--channel`); `None` is published.
    pub channel: Option<crate::index::channel::Channel>,
}

impl Default for InstallOptions<'_> {
    fn default() -> Self {
        InstallOptions {
            locked: false,
            frozen: false,
            force: false,
            allow_unsigned: false,
            allow_signer_change: false,
            offline: false,
            require_valid: false,
            progress: &SILENT,
            grants: GrantConsent::Leave,
            link_mode: LinkMode::default(),
            insecure_registries: &[],
            limits: Limits::default(),
            scan: true,
            channel: None,
        }
    }
}

impl<'p> InstallOptions<'p> {
    /// How OCI registries are read, with the cache, config and home of
    /// `dirs`.
    pub(crate) fn registries<'a>(&self, dirs: &'a crate::dirs::Dirs) -> crate::oci::Settings<'a>
    where
        'p: 'a,
    {
        crate::oci::Settings {
            cache: &dirs.cache,
            config: &dirs.config,
            home: dirs.home.as_deref(),
            offline: self.offline,
            insecure: self.insecure_registries,
            limits: self.limits,
        }
    }

    /// How strictly path and git skills are checked when staged.
    pub(crate) fn validity(&self) -> crate::ops::pack::Validity {
        match self.require_valid {
            true => crate::ops::pack::Validity::Reference,
            false => crate::ops::pack::Validity::Lenient,
        }
    }
}

impl std::fmt::Debug for InstallOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InstallOptions")
            .field("locked", &self.locked)
            .field("force", &self.force)
            .field("allow_unsigned", &self.allow_unsigned)
            .field("allow_signer_change", &self.allow_signer_change)
            .field("offline", &self.offline)
            .field("require_valid", &self.require_valid)
            .field("grants", &self.grants)
            .field("link_mode", &self.link_mode)
            .field("insecure_registries", &self.insecure_registries)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// Which locked versions resolution may move.
#[derive(Debug, Clone, Default)]
pub(crate) enum Unlock {
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
    pub(crate) fn keeps(&self, name: &str) -> bool {
        match self {
            Unlock::Nothing => true,
            Unlock::Everything => false,
            Unlock::Packages(names) => !names.contains(name),
        }
    }
}
