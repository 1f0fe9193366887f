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
//! namespaces plus Landlock (see `helper.rs`); on macOS through
//! `sandbox-exec` with a profile written from the same spec
//! (`seatbelt.rs`). Elsewhere, or where the kernel refuses, the sandbox is
//! unavailable and every command is refused, after one warning (with
//! `--require-sandbox`, the run is): nothing runs unconfined unless the
//! user passes `--sandbox off`.

pub(crate) mod backend;
pub(crate) mod changes;
pub(crate) mod confine;
#[cfg(linux_sandbox)]
pub(crate) mod helper;
pub(crate) mod process;
pub(crate) mod protected;
pub(crate) mod seatbelt;
#[cfg(linux_sandbox)]
mod seccomp;
pub(crate) mod spec;
pub(crate) mod stores;
#[cfg(linux_sandbox)]
#[allow(unsafe_code)]
mod sys;
pub(crate) mod write_beneath;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde_json::json;

use crate::hint::Hinted;
pub(crate) use backend::Backend;
pub(crate) use protected::ProtectedPaths;
pub(crate) use spec::Spec;
use spec::{Bind, Fresh};

/// Variables a sandboxed command gets from skillpkg's environment, besides
/// `LC_*`, the private `TMPDIR`, skillpkg's own (`SKILL_DIR`) and those
/// passed on purpose.
const PASSED_ENV: [&str; 5] = ["PATH", "HOME", "LANG", "TERM", "USER"];

/// The mode of a fresh `/run`: readable, written by nobody.
const RUN_MODE: u32 = 0o755;

/// Folders every command sees fresh and empty, where they exist, with
/// their modes: where sockets of the user's and the system's services
/// live (a tmux server, an ssh agent, D-Bus, container engines).
const FRESH: [(&str, u32); 5] = [
    ("/tmp", 0o1777),
    ("/var/tmp", 0o1777),
    ("/dev/shm", 0o1777),
    ("/run", RUN_MODE),
    ("/var/run", RUN_MODE),
];

/// Folders no home directory may be or hold: covering them would take
/// the system away.
const SYSTEM: [&str; 7] = ["/usr", "/etc", "/bin", "/lib", "/sbin", "/opt", "/proc"];

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
    /// Home folders commands see fresh and empty (the `HOME` variable's
    /// and the account's), canonical.
    pub homes: Vec<PathBuf>,
    /// Folders commands may read that they would not see otherwise
    /// (`--read`, `[agent] sandbox_read`).
    pub read: Vec<PathBuf>,
    /// Configuration that starts commands which commands may write all
    /// the same (`--allow-write`), canonical.
    pub allow_write: Vec<PathBuf>,
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
            homes: Vec::new(),
            read: Vec::new(),
            allow_write: Vec::new(),
            available: Err("the sandbox is off".into()),
            warn: Warn::default(),
        }
    }

    /// Before a command runs: where the sandbox is wanted but cannot be
    /// set up, why the command is refused (the model gets it as the
    /// tool's error), after the one warning of the process that tells the
    /// user the same and what to do. Nothing runs unconfined unless the
    /// user turned the sandbox off.
    pub fn refusal_if_unavailable(&self) -> Option<String> {
        static WARNED: AtomicBool = AtomicBool::new(false);
        let Err(why) = &self.available else {
            return None;
        };
        if self.mode == SandboxMode::Off {
            return None;
        }
        if let Some(warn) = &self.warn.0
            && !WARNED.swap(true, Ordering::SeqCst)
        {
            warn(&format!(
                "the sandbox for scripts and shell commands cannot be set up here ({why}), so they are refused; {}",
                unsandboxed_choices()
            ));
        }
        Some(format!(
            "the sandbox for scripts and shell commands cannot be set up on {}, so nothing ran: {why}",
            std::env::consts::OS
        ))
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
                .filter(|(k, _)| !process::is_secret(&k.to_string_lossy()))
                .collect();
        }
        let mut env = allowed_environment(&self.pass_env);
        if let Some(tmpdir) = tmpdir {
            env.retain(|(key, _)| key != "TMPDIR");
            env.push(("TMPDIR".into(), tmpdir.into()));
        }
        env
    }

    /// What a command in `workspace` may do.
    pub fn spec(&self, workspace: &Path, tmpdir: &Path, skill_dirs: &[PathBuf]) -> Spec {
        let writes_workspace = self.mode == SandboxMode::WorkspaceWrite;
        let skills: Vec<PathBuf> = self.protected.iter().chain(skill_dirs).cloned().collect();
        let fresh = fresh_folders(&self.homes, workspace);
        let mut writable = vec![tmpdir.to_path_buf()];
        writable.extend(
            fresh
                .iter()
                .filter(|f| f.mode != RUN_MODE)
                .map(|f| f.path.clone()),
        );
        let mut read_only = Vec::new();
        if writes_workspace {
            writable.push(workspace.to_path_buf());
            read_only = ProtectedPaths {
                workspace,
                skills: &skills,
                allow_write: &self.allow_write,
            }
            .existing();
        }
        let mut bound = vec![
            Bind {
                path: workspace.to_path_buf(),
                writable: writes_workspace,
            },
            Bind {
                path: tmpdir.to_path_buf(),
                writable: true,
            },
        ];
        let read_back = skills
            .iter()
            .cloned()
            .chain(self.homes.iter().flat_map(|home| stores::toolchains(home)))
            .chain(self.read.iter().cloned())
            .chain(self.network.then(resolver_files).into_iter().flatten());
        bound.extend(
            read_back
                .filter_map(|path| std::fs::canonicalize(path).ok())
                .map(|path| Bind {
                    path,
                    writable: false,
                }),
        );
        let hidden = self
            .hidden
            .iter()
            .filter_map(|path| std::fs::canonicalize(path).ok())
            // Never over what the command works in.
            .filter(|secret| {
                !writable
                    .iter()
                    .chain(&skills)
                    .any(|used| used.starts_with(secret))
            })
            .collect();
        Spec {
            bound: bound_back(bound, &fresh),
            fresh,
            writable,
            read_only,
            allow_write: match writes_workspace {
                true => self.allow_write.clone(),
                false => Vec::new(),
            },
            hidden,
            workdir: Some(workspace.to_path_buf()),
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
        let backend = Backend::of_platform().filter(|_| self.active());
        let mut command = match (tmpdir, backend) {
            (Some(tmpdir), Some(backend)) => {
                backend.command(&self.spec(workspace, tmpdir, skill_dirs), program)?
            }
            _ => Command::new(program),
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

/// The folders commands see fresh and empty: `/tmp`, `/var/tmp`,
/// `/dev/shm`, `/run` (and `/var/run` where it is no link to it), and the
/// `homes`; canonical, existing, none that holds a system folder or is
/// the workspace or a folder inside it.
fn fresh_folders(homes: &[PathBuf], workspace: &Path) -> Vec<Fresh> {
    let mut fresh: Vec<Fresh> = FRESH
        .iter()
        .map(|(path, mode)| (PathBuf::from(path), *mode))
        .chain(homes.iter().map(|home| (home.clone(), 0o700)))
        .filter_map(|(path, mode)| {
            let path = std::fs::canonicalize(path).ok()?;
            let is_dir = std::fs::metadata(&path).is_ok_and(|m| m.is_dir());
            let holds_system = SYSTEM.iter().any(|s| Path::new(s).starts_with(&path));
            (is_dir && !holds_system && !path.starts_with(workspace))
                .then_some(Fresh { path, mode })
        })
        .collect();
    fresh.sort_by(|a, b| a.path.cmp(&b.path));
    fresh.dedup_by(|a, b| a.path == b.path);
    fresh
}

/// The binds that lie inside a fresh folder (others are in place
/// already), outermost first, none beneath another.
fn bound_back(mut bound: Vec<Bind>, fresh: &[Fresh]) -> Vec<Bind> {
    bound.retain(|bind| {
        fresh
            .iter()
            .any(|f| bind.path.starts_with(&f.path) && bind.path != f.path)
    });
    bound.sort_by(|a, b| a.path.cmp(&b.path).then(b.writable.cmp(&a.writable)));
    let mut kept: Vec<Bind> = Vec::new();
    for bind in bound {
        if !kept.iter().any(|k| bind.path.starts_with(&k.path)) {
            kept.push(bind);
        }
    }
    kept
}

/// What name resolution reads that may lie in a fresh folder
/// (`/etc/resolv.conf` is often a link into `/run`).
fn resolver_files() -> Vec<PathBuf> {
    ["/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf"]
        .into_iter()
        .map(PathBuf::from)
        .collect()
}

/// What sandboxed commands may not read: skillpkg's `config` dir, the
/// credential stores of `home` and wherever their tools' variables put
/// them, the user's runtime folder (agent sockets) and the Docker socket.
pub(crate) fn secret_stores(home: Option<&Path>, config: &Path) -> Vec<PathBuf> {
    let mut paths = vec![config.to_path_buf()];
    paths.extend(stores::credential_stores(home, |name| {
        std::env::var_os(name)
    }));
    #[cfg(unix)]
    {
        let uid = rustix::process::getuid().as_raw();
        paths.push(PathBuf::from(format!("/run/user/{uid}")));
        paths.extend(["/run/docker.sock", "/var/run/docker.sock"].map(PathBuf::from));
    }
    paths
}

/// The home folders commands see fresh: `home` (the `HOME` variable's)
/// and the account's own, from `/etc/passwd`, when it differs.
pub(crate) fn homes(home: Option<&Path>) -> Vec<PathBuf> {
    #[cfg(unix)]
    let account = std::fs::read_to_string("/etc/passwd")
        .ok()
        .and_then(|passwd| stores::home_of(&passwd, rustix::process::getuid().as_raw()));
    #[cfg(not(unix))]
    let account: Option<PathBuf> = None;
    let mut homes: Vec<PathBuf> = home
        .map(Path::to_path_buf)
        .into_iter()
        .chain(account)
        .filter_map(|home| std::fs::canonicalize(home).ok())
        .collect();
    homes.dedup();
    homes
}

/// Refuses a workspace where the sandbox would protect little: the home
/// directory (or a folder above it), or one holding skillpkg's config dir.
pub(crate) fn check_workspace(
    workspace: &Path,
    home: Option<&Path>,
    config: &Path,
) -> Result<(), Hinted> {
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
pub(crate) fn availability() -> Result<(), String> {
    static PROBE: OnceLock<Result<(), String>> = OnceLock::new();
    PROBE.get_or_init(probe).clone()
}

fn probe() -> Result<(), String> {
    let hook = crate::env_vars::SKILLPKG_SANDBOX_UNAVAILABLE;
    if std::env::var_os(hook).is_some_and(|v| !v.is_empty()) {
        return Err(format!("{hook} is set (a test hook)"));
    }
    let Some(backend) = Backend::of_platform() else {
        return Err(backend::none_here());
    };
    let dir = crate::fsutil::private_tempdir("skillpkg-probe-", None)
        .map_err(|e| format!("could not create a temporary folder: {e}"))?;
    // Every step of a real command: a fresh folder with a path put back
    // in it, a protected path, a hidden one.
    let (protected, secret) = (dir.path().join("protected"), dir.path().join("secret"));
    let (covered, inner) = (dir.path().join("fresh"), dir.path().join("fresh/inner"));
    for path in [&protected, &secret, &inner] {
        std::fs::create_dir_all(path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let spec = Spec {
        fresh: vec![Fresh {
            path: covered,
            mode: 0o700,
        }],
        bound: vec![Bind {
            path: inner,
            writable: false,
        }],
        writable: vec![dir.path().to_path_buf()],
        read_only: vec![protected],
        allow_write: Vec::new(),
        hidden: vec![secret],
        workdir: Some(dir.path().to_path_buf()),
        network: false,
        probe: true,
    };
    backend.probe(&spec)
}

/// skillpkg's environment through the allow-list (`PATH`, `HOME`, `LANG`,
/// `LC_*`, …) and the variables in `pass_env`: what a sandboxed command
/// gets (besides its private `TMPDIR`), and what an MCP server
/// `exec --mcp-skills` starts gets.
pub(crate) fn allowed_environment(pass_env: &[String]) -> Vec<(OsString, OsString)> {
    std::env::vars_os()
        .filter(|(key, _)| {
            let key = key.to_string_lossy();
            PASSED_ENV.contains(&key.as_ref())
                || key.starts_with("LC_")
                || pass_env.iter().any(|name| *name == key)
        })
        .collect()
}

/// What a user can do where there is no sandbox: turn it off (each
/// command still asks for approval), or run skillpkg where there is one.
pub(crate) fn unsandboxed_choices() -> &'static str {
    if cfg!(windows) {
        "pass --sandbox off to run them without it (each still asks for your approval), or run skillpkg inside WSL"
    } else {
        "pass --sandbox off to run them without it (each still asks for your approval), or run skillpkg in a container or VM where it can be set up"
    }
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
