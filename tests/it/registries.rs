//! `registry add`: naming indexes in `[registries]` of skills.toml, and
//! what a line misplaced under that table gets.

use crate::common::{AcmeIndex, TestContext, new_project, skill_md, write_skill};

#[test]
fn registry_add_names_an_index_that_add_then_takes_packages_from() {
    let ctx = TestContext::new();
    let acme = AcmeIndex::new(&ctx);
    let x = write_skill(
        &ctx.root().join("src"),
        "x",
        &skill_md("x", "X. Use when testing."),
    );
    acme.publish(&ctx, &x);
    let app = new_project(&ctx, None);
    let index = acme.index.to_str().unwrap();

    let out = ctx.ok_in(&app, &["registry", "add", "internal", index]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"       Added registry 'internal' ([TEMP]/index) to skills.toml");
    // Again: nothing to do. Another index under that name: refused.
    let out = ctx.ok_in(&app, &["registry", "add", "internal", index]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"   Unchanged registry 'internal' is [TEMP]/index already in skills.toml");
    let out = ctx.fails_in(
        &app,
        &["registry", "add", "internal", "https://elsewhere.example/"],
    );
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: [TEMP]/app/skills.toml names the registry 'internal' already, with the index [TEMP]/index
    hint: to change it, edit its line under [registries] in [TEMP]/app/skills.toml; or add this index under another name: `skillpkg registry add NAME https://elsewhere.example/`
    ");
    ctx.ok_in(&app, &["add", "acme/x", "--registry", "internal"]);

    // The default registry, and a git index recorded as one.
    ctx.ok_in(&app, &["registry", "add", "--default", index]);
    let out = ctx.ok_in(
        &app,
        &[
            "registry",
            "add",
            "team",
            "https://example.com/team/index.git",
            "--git",
        ],
    );
    insta::assert_snapshot!(out.stderr, @"       Added registry 'team' (git+https://example.com/team/index.git) to skills.toml");
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    insta::assert_snapshot!(ctx.redact(&manifest), @r#"
    # The skills this project uses. `skillpkg add org/name` adds them here;
    # skills.lock records exactly what was installed. Commit both files.

    [skills]
    "acme/x" = { version = "^1.0.0", registry = "internal" }

    [registries]
    internal = { index = "[TEMP]/index" }
    default = { index = "[TEMP]/index" }
    team = { index = "git+https://example.com/team/index.git" }
    "#);
    ctx.ok_in(&app, &["remove", "acme/x"]);
    ctx.ok_in(&app, &["add", "acme/x"]);

    // A name without an index is a usage error.
    let out = ctx.run_in(&app, &["registry", "add", "internal"]);
    assert_eq!(out.status, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("`skillpkg registry add NAME URL`"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_skill_written_under_registries_is_said_to_be_there_with_the_fix() {
    let ctx = TestContext::new();
    std::fs::write(
        ctx.project.join("skills.toml"),
        "[skills]\n\"example/pdf-processing\" = \"1\"\n\n[registries]\ninternal = { index = \"https://skills.example.com/index/\" }\n\"acme/pdf\" = \"1\"\n",
    )
    .unwrap();
    let out = ctx.fails(&["install"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
    error: [TEMP]/project/skills.toml:6: `"acme/pdf" = "1"` is under [registries], where each entry is a registry (`NAME = { index = "URL" }`); it looks like a skill
    hint: every line after a `[registries]` header belongs to that table: move this line above `[registries]`, into [skills]
    hint: registries are added with `skillpkg registry add NAME URL`
    "#);
}
