//! What skillpkg hands its sandbox helper: the paths a command may write,
//! those that stay read-only inside them, those it may not read, and
//! whether it gets the network. Serialised as JSON on the helper's command
//! line.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The hidden first argument that makes `skillpkg` the sandbox helper:
/// `skillpkg __sandbox-helper <spec as JSON> <program> <args>…`.
pub const HELPER_ARG: &str = "__sandbox-helper";

/// What the helper prints before a message of its own on stderr.
pub const HELPER_PREFIX: &str = "skillpkg sandbox: ";

/// The helper's exit code when it could not set the sandbox up (the
/// command did not run).
pub const SETUP_FAILED: i32 = 125;

/// The sandbox of one command.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    /// Directories the command may write beneath (the workspace unless
    /// read-only, and its private temporary folder).
    pub writable: Vec<PathBuf>,
    /// Existing paths inside those that stay read-only (`.git/`,
    /// `.skillpkg/`, skill roots, `skills.toml`, `skills.lock`).
    pub read_only: Vec<PathBuf>,
    /// Existing paths the command may not read (credential stores,
    /// skillpkg's config dir): an empty folder or an empty file in their
    /// place.
    pub hidden: Vec<PathBuf>,
    /// Whether the command may use the network.
    pub network: bool,
    /// Set everything up, then exit 0 without running anything: whether
    /// the sandbox works here.
    pub probe: bool,
}
