//! The sandbox flags `exec` and `eval` share, and the sandbox they make
//! of them and of a trusted project's `[agent]` table.

use std::path::{Path, PathBuf};

use crate::agent::tools::sandbox::{self, Sandbox, SandboxMode, Warn};
use crate::hint::Hinted;
use crate::manifest::AgentSection;

use super::Context;

/// Where scripts and shell commands run.
#[derive(Debug, clap::Args)]
pub(super) struct SandboxArgs {
    /// What scripts and shell commands may write [default:
    /// workspace-write, or [agent] sandbox].
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
}

/// The sandbox of a run: the flags, else the (trusted) `[agent]` table
/// of `manifest`. Refuses a `workspace` where it would protect little;
/// where it cannot be set up, refuses with `--require-sandbox`, and
/// otherwise warns once, when the first command runs.
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
    let mode = args.sandbox.or(configured).unwrap_or_default();
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
            .hint("without --require-sandbox they run unsandboxed, after a warning")
        );
    }
    let printer = context.printer;
    let mut pass_env = args.pass_env.clone();
    pass_env.extend(agent.env.iter().cloned());
    Ok(Sandbox {
        mode,
        network: args.allow_network || agent.network == Some(true),
        pass_env,
        protected,
        hidden,
        available,
        warn: Warn::new(move |message| printer.warn(message)),
    })
}
