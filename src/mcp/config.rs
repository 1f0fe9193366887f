//! `serve --mcp --print-config AGENT`: the entry an agent's MCP
//! configuration needs to start `skillpkg serve --mcp` for a project.

use std::path::Path;

/// The agents whose MCP configuration formats are known.
pub(crate) const AGENTS: [&str; 4] = ["claude", "cursor", "vscode", "codex"];

/// The configuration entry, named `skillpkg`, that makes `agent` start
/// `program serve --mcp --project project`, and the file it goes in.
pub(crate) fn snippet(agent: &str, program: &Path, project: &Path) -> Option<(String, String)> {
    let command = program.display().to_string();
    let args = [
        "serve".to_string(),
        "--mcp".to_string(),
        "--project".to_string(),
        project.display().to_string(),
    ];
    let json = |value: serde_json::Value| {
        serde_json::to_string_pretty(&value).expect("JSON serialises") + "\n"
    };
    let servers = serde_json::json!({"skillpkg": {"command": command, "args": args}});
    Some(match agent {
        "claude" => (
            ".mcp.json (Claude Code, in the project; or `claude mcp add-json skillpkg '…'`)"
                .to_string(),
            json(serde_json::json!({ "mcpServers": servers })),
        ),
        "cursor" => (
            ".cursor/mcp.json (Cursor, in the project)".to_string(),
            json(serde_json::json!({ "mcpServers": servers })),
        ),
        "vscode" => (
            ".vscode/mcp.json (VS Code and Copilot, in the project)".to_string(),
            json(serde_json::json!({
                "servers": {"skillpkg": {"type": "stdio", "command": command, "args": args}}
            })),
        ),
        "codex" => {
            let mut table = toml_edit::Table::new();
            table.insert("command", toml_edit::value(&command));
            let mut list = toml_edit::Array::new();
            for arg in &args {
                list.push(arg.as_str());
            }
            table.insert("args", toml_edit::value(list));
            let mut servers = toml_edit::Table::new();
            servers.set_implicit(true);
            servers.insert("skillpkg", toml_edit::Item::Table(table));
            let mut document = toml_edit::DocumentMut::new();
            document.insert("mcp_servers", toml_edit::Item::Table(servers));
            (
                "~/.codex/config.toml (Codex)".to_string(),
                document.to_string(),
            )
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_agent_gets_its_own_format() {
        let program = Path::new("/usr/bin/skillpkg");
        let project = Path::new("/work/app");
        let (_, claude) = snippet("claude", program, project).unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&claude).unwrap();
        assert_eq!(
            parsed["mcpServers"]["skillpkg"]["args"],
            serde_json::json!(["serve", "--mcp", "--project", "/work/app"])
        );
        let (_, vscode) = snippet("vscode", program, project).unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&vscode).unwrap();
        assert_eq!(parsed["servers"]["skillpkg"]["type"], "stdio");
        let (_, codex) = snippet("codex", program, project).unwrap();
        assert_eq!(
            codex,
            "[mcp_servers.skillpkg]\ncommand = \"/usr/bin/skillpkg\"\nargs = [\"serve\", \"--mcp\", \"--project\", \"/work/app\"]\n"
        );
        assert!(snippet("emacs", program, project).is_none());
    }
}
