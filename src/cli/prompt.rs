//! `skillpkg prompt`

use crate::skill::Skill;
use crate::skill::prompt::{to_markdown, to_xml};

use super::{Context, ExitStatus};

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Format {
    /// The reference `<available_skills>` block.
    Xml,
    /// A Markdown list.
    Markdown,
}

/// Print the level-1 catalog (names, descriptions, locations) of the
/// skills a model may invoke.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value = "xml")]
    format: Format,
    /// Rank the skills for this task and fit the catalog `exec` would build
    /// for it into --budget characters (XML only).
    #[arg(long, requires = "budget")]
    task: Option<String>,
    /// The catalog's budget in characters, with --task.
    #[arg(long, requires = "task")]
    budget: Option<usize>,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let loaded = super::load_skills(context)?;
    let skills: Vec<&Skill> = loaded
        .set
        .resolved()
        .map(|e| &*e.skill)
        .filter(|s| !s.meta.disable_model_invocation())
        .collect();
    if let (Some(task), Some(budget)) = (&args.task, args.budget) {
        let invocable: Vec<&Skill> = skills
            .iter()
            .copied()
            .filter(|s| s.model_invocable())
            .collect();
        let catalog = crate::agent::catalog::build(&invocable, task, budget);
        context.printer.data(&catalog.text);
        return Ok(ExitStatus::Success);
    }
    let text = match args.format {
        Format::Xml => to_xml(&skills),
        Format::Markdown => to_markdown(&skills),
    };
    context.printer.data(text.trim_end());
    Ok(ExitStatus::Success)
}
