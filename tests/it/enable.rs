//! `skillpkg disable` / `enable`: a skill turned off stays installed and
//! locked, and is left out of `exec`, `prompt`, `serve` and the agents'
//! folders; turned on, it is back.

use crate::common::{TestContext, new_project};

#[test]
fn a_disabled_skill_stays_locked_and_leaves_exec_and_the_agents_folders() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let manifest = app.join("skills.toml");
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    text.push_str("\n[install]\ntargets = [\"claude\"]\n");
    std::fs::write(&manifest, text).unwrap();
    ctx.ok_in(
        &app,
        &["add", "example/pdf-processing", "example/citation-style"],
    );
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    let exposed = app.join(".claude/skills/pdf-processing");
    assert!(exposed.exists());
    let catalog = |ctx: &TestContext| {
        let plan = ctx.ok_in(
            &app,
            &["exec", "--dry-run", "--json", "summarize report.pdf"],
        );
        let plan: serde_json::Value = serde_json::from_str(&plan.stdout).unwrap();
        plan["system"].as_str().unwrap().to_string()
    };
    assert!(catalog(&ctx).contains("<name>pdf-processing</name>"));

    let out = ctx.ok_in(&app, &["disable", "example/pdf-processing"]);
    insta::assert_snapshot!(out.stderr, @"    Disabled example/pdf-processing (still installed and locked; left out of exec, serve and the agents' folders)");
    assert_eq!(
        std::fs::read_to_string(app.join("skills.lock")).unwrap(),
        lock
    );
    assert!(app.join(".agents/skills/pdf-processing/SKILL.md").exists());
    assert!(
        std::fs::symlink_metadata(&exposed).is_err(),
        "taken out of .claude/skills"
    );
    assert!(app.join(".claude/skills/citation-style").exists());
    assert!(
        std::fs::read_to_string(&manifest)
            .unwrap()
            .contains("disabled = [\"example/pdf-processing\"]")
    );
    let system = catalog(&ctx);
    assert!(!system.contains("pdf-processing"), "{system}");
    assert!(system.contains("<name>citation-style</name>"), "{system}");
    let prompt = ctx.ok_in(&app, &["prompt"]).stdout;
    assert!(!prompt.contains("pdf-processing"), "{prompt}");
    let list = ctx.ok_in(&app, &["list"]).stdout;
    assert!(list.contains("(disabled)"), "{list}");
    // verify does not take the missing link for drift, and install keeps it out.
    ctx.ok_in(&app, &["verify"]);
    ctx.ok_in(&app, &["install"]);
    assert!(std::fs::symlink_metadata(&exposed).is_err());
    let again = ctx.ok_in(&app, &["disable", "pdf-processing"]);
    assert!(
        again.stderr.contains("pdf-processing is already disabled"),
        "{}",
        again.stderr
    );

    let out = ctx.ok_in(&app, &["enable", "pdf-processing"]);
    assert!(
        out.stderr.contains("Enabled pdf-processing"),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::read_to_string(app.join("skills.lock")).unwrap(),
        lock
    );
    assert!(exposed.exists(), "back in .claude/skills");
    assert!(catalog(&ctx).contains("<name>pdf-processing</name>"));
    assert!(
        !std::fs::read_to_string(&manifest)
            .unwrap()
            .contains("disabled")
    );

    let out = ctx.fails_in(&app, &["disable", "pdf-procesing"]);
    assert!(out.stderr.contains("did you mean"), "{}", out.stderr);
}

#[test]
fn a_skill_disabled_globally_is_off_in_every_project() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    ctx.ok_in(&app, &["add", "-g", "example/pdf-processing"]);
    let shown = |ctx: &TestContext| ctx.ok_in(&app, &["prompt"]).stdout;
    assert!(shown(&ctx).contains("pdf-processing"));
    ctx.ok_in(&app, &["disable", "-g", "pdf-processing"]);
    assert!(!shown(&ctx).contains("pdf-processing"));
    assert!(ctx.user_root().join("pdf-processing/SKILL.md").exists());
    let list = ctx.ok_in(&app, &["list", "--json"]).stdout;
    let entries: serde_json::Value = serde_json::from_str(&list).unwrap();
    let entry = entries
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "pdf-processing")
        .unwrap();
    assert_eq!(entry["disabled"], true);
    ctx.ok_in(&app, &["enable", "-g", "pdf-processing"]);
    assert!(shown(&ctx).contains("pdf-processing"));
}
