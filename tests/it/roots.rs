//! Layered roots: project > user > builtin, shadowing, broken skills skipped.

use crate::common::{TestContext, run, skill_md, write_skill};

#[test]
fn same_name_in_all_three_roots_resolves_to_project() {
    let ctx = TestContext::new();
    // `skill-authoring` is a builtin skill; add it to the user and project roots too.
    write_skill(
        &ctx.user_root(),
        "skill-authoring",
        &skill_md("skill-authoring", "User copy. Use when testing."),
    );
    write_skill(
        &ctx.project_root(),
        "skill-authoring",
        &skill_md("skill-authoring", "Project copy. Use when testing."),
    );

    let out = ctx.ok(&["list", "--json"]);
    let listed: Vec<serde_json::Value> = serde_json::from_str(&out.stdout).unwrap();
    let copies: Vec<(&str, Option<&str>)> = listed
        .iter()
        .filter(|e| e["name"] == "skill-authoring")
        .map(|e| (e["root"].as_str().unwrap(), e["shadowed_by"].as_str()))
        .collect();
    assert_eq!(
        copies,
        [
            ("project", None),
            ("user", Some("project")),
            ("builtin", Some("project"))
        ]
    );

    let table = ctx.run(&["list"]);
    let lines: Vec<&str> = table
        .stdout
        .lines()
        .filter(|l| l.starts_with("skill-authoring"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].contains("project") && lines[0].contains("Project copy"));
    assert!(lines[1].contains("user") && lines[1].contains("(shadowed by project)"));
    assert!(lines[2].contains("builtin") && lines[2].contains("(shadowed by project)"));
    // The marker is part of the description's column: every row is as
    // wide as a row without one could be.
    let column = table
        .stdout
        .lines()
        .next()
        .unwrap()
        .find("DESCRIPTION")
        .unwrap();
    for line in table.stdout.lines() {
        assert!(line.chars().count() <= column + 72, "{line}");
        assert!(!line.ends_with("……"), "{line}");
    }

    let show = ctx.ok(&["show", "skill-authoring", "--json"]);
    let shown: serde_json::Value = serde_json::from_str(&show.stdout).unwrap();
    assert_eq!(shown["root"], "project");
    assert_eq!(shown["description"], "Project copy. Use when testing.");
    let shadowed: Vec<&str> = shown["shadows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["root"].as_str().unwrap())
        .collect();
    assert_eq!(shadowed, ["user", "builtin"]);

    let text = ctx.run(&["show", "skill-authoring"]);
    assert!(
        text.stdout.contains("root:          project"),
        "{}",
        text.stdout
    );
    assert_eq!(text.stdout.matches("shadows:").count(), 2);
}

#[test]
fn project_is_found_from_a_subdirectory_and_git_root_counts() {
    let ctx = TestContext::new();
    write_skill(
        &ctx.project_root(),
        "local",
        &skill_md("local", "Local. Use when testing."),
    );
    let sub = ctx.project.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    ctx.ok_in(&sub, &["show", "local", "--json"]);

    // Without skills.toml, the git work tree root is the project.
    std::fs::remove_file(ctx.project.join("skills.toml")).unwrap();
    std::fs::create_dir(ctx.project.join(".git")).unwrap();
    ctx.ok_in(&sub, &["show", "local"]);
}

#[test]
fn broken_skills_are_skipped_with_one_warning_each() {
    let ctx = TestContext::new();
    let root = ctx.user_root();
    write_skill(&root, "good", &skill_md("good", "Fine. Use when testing."));
    write_skill(
        &root,
        "no-description",
        "---\nname: no-description\n---\nbody\n",
    );
    write_skill(&root, "bad-yaml", "---\nname: [unclosed\n---\n");
    write_skill(&root, "no-frontmatter", "# Title\n");
    write_skill(&root, "unclosed", "---\nname: unclosed\ndescription: x\n");
    // Lenient: unknown fields, an over-long description and a mismatched
    // directory still load, with warnings.
    write_skill(
        &root,
        "lenient-dir",
        &format!(
            "---\nname: lenient\ndescription: {}\nversion: 2\ntags: [a, b]\n---\n",
            "d".repeat(1100)
        ),
    );
    // Not a skill at all: ignored silently.
    std::fs::create_dir_all(root.join("notes")).unwrap();

    let out = ctx.ok(&["list", "--json"]);
    let listed: Vec<serde_json::Value> = serde_json::from_str(&out.stdout).unwrap();
    let names: Vec<&str> = listed
        .iter()
        .filter(|e| e["root"] == "user")
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["good", "lenient"]);
    let lenient = listed.iter().find(|e| e["name"] == "lenient").unwrap();
    assert_eq!(lenient["extra"]["tags"], serde_json::json!(["a", "b"]));

    // One warning per skipped skill (in no particular order), none for
    // `notes`, and one line for the skill that loads with warnings...
    insta::assert_snapshot!(sorted_lines(&ctx.redact(&out.stderr)), @"
    warning: lenient loads with warnings; `skillpkg validate [TEMP]/user-skills/lenient-dir` shows them
    warning: skipped [TEMP]/user-skills/bad-yaml/SKILL.md:2:7: invalid YAML in frontmatter: unclosed bracket '[' [yaml-invalid]
    warning: skipped [TEMP]/user-skills/no-description/SKILL.md: field 'description' must be a non-empty string [description-missing]
    warning: skipped [TEMP]/user-skills/no-frontmatter/SKILL.md does not start with YAML frontmatter (a first line of `---`) [frontmatter-missing]
    warning: skipped [TEMP]/user-skills/unclosed/SKILL.md: frontmatter is not closed with a `---` line [frontmatter-unclosed]
    ");
    // ...whose warnings -v shows.
    let out = ctx.ok(&["list", "-v", "--json"]);
    insta::assert_snapshot!(sorted_lines(&ctx.redact(&out.stderr)), @"
    warning: [TEMP]/user-skills/lenient-dir/SKILL.md: description-length: Description exceeds 1024 character limit (1100 chars); the catalog shows the first 1024
    warning: [TEMP]/user-skills/lenient-dir/SKILL.md: name-directory-mismatch: Directory name 'lenient-dir' must match skill name 'lenient'
    warning: [TEMP]/user-skills/lenient-dir/SKILL.md: unknown-field: Unexpected field in frontmatter: tags
    warning: [TEMP]/user-skills/lenient-dir/SKILL.md: unknown-field: Unexpected field in frontmatter: version
    warning: skipped [TEMP]/user-skills/bad-yaml/SKILL.md:2:7: invalid YAML in frontmatter: unclosed bracket '[' [yaml-invalid]
    warning: skipped [TEMP]/user-skills/no-description/SKILL.md: field 'description' must be a non-empty string [description-missing]
    warning: skipped [TEMP]/user-skills/no-frontmatter/SKILL.md does not start with YAML frontmatter (a first line of `---`) [frontmatter-missing]
    warning: skipped [TEMP]/user-skills/unclosed/SKILL.md: frontmatter is not closed with a `---` line [frontmatter-unclosed]
    ");

    // Two such skills: one line for both.
    write_skill(
        &root,
        "other",
        "---\nname: other\ndescription: Other. Use when testing.\ncolour: red\n---\n",
    );
    let out = ctx.ok(&["list"]);
    assert!(
        out.stderr.contains("warning: 2 skills load with warnings; -v lists them, and `skillpkg validate <folder>` explains each\n"),
        "{}",
        out.stderr
    );

    // The catalog cuts the long description at 1024 characters.
    let prompt = ctx.run(&["prompt"]);
    assert!(
        prompt
            .stdout
            .contains(&format!("\n{}\n</description>", "d".repeat(1024)))
    );
}

#[test]
fn hostile_yaml_is_refused_quickly_not_hung() {
    let ctx = TestContext::new();
    let root = ctx.user_root();
    let bomb = "---\nname: bomb\ndescription: x\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]\n---\n";
    write_skill(&root, "bomb", bomb);
    let deep = format!(
        "---\nname: deep\ndescription: x\nx: {}{}\n---\n",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    write_skill(&root, "deep", &deep);
    let huge = format!(
        "---\nname: huge\ndescription: {}\n---\n",
        "x".repeat(1 << 20)
    );
    write_skill(&root, "huge", &huge);

    let out = ctx.ok(&["list", "--json"]);
    insta::assert_snapshot!(sorted_lines(&ctx.redact(&out.stderr)), @"
    warning: skipped [TEMP]/user-skills/bomb/SKILL.md:7:36: invalid YAML in frontmatter: it is too large or uses too many anchors, aliases or nested levels for a frontmatter [yaml-invalid]
    warning: skipped [TEMP]/user-skills/deep/SKILL.md:4:259: invalid YAML in frontmatter: recursion limit exceeded [yaml-invalid]
    warning: skipped [TEMP]/user-skills/huge/SKILL.md: frontmatter is larger than 262144 bytes [frontmatter-too-large]
    ");

    // The strict validator refuses them too.
    run(ctx
        .command()
        .arg("validate")
        .arg(root.join("bomb"))
        .arg(root.join("deep")))
    .assert_fails();
}

#[test]
fn two_skills_with_one_name_in_a_root_keep_the_first_and_say_so() {
    let ctx = TestContext::new();
    write_skill(
        &ctx.user_root(),
        "alpha",
        &skill_md("alpha", "First. Use when testing."),
    );
    write_skill(
        &ctx.user_root(),
        "beta",
        &skill_md("alpha", "Second. Use when testing."),
    );
    let out = ctx.ok(&["show", "alpha", "--json"]);
    let shown: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(shown["description"], "First. Use when testing.");
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"warning: skipped [TEMP]/user-skills/beta/SKILL.md is also named 'alpha', like [TEMP]/user-skills/alpha/SKILL.md; names must be unique within a root [duplicate-name]");
}

#[test]
fn the_manifest_can_move_the_project_root() {
    let ctx = TestContext::new();
    std::fs::write(
        ctx.project.join("skills.toml"),
        "[skills]\n\n[install]\nroot = \"agent-skills\"\n",
    )
    .unwrap();
    write_skill(
        &ctx.project.join("agent-skills"),
        "moved",
        &skill_md("moved", "Moved. Use when testing."),
    );
    write_skill(
        &ctx.project_root(),
        "ignored",
        &skill_md("ignored", "Not the root. Use when testing."),
    );
    let out = ctx.ok(&["list", "--json"]);
    assert!(out.stdout.contains("\"name\": \"moved\""));
    assert!(!out.stdout.contains("\"name\": \"ignored\""));

    std::fs::write(ctx.project.join("skills.toml"), "[skills\n").unwrap();
    let broken = ctx.fails(&["list"]);
    insta::assert_snapshot!(ctx.redact(&broken.stderr), @"
    error: [TEMP]/project/skills.toml: invalid manifest: TOML parse error at line 1, column 8
      |
    1 | [skills
      |        ^
    unclosed table, expected `]`
    ");
}

/// The lines of `text`, sorted: for warnings that come in no fixed order.
fn sorted_lines(text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    lines.join("\n")
}

#[test]
fn agents_folders_are_read_below_the_install_root_and_one_skill_is_listed_once() {
    let ctx = TestContext::new();
    let install = ctx.project_root();
    let claude = ctx.project.join(".claude/skills");
    write_skill(
        &install,
        "linked",
        &skill_md("linked", "Installed. Use when linked."),
    );
    write_skill(
        &install,
        "twice",
        &skill_md("twice", "The installed one. Use when twice."),
    );
    std::fs::create_dir_all(&claude).unwrap();
    // A link to the installed skill (what npx skills and targets make) is that skill.
    std::os::unix::fs::symlink("../../.agents/skills/linked", claude.join("linked")).unwrap();
    // A copy skillpkg made and marked is that skill too.
    let copy = write_skill(
        &claude,
        "marked",
        &skill_md("marked", "A marked copy. Use when marked."),
    );
    std::fs::write(copy.join(".skillpkg-copy"), "").unwrap();
    write_skill(
        &install,
        "marked",
        &skill_md("marked", "A marked copy. Use when marked."),
    );
    // Hand-placed skills there are first-class; another of an installed name is shadowed.
    write_skill(
        &claude,
        "hand-placed",
        &skill_md("hand-placed", "By hand. Use when placing."),
    );
    write_skill(
        &claude,
        "twice",
        &skill_md("twice", "Another one. Use when twice."),
    );
    write_skill(
        &ctx.root().join("home/.claude/skills"),
        "users-own",
        &skill_md("users-own", "The user's. Use when own."),
    );
    let out = ctx.ok(&["list"]);
    let rows: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| !l.contains("builtin"))
        .collect();
    insta::assert_snapshot!(rows.join("\n"), @"
    NAME             ROOT                      DESCRIPTION
    hand-placed      project (.claude/skills)  By hand. Use when placing.
    linked           project                   Installed. Use when linked.
    marked           project                   A marked copy. Use when marked.
    twice            project                   The installed one. Use when twice.
    twice            project (.claude/skills)  (shadowed by project) Another one. Use when twice.
    users-own        user (.claude/skills)     The user's. Use when own.
    ");
    let shown = ctx.ok(&["show", "hand-placed"]);
    assert!(
        shown
            .stdout
            .contains("root:          project (.claude/skills)"),
        "{}",
        shown.stdout
    );
}

#[test]
fn an_agents_folder_that_links_to_the_install_root_is_read_once() {
    let ctx = TestContext::new();
    write_skill(
        &ctx.project_root(),
        "only",
        &skill_md("only", "Once. Use when once."),
    );
    std::fs::create_dir_all(ctx.project.join(".claude")).unwrap();
    std::os::unix::fs::symlink("../.agents/skills", ctx.project.join(".claude/skills")).unwrap();
    let out = ctx.ok(&["list", "--json"]);
    assert_eq!(
        out.stdout.matches("\"name\": \"only\"").count(),
        1,
        "{}",
        out.stdout
    );
}

#[test]
fn a_corrupt_frontmatter_cache_changes_nothing_and_none_is_read_from_the_project() {
    let ctx = TestContext::new();
    write_skill(
        &ctx.project_root(),
        "alpha",
        &skill_md("alpha", "On disk. Use when testing."),
    );
    let clean = ctx.ok(&["list", "--json"]).stdout;
    let name = skillpkg::skill::cache::FILE_NAME;
    std::fs::write(ctx.root().join("cache").join(name), "{\"version\": 1, [").unwrap();
    // What a cloned repository could plant: never looked at.
    let planted = format!(
        "{{\"version\": 1, \"entries\": {{\"{}\": {{}}}}}}",
        ctx.project_root().join("alpha/SKILL.md").display()
    );
    for dir in [ctx.project.clone(), ctx.project.join(".skillpkg")] {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), &planted).unwrap();
    }
    let out = ctx.ok(&["list", "--json"]);
    assert_eq!(out.stdout, clean);
    assert_eq!(out.stderr, "");
}

/// A skill with broken YAML, which `npx skills` linked into
/// `.claude/skills` too: every command says what is wrong once, naming
/// the file, line and column.
#[test]
fn a_yaml_error_is_reported_once_with_its_file_line_and_column() {
    let ctx = TestContext::new();
    let dir = write_skill(
        &ctx.project_root(),
        "broken",
        "---\nname: broken\ndescription: Breaks. Use when testing.\nlicense: [MIT\n---\nBody.\n",
    );
    let claude = ctx.project.join(".claude/skills");
    std::fs::create_dir_all(&claude).unwrap();
    std::os::unix::fs::symlink(&dir, claude.join("broken")).unwrap();

    let listed = ctx.ok(&["list"]);
    insta::assert_snapshot!(ctx.redact(&listed.stderr), @"warning: skipped [TEMP]/project/.agents/skills/broken/SKILL.md:4:10: invalid YAML in frontmatter: unclosed bracket '[' [yaml-invalid]");

    let checked = ctx.fails(&["validate", ".agents/skills/broken"]);
    insta::assert_snapshot!(checked.stdout, @".agents/skills/broken/SKILL.md:4:10: error[yaml-invalid]: Invalid YAML in frontmatter: found ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)");

    let packed = ctx.fails(&["pack", ".agents/skills/broken"]);
    assert!(
        packed
            .stderr
            .contains("  .agents/skills/broken/SKILL.md:4:10: error[yaml-invalid]: "),
        "{}",
        packed.stderr
    );

    // `show` of it says it exists but was skipped, and why: as the
    // answer, not also as a warning.
    let shown = ctx.fails(&["show", "broken"]);
    insta::assert_snapshot!(ctx.redact(&shown.stderr), @r"
    error: the skill 'broken' was skipped: [TEMP]/project/.agents/skills/broken/SKILL.md:4:10: invalid YAML in frontmatter: unclosed bracket '[' [yaml-invalid]
    hint: fix it, then `skillpkg validate [TEMP]/project/.agents/skills/broken` checks it
    ");
}
