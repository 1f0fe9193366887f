//! `skillpkg list`

use crate::roots::Entry;

use super::{Context, ExitStatus};

/// List every skill of every root.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub(super) const DESCRIPTION_WIDTH: usize = 72;

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let loaded = super::load_skills(context)?;
    let entries = loaded.set.all();
    if args.json {
        context.printer.json(&entries)?;
        // Freeing ten thousand skills one by one only delays the exit.
        std::mem::forget(loaded);
        return Ok(ExitStatus::Success);
    }
    if entries.is_empty() {
        context.printer.warn("no skills found in any root");
        return Ok(ExitStatus::Success);
    }
    let name_width = entries
        .iter()
        .map(|e| e.skill.meta.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let root_width = entries
        .iter()
        .map(|e| root_label(e).chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    context.printer.data(format_args!(
        "{:name_width$}  {:root_width$}  DESCRIPTION",
        "NAME", "ROOT"
    ));
    for entry in entries {
        context.printer.data(row(entry, name_width, root_width));
    }
    Ok(ExitStatus::Success)
}

/// The root an entry came from, with the agent's folder when it was
/// found in one: `project`, `user (.claude/skills)`.
pub(super) fn root_label(entry: &Entry) -> String {
    match entry.agent_folder {
        Some(folder) => format!("{} ({folder})", entry.root),
        None => entry.root.to_string(),
    }
}

fn row(entry: &Entry, name_width: usize, root_width: usize) -> String {
    let description = entry.skill.meta.catalog_description();
    // The marker is part of the column: the line is as wide either way.
    let description = match (entry.shadowed_by, entry.disabled) {
        (Some(winner), _) => format!("(shadowed by {winner}) {description}"),
        (None, true) => format!("(disabled) {description}"),
        (None, false) => description.to_string(),
    };
    format!(
        "{:name_width$}  {:root_width$}  {}",
        entry.skill.meta.name,
        root_label(entry),
        super::printer::one_line(&description, DESCRIPTION_WIDTH)
    )
}
