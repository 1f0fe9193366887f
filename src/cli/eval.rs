//! `skillpkg eval <cases>...`

use std::path::PathBuf;
use std::time::Duration;

use crate::agent::{Connection, choose_model};
use crate::credentials::Credentials;
use crate::eval::{self, EvalOptions, Report};

use super::{Context, ExitStatus};
use crate::hint::Hinted;

/// What `--baseline` compares against.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Baseline {
    /// Each case also runs with no skills at all.
    None,
}

/// Run eval cases: do the skills trigger and behave as intended?
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Case files (.toml) or directories of them.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The model for every case (default: each case's, else exec's choice).
    #[arg(long, short = 'm')]
    model: Option<String>,
    /// Another server speaking the model's API.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// Only cases whose name contains this.
    #[arg(long, value_name = "PATTERN")]
    filter: Option<String>,
    /// Cases run at once (default: the number of cores).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Also run each case against a baseline, and report the difference.
    #[arg(long, value_enum)]
    baseline: Option<Baseline>,
    /// Seconds a script or shell command may run.
    #[arg(long, default_value_t = 120)]
    timeout: u64,
    /// Print the report as JSON on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    sandbox: super::sandbox::SandboxArgs,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let cwd = context.cwd.clone();
    let paths: Vec<PathBuf> = args.paths.iter().map(|p| cwd.join(p)).collect();
    let mut cases = eval::cases::load(&paths)?;
    if let Some(filter) = &args.filter {
        cases.retain(|c| c.name.contains(filter.as_str()));
    }
    if cases.is_empty() {
        anyhow::bail!(Hinted::new("no cases to run").hint("check the paths and --filter"));
    }
    let loaded = super::load_skills(context)?;
    let skills: Vec<&crate::skill::Skill> = loaded.set.active().map(|e| &*e.skill).collect();
    warn_of_missing_skills(context, &cases, &skills);
    let settings = crate::ops::skills::project_settings(&cwd, context.dirs()?)?;
    if let Some(warning) = &settings.warning {
        context.printer.warn(warning);
    }
    let manifest = &settings.manifest;
    // Each case has a private workspace: no workspace to check here.
    let sandbox = super::sandbox::sandbox(
        &args.sandbox,
        &manifest.agent,
        &settings.dir.join(crate::project::MANIFEST_FILE),
        context,
        None,
        Vec::new(),
    )?;
    let credentials = Credentials::new(Some(&context.dirs()?.config));
    // Cases without a model of their own use exec's choice, when there is one.
    let default_model = choose_model(None, manifest.agent.model.as_deref(), &credentials).ok();
    let options = EvalOptions {
        model: args.model.as_deref(),
        default_model,
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        baseline_none: matches!(args.baseline, Some(Baseline::None)),
        connection: Connection {
            base_url: args.base_url.as_deref(),
            stream: false,
            credentials,
        },
        cwd: &cwd,
        timeout: Duration::from_secs(args.timeout),
        sandbox,
    };
    // Ctrl-C, SIGTERM and SIGHUP end the cases as they end `exec`.
    crate::agent::interrupt::catch();
    let report = eval::run(&cases, &skills, &options)?;
    if args.json {
        context.printer.json(&report)?;
    } else {
        print_table(context, &report);
    }
    Ok(if report.summary.failed == 0 {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

/// Says which skills the cases expect that are not installed here: the
/// cases that expect them cannot pass.
fn warn_of_missing_skills(
    context: &Context,
    cases: &[eval::cases::Case],
    skills: &[&crate::skill::Skill],
) {
    let installed: Vec<&str> = skills.iter().map(|s| s.meta.name.as_str()).collect();
    let mut missing: Vec<(&str, Vec<&str>)> = Vec::new();
    for case in cases {
        for skill in &case.expect.skills {
            if installed.contains(&skill.as_str()) {
                continue;
            }
            match missing.iter_mut().find(|(name, _)| name == skill) {
                Some((_, expecting)) => expecting.push(&case.name),
                None => missing.push((skill, vec![&case.name])),
            }
        }
    }
    for (skill, expecting) in missing {
        let (cases, fail) = match expecting.as_slice() {
            [one] => (format!("case '{one}' expects"), "it fails"),
            many => (
                format!("{} expect", super::printer::count(many.len(), "case")),
                "they fail",
            ),
        };
        context.printer.warn(format_args!(
            "{cases} the skill {skill}, which is not installed here, so {fail}"
        ));
        let hint = match crate::hint::did_you_mean(skill, installed.iter().copied()) {
            Some(meant) => format!(
                "did you mean {meant}? Otherwise install it: `skillpkg add <org>/{skill}`, or `skillpkg add {skill} --path <folder>`"
            ),
            None => format!(
                "install it (`skillpkg add <org>/{skill}`, or `skillpkg add {skill} --path <folder>`), or fix the name in the case"
            ),
        };
        context.printer.hint(hint);
    }
}

fn percent(value: Option<f64>) -> String {
    value.map_or("-".into(), |v| format!("{:.0}%", v * 100.0))
}

fn print_table(context: &Context, report: &Report) {
    let printer = &context.printer;
    let width = report
        .cases
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    printer.data(format_args!(
        "{:width$}  {:6}  {:24}  {:>7}  {:>7}",
        "CASE", "RESULT", "SKILLS", "TOKENS", "MS"
    ));
    for case in &report.cases {
        let verdict = match (case.passed, case.runs.len()) {
            (true, _) => "pass".to_string(),
            (false, 1) => "FAIL".to_string(),
            (false, n) => format!("{}/{n}", case.passed_runs),
        };
        let first = &case.runs[0];
        let skills = if first.skills.is_empty() {
            "-".to_string()
        } else {
            first.skills.join(",")
        };
        let tokens: u64 = case.runs.iter().map(|r| r.tokens).sum();
        let ms: u64 = case.runs.iter().map(|r| r.latency_ms).sum();
        printer.data(format_args!(
            "{:width$}  {verdict:6}  {skills:24}  {tokens:>7}  {ms:>7}",
            case.name
        ));
        for run in case.runs.iter().filter(|r| !r.passed) {
            for failure in &run.failures {
                let text = serde_json::to_value(failure).unwrap_or_default();
                printer.data(format_args!(
                    "{:width$}    - {}: {}",
                    "",
                    text["kind"].as_str().unwrap_or("").replace('_', " "),
                    text["detail"].as_str().unwrap_or("")
                ));
            }
        }
    }
    let s = &report.summary;
    printer.data("");
    printer.data(format_args!(
        "{}: {} passed, {} failed. Triggers: precision {}, recall {}. Violations: {}. Output checks: {} passed. pass@N: {}.{} Tokens: {}. Time: {} ms.",
        super::printer::count(s.cases, "case"),
        s.passed,
        s.failed,
        percent(s.trigger_precision),
        percent(s.trigger_recall),
        s.violations,
        percent(s.output_pass_rate),
        percent(s.pass_at_n),
        s.baseline_pass_rate.map_or(String::new(), |b| format!(
            " Pass rate {} with the skills, {} without.",
            percent(Some(s.pass_rate)),
            percent(Some(b))
        )),
        s.tokens,
        s.time_ms
    ));
}
