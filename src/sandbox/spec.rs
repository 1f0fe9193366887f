//! What skillpkg hands its sandbox helper: the folders replaced by fresh
//! empty ones, the paths put back inside those, the paths a command may
//! write, those that stay read-only inside them, those it may not read,
//! and whether it gets the network. Serialised as JSON on the helper's
//! command line.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The hidden first argument that makes `skillpkg` the sandbox helper:
/// `skillpkg __sandbox-helper <spec as JSON> <program> <args>…`.
pub(crate) const HELPER_ARG: &str = "__sandbox-helper";

/// What the helper prints before a message of its own on stderr.
pub(crate) const HELPER_PREFIX: &str = "skillpkg sandbox: ";

/// The helper's exit code when it could not set the sandbox up (the
/// command did not run).
pub(crate) const SETUP_FAILED: i32 = 125;

/// The rows of docs/sandbox.md's table of rules: what every backend
/// enforces (a Seatbelt profile's `; rule:` lines name them).
pub(crate) const RULES: [&str; 9] = [
    "write",
    "not write, inside the workspace",
    "see, of the home folder",
    "never read",
    "reach, of Unix sockets",
    "kernel",
    "network",
    "environment",
    "processes",
];

/// A folder the command sees fresh and empty (a tmpfs in its place).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fresh {
    /// Where (canonical).
    pub path: PathBuf,
    /// Its permission bits (`0o1777` for `/tmp`, `0o700` for a home).
    pub mode: u32,
}

/// A path inside a [`Fresh`] folder that is put back, at its own place,
/// as it is outside.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bind {
    /// Where (canonical, existing).
    pub path: PathBuf,
    /// Whether it stays writable (the workspace, `TMPDIR`); otherwise it
    /// is read-only (skills, toolchains, what `--read` adds).
    pub writable: bool,
}

/// The sandbox of one command.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    /// Folders replaced by fresh, empty ones: `/tmp`, `/var/tmp`, `/run`,
    /// `/dev/shm`, the home directory. Shortest first.
    pub fresh: Vec<Fresh>,
    /// What is put back inside them, outermost first.
    pub bound: Vec<Bind>,
    /// Directories the command may write beneath (the workspace unless
    /// read-only, its private temporary folder, and the fresh folders but
    /// `/run`).
    pub writable: Vec<PathBuf>,
    /// Existing paths inside those that stay read-only (`.git/`,
    /// `.skillpkg/`, skill roots, `skills.toml`, `skills.lock`).
    pub read_only: Vec<PathBuf>,
    /// Paths beneath which `--allow-write` lifted version control and
    /// configuration that starts commands (the Linux helper gets
    /// `read_only` decided with them; a Seatbelt profile protects names
    /// that do not exist yet, so it needs them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow_write: Vec<PathBuf>,
    /// Existing paths the command may not read (credential stores,
    /// skillpkg's config dir): an empty folder or an empty file in their
    /// place.
    pub hidden: Vec<PathBuf>,
    /// Where the command starts, entered again once the mounts are in
    /// place (the folder inherited from skillpkg lies on the mount that
    /// the fresh folders hide).
    pub workdir: Option<PathBuf>,
    /// Whether the command may use the network.
    pub network: bool,
    /// Set everything up, then exit 0 without running anything: whether
    /// the sandbox works here.
    pub probe: bool,
}

/// When a command's output says the helper could not set the sandbox up,
/// its message.
pub(crate) fn setup_failure(code: Option<i32>, stderr: &str) -> Option<&str> {
    (code == Some(SETUP_FAILED))
        .then(|| stderr.lines().find_map(|l| l.strip_prefix(HELPER_PREFIX)))
        .flatten()
}
