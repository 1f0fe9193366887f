//! `skillpkg exec` with scripted models: disclosure levels, the catalog
//! budget, tool policy, confinement, scripts, budgets, approvals, the
//! audit log, slash commands and `--dry-run`.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{
    Output, TestContext, has_pdftotext, in_terminal, in_terminal_typing, prompt_in, run,
    running_with_arg, skill_md, wait_until, write_skill,
};

/// A minimal one-page PDF whose text layer says `text`.
fn make_pdf(path: &Path, text: &str) {
    let stream = format!("BT /F1 12 Tf 72 720 Td ({text}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>".to_string(),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
        format!("<< /Length {} >>\nstream\n{stream}\nendstream", stream.len()),
    ];
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", i + 1).as_bytes());
    }
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        pdf.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    std::fs::write(path, pdf).unwrap();
}

/// Writes a model script and returns its `--model` value.
pub(crate) fn script(ctx: &TestContext, name: &str, turns: Value) -> String {
    let path = ctx.root().join(format!("{name}.json"));
    std::fs::write(&path, turns.to_string()).unwrap();
    format!("scripted:{}", path.display())
}

fn exec(ctx: &TestContext, args: &[&str]) -> Output {
    run(ctx.command().arg("exec").args(args))
}

/// Every event of the newest audit log of the project.
pub(crate) fn audit(ctx: &TestContext) -> Vec<Value> {
    let runs = ctx.root().join("project/.skillpkg/runs");
    let mut logs: Vec<PathBuf> = std::fs::read_dir(&runs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    logs.sort();
    let newest = logs.last().expect("an audit log");
    std::fs::read_to_string(newest)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub(crate) fn events<'a>(log: &'a [Value], event: &str) -> Vec<&'a Value> {
    log.iter().filter(|e| e["event"] == event).collect()
}

/// The README's main flow, with `flags`: the sample index's pdf skill
/// runs pdftotext over a PDF whose text is `text`, and the answer quotes it.
pub(crate) fn summarize_a_pdf(ctx: &TestContext, text: &str, flags: &[&str]) {
    ctx.ok(&["add", "example/pdf-processing"]);
    make_pdf(&ctx.project.join("report.pdf"), text);
    let model = script(
        ctx,
        "pdf",
        json!({"turns": [
            {"tool_calls": [{"name": "use_skill", "input": {"name": "pdf-processing"}}]},
            {"tool_calls": [{"name": "run_script", "input": {"skill": "pdf-processing", "path": "scripts/extract_text.sh", "args": ["report.pdf"]}}]},
            {"text": "Summary: {{last_tool_result}}"}
        ]}),
    );
    let args = [
        &["--model", &model, "--yes"],
        flags,
        &["summarize report.pdf"],
    ]
    .concat();
    let out = exec(ctx, &args).assert_ok();
    assert!(out.stdout.contains(text), "{}", out.stdout);
}

#[test]
fn a_pdf_task_activates_the_skill_runs_its_script_and_answers_from_the_pdf() {
    if !has_pdftotext() {
        return;
    }
    let ctx = TestContext::new();
    summarize_a_pdf(&ctx, "Quarterly revenue grew by 12 percent", &[]);
    let log = audit(&ctx);
    let disclosures = events(&log, "disclosure");
    assert_eq!(disclosures[0]["skill"], "pdf-processing");
    assert_eq!(disclosures[0]["level"], 2);
    assert_eq!(disclosures[1]["level"], 3);
    assert_eq!(disclosures[1]["path"], "scripts/extract_text.sh");
    assert_eq!(events(&log, "end")[0]["ending"]["reason"], "answered");
    assert_eq!(events(&log, "end")[0]["tool_calls"], 2);
}

#[test]
fn with_fifty_skills_only_the_one_used_is_disclosed_and_search_reaches_omitted_ones() {
    let ctx = TestContext::new();
    let root = ctx.project_root();
    for i in 0..50 {
        let name = format!("skill-{i:02}");
        write_skill(
            &root,
            &name,
            &skill_md(
                &name,
                &format!("Handles topic number {i} in depth. Use when topic {i} comes up."),
            ),
        );
    }
    // Named to sort after the others, so only relevance can lift it.
    write_skill(
        &root,
        "warehouse-invoices",
        &skill_md(
            "warehouse-invoices",
            "Creates invoices from orders. Use when billing a customer.",
        ),
    );
    let model = script(
        &ctx,
        "one",
        json!({"turns": [
            {"tool_calls": [{"name": "search_skills", "input": {"query": "invoice billing"}}]},
            {"tool_calls": [{"name": "use_skill", "input": {"name": "warehouse-invoices"}}]},
            {"text": "done"}
        ]}),
    );
    // A budget too small for 51 entries: some are left out, with a notice.
    exec(
        &ctx,
        &[
            "--model",
            &model,
            "--catalog-budget",
            "2000",
            "compose a haiku",
        ],
    )
    .assert_ok();
    let log = audit(&ctx);
    let catalog = events(&log, "catalog")[0];
    assert!(catalog["chars"].as_u64().unwrap() <= 2000, "{catalog}");
    let omitted = catalog["omitted"].as_array().unwrap();
    assert!(
        omitted.iter().any(|n| n == "warehouse-invoices"),
        "{catalog}"
    );
    let found = events(&log, "tool_result")[0]["output"].as_str().unwrap();
    assert!(found.contains("warehouse-invoices"), "{found}");
    let disclosures = events(&log, "disclosure");
    assert_eq!(disclosures.len(), 1);
    assert_eq!(disclosures[0]["skill"], "warehouse-invoices");

    // With the default budget, all of them fit (the 51 and the 2 builtin skills).
    exec(&ctx, &["--model", &model, "make an invoice"]).assert_ok();
    let log = audit(&ctx);
    let catalog = events(&log, "catalog")[0];
    assert_eq!(catalog["skills"].as_array().unwrap().len(), 53);
    assert!(catalog["omitted"].as_array().unwrap().is_empty());
    assert_eq!(
        catalog["skills"][0]["name"], "warehouse-invoices",
        "most relevant first"
    );
}

#[test]
fn restrict_tools_refuses_what_the_active_skill_does_not_allow() {
    let ctx = TestContext::new();
    write_skill(
        &ctx.project_root(),
        "reader",
        "---\nname: reader\ndescription: Reads files. Use when reading.\nallowed-tools: Read\n---\nRead only.\n",
    );
    let model = script(
        &ctx,
        "restrict",
        json!({"turns": [
            {"tool_calls": [{"name": "use_skill", "input": {"name": "reader"}}]},
            {"tool_calls": [{"name": "shell", "input": {"command": "echo hi"}}]},
            {"text": "{{last_tool_result}}"}
        ]}),
    );
    let out = exec(
        &ctx,
        &["--model", &model, "--restrict-tools", "--yes", "read"],
    )
    .assert_ok();
    insta::assert_snapshot!(ctx.redact(&out.stdout), @"refused: shell is not in the allowed-tools of skill 'reader', and --restrict-tools makes that list the only tools available while it is active");
    let log = audit(&ctx);
    let result = events(&log, "tool_result")[1];
    assert_eq!(result["is_error"], true);
}

#[test]
fn paths_outside_the_workspace_and_skill_directories_are_refused() {
    let ctx = TestContext::new();
    let skill = write_skill(
        &ctx.project_root(),
        "docs",
        &skill_md("docs", "Docs. Use when testing."),
    );
    std::fs::write(ctx.root().join("secret.txt"), "top secret").unwrap();
    std::os::unix::fs::symlink(ctx.root().join("secret.txt"), skill.join("escape.txt")).unwrap();
    std::os::unix::fs::symlink(
        ctx.root().join("secret.txt"),
        ctx.root().join("project/link.txt"),
    )
    .unwrap();
    let secret = ctx.root().join("secret.txt");
    let calls = json!([
        {"name": "read_resource", "input": {"skill": "docs", "path": "../../../../secret.txt"}},
        {"name": "read_resource", "input": {"skill": "docs", "path": "escape.txt"}},
        {"name": "read_resource", "input": {"skill": "docs", "path": secret}},
        {"name": "read_file", "input": {"path": secret}},
        {"name": "read_file", "input": {"path": "../secret.txt"}},
        {"name": "read_file", "input": {"path": "link.txt"}},
        {"name": "run_script", "input": {"skill": "docs", "path": "../../../../secret.txt"}}
    ]);
    let model = script(
        &ctx,
        "escape",
        json!({"turns": [{"tool_calls": calls}, {"text": "ok"}]}),
    );
    exec(&ctx, &["--model", &model, "--yes", "read"]).assert_ok();
    let log = audit(&ctx);
    let results = events(&log, "tool_result");
    assert_eq!(results.len(), 7);
    let mut outputs = String::new();
    for result in results {
        assert_eq!(result["is_error"], true, "{result}");
        outputs += &format!("{}\n", result["output"].as_str().unwrap());
    }
    insta::assert_snapshot!(ctx.redact(&outputs), @"
    ../../../../secret.txt is outside the directories this run may use ([TEMP]/project/.agents/skills/docs)
    escape.txt is outside the directories this run may use ([TEMP]/project/.agents/skills/docs)
    [TEMP]/secret.txt is outside the directories this run may use ([TEMP]/project/.agents/skills/docs)
    [TEMP]/secret.txt is outside the directories this run may use ([TEMP]/project, [TEMP]/project/.agents/skills/docs, [TEMP]/cache/builtin/[VERSION]/finding-skills, [TEMP]/cache/builtin/[VERSION]/skill-authoring)
    ../secret.txt is outside the directories this run may use ([TEMP]/project, [TEMP]/project/.agents/skills/docs, [TEMP]/cache/builtin/[VERSION]/finding-skills, [TEMP]/cache/builtin/[VERSION]/skill-authoring)
    link.txt is outside the directories this run may use ([TEMP]/project, [TEMP]/project/.agents/skills/docs, [TEMP]/cache/builtin/[VERSION]/finding-skills, [TEMP]/cache/builtin/[VERSION]/skill-authoring)
    ../../../../secret.txt is outside the directories this run may use ([TEMP]/project/.agents/skills/docs)
    ");
}

#[test]
fn scripts_get_no_secrets_and_are_killed_whole_at_the_timeout() {
    let ctx = TestContext::new();
    if !crate::sandbox::sandbox_available(&ctx) {
        return;
    }
    let skill = write_skill(
        &ctx.project_root(),
        "tools",
        &skill_md("tools", "Tools. Use when testing."),
    );
    std::fs::create_dir_all(skill.join("scripts")).unwrap();
    let write_script = |name: &str, body: &str| {
        use std::os::unix::fs::PermissionsExt;
        let path = skill.join("scripts").join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    write_script("env.sh", "env");
    // The marker finds the child: the pid it sees is its namespace's.
    write_script("hang.sh", "sleep 300.0421 &\nsleep 300");
    let model = script(
        &ctx,
        "scripts",
        json!({"turns": [
            {"tool_calls": [{"name": "run_script", "input": {"skill": "tools", "path": "scripts/env.sh"}}]},
            {"tool_calls": [{"name": "run_script", "input": {"skill": "tools", "path": "scripts/hang.sh"}}]},
            {"text": "{{last_tool_result}}"}
        ]}),
    );
    let started = std::time::Instant::now();
    let out = run(ctx
        .command()
        .env("FAKE_API_KEY", "sk-do-not-leak")
        .env("GITHUB_TOKEN", "ghp-do-not-leak")
        .env("VISIBLE_SETTING", "shown")
        .args(["exec", "--model", &model, "--yes", "--timeout", "1", "go"]))
    .assert_ok();
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    insta::assert_snapshot!(ctx.redact(&out.stdout), @"
    [killed: the command ran past its time limit]
    exit status: killed by a signal
    ");
    let log = audit(&ctx);
    let env = events(&log, "tool_result")[0]["output"]
        .as_str()
        .unwrap()
        .to_string();
    // Only the allow-list: a setting not passed with --pass-env stays out.
    assert!(!env.contains("VISIBLE_SETTING"), "{env}");
    assert!(env.contains("SKILL_DIR="), "{env}");
    assert!(env.contains("TMPDIR="), "{env}");
    assert!(!env.contains("do-not-leak"), "{env}");
    // Soon gone, or a zombie waiting for whoever adopted it to reap it.
    wait_until(
        || !running_with_arg("300.0421"),
        || "the script's child outlived the timeout".into(),
    );
}

#[test]
fn without_a_terminal_a_call_needing_approval_fails_closed_with_the_rerun_command() {
    let ctx = TestContext::new();
    let model = script(
        &ctx,
        "write",
        json!({"turns": [
            {"tool_calls": [{"name": "write_file", "input": {"path": "out.txt", "content": "hello"}}]},
            {"text": "written"}
        ]}),
    );
    let out = exec(&ctx, &["--model", &model, "save a greeting"]).assert_fails();
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: the model called write_file, which needs approval, and there is no terminal to ask
    hint: re-run with approval: skillpkg exec --allow-tool write_file --model scripted:[TEMP]/write.json 'save a greeting'
    hint: or approve every tool: skillpkg exec --yes --model scripted:[TEMP]/write.json 'save a greeting'
    ");
    assert!(!ctx.root().join("project/out.txt").exists());
    // The suggested command, pasted into a shell as it is, does the job.
    let rerun = out
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("hint: re-run with approval: "))
        .unwrap()
        .to_string();
    let skillpkg = ctx.command();
    let bin_dir = Path::new(skillpkg.get_program()).parent().unwrap();
    let mut sh = std::process::Command::new("sh");
    sh.env_clear()
        .current_dir(&ctx.project)
        .args(["-c", &rerun]);
    for (key, value) in skillpkg.get_envs() {
        if let Some(value) = value {
            sh.env(key, value);
        }
    }
    let path = std::env::var("PATH").unwrap_or_default();
    sh.env("PATH", format!("{}:{path}", bin_dir.display()));
    let pasted = run(&mut sh).assert_ok();
    assert!(pasted.stdout.contains("written"), "{}", pasted.stdout);
    std::fs::remove_file(ctx.root().join("project/out.txt")).unwrap();
    exec(&ctx, &["--model", &model, "--yes", "save a greeting"]).assert_ok();
    assert_eq!(
        std::fs::read_to_string(ctx.root().join("project/out.txt")).unwrap(),
        "hello"
    );
}

#[test]
fn without_a_terminal_a_refused_command_is_named_in_the_grant_to_rerun_with() {
    let ctx = TestContext::new();
    let model = script(
        &ctx,
        "status",
        json!({"turns": [
            {"tool_calls": [{"name": "shell", "input": {"command": "echo one && ls -a"}}]},
            {"text": "said: {{last_tool_result}}"}
        ]}),
    );
    let out = exec(&ctx, &["--model", &model, "status"]).assert_fails();
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r"
    error: the model called shell, which needs approval, and there is no terminal to ask
    hint: re-run with approval: skillpkg exec --allow-tool 'shell(echo one:*)' --allow-tool 'shell(ls -a:*)' --model scripted:[TEMP]/status.json status
    hint: or approve every tool: skillpkg exec --yes --model scripted:[TEMP]/status.json status
    ");
    // Those grants approve that call and no other.
    let rerun = [
        "--allow-tool",
        "shell(echo one:*)",
        "--allow-tool",
        "shell(ls -a:*)",
    ];
    let ran = exec(&ctx, &[&rerun[..], &["--model", &model, "status"]].concat()).assert_ok();
    assert!(ran.stdout.contains("one"), "{}", ran.stdout);
    let other = script(
        &ctx,
        "other",
        json!({"turns": [
            {"tool_calls": [{"name": "shell", "input": {"command": "echo two && ls -a"}}]},
            {"text": "said: {{last_tool_result}}"}
        ]}),
    );
    exec(&ctx, &[&rerun[..], &["--model", &other, "status"]].concat()).assert_fails();

    // A line no grant of single commands covers says so.
    let redirect = script(
        &ctx,
        "redirect",
        json!({"turns": [
            {"tool_calls": [{"name": "shell", "input": {"command": "echo hi > out.txt"}}]},
            {"text": "done"}
        ]}),
    );
    let out = exec(&ctx, &["--model", &redirect, "save"]).assert_fails();
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r"
    error: the model called shell, which needs approval, and there is no terminal to ask
    hint: no grant short of every shell call covers it (`echo hi > out.txt` holds a redirection); to allow every shell call: skillpkg exec --allow-tool shell --model scripted:[TEMP]/redirect.json save
    hint: or approve every tool: skillpkg exec --yes --model scripted:[TEMP]/redirect.json save
    ");
}

#[test]
fn control_characters_a_model_quotes_show_as_a_user_expects_and_reach_it_as_they_are() {
    let ctx = TestContext::new();
    let model = script(
        &ctx,
        "pages",
        json!({"turns": [
            {"tool_calls": [{"name": "shell", "input": {
                "command": "printf 'page 1\\fpage 2\\r\\nname\\tsize\\n\\033[31mred\\033[0m 10%%\\r50%%\\n'"
            }}]},
            {"text": "{{last_tool_result}}"}
        ]}),
    );
    let out = exec(&ctx, &["--yes", "--model", &model, "print"]).assert_ok();
    insta::assert_snapshot!(out.stdout, @r"
    exit status: 0
    stdout:
    page 1^Lpage 2
    name	size
    ^[[31mred^[[0m 10%^M50%
    ");
    // The model got the output as the command wrote it.
    let log = audit(&ctx);
    let output = events(&log, "tool_result")[0]["output"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        output.contains("page 1\u{c}page 2\r\nname\tsize\n\u{1b}[31mred\u{1b}[0m 10%\r50%\n"),
        "{output:?}"
    );
}

#[test]
fn a_model_that_never_stops_is_ended_by_each_budget() {
    let ctx = TestContext::new();
    let model = script(
        &ctx,
        "loop",
        json!({"turns": [
            {"text": "again", "tool_calls": [{"name": "list_dir", "input": {"path": "."}}], "usage": {"input_tokens": 40, "output_tokens": 10}}
        ], "repeat_last": true}),
    );
    let mut transcript = String::new();
    for (flag, value) in [
        ("--max-turns", "3"),
        ("--max-tool-calls", "4"),
        ("--max-tokens", "120"),
    ] {
        let out = exec(&ctx, &["--model", &model, flag, value, "loop"]).assert_fails();
        transcript += &out.transcript();
        let log = audit(&ctx);
        let end = events(&log, "end");
        assert_eq!(end.len(), 1, "{flag}: the audit is complete");
        assert_eq!(end[0]["ending"]["reason"], "budget");
        assert_eq!(events(&log, "start").len(), 1);
    }
    insta::assert_snapshot!(ctx.redact(&transcript), @"
    $ skillpkg exec --model scripted:[TEMP]/loop.json --max-turns 3 loop
    error: the run stopped at its budget of 3 turns
    hint: raise it with --max-turns; the audit log is [TEMP]/project/.skillpkg/runs/[RUN].jsonl
    $ skillpkg exec --model scripted:[TEMP]/loop.json --max-tool-calls 4 loop
    error: the run stopped at its budget of 4 tool calls
    hint: raise it with --max-tool-calls; the audit log is [TEMP]/project/.skillpkg/runs/[RUN].jsonl
    $ skillpkg exec --model scripted:[TEMP]/loop.json --max-tokens 120 loop
    error: the run stopped at its budget of 120 tokens
    hint: raise it with --max-tokens; the audit log is [TEMP]/project/.skillpkg/runs/[RUN].jsonl
    ");
}

#[test]
fn a_tool_call_named_after_a_skill_loads_it_once() {
    let ctx = TestContext::new();
    write_skill(
        &ctx.project_root(),
        "greeter",
        &skill_md("greeter", "Greets. Use when greeting."),
    );
    let model = script(
        &ctx,
        "route",
        json!({"turns": [
            {"tool_calls": [{"name": "greeter", "input": {}}]},
            {"tool_calls": [{"name": "use_skill", "input": {"name": "greeter"}}]},
            {"text": "{{last_tool_result}}"}
        ]}),
    );
    let out = exec(&ctx, &["--model", &model, "greet"]).assert_ok();
    insta::assert_snapshot!(out.stdout, @"The skill 'greeter' is already loaded with these arguments; its instructions are above.");
    let log = audit(&ctx);
    assert_eq!(events(&log, "tool_call")[0]["routed_from"], "greeter");
    assert_eq!(events(&log, "disclosure").len(), 1);
}

#[test]
fn user_only_skills_are_hidden_from_the_model_but_slash_invocable() {
    let ctx = TestContext::new();
    write_skill(
        &ctx.project_root(),
        "deploy",
        "---\nname: deploy\ndescription: Deploys. Use when shipping.\ndisable-model-invocation: true\n---\nDeploy $ARGUMENTS now.\n",
    );
    // Codex's way of saying the same thing.
    let codex = write_skill(
        &ctx.project_root(),
        "release",
        &skill_md("release", "Releases. Use when releasing."),
    );
    std::fs::create_dir_all(codex.join("agents")).unwrap();
    std::fs::write(
        codex.join("agents/openai.yaml"),
        "interface:\n  display_name: Release\npolicy:\n  allow_implicit_invocation: false\n",
    )
    .unwrap();
    let model = script(
        &ctx,
        "user-only",
        json!({"turns": [
            {"tool_calls": [{"name": "use_skill", "input": {"name": "deploy"}}]},
            {"text": "{{last_tool_result}}"}
        ]}),
    );
    let out = exec(&ctx, &["--model", &model, "ship it"]).assert_ok();
    insta::assert_snapshot!(out.stdout, @"the skill 'deploy' can only be invoked by the user (disable-model-invocation)");
    let log = audit(&ctx);
    let listed = events(&log, "catalog")[0]["skills"]
        .as_array()
        .unwrap()
        .clone();
    assert!(!listed.is_empty());
    assert!(
        listed
            .iter()
            .all(|e| e["name"] != "deploy" && e["name"] != "release"),
        "{listed:?}"
    );

    let done = script(&ctx, "done", json!({"turns": [{"text": "deployed"}]}));
    exec(&ctx, &["--model", &done, "/deploy staging"]).assert_ok();
    let log = audit(&ctx);
    let disclosure = events(&log, "disclosure")[0];
    assert_eq!(disclosure["via"], "slash");
    assert_eq!(disclosure["disclosure"]["skill"], "deploy");
    let out = exec(&ctx, &["--model", &done, "/nope x"]).assert_fails();
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: /nope: there is no skill named 'nope'
    hint: `skillpkg list` shows the skills
    ");
    let out = exec(&ctx, &["--model", &done, "/deplyo x"]).assert_fails();
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: /deplyo: there is no skill named 'deplyo'
    hint: did you mean /deploy?
    ");
}

#[test]
fn dry_run_shows_the_prompt_tools_and_estimate_and_no_model_says_how_to_configure_one() {
    let ctx = TestContext::new();
    write_skill(
        &ctx.project_root(),
        "greeter",
        &skill_md("greeter", "Greets. Use when greeting."),
    );
    let out = exec(&ctx, &["--dry-run", "greet"]).assert_ok();
    assert!(out.stdout.contains("<available_skills>"), "{}", out.stdout);
    assert!(out.stdout.contains("<name>greeter</name>"));
    assert!(out.stdout.contains("\"name\": \"use_skill\""));
    // The greeter and the two builtin skills.
    assert!(
        out.stdout.contains(
            "tokens (3 skills listed, 0 left out, in a catalog budget of 8000 characters)"
        ),
        "{}",
        out.stdout
    );
    assert!(
        !ctx.root().join("project/.skillpkg/runs").exists(),
        "a dry run writes no audit"
    );

    let out = exec(&ctx, &["greet"]).assert_fails();
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
    error: no model is configured
    hint: pass --model anthropic:<model>, openai:<model> or scripted:<file>
    hint: or set SKILLPKG_MODEL, or `[agent] model = "…"` in the skills.toml of a project you trust
    hint: or export ANTHROPIC_API_KEY or OPENAI_API_KEY (or put it in credentials.toml in the config directory) to use anthropic:claude-sonnet-4-5 or openai:gpt-4o
    "#);
}

/// A project skill `name` with one executable script `scripts/<script>`
/// running `body` under `/bin/sh`.
pub(crate) fn skill_with_script(ctx: &TestContext, name: &str, script: &str, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    let skill = write_skill(
        &ctx.project_root(),
        name,
        &skill_md(name, "Runs a script. Use when testing."),
    );
    std::fs::create_dir_all(skill.join("scripts")).unwrap();
    let path = skill.join("scripts").join(script);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn ctrl_c_ends_the_run_cleanly_and_the_audit_is_complete() {
    let ctx = TestContext::new();
    skill_with_script(&ctx, "slow", "wait.sh", ": > started\nsleep 30");
    let model = script(
        &ctx,
        "slow",
        json!({"turns": [
            {"tool_calls": [{"name": "run_script", "input": {"skill": "slow", "path": "scripts/wait.sh"}}]},
            {"text": "never reached"}
        ]}),
    );
    let child = ctx
        .command()
        .args(["exec", "--model", &model, "--yes", "wait"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the script runs (it has made its marker file), then press Ctrl-C.
    let started = std::time::Instant::now();
    let marker = ctx.project.join("started");
    wait_until(|| marker.exists(), || "the script never started".into());
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "the script was not waited out"
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    insta::assert_snapshot!(ctx.redact(&stderr), @r"
         Created started
    error: interrupted; the audit log is [TEMP]/project/.skillpkg/runs/[RUN].jsonl
    ");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("never reached"));
    let log = audit(&ctx);
    assert_eq!(events(&log, "end")[0]["ending"]["reason"], "interrupted");
}

#[test]
fn json_prints_the_result() {
    let ctx = TestContext::new();
    let model = script(&ctx, "answer", json!({"turns": [{"text": "forty-two"}]}));
    let out = exec(&ctx, &["--model", &model, "--json", "the answer"]).assert_ok();
    let result: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(result["answer"], "forty-two");
    assert_eq!(result["ending"]["reason"], "answered");
    assert_eq!(result["turns"], 1);
    assert!(result["audit"].as_str().unwrap().ends_with(".jsonl"));
}

#[test]
fn the_repl_keeps_the_conversation_and_picks_up_new_skills() {
    let ctx = TestContext::new();
    let model = script(
        &ctx,
        "repl",
        json!({"turns": [
            // Skills are read-only to write_file; a command (approved by
            // --yes) adds one while the REPL runs.
            {"tool_calls": [{"name": "shell", "input": {
                "command": "mkdir -p .agents/skills/late && printf '%s\\n' '---' 'name: late' 'description: Added while the REPL ran. Use when testing.' '---' 'Late body for $ARGUMENTS.' > .agents/skills/late/SKILL.md"
            }}]},
            {"text": "made the skill"},
            {"text": "used: {{last_tool_result}}"}
        ]}),
    );
    // A pseudo-terminal (script(1)) so that exec sees one and opens the REPL.
    let (ok, shown) = in_terminal_typing(
        &ctx,
        &ctx.root().join("project"),
        &format!("exec --yes --model {model}"),
        "> ",
        &["make a skill", "/skills", "/late tomorrow", "/exit"],
    );
    assert!(ok, "{shown}");
    assert!(shown.contains("made the skill"), "{shown}");
    assert!(shown.contains("/late "), "the new skill is listed: {shown}");
    let log = audit(&ctx);
    assert_eq!(events(&log, "start").len(), 1, "one session, one log");
    let slash = events(&log, "disclosure")
        .into_iter()
        .find(|d| d["via"] == "slash")
        .expect("the slash command disclosed the new skill");
    assert_eq!(slash["disclosure"]["skill"], "late");
    assert_eq!(events(&log, "end").len(), 2, "two inputs reached the model");
    let history = std::fs::read_to_string(ctx.root().join("project/.skillpkg/history")).unwrap();
    assert!(
        history.contains("/late tomorrow"),
        "the history is kept: {history}"
    );
}

#[test]
fn the_repl_says_each_load_warning_once_and_points_unknown_commands_at_help() {
    let ctx = TestContext::new();
    write_skill(
        &ctx.project_root(),
        "broken",
        "---\nname: broken\ndescription: [oops\n---\n",
    );
    write_skill(
        &ctx.project_root(),
        "deploy",
        &skill_md("deploy", "Deploys. Use when deploying."),
    );
    let model = script(&ctx, "idle", json!({"turns": [{"text": "ok"}]}));
    let (ok, shown) = in_terminal_typing(
        &ctx,
        &ctx.project,
        &format!("exec --model {model}"),
        "> ",
        &["/skills", "/skils", "/nonexistent", "/help", "/exit"],
    );
    assert!(ok, "{shown}");
    // Each input loads the skills afresh; the broken one is said once.
    assert_eq!(
        shown.matches("invalid YAML in frontmatter").count(),
        1,
        "{shown}"
    );
    let shown = shown.replace("\r\n", "\n");
    assert!(
        shown.contains("error: /skils is no command and no skill\nhint: did you mean /skills?\nhint: /help lists the commands, /skills the skills\n"),
        "{shown}"
    );
    assert!(
        shown.contains("error: /nonexistent is no command and no skill\nhint: /help lists the commands, /skills the skills\n"),
        "{shown}"
    );
    assert!(
        shown.contains("/help                    list these commands"),
        "{shown}"
    );
    assert_eq!(
        events(&audit(&ctx), "end").len(),
        0,
        "no input reached the model"
    );
}

#[test]
fn on_a_terminal_a_call_needing_approval_is_asked_about() {
    let ctx = TestContext::new();
    let model = script(
        &ctx,
        "ask",
        json!({"turns": [
            {"tool_calls": [{"name": "write_file", "input": {"path": "out.txt", "content": "hello"}}]},
            {"text": "written"}
        ]}),
    );
    let (ok, shown) = in_terminal(
        &ctx,
        &ctx.root().join("project"),
        &format!("exec --model {model} 'save it'"),
        "n\n",
    );
    assert!(!ok, "{shown}");
    // The file, its size and its lines, as every tool is shown: never
    // the model's raw arguments.
    insta::assert_snapshot!(prompt_in(&shown, "Allow write_file", "[y/N]"), @r"
    Allow write_file to write:
      out.txt (5 bytes, 1 line)
      | hello
    Allow it? [y/N]
    ");
    assert!(shown.contains("you refused write_file"), "{shown}");
    assert!(!ctx.root().join("project/out.txt").exists());
    let (ok, shown) = in_terminal(
        &ctx,
        &ctx.root().join("project"),
        &format!("exec --model {model} 'save it again'"),
        "y\n",
    );
    assert!(ok, "{shown}");
    assert!(shown.contains("written"), "{shown}");
    assert_eq!(
        std::fs::read_to_string(ctx.root().join("project/out.txt")).unwrap(),
        "hello"
    );
}

/// A command line whose quoted word holds line breaks: printed raw, they
/// would push the first command off the screen and leave a harmless
/// look-alike right above the question.
#[test]
fn a_command_line_is_shown_one_command_a_line_whatever_its_words_hold() {
    let ctx = TestContext::new();
    let disguise = format!("{}  2. ls", "\n".repeat(60));
    let model = script(
        &ctx,
        "disguised",
        json!({"turns": [
            {"tool_calls": [{"name": "shell", "input": {
                "command": format!("touch pwned; echo '{disguise}'")
            }}]},
            {"text": "done"}
        ]}),
    );
    let (ok, shown) = in_terminal(
        &ctx,
        &ctx.project,
        &format!("exec --model {model} 'list the files'"),
        "n\n",
    );
    assert!(!ok, "{shown}");
    let prompt = prompt_in(&shown, "Allow shell to run:", "[y/N]");
    let escaped = "\\u{a}".repeat(60);
    assert_eq!(
        prompt,
        format!(
            "Allow shell to run:\n  1. touch pwned\n  2. echo {escaped}  2. ls\nAllow it? [y/N]"
        ),
    );
    assert!(!ctx.project.join("pwned").exists());
}

/// Runs `skillpkg exec args` and returns its exit code, stdout and peak
/// resident memory in KiB. A small Python process starts it and reads its
/// peak from `getrusage`: a child the test process started itself would
/// report the test process's own peak (Linux keeps the largest resident
/// size a process had, and a spawned child starts from its parent's
/// memory until it runs its program), which depends on the other tests.
fn exec_measured(ctx: &TestContext, args: &[&str]) -> (i32, String, i64) {
    const MEASURE: &str = "import resource, subprocess, sys\n\
r = subprocess.run(sys.argv[1:], stderr=subprocess.DEVNULL)\n\
sys.stderr.write('maxrss=%d\\n' % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n\
sys.exit(r.returncode)\n";
    let skillpkg = ctx.command();
    let mut python = std::process::Command::new("python3");
    python.current_dir(&ctx.project).env_clear();
    for (key, value) in skillpkg.get_envs() {
        if let Some(value) = value {
            python.env(key, value);
        }
    }
    python
        .args(["-c", MEASURE])
        .arg(skillpkg.get_program())
        .arg("exec")
        .args(args);
    let out = python.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let peak = stderr
        .lines()
        .find_map(|l| l.strip_prefix("maxrss="))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak reported: {stderr}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        peak,
    )
}

#[test]
fn reading_a_huge_file_reads_only_what_is_shown() {
    let ctx = TestContext::new();
    let huge = std::fs::File::create(ctx.project.join("huge.log")).unwrap();
    huge.set_len(2 << 30).unwrap(); // 2 GiB, sparse
    let model = script(
        &ctx,
        "huge",
        json!({"turns": [
            {"tool_calls": [{"name": "read_file", "input": {"path": "huge.log"}}]},
            {"tool_calls": [{"name": "grep", "input": {"pattern": "needle", "path": "huge.log"}}]},
            {"text": "{{last_tool_result}}"}
        ]}),
    );
    let (code, stdout, peak_kib) = exec_measured(&ctx, &["--model", &model, "look"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("No matches."), "{stdout}");
    assert!(peak_kib < 50 * 1024, "peak memory {peak_kib} KiB");
    let log = audit(&ctx);
    let read = events(&log, "tool_result")[0];
    assert_eq!(read["truncated"], true);
    assert!(read["bytes"].as_u64().unwrap() < 200_000, "{read}");
}

#[test]
fn the_state_the_agent_writes_is_private_and_never_goes_through_a_link() {
    use std::os::unix::fs::PermissionsExt;
    let ctx = TestContext::new();
    let model = script(&ctx, "hello", json!({"turns": [{"text": "hello"}]}));
    // A cloned repository ships .skillpkg/history as a link to a dotfile.
    let bashrc = ctx.root().join("home/.bashrc");
    std::fs::write(&bashrc, "alias ls='ls --color'\n").unwrap();
    let state = ctx.project.join(".skillpkg");
    std::fs::create_dir_all(&state).unwrap();
    std::os::unix::fs::symlink(&bashrc, state.join("history")).unwrap();
    let (ok, shown) = in_terminal_typing(
        &ctx,
        &ctx.project,
        &format!("exec --model {model}"),
        "> ",
        &["say hello", "/exit"],
    );
    assert!(ok, "{shown}");
    assert_eq!(
        std::fs::read_to_string(&bashrc).unwrap(),
        "alias ls='ls --color'\n",
        "the history was written through the link"
    );
    let history = std::fs::symlink_metadata(state.join("history")).unwrap();
    assert!(history.is_file(), "the history is a file of its own now");
    // The audit log is the user's alone.
    let runs: Vec<_> = std::fs::read_dir(state.join("runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let mode = std::fs::metadata(&runs[0]).unwrap().permissions().mode();
    assert_eq!(mode & 0o077, 0, "audit log mode {mode:o}");

    // A state folder of runs that is a link is refused, not written through.
    let elsewhere = ctx.root().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::remove_dir_all(state.join("runs")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, state.join("runs")).unwrap();
    let out = exec(&ctx, &["--model", &model, "hello"]).assert_fails();
    assert!(out.stderr.contains("is a symbolic link"), "{}", out.stderr);
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}

#[test]
fn invented_tool_names_are_the_models_error_and_a_skill_named_shell_answers_nothing() {
    let ctx = TestContext::new();
    let model = script(
        &ctx,
        "invented",
        json!({"turns": [
            {"tool_calls": [{"name": "shell $(touch pwned) #", "input": {"command": "id"}}]},
            {"text": "{{last_tool_result}}"}
        ]}),
    );
    let out = exec(&ctx, &["--model", &model, "go"]).assert_ok();
    insta::assert_snapshot!(out.stdout.trim(), @r#"there is no tool named "shell $(touch pwned) #""#);
    assert!(!ctx.project.join("pwned").exists());
    assert!(!out.stderr.contains("--allow-tool"), "{}", out.stderr);

    // A skill named like a tool does not capture that tool's calls: the
    // call still needs approval, and the skill's body is never disclosed.
    write_skill(
        &ctx.project_root(),
        "shell",
        &skill_md("shell", "Runs anything. Use for shell."),
    );
    let model = script(
        &ctx,
        "captured",
        json!({"turns": [
            {"tool_calls": [{"name": "shell", "input": {"command": "echo hi"}}]},
            {"text": "{{last_tool_result}}"}
        ]}),
    );
    let out = exec(&ctx, &["--model", &model, "go"]).assert_fails();
    assert!(
        out.stderr
            .contains("the model called shell, which needs approval"),
        "{}",
        out.stderr
    );
    assert!(events(&audit(&ctx), "disclosure").is_empty());
}

#[test]
fn processes_that_detach_with_setsid_end_with_the_command() {
    detached_processes_end_with_the_command("workspace-write", "300.0431", "300.0432");
}

#[test]
fn without_the_sandbox_detached_processes_still_end_with_the_command() {
    detached_processes_end_with_the_command("off", "300.0441", "300.0442");
}

/// A script leaves a child in a session of its own, holding the output
/// pipe open, and one that double-forks away from its parent, each a
/// `sleep` whose argument marks it; neither outlives the run.
fn detached_processes_end_with_the_command(sandbox: &str, setsid: &str, orphan: &str) {
    let ctx = TestContext::new();
    if sandbox != "off" && !crate::sandbox::sandbox_available(&ctx) {
        return;
    }
    skill_with_script(
        &ctx,
        "detach",
        "detach.sh",
        &format!(
            "setsid sleep {setsid} &\n(setsid sh -c 'exec sleep {orphan}' &)\nsleep 0.2\necho started"
        ),
    );
    let model = script(
        &ctx,
        "detach",
        json!({"turns": [
            {"tool_calls": [{"name": "run_script", "input": {"skill": "detach", "path": "scripts/detach.sh"}}]},
            {"text": "{{last_tool_result}}"}
        ]}),
    );
    let started = std::time::Instant::now();
    let out = exec(
        &ctx,
        &[
            "--model",
            &model,
            "--yes",
            "--timeout",
            "5",
            "--sandbox",
            sandbox,
            "go",
        ],
    )
    .assert_ok();
    assert!(out.stdout.contains("started"), "{}", out.stdout);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "the run waited for the detached processes"
    );
    for marker in [setsid, orphan] {
        crate::common::wait_until(
            || !running_with_arg(marker),
            || format!("sleep {marker} outlived the run"),
        );
    }
}

#[test]
fn a_model_script_is_a_list_of_turns_or_an_object_and_a_wrong_one_says_what_is_expected() {
    let ctx = TestContext::new();
    let bare = script(&ctx, "bare", json!([{"text": "from a bare list"}]));
    let out = exec(&ctx, &["--model", &bare, "hello"]).assert_ok();
    assert!(out.stdout.contains("from a bare list"), "{}", out.stdout);
    let wrong = script(&ctx, "wrong", json!({"steps": [{"text": "x"}]}));
    let out = exec(&ctx, &["--model", &wrong, "hello"]).assert_fails();
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
    error: [TEMP]/wrong.json is not a valid model script
      Caused by: unknown field `steps`, expected one of `turns`, `repeat_last`, `context_window` at line 1 column 8
    hint: write {"turns": [{"text": "…"}, {"tool_calls": [{"name": "…", "input": {…}}]}]} (a bare list of turns works too), with optional "repeat_last": true and "context_window": N
    "#);
}

#[test]
fn tool_schemas_do_not_grow_with_the_skill_set_and_a_wrong_name_gets_a_suggestion() {
    let tools_with = |count: usize| {
        let ctx = TestContext::new();
        for i in 0..count {
            let name = format!("skill-{i:05}");
            write_skill(
                &ctx.project_root(),
                &name,
                &skill_md(&name, "Bulk. Use when testing."),
            );
        }
        let out = exec(&ctx, &["--dry-run", "--json", "task"]).assert_ok();
        let plan: Value = serde_json::from_str(&out.stdout).unwrap();
        plan["tools"].to_string()
    };
    assert_eq!(tools_with(10), tools_with(1000));

    let ctx = TestContext::new();
    write_skill(
        &ctx.project_root(),
        "pdf-processing",
        &skill_md("pdf-processing", "Reads PDFs. Use when reading PDFs."),
    );
    let model = script(
        &ctx,
        "typo",
        json!({"turns": [
            {"tool_calls": [{"name": "use_skill", "input": {"name": "pdf-procesing"}}]},
            {"text": "{{last_tool_result}}"}
        ]}),
    );
    let out = exec(&ctx, &["--model", &model, "read it"]).assert_ok();
    assert!(
        out.stdout.contains("did you mean 'pdf-processing'?"),
        "{}",
        out.stdout
    );
}

#[test]
fn dry_run_uses_the_budget_of_the_model_named_or_configured() {
    let ctx = TestContext::new();
    let budget = |args: &[&str]| {
        let mut all = vec!["--dry-run", "--json"];
        all.extend_from_slice(args);
        all.push("task");
        let out = exec(&ctx, &all).assert_ok();
        let plan: Value = serde_json::from_str(&out.stdout).unwrap();
        plan["catalog"]["budget"].as_u64().unwrap()
    };
    assert_eq!(budget(&[]), 8_000);
    assert_eq!(budget(&["--model", "anthropic:claude-sonnet-4-5"]), 16_000);
    assert_eq!(budget(&["--model", "openai:gpt-4o-2024-08-06"]), 10_240);
    assert_eq!(
        budget(&["--model", "openai:gpt-4o", "--catalog-budget", "500"]),
        500
    );
    // A trusted project's [agent] context_window, for a model not in the table.
    std::fs::write(
        ctx.project.join("skills.toml"),
        "[agent]\ncontext_window = 50000\n",
    )
    .unwrap();
    ctx.ok(&["trust", "--project"]);
    assert_eq!(budget(&["--model", "openai:llama3.1"]), 4_000);
}

/// A stand-in model server on loopback that records each request body, as
/// sent, and answers every one with `answer`.
fn recording_model_server(
    answer: Value,
) -> (
    String,
    std::sync::Arc<std::sync::Mutex<Vec<Vec<u8>>>>,
    tokio::runtime::Runtime,
) {
    let bodies = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let recorded = bodies.clone();
    let app = axum::Router::new().fallback(move |body: axum::body::Bytes| {
        let recorded = recorded.clone();
        let answer = answer.clone();
        async move {
            recorded.lock().unwrap().push(body.to_vec());
            (
                [(axum::http::header::CONTENT_TYPE, "application/json")],
                answer.to_string(),
            )
        }
    });
    let (addr, runtime) = crate::server::serve_on_loopback(app);
    (format!("http://{addr}"), bodies, runtime)
}

#[test]
fn dry_run_json_shows_exactly_the_system_prompt_and_tools_a_run_sends() {
    let ctx = TestContext::new();
    write_skill(
        &ctx.project_root(),
        "pdf-processing",
        &skill_md("pdf-processing", "Reads PDFs. Use when reading PDFs."),
    );
    let cases = [
        (
            "anthropic:claude-sonnet-4-5",
            "ANTHROPIC_API_KEY",
            json!({"content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn",
                   "usage": {"input_tokens": 1, "output_tokens": 1}}),
        ),
        (
            "openai:gpt-4o",
            "OPENAI_API_KEY",
            json!({"choices": [{"message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
                   "usage": {"prompt_tokens": 1, "completion_tokens": 1}}),
        ),
    ];
    for (model, key, answer) in cases {
        let (url, bodies, _server) = recording_model_server(answer);
        let args = [
            "--model",
            model,
            "--base-url",
            &url,
            "--no-stream",
            "summarize report.pdf",
        ];
        run(ctx.command().env(key, "test-key").arg("exec").args(args)).assert_ok();
        let mut dry = vec!["exec", "--dry-run", "--json"];
        dry.extend_from_slice(&args);
        let out = run(ctx.command().env(key, "test-key").args(&dry)).assert_ok();
        let plan: Value = serde_json::from_str(&out.stdout).unwrap();
        let raw = String::from_utf8(bodies.lock().unwrap()[0].clone()).unwrap();
        let sent: Value = serde_json::from_str(&raw).unwrap();
        let system = match model.starts_with("openai") {
            true => sent["messages"][0]["content"].clone(),
            false => sent["system"].clone(),
        };
        assert_eq!(
            system.as_str().unwrap(),
            plan["system"].as_str().unwrap(),
            "{model}"
        );
        assert_eq!(
            serde_json::to_string(&sent["tools"]).unwrap(),
            serde_json::to_string(&plan["tools"]).unwrap(),
            "{model}"
        );
        // Byte for byte: the body as sent holds the dry run's prompt and
        // tools, serialised, exactly.
        let system = serde_json::to_string(plan["system"].as_str().unwrap()).unwrap();
        assert!(raw.contains(&system), "{model}: {raw}");
        let tools = format!(
            "\"tools\":{}",
            serde_json::to_string(&plan["tools"]).unwrap()
        );
        assert!(raw.contains(&tools), "{model}: {raw}");
    }
}

#[test]
fn prompt_with_a_task_and_budget_renders_the_catalog_exec_builds() {
    let ctx = TestContext::new();
    write_skill(
        &ctx.project_root(),
        "pdf-processing",
        &skill_md("pdf-processing", "Reads PDFs. Use when reading PDFs."),
    );
    let prompt = ctx.ok(&[
        "prompt",
        "--task",
        "summarize report.pdf",
        "--budget",
        "3000",
    ]);
    let out = exec(
        &ctx,
        &[
            "--dry-run",
            "--json",
            "--catalog-budget",
            "3000",
            "summarize report.pdf",
        ],
    )
    .assert_ok();
    let plan: Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(
        plan["system"]
            .as_str()
            .unwrap()
            .ends_with(prompt.stdout.trim_end()),
        "{}",
        prompt.stdout
    );
    assert!(
        prompt
            .stdout
            .starts_with("<available_skills>\n<skill>\n<name>pdf-processing</name>")
    );
}

/// A command line that starts with `-` is the command the shell runs,
/// never options of the shell itself (`sh -c -- LINE`).
#[test]
fn a_command_line_starting_with_a_dash_is_a_command_not_shell_options() {
    let ctx = TestContext::new();
    let model = script(
        &ctx,
        "dash",
        json!({"turns": [
            {"tool_calls": [{"name": "shell", "input": {"command": "-v"}}]},
            {"text": "{{last_tool_result}}"}
        ]}),
    );
    let out = exec(&ctx, &["--model", &model, "--yes", "run it"]).assert_ok();
    // The shell looked for a program named `-v`; it did not take `-v`
    // as its own option (which leaves `-c` without its line).
    assert!(out.stdout.contains("-v: not found"), "{}", out.stdout);
    assert!(
        !out.stdout.contains("requires an argument"),
        "{}",
        out.stdout
    );
}
