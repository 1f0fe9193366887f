//! `skillpkg eval`: runs cases through the same agent as `exec`, each in
//! a fresh temporary workspace, and measures whether skills trigger and
//! behave: per case a verdict with its reasons, per suite trigger
//! precision and recall, constraint violations, the output pass rate,
//! pass@N, tokens and time; optionally against a baseline with no skills.

pub(crate) mod cases;
pub(crate) mod score;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use serde::Serialize;

use crate::agent::interrupt;
use crate::agent::run::Budgets;
use crate::agent::tools::tool_policy::Policy;
use crate::agent::{Connection, ExecOptions, Session, open_model};
use crate::hint::Hinted;
use crate::sandbox::Sandbox;
use crate::skill::Skill;
use cases::Case;
use score::{Failure, KnownSkill};

/// How to run the suite.
pub(crate) struct EvalOptions<'a> {
    /// `--model`: overrides every case's model.
    pub model: Option<&'a str>,
    /// The model for cases that name none.
    pub default_model: Option<String>,
    /// Cases run at once.
    pub jobs: usize,
    /// Also run each case with no skills.
    pub baseline_none: bool,
    /// How models are reached.
    pub connection: Connection<'a>,
    /// Where relative paths given on the command line start.
    pub cwd: &'a Path,
    /// How long a script or shell command may run.
    pub timeout: Duration,
    /// Where scripts and shell commands run.
    pub sandbox: Sandbox,
}

/// One trial of a case.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RunResult {
    /// Whether every check passed.
    pub passed: bool,
    /// The checks that failed.
    pub failures: Vec<Failure>,
    /// Skills activated, in order.
    pub skills: Vec<String>,
    /// Tools called, in order.
    pub tools: Vec<String>,
    /// Tokens used.
    pub tokens: u64,
    /// Wall time of the run.
    pub latency_ms: u64,
}

/// A case's trials.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CaseResult {
    /// The case file, as given.
    pub file: String,
    /// The case.
    pub name: String,
    /// Whether every trial passed.
    pub passed: bool,
    /// Trials that passed.
    pub passed_runs: u32,
    /// The trials.
    pub runs: Vec<RunResult>,
    /// With `--baseline none`: trials that passed with no skills.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_passed_runs: Option<u32>,
    /// With `--baseline none`: tokens those trials used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_tokens: Option<u64>,
}

/// The suite's figures.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Summary {
    /// Cases run.
    pub cases: usize,
    /// Cases whose every trial passed.
    pub passed: usize,
    /// The others.
    pub failed: usize,
    /// Correct activations over all activations (none: no activations).
    pub trigger_precision: Option<f64>,
    /// Correct activations over expected ones (none: nothing expected).
    pub trigger_recall: Option<f64>,
    /// Broken constraints: forbidden tools or skills, missing tools, order.
    pub violations: usize,
    /// Trials whose answer passed its checks, over trials with checks.
    pub output_pass_rate: Option<f64>,
    /// Among cases with more than one trial: those with a passing trial.
    pub pass_at_n: Option<f64>,
    /// With `--baseline none`: the pass rate of trials without skills,
    /// next to the pass rate with them; `null` without a baseline.
    pub baseline_pass_rate: Option<f64>,
    /// Trials that passed, over all trials.
    pub pass_rate: f64,
    /// Tokens used by every trial (baseline included).
    pub tokens: u64,
    /// Wall time of the whole suite.
    pub time_ms: u64,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Report {
    /// Per case, in the order the files list them.
    pub cases: Vec<CaseResult>,
    /// The suite.
    pub summary: Summary,
}

/// Runs `cases` over `skills`. Ctrl-C, SIGTERM or SIGHUP (once the
/// caller catches them, [`crate::agent::interrupt::catch`]) ends the
/// running cases as `exec` ends a run, commands and all, starts no more,
/// and makes this an error once every case's workspace is removed.
pub(crate) fn run(
    cases: &[Case],
    skills: &[&Skill],
    options: &EvalOptions,
) -> anyhow::Result<Report> {
    let started = Instant::now();
    let known: Vec<KnownSkill> = skills
        .iter()
        .filter_map(|s| {
            Some(KnownSkill {
                name: s.meta.name.clone(),
                dir: std::fs::canonicalize(&s.dir).ok()?,
            })
        })
        .collect();
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<anyhow::Result<CaseResult>>>> =
        cases.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.max(1) {
            scope.spawn(|| {
                while !interrupt::requested() {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(case) = cases.get(index) else {
                        break;
                    };
                    let result = run_case(case, skills, &known, options);
                    *results[index].lock().expect("result lock") = Some(result);
                }
            });
        }
    });
    if interrupt::requested() {
        bail!(
            Hinted::new("interrupted; no report, and no case workspace is left")
                .hint("run the cases again, or a few with --filter")
        );
    }
    let mut done = Vec::new();
    for result in results {
        done.push(
            result
                .into_inner()
                .expect("result lock")
                .expect("every case ran")?,
        );
    }
    let summary = summarise(cases, &done, started.elapsed());
    Ok(Report {
        cases: done,
        summary,
    })
}

fn run_case(
    case: &Case,
    skills: &[&Skill],
    known: &[KnownSkill],
    options: &EvalOptions,
) -> anyhow::Result<CaseResult> {
    let spec = options
        .model
        .map(str::to_string)
        .or_else(|| case.model.clone())
        .or_else(|| options.default_model.clone())
        .ok_or_else(|| {
            Hinted::new(format!(
                "{}: case '{}' names no model",
                case.file.display(),
                case.name
            ))
            .hint("set model in the case or [defaults], or pass --model")
        })?;
    let mut runs = Vec::new();
    let mut tokens_baseline = 0;
    let mut baseline_passed = 0;
    for _ in 0..case.runs {
        if interrupt::requested() {
            break;
        }
        runs.push(run_once(case, skills, known, &spec, options)?);
        if options.baseline_none {
            let baseline = run_once(case, &[], &[], &spec, options)?;
            tokens_baseline += baseline.tokens;
            baseline_passed += u32::from(baseline.passed);
        }
    }
    let passed_runs = runs.iter().filter(|r| r.passed).count() as u32;
    Ok(CaseResult {
        file: case.file.display().to_string(),
        name: case.name.clone(),
        passed: passed_runs == case.runs,
        passed_runs,
        runs,
        baseline_passed_runs: options.baseline_none.then_some(baseline_passed),
        baseline_tokens: options.baseline_none.then_some(tokens_baseline),
    })
}

fn run_once(
    case: &Case,
    skills: &[&Skill],
    known: &[KnownSkill],
    spec: &str,
    options: &EvalOptions,
) -> anyhow::Result<RunResult> {
    // Private to the user (0700), and removed when the run ends, however
    // it ends.
    let workspace = crate::fsutil::private_tempdir("skillpkg-eval-", None)
        .context("could not make the case's workspace")?;
    for fixture in &case.fixtures {
        copy_fixture(fixture, workspace.path())?;
    }
    let workspace_path = std::fs::canonicalize(workspace.path())?;
    let state_dir = workspace_path.join(".skillpkg");
    let defaults = Budgets::default();
    let exec_options = ExecOptions {
        task: &case.task,
        workspace: &workspace_path,
        state_dir: &state_dir,
        // Evals run unattended: every call runs, and the checks judge them.
        policy: Policy {
            yes: true,
            ..Policy::default()
        },
        budgets: Budgets {
            max_turns: case.budgets.max_turns.unwrap_or(defaults.max_turns),
            max_tool_calls: case
                .budgets
                .max_tool_calls
                .unwrap_or(defaults.max_tool_calls),
            max_tokens: case.budgets.max_tokens.unwrap_or(defaults.max_tokens),
        },
        catalog_budget: None,
        context_window: None,
        timeout: options.timeout,
        shadowed: Vec::new(),
        // Every call runs (`yes` above); grants change nothing.
        grants: Default::default(),
        pins: Default::default(),
        served: Default::default(),
        // The case workspace is a fresh folder, apart from every root.
        skill_roots: Vec::new(),
        sandbox: options.sandbox.clone(),
        // No grants, so none to withdraw.
        warn: &|_| {},
    };
    let started = Instant::now();
    let mut model = open_model(spec, options.cwd, &options.connection)?;
    let mut session = Session::start(model.id(), &exec_options)?;
    let outcome = session.send(model.as_mut(), skills, &case.task, &mut |_| {}, &mut |_| {
        None
    });
    let latency_ms = started.elapsed().as_millis() as u64;
    let (answer, ending, tokens) = match outcome {
        Ok(outcome) => (
            outcome.answer,
            serde_json::to_value(&outcome.ending)?,
            outcome.usage.total(),
        ),
        Err(e) => (
            String::new(),
            serde_json::json!({"reason": format!("failed: {e:#}")}),
            0,
        ),
    };
    let trace = score::trace(session.events(), known, &workspace_path);
    let failures = score::judge(case, &trace, &answer, &ending);
    Ok(RunResult {
        passed: failures.is_empty(),
        failures,
        skills: trace.skills,
        tools: trace.tools,
        tokens,
        latency_ms,
    })
}

/// Copies a fixture file or directory into `workspace` under its name.
fn copy_fixture(fixture: &Path, workspace: &Path) -> anyhow::Result<()> {
    let name = fixture.file_name().context("a fixture without a name")?;
    let target: PathBuf = workspace.join(name);
    if fixture.is_dir() {
        for entry in walkdir::WalkDir::new(fixture) {
            let entry = entry?;
            let to = target.join(entry.path().strip_prefix(fixture)?);
            if entry.file_type().is_dir() {
                fs_err::create_dir_all(&to)?;
            } else {
                fs_err::copy(entry.path(), &to)?;
            }
        }
    } else {
        fs_err::copy(fixture, &target)?;
    }
    Ok(())
}

fn ratio(numerator: usize, denominator: usize) -> Option<f64> {
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}

fn summarise(cases: &[Case], results: &[CaseResult], elapsed: Duration) -> Summary {
    let (mut correct, mut activated, mut expected) = (0, 0, 0);
    let (mut violations, mut output_passed, mut output_checked) = (0, 0, 0);
    let (mut runs, mut runs_passed, mut tokens) = (0, 0, 0);
    let (mut multi, mut multi_passed) = (0, 0);
    let mut baseline_passed = 0;
    for (case, result) in cases.iter().zip(results) {
        let has_output_checks = !case.expect.output.contains.is_empty()
            || !case.expect.output.not_contains.is_empty()
            || !case.expect.output.regex.is_empty();
        for run in &result.runs {
            runs += 1;
            runs_passed += usize::from(run.passed);
            tokens += run.tokens;
            expected += case.expect.skills.len();
            activated += run.skills.len();
            correct += run
                .skills
                .iter()
                .filter(|s| case.expect.skills.contains(s))
                .count();
            violations += run.failures.iter().filter(|f| f.is_violation()).count();
            if has_output_checks {
                output_checked += 1;
                output_passed +=
                    usize::from(!run.failures.iter().any(|f| matches!(f, Failure::Output(_))));
            }
        }
        if case.runs > 1 {
            multi += 1;
            multi_passed += usize::from(result.passed_runs > 0);
        }
        baseline_passed += result.baseline_passed_runs.unwrap_or(0) as usize;
        tokens += result.baseline_tokens.unwrap_or(0);
    }
    let passed = results.iter().filter(|r| r.passed).count();
    Summary {
        cases: results.len(),
        passed,
        failed: results.len() - passed,
        trigger_precision: ratio(correct, activated),
        trigger_recall: ratio(correct, expected),
        violations,
        output_pass_rate: ratio(output_passed, output_checked),
        pass_at_n: ratio(multi_passed, multi),
        baseline_pass_rate: results
            .iter()
            .any(|r| r.baseline_passed_runs.is_some())
            .then(|| ratio(baseline_passed, runs).unwrap_or(0.0)),
        pass_rate: ratio(runs_passed, runs).unwrap_or(0.0),
        tokens,
        time_ms: elapsed.as_millis() as u64,
    }
}
