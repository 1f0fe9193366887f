//! `skillpkg export plugin`

use std::path::PathBuf;

use super::{Context, ExitStatus};
use crate::ops::plugin::export::{ExportRequest, export_plugin};

/// Write the project's locked skills out for other tools.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(subcommand)]
    command: ExportCommand,
}

#[derive(Debug, clap::Subcommand)]
enum ExportCommand {
    /// Write the locked skills as an Agent Plugin folder (plugin.json and
    /// skills/), for agents that load Agent Plugins.
    Plugin(PluginArgs),
}

/// Write the skills skills.lock pins, as installed and verified against
/// it, into OUT as an Agent Plugin (Agent Plugins 1.0.0): OUT/plugin.json
/// and OUT/skills/<name>/. A skill edited since it was installed, or
/// missing, is refused by name; nothing is written unless every skill
/// verifies.
#[derive(Debug, clap::Args)]
struct PluginArgs {
    /// The plugin folder to write (made if it is not there; an empty
    /// folder is filled).
    out: PathBuf,
    /// The plugin's name: 1 to 64 of a-z, 0-9, '-' and '.'.
    #[arg(long)]
    name: String,
    /// The plugin's version (semver recommended).
    #[arg(long)]
    version: String,
    /// The plugin's description.
    #[arg(long)]
    description: Option<String>,
    /// Replace OUT when it is a plugin folder written before (it holds a
    /// plugin.json).
    #[arg(long)]
    force: bool,
    /// Export the user's global skills instead of the project's.
    #[arg(long, short = 'g')]
    global: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let ExportCommand::Plugin(args) = args.command;
    let project = context.project(args.global)?;
    let out = context.cwd.join(&args.out);
    let request = ExportRequest {
        out: &out,
        given: &args.out,
        name: &args.name,
        version: &args.version,
        description: args.description.as_deref(),
        force: args.force,
    };
    let exported = export_plugin(&project, request)?;
    context.printer.status(
        "Exported",
        format_args!(
            "{} ({}) as the Agent Plugin {} {} in {}{}",
            super::printer::count(exported.skills.len(), "skill"),
            exported.skills.join(", "),
            args.name,
            args.version,
            args.out.display(),
            match exported.replaced {
                true => ", replacing the plugin that was there",
                false => "",
            }
        ),
    );
    Ok(ExitStatus::Success)
}
