//! `skillpkg outdated`

use super::{Context, ExitStatus};

/// List locked packages that have newer versions.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Also fetch, verify and scan each update `update` would make, and
    /// say what the new version newly does: hosts it reaches, credential
    /// files and secrets it reads, commands, scripts, grants it asks for,
    /// a new signer or owner. Nothing is installed, and skills.toml and
    /// skills.lock stay as they are (the cache keeps what was fetched).
    #[arg(long)]
    diff: bool,
    /// Look for versions in this channel and those above it, for packages
    /// whose entry in skills.toml names no channel (default: published).
    #[arg(long, value_enum, value_name = "CHANNEL")]
    channel: Option<crate::index::channel::Channel>,
    #[command(flatten)]
    report: super::ReportFlags,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let project = context.project(args.report.global)?;
    if args.diff {
        return diff(&args, &project, &dirs, context);
    }
    let report = crate::ops::outdated::outdated(&project, &dirs, args.channel)?;
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

/// `outdated --diff`: each update `update` would make, with what the new
/// version newly does.
fn diff(
    args: &Args,
    project: &crate::project::Project,
    dirs: &crate::dirs::Dirs,
    context: &Context,
) -> anyhow::Result<ExitStatus> {
    let options = crate::ops::install::InstallOptions {
        progress: &context.progress,
        channel: args.channel,
        ..Default::default()
    };
    let changes: Vec<_> = crate::ops::install::update(
        project,
        dirs,
        &[],
        crate::ops::install::Mode::Preview,
        options,
    )?
    .into_iter()
    .filter(|c| c.action == crate::ops::install::Action::Updated)
    .collect();
    if args.report.json {
        // The same objects as without --diff, with what each update does.
        let mut report = crate::ops::outdated::outdated(project, dirs, args.channel)?.packages;
        for package in &mut report {
            if let Some(change) = changes.iter().find(|c| c.name == package.name) {
                package.newly = Some(change.newly.clone());
                package.signer = change.signer.clone();
                package.blocked = change.refusal.clone();
            }
        }
        context.printer.json(&report)?;
        return Ok(ExitStatus::Success);
    }
    if changes.is_empty() {
        context.printer.status(
            "Up-to-date",
            "every package is at the newest allowed version",
        );
    }
    for change in &changes {
        context
            .printer
            .data(format_args!("{} {}", change.name, change.shown()));
        // Its first line says the skill "was not installed": in a
        // preview, the update would be refused for these findings.
        if let Some(refusal) = &change.refusal {
            context
                .printer
                .data("  update would refuse it; the scanner blocks:");
            for line in refusal.lines().skip(1) {
                context.printer.data(format_args!("  {line}"));
            }
        }
        match change.newly.is_empty() {
            true => context.printer.data(
                "  nothing new: no new hosts, secrets, commands, scripts, grants, signer or owner",
            ),
            false => {
                for line in &change.newly {
                    context.printer.data(format_args!("  newly {line}"));
                }
            }
        }
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
