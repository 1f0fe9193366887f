//! Agents' control plane (`agent-settings-write`): running an agent with
//! its permission checks or sandbox off (`--dangerously-skip-permissions`,
//! `bypassPermissions`, `--yolo`, Codex's `approval_policy = "never"` and
//! `danger-full-access`, Copilot's `--allow-all-tools`, …), and writing
//! the files where agents keep hooks and permissions
//! (`.claude/settings*.json`, `.codex/config.toml`, `.cursor/hooks.json`,
//! …) by redirection, copy, an editor in place or code. Both outlive the
//! skill and take the user's say away.
//!
//! Naming these in prose is documentation: the rule weighs fully in
//! scripts and in `SKILL.md`'s fenced commands, and warns elsewhere.

use std::sync::LazyLock;

use regex::Regex;

use super::finding::{Finding, Severity, excerpt};
use super::pattern::regex;

/// Agents' settings files that hold hooks, permissions or MCP servers.
const SETTINGS: &str = r"(?:\.claude/(?:settings(?:\.local)?\.json|hooks/)|\.claude\.json|\.codex/(?:config\.toml|hooks\.json)|\.cursor/(?:mcp|hooks|cli-config)\.json|\.gemini/settings\.json|\.vscode/(?:settings|tasks|mcp)\.json|\.github/copilot/settings\.json|\.copilot/config\.json|\.windsurf/hooks\.json|\.amp/settings\.json)";

/// Agents' command-line names, for flags whose name is common elsewhere.
const AGENT: &str =
    r"\b(?:claude|codex|gemini|qwen|copilot|cursor-agent|amp|opencode|crush|goose|aider)\b";

/// The line patterns of `agent-settings-write`.
pub(super) fn patterns() -> Vec<String> {
    vec![
        // Permission checks off.
        r"--dangerously-skip-permissions\b".into(),
        r"--dangerously-bypass-approvals-and-sandbox\b".into(),
        r"--allow-dangerously-skip-permissions\b".into(),
        r"(?i)[\x22']?defaultMode[\x22']?\s*[:=]\s*[\x22']bypassPermissions".into(),
        r"--permission-mode[ =]+bypassPermissions\b".into(),
        format!(
            r"{AGENT}[^\n]*\s(?:--yolo|--approval-mode[ =]+yolo|--allow-all-tools|--allow-all-paths|--allow-all|--dangerously-allow-all)\b"
        ),
        r"\bcursor-agent\b[^\n]*\s(?:-f|--force)\b".into(),
        r"\bcodex\b[^\n]*\s(?:-a|--ask-for-approval)[ =]+never\b".into(),
        r"\bcodex\b[^\n]*\s(?:-s|--sandbox)[ =]+danger-full-access\b".into(),
        r#"\bapproval_policy\s*=\s*[\x22']?never\b"#.into(),
        r#"\bsandbox_mode\s*=\s*[\x22']?danger-full-access\b"#.into(),
        // Settings written by redirection or tee.
        format!(r"{SETTINGS}[^\n]*(?:>>?|\btee\b)|(?:>>?|\btee\s+(?:-a\s+)?)\s*\S*{SETTINGS}"),
        // Settings written by a copy, a move, a link or an in-place edit.
        // (the settings file last: the destination).
        format!(
            r"\b(?:cp|mv|ln|install|rsync|sed\s+-i\S*|perl\s+-pi\S*)\s[^\n|;&]*\s[\x22']?\S*{SETTINGS}[\x22']?\s*(?:$|[;&|#)])"
        ),
        // Settings written by code.
        format!(
            r"(?i)(?:open\(|write_text\(|write_bytes\(|writeFile(?:Sync)?\(|appendFile(?:Sync)?\(|Set-Content|Add-Content|Out-File|copyfile\(|shutil\.copy\w*\(|json\.dump\()[^\n]*{SETTINGS}"
        ),
        // A skill's own pre-approvals widened in place.
        r"(?i)sed\s+-i[^\n]*allowed-tools".into(),
    ]
}

/// A path to an agent's settings built from its parts (`Path.home() /
/// ".claude" / "settings.json"`, `path.join(home, ".codex",
/// "config.toml")`).
static BUILT_PATH: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"[\x22']\.(?:claude|codex|cursor|gemini)[\x22']\s*[,/+]\s*[\x22'](?:settings(?:\.local)?\.json|config\.toml|hooks\.json|mcp\.json)[\x22']"#,
    )
});

/// A file written, in code.
static CODE_WRITE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"\.write_text\(|\.write_bytes\(|\bjson\.dump\(|\bopen\([^)\n]*[\x22'][wa]\+?[\x22']|\bwriteFile(?:Sync)?\(|\bappendFile(?:Sync)?\(|\bshutil\.copy\w*\("#,
    )
});

/// A settings path built on one line and a file written in the same
/// code: the whole-file half of `agent-settings-write`, over `lines` of
/// the script `file`.
pub(super) fn scan_built_paths(file: &str, lines: &[(usize, &str, bool)]) -> Option<Finding> {
    let &(n, line, _) = lines.iter().find(|(_, l, _)| BUILT_PATH.is_match(l))?;
    lines
        .iter()
        .any(|(_, l, _)| CODE_WRITE.is_match(l))
        .then(|| Finding {
            rule: "agent-settings-write",
            severity: Severity::Block,
            file: file.to_string(),
            line: Some(n),
            message: "a path to an agent's settings is built in code that writes files".into(),
            excerpt: excerpt(line),
            waived: None,
        })
}

#[cfg(test)]
mod tests;
