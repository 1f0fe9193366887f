//! `skillpkg disable` and `skillpkg enable`

use super::{Context, ExitStatus};

/// Turn skills off or on without uninstalling them.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The skills: a skill's name, or a package's org/name.
    #[arg(required = true, value_name = "NAME")]
    names: Vec<String>,
    /// Work on the user's global skills instead of the project's.
    #[arg(long, short = 'g')]
    global: bool,
}

/// Runs `disable` (`enabled` false) or `enable`.
pub(super) fn run(args: Args, enabled: bool, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let project = context.project(args.global)?;
    let options = crate::ops::install::InstallOptions {
        progress: &context.progress,
        ..Default::default()
    };
    let toggled = crate::ops::enable::set_enabled(&project, &dirs, &args.names, enabled, options)?;
    let (verb, state) = match enabled {
        true => ("Enabled", "enabled"),
        false => ("Disabled", "disabled"),
    };
    for name in &toggled.unchanged {
        context
            .printer
            .status("Unchanged", format_args!("{name} is already {state}"));
    }
    for name in &toggled.changed {
        let what = match enabled {
            true => "back in exec, serve and the agents' folders",
            false => "still installed and locked; left out of exec, serve and the agents' folders",
        };
        context
            .printer
            .status(verb, format_args!("{name} ({what})"));
    }
    super::install::report(context, &toggled.changes);
    Ok(ExitStatus::Success)
}
