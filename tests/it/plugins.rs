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
pub(crate) fn plugin_folder(
    ctx: &TestContext,
    dir: &str,
    manifest_path: &str,
    manifest: &str,
) -> PathBuf {
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
pub(crate) fn manifest(extra: &str) -> String {
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

#[test]
fn plugin_json_is_the_one_manifest_read_and_a_plugin_without_skills_says_so() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    // Beside plugin.json, another agent's manifest neither adds skills nor
    // breaks the plugin (§5.1).
    let plugin = plugin_folder(&ctx, "portable", "plugin.json", &manifest(""));
    std::fs::create_dir_all(plugin.join(".claude-plugin")).unwrap();
    std::fs::write(
        plugin.join(".claude-plugin/plugin.json"),
        r#"{"name": "x", "skills": "./extra"}"#,
    )
    .unwrap();
    add_skill(&plugin.join("extra"), "one");
    std::fs::create_dir_all(plugin.join(".codex-plugin")).unwrap();
    std::fs::write(plugin.join(".codex-plugin/plugin.json"), "not json").unwrap();
    let url = commit(&plugin);
    let listed = ctx.ok_in(&app, &["add", "--git", &url, "--list"]);
    insta::assert_snapshot!(ctx.redact(&listed.stdout), @"
    alpha  skills/alpha  alpha. Use when testing.
    beta   skills/beta   beta. Use when testing.
    ");
    // Its skills are picked as a repository's are.
    ctx.ok_in(&app, &["add", "--git", &url, "--skill", "beta"]);
    assert!(app.join(".agents/skills/beta").is_dir());
    assert!(!app.join(".agents/skills/alpha").exists());

    // A plugin of MCP servers alone has nothing to install.
    let mcp_only = ctx.root().join("mcp-only");
    std::fs::create_dir_all(&mcp_only).unwrap();
    std::fs::write(mcp_only.join("plugin.json"), manifest("")).unwrap();
    std::fs::write(mcp_only.join("mcp.json"), "{}").unwrap();
    let url = commit(&mcp_only);
    let out = ctx.fails_in(&app, &["add", "--git", &url]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: file://[TEMP]/mcp-only: the plugin acme-tools 1.2.0 holds no skill agents can load
    hint: its MCP servers (mcp.json) are left out: skillpkg installs the plugin's skills, and does not run or register MCP servers
    hint: a plugin's skills are folders with a SKILL.md in its skills/ folder
    ");
}

/// The problems of an Agent Plugins 1.0.0 manifest, by the rules of the
/// specification (§5.2–§5.5; `schemas/1.0.0/plugin.schema.json` says the
/// same): a JSON object of the closed field set, `$schema` (the 1.0.0
/// identifier) and `name` required, `name` 1–64 of `a-z0-9.-` starting
/// and ending alphanumeric without `--` or `..`, the other fields of
/// their types. Written apart from skillpkg's reader, on purpose.
fn manifest_problems(value: &serde_json::Value) -> Vec<String> {
    use serde_json::Value;
    const FIELDS: [&str; 10] = [
        "$schema",
        "name",
        "version",
        "description",
        "author",
        "homepage",
        "repository",
        "license",
        "keywords",
        "extensions",
    ];
    let Some(fields) = value.as_object() else {
        return vec!["not an object".into()];
    };
    let mut problems = Vec::new();
    for key in fields.keys() {
        if !FIELDS.contains(&key.as_str()) {
            problems.push(format!("field {key} is outside the closed set"));
        }
    }
    if fields.get("$schema") != Some(&Value::String(SCHEMA.into())) {
        problems.push("$schema is not the 1.0.0 identifier".into());
    }
    match fields.get("name").and_then(Value::as_str) {
        None => problems.push("name is missing or not a string".into()),
        Some(name) => {
            let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
            let ok = (1..=64).contains(&name.chars().count())
                && name.chars().all(|c| alnum(c) || c == '-' || c == '.')
                && name.starts_with(alnum)
                && name.ends_with(alnum)
                && !name.contains("--")
                && !name.contains("..");
            if !ok {
                problems.push(format!("name {name:?} breaks the naming rules"));
            }
        }
    }
    for (key, value) in fields {
        let ok = match key.as_str() {
            "version" | "description" | "homepage" | "repository" | "license" => value.is_string(),
            "keywords" => value
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string)),
            "author" => value.as_object().is_some_and(|a| {
                a.iter()
                    .all(|(k, v)| ["name", "email", "url"].contains(&k.as_str()) && v.is_string())
            }),
            "extensions" => value
                .as_object()
                .is_some_and(|e| e.values().all(Value::is_object)),
            _ => true,
        };
        if !ok {
            problems.push(format!("field {key} has the wrong type"));
        }
    }
    problems
}

#[test]
fn the_manifest_check_knows_the_rules() {
    let good = serde_json::json!({"$schema": SCHEMA, "name": "a.b-c", "author": {"name": "x"}, "keywords": ["k"], "extensions": {"com.x": {}}});
    assert!(manifest_problems(&good).is_empty());
    for bad in [
        serde_json::json!({"name": "a"}),
        serde_json::json!({"$schema": SCHEMA.replace("1.0.0", "1.0.1"), "name": "a"}),
        serde_json::json!({"$schema": SCHEMA}),
        serde_json::json!({"$schema": SCHEMA, "name": "a--b"}),
        serde_json::json!({"$schema": SCHEMA, "name": "a", "skills": "./s"}),
        serde_json::json!({"$schema": SCHEMA, "name": "a", "version": 1}),
        serde_json::json!({"$schema": SCHEMA, "name": "a", "author": {"phone": "1"}}),
        serde_json::json!({"$schema": SCHEMA, "name": "a", "extensions": {"com.x": 1}}),
    ] {
        assert!(!manifest_problems(&bad).is_empty(), "{bad}");
    }
}

/// Every file under `dir`, by relative path: its bytes and whether it is
/// executable.
fn files(dir: &Path) -> std::collections::BTreeMap<String, (Vec<u8>, bool)> {
    use std::os::unix::fs::PermissionsExt as _;
    let mut files = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let metadata = std::fs::symlink_metadata(&path).unwrap();
            if metadata.is_dir() {
                stack.push(path);
                continue;
            }
            assert!(metadata.is_file(), "{}", path.display());
            let relative = path.strip_prefix(dir).unwrap().display().to_string();
            let executable = metadata.permissions().mode() & 0o111 != 0;
            files.insert(relative, (std::fs::read(&path).unwrap(), executable));
        }
    }
    files
}

/// A project with the plugin fixture's two skills (from git) and a path
/// skill with an executable script, installed.
fn exporting_project(ctx: &TestContext) -> PathBuf {
    let app = new_project(ctx, None);
    let url = plugin_repo(ctx, "plugin", "plugin.json", &manifest(""));
    ctx.ok_in(&app, &["add", "--git", &url]);
    let helper = ctx.root().join("helper");
    add_skill(ctx.root(), "helper");
    std::fs::create_dir_all(helper.join("scripts")).unwrap();
    std::fs::write(helper.join("scripts/run.sh"), "#!/bin/sh\necho hi\n").unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(
        helper.join("scripts/run.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    ctx.ok_in(&app, &["add", "--path", helper.to_str().unwrap()]);
    app
}

#[test]
fn export_plugin_writes_the_locked_skills_as_a_valid_agent_plugin() {
    let ctx = TestContext::new();
    let app = exporting_project(&ctx);
    let args = [
        "export",
        "plugin",
        "dist/bundle",
        "--name",
        "acme-bundle",
        "--version",
        "1.0.0",
        "--description",
        "The skills acme uses.",
    ];
    let out = ctx.ok_in(&app, &args);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
        Exported 3 skills (alpha, beta, helper) as the Agent Plugin acme-bundle 1.0.0 in dist/bundle
    ");
    let bundle = app.join("dist/bundle");
    let text = read(&bundle.join("plugin.json"));
    insta::assert_snapshot!(text, @r#"
    {
      "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
      "name": "acme-bundle",
      "version": "1.0.0",
      "description": "The skills acme uses."
    }
    "#);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(manifest_problems(&value), Vec::<String>::new());
    // plugin.json and skills/, nothing else; each skill byte for byte as
    // installed, executable bits kept.
    let top: Vec<String> = std::fs::read_dir(&bundle)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(top, ["plugin.json", "skills"]);
    for name in ["alpha", "beta", "helper"] {
        let installed = files(&app.join(".agents/skills").join(name));
        assert_eq!(
            files(&bundle.join("skills").join(name)),
            installed,
            "{name}"
        );
    }
    assert!(files(&bundle.join("skills/helper"))["scripts/run.sh"].1);
    // Nothing is left beside it.
    let beside: Vec<_> = std::fs::read_dir(app.join("dist")).unwrap().collect();
    assert_eq!(beside.len(), 1);

    // It reads back as a plugin: another project installs the same skills.
    let other = ctx.root().join("other");
    ctx.ok(&["init", other.to_str().unwrap()]);
    let out = ctx.ok_in(&other, &["add", "--path", bundle.to_str().unwrap()]);
    assert!(
        out.stderr.contains("Plugin acme-bundle 1.0.0, an Agent Plugin (plugin.json), holds 3 skills: alpha, beta, helper"),
        "{}",
        out.stderr
    );
    for name in ["alpha", "beta", "helper"] {
        assert_eq!(
            files(&other.join(".agents/skills").join(name)),
            files(&app.join(".agents/skills").join(name))
        );
    }

    // Again: a plugin folder is replaced only with --force.
    let out = ctx.fails_in(&app, &args);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: dist/bundle is not empty
    hint: pass --force to replace a plugin folder exported before, or name another folder
    ");
    let forced: Vec<&str> = args.iter().copied().chain(["--force"]).collect();
    let out = ctx.ok_in(&app, &forced);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
        Exported 3 skills (alpha, beta, helper) as the Agent Plugin acme-bundle 1.0.0 in dist/bundle, replacing the plugin that was there
    ");
}

#[test]
fn export_plugin_refuses_an_edited_or_missing_skill_and_writes_nothing() {
    let ctx = TestContext::new();
    let app = exporting_project(&ctx);
    let args = [
        "export",
        "plugin",
        "out",
        "--name",
        "acme",
        "--version",
        "1",
    ];
    std::fs::write(
        app.join(".agents/skills/beta/SKILL.md"),
        "---\nname: beta\ndescription: Changed.\n---\n",
    )
    .unwrap();
    let out = ctx.fails_in(&app, &args);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: beta at .agents/skills/beta was modified since it was installed (its files no longer match skills.lock), so it is not exported
    hint: `skillpkg verify` shows what changed; `skillpkg install --force` puts back what skills.lock pins
    ");
    std::fs::write(app.join(".agents/skills/helper/extra.md"), "added\n").unwrap();
    ctx.ok_in(&app, &["install", "--force"]);
    std::fs::remove_dir_all(app.join(".agents/skills/alpha")).unwrap();
    let out = ctx.fails_in(&app, &args);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: alpha is locked in skills.lock but not installed at .agents/skills/alpha
    hint: run `skillpkg install` to install what skills.lock pins, then export
    ");
    // Nothing written, nothing left beside it.
    let left: Vec<String> = std::fs::read_dir(&app)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("out") || name.contains("export"))
        .collect();
    assert_eq!(left, Vec::<String>::new());
}

#[test]
fn export_plugin_writes_only_where_it_should() {
    let ctx = TestContext::new();
    let app = exporting_project(&ctx);
    let export = |out: &str, name: &str, force: bool| {
        let mut args = vec![
            "export",
            "plugin",
            out,
            "--name",
            name,
            "--version",
            "1.0.0",
        ];
        if force {
            args.push("--force");
        }
        ctx.run_in(&app, &args)
    };
    let mut transcript = String::new();
    std::fs::create_dir_all(app.join("notes")).unwrap();
    std::fs::write(app.join("notes/todo.md"), "keep me\n").unwrap();
    for (out, name, force) in [
        ("dist", "Acme", false),
        ("notes", "acme", false),
        ("notes", "acme", true),
        (".", "acme", true),
        ("..", "acme", true),
        (".agents/skills/new", "acme", false),
    ] {
        let run = export(out, name, force);
        assert_eq!(run.status, 1, "{out}: {}", run.stderr);
        transcript.push_str(&ctx.redact(&run.transcript()));
    }
    insta::assert_snapshot!(transcript, @r#"
    $ skillpkg export plugin dist --name Acme --version 1.0.0
    error: the plugin name "Acme" holds characters other than a-z, 0-9, '-' and '.'
    hint: Agent Plugins names are 1 to 64 of a-z, 0-9, '-' and '.', starting and ending with a letter or digit, e.g. acme-tools
    $ skillpkg export plugin notes --name acme --version 1.0.0
    error: notes is not empty
    hint: pass --force to replace a plugin folder exported before, or name another folder
    $ skillpkg export plugin notes --name acme --version 1.0.0 --force
    error: notes holds files but no plugin.json: --force replaces only a plugin folder
    hint: name another folder, or empty this one yourself
    $ skillpkg export plugin . --name acme --version 1.0.0 --force
    error: . is the project or a folder holding it: the plugin is not written over it
    hint: name a folder of its own, e.g. dist/plugin
    $ skillpkg export plugin .. --name acme --version 1.0.0 --force
    error: .. is the project or a folder holding it: the plugin is not written over it
    hint: name a folder of its own, e.g. dist/plugin
    $ skillpkg export plugin .agents/skills/new --name acme --version 1.0.0
    error: .agents/skills/new is in the install root .agents/skills, where skillpkg installs skills
    hint: name a folder of its own, e.g. dist/plugin
    "#);
    assert_eq!(read(&app.join("notes/todo.md")), "keep me\n");
    assert!(!app.join("dist").exists());
    // An empty folder is filled.
    std::fs::create_dir_all(app.join("empty")).unwrap();
    assert_eq!(export("empty", "acme", false).status, 0);
    assert!(app.join("empty/plugin.json").is_file());
}
