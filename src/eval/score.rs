//! Judging one run of a case from its audit events: which skills it
//! activated (through `use_skill`, or implicitly by reading a `SKILL.md` or
//! running a skill's script), which tools it used and in what order, and
//! whether its answer passes the checks.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::cases::Case;

/// A skill as the judge needs it.
#[derive(Debug, Clone)]
pub(crate) struct KnownSkill {
    /// Its name.
    pub name: String,
    /// Its directory, canonical.
    pub dir: PathBuf,
}

/// What a run did, read from its events.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct Trace {
    /// Skills activated, in order, each once.
    pub skills: Vec<String>,
    /// Tools called, in order, each once.
    pub tools: Vec<String>,
    /// Every step, labelled for `expect.order`.
    #[serde(skip)]
    pub steps: Vec<String>,
}

/// Why a run failed one check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub(crate) enum Failure {
    /// An expected skill was not activated.
    MissedSkill(String),
    /// A skill the case rules out was activated.
    WrongSkill(String),
    /// An expected tool was not called.
    MissingTool(String),
    /// A forbidden tool was called.
    ForbiddenTool(String),
    /// The steps were not in the expected order.
    Order(String),
    /// The answer failed a check.
    Output(String),
    /// The run ended without an answer (a budget, an error).
    Ended(String),
}

impl Failure {
    /// Whether this breaks a constraint (tools, order, forbidden skills),
    /// as opposed to a trigger or an answer.
    pub(crate) fn is_violation(&self) -> bool {
        matches!(
            self,
            Failure::WrongSkill(_)
                | Failure::MissingTool(_)
                | Failure::ForbiddenTool(_)
                | Failure::Order(_)
        )
    }
}

fn push_once(list: &mut Vec<String>, item: &str) {
    if !list.iter().any(|i| i == item) {
        list.push(item.to_string());
    }
}

/// The skill whose directory holds `path` (canonicalised against `workspace`).
fn skill_of<'k>(
    skills: &'k [KnownSkill],
    workspace: &Path,
    path: &str,
) -> Option<(&'k KnownSkill, String)> {
    let resolved = std::fs::canonicalize(workspace.join(path)).ok()?;
    skills.iter().find_map(|s| {
        let relative = resolved.strip_prefix(&s.dir).ok()?;
        Some((s, relative.display().to_string()))
    })
}

/// Notes an activation of `name`: once in the skills, every time in the steps.
fn activate(trace: &mut Trace, name: &str) {
    push_once(&mut trace.skills, name);
    trace.steps.push(format!("use_skill:{name}"));
}

/// Reads a run's events into a trace. A tool counts as used when it is
/// called; a skill counts as activated only by a call that succeeded.
pub(crate) fn trace(events: &[Value], skills: &[KnownSkill], workspace: &Path) -> Trace {
    let mut trace = Trace::default();
    let mut pending: Option<&Value> = None;
    for event in events {
        match event["event"].as_str() {
            Some("disclosure") if event["via"] == "slash" => {
                activate(
                    &mut trace,
                    event["disclosure"]["skill"].as_str().unwrap_or(""),
                );
            }
            Some("tool_call") => {
                push_once(&mut trace.tools, event["tool"].as_str().unwrap_or(""));
                pending = Some(event);
            }
            Some("tool_result") => {
                if let Some(call) = pending.take() {
                    let succeeded = event["is_error"] != true;
                    record_step(&mut trace, call, succeeded, skills, workspace);
                }
            }
            _ => {}
        }
    }
    trace
}

/// The step a call made, and the skill it activated if it succeeded.
fn record_step(
    trace: &mut Trace,
    call: &Value,
    succeeded: bool,
    skills: &[KnownSkill],
    workspace: &Path,
) {
    let tool = call["tool"].as_str().unwrap_or("");
    let input = &call["input"];
    let arg = |key: &str| input[key].as_str().unwrap_or("").to_string();
    match tool {
        "use_skill" if succeeded => activate(trace, &arg("name")),
        "run_script" | "read_resource" if succeeded => {
            let skill = arg("skill");
            if tool == "run_script" && !trace.skills.contains(&skill) {
                activate(trace, &skill);
            }
            trace.steps.push(format!("{tool}:{skill}/{}", arg("path")));
        }
        // Reading a skill's SKILL.md is activating it.
        "read_file" if succeeded => match skill_of(skills, workspace, &arg("path")) {
            Some((skill, relative)) if relative.eq_ignore_ascii_case("SKILL.md") => {
                activate(trace, &skill.name);
            }
            _ => trace.steps.push(tool.to_string()),
        },
        // Running a skill's script through the shell is using it.
        "shell" if succeeded => {
            let command = arg("command");
            let mut used = false;
            for skill in skills {
                let scripts = skill.dir.join("scripts");
                let scripts = scripts.to_string_lossy();
                if let Some(at) = command.find(scripts.as_ref()) {
                    let rest = &command[at + scripts.len()..];
                    let file: String = rest.chars().take_while(|c| !c.is_whitespace()).collect();
                    if !trace.skills.contains(&skill.name) {
                        activate(trace, &skill.name);
                    }
                    trace
                        .steps
                        .push(format!("run_script:{}/scripts{file}", skill.name));
                    used = true;
                }
            }
            if !used {
                trace.steps.push(tool.to_string());
            }
        }
        _ => trace.steps.push(tool.to_string()),
    }
}

/// Whether `step` satisfies the expected step `want`: equal, or a bare
/// tool name matching that tool's steps.
fn step_matches(step: &str, want: &str) -> bool {
    step == want || (!want.contains(':') && step.split(':').next() == Some(want))
}

/// Every check of `case` against a run.
pub(crate) fn judge(case: &Case, trace: &Trace, answer: &str, ending: &Value) -> Vec<Failure> {
    let mut failures = Vec::new();
    if ending["reason"] != "answered" {
        failures.push(Failure::Ended(describe_ending(ending)));
    }
    for skill in &case.expect.skills {
        if !trace.skills.contains(skill) {
            failures.push(Failure::MissedSkill(skill.clone()));
        }
    }
    for skill in &case.expect.not_skills {
        if trace.skills.contains(skill) {
            failures.push(Failure::WrongSkill(skill.clone()));
        }
    }
    for tool in &case.expect.tools {
        if !trace.tools.contains(tool) {
            failures.push(Failure::MissingTool(tool.clone()));
        }
    }
    for tool in &case.forbid.tools {
        if trace.tools.contains(tool) {
            failures.push(Failure::ForbiddenTool(tool.clone()));
        }
    }
    let mut steps = trace.steps.iter();
    for want in &case.expect.order {
        if !steps.any(|step| step_matches(step, want)) {
            failures.push(Failure::Order(format!(
                "expected {want} after the steps before it; the steps were: {}",
                trace.steps.join(", ")
            )));
            break;
        }
    }
    let output = &case.expect.output;
    for needle in &output.contains {
        if !answer.contains(needle.as_str()) {
            failures.push(Failure::Output(format!("does not contain {needle:?}")));
        }
    }
    for needle in &output.not_contains {
        if answer.contains(needle.as_str()) {
            failures.push(Failure::Output(format!("contains {needle:?}")));
        }
    }
    for pattern in &output.regex {
        let regex = regex::Regex::new(pattern).expect("checked when the case was loaded");
        if !regex.is_match(answer) {
            failures.push(Failure::Output(format!("does not match /{pattern}/")));
        }
    }
    failures
}

fn describe_ending(ending: &Value) -> String {
    match ending["reason"].as_str() {
        Some("budget") => format!(
            "stopped at its budget of {} {}",
            ending["limit"],
            ending["budget"].as_str().unwrap_or("")
        ),
        Some(reason) => reason.replace('_', " "),
        None => "ended without an answer".into(),
    }
}
