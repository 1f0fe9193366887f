//! `skillpkg targets`

use super::{Context, ExitStatus};
use crate::ops::verify::targets::Kind;

/// List the agents' folders skills are placed in (`[install] targets`):
/// which agents read each, the link or copy of every locked skill there,
/// and what else is there (not skillpkg's).
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(flatten)]
    report: super::ReportFlags,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let project = context.project(args.report.global)?;
    let survey = crate::ops::verify::survey_targets(&project, &dirs, true)?;
    if args.report.json {
        context.printer.json(&survey)?;
        return Ok(ExitStatus::Success);
    }
    for folder in &survey.folders {
        context.printer.data(format_args!(
            "{} ({})",
            folder.folder,
            folder.agents.join(", ")
        ));
        for entry in &folder.entries {
            let name = entry.path.rsplit('/').next().unwrap_or(&entry.path);
            let kind = match entry.kind {
                Kind::Nothing => String::new(),
                kind => format!(" {kind},"),
            };
            let detail = entry
                .detail
                .as_ref()
                .map(|d| format!(" ({d})"))
                .unwrap_or_default();
            context
                .printer
                .data(format_args!("  {name}:{kind} {}{detail}", entry.state));
        }
    }
    for note in &survey.notes {
        context.printer.data(note);
    }
    if survey.folders.is_empty() && survey.notes.is_empty() {
        context.printer.status(
            "Targets",
            format_args!(
                "none: {} names no agents in [install] targets",
                project.shown(&project.manifest_path).display()
            ),
        );
        context
            .printer
            .hint("add `targets = [\"claude\"]` under [install] to place installed skills in .claude/skills");
    }
    let drifted = survey.entries().filter(|e| e.state.is_drift()).count();
    if drifted > 0 {
        context
            .printer
            .hint("`skillpkg verify --fix` restores what differs from what skillpkg placed");
    }
    Ok(ExitStatus::Success)
}
