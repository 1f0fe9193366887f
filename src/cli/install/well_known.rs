//! `add --well-known SITE`: what a site's agent-skills index lists, said.

use super::super::Context;

/// `add --well-known SITE --list`: the skills its agent-skills index
/// lists.
pub(super) fn list(site: &str, context: &Context) -> anyhow::Result<()> {
    let site = crate::manifest::well_known_ref::parse_site(site).map_err(anyhow::Error::msg)?;
    let index = crate::ops::sources::well_known::read_index(
        &crate::index::well_known::Sites::default(),
        &site,
    )?;
    print_index(context, &index);
    Ok(())
}

/// What adding a site's skills found: the entries set aside, and how many
/// skills it lists.
pub(super) fn say_found(context: &Context, index: &crate::index::well_known::Index) {
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
