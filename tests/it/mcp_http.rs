//! `skillpkg serve --mcp --http`: MCP's streamable HTTP transport on
//! loopback, behind a bearer token. Raw requests show what is refused
//! (no token, a wrong one, a browser's `Origin`, a non-loopback address
//! without `--listen-any`); the MCP Python SDK reads the skills through it
//! (tests/fixtures/mcp/clients.py).

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Child, Stdio};

use crate::common::{TestContext, new_project, run};

/// A running `serve --mcp --http 127.0.0.1:0`, and where it listens.
struct HttpServer {
    child: Child,
    host: String,
}

impl HttpServer {
    fn start(ctx: &TestContext, project: &std::path::Path, token: &str) -> HttpServer {
        let mut child = ctx
            .command()
            .args(["serve", "--mcp", "--http", "127.0.0.1:0"])
            .env("SKILLPKG_MCP_TOKEN", token)
            .current_dir(project)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        while !line.contains("Serving") {
            line.clear();
            assert_ne!(
                stderr.read_line(&mut line).unwrap(),
                0,
                "the server stopped"
            );
        }
        // Keep draining what it logs, so it never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let host = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split("/mcp").next())
            .unwrap()
            .to_string();
        assert!(
            line.contains("(bearer token from SKILLPKG_MCP_TOKEN)") && !line.contains(token),
            "{line}"
        );
        HttpServer { child, host }
    }

    /// The status of an `initialize` POST with `headers`.
    fn status(&self, headers: &[(&str, &str)]) -> u16 {
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
        let mut stream = std::net::TcpStream::connect(&self.host).unwrap();
        let mut request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
            self.host,
            body.len()
        );
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        request.push_str(body);
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        answer
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_http_server_wants_its_token_refuses_browsers_and_stays_on_loopback() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let server = HttpServer::start(&ctx, &app, "s3cret-token");
    assert_eq!(server.status(&[]), 401, "no token");
    assert_eq!(
        server.status(&[("Authorization", "Bearer wrong-token!")]),
        401,
        "a wrong token"
    );
    assert_eq!(
        server.status(&[
            ("Authorization", "Bearer s3cret-token"),
            ("Origin", "http://evil.example")
        ]),
        403,
        "a browser's request (DNS rebinding)"
    );
    assert_eq!(
        server.status(&[("Authorization", "Bearer s3cret-token")]),
        200
    );

    let out = ctx.run_in(&app, &["serve", "--mcp", "--http", "0.0.0.0:0"]);
    assert_eq!(out.status, 1);
    insta::assert_snapshot!(out.stderr, @r"
    error: 0.0.0.0:0 is not a loopback address, and the server serves this machine only
    hint: listen on 127.0.0.1:PORT, or pass --listen-any to serve the network (every request still needs the token)
    ");
}

#[test]
fn the_mcp_sdk_reads_the_skills_over_streamable_http() {
    if !crate::mcp_clients::has_clients() {
        return;
    }
    let ctx = TestContext::new();
    let app = crate::mcp_serve::project(&ctx);
    let server = HttpServer::start(&ctx, &app, "s3cret-token");
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp/clients.py");
    let mut python = crate::mcp_clients::python_with_env_of(&ctx);
    python
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_skillpkg"))
        .arg(&app)
        .arg(format!("http://{}/mcp", server.host))
        .arg("s3cret-token")
        .current_dir(&app);
    let out = run(&mut python);
    assert_eq!(out.status, 0, "the clients failed: {}", out.stderr);
    let seen: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(seen["sdk_http"]["files"], seen["sdk"]["files"]);
    assert_eq!(
        seen["sdk_http"]["tools"],
        serde_json::json!(["list_skills", "use_skill", "read_skill_file"])
    );
}

#[test]
fn exec_takes_skills_from_an_http_server_with_the_token_and_not_without() {
    let ctx = TestContext::new();
    let served = ctx.root().join("served");
    std::fs::create_dir_all(&served).unwrap();
    std::fs::write(served.join("skills.toml"), "").unwrap();
    crate::common::write_skill(
        &served.join(".agents/skills"),
        "notes",
        "---\nname: notes\ndescription: Keeps notes. Use when asked to remember.\n---\nTake notes.\n",
    );
    let server = HttpServer::start(&ctx, &served, "t0ken");
    let url = format!("http://{}/mcp", server.host);
    let exec = |token: &str| {
        let mut cmd = ctx.command();
        cmd.env("SKILLPKG_MCP_TOKEN", token).args([
            "exec",
            "--dry-run",
            "--mcp-skills",
            &url,
            "remember this",
        ]);
        run(&mut cmd).assert_ok()
    };
    let out = exec("t0ken");
    assert!(
        out.stdout.contains(&format!("<name>notes</name>\n<description>Keeps notes. Use when asked to remember.</description>\n<origin>mcp:{url}</origin>")),
        "{}",
        out.stdout
    );
    assert_eq!(ctx.redact(&out.stderr), "");
    let out = exec("wrong");
    assert!(!out.stdout.contains("<name>notes</name>"), "{}", out.stdout);
    assert!(
        out.stderr.starts_with(&format!(
            "warning: mcp:{url}: no skills taken from it: the MCP session did not start"
        )),
        "{}",
        out.stderr
    );
}
