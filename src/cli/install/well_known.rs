//! `add --well-known SITE`: the skills of a site's agent-skills index.

use super::super::{Context, ExitStatus};
use super::{AddArgs, reported};

/// `add --well-known SITE`: every skill its agent-skills index lists, or
/// those `--skill` picks; `--list` only lists them.
pub(super) fn add(args: AddArgs, site: &str, context: &mut Context) -> anyhow::Result<ExitStatus> {
    if args.list {
        let site = crate::manifest::well_known_ref::parse_site(site).map_err(anyhow::Error::msg)?;
        let index = crate::ops::sources::well_known::read_index(
            &crate::index::well_known::Sites::default(),
            &site,
        )?;
        print_index(context, &index);
        return Ok(ExitStatus::Success);
    }
    let dirs = context.dirs()?.clone();
    let project = context.project(args.flags.global)?;
    let (index, changes) = crate::ops::install::add_site::add_well_known(
        &project,
        &dirs,
        site,
        &args.skills,
        &args.replace,
        args.flags.options(false, context),
    )?;
    for skipped in &index.skipped {
        context
            .printer
            .warn(format_args!("skipped {}", skipped.why));
    }
    let count = index.skills.len();
    context.printer.status(
        "Found",
        format_args!(
            "{count} skill{} in {}",
            if count == 1 { "" } else { "s" },
            index.url
        ),
    );
    Ok(reported(context, &project, &changes))
}

/// One line per skill of an agent-skills index: name, kind, description;
/// then a warning for each entry set aside.
fn print_index(context: &Context, index: &crate::index::well_known::Index) {
    let names = index
        .skills
        .iter()
        .map(|e| e.name.chars().count())
        .max()
        .unwrap_or(0);
    for entry in &index.skills {
        let description: String = entry.description.chars().take(72).collect();
        context.printer.data(format_args!(
            "{:<names$}  {:<8}  {description}",
            entry.name,
            entry.artifact.kind()
        ));
    }
    for skipped in &index.skipped {
        context
            .printer
            .warn(format_args!("skipped {}", skipped.why));
    }
}
