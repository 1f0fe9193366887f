//! `skillpkg validate <dir>...`

use std::path::PathBuf;

use crate::skill::validate::{Report, Severity, ValidateOptions, validate};

use super::{Context, ExitStatus};

/// Check skills against the specification, with the reference validator's
/// verdict. Exits 1 if any skill is invalid.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Skill directories (or paths to their SKILL.md).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Also warn about things that are valid but unhelpful to agents.
    #[arg(long)]
    strict: bool,
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let options = ValidateOptions {
        strict: args.strict,
    };
    let reports: Vec<Report> = args.paths.iter().map(|p| validate(p, options)).collect();
    let invalid = reports.iter().filter(|r| !r.valid).count();
    if args.json {
        context.printer.json(&reports)?;
    } else {
        for report in &reports {
            for problem in &report.problems {
                let location = problem.location();
                let severity = match problem.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                };
                context.printer.data(format_args!(
                    "{location}: {severity}[{}]: {}",
                    problem.rule, problem.message
                ));
            }
            if report.valid {
                context
                    .printer
                    .data(format_args!("{}: valid", report.path.display()));
            }
        }
        let total = reports.len();
        let noun = if total == 1 { "skill" } else { "skills" };
        context.printer.status(
            "Validated",
            format_args!(
                "{total} {noun}: {} valid, {invalid} invalid",
                total - invalid
            ),
        );
    }
    Ok(if invalid == 0 {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}
