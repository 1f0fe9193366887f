//! `skillpkg yank org/name@version`

use super::{Context, ExitStatus};

/// Mark a published version as yanked (or, with --undo, not yanked).
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The version to yank: org/name@version.
    package: String,
    /// The index: a folder, a git repository path, a git URL, or an OCI
    /// registry namespace (oci://HOST/NAMESPACE).
    #[arg(long)]
    index: String,
    /// Un-yank the version.
    #[arg(long)]
    undo: bool,
    /// For an OCI index, whose yank state the org signs: the minisign
    /// secret key (default: the config directory's skillpkg.key).
    #[arg(long, value_name = "FILE")]
    key: Option<std::path::PathBuf>,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let index = super::publish::resolve_index(&args.index, &context.cwd);
    let dirs = context.dirs()?.clone();
    let key = match &args.key {
        Some(key) => Some(context.cwd.join(key)),
        None => Some(dirs.config.join("skillpkg.key")).filter(|default| default.is_file()),
    };
    let changed =
        crate::ops::publish::yank(&args.package, &index, args.undo, key.as_deref(), &dirs)?;
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
