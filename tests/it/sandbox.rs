//! The sandbox of scripts and shell commands (docs/sandbox.md): each rule
//! is an attack by a command the model runs, checked from outside. Tests
//! that need the sandbox itself say loudly that they are skipped where it
//! cannot be set up.

use std::io::ErrorKind;
use std::net::{TcpListener, UdpSocket};
use std::path::Path;

use serde_json::{Value, json};

use crate::common::{Output, TestContext, has_pdftotext, run};
use crate::exec::{audit, events, script, summarize_a_pdf};

/// Secret variables a command must never see, with the value each has.
const SECRETS: [&str; 14] = [
    "PGPASSWORD",
    "MYSQL_PWD",
    "AZURE_OPENAI_KEY",
    "DATABASE_URL",
    "SSH_AUTH_SOCK",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "GITHUB_TOKEN",
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "NPM_TOKEN",
    "HF_TOKEN",
    "SLACK_WEBHOOK_URL",
    "GOOGLE_APPLICATION_CREDENTIALS",
];

/// Runs `command` with the model's `shell` tool (approved) and `flags`;
/// returns the run and what the tool gave back.
pub(crate) fn shell(ctx: &TestContext, command: &str, flags: &[&str]) -> (Output, String) {
    shell_with(ctx, command, flags, &[])
}

/// [`shell`], with variables added to skillpkg's environment.
pub(crate) fn shell_with(
    ctx: &TestContext,
    command: &str,
    flags: &[&str],
    env: &[(&str, &str)],
) -> (Output, String) {
    let model = script(
        ctx,
        "shell",
        json!({"turns": [
            {"tool_calls": [{"name": "shell", "input": {"command": command}}]},
            {"text": "done"}
        ]}),
    );
    let mut cmd = ctx.command();
    cmd.envs(env.iter().copied())
        .args(["exec", "--model", &model, "--yes"])
        .args(flags)
        .arg("go");
    let out = run(&mut cmd);
    if !ctx.project.join(".skillpkg/runs").exists() {
        return (out, String::new());
    }
    let result = audit(ctx)
        .iter()
        .find(|e| e["event"] == "tool_result")
        .map(|e| e["output"].as_str().unwrap_or("").to_string())
        .unwrap_or_default();
    (out, result)
}

/// `skillpkg eval --json --require-sandbox` over one case that `model`
/// plays, with `env` added.
fn eval_one_case(ctx: &TestContext, model: &str, env: &[(&str, &str)]) -> Output {
    let cases = ctx.root().join("cases.toml");
    let case = format!("[[case]]\nname = \"c\"\ntask = \"t\"\nmodel = \"{model}\"\n");
    std::fs::write(&cases, case).unwrap();
    run(ctx
        .command()
        .envs(env.iter().copied())
        .arg("eval")
        .arg(&cases)
        .args(["--json", "--require-sandbox"]))
}

/// Whether the sandbox can be set up on this machine; says loudly that
/// the test is skipped when it cannot, and fails under CI, whose machines
/// can set it up (a test that passes there without biting would hide a
/// broken sandbox).
pub(crate) fn sandbox_available(ctx: &TestContext) -> bool {
    // The portable configuration is built without the Linux backend, on
    // purpose.
    if !cfg!(feature = "linux-sandbox") {
        eprintln!("SKIPPED: this build has no sandbox backend (--no-default-features)");
        return false;
    }
    let model = script(ctx, "hello", json!({"turns": [{"text": "hello"}]}));
    let out = run(ctx
        .command()
        .args(["exec", "--model", &model, "--require-sandbox", "hi"]));
    if out.status != 0 {
        assert!(
            out.stderr.contains("cannot be set up here"),
            "{}",
            out.stderr
        );
        // The portable configuration is built without the Linux backend,
        // on purpose.
        if !cfg!(feature = "linux-sandbox") {
            assert!(
                out.stderr.contains("has no Linux sandbox"),
                "{}",
                out.stderr
            );
            eprintln!("SKIPPED: this build has no sandbox backend (--no-default-features)");
            return false;
        }
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must be able to set the sandbox up: {}",
            out.stderr.trim()
        );
        eprintln!(
            "SKIPPED: the sandbox cannot be set up on this machine: {}",
            out.stderr.trim()
        );
        return false;
    }
    true
}

#[test]
fn a_command_writes_the_workspace_and_its_tmpdir_and_nothing_else() {
    let ctx = TestContext::new();
    if !sandbox_available(&ctx) {
        return;
    }
    let project = &ctx.project;
    for dir in [".git", ".skillpkg", ".agents/skills/tool", ".claude/skills"] {
        std::fs::create_dir_all(project.join(dir)).unwrap();
    }
    std::fs::write(project.join("skills.lock"), "version = 1\n").unwrap();
    let escape = ctx.root().with_extension("escape");
    let attempts = [
        "echo made > out.txt".to_string(),
        "echo made > \"$TMPDIR/scratch\" && echo \"tmpdir=$TMPDIR\"".into(),
        "touch \"$HOME/in-home\"".into(),
        format!("touch {}", escape.display()),
        "touch .git/config .git/hooks-pre-commit".into(),
        "touch .skillpkg/planted".into(),
        "echo '[agent]' >> skills.toml".into(),
        "rm skills.lock".into(),
        "mkdir .agents/skills/tool/scripts".into(),
        "mkdir .claude/skills/evil".into(),
    ];
    let (out, result) = shell(&ctx, &attempts.join("; "), &[]);
    out.assert_ok();
    assert_eq!(
        std::fs::read_to_string(project.join("out.txt")).unwrap(),
        "made\n"
    );
    for path in [
        ctx.root().join("home/in-home"),
        escape,
        project.join(".git/config"),
        project.join(".skillpkg/planted"),
        project.join(".agents/skills/tool/scripts"),
        project.join(".claude/skills/evil"),
    ] {
        assert!(!path.exists(), "{} was written: {result}", path.display());
    }
    assert_eq!(
        std::fs::read_to_string(project.join("skills.toml")).unwrap(),
        ""
    );
    assert!(project.join("skills.lock").exists(), "{result}");
    // The private TMPDIR is not /tmp, and it goes with the run.
    let tmpdir = result
        .lines()
        .find_map(|l| l.strip_prefix("tmpdir="))
        .unwrap_or_else(|| panic!("{result}"));
    assert!(tmpdir.contains("skillpkg-tmp-"), "{tmpdir}");
    assert!(!Path::new(tmpdir).exists(), "{tmpdir} outlived the run");
    let log = audit(&ctx);
    insta::assert_json_snapshot!(events(&log, "start")[0]["sandbox"], @r#"
    {
      "mode": "workspace-write",
      "network": false,
      "pass_env": [],
      "set_up": true,
      "unavailable": null
    }
    "#);
}

#[test]
fn read_only_commands_write_only_their_tmpdir_and_the_model_writes_nothing() {
    let ctx = TestContext::new();
    if !sandbox_available(&ctx) {
        return;
    }
    let (out, result) = shell(
        &ctx,
        "touch out.txt; echo made > \"$TMPDIR/scratch\" && cat \"$TMPDIR/scratch\"",
        &["--sandbox", "read-only"],
    );
    out.assert_ok();
    assert!(!ctx.project.join("out.txt").exists(), "{result}");
    assert!(result.contains("stdout:\nmade\n"), "{result}");
    let model = script(
        &ctx,
        "write",
        json!({"turns": [
            {"tool_calls": [{"name": "write_file", "input": {"path": "out.txt", "content": "x"}}]},
            {"text": "{{last_tool_result}}"}
        ]}),
    );
    let out = run(ctx.command().args([
        "exec",
        "--model",
        &model,
        "--yes",
        "--sandbox",
        "read-only",
        "write",
    ]))
    .assert_ok();
    insta::assert_snapshot!(out.stdout, @"out.txt was not written: this run is read-only (--sandbox read-only)");
    assert!(!ctx.project.join("out.txt").exists());
}

#[test]
fn no_tcp_or_udp_unless_the_network_is_allowed() {
    let ctx = TestContext::new();
    if !sandbox_available(&ctx) {
        return;
    }
    if !Path::new("/bin/bash").exists() {
        eprintln!("SKIPPED: /bin/bash (its /dev/tcp and /dev/udp) is not installed");
        return;
    }
    let tcp = TcpListener::bind("127.0.0.1:0").unwrap();
    tcp.set_nonblocking(true).unwrap();
    let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
    udp.set_nonblocking(true).unwrap();
    let command = format!(
        "bash -c 'echo tcp > /dev/tcp/127.0.0.1/{}; echo udp > /dev/udp/127.0.0.1/{}'",
        tcp.local_addr().unwrap().port(),
        udp.local_addr().unwrap().port()
    );
    let arrived = || {
        let mut buf = [0u8; 16];
        let datagram = match udp.recv(&mut buf) {
            Ok(n) => Some(String::from_utf8_lossy(&buf[..n]).into_owned()),
            Err(e) if e.kind() == ErrorKind::WouldBlock => None,
            Err(e) => panic!("{e}"),
        };
        let connection = match tcp.accept() {
            Ok(_) => true,
            Err(e) if e.kind() == ErrorKind::WouldBlock => false,
            Err(e) => panic!("{e}"),
        };
        (connection, datagram)
    };
    let (out, result) = shell(&ctx, &command, &[]);
    out.assert_ok();
    assert_eq!(arrived(), (false, None), "{result}");
    let (out, result) = shell(&ctx, &command, &["--allow-network"]);
    out.assert_ok();
    assert_eq!(arrived(), (true, Some("udp\n".into())), "{result}");
    assert_eq!(events(&audit(&ctx), "start")[0]["sandbox"]["network"], true);
}

#[test]
fn secrets_stay_out_of_the_environment_and_out_of_proc() {
    let ctx = TestContext::new();
    if !sandbox_available(&ctx) {
        return;
    }
    let env: Vec<(&str, String)> = SECRETS
        .iter()
        .map(|name| (*name, format!("leaked-{name}")))
        .collect();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    // Every environment the command can see, its parent's first; only
    // the lines that leak are kept (the whole would be cut).
    let command = "{ env; tr '\\0' '\\n' < /proc/$PPID/environ; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done; } 2>/dev/null | grep leaked-; echo end";
    let (out, result) = shell_with(&ctx, command, &[], &env);
    out.assert_ok();
    assert!(!result.contains("leaked-"), "{result}");
    assert!(result.ends_with("end\n"), "{result}");
    // Without the sandbox, /proc shows the agent's own environment.
    let (out, result) = shell_with(&ctx, command, &["--sandbox", "off"], &env);
    out.assert_ok();
    assert!(result.contains("leaked-"), "the test reads /proc: {result}");
}

#[test]
fn pass_env_and_a_trusted_projects_agent_env_pass_one_variable_each() {
    let ctx = TestContext::new();
    if !sandbox_available(&ctx) {
        return;
    }
    let env = [
        ("VISIBLE_SETTING", "shown"),
        ("FROM_PROJECT", "configured"),
        ("OTHER_SETTING", "hidden"),
    ];
    let (out, result) = shell_with(&ctx, "env", &["--pass-env", "VISIBLE_SETTING"], &env);
    out.assert_ok();
    assert!(result.contains("VISIBLE_SETTING=shown"), "{result}");
    assert!(!result.contains("FROM_PROJECT"), "{result}");
    assert!(!result.contains("OTHER_SETTING"), "{result}");
    std::fs::write(
        ctx.project.join("skills.toml"),
        "[agent]\nenv = [\"FROM_PROJECT\"]\n",
    )
    .unwrap();
    let (out, result) = shell_with(&ctx, "env", &[], &env);
    assert!(!result.contains("FROM_PROJECT"), "{result}");
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"warning: ignoring [agent] env in [TEMP]/project/skills.toml: this project is not trusted on this machine; run `skillpkg trust --project` to use them");
    ctx.ok(&["trust", "--project"]);
    let (out, result) = shell_with(&ctx, "env", &[], &env);
    out.assert_ok();
    assert!(result.contains("FROM_PROJECT=configured"), "{result}");
    assert!(!result.contains("OTHER_SETTING"), "{result}");
}

#[test]
fn a_trusted_projects_agent_table_sets_the_sandbox_and_flags_win() {
    let ctx = TestContext::new().with_the_default_sandbox();
    let model = script(&ctx, "hello", json!({"turns": [{"text": "hello"}]}));
    let manifest = ctx.project.join("skills.toml");
    std::fs::write(
        &manifest,
        "[agent]\nsandbox = \"read-only\"\nnetwork = true\n",
    )
    .unwrap();
    ctx.ok(&["trust", "--project"]);
    let sandbox = |flags: &[&str]| {
        let args = [&["exec", "--model", model.as_str()], flags, &["hi"]].concat();
        ctx.ok(&args);
        let log = audit(&ctx);
        let sandbox = &events(&log, "start")[0]["sandbox"];
        (sandbox["mode"].clone(), sandbox["network"].clone())
    };
    assert_eq!(sandbox(&[]), (json!("read-only"), json!(true)));
    assert_eq!(
        sandbox(&["--sandbox", "workspace-write"]),
        (json!("workspace-write"), json!(true))
    );
    std::fs::write(&manifest, "[agent]\nsandbox = \"none\"\n").unwrap();
    ctx.ok(&["trust", "--project"]);
    let out = ctx.fails(&["exec", "--model", &model, "hi"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
    error: [TEMP]/project/skills.toml: [agent] sandbox = "none" is not a sandbox mode
    hint: use "workspace-write", "read-only" or "off"
    "#);
}

/// Where the sandbox cannot be set up: the test hook on a build with a
/// backend, the build itself in the portable configuration (the
/// variables to run with, and why it is unavailable).
fn without_a_sandbox() -> (Vec<(&'static str, &'static str)>, &'static str) {
    match cfg!(feature = "linux-sandbox") {
        true => (
            vec![("SKILLPKG_SANDBOX_UNAVAILABLE", "1")],
            "SKILLPKG_SANDBOX_UNAVAILABLE is set (a test hook)",
        ),
        false => (
            Vec::new(),
            "this build of skillpkg has no Linux sandbox (it was built without the `linux-sandbox` feature)",
        ),
    }
}

#[test]
fn without_the_sandbox_commands_are_refused_naming_the_platform_until_the_user_turns_it_off() {
    let ctx = TestContext::new().with_the_default_sandbox();
    let (hook, why) = without_a_sandbox();
    let command = "touch ran";
    // The portable configuration's tests run with the sandbox off: not
    // this one.
    let unset = |cmd: &mut std::process::Command| {
        cmd.env_remove("SKILLPKG_SANDBOX")
            .envs(hook.iter().copied());
    };
    let model = script(
        &ctx,
        "twice",
        json!({"turns": [
            {"tool_calls": [{"name": "shell", "input": {"command": command}}]},
            {"tool_calls": [{"name": "shell", "input": {"command": command}}]},
            {"text": "done"}
        ]}),
    );
    let mut cmd = ctx.command();
    unset(&mut cmd);
    let out = run(cmd.args([
        "exec",
        "--model",
        &model,
        "--require-sandbox",
        "--yes",
        "go",
    ]))
    .assert_fails();
    assert_eq!(
        out.stderr,
        format!(
            "error: the sandbox for scripts and shell commands cannot be set up here: {why}\n\
             hint: without --require-sandbox, exec runs and refuses each command; --sandbox off runs them without the sandbox\n"
        )
    );
    // No command, no warning; two commands, one warning, both refused,
    // even approved.
    let hello = script(&ctx, "hello", json!({"turns": [{"text": "hello"}]}));
    let mut cmd = ctx.command();
    unset(&mut cmd);
    let out = run(cmd.args(["exec", "--model", &hello, "hi"])).assert_ok();
    assert_eq!(out.stderr, "");
    let mut cmd = ctx.command();
    unset(&mut cmd);
    let out = run(cmd.args(["exec", "--model", &model, "--yes", "go"])).assert_ok();
    assert_eq!(
        out.stderr,
        format!(
            "warning: the sandbox for scripts and shell commands cannot be set up here ({why}), so they are refused; \
             pass --sandbox off to run them without it (each still asks for your approval), or run skillpkg in a container or VM where it can be set up\n"
        )
    );
    assert!(!ctx.project.join("ran").exists(), "a refused command ran");
    let log = audit(&ctx);
    let refusals: Vec<&str> = events(&log, "tool_result")
        .iter()
        .map(|e| e["output"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(refusals.len(), 2);
    for refusal in refusals {
        assert_eq!(
            refusal,
            format!(
                "could not run the shell: the sandbox for scripts and shell commands cannot be set up on {}, so nothing ran: {why}",
                std::env::consts::OS
            )
        );
    }
    let sandbox = &events(&log, "start")[0]["sandbox"];
    assert_eq!(sandbox["set_up"], false);
    assert_eq!(sandbox["unavailable"], why);
    // With the sandbox off, a command runs only once approved: without a
    // terminal or --yes it is refused, with --yes it runs.
    let mut cmd = ctx.command();
    unset(&mut cmd);
    let out = run(cmd.args(["exec", "--model", &model, "--sandbox", "off", "go"])).assert_fails();
    assert!(
        out.stderr.contains("which needs approval"),
        "{}",
        out.stderr
    );
    assert!(!ctx.project.join("ran").exists());
    let mut cmd = ctx.command();
    unset(&mut cmd);
    run(cmd.args(["exec", "--model", &model, "--sandbox", "off", "--yes", "go"])).assert_ok();
    assert!(ctx.project.join("ran").exists());
    // eval too refuses with --require-sandbox.
    let out = eval_one_case(&ctx, &model, &hook).assert_fails();
    assert!(
        out.stderr.contains("cannot be set up here"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_workspace_that_is_home_or_holds_the_config_dir_is_refused() {
    let ctx = TestContext::new().with_the_default_sandbox();
    let model = script(&ctx, "hello", json!({"turns": [{"text": "hello"}]}));
    let home = ctx.root().join("home");
    let out = ctx.fails_in(&home, &["exec", "--model", &model, "hi"]);
    let config_inside = run(ctx
        .command()
        .env("SKILLPKG_CONFIG_DIR", ctx.project.join(".config"))
        .args(["exec", "--model", &model, "hi"]))
    .assert_fails();
    insta::assert_snapshot!(ctx.redact(&format!("{}{}", out.transcript(), config_inside.transcript())), @"
    $ skillpkg exec --model scripted:[TEMP]/hello.json hi
    error: refusing to run in [TEMP]/home: it is your home directory, and scripts and shell commands may write anywhere in the workspace
    hint: run skillpkg in a project's folder instead (cd into it first)
    hint: or, to run commands without any sandbox, pass --sandbox off
    $ skillpkg exec --model scripted:[TEMP]/hello.json hi
    error: refusing to run in [TEMP]/project: it contains skillpkg's config directory ([TEMP]/project/.config), which holds credentials, and scripts and shell commands may write anywhere in the workspace
    hint: run skillpkg in a project's folder instead (cd into it first)
    hint: or, to run commands without any sandbox, pass --sandbox off
    ");
    ctx.ok_in(
        &home,
        &["exec", "--model", &model, "--sandbox", "off", "hi"],
    );
}

#[test]
fn the_sample_pdf_skill_runs_pdftotext_in_the_sandbox() {
    let ctx = TestContext::new();
    if !has_pdftotext() || !sandbox_available(&ctx) {
        return;
    }
    summarize_a_pdf(&ctx, "Sandboxed revenue grew", &["--require-sandbox"]);
}

#[test]
fn eval_runs_its_cases_in_the_sandbox() {
    let ctx = TestContext::new();
    if !sandbox_available(&ctx) {
        return;
    }
    let model = script(
        &ctx,
        "escape",
        json!({"turns": [
            {"tool_calls": [{"name": "shell", "input": {"command": "touch \"$HOME/from-eval\"; echo in-case > made.txt"}}]},
            {"text": "done"}
        ]}),
    );
    let out = eval_one_case(&ctx, &model, &[]).assert_ok();
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(report["summary"]["passed"], 1, "{}", out.stdout);
    assert!(!ctx.root().join("home/from-eval").exists());
}

/// Paths inside the workspace that start commands later, each beside an
/// ordinary file that may be written: both tools are tried on both.
const CODE_RUNNING: [(&str, &str); 3] = [
    (
        "vendor/lib/.git/hooks/post-checkout",
        "vendor/lib/notes.txt",
    ),
    (".claude/settings.json", ".claude/notes.md"),
    (".vscode/tasks.json", "vscode-notes.txt"),
];

/// Runs one turn that writes every path of [`CODE_RUNNING`] twice, with
/// `shell` and with `write_file`, under `flags`; returns the run and the
/// tool results by path and tool.
fn write_everything(ctx: &TestContext, flags: &[&str]) -> (Output, Vec<(String, String, String)>) {
    let mut calls = Vec::new();
    for (protected, beside) in CODE_RUNNING {
        for path in [protected, beside] {
            calls.push(json!({"name": "shell", "input": {"command": format!("echo by-shell > {path} && echo wrote")}}));
            calls.push(
                json!({"name": "write_file", "input": {"path": path, "content": "by-write-file"}}),
            );
        }
    }
    let model = script(
        ctx,
        "write-everything",
        json!({"turns": [{"tool_calls": calls}, {"text": "done"}]}),
    );
    let out = run(ctx
        .command()
        .args(["exec", "--model", &model, "--yes"])
        .args(flags)
        .arg("go"));
    let log = audit(ctx);
    let calls = events(&log, "tool_call");
    let results = events(&log, "tool_result");
    let rows = calls
        .iter()
        .zip(results)
        .map(|(call, result)| {
            let input = &call["input"];
            let path = input["path"]
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| {
                    let command = input["command"].as_str().unwrap();
                    command["echo by-shell > ".len()..command.find(" &&").unwrap()].to_string()
                });
            let tool = call["tool"].as_str().unwrap_or_default().to_string();
            (
                path,
                tool,
                result["output"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    (out, rows)
}

#[test]
fn configuration_that_runs_code_is_read_only_to_both_tools_and_changes_are_listed() {
    let ctx = TestContext::new();
    if !sandbox_available(&ctx) {
        return;
    }
    let project = &ctx.project;
    std::fs::create_dir_all(project.join("vendor/lib/.git/hooks")).unwrap();
    std::fs::create_dir_all(project.join(".vscode")).unwrap();
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::fs::write(project.join(".claude/settings.json"), "{}\n").unwrap();
    let (out, rows) = write_everything(&ctx, &[]);
    let out = out.assert_ok();
    assert_eq!(rows.len(), 12, "{rows:?}");
    for (protected, beside) in CODE_RUNNING {
        for (path, tool, result) in rows.iter().filter(|(p, _, _)| p == protected) {
            assert!(
                !result.contains("wrote") && !result.starts_with("Wrote"),
                "{tool} wrote {path}: {result}"
            );
        }
        for (path, tool, result) in rows.iter().filter(|(p, _, _)| p == beside) {
            assert!(
                result.contains("wrote") || result.starts_with("Wrote"),
                "{tool} could not write {path}: {result}"
            );
        }
        assert!(!project.join(protected).exists() || protected.ends_with("settings.json"));
    }
    assert_eq!(
        std::fs::read_to_string(project.join(".claude/settings.json")).unwrap(),
        "{}\n"
    );
    // The end of the run lists what changed, and only that.
    let listed: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.trim_start().starts_with("Created") || l.trim_start().starts_with("Changed"))
        .map(str::trim)
        .collect();
    assert_eq!(
        listed,
        [
            "Created .claude/notes.md",
            "Created vendor/lib/notes.txt",
            "Created vscode-notes.txt"
        ],
        "{}",
        out.stderr
    );
    let log = audit(&ctx);
    assert_eq!(
        events(&log, "changes")[0]["files"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    // --allow-write lifts the rule for the path named, for both tools,
    // and the list marks what was written there.
    let (out, rows) = write_everything(&ctx, &["--allow-write", ".vscode"]);
    let out = out.assert_ok();
    for (path, tool, result) in rows.iter().filter(|(p, _, _)| p == ".vscode/tasks.json") {
        assert!(
            result.contains("wrote") || result.starts_with("Wrote"),
            "{tool} could not write {path}: {result}"
        );
    }
    assert!(
        out.stderr.contains(
            "Created .vscode/tasks.json (configuration that starts commands: review it before anything runs it)"
        ),
        "{}",
        out.stderr
    );
    assert!(!project.join("vendor/lib/.git/hooks/post-checkout").exists());
    // Version control too, for the user who asks (git commit in the run).
    let (out, _) = write_everything(&ctx, &["--allow-write", "vendor/lib/.git"]);
    out.assert_ok();
    assert_eq!(
        std::fs::read_to_string(project.join("vendor/lib/.git/hooks/post-checkout")).unwrap(),
        "by-write-file"
    );
}

#[test]
fn the_sandboxs_tmpdir_is_private_to_the_user() {
    let ctx = TestContext::new();
    if !sandbox_available(&ctx) {
        return;
    }
    let (out, result) = shell(&ctx, "stat -c 'mode=%a' \"$TMPDIR\"", &[]);
    out.assert_ok();
    assert!(result.contains("mode=700"), "{result}");
}

#[test]
fn a_trusted_projects_sandbox_read_adds_a_folder_and_an_untrusted_one_does_not() {
    let ctx = TestContext::new();
    if !sandbox_available(&ctx) {
        return;
    }
    let data = ctx.root().join("home/shared-data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("table.csv"), "a,b\n").unwrap();
    std::fs::write(
        ctx.project.join("skills.toml"),
        "[agent]\nsandbox_read = [\"~/shared-data\"]\n",
    )
    .unwrap();
    let read = "cat \"$HOME/shared-data/table.csv\"; echo end";
    let (out, result) = shell(&ctx, read, &[]);
    assert!(out.stderr.contains("sandbox_read"), "{}", out.stderr);
    assert!(
        !result.contains("a,b"),
        "an untrusted project added a folder: {result}"
    );
    ctx.ok(&["trust", "--project"]);
    let (out, result) = shell(&ctx, read, &[]);
    out.assert_ok();
    assert!(result.contains("a,b"), "{result}");
}

/// A cloned repository can plant `.vscode -> .git`: allowing what looks
/// like an editor's settings must not lift the protection of `.git`.
/// `--allow-write` through a link is refused, naming where it leads.
#[test]
fn allow_write_through_a_planted_link_is_refused() {
    let ctx = TestContext::new().with_the_default_sandbox();
    std::fs::create_dir_all(ctx.project.join(".git/hooks")).unwrap();
    std::os::unix::fs::symlink(".git", ctx.project.join(".vscode")).unwrap();
    let model = script(
        &ctx,
        "hook",
        json!({"turns": [
            {"tool_calls": [{"name": "write_file", "input": {"path": ".vscode/hooks/pre-commit", "content": "evil"}}]},
            {"text": "done"}
        ]}),
    );
    let out = run(ctx.command().args([
        "exec",
        "--model",
        &model,
        "--yes",
        "--allow-write",
        ".vscode",
        "go",
    ]));
    let out = out.assert_fails();
    assert!(
        out.stderr
            .contains("--allow-write .vscode: it leads through a link, to "),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("/.git"), "{}", out.stderr);
    assert!(!ctx.project.join(".git/hooks/pre-commit").exists());
}
