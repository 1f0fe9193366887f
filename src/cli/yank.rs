//! `skillpkg yank org/name@version`

use super::{Context, ExitStatus};

/// Mark a published version as yanked (or, with --undo, not yanked).
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The version to yank: org/name@version.
    package: String,
    /// The index: a folder, a git repository path, or a git URL.
    #[arg(long)]
    index: String,
    /// Un-yank the version.
    #[arg(long)]
    undo: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let index = super::publish::resolve_index(&args.index, &context.cwd);
    let cache = context.dirs()?.cache.clone();
    let changed = crate::ops::publish::yank(&args.package, &index, args.undo, &cache)?;
    let verb = if args.undo { "Unyanked" } else { "Yanked" };
    if changed {
        context.printer.status(verb, &args.package);
    } else {
        let state = if args.undo {
            "not yanked"
        } else {
            "already yanked"
        };
        context
            .printer
            .warn(format_args!("{} is {state}; nothing changed", args.package));
    }
    Ok(ExitStatus::Success)
}
