//! The Anthropic and OpenAI adapters, streaming and not, against a real
//! mock LLM server (`fakellm` from PyPI, which `.ci/run` installs): a full
//! tool-use round trip each, and a retry after a 429.

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use crate::common::{TestContext, run, skill_md, wait_until, write_skill};

/// A `fakellm serve` on a free loopback port, killed when dropped.
struct FakeLlm {
    child: Child,
    port: u16,
}

impl FakeLlm {
    /// Starts fakellm with `rules` (YAML), or `None` when it is not
    /// installed outside CI (said loudly).
    fn start(ctx: &TestContext, rules: &str) -> Option<FakeLlm> {
        // Run as a module: no console script on PATH needed.
        let installed = Command::new("python3")
            .args(["-c", "import fakellm"])
            .status()
            .is_ok_and(|s| s.success());
        if !installed {
            assert!(
                std::env::var_os("CI").is_none(),
                "fakellm is not installed; .ci/run installs it (pip install fakellm==0.3.5)"
            );
            eprintln!("SKIPPED: fakellm is not installed (pip install fakellm==0.3.5)");
            return None;
        }
        let config = ctx.root().join("fakellm.yaml");
        std::fs::write(&config, rules).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("python3")
            .args([
                "-m",
                "fakellm.cli",
                "serve",
                "--port",
                &port.to_string(),
                "--config",
            ])
            .arg(&config)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let server = FakeLlm { child, port };
        wait_until(
            || TcpStream::connect(("127.0.0.1", port)).is_ok(),
            || "fakellm did not start".into(),
        );
        Some(server)
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for FakeLlm {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Turn 1 activates the greeter; turn 2, seeing its body, answers.
const ROUND_TRIP: &str = r#"
rules:
  - name: activate
    when:
      turn: 1
    respond:
      tool_calls:
        - name: use_skill
          arguments: {name: greeter}
  - name: answer
    when:
      turn: 2
      tool_result_contains: "Say hello in French"
    respond:
      content: "Bonjour from the greeter skill"
"#;

fn greeter(ctx: &TestContext) {
    write_skill(
        &ctx.project_root(),
        "greeter",
        &format!(
            "{}Say hello in French.\n",
            skill_md("greeter", "Greets people. Use when greeting.")
        ),
    );
}

#[test]
fn both_adapters_complete_a_tool_round_trip_streaming_and_not() {
    let ctx = TestContext::new();
    greeter(&ctx);
    let Some(server) = FakeLlm::start(&ctx, ROUND_TRIP) else {
        return;
    };
    let cases = [
        ("anthropic:claude-sonnet-4-5", server.url(), false),
        ("anthropic:claude-sonnet-4-5", server.url(), true),
        ("openai:gpt-4o", format!("{}/v1", server.url()), false),
        ("openai:gpt-4o", format!("{}/v1", server.url()), true),
    ];
    for (i, (model, base, no_stream)) in cases.iter().enumerate() {
        // A task of its own: fakellm tells conversations apart by it.
        let task = format!("greet the team, run {i}");
        let mut cmd = ctx.command();
        cmd.env("ANTHROPIC_API_KEY", "sk-test-not-real").args([
            "exec",
            "--model",
            model,
            "--base-url",
            base,
            &task,
        ]);
        if *no_stream {
            cmd.arg("--no-stream");
        }
        let out = run(&mut cmd);
        assert_eq!(
            out.status, 0,
            "{model} no_stream={no_stream}: {}",
            out.stderr
        );
        // fakellm adds an echo text to a non-streamed tool-call turn; the
        // answer is the last line.
        assert_eq!(
            out.stdout.trim_end().lines().last(),
            Some("Bonjour from the greeter skill"),
            "{model} no_stream={no_stream}: {}",
            out.stdout
        );
        let runs = ctx.root().join("project/.skillpkg/runs");
        let newest = std::fs::read_dir(&runs)
            .unwrap()
            .map(|e| e.unwrap().path())
            .max()
            .unwrap();
        let log = std::fs::read_to_string(newest).unwrap();
        assert!(log.contains("\"event\":\"disclosure\""), "{log}");
        assert!(log.contains("\"skill\":\"greeter\""), "{log}");
        assert!(
            !log.contains("sk-test-not-real"),
            "the key never reaches the audit"
        );
    }
}

#[test]
fn a_429_is_retried() {
    let ctx = TestContext::new();
    greeter(&ctx);
    let rules = r#"
rules:
  - name: busy
    when:
      turn: 1
    respond:
      status: 429
      error: "slow down"
  - name: activate
    when:
      turn: 2
    respond:
      tool_calls:
        - name: use_skill
          arguments: {name: greeter}
  - name: answer
    when:
      turn: 3
    respond:
      content: "answered after a retry"
"#;
    let Some(server) = FakeLlm::start(&ctx, rules) else {
        return;
    };
    let out = run(ctx.command().args([
        "exec",
        "--model",
        "openai:gpt-4o",
        "--base-url",
        &format!("{}/v1", server.url()),
        "--no-stream",
        "greet",
    ]))
    .assert_ok();
    assert_eq!(out.stdout.trim(), "answered after a retry");
}

#[test]
fn a_missing_key_for_the_default_server_is_explained() {
    let ctx = TestContext::new();
    let out = ctx.fails(&["exec", "--model", "anthropic:claude-sonnet-4-5", "hello"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: anthropic:claude-sonnet-4-5 needs an API key and ANTHROPIC_API_KEY is not set
    hint: export ANTHROPIC_API_KEY=…, or point --base-url at a server that needs none
    ");
}

#[test]
fn a_model_named_without_its_provider_gets_the_form_meant() {
    let ctx = TestContext::new();
    let out = ctx.fails(&["exec", "--model", "gpt-4o", "hello"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r"
    error: unknown model 'gpt-4o'
    hint: did you mean `--model openai:gpt-4o`?
    hint: models are anthropic:<model>, openai:<model> or scripted:<file>
    hint: a model on an OpenAI-compatible server (Ollama, vLLM, llama.cpp) is openai:<model> with --base-url URL
    ");
}

#[test]
fn keys_come_from_the_credentials_file_when_the_environment_has_none() {
    let ctx = TestContext::new();
    greeter(&ctx);
    let Some(server) = FakeLlm::start(&ctx, ROUND_TRIP) else {
        return;
    };
    let credentials = ctx.root().join("config/credentials.toml");
    std::fs::write(&credentials, "ANTHROPIC_API_KEY = \"sk-from-file\"\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&credentials, std::fs::Permissions::from_mode(0o644)).unwrap();
    let exec = || {
        run(ctx
            .command()
            .env("ANTHROPIC_BASE_URL", server.url())
            .args(["exec", "greet from the file"]))
    };
    let refused = exec().assert_fails();
    insta::assert_snapshot!(ctx.redact(&refused.stderr), @"
    error: [TEMP]/config/credentials.toml can be read by other users (mode 644); not using its keys
    hint: chmod 600 [TEMP]/config/credentials.toml
    ");

    std::fs::set_permissions(&credentials, std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = exec().assert_ok();
    assert_eq!(
        out.stdout.trim_end().lines().last(),
        Some("Bonjour from the greeter skill")
    );
    let runs = ctx.root().join("project/.skillpkg/runs");
    let log = std::fs::read_dir(&runs)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect::<String>();
    assert!(
        log.contains("anthropic:claude-sonnet-4-5"),
        "chosen from the key: {log}"
    );
    assert!(!log.contains("sk-from-file"));
}
