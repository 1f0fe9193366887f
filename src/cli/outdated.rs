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
    let rows: Vec<[String; 4]> = results
        .iter()
        .map(|r| {
            let locked = match r.yanked {
                true => format!("{} (yanked)", r.locked),
                false => r.locked.clone(),
            };
            let compatible = r.compatible.clone().unwrap_or_else(|| "-".into());
            [r.name.clone(), locked, compatible, r.latest.clone()]
        })
        .collect();
    let header = ["NAME", "LOCKED", "COMPATIBLE", "LATEST"].map(String::from);
    for line in columns(std::iter::once(&header).chain(&rows)) {
        context.printer.data(line);
    }
    Ok(ExitStatus::Success)
}

/// `rows` as lines of aligned columns, each as wide as its widest cell
/// (counted in characters), two spaces apart; the last column unpadded.
fn columns<'r>(rows: impl Iterator<Item = &'r [String; 4]> + Clone) -> Vec<String> {
    let mut widths = [0; 4];
    for row in rows.clone() {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    rows.map(|row| {
        let line: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:width$}"))
            .collect();
        line.join("  ").trim_end().to_string()
    })
    .collect()
}
