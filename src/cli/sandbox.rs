//! The sandbox flags `exec` and `eval` share, and the sandbox they make
//! of them and of a trusted project's `[agent]` table.

use std::path::{Path, PathBuf};

use crate::hint::Hinted;
use crate::manifest::AgentSection;
use crate::sandbox::{self, Sandbox, SandboxMode, Warn};

use super::Context;

/// Where scripts and shell commands run.
#[derive(Debug, clap::Args)]
pub(super) struct SandboxArgs {
    /// What scripts and shell commands may write [default:
    /// workspace-write, or SKILLPKG_SANDBOX, or [agent] sandbox].
    #[arg(long, value_enum, value_name = "MODE")]
    sandbox: Option<SandboxMode>,
    /// Refuse to run when the sandbox cannot be set up on this machine.
    #[arg(long)]
    require_sandbox: bool,
    /// Let scripts and shell commands use the network.
    #[arg(long)]
    allow_network: bool,
    /// Pass this environment variable to scripts and shell commands (repeatable).
    #[arg(long, value_name = "VAR")]
    pass_env: Vec<String>,
    /// Let scripts and shell commands read this folder, which the sandbox
    /// hides otherwise (repeatable; credential files in it stay hidden).
    #[arg(long = "read", value_name = "PATH")]
    read: Vec<PathBuf>,
    /// Let scripts, shell commands and the model write this .git folder or
    /// this agent's or editor's configuration (.claude/settings.json,
    /// .vscode/, .envrc, …) in the workspace (repeatable).
    #[arg(long, value_name = "PATH")]
    allow_write: Vec<PathBuf>,
}

impl SandboxArgs {
    /// The variables passed on purpose: `--pass-env`, then a trusted
    /// project's `[agent] env`.
    pub(super) fn passed_env(&self, agent: &AgentSection) -> Vec<String> {
        self.pass_env.iter().chain(&agent.env).cloned().collect()
    }
}

/// The sandbox of a run: the flags, else the (trusted) `[agent]` table
/// of `manifest`. Refuses a `workspace` where it would protect little;
/// where it cannot be set up, refuses with `--require-sandbox`, and
/// otherwise refuses each command, warning once when the first is.
pub(super) fn sandbox(
    args: &SandboxArgs,
    agent: &AgentSection,
    manifest: &Path,
    context: &mut Context,
    workspace: Option<&Path>,
    protected: Vec<PathBuf>,
) -> anyhow::Result<Sandbox> {
    let configured = match &agent.sandbox {
        None => None,
        Some(name) => Some(SandboxMode::from_name(name).ok_or_else(|| {
            Hinted::new(format!(
                "{}: [agent] sandbox = {name:?} is not a sandbox mode",
                manifest.display()
            ))
            .hint("use \"workspace-write\", \"read-only\" or \"off\"")
        })?),
    };
    let variable = crate::env_vars::SKILLPKG_SANDBOX;
    // --require-sandbox asks for the sandbox a standing `off` turns off:
    // the flag wins.
    let standing = crate::env_vars::non_blank(variable).filter(|_| !args.require_sandbox);
    let chosen = match standing {
        None => None,
        Some(name) => Some(SandboxMode::from_name(name.trim()).ok_or_else(|| {
            Hinted::new(format!("{variable}={name:?} is not a sandbox mode"))
                .hint("use \"workspace-write\", \"read-only\" or \"off\"")
        })?),
    };
    let mode = args.sandbox.or(chosen).or(configured).unwrap_or_default();
    if mode == SandboxMode::Off {
        if args.require_sandbox {
            anyhow::bail!(
                Hinted::new("--require-sandbox asks for the sandbox that --sandbox off turns off")
                    .hint("drop one of the two")
            );
        }
        return Ok(Sandbox::off());
    }
    let dirs = context.dirs()?;
    if let Some(workspace) = workspace {
        sandbox::check_workspace(workspace, dirs.home.as_deref(), &dirs.config)?;
    }
    let hidden = sandbox::secret_stores(dirs.home.as_deref(), &dirs.config);
    let available = sandbox::availability();
    if let (Err(why), true) = (&available, args.require_sandbox) {
        anyhow::bail!(
            Hinted::new(format!(
                "the sandbox for scripts and shell commands cannot be set up here: {why}"
            ))
            .hint("without --require-sandbox, exec runs and refuses each command; --sandbox off runs them without the sandbox")
        );
    }
    let home = dirs.home.clone();
    let printer = context.printer;
    let pass_env = args.passed_env(agent);
    let homes = sandbox::homes(home.as_deref());
    let read = readable(args, agent, manifest, home.as_deref())?;
    let base = workspace.map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let allow_write = args
        .allow_write
        .iter()
        .map(|path| allowed_write(&base, path))
        .collect::<anyhow::Result<_>>()?;
    Ok(Sandbox {
        mode,
        network: args.allow_network || agent.network == Some(true),
        pass_env,
        protected,
        hidden,
        homes,
        read,
        allow_write,
        available,
        warn: Warn::new(move |message| printer.warn(message)),
    })
}

/// The folders `--read` and a trusted project's `[agent] sandbox_read`
/// add, each of which must exist.
fn readable(
    args: &SandboxArgs,
    agent: &AgentSection,
    manifest: &Path,
    home: Option<&Path>,
) -> anyhow::Result<Vec<PathBuf>> {
    let project = manifest.parent().unwrap_or(Path::new("."));
    let from_manifest = agent.sandbox_read.iter().map(|entry| {
        let path = match (entry.strip_prefix("~/"), home) {
            (Some(rest), Some(home)) => home.join(rest),
            _ => project.join(entry),
        };
        (
            path,
            format!("{}: [agent] sandbox_read {entry:?}", manifest.display()),
        )
    });
    let from_flags = args
        .read
        .iter()
        .map(|path| (path.clone(), format!("--read {}", path.display())));
    from_flags
        .chain(from_manifest)
        .map(|(path, named)| {
            std::fs::canonicalize(&path).map_err(|e| {
                Hinted::new(format!("{named}: {}: {e}", path.display()))
                    .hint("name a folder that exists")
                    .into()
            })
        })
        .collect()
}

/// `path` resolved: itself canonical when it exists, else its nearest
/// existing parent canonical with the rest joined on.
/// The folder `--allow-write PATH` lets commands write, canonical. A path
/// inside the workspace that leads through a link is refused: a cloned
/// repository could plant `.vscode -> .git`, so that allowing what looks
/// like an editor's settings would lift the protection of `.git`.
fn allowed_write(base: &Path, path: &Path) -> anyhow::Result<PathBuf> {
    let joined = base.join(path);
    let target = resolved(&joined);
    let Ok(relative) = joined.strip_prefix(base) else {
        return Ok(target);
    };
    if crate::fsutil::lexically_normal(&resolved(base).join(relative)) != target {
        anyhow::bail!(
            Hinted::new(format!(
                "--allow-write {}: it leads through a link, to {}",
                path.display(),
                target.display()
            ))
            .hint(format!(
                "if commands may write there, name it as it is: --allow-write {}",
                crate::hint::shell_path(&target)
            ))
        );
    }
    Ok(target)
}

fn resolved(path: &Path) -> PathBuf {
    if let Ok(canonical) = std::fs::canonicalize(path) {
        return canonical;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => resolved(parent).join(name),
        _ => path.to_path_buf(),
    }
}
