//! `exec --mcp-skills`: skillpkg as a host of MCP-served skills, following
//! SEP-2640's host rules against two stand-in servers: `skillpkg serve
//! --mcp` over a second project, and `tests/fixtures/mcp/stand_in_server.py`
//! (stdlib Python), which can lie about one skill in each way a server can.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{TestContext, write_skill};
use crate::exec::{audit, events};

/// A folder of two skills for a server to serve: `greeter` (a reference
/// and a script, `allowed-tools: Bash`) and `bystander`.
fn served_project(ctx: &TestContext) -> PathBuf {
    let served = ctx.root().join("served");
    std::fs::create_dir_all(&served).unwrap();
    std::fs::write(served.join("skills.toml"), "").unwrap();
    let root = served.join(".agents/skills");
    let greeter = write_skill(
        &root,
        "greeter",
        "---\nname: greeter\ndescription: Greets people by name. Use when asked to greet someone.\nallowed-tools: Bash\n---\nRead references/names.md, then run scripts/greet.sh NAME.\n",
    );
    std::fs::create_dir_all(greeter.join("references")).unwrap();
    std::fs::write(greeter.join("references/names.md"), "Ada, Grace\n").unwrap();
    std::fs::create_dir_all(greeter.join("scripts")).unwrap();
    std::fs::write(
        greeter.join("scripts/greet.sh"),
        "#!/bin/sh\necho \"hello $1\"\n",
    )
    .unwrap();
    write_skill(
        &root,
        "bystander",
        "---\nname: bystander\ndescription: Stands by. Use when waiting.\n---\nWait.\n",
    );
    served
}

/// `--mcp-skills` for `skillpkg serve --mcp` over `project`.
fn skillpkg_server(project: &Path) -> String {
    format!(
        "{} serve --mcp --project {}",
        assert_cmd::cargo::cargo_bin("skillpkg").display(),
        project.display()
    )
}

/// `--mcp-skills` for the Python stand-in over `folder`, lying as `lie`
/// says about the skill `victim`.
fn stand_in(folder: &Path, lie: &[&str]) -> String {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp/stand_in_server.py");
    let mut words = vec![
        "python3".to_string(),
        script.display().to_string(),
        folder.display().to_string(),
    ];
    words.extend(lie.iter().map(|w| w.to_string()));
    words.join(" ")
}

/// A scripted model taking `turns`, then answering with the last result.
fn model(ctx: &TestContext, name: &str, calls: &[Value]) -> String {
    let mut turns: Vec<Value> = calls
        .iter()
        .map(|call| serde_json::json!({"tool_calls": [call]}))
        .collect();
    turns.push(serde_json::json!({"text": "{{last_tool_result}}"}));
    let path = ctx.root().join(format!("{name}.json"));
    std::fs::write(&path, serde_json::json!({ "turns": turns }).to_string()).unwrap();
    format!("scripted:{}", path.display())
}

/// A scripted model that activates `greeter` and runs its script for Ada.
fn greet_script_model(ctx: &TestContext) -> String {
    model(
        ctx,
        "script",
        &[
            serde_json::json!({"name": "use_skill", "input": {"name": "greeter"}}),
            serde_json::json!({"name": "run_script", "input": {"skill": "greeter", "path": "scripts/greet.sh", "args": ["Ada"]}}),
        ],
    )
}

fn results(log: &[Value]) -> Vec<String> {
    events(log, "tool_result")
        .iter()
        .map(|e| e["output"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_served_skill_is_listed_with_its_origin_and_used_and_an_unlisted_file_is_refused() {
    let ctx = TestContext::new();
    let served = served_project(&ctx);
    let server = skillpkg_server(&served);
    let out = ctx.ok(&["exec", "--dry-run", "--mcp-skills", &server, "greet Ada"]);
    let origin = format!("<origin>mcp:{server}</origin>");
    assert!(out.stdout.contains(&origin), "{}", out.stdout);
    // The builtins the server also serves are the very ones here: no noise.
    assert_eq!(ctx.redact(&out.stderr), "");

    // The model reads a listed file, then one the server never listed,
    // though it is in the served project's folder.
    std::fs::write(served.join(".agents/skills/greeter/planted.md"), "x").unwrap();
    let model = model(
        &ctx,
        "greet",
        &[
            serde_json::json!({"name": "use_skill", "input": {"name": "greeter"}}),
            serde_json::json!({"name": "read_resource", "input": {"skill": "greeter", "path": "references/names.md"}}),
            serde_json::json!({"name": "read_resource", "input": {"skill": "greeter", "path": "secret.md"}}),
        ],
    );
    let out = ctx.ok(&[
        "exec",
        "--model",
        &model,
        "--mcp-skills",
        &server,
        "greet Ada",
    ]);
    assert!(
        out.stdout.contains("is not among the files"),
        "{}",
        out.stdout
    );
    let log = audit(&ctx);
    let results = results(&log);
    assert!(
        results[0].contains("Read references/names.md"),
        "{results:?}"
    );
    // The planted file is served (the server hashes it as served), and listed.
    assert!(results[0].contains("- planted.md"), "{results:?}");
    assert_eq!(results[1], "Ada, Grace\n");
    assert!(
        results[2].starts_with("refused: secret.md is not among the files mcp:"),
        "{results:?}"
    );
    let start = &events(&log, "start")[0];
    assert_eq!(
        start["mcp_skills"]["greeter"]["origin"],
        format!("mcp:{server}")
    );
}

#[test]
fn a_server_that_lies_about_a_skill_has_that_skill_refused_with_the_reason() {
    let ctx = TestContext::new();
    let served = served_project(&ctx);
    let folder = served.join(".agents/skills");
    let cases = [
        (
            "changing",
            "skill://greeter/references/names.md is 43 bytes, the manifest says 11: the server changed it after listing it, or lists a wrong digest",
        ),
        (
            "unlisted",
            "asked for skill://greeter/SKILL.md, the server answered with skill://greeter/secret-instructions.md, a file it did not list",
        ),
        (
            "frontmatter",
            "its listed frontmatter differs from its SKILL.md: 'allowed-tools' is absent in the listing and \"Bash\" in the file",
        ),
        (
            "outside",
            "its listing breaks the Skills extension: resource skill://greeter/scripts/../../bystander/SKILL.md does not identify a file within the directory of skill://greeter/SKILL.md",
        ),
        (
            "huge",
            "skill://greeter/scripts/greet.sh is 1073741824 bytes, more than the 16777216 one file may hold",
        ),
        (
            "dynamic",
            "it is listed as \"dynamic\", without digests, so nothing it serves can be checked",
        ),
    ];
    for (lie, reason) in cases {
        let server = stand_in(&folder, &["--victim", "greeter", "--lie", lie]);
        let out = ctx.ok(&["exec", "--dry-run", "--mcp-skills", &server, "greet"]);
        assert_eq!(
            ctx.redact(&out.stderr),
            ctx.redact(&format!(
                "warning: mcp:{server}: the skill 'greeter' is refused: {reason}\n"
            )),
            "{lie}"
        );
        assert!(!out.stdout.contains("<name>greeter</name>"), "{lie}");
        assert!(out.stdout.contains("<name>bystander</name>"), "{lie}");
    }
    // Told the truth, the stand-in's skills are taken.
    let honest = stand_in(&folder, &[]);
    let out = ctx.ok(&["exec", "--dry-run", "--mcp-skills", &honest, "greet"]);
    assert!(
        out.stdout.contains("<name>greeter</name>"),
        "{}",
        out.stdout
    );
}

#[test]
fn allowed_tools_of_a_served_skill_grant_nothing_until_approved_and_a_new_digest_set_withdraws_them()
 {
    let ctx = TestContext::new();
    let served = served_project(&ctx);
    let server = skillpkg_server(&served);
    let model = model(
        &ctx,
        "echo",
        &[
            serde_json::json!({"name": "use_skill", "input": {"name": "greeter"}}),
            serde_json::json!({"name": "shell", "input": {"command": "echo granted"}}),
        ],
    );
    let run =
        |ctx: &TestContext| ctx.run(&["exec", "--model", &model, "--mcp-skills", &server, "greet"]);
    let out = run(&ctx).assert_fails();
    let hint = format!(
        "hint: the skill 'greeter' is served by mcp:{server} and not approved as served now, so its scripts do not run and its allowed-tools grant nothing: `skillpkg grants approve greeter --mcp-skills '{server}'` approves it"
    );
    assert!(out.stderr.contains(&hint), "{}", out.stderr);

    let approved = ctx.ok(&["grants", "approve", "greeter", "--mcp-skills", &server]);
    assert!(
        approved.stderr.contains("greeter may pre-approve Bash"),
        "{}",
        approved.stderr
    );
    let out = run(&ctx).assert_ok();
    assert!(out.stdout.contains("granted"), "{}", out.stdout);
    let log = audit(&ctx);
    let approval = events(&log, "approval");
    let shell = approval.iter().find(|e| e["tool"] == "shell").unwrap();
    assert_eq!(shell["by"], "the approved grants of skill 'greeter'");

    // The server now serves other bytes: the approval no longer counts.
    std::fs::write(
        served.join(".agents/skills/greeter/references/names.md"),
        "Ada, Grace, Mallory\n",
    )
    .unwrap();
    let out = run(&ctx).assert_fails();
    assert!(out.stderr.contains(&hint), "{}", out.stderr);
    let listed = ctx.ok(&["grants", "list", "--mcp-skills", &server]);
    assert!(
        listed.stdout.contains(&format!(
            "note: mcp:{server} serves other files than those approved: approve it again"
        )),
        "{}",
        listed.stdout
    );
}

#[test]
fn a_served_skills_script_runs_only_once_the_skill_is_approved() {
    let ctx = TestContext::new();
    let served = served_project(&ctx);
    let server = skillpkg_server(&served);
    let model = greet_script_model(&ctx);
    // Not even --yes runs a script a server sent.
    let out = ctx.fails(&[
        "exec",
        "--yes",
        "--model",
        &model,
        "--mcp-skills",
        &server,
        "greet",
    ]);
    assert!(
        out.stderr
            .contains("the model called run_script, which needs approval"),
        "{}",
        out.stderr
    );
    ctx.ok(&["grants", "approve", "greeter", "--mcp-skills", &server]);
    let out = ctx.ok(&[
        "exec",
        "--yes",
        "--model",
        &model,
        "--mcp-skills",
        &server,
        "greet",
    ]);
    assert!(out.stdout.contains("hello Ada"), "{}", out.stdout);
}

#[test]
fn a_started_server_gets_the_sandboxs_environment_not_skillpkgs() {
    let ctx = TestContext::new();
    let served = served_project(&ctx);
    let env_out = ctx.root().join("env.txt");
    let server = stand_in(
        &served.join(".agents/skills"),
        &["--env-out", env_out.to_str().unwrap()],
    );
    let exec = |extra: &[&str]| {
        let mut cmd = ctx.command();
        cmd.env("DEPLOY_TOKEN", "s3cret")
            .args(["exec", "--dry-run", "--mcp-skills", &server])
            .args(extra)
            .arg("greet");
        crate::common::run(&mut cmd).assert_ok();
        std::fs::read_to_string(&env_out).unwrap()
    };
    let names = exec(&[]);
    assert!(names.lines().any(|n| n == "PATH"), "{names}");
    for hidden in ["DEPLOY_TOKEN", "SKILLPKG_CONFIG_DIR", "NO_COLOR"] {
        assert!(!names.lines().any(|n| n == hidden), "{hidden} in {names}");
    }
    let names = exec(&["--pass-env", "DEPLOY_TOKEN"]);
    assert!(names.lines().any(|n| n == "DEPLOY_TOKEN"), "{names}");
}

#[test]
fn a_project_names_its_servers_only_once_trusted() {
    let ctx = TestContext::new();
    let served = served_project(&ctx);
    let server = skillpkg_server(&served);
    std::fs::write(
        ctx.project.join("skills.toml"),
        format!("[agent]\nmcp_skills = [{server:?}]\n"),
    )
    .unwrap();
    let out = ctx.ok(&["exec", "--dry-run", "greet"]);
    assert!(
        !out.stdout.contains("<name>greeter</name>"),
        "{}",
        out.stdout
    );
    assert!(out.stderr.contains("not trusted"), "{}", out.stderr);
    ctx.ok(&["trust", "--project"]);
    let out = ctx.ok(&["exec", "--dry-run", "greet"]);
    assert!(
        out.stdout.contains("<name>greeter</name>"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_server_that_cannot_be_used_is_named_and_the_run_goes_on() {
    let ctx = TestContext::new();
    let out = ctx.ok(&[
        "exec",
        "--dry-run",
        "--mcp-skills",
        "no-such-program-here",
        "greet",
    ]);
    assert_eq!(
        ctx.redact(&out.stderr),
        "warning: mcp:no-such-program-here: no skills taken from it: could not start no-such-program-here: No such file or directory (os error 2)\n"
    );
    let out = ctx.fails(&["exec", "--dry-run", "--mcp-skills", "cat a | sh", "greet"]);
    assert!(
        out.stderr.contains(
            "error: --mcp-skills \"cat a | sh\" is not one plain command or an http(s) URL"
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn on_a_terminal_a_served_skills_script_is_asked_about_and_a_remembers_the_skill() {
    let ctx = TestContext::new();
    let served = served_project(&ctx);
    let server = skillpkg_server(&served);
    let model = greet_script_model(&ctx);
    let (ok, shown) = crate::common::in_terminal(
        &ctx,
        &ctx.project,
        &format!("exec --yes --model {model} --mcp-skills '{server}' greet"),
        "a\n",
    );
    assert!(ok, "{shown}");
    let prompt = crate::common::prompt_in(&shown, "Allow run_script", "[y/N/a]");
    insta::assert_snapshot!(ctx.redact(&prompt.replace(&server, "[SERVER]")), @"
    Allow run_script to run a script of the skill 'greeter':
      scripts/greet.sh Ada
    (skill 'greeter' is served by mcp:[SERVER]: its scripts run here only once you approve them; 'a' approves the skill as served now, its allowed-tools included)
    Allow it? [y/N/a]
    ");
    assert!(shown.contains("hello Ada"), "{shown}");
    // Remembered, bound to what the server serves now.
    let out = ctx.ok(&[
        "exec",
        "--yes",
        "--model",
        &model,
        "--mcp-skills",
        &server,
        "greet",
    ]);
    assert!(out.stdout.contains("hello Ada"), "{}", out.stdout);
    let trust = std::fs::read_to_string(ctx.root().join("config/trust.toml")).unwrap();
    assert!(trust.contains("[mcp_skills.\"mcp:"), "{trust}");
}
