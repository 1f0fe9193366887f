//! `skillpkg index init`

use std::path::PathBuf;

use anyhow::bail;

use super::{Context, ExitStatus};

/// Manage an index.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(subcommand)]
    command: IndexCommand,
}

#[derive(Debug, clap::Subcommand)]
enum IndexCommand {
    /// Create an index (a folder, or a new git repository with --git); with
    /// --org and --key, also allow that key to sign the org's packages.
    Init(InitArgs),
}

#[derive(Debug, clap::Args)]
struct InitArgs {
    /// The index directory (with --git: the repository; bare if it ends in `.git`).
    dir: PathBuf,
    /// Create a git repository holding the index.
    #[arg(long)]
    git: bool,
    /// An organisation whose signing key to register.
    #[arg(long, requires = "key")]
    org: Option<String>,
    /// The org's minisign public key: a `.pub` file or its base64 line.
    #[arg(long, requires = "org")]
    key: Option<String>,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let IndexCommand::Init(args) = args.command;
    let dir = context.cwd.join(&args.dir);
    let org_key = match (&args.org, &args.key) {
        (Some(org), Some(key)) => Some((org.as_str(), key.as_str())),
        (None, None) => None,
        _ => bail!("--org and --key go together"),
    };
    crate::ops::publish::init_index(&dir, args.git, org_key)?;
    let kind = if args.git { "git index" } else { "index" };
    context
        .printer
        .status("Created", format_args!("{kind} at {}", dir.display()));
    if let Some(org) = &args.org {
        context
            .printer
            .status("Trusted", format_args!("the given key for org '{org}'"));
    }
    Ok(ExitStatus::Success)
}
