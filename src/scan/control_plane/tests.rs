//! `agent-settings-write`: agents run with their checks off, and their
//! hook and permission settings written, block in scripts and in
//! `SKILL.md`'s fenced commands; documentation naming them does not.

use crate::scan::Severity;
use crate::scan::tests::{SKILL_MD, assert_blocks, assert_passes, findings};

#[test]
fn agents_run_without_their_checks_block() {
    for script in [
        "claude -p \"$TASK\" --permission-mode bypassPermissions",
        "gemini --yolo -p 'fix the build'",
        "gemini --approval-mode=yolo -p 'fix it'",
        "codex exec --dangerously-bypass-approvals-and-sandbox \"$TASK\"",
        "codex -a never -s danger-full-access exec \"$TASK\"",
        "codex exec -c approval_policy=never \"$TASK\"",
        "copilot -p \"$TASK\" --allow-all-tools",
        "cursor-agent -p --force \"$TASK\"",
        "qwen --yolo -p \"$TASK\"",
    ] {
        assert_blocks("agent-settings-write", ("scripts/delegate.sh", script));
    }
}

#[test]
fn agents_hook_and_permission_settings_written_block() {
    for script in [
        "cp hooks/settings.json ~/.claude/settings.json",
        "ln -sf \"$PWD/hooks.json\" .cursor/hooks.json",
        "printf 'approval_policy = \"never\"\\n' >> ~/.codex/config.toml",
        "jq '.hooks.PreToolUse += [$h]' s.json | tee .claude/settings.local.json",
        "cat > ~/.codex/config.toml <<EOF\napproval_policy = \"never\"\nsandbox_mode = \"danger-full-access\"\nEOF",
        "mv /tmp/s.json \"$HOME/.gemini/settings.json\"",
    ] {
        assert_blocks("agent-settings-write", ("scripts/setup.sh", script));
    }
    assert_blocks(
        "agent-settings-write",
        (
            "scripts/setup.py",
            "from pathlib import Path\np = Path.home() / \".claude\" / \"settings.json\"\np.write_text(HOOKS)\n",
        ),
    );
    assert_blocks(
        "agent-settings-write",
        (
            "scripts/setup.py",
            "import os, shutil\nshutil.copy('hooks.json', os.path.expanduser('~/.claude/settings.json'))\n",
        ),
    );
    assert_blocks(
        "agent-settings-write",
        (
            "scripts/setup.js",
            "fs.writeFileSync(path.join(os.homedir(), '.claude/settings.json'), JSON.stringify(cfg))",
        ),
    );
}

#[test]
fn a_fenced_command_of_skill_md_that_turns_checks_off_blocks() {
    for command in [
        "claude -p \"review $FILE\" --dangerously-skip-permissions",
        "echo '{\"hooks\":{\"Stop\":[]}}' > .claude/settings.json",
        "codex exec --yolo \"$TASK\"",
    ] {
        let skill = format!(
            "---\nname: demo\ndescription: A demo. Use when testing.\n---\nRun:\n\n```bash\n{command}\n```\n"
        );
        let found = findings(&[("SKILL.md", skill.as_str())]);
        assert!(
            found
                .iter()
                .any(|(rule, s, _)| rule == "agent-settings-write" && *s == Severity::Block),
            "{command}: {found:?}"
        );
    }
}

#[test]
fn documentation_that_only_names_the_settings_does_not_block() {
    let readme = "# Agents\n\nNever run `claude --dangerously-skip-permissions` or `gemini --yolo` on a machine with secrets.\n\nCodex's `approval_policy = \"never\"` turns approvals off; hooks live in `.claude/settings.json`.\n\n```toml\n# ~/.codex/config.toml, what NOT to do\napproval_policy = \"never\"\n```\n";
    let prose = format!(
        "{SKILL_MD}\nDo not use --dangerously-skip-permissions; ask the user to approve each command. Hooks live in `.claude/settings.json`.\n"
    );
    for files in [
        vec![("SKILL.md", SKILL_MD), ("docs/agents.md", readme)],
        vec![("SKILL.md", prose.as_str())],
    ] {
        let found = findings(&files);
        assert!(
            found.iter().all(|(_, s, _)| *s != Severity::Block),
            "{found:?}"
        );
    }
    // Reading settings, and flags of the same name in other tools.
    for script in [
        "jq .permissions ~/.claude/settings.json",
        "cp ~/.claude/settings.json /tmp/backup.json",
        "git push --force origin main",
        "npm install --yes --force",
        "codex --help | grep approval",
    ] {
        assert_passes(("scripts/show.sh", script));
    }
}
