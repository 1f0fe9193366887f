//! `skillpkg search <query>`

use super::{Context, ExitStatus};

/// Search an index's packages by name and description.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Words that must all appear in a package's name or description.
    #[arg(required = true)]
    query: Vec<String>,
    /// A registry named under [registries] (default: the project's default, else the built-in index).
    #[arg(long)]
    registry: Option<String>,
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let cwd = context.cwd.clone();
    let dirs = context.dirs()?.clone();
    let hits =
        crate::ops::search::search(&cwd, &dirs, &args.query.join(" "), args.registry.as_deref())?;
    if args.json {
        context.printer.json(&hits)?;
        return Ok(ExitStatus::Success);
    }
    if hits.is_empty() {
        context.printer.warn(format_args!(
            "no package matches '{}'",
            args.query.join(" ")
        ));
        // Advice names only what `search` itself takes.
        if args.query.len() > 1 {
            context
                .printer
                .hint("every word must appear in a package's name or description: try fewer words");
        }
        let others = crate::ops::search::other_registries(&cwd, args.registry.as_deref());
        if !others.is_empty() {
            context.printer.hint(format_args!(
                "search another registry of skills.toml with --registry NAME: {}",
                others.join(", ")
            ));
        }
    }
    let width = hits
        .iter()
        .map(|h| h.name.len() + h.version.len() + 1)
        .max()
        .unwrap_or(0);
    for hit in &hits {
        let id = format!("{}@{}", hit.name, hit.version);
        // Cut as `list` cuts them.
        let description =
            super::printer::one_line(&hit.description, super::list::DESCRIPTION_WIDTH);
        context
            .printer
            .data(format_args!("{id:width$}  {description}"));
    }
    Ok(ExitStatus::Success)
}
