//! `skillpkg trust <org> --key KEY`

use super::{Context, ExitStatus};

/// Trust a new signing key for an org (replacing the key skills.lock pinned).
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The organisation.
    org: String,
    /// Its minisign public key: a `.pub` file or its base64 line.
    #[arg(long)]
    key: String,
    /// The user's global skills instead of the project's.
    #[arg(long, short = 'g')]
    global: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let project = context.project(args.global)?;
    let previous = crate::ops::trust::trust(&project, &args.org, &args.key)?;
    for old in previous {
        context
            .printer
            .status("Replaced", format_args!("key {old} of org '{}'", args.org));
    }
    context
        .printer
        .status("Trusted", format_args!("the new key of org '{}'", args.org));
    Ok(ExitStatus::Success)
}
