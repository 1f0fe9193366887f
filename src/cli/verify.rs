//! `skillpkg verify`

use super::{Context, ExitStatus};

/// Re-hash installed skills against skills.lock: modified, missing and
/// extra files, and signers the lock does not trust. Exits 1 on any problem.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(flatten)]
    report: super::ReportFlags,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let project = context.project(args.report.global)?;
    let results = crate::ops::verify::verify(&project, &dirs)?;
    let bad = results.iter().filter(|r| !r.is_ok()).count();
    warn_yanked(context, &project, &dirs);
    if args.report.json {
        context.printer.json(&results)?;
    } else {
        // -q: only what is not as locked.
        let shown = results
            .iter()
            .filter(|r| !context.printer.is_quiet() || !r.is_ok());
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
        }
        context.printer.status(
            "Verified",
            format_args!(
                "{}: {} as locked, {bad} not",
                super::printer::count(results.len(), "skill"),
                results.len() - bad
            ),
        );
    }
    Ok(if bad == 0 {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
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
