//! `skillpkg update [names] [--dry-run]`

use crate::ops::install::Action;

use super::{Context, ExitStatus};

/// Move locked versions to the newest that skills.toml allows.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Packages to update (default: all).
    packages: Vec<String>,
    /// Only say what would change.
    #[arg(long)]
    dry_run: bool,
    /// Take versions from this channel and those above it, for packages
    /// whose entry in skills.toml names no channel (default: published).
    #[arg(long, value_enum, value_name = "CHANNEL")]
    channel: Option<crate::index::channel::Channel>,
    /// Accept a git skill's new commit signed by another of the signers
    /// its `signed-by` names than the locked commit was.
    #[arg(long)]
    allow_signer_change: bool,
    #[command(flatten)]
    flags: super::install::InstallFlags,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let project = context.project(args.flags.global)?;
    let changes = crate::ops::install::update(
        &project,
        &dirs,
        &args.packages,
        match args.dry_run {
            true => crate::ops::install::Mode::DryRun,
            false => crate::ops::install::Mode::Apply,
        },
        crate::ops::install::InstallOptions {
            channel: args.channel,
            allow_signer_change: args.allow_signer_change,
            ..args.flags.options(false, context)
        },
    )?;
    if args.dry_run {
        let pins: Vec<_> = changes.iter().filter_map(|c| c.yanked.clone()).collect();
        super::install::warn_yanked(context, &pins);
        for change in &changes {
            let verb = match change.action {
                Action::Installed => "install",
                Action::Updated => "update",
                Action::Removed => "remove",
                Action::Unchanged => continue,
            };
            context.printer.status(
                "Would",
                format_args!("{verb} {} {}", change.name, change.shown()),
            );
        }
        if changes.iter().all(|c| c.action == Action::Unchanged) {
            context.printer.status(
                "Up-to-date",
                "every package is at the newest allowed version",
            );
        }
    } else {
        super::install::report(context, &changes);
        super::install::report_targets(context, &project, &changes);
    }
    Ok(ExitStatus::Success)
}
