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
    /// for it into its budget (XML only).
    #[arg(long)]
    task: Option<String>,
    /// The catalog's budget in characters, with --task (default: exec's,
    /// 2% of the configured model's context window).
    #[arg(long, requires = "task")]
    budget: Option<usize>,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let loaded = super::load_skills(context)?;
    let skills: Vec<&Skill> = loaded
        .set
        .active()
        .map(|e| &*e.skill)
        .filter(|s| !s.meta.disable_model_invocation())
        .collect();
    if let Some(task) = &args.task {
        let invocable: Vec<&Skill> = skills
            .iter()
            .copied()
            .filter(|s| s.model_invocable())
            .collect();
        // The budget exec would give the catalog, by the same rule.
        let dirs = context.dirs()?.clone();
        let settings = crate::ops::skills::project_settings(&context.cwd, &dirs)?;
        let agent = &settings.manifest.agent;
        let credentials = crate::credentials::Credentials::new(Some(&dirs.config));
        let (_, window) = crate::agent::model::select::planned_model(
            None,
            agent.model.as_deref(),
            &credentials,
            &context.cwd,
        );
        let budget =
            crate::agent::catalog::resolve_budget(args.budget, agent.context_window, window);
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
