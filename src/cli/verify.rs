//! `skillpkg verify`

use super::{Context, ExitStatus};

/// Re-hash installed skills against skills.lock: modified, missing and
/// extra files, signers the lock does not trust, and the links and copies
/// placed in agents' folders (`[install] targets`). Exits 1 on any problem.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(flatten)]
    report: super::ReportFlags,
    /// Restore the links and copies in agents' folders that drifted, from
    /// the installed skills (which must match skills.lock).
    #[arg(long)]
    fix: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let project = context.project(args.report.global)?;
    if args.fix {
        for entry in crate::ops::verify::fix_targets(&project, &dirs)? {
            context.printer.status("Restored", entry);
        }
    }
    let results = crate::ops::verify::verify(&project, &dirs)?;
    let bad = results.iter().filter(|r| !r.is_ok()).count();
    let drifted = results
        .iter()
        .map(|r| r.drifted_targets().count())
        .sum::<usize>();
    warn_yanked(context, &project, &dirs);
    if args.report.json {
        context.printer.json(&results)?;
    } else {
        // -q: only what is not as locked.
        let shown = results.iter().filter(|r| {
            !context.printer.is_quiet() || !r.is_ok() || r.drifted_targets().next().is_some()
        });
        for result in shown {
            // `name@1.2.0`, or `name@<commit>` for a git skill.
            let shown = &result.shown_version;
            let version = shown.strip_prefix('v').unwrap_or(shown);
            context
                .printer
                .data(format_args!("{}@{version}: {}", result.name, result.status));
            if let Some(signature) = &result.signature {
                context
                    .printer
                    .data(format_args!("  signature: {signature}"));
            }
            for (path, change) in &result.files {
                context.printer.data(format_args!("  {change}: {path}"));
            }
            print_targets(context, result);
        }
        context.printer.status(
            "Verified",
            format_args!(
                "{}: {} as locked, {bad} not",
                super::printer::count(results.len(), "skill"),
                results.len() - bad
            ),
        );
        if drifted > 0 {
            context.printer.warn(format_args!(
                "{} in agents' folders {} from what skillpkg placed",
                if drifted == 1 {
                    "1 entry".to_string()
                } else {
                    format!("{drifted} entries")
                },
                if drifted == 1 { "differs" } else { "differ" }
            ));
            context
                .printer
                .hint("`skillpkg verify --fix` puts back what drifted, from the installed skills");
        }
    }
    Ok(if bad == 0 && drifted == 0 {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

/// The places of `result`'s skill in agents' folders that are not in
/// sync (or, with -v, all of them), each changed file of a copy below.
fn print_targets(context: &Context, result: &crate::ops::verify::Verified) {
    for entry in &result.targets {
        if entry.state == crate::ops::verify::targets::State::Ok && !context.printer.is_verbose() {
            continue;
        }
        let detail = entry
            .detail
            .as_ref()
            .map(|d| format!(" ({d})"))
            .unwrap_or_default();
        let kind = match entry.kind {
            crate::ops::verify::targets::Kind::Nothing => String::new(),
            kind => format!(" ({kind})"),
        };
        context.printer.data(format_args!(
            "  {}{kind}: {}{detail}",
            entry.path, entry.state
        ));
        for (path, change) in &entry.files {
            context.printer.data(format_args!("    {change}: {path}"));
        }
    }
}

/// Warns of each locked version its index has since yanked. Verify checks
/// the files on this machine: an index it cannot read is said, and does
/// not fail it.
fn warn_yanked(context: &Context, project: &crate::project::Project, dirs: &crate::dirs::Dirs) {
    match crate::ops::yanked::in_project(project, dirs) {
        Ok(pins) => super::install::warn_yanked(context, &pins),
        Err(e) => context.printer.warn(format_args!(
            "could not check whether the versions skills.lock pins are yanked: {e:#}"
        )),
    }
}
