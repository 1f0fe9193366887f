//! Agent Plugins as sources: a repository or folder holding `plugin.json`
//! (Agent Plugins 1.0.0), `.claude-plugin/plugin.json` or
//! `.codex-plugin/plugin.json` installs the skills the plugin holds, each
//! its own lock entry, all at the source's one commit; its manifest is
//! checked first, and nothing of a plugin whose manifest or paths are
//! refused is written.

use std::path::{Path, PathBuf};

use crate::common::{TestContext, git, new_project, skill_md, write_skill};

/// The `$schema` of Agent Plugins 1.0.0.
const SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

/// A skill `<folder>/<name>` that agents load.
fn add_skill(folder: &Path, name: &str) {
    write_skill(
        folder,
        name,
        &skill_md(name, &format!("{name}. Use when testing.")),
    );
}

/// A plugin folder `<temp>/<dir>`: `manifest` at `manifest_path`, two
/// skills in `skills/` (alpha, beta), an `mcp.json`, and files that are no
/// skills of the plugin (a SKILL.md inside a skill, one in a client's
/// extension folder).
fn plugin_folder(ctx: &TestContext, dir: &str, manifest_path: &str, manifest: &str) -> PathBuf {
    let plugin = ctx.root().join(dir);
    let skills = plugin.join("skills");
    add_skill(&skills, "alpha");
    add_skill(&skills, "beta");
    write_skill(
        &skills.join("alpha/examples"),
        "nested",
        &skill_md("nested", "Part of alpha."),
    );
    write_skill(
        &plugin.join("com.example.client"),
        "hidden",
        &skill_md("hidden", "A client's own file."),
    );
    std::fs::write(
        plugin.join("mcp.json"),
        r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {"db": {"type": "stdio", "command": "./bin/db"}}}"#,
    )
    .unwrap();
    let path = plugin.join(manifest_path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, manifest).unwrap();
    plugin
}

/// [`plugin_folder`] committed as a git repository: its `file://` URL.
fn plugin_repo(ctx: &TestContext, dir: &str, manifest_path: &str, manifest: &str) -> String {
    let plugin = plugin_folder(ctx, dir, manifest_path, manifest);
    commit(&plugin)
}

/// Commits everything in `repo` (a new repository): its `file://` URL.
fn commit(repo: &Path) -> String {
    git(repo, &["init", "-q", "-b", "main"]);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", "plugin"]);
    format!("file://{}", repo.display())
}

/// An Agent Plugins 1.0.0 manifest of the plugin `acme-tools`, with
/// `extra` fields.
fn manifest(extra: &str) -> String {
    format!(r#"{{"$schema": "{SCHEMA}", "name": "acme-tools", "version": "1.2.0"{extra}}}"#)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn an_agent_plugin_installs_each_of_its_skills_at_the_one_commit() {
    let ctx = TestContext::new();
    let url = plugin_repo(&ctx, "plugin", "plugin.json", &manifest(""));
    let listed = ctx.ok(&["add", "--git", &url, "--list"]);
    insta::assert_snapshot!(ctx.redact(&listed.stdout), @"
    alpha  skills/alpha  alpha. Use when testing.
    beta   skills/beta   beta. Use when testing.
    ");
    insta::assert_snapshot!(ctx.redact(&listed.stderr), @r#"
          Plugin acme-tools 1.2.0, an Agent Plugin (plugin.json), holds 2 skills: alpha, beta
    warning: plugin acme-tools 1.2.0: its MCP servers (mcp.json) are left out: skillpkg installs the plugin's skills, and does not run or register MCP servers
    "#);

    let app = new_project(&ctx, None);
    let out = ctx.ok_in(&app, &["add", "--git", &url]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
          Plugin acme-tools 1.2.0, an Agent Plugin (plugin.json), holds 2 skills: alpha, beta
    warning: plugin acme-tools 1.2.0: its MCP servers (mcp.json) are left out: skillpkg installs the plugin's skills, and does not run or register MCP servers
           Found 2 skills in file://[TEMP]/plugin at commit [COMMIT]
       Installed alpha [SHORT]
       Installed beta [SHORT]
    "#);
    insta::assert_snapshot!(ctx.redact(&read(&app.join("skills.toml"))), @r#"
    # The skills this project uses. `skillpkg add org/name` adds them here;
    # skills.lock records exactly what was installed. Commit both files.

    [skills]
    alpha = { git = "file://[TEMP]/plugin", subdir = "skills/alpha" }
    beta = { git = "file://[TEMP]/plugin", subdir = "skills/beta" }
    "#);
    // Two entries, one commit.
    let lock = read(&app.join("skills.lock"));
    let sources: Vec<&str> = lock
        .lines()
        .filter(|l| l.starts_with("source = "))
        .collect();
    assert_eq!(sources.len(), 2, "{lock}");
    assert_eq!(
        sources[0].rsplit_once('#').unwrap().1,
        sources[1].rsplit_once('#').unwrap().1,
        "{lock}"
    );
    for name in ["alpha", "beta"] {
        assert!(
            app.join(".agents/skills")
                .join(name)
                .join("SKILL.md")
                .is_file()
        );
    }
    for other in ["nested", "hidden", "mcp.json"] {
        assert!(!app.join(".agents/skills").join(other).exists(), "{other}");
    }
}

#[test]
fn a_plugin_folder_installs_its_skills_as_path_dependencies() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let plugin = plugin_folder(&ctx, "plugin", "plugin.json", &manifest(""));
    let out = ctx.ok_in(&app, &["add", "--path", plugin.to_str().unwrap()]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
          Plugin acme-tools 1.2.0, an Agent Plugin (plugin.json), holds 2 skills: alpha, beta
    warning: plugin acme-tools 1.2.0: its MCP servers (mcp.json) are left out: skillpkg installs the plugin's skills, and does not run or register MCP servers
       Installed alpha h1:IwkU7x9w
       Installed beta h1:xPdBHdzK
    "#);
    insta::assert_snapshot!(ctx.redact(&read(&app.join("skills.toml"))), @r#"
    # The skills this project uses. `skillpkg add org/name` adds them here;
    # skills.lock records exactly what was installed. Commit both files.

    [skills]
    alpha = { path = "[TEMP]/plugin/skills/alpha" }
    beta = { path = "[TEMP]/plugin/skills/beta" }
    "#);
    // A name is for one skill.
    let named = ctx.fails_in(&app, &["add", "--path", plugin.to_str().unwrap(), "mine"]);
    insta::assert_snapshot!(ctx.redact(&named.stderr), @"
    error: a name can be given to one skill, and the plugin acme-tools 1.2.0 at [TEMP]/plugin holds 2 of them
    hint: add one of its skills with --path DIR/skills/NAME, or leave the name out
    ");
}

#[test]
fn an_unknown_schema_or_a_broken_manifest_is_refused_and_unknown_fields_reported() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let before = read(&app.join("skills.toml"));
    let newer = manifest("").replace("1.0.0", "2.0.0");
    let url = plugin_repo(&ctx, "newer", "plugin.json", &newer);
    let out = ctx.fails_in(&app, &["add", "--git", &url]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
    error: file://[TEMP]/newer: plugin.json declares "$schema": "https://agent-plugins.org/schemas/2.0.0/plugin.schema.json", a version of Agent Plugins that skillpkg does not read
    hint: skillpkg reads Agent Plugins 1.0.0 manifests ("$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"); a newer skillpkg may read this one
    hint: to take one of its skills without the plugin, name its folder with --subdir
    "#);
    let url = plugin_repo(
        &ctx,
        "badname",
        "plugin.json",
        &manifest("").replace("acme-tools", "Acme Tools"),
    );
    let out = ctx.fails_in(&app, &["add", "--git", &url]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
    error: file://[TEMP]/badname: plugin.json is not a valid Agent Plugins 1.0.0 manifest: its name "Acme Tools" holds characters other than a-z, 0-9, '-' and '.'
    hint: the fields and their types are in the Agent Plugins specification, §5 (https://agent-plugins.org)
    hint: to take one of its skills without the plugin, name its folder with --subdir
    "#);
    let url = plugin_repo(&ctx, "noschema", "plugin.json", r#"{"name": "acme-tools"}"#);
    let out = ctx.fails_in(&app, &["add", "--git", &url]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
    error: file://[TEMP]/noschema: plugin.json is not a valid Agent Plugins 1.0.0 manifest: it has no "$schema"
    hint: the fields and their types are in the Agent Plugins specification, §5 (https://agent-plugins.org)
    hint: to take one of its skills without the plugin, name its folder with --subdir
    "#);
    assert_eq!(read(&app.join("skills.toml")), before);
    assert!(!app.join("skills.lock").exists() || !read(&app.join("skills.lock")).contains("alpha"));

    // Unknown fields are reported and ignored: `skills` names nothing in
    // an Agent Plugin, whose skills are in skills/ alone.
    let extra = manifest(
        r#", "skills": "./elsewhere", "hooks": {}, "extensions": {"com.example.client": {"x": 1}}"#,
    );
    let url = plugin_repo(&ctx, "extra", "plugin.json", &extra);
    let out = ctx.ok_in(&app, &["add", "--git", &url, "--list"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
          Plugin acme-tools 1.2.0, an Agent Plugin (plugin.json), holds 2 skills: alpha, beta
    warning: plugin acme-tools 1.2.0: plugin.json holds fields the Agent Plugins 1.0.0 manifest does not define, ignored: "hooks", "skills"
    warning: plugin acme-tools 1.2.0: its MCP servers (mcp.json) are left out: skillpkg installs the plugin's skills, and does not run or register MCP servers
    "#);
}

#[test]
fn a_skills_path_or_link_leading_outside_the_plugin_is_refused() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let before = read(&app.join("skills.toml"));
    // A Claude Code manifest naming a folder beside the plugin.
    let repo = ctx.root().join("claude-escape");
    write_skill(
        &repo.join("outside"),
        "secret",
        &skill_md("secret", "Not the plugin's."),
    );
    let plugin = plugin_folder(
        &ctx,
        "claude-escape/plugin",
        ".claude-plugin/plugin.json",
        r#"{"name": "escape", "skills": ["./skills", "./../outside"]}"#,
    );
    std::fs::remove_file(plugin.join("mcp.json")).unwrap();
    let url = commit(&repo);
    let out = ctx.fails_in(&app, &["add", "--git", &url, "--subdir", "plugin"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
    error: folder 'plugin' of file://[TEMP]/claude-escape: the skills path "./../outside" that .claude-plugin/plugin.json names leads outside the plugin, so the plugin is refused
    hint: a plugin may use only its own files; check where this source comes from
    "#);
    let absolute = plugin_repo(
        &ctx,
        "claude-absolute",
        ".claude-plugin/plugin.json",
        r#"{"name": "escape", "skills": "/etc"}"#,
    );
    let out = ctx.fails_in(&app, &["add", "--git", &absolute]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
    error: file://[TEMP]/claude-absolute: the skills path "/etc" that .claude-plugin/plugin.json names leads outside the plugin, so the plugin is refused
    hint: a plugin may use only its own files; check where this source comes from
    "#);

    // An Agent Plugin whose skills/ holds a link out of it, committed and
    // as a folder.
    let linked = plugin_folder(&ctx, "linked", "plugin.json", &manifest(""));
    std::os::unix::fs::symlink("../../outside", linked.join("skills/evil")).unwrap();
    let out = ctx.fails_in(&app, &["add", "--path", linked.to_str().unwrap()]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
    error: [TEMP]/linked: the symbolic link skills/evil (to "../../outside") leads outside the plugin, so the plugin is refused
    hint: a plugin may use only its own files; check where this source comes from
    "#);
    let url = commit(&linked);
    let out = ctx.fails_in(&app, &["add", "--git", &url]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
    error: file://[TEMP]/linked: the symbolic link skills/evil (to "../../outside") leads outside the plugin, so the plugin is refused
    hint: a plugin may use only its own files; check where this source comes from
    "#);
    assert_eq!(read(&app.join("skills.toml")), before);

    // A link that stays inside is not followed either: skipped, said.
    let inside = plugin_folder(&ctx, "inside", "plugin.json", &manifest(""));
    std::os::unix::fs::symlink("alpha", inside.join("skills/again")).unwrap();
    let url = commit(&inside);
    let out = ctx.ok_in(&app, &["add", "--git", &url, "--list"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
          Plugin acme-tools 1.2.0, an Agent Plugin (plugin.json), holds 2 skills: alpha, beta
    warning: plugin acme-tools 1.2.0: skills/again is a symbolic link, which skillpkg does not follow, and is skipped
    warning: plugin acme-tools 1.2.0: its MCP servers (mcp.json) are left out: skillpkg installs the plugin's skills, and does not run or register MCP servers
    "#);
}

#[test]
fn claude_code_and_codex_plugins_are_read_for_their_skills() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    // Claude Code: skills/ and the folders `skills` names (a skill, and a
    // folder of skills), which supplement it; MCP servers in .mcp.json.
    let plugin = plugin_folder(
        &ctx,
        "claude",
        ".claude-plugin/plugin.json",
        r#"{"name": "claude-tools", "version": "0.3.0", "skills": ["./extra/one", "./more"], "commands": "./cmds"}"#,
    );
    std::fs::rename(plugin.join("mcp.json"), plugin.join(".mcp.json")).unwrap();
    add_skill(&plugin.join("extra"), "one");
    add_skill(&plugin.join("more"), "two");
    let url = commit(&plugin);
    let out = ctx.ok_in(&app, &["add", "--git", &url, "--list"]);
    insta::assert_snapshot!(ctx.redact(&out.stdout), @"
    one    extra/one     one. Use when testing.
    two    more/two      two. Use when testing.
    alpha  skills/alpha  alpha. Use when testing.
    beta   skills/beta   beta. Use when testing.
    ");
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
          Plugin claude-tools 0.3.0, a Claude Code plugin (.claude-plugin/plugin.json), holds 4 skills: one, two, alpha, beta
    warning: plugin claude-tools 0.3.0: its MCP servers (.mcp.json) are left out: skillpkg installs the plugin's skills, and does not run or register MCP servers
    "#);

    // Codex, with Claude Code beside it: both manifests are read.
    let both = plugin_folder(
        &ctx,
        "both",
        ".codex-plugin/plugin.json",
        r#"{"name": "both-tools", "skills": "./codex-skills/", "mcpServers": "./.mcp.json"}"#,
    );
    std::fs::create_dir_all(both.join(".claude-plugin")).unwrap();
    std::fs::write(
        both.join(".claude-plugin/plugin.json"),
        r#"{"name": "both-tools"}"#,
    )
    .unwrap();
    add_skill(&both.join("codex-skills"), "gamma");
    let url = commit(&both);
    let out = ctx.ok_in(&app, &["add", "--git", &url]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
          Plugin both-tools, a Claude Code plugin (.claude-plugin/plugin.json) and a Codex plugin (.codex-plugin/plugin.json), holds 3 skills: gamma, alpha, beta
    warning: plugin both-tools: its MCP servers (mcpServers in .codex-plugin/plugin.json) are left out: skillpkg installs the plugin's skills, and does not run or register MCP servers
           Found 3 skills in file://[TEMP]/both at commit [COMMIT]
       Installed alpha [SHORT]
       Installed beta [SHORT]
       Installed gamma [SHORT]
    "#);
}
