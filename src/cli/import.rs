//! `skillpkg import`.

use std::path::PathBuf;

use super::install::{InstallFlags, report, report_targets};
use super::{Context, ExitStatus};
use crate::ops::import::{self, LeftOut};

/// Take over the skills `npx skills` installed (its skills-lock.json), or,
/// with --from, skill folders placed by hand.
#[derive(Debug, clap::Args)]
pub(super) struct ImportArgs {
    /// With --from: only the folders of these skills (default: every one).
    #[arg(requires = "from")]
    names: Vec<String>,
    /// Take over the skill folders in DIR that no lock names (such as
    /// .claude/skills), instead of reading skills-lock.json. Lists them;
    /// --adopt takes them over.
    #[arg(long, value_name = "DIR")]
    from: Option<PathBuf>,
    /// With --from: move each folder to the project's skills/ folder,
    /// install it from there as it is, and link it back where it was.
    #[arg(long, requires = "from")]
    adopt: bool,
    /// Also take the skills whose local source skills-lock.json places
    /// outside the project (read them first: a cloned project's lock may
    /// point anywhere).
    #[arg(long, conflicts_with = "from")]
    allow_outside: bool,
    #[command(flatten)]
    flags: InstallFlags,
}

pub(super) fn run(args: ImportArgs, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let cwd = context.cwd.clone();
    let dirs = context.dirs()?.clone();
    let started = match args.flags.global {
        true => None,
        false => crate::ops::init::start_for_add(&cwd, &dirs)?,
    };
    let done = match &args.from {
        Some(from) => from_folder(&args, &cwd.join(from), context),
        None => from_lock(&args, context),
    };
    match (&done, started) {
        (Ok(true), Some(started)) => context.printer.status(
            "Created",
            format_args!(
                "{} (a new project, trusted on this machine)",
                started.manifest.display()
            ),
        ),
        // A project started for an import that failed, or took nothing
        // over, is not left behind.
        (_, Some(started)) => {
            let path = started.manifest.clone();
            let undone = started.abandon(&dirs);
            if let (Ok(_), Err(e)) = (&done, undone) {
                return Err(e.context(format!("could not remove {}", path.display())));
            }
        }
        _ => {}
    }
    done.map(|_| ExitStatus::Success)
}

/// `import`: reads the project's skills-lock.json (or, with --global, the
/// user's ~/.agents/.skill-lock.json, or $XDG_STATE_HOME/skills/.skill-lock.json).
/// Returns whether it added anything to skills.toml.
fn from_lock(args: &ImportArgs, context: &mut Context) -> anyhow::Result<bool> {
    let dirs = context.dirs()?.clone();
    let project = context.project(args.flags.global)?;
    let lock_file = match args.flags.global {
        true => import::global_lock(dirs.home.as_deref()).ok_or_else(|| {
            anyhow::anyhow!(
                "no home directory and no XDG_STATE_HOME, so no .skill-lock.json of npx skills to read: set HOME"
            )
        })?,
        false => project.dir.join(import::PROJECT_LOCK),
    };
    let imported = import::import_lock(
        &project,
        &dirs,
        &lock_file,
        args.allow_outside,
        args.flags.options(false, context),
    )?;
    for (name, from) in &imported.added {
        context
            .printer
            .status("Importing", format_args!("{name} from {from}"));
    }
    report(context, &imported.changes);
    report_targets(context, &project, &imported.changes);
    for name in &imported.already {
        context
            .printer
            .verbose(format_args!("{name} is in skills.toml already"));
    }
    report_left_out(context, &imported.left_out);
    for copy in &imported.relinked {
        context.printer.status(
            "Linked",
            format_args!(
                "{} to the installed skill (it held the same files)",
                project.shown(copy).display()
            ),
        );
    }
    let shown = project.shown(&lock_file).display().to_string();
    if !imported.added.is_empty() {
        let count = imported.added.len();
        context.printer.status(
            "Imported",
            format_args!(
                "{count} skill{} of {shown}: skillpkg now manages {} (skills.toml, skills.lock); {shown} is left in place",
                if count == 1 { "" } else { "s" },
                if count == 1 { "it" } else { "them" },
            ),
        );
    }
    Ok(!imported.added.is_empty())
}

/// Says which skills were left out, untouched, and what takes each over.
fn report_left_out(context: &Context, left_out: &[LeftOut]) {
    for left in left_out {
        context.printer.warn(format_args!(
            "left out {}: {}; its files are untouched",
            left.name, left.reason
        ));
        if !left.hint.is_empty() {
            context.printer.hint(&left.hint);
        }
    }
}

/// `import --from DIR [--adopt]`. Returns whether it added anything to
/// skills.toml.
fn from_folder(
    args: &ImportArgs,
    from: &std::path::Path,
    context: &mut Context,
) -> anyhow::Result<bool> {
    let dirs = context.dirs()?.clone();
    let project = context.project(args.flags.global)?;
    let adopted = import::adopt_folders(
        &project,
        &dirs,
        from,
        &args.names,
        args.adopt,
        args.flags.options(false, context),
    )?;
    report(context, &adopted.changes);
    report_targets(context, &project, &adopted.changes);
    for found in &adopted.found {
        let (folder, source) = (
            project.shown(&found.folder).display().to_string(),
            project.shown(&found.source).display().to_string(),
        );
        match args.adopt {
            true => context.printer.status(
                "Adopted",
                format_args!(
                    "{} (now in {source}; {folder} links to it as installed)",
                    found.name
                ),
            ),
            false => context
                .printer
                .data(format_args!("{}  {folder}", found.name)),
        }
    }
    report_left_out(context, &adopted.left_out);
    if !args.adopt && !adopted.found.is_empty() {
        context.printer.hint(
            "--adopt moves each to skills/<name> in the project, installs it from there as it is, and links it back",
        );
    }
    Ok(args.adopt && !adopted.found.is_empty())
}
