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

const DESCRIPTION_WIDTH: usize = 72;

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let loaded = super::load_skills(context)?;
    let entries = loaded.set.all();
    if args.json {
        context.printer.json(&entries)?;
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
    let description = entry
        .skill
        .meta
        .catalog_description()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let mut description: String = match description.char_indices().nth(DESCRIPTION_WIDTH) {
        Some((cut, _)) => format!("{}…", &description[..cut]),
        None => description,
    };
    if let Some(winner) = entry.shadowed_by {
        description = format!("(shadowed by {winner}) {description}");
    }
    format!(
        "{:name_width$}  {:root_width$}  {description}",
        entry.skill.meta.name,
        root_label(entry)
    )
}
