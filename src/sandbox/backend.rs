//! One sandbox, one backend per platform: the [`Spec`] says what a
//! command may read, write, reach and run, and the backend enforces it.
//!
//! - Linux: namespaces, Landlock and seccomp, set up by skillpkg's own
//!   binary started as a helper ([`HELPER_ARG`], `helper.rs`);
//! - macOS: Seatbelt, a profile written from the spec for
//!   `/usr/bin/sandbox-exec` ([`super::seatbelt`]);
//! - anywhere else (Windows for now, or a build without the Linux
//!   backend): none, and a command is refused rather than run unconfined.

use std::path::Path;
use std::process::Command;

use serde::Serialize;

use super::seatbelt::{self, SANDBOX_EXEC};
use super::spec::{HELPER_ARG, Spec};

/// The program the Linux helper is: this very binary, even if replaced on
/// disk.
const HELPER_EXE: &str = "/proc/self/exe";

/// How commands are confined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Backend {
    /// Linux: user, mount, PID and network namespaces, Landlock and
    /// seccomp, through skillpkg's own helper.
    Namespaces,
    /// macOS: a Seatbelt profile, through `/usr/bin/sandbox-exec`.
    Seatbelt,
}

impl Backend {
    /// The backend of the platform this build is for, if it has one.
    pub(crate) fn of_platform() -> Option<Backend> {
        if cfg!(linux_sandbox) {
            Some(Backend::Namespaces)
        } else if cfg!(target_os = "macos") {
            Some(Backend::Seatbelt)
        } else {
            None
        }
    }

    /// What it is, for messages and `doctor`.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Backend::Namespaces => "Linux namespaces, Landlock and seccomp",
            Backend::Seatbelt => "macOS Seatbelt (/usr/bin/sandbox-exec)",
        }
    }

    /// The command that runs `program` confined as `spec` says (its
    /// arguments, folder and environment are the caller's to add).
    pub(crate) fn command(self, spec: &Spec, program: &Path) -> std::io::Result<Command> {
        match self {
            Backend::Namespaces => {
                let spec = serde_json::to_string(spec).map_err(std::io::Error::other)?;
                let mut command = Command::new(HELPER_EXE);
                command.arg(HELPER_ARG).arg(spec).arg(program);
                Ok(command)
            }
            Backend::Seatbelt => {
                let profile = seatbelt::profile(spec).map_err(std::io::Error::other)?;
                let mut command = Command::new(SANDBOX_EXEC);
                command.arg("-p").arg(profile).arg("--").arg(program);
                Ok(command)
            }
        }
    }

    /// Sets up everything `spec` (a probe's) asks for, runs nothing of
    /// the user's, and says why that failed if it did.
    pub(crate) fn probe(self, spec: &Spec) -> Result<(), String> {
        let mut command = match self {
            // The helper sets everything up and, told it is a probe, runs
            // nothing.
            Backend::Namespaces => {
                let mut command = Command::new(HELPER_EXE);
                command
                    .arg(HELPER_ARG)
                    .arg(serde_json::to_string(spec).map_err(|e| e.to_string())?);
                command
            }
            // Seatbelt has no setup of its own: a program run under the
            // profile is the probe.
            Backend::Seatbelt => self
                .command(spec, Path::new("/usr/bin/true"))
                .map_err(|e| format!("could not write the sandbox's rules: {e}"))?,
        };
        let out = command
            .env_clear()
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("could not start the sandbox ({}): {e}", self.describe()))?;
        if out.status.success() {
            return Ok(());
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        Err(super::spec::setup_failure(out.status.code(), &stderr)
            .map(str::to_string)
            .unwrap_or_else(|| match self {
                Backend::Namespaces => format!("the sandbox helper failed ({})", out.status),
                Backend::Seatbelt => format!(
                    "sandbox-exec refused the profile ({}): {}",
                    out.status,
                    stderr.trim()
                ),
            }))
    }
}

/// Why this build has no backend here, naming the platform.
pub(crate) fn none_here() -> String {
    match std::env::consts::OS {
        "linux" => "this build of skillpkg has no Linux sandbox (it was built without the `linux-sandbox` feature)".to_string(),
        os => format!("skillpkg has no sandbox for {os} yet"),
    }
}
