//! `skillpkg outdated`

use super::{Context, ExitStatus};

/// List locked packages that have newer versions.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(flatten)]
    report: super::ReportFlags,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let project = context.project(args.report.global)?;
    let results = crate::ops::outdated::outdated(&project, &dirs)?;
    if args.report.json {
        context.printer.json(&results)?;
        return Ok(ExitStatus::Success);
    }
    if results.is_empty() {
        context
            .printer
            .status("Up-to-date", "no locked package has a newer version");
        return Ok(ExitStatus::Success);
    }
    let width = results
        .iter()
        .map(|r| r.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    context.printer.data(format_args!(
        "{:width$}  {:10}  {:10}  LATEST",
        "NAME", "LOCKED", "COMPATIBLE"
    ));
    for r in &results {
        let compatible = r.compatible.as_deref().unwrap_or("-");
        context.printer.data(format_args!(
            "{:width$}  {:10}  {:10}  {}",
            r.name, r.locked, compatible, r.latest
        ));
    }
    Ok(ExitStatus::Success)
}
