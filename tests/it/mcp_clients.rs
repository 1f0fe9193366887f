//! `skillpkg serve --mcp` read by independent clients: FastMCP 4's client
//! with its Skills extension (whose models reject entries with missing or
//! extra fields, and whose `read_skill` verifies every file against its
//! digest) and the official MCP Python SDK over stdio (resources and the
//! fallback tools). Both run in `tests/fixtures/mcp/clients.py`; this
//! test checks what they saw against the files on disk.

use std::path::Path;

use crate::common::{TestContext, run};
use crate::mcp_serve::{project, sha256};
use base64::Engine as _;

/// Whether `python3` has FastMCP and the MCP SDK; says so when it does
/// not, and fails under CI, whose scripts/test.sh installs them.
pub(crate) fn has_clients() -> bool {
    let found = std::process::Command::new("python3")
        .args(["-c", "import fastmcp, mcp"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install the MCP clients (pip install fastmcp==4.2.3, as scripts/test.sh does)"
        );
        eprintln!("SKIPPED: python3 lacks fastmcp and mcp (pip install fastmcp==4.2.3)");
    }
    found
}

#[test]
fn fastmcp_and_the_mcp_sdk_list_and_read_every_skill_with_matching_digests() {
    if !has_clients() {
        return;
    }
    let ctx = TestContext::new();
    let app = project(&ctx);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp/clients.py");
    let mut python = python_with_env_of(&ctx);
    python
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_skillpkg"))
        .arg(&app)
        .current_dir(&app);
    let out = run(&mut python);
    assert_eq!(out.status, 0, "the clients failed: {}", out.stderr);
    let seen: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let root = app.join(".agents/skills");

    // FastMCP: every project skill listed, and every file of it, with the
    // digest and size of its bytes on disk (read_skill verified each).
    let skills = seen["fastmcp"].as_array().unwrap();
    for name in ["pdf-processing", "house-style", "notes"] {
        let skill = skills
            .iter()
            .find(|s| s["frontmatter"]["name"] == name)
            .unwrap_or_else(|| panic!("FastMCP did not list {name}: {seen}"));
        let resources = skill["resources"].as_array().unwrap();
        let on_disk = walkdir::WalkDir::new(root.join(name))
            .into_iter()
            .filter(|e| e.as_ref().unwrap().file_type().is_file())
            .count();
        assert_eq!(resources.len(), on_disk, "{name}: every file is listed");
        for resource in resources {
            let uri = resource["uri"].as_str().unwrap();
            let relative = uri.strip_prefix(&format!("skill://{name}/")).unwrap();
            let bytes = std::fs::read(root.join(name).join(relative)).unwrap();
            assert_eq!(resource["digest"], sha256(&bytes), "{uri}");
            assert_eq!(resource["size"], bytes.len(), "{uri}");
        }
    }

    // The MCP SDK: every resource read back as the bytes on disk, and the
    // fallback tools.
    let files = seen["sdk"]["files"].as_object().unwrap();
    let uri = "skill://house-style/references/tone.md";
    let read = base64::engine::general_purpose::STANDARD
        .decode(files[uri].as_str().unwrap())
        .unwrap();
    assert_eq!(read, b"Be brief.\n");
    for (uri, data) in files {
        let Some(rest) = uri.strip_prefix("skill://") else {
            panic!("{uri} is no skill:// resource");
        };
        let path = root.join(rest);
        if path.exists() {
            let data = base64::engine::general_purpose::STANDARD
                .decode(data.as_str().unwrap())
                .unwrap();
            assert_eq!(data, std::fs::read(&path).unwrap(), "{uri}");
        }
    }
    assert_eq!(
        seen["sdk"]["tools"],
        serde_json::json!(["list_skills", "use_skill", "read_skill_file"])
    );
    assert!(
        seen["sdk"]["list_skills"]
            .as_str()
            .unwrap()
            .contains("- notes: Keeps notes. Use when asked to remember.")
    );
}

/// `python3` with the environment skillpkg commands of `ctx` get (its
/// private homes), which the servers the clients start inherit.
pub(crate) fn python_with_env_of(ctx: &TestContext) -> std::process::Command {
    let cmd = ctx.command();
    let mut python = std::process::Command::new("python3");
    for (key, value) in cmd.get_envs() {
        match value {
            Some(value) => python.env(key, value),
            None => python.env_remove(key),
        };
    }
    python
}
