//! The sandbox of scripts and shell commands (DESIGN §11, docs/sandbox.md):
//! they write only the workspace and a private `TMPDIR`, with `.git/`,
//! `.skillpkg/`, the skill roots, `skills.toml` and `skills.lock` kept
//! read-only; they cannot read skillpkg's config dir or the common
//! credential stores; they get no network unless allowed, an environment
//! built from an allow-list, and they end with the command, detached
//! processes included.
//!
//! On Linux, skillpkg runs each command through its own binary started
//! as a helper ([`spec::HELPER_ARG`]): user, mount, PID and network
//! namespaces plus Landlock (see `helper.rs`). Elsewhere, or where the
//! kernel refuses, the sandbox is unavailable: the caller warns once, or
//! refuses to run with `--require-sandbox`.

#[cfg(target_os = "linux")]
pub mod helper;
pub mod spec;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde_json::json;

use crate::hint::Hinted;
pub use spec::Spec;
use spec::{HELPER_ARG, HELPER_PREFIX, SETUP_FAILED};

/// The program the helper is: this very binary, even if replaced on disk.
const HELPER_EXE: &str = "/proc/self/exe";

/// Variables a sandboxed command gets from skillpkg's environment, besides
/// `LC_*`, the private `TMPDIR`, skillpkg's own (`SKILL_DIR`) and those
/// passed on purpose.
const PASSED_ENV: [&str; 5] = ["PATH", "HOME", "LANG", "TERM", "USER"];

/// Credential stores under the home directory that commands may not read.
const SECRET_STORES: [&str; 14] = [
    ".ssh",
    ".aws",
    ".gnupg",
    ".netrc",
    ".git-credentials",
    ".docker/config.json",
    ".kube",
    ".config/gh",
    ".config/gcloud",
    ".azure",
    ".npmrc",
    ".pypirc",
    ".cargo/credentials",
    ".cargo/credentials.toml",
];

/// How much a sandboxed command may write.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum SandboxMode {
    /// The workspace (less .git/, .skillpkg/, skills, skills.toml and
    /// skills.lock) and a private TMPDIR.
    #[default]
    WorkspaceWrite,
    /// Only a private TMPDIR.
    ReadOnly,
    /// No sandbox: the command runs with skillpkg's rights and its
    /// environment minus secrets.
    Off,
}

impl SandboxMode {
    /// The name used on the command line and in `skills.toml`.
    pub fn name(self) -> &'static str {
        match self {
            SandboxMode::WorkspaceWrite => "workspace-write",
            SandboxMode::ReadOnly => "read-only",
            SandboxMode::Off => "off",
        }
    }

    /// The mode of a name, if it is one.
    pub fn from_name(name: &str) -> Option<SandboxMode> {
        [
            SandboxMode::WorkspaceWrite,
            SandboxMode::ReadOnly,
            SandboxMode::Off,
        ]
        .into_iter()
        .find(|mode| mode.name() == name)
    }
}

/// The sandbox of a run: what was asked for, and whether it can be set up.
#[derive(Debug, Clone)]
pub struct Sandbox {
    /// How much commands may write.
    pub mode: SandboxMode,
    /// Whether commands may use the network.
    pub network: bool,
    /// Variables passed on purpose (`--pass-env`, `[agent] env`).
    pub pass_env: Vec<String>,
    /// Folders that stay read-only when inside the workspace (the skill
    /// roots), besides `.git/`, `.skillpkg/`, every `.X/skills`, the
    /// manifest and the lock.
    pub protected: Vec<PathBuf>,
    /// What commands may not read: credential stores, the config dir.
    pub hidden: Vec<PathBuf>,
    /// `Ok` when the sandbox can be set up here, else why not.
    pub available: Result<(), String>,
    /// Says, once per process, that a command runs without the sandbox
    /// because it cannot be set up.
    pub warn: Warn,
}

/// What prints a warning for the user.
type WarnFn = dyn Fn(&str) + Send + Sync;

/// A way to warn the user, from wherever commands run.
#[derive(Clone, Default)]
pub struct Warn(Option<Arc<WarnFn>>);

impl Warn {
    /// Warns through `warn`.
    pub fn new(warn: impl Fn(&str) + Send + Sync + 'static) -> Warn {
        Warn(Some(Arc::new(warn)))
    }
}

impl std::fmt::Debug for Warn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Warn(..)"
        } else {
            "Warn(none)"
        })
    }
}

impl Sandbox {
    /// No sandbox: commands run as skillpkg's own children.
    pub fn off() -> Sandbox {
        Sandbox {
            mode: SandboxMode::Off,
            network: true,
            pass_env: Vec::new(),
            protected: Vec::new(),
            hidden: Vec::new(),
            available: Err("the sandbox is off".into()),
            warn: Warn::default(),
        }
    }

    /// Before a command runs: where the sandbox is wanted but cannot be
    /// set up, the one warning of the process says so.
    pub fn warn_if_unavailable(&self) {
        static WARNED: AtomicBool = AtomicBool::new(false);
        let (Some(warn), Err(why)) = (&self.warn.0, &self.available) else {
            return;
        };
        if self.mode != SandboxMode::Off && !WARNED.swap(true, Ordering::SeqCst) {
            warn(&format!(
                "the sandbox for scripts and shell commands cannot be set up here ({why}); they run without it"
            ));
        }
    }

    /// Whether commands run inside the sandbox.
    pub fn active(&self) -> bool {
        self.mode != SandboxMode::Off && self.available.is_ok()
    }

    /// What the audit's `start` event records.
    pub fn audit(&self) -> serde_json::Value {
        json!({
            "mode": self.mode,
            "network": self.network,
            "pass_env": self.pass_env,
            "set_up": self.active(),
            "unavailable": self.available.as_ref().err().filter(|_| self.mode != SandboxMode::Off),
        })
    }

    /// The environment of a command: with the sandbox (even when it could
    /// not be set up), the allow-list, the variables passed on purpose and
    /// the private `TMPDIR`; with it off, skillpkg's environment minus
    /// what looks like a secret.
    pub fn environment(&self, tmpdir: Option<&Path>) -> Vec<(OsString, OsString)> {
        let vars = std::env::vars_os();
        if self.mode == SandboxMode::Off {
            return vars
                .filter(|(k, _)| !super::process::is_secret(&k.to_string_lossy()))
                .collect();
        }
        let mut env: Vec<(OsString, OsString)> = vars
            .filter(|(key, _)| {
                let key = key.to_string_lossy();
                PASSED_ENV.contains(&key.as_ref())
                    || key.starts_with("LC_")
                    || self.pass_env.iter().any(|name| *name == key)
            })
            .collect();
        if let Some(tmpdir) = tmpdir {
            env.retain(|(key, _)| key != "TMPDIR");
            env.push(("TMPDIR".into(), tmpdir.into()));
        }
        env
    }

    /// What a command in `workspace` may do.
    pub fn spec(&self, workspace: &Path, tmpdir: &Path, skill_dirs: &[PathBuf]) -> Spec {
        let mut writable = vec![tmpdir.to_path_buf()];
        let mut read_only = Vec::new();
        if self.mode == SandboxMode::WorkspaceWrite {
            writable.push(workspace.to_path_buf());
            read_only = protected_paths(workspace, self.protected.iter().chain(skill_dirs));
        }
        let hidden = self
            .hidden
            .iter()
            .filter_map(|path| std::fs::canonicalize(path).ok())
            // Never over what the command works in.
            .filter(|secret| {
                !writable
                    .iter()
                    .chain(skill_dirs)
                    .any(|used| used.starts_with(secret))
            })
            .collect();
        Spec {
            writable,
            read_only,
            hidden,
            network: self.network,
            probe: false,
        }
    }

    /// `program args…` in `workspace`, with `extra_env`: inside the
    /// sandbox when it is active, else directly; with the environment of
    /// [`Sandbox::environment`].
    pub fn command(
        &self,
        program: &Path,
        args: &[String],
        workspace: &Path,
        tmpdir: Option<&Path>,
        extra_env: &[(&str, &Path)],
        skill_dirs: &[PathBuf],
    ) -> std::io::Result<Command> {
        let mut command = match tmpdir.filter(|_| self.active()) {
            Some(tmpdir) => {
                let spec = serde_json::to_string(&self.spec(workspace, tmpdir, skill_dirs))
                    .map_err(std::io::Error::other)?;
                let mut command = Command::new(HELPER_EXE);
                command.arg(HELPER_ARG).arg(spec).arg(program);
                command
            }
            None => Command::new(program),
        };
        command
            .args(args)
            .current_dir(workspace)
            .env_clear()
            .envs(self.environment(tmpdir));
        for (key, value) in extra_env {
            command.env(key, value);
        }
        Ok(command)
    }
}

/// When a command's output says the helper could not set the sandbox up,
/// its message.
pub fn setup_failure(code: Option<i32>, stderr: &str) -> Option<&str> {
    (code == Some(SETUP_FAILED))
        .then(|| stderr.lines().find_map(|l| l.strip_prefix(HELPER_PREFIX)))
        .flatten()
}

/// The protected paths that exist in `workspace`, resolved and inside it:
/// `.git`, `.skillpkg`, `skills.toml`, `skills.lock`, every `.X/skills`
/// and the `roots` that lie in the workspace.
fn protected_paths<'p>(workspace: &Path, roots: impl Iterator<Item = &'p PathBuf>) -> Vec<PathBuf> {
    let fixed = [
        ".git",
        crate::project::STATE_DIR,
        crate::project::MANIFEST_FILE,
        crate::project::LOCK_FILE,
    ]
    .map(|name| workspace.join(name));
    let agents = std::fs::read_dir(workspace)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_string_lossy().starts_with('.'))
        .map(|entry| entry.path().join("skills"));
    let mut paths: Vec<PathBuf> = fixed
        .into_iter()
        .chain(agents)
        .chain(roots.cloned())
        .filter_map(|path| std::fs::canonicalize(path).ok())
        .filter(|path| path.starts_with(workspace) && path != workspace)
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// The credential stores of `home` and skillpkg's `config` dir, plus the
/// ssh agent's socket, the user's runtime folder (agent sockets) and the
/// Docker socket: what sandboxed commands may not read.
pub fn secret_stores(home: Option<&Path>, config: &Path) -> Vec<PathBuf> {
    let mut paths = vec![config.to_path_buf()];
    if let Some(home) = home {
        paths.extend(SECRET_STORES.iter().map(|store| home.join(store)));
    }
    if let Some(socket) = std::env::var_os("SSH_AUTH_SOCK") {
        paths.push(socket.into());
    }
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    paths.push(PathBuf::from(format!("/run/user/{uid}")));
    paths.extend(["/run/docker.sock", "/var/run/docker.sock"].map(PathBuf::from));
    paths
}

/// Refuses a workspace where the sandbox would protect little: the home
/// directory (or a folder above it), or one holding skillpkg's config dir.
pub fn check_workspace(workspace: &Path, home: Option<&Path>, config: &Path) -> Result<(), Hinted> {
    // Resolved, or (when it does not exist) its parent resolved.
    let canonical = |path: &Path| {
        std::fs::canonicalize(path)
            .or_else(|e| match (path.parent(), path.file_name()) {
                (Some(parent), Some(name)) => Ok(std::fs::canonicalize(parent)?.join(name)),
                _ => Err(e),
            })
            .unwrap_or_else(|_| path.into())
    };
    let workspace = canonical(workspace);
    let what = match home.map(canonical) {
        Some(home) if home == workspace => Some("is your home directory".to_string()),
        Some(home) if home.starts_with(&workspace) => {
            Some(format!("contains your home directory ({})", home.display()))
        }
        _ => {
            let config = canonical(config);
            config.starts_with(&workspace).then(|| {
                format!(
                    "contains skillpkg's config directory ({}), which holds credentials",
                    config.display()
                )
            })
        }
    };
    match what {
        None => Ok(()),
        Some(what) => Err(Hinted::new(format!(
            "refusing to run in {}: it {what}, and scripts and shell commands may write anywhere in the workspace",
            workspace.display()
        ))
        .hint("run skillpkg in a project's folder instead (cd into it first)")
        .hint("or, to run commands without any sandbox, pass --sandbox off")),
    }
}

/// Whether the sandbox can be set up here: the helper is run once per
/// process with every step of a real command but the command itself.
/// `SKILLPKG_SANDBOX_UNAVAILABLE` (a test hook) makes it unavailable.
pub fn availability() -> Result<(), String> {
    static PROBE: OnceLock<Result<(), String>> = OnceLock::new();
    PROBE.get_or_init(probe).clone()
}

fn probe() -> Result<(), String> {
    let hook = crate::env_vars::SKILLPKG_SANDBOX_UNAVAILABLE;
    if std::env::var_os(hook).is_some_and(|v| !v.is_empty()) {
        return Err(format!("{hook} is set (a test hook)"));
    }
    if !cfg!(target_os = "linux") {
        return Err("the sandbox needs Linux (Landlock and namespaces)".into());
    }
    let dir = tempfile::Builder::new()
        .prefix("skillpkg-probe-")
        .tempdir()
        .map_err(|e| format!("could not create a temporary folder: {e}"))?;
    let (protected, secret) = (dir.path().join("protected"), dir.path().join("secret"));
    for path in [&protected, &secret] {
        std::fs::create_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let spec = Spec {
        writable: vec![dir.path().to_path_buf()],
        read_only: vec![protected],
        hidden: vec![secret],
        network: false,
        probe: true,
    };
    let out = Command::new(HELPER_EXE)
        .arg(HELPER_ARG)
        .arg(serde_json::to_string(&spec).map_err(|e| e.to_string())?)
        .env_clear()
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("could not start the sandbox helper: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    Err(setup_failure(out.status.code(), &stderr)
        .map(str::to_string)
        .unwrap_or_else(|| format!("the sandbox helper failed ({})", out.status)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_round_trip_through_their_names() {
        for mode in [
            SandboxMode::WorkspaceWrite,
            SandboxMode::ReadOnly,
            SandboxMode::Off,
        ] {
            assert_eq!(SandboxMode::from_name(mode.name()), Some(mode));
        }
        assert_eq!(SandboxMode::from_name("none"), None);
    }

    #[test]
    fn the_protected_paths_are_those_that_exist_inside_the_workspace() {
        let dir = tempfile::tempdir().unwrap();
        let workspace = std::fs::canonicalize(dir.path()).unwrap();
        for folder in [
            ".git/hooks",
            ".claude/skills/x",
            ".cursor",
            "src",
            "vendor/skills",
        ] {
            std::fs::create_dir_all(workspace.join(folder)).unwrap();
        }
        std::fs::write(workspace.join("skills.toml"), "").unwrap();
        let roots = [workspace.join("vendor/skills"), PathBuf::from("/elsewhere")];
        let shown: Vec<String> = protected_paths(&workspace, roots.iter())
            .iter()
            .map(|p| p.strip_prefix(&workspace).unwrap().display().to_string())
            .collect();
        assert_eq!(
            shown,
            [".claude/skills", ".git", "skills.toml", "vendor/skills"]
        );
    }

    #[test]
    fn the_home_directory_and_the_config_dir_are_no_workspace() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let config = dir.path().join("config");
        let project = home.join("project");
        std::fs::create_dir_all(&project).unwrap();
        assert!(check_workspace(&project, Some(&home), &config).is_ok());
        for workspace in [&home, &dir.path().to_path_buf()] {
            assert!(check_workspace(workspace, Some(&home), &config).is_err());
        }
        let inside = project.join("config");
        assert!(check_workspace(&project, Some(&home), &inside).is_err());
    }
}
