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
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let loaded = super::load_skills(context)?;
    let skills: Vec<&Skill> = loaded
        .set
        .resolved()
        .map(|e| &e.skill)
        .filter(|s| !s.meta.disable_model_invocation())
        .collect();
    let text = match args.format {
        Format::Xml => to_xml(&skills),
        Format::Markdown => to_markdown(&skills),
    };
    context.printer.data(text.trim_end());
    Ok(ExitStatus::Success)
}
