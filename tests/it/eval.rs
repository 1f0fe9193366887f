//! `skillpkg eval` over a suite of scripted cases covering every verdict:
//! exact precision, recall and per-case results, a stable `--json`, the
//! same results with `--jobs 4` as with `--jobs 1`, and `--baseline none`.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::{TestContext, has_pdftotext, run, skill_md, write_skill};

/// Two skills, alpha (with a note and a script) and beta.
fn skills(ctx: &TestContext) -> (std::path::PathBuf, std::path::PathBuf) {
    let root = ctx.project_root();
    let alpha = write_skill(
        &root,
        "alpha",
        &skill_md("alpha", "Does alpha work. Use when alpha is asked for."),
    );
    std::fs::write(alpha.join("notes.md"), "alpha notes\n").unwrap();
    std::fs::create_dir_all(alpha.join("scripts")).unwrap();
    std::fs::write(
        alpha.join("scripts/hello.sh"),
        "#!/bin/sh\necho hello from alpha\n",
    )
    .unwrap();
    let beta = write_skill(
        &root,
        "beta",
        &skill_md("beta", "Does beta work. Use when beta is asked for."),
    );
    (
        std::fs::canonicalize(alpha).unwrap(),
        std::fs::canonicalize(beta).unwrap(),
    )
}

/// A turn that calls `tool` with `input`, costing 10 tokens.
fn call(tool: &str, input: Value) -> Value {
    json!({"tool_calls": [{"name": tool, "input": input}], "usage": {"input_tokens": 8, "output_tokens": 2}})
}

fn say(text: &str) -> Value {
    json!({"text": text, "usage": {"input_tokens": 8, "output_tokens": 2}})
}

/// Writes the suite: a model script per case, and cases.toml.
fn suite(dir: &Path, alpha: &Path, beta: &Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir.join("models")).unwrap();
    let use_alpha = call("use_skill", json!({"name": "alpha"}));
    let models: Vec<(&str, Value)> = vec![
        ("correct", json!({"turns": [use_alpha, say("done alpha")]})),
        (
            "missed",
            json!({"turns": [say("I did it without a skill")]}),
        ),
        (
            "wrong",
            json!({"turns": [call("use_skill", json!({"name": "beta"})), use_alpha, say("done")]}),
        ),
        (
            "forbidden",
            json!({"turns": [call("shell", json!({"command": "echo hi"})), say("done")]}),
        ),
        (
            "order",
            json!({"turns": [call("read_resource", json!({"skill": "alpha", "path": "notes.md"})), use_alpha, say("done")]}),
        ),
        ("number", json!({"turns": [say("forty")]})),
        (
            "loop",
            json!({"turns": [call("list_dir", json!({"path": "."}))], "repeat_last": true}),
        ),
        (
            "implicit-read",
            json!({"turns": [call("read_file", json!({"path": beta.join("SKILL.md")})), say("done")]}),
        ),
        (
            "implicit-shell",
            json!({"turns": [call("shell", json!({"command": format!("sh {}/scripts/hello.sh", alpha.display())})), say("done")]}),
        ),
    ];
    for (name, script) in &models {
        std::fs::write(dir.join(format!("models/{name}.json")), script.to_string()).unwrap();
    }
    let cases = r#"
[[case]]
name = "01 correct trigger"
task = "do the alpha thing"
model = "scripted:models/correct.json"
expect.skills = ["alpha"]

[[case]]
name = "02 correct trigger and output"
task = "do the alpha thing and say so"
model = "scripted:models/correct.json"
expect.skills = ["alpha"]
expect.output = { contains = ["done"] }

[[case]]
name = "03 missed trigger"
task = "do the beta thing"
model = "scripted:models/missed.json"
expect.skills = ["beta"]

[[case]]
name = "04 wrong trigger"
task = "alpha only"
model = "scripted:models/wrong.json"
expect.skills = ["alpha"]
expect.not_skills = ["beta"]

[[case]]
name = "05 forbidden tool"
task = "no shell please"
model = "scripted:models/forbidden.json"
forbid.tools = ["shell"]

[[case]]
name = "06 wrong order"
task = "load alpha, then read its notes"
model = "scripted:models/order.json"
expect.skills = ["alpha"]
expect.order = ["use_skill:alpha", "read_resource:alpha/notes.md"]

[[case]]
name = "07 output mismatch"
task = "a number please"
model = "scripted:models/number.json"
expect.output = { regex = ['^\d+$'], not_contains = ["error"] }

[[case]]
name = "08 budget hit"
task = "loop"
model = "scripted:models/loop.json"
budgets = { max_turns = 2 }

[[case]]
name = "09 implicit activation by reading SKILL.md"
task = "beta by hand"
model = "scripted:models/implicit-read.json"
expect.skills = ["beta"]
expect.tools = ["read_file"]

[[case]]
name = "10 implicit activation by running a script"
task = "alpha by shell"
model = "scripted:models/implicit-shell.json"
expect.skills = ["alpha"]
expect.order = ["run_script:alpha/scripts/hello.sh"]

[[case]]
name = "11 no skill wanted"
task = "just talk"
model = "scripted:models/missed.json"
expect.not_skills = ["alpha", "beta"]

[[case]]
name = "12 repeated trials"
task = "alpha thrice"
model = "scripted:models/correct.json"
runs = 3
expect.skills = ["alpha"]
"#;
    let file = dir.join("cases.toml");
    std::fs::write(&file, cases).unwrap();
    file
}

fn eval(ctx: &TestContext, args: &[&str]) -> (i32, Value, String) {
    let out = run(ctx.command().arg("eval").args(args).arg("--json"));
    let report: Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", out.stdout, out.stderr));
    (out.status, report, out.stderr)
}

/// The report without what varies from run to run: times and paths.
fn stable(mut report: Value, dir: &Path) -> Value {
    report["summary"]["time_ms"] = json!(0);
    for case in report["cases"].as_array_mut().unwrap() {
        let file = case["file"]
            .as_str()
            .unwrap()
            .replace(&dir.display().to_string(), "[SUITE]");
        case["file"] = json!(file);
        for run in case["runs"].as_array_mut().unwrap() {
            run["latency_ms"] = json!(0);
        }
    }
    report
}

#[test]
fn a_suite_of_every_verdict_scores_exactly() {
    let ctx = TestContext::new();
    let (alpha, beta) = skills(&ctx);
    let dir = ctx.root().join("suite");
    let cases = suite(&dir, &alpha, &beta);
    let (status, report, stderr) = eval(&ctx, &[cases.to_str().unwrap(), "--jobs", "1"]);
    assert_eq!(status, 1, "failing cases make eval fail: {stderr}");
    let verdicts: Vec<(String, bool)> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["passed"].as_bool().unwrap(),
            )
        })
        .collect();
    let passed: Vec<&str> = verdicts
        .iter()
        .filter(|(_, p)| *p)
        .map(|(n, _)| &n[..2])
        .collect();
    assert_eq!(passed, ["01", "02", "09", "10", "11", "12"], "{verdicts:?}");
    let summary = &report["summary"];
    assert_eq!(summary["cases"], 12);
    assert_eq!(summary["passed"], 6);
    assert_eq!(summary["trigger_precision"], 0.9);
    assert_eq!(summary["trigger_recall"], 0.9);
    assert_eq!(summary["violations"], 3);
    assert_eq!(summary["output_pass_rate"], 0.5);
    assert_eq!(summary["pass_at_n"], 1.0);
    let reason = |n: usize| report["cases"][n]["runs"][0]["failures"][0].clone();
    assert_eq!(reason(2), json!({"kind": "missed_skill", "detail": "beta"}));
    assert_eq!(reason(3), json!({"kind": "wrong_skill", "detail": "beta"}));
    assert_eq!(
        reason(4),
        json!({"kind": "forbidden_tool", "detail": "shell"})
    );
    assert_eq!(reason(5)["kind"], "order");
    assert_eq!(
        reason(6),
        json!({"kind": "output", "detail": "does not match /^\\d+$/"})
    );
    assert_eq!(
        reason(7),
        json!({"kind": "ended", "detail": "stopped at its budget of 2 turns"})
    );
    assert_eq!(report["cases"][8]["runs"][0]["skills"], json!(["beta"]));

    insta::assert_json_snapshot!("eval_report", stable(report.clone(), &dir));

    // The same results when cases run four at a time.
    let (_, parallel, _) = eval(&ctx, &[cases.to_str().unwrap(), "--jobs", "4"]);
    // Compared as text, so a difference shows where it is.
    let text = |report: Value| serde_json::to_string_pretty(&stable(report, &dir)).unwrap();
    assert_eq!(text(parallel), text(report));
}

#[test]
fn filters_tables_and_baselines() {
    let ctx = TestContext::new();
    let (alpha, beta) = skills(&ctx);
    let dir = ctx.root().join("suite");
    let cases = suite(&dir, &alpha, &beta);
    let out = run(ctx
        .command()
        .args(["eval", cases.to_str().unwrap(), "--filter", "correct"]))
    .assert_ok();
    assert!(out.stdout.contains("01 correct trigger"), "{}", out.stdout);
    assert!(
        out.stdout.contains("2 cases: 2 passed, 0 failed"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("precision 100%"), "{}", out.stdout);
    let one = run(ctx
        .command()
        .args(["eval", cases.to_str().unwrap(), "--filter", "01 correct"]))
    .assert_ok();
    assert!(
        one.stdout.contains("\n1 case: 1 passed, 0 failed"),
        "{}",
        one.stdout
    );

    // Without skills, use_skill of alpha fails: the skill is what helps.
    let (status, report, stderr) = eval(
        &ctx,
        &[
            cases.to_str().unwrap(),
            "--filter",
            "01",
            "--baseline",
            "none",
        ],
    );
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(report["cases"][0]["baseline_passed_runs"], 0);
    assert_eq!(report["summary"]["pass_rate"], 1.0);
    assert_eq!(report["summary"]["baseline_pass_rate"], 0.0);

    let out = ctx.fails(&["eval", "nowhere.toml"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"error: [TEMP]/project/nowhere.toml: no such case file or directory");
}

#[test]
fn the_shipped_suites_pass_with_their_scripted_models() {
    if !has_pdftotext() {
        return;
    }
    let ctx = TestContext::new();
    ctx.ok(&["add", "example/report-writer"]);
    let evals = Path::new(env!("CARGO_MANIFEST_DIR")).join("evals");
    let (status, report, stderr) = eval(&ctx, &[evals.to_str().unwrap()]);
    assert_eq!(status, 0, "{stderr}\n{report:#}");
    assert_eq!(report["summary"]["cases"], 6);
    assert_eq!(report["summary"]["trigger_precision"], 1.0);
    assert_eq!(report["summary"]["trigger_recall"], 1.0);
}

#[test]
fn a_case_whose_skill_is_not_installed_says_so_and_how_to_add_it() {
    let ctx = TestContext::new();
    skills(&ctx);
    let dir = ctx.root().join("suite");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("answer.json"),
        json!({"turns": [say("done")]}).to_string(),
    )
    .unwrap();
    std::fs::write(
        dir.join("cases.toml"),
        r#"
[[case]]
name = "typo"
task = "do the alpha thing"
model = "scripted:answer.json"
expect.skills = ["alpah"]

[[case]]
name = "absent one"
task = "make a gamma"
model = "scripted:answer.json"
expect.skills = ["gamma"]

[[case]]
name = "absent two"
task = "make another gamma"
model = "scripted:answer.json"
expect.skills = ["gamma"]
"#,
    )
    .unwrap();
    let (status, report, stderr) = eval(&ctx, &[dir.join("cases.toml").to_str().unwrap()]);
    assert_eq!(status, 1);
    insta::assert_snapshot!(ctx.redact(&stderr), @"
    warning: case 'typo' expects the skill alpah, which is not installed here, so it fails
    hint: did you mean alpha? Otherwise install it: `skillpkg add <org>/alpah`, or `skillpkg add alpah --path <folder>`
    warning: 2 cases expect the skill gamma, which is not installed here, so they fail
    hint: install it (`skillpkg add <org>/gamma`, or `skillpkg add gamma --path <folder>`), or fix the name in the case
    ");
    // No baseline: the field is there, and null.
    assert_eq!(report["summary"]["baseline_pass_rate"], Value::Null);
}

/// A suite in `<temp>/private` of one case, whose scripted model runs
/// `command` through the shell and answers with what it printed.
fn shell_case(ctx: &TestContext, command: &str) -> std::path::PathBuf {
    let dir = ctx.root().join("private");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("model.json"),
        json!({"turns": [call("shell", json!({"command": command})), say("{{last_tool_result}}")]})
            .to_string(),
    )
    .unwrap();
    std::fs::write(
        dir.join("cases.toml"),
        "[[case]]\nname = \"shell\"\ntask = \"run it\"\nmodel = \"scripted:model.json\"\nexpect.output = { contains = [\"mode 700\"] }\n",
    )
    .unwrap();
    dir.join("cases.toml")
}

/// `skillpkg eval <cases> --json` with its temporary folders in `tmp`.
fn eval_in_tmp(ctx: &TestContext, cases: &Path, tmp: &Path) -> std::process::Command {
    std::fs::create_dir_all(tmp).unwrap();
    let mut command = ctx.command();
    command
        .env("TMPDIR", tmp)
        .arg("eval")
        .arg(cases)
        .args(["--json", "--sandbox", "off"]);
    command
}

#[test]
fn a_cases_workspace_is_private_to_the_user_whatever_the_umask() {
    let ctx = TestContext::new();
    let cases = shell_case(&ctx, "stat -c 'mode %a' \"$PWD\"");
    let tmp = ctx.root().join("tmp");
    // A umask that lets everyone read what tempfile makes by default.
    let mut command = eval_in_tmp(&ctx, &cases, &tmp);
    with_umask(&mut command, 0o022);
    let out = run(&mut command);
    assert_eq!(out.status, 0, "{}\n{}", out.stdout, out.stderr);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(report["summary"]["passed"], 1, "{report:#}");
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        0,
        "the workspace is removed"
    );
}

/// Runs `command` under `mask`.
fn with_umask(command: &mut std::process::Command, mask: libc::mode_t) {
    use std::os::unix::process::CommandExt as _;
    // SAFETY: umask(2) is async-signal-safe and cannot fail.
    unsafe {
        command.pre_exec(move || {
            libc::umask(mask);
            Ok(())
        });
    }
}

#[test]
fn sigint_during_a_case_kills_its_command_and_removes_its_workspace() {
    let ctx = TestContext::new();
    // An argument no other test's command has, to find the sleep by.
    let cases = shell_case(&ctx, "sleep 271.828; echo never");
    let tmp = ctx.root().join("tmp");
    let child = eval_in_tmp(&ctx, &cases, &tmp)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    crate::common::wait_until(
        || crate::common::running_with_arg("271.828"),
        || "the case's command never started".to_string(),
    );
    let workspaces = || {
        std::fs::read_dir(&tmp)
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
    };
    assert!(
        workspaces().iter().any(|w| w.starts_with("skillpkg-eval-")),
        "{:?}",
        workspaces()
    );
    let started = std::time::Instant::now();
    // SAFETY: kill(2) on our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let out = child.wait_with_output().unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert!(
        !crate::common::running_with_arg("271.828"),
        "the case's command outlived eval"
    );
    assert_eq!(workspaces(), Vec::<String>::new(), "a workspace was left");
}
