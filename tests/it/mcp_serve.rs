//! `skillpkg serve --mcp` driven over stdio with raw JSON-RPC: the Skills
//! extension's `skills/list`, `skills/get` and `resources/directory/read`,
//! `resources/read`, and the fallback tools, over a project with a
//! registry skill, a path skill and a hand-written one. Every digest is
//! the sha256 of the file on disk, every file is listed, a link out of a
//! skill is neither listed nor readable, and a managed skill edited since
//! install is left out.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use sha2::{Digest as _, Sha256};

use crate::common::{TestContext, new_project, skill_md, write_skill};

/// A running `serve --mcp`, spoken to line by line.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Session {
    fn start(ctx: &TestContext, project: &Path) -> Session {
        let mut child = ctx
            .command()
            .args(["serve", "--mcp"])
            .current_dir(project)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut session = Session {
            child,
            stdin,
            stdout,
            next: 1,
        };
        let init = session.request(
            "initialize",
            serde_json::json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "skillpkg-tests", "version": "1"},
            }),
        );
        assert_eq!(
            init["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/skills"]["directoryRead"],
            true,
            "{init}"
        );
        session.send(serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        session
    }

    fn send(&mut self, message: serde_json::Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        let id = self.next;
        self.next += 1;
        self.send(
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        );
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        let answer: serde_json::Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("no JSON-RPC answer to {method}: {e}: {line:?}"));
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }

    /// Closes stdin; returns what the server said on stderr.
    fn finish(self) -> String {
        drop(self.stdin);
        let out = self.child.wait_with_output().unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    }
}

/// `sha256:<hex>` of `bytes`.
pub(crate) fn sha256(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// Every regular file under `dir`, relative, sorted.
fn files_of(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(dir).unwrap().display().to_string())
        .collect();
    files.sort();
    files
}

/// A project with `example/pdf-processing` from the built-in index, a
/// path skill and a hand-written skill in its root.
pub(crate) fn project(ctx: &TestContext) -> std::path::PathBuf {
    let app = new_project(ctx, None);
    ctx.ok_in(&app, &["add", "example/pdf-processing"]);
    let outside = write_skill(
        &ctx.root().join("src"),
        "house-style",
        &skill_md(
            "house-style",
            "Writes in the house style. Use when editing prose.",
        ),
    );
    std::fs::create_dir_all(outside.join("references")).unwrap();
    std::fs::write(outside.join("references/tone.md"), "Be brief.\n").unwrap();
    ctx.ok_in(&app, &["add", "--path", outside.to_str().unwrap()]);
    let hand = write_skill(
        &app.join(".agents/skills"),
        "notes",
        "---\nname: notes\ndescription: Keeps notes. Use when asked to remember.\nlicense: MIT\nmetadata:\n  owner: docs-team\n---\n\nTake notes.\n",
    );
    std::fs::write(hand.join("tips.md"), "Date every note.\n").unwrap();
    app
}

#[test]
fn every_skill_is_listed_with_each_file_and_the_digest_of_its_bytes() {
    let ctx = TestContext::new();
    let app = project(&ctx);
    let mut session = Session::start(&ctx, &app);
    let list = session.request("skills/list", serde_json::json!({}));
    let skills = list["result"]["skills"].as_array().unwrap();
    let root = app.join(".agents/skills");
    for name in ["pdf-processing", "house-style", "notes"] {
        let skill = skills
            .iter()
            .find(|s| s["frontmatter"]["name"] == name)
            .unwrap_or_else(|| panic!("{name} is not listed: {list}"));
        let dir = root.join(name);
        assert_eq!(skill["uri"], format!("skill://{name}/SKILL.md"));
        // An entry has exactly these fields; a resource exactly uri,
        // digest and size.
        let mut keys: Vec<&str> = skill
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort();
        assert_eq!(keys, ["_meta", "frontmatter", "resources", "uri"]);
        let resources = skill["resources"].as_array().unwrap();
        let mut listed: Vec<String> = Vec::new();
        for resource in resources {
            let mut keys: Vec<&str> = resource
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            keys.sort();
            assert_eq!(keys, ["digest", "size", "uri"]);
            let uri = resource["uri"].as_str().unwrap();
            let relative = uri.strip_prefix(&format!("skill://{name}/")).unwrap();
            let bytes = std::fs::read(dir.join(relative)).unwrap();
            assert_eq!(resource["digest"], sha256(&bytes), "{uri}");
            assert_eq!(resource["size"], bytes.len(), "{uri}");
            // What resources/read returns is what the digest promises.
            let read = session.request("resources/read", serde_json::json!({"uri": uri}));
            let text = read["result"]["contents"][0]["text"].as_str().unwrap();
            assert_eq!(sha256(text.as_bytes()), resource["digest"], "{uri}");
            listed.push(relative.to_string());
        }
        listed.sort();
        assert_eq!(listed, files_of(&dir), "{name}: the list is complete");
        // The frontmatter is the file's, verbatim.
        let text = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
        let yaml = text.split("---").nth(1).unwrap();
        let parsed = skillpkg::skill::yaml::parse_yaml(yaml).unwrap();
        assert_eq!(skill["frontmatter"], parsed, "{name}");
    }
    let pdf = skills
        .iter()
        .find(|s| s["frontmatter"]["name"] == "pdf-processing")
        .unwrap();
    assert_eq!(
        pdf["_meta"]["io.modelcontextprotocol.skills/package"],
        "example/pdf-processing"
    );
    assert_eq!(
        pdf["_meta"]["io.modelcontextprotocol.skills/source"],
        "registry+builtin"
    );
    let notes = skills
        .iter()
        .find(|s| s["frontmatter"]["name"] == "notes")
        .unwrap();
    assert_eq!(notes["frontmatter"]["metadata"]["owner"], "docs-team");

    // skills/get answers for a skill, and -32602 for anything else.
    let got = session.request(
        "skills/get",
        serde_json::json!({"uri": "skill://notes/SKILL.md"}),
    );
    assert_eq!(got["result"]["skill"], *notes);
    let missing = session.request(
        "skills/get",
        serde_json::json!({"uri": "skill://nope/SKILL.md"}),
    );
    assert_eq!(missing["error"]["code"], -32602, "{missing}");

    // Directories list their direct children.
    let dir = session.request(
        "resources/directory/read",
        serde_json::json!({"uri": "skill://house-style"}),
    );
    let children: Vec<(&str, &str)> = dir["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["uri"].as_str().unwrap(),
                r["mimeType"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        children,
        [
            ("skill://house-style/SKILL.md", "text/markdown"),
            ("skill://house-style/references", "inode/directory"),
        ]
    );
    let sub = session.request(
        "resources/directory/read",
        serde_json::json!({"uri": "skill://house-style/references"}),
    );
    assert_eq!(
        sub["result"]["resources"][0]["uri"],
        "skill://house-style/references/tone.md"
    );
    let not_a_dir = session.request(
        "resources/directory/read",
        serde_json::json!({"uri": "skill://house-style/SKILL.md"}),
    );
    assert_eq!(not_a_dir["error"]["code"], -32602, "{not_a_dir}");

    // The tools for clients without the extension.
    let tools = session.request("tools/list", serde_json::json!({}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["list_skills", "use_skill", "read_skill_file"]);
    let used = session.request(
        "tools/call",
        serde_json::json!({"name": "use_skill", "arguments": {"name": "notes"}}),
    );
    let text = used["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("\nTake notes.") && text.contains("tips.md"),
        "{text}"
    );
    let read = session.request(
        "tools/call",
        serde_json::json!({"name": "read_skill_file", "arguments": {"name": "house-style", "path": "references/tone.md"}}),
    );
    assert_eq!(read["result"]["content"][0]["text"], "Be brief.\n");
    session.finish();
}

#[test]
fn a_link_out_of_a_skill_is_neither_listed_nor_readable() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let secret = ctx.root().join("id_ed25519");
    std::fs::write(&secret, "-----BEGIN OPENSSH PRIVATE KEY-----\n").unwrap();
    let skill = write_skill(
        &app.join(".agents/skills"),
        "cloned",
        &skill_md("cloned", "From a cloned repository. Use when testing."),
    );
    std::os::unix::fs::symlink(&secret, skill.join("notes")).unwrap();
    std::fs::write(skill.join("inside.md"), "inside\n").unwrap();
    std::os::unix::fs::symlink(skill.join("inside.md"), skill.join("alias.md")).unwrap();
    let mut session = Session::start(&ctx, &app);
    let list = session.request("skills/list", serde_json::json!({}));
    let cloned = list["result"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["frontmatter"]["name"] == "cloned")
        .unwrap()
        .clone();
    let uris: Vec<&str> = cloned["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "skill://cloned/SKILL.md",
            "skill://cloned/alias.md",
            "skill://cloned/inside.md"
        ],
        "a link inside the skill is served, one leading out is not"
    );
    let read = session.request(
        "resources/read",
        serde_json::json!({"uri": "skill://cloned/notes"}),
    );
    assert_eq!(read["error"]["code"], -32602, "{read}");
    assert!(!read.to_string().contains("PRIVATE KEY"));
    let stderr = session.finish();
    assert!(
        stderr.contains("notes is not served: it is a link leading out of the skill's folder"),
        "{stderr}"
    );
}

#[test]
fn a_managed_skill_edited_since_install_is_left_out_and_a_new_skill_shows_up() {
    let ctx = TestContext::new();
    let app = project(&ctx);
    std::fs::write(
        app.join(".agents/skills/pdf-processing/SKILL.md"),
        "---\nname: pdf-processing\ndescription: Edited. Use when testing.\n---\nEdited.\n",
    )
    .unwrap();
    let mut session = Session::start(&ctx, &app);
    let names = |list: &serde_json::Value| -> Vec<String> {
        list["result"]["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["frontmatter"]["name"].as_str().unwrap().to_string())
            .collect()
    };
    let list = session.request("skills/list", serde_json::json!({}));
    assert!(
        !names(&list).contains(&"pdf-processing".to_string()),
        "{list}"
    );
    assert!(names(&list).contains(&"notes".to_string()));
    let read = session.request(
        "resources/read",
        serde_json::json!({"uri": "skill://pdf-processing/SKILL.md"}),
    );
    assert!(read["error"].is_object(), "{read}");

    // Written while the server runs: listed on the next skills/list.
    write_skill(
        &app.join(".agents/skills"),
        "later",
        &skill_md("later", "Added later. Use when testing."),
    );
    let list = session.request("skills/list", serde_json::json!({}));
    assert!(names(&list).contains(&"later".to_string()), "{list}");
    // skills/get reads the one skill as it is now: an edit shows, and a
    // skill removed is unknown.
    std::fs::write(
        app.join(".agents/skills/later/SKILL.md"),
        skill_md("later", "Edited later. Use when testing."),
    )
    .unwrap();
    let got = session.request(
        "skills/get",
        serde_json::json!({"uri": "skill://later/SKILL.md"}),
    );
    assert_eq!(
        got["result"]["skill"]["frontmatter"]["description"], "Edited later. Use when testing.",
        "{got}"
    );
    std::fs::remove_dir_all(app.join(".agents/skills/later")).unwrap();
    let got = session.request(
        "skills/get",
        serde_json::json!({"uri": "skill://later/SKILL.md"}),
    );
    assert_eq!(got["error"]["code"], -32602, "{got}");
    let read = session.request(
        "resources/read",
        serde_json::json!({"uri": "skill://later/SKILL.md"}),
    );
    assert!(read["error"].is_object(), "{read}");
    let stderr = session.finish();
    assert!(
        stderr.contains("example/pdf-processing is pinned by skills.lock to tree")
            && stderr.contains("(edited since install)"),
        "{stderr}"
    );
}

#[test]
fn a_skill_the_specification_rejects_is_left_out_so_strict_clients_keep_the_rest() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let long = "Use when testing. ".repeat(60);
    write_skill(
        &app.join(".agents/skills"),
        "wordy",
        &skill_md("wordy", long.trim()),
    );
    write_skill(
        &app.join(".agents/skills"),
        "fine",
        &skill_md("fine", "Fine. Use when testing."),
    );
    let mut session = Session::start(&ctx, &app);
    let list = session.request("skills/list", serde_json::json!({}));
    let names: Vec<&str> = list["result"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["frontmatter"]["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"fine") && !names.contains(&"wordy"),
        "{list}"
    );
    let stderr = session.finish();
    assert!(
        stderr.contains("wordy: not served: its description is 1079 characters, outside 1-1024"),
        "{stderr}"
    );
}

#[test]
fn print_config_gives_each_agent_the_entry_that_starts_the_server_for_the_project() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let project = std::fs::canonicalize(&app).unwrap();
    let out = ctx.ok_in(&app, &["serve", "--mcp", "--print-config", "claude"]);
    let entry: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let server = &entry["mcpServers"]["skillpkg"];
    assert_eq!(
        server["args"],
        serde_json::json!(["serve", "--mcp", "--project", project.to_str().unwrap()])
    );
    assert_eq!(server["command"], env!("CARGO_BIN_EXE_skillpkg"));
    insta::assert_snapshot!(out.stderr, @"         Add this to .mcp.json (Claude Code, in the project; or `claude mcp add-json skillpkg '…'`)");
    let out = ctx.ok_in(&app, &["serve", "--mcp", "--print-config", "vscode"]);
    let entry: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(entry["servers"]["skillpkg"]["type"], "stdio");
    let out = ctx.run_in(&app, &["serve", "--mcp", "--print-config", "emacs"]);
    assert_eq!(out.status, 2, "{}", out.stderr);
}

#[test]
fn a_disabled_skill_is_not_served() {
    let ctx = TestContext::new();
    let app = project(&ctx);
    ctx.ok_in(&app, &["disable", "notes"]);
    let mut session = Session::start(&ctx, &app);
    let list = session.request("skills/list", serde_json::json!({}));
    let names: Vec<&str> = list["result"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["frontmatter"]["name"].as_str())
        .collect();
    assert!(names.contains(&"pdf-processing"), "{list}");
    assert!(!names.contains(&"notes"), "{list}");
    session.finish();
}
