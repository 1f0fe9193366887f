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
    let report = crate::ops::outdated::outdated(&project, &dirs)?;
    super::install::warn_yanked(context, &report.yanked);
    let results = report.packages;
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
    let locked: Vec<String> = results
        .iter()
        .map(|r| match r.yanked {
            true => format!("{} (yanked)", r.locked),
            false => r.locked.clone(),
        })
        .collect();
    let locked_width = locked.iter().map(String::len).max().unwrap_or(0).max(10);
    context.printer.data(format_args!(
        "{:width$}  {:locked_width$}  {:10}  LATEST",
        "NAME", "LOCKED", "COMPATIBLE"
    ));
    for (r, locked) in results.iter().zip(&locked) {
        let compatible = r.compatible.as_deref().unwrap_or("-");
        context.printer.data(format_args!(
            "{:width$}  {locked:locked_width$}  {compatible:10}  {}",
            r.name, r.latest
        ));
    }
    Ok(ExitStatus::Success)
}
