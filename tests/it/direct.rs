//! Path and git dependencies: installed like registry packages, pinned by
//! content hash (path) or commit (git), and kept by `install` until
//! `update` moves them.

use crate::common::{TestContext, copy_dir, fresh_copy, git, new_project, tree, write_skill};

fn lint_md(version: &str, body: &str) -> String {
    format!(
        "---\nname: lint\ndescription: Lints things. Use when checking style.\nmetadata:\n  version: {version}\n---\n\n{body}\n"
    )
}

/// A repository with `skills/lint`, tagged v1.0.0; returns its file:// URL.
fn lint_repository(ctx: &TestContext) -> (std::path::PathBuf, String) {
    let repo = ctx.root().join("lint-repo");
    write_skill(
        &repo.join("skills"),
        "lint",
        &lint_md("1.0.0", "Version one."),
    );
    std::fs::create_dir_all(repo.join("skills/lint/scripts")).unwrap();
    std::fs::write(
        repo.join("skills/lint/scripts/run.sh"),
        "#!/bin/sh\necho lint\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        repo.join("skills/lint/scripts/run.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "lint 1"]);
    git(&repo, &["tag", "v1.0.0"]);
    let url = format!("file://{}", repo.display());
    (repo, url)
}

#[test]
fn a_path_skill_is_pinned_by_its_content() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let source = write_skill(
        &app.join("tools"),
        "helper",
        "---\nname: helper\ndescription: Helps. Use when testing.\nmetadata:\n  dependencies: example/citation-style@^1\n---\n\nHelp.\n",
    );
    let out = ctx.ok_in(&app, &["add", "--path", "tools/helper"]);
    // Its dependencies come from the default registry.
    insta::assert_snapshot!(out.stderr, @"
    Installed example/citation-style v1.0.0
    Installed helper h1:yoGmwEQj
    ");
    // Without a metadata.version, its tree hash stands for its version.
    let out = ctx.ok_in(&app, &["verify"]);
    insta::assert_snapshot!(out.stdout, @"
    example/citation-style@1.0.0: ok
    helper@h1:yoGmwEQj: ok
    ");
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    assert!(
        manifest.contains("helper = { path = \"tools/helper\" }"),
        "{manifest}"
    );
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(lock.contains("source = \"path+tools/helper\""), "{lock}");
    let installed = app.join(".agents/skills/helper/SKILL.md");
    assert_eq!(
        std::fs::read_to_string(&installed).unwrap(),
        std::fs::read_to_string(source.join("SKILL.md")).unwrap()
    );

    // A fresh clone of the project reproduces it with --locked.
    let copy = fresh_copy(&ctx, &app);
    copy_dir(&app.join("tools"), &copy.join("tools"));
    ctx.ok_in(&copy, &["install", "--locked"]);
    assert!(tree(&app.join(".agents/skills")) == tree(&copy.join(".agents/skills")));

    // The source changes: --locked refuses, install takes it.
    std::fs::write(source.join("notes.md"), "more\n").unwrap();
    let out = ctx.fails_in(&app, &["install", "--locked"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: helper changed since [TEMP]/app/skills.lock was written (its files hash h1:yoGmwEQjbUg7HZPnKkmiP2gdU4lW/Zk+a7Oap6IfQxU= → h1:JI+c/Ltzz1oFji+w2yHgW5aHlIB3Bp76aRPP6FUkv60=), and --locked was given
    hint: run `skillpkg install` without --locked and commit the new lock
    ");
    assert_eq!(
        std::fs::read_to_string(app.join("skills.lock")).unwrap(),
        lock
    );
    let out = ctx.ok_in(&app, &["install"]);
    insta::assert_snapshot!(out.stderr, @"     Updated helper h1:yoGmwEQj → h1:JI+c/Ltz");
    assert!(app.join(".agents/skills/helper/notes.md").is_file());
    let again = ctx.run_in(&app, &["install"]);
    assert!(!again.stderr.contains("helper"), "{}", again.stderr);

    ctx.ok_in(&app, &["remove", "helper"]);
    assert!(!app.join(".agents/skills/helper").exists());
    assert!(
        source.join("SKILL.md").is_file(),
        "the source is left alone"
    );
}

/// skills.lock and skills.toml write paths with `/` on every platform; a
/// path written by hand with Windows' `\` is refused with the path to
/// write instead, and nothing is changed.
#[test]
fn a_path_written_with_backslashes_is_refused_naming_the_one_to_write() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    write_skill(
        &app.join("tools"),
        "helper",
        "---\nname: helper\ndescription: Helps. Use when testing.\n---\n\nHelp.\n",
    );
    ctx.ok_in(&app, &["add", "--path", "tools/helper"]);
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    let edited = lock.replace("path+tools/helper", r"path+tools\\helper");
    assert_ne!(edited, lock);
    std::fs::write(app.join("skills.lock"), &edited).unwrap();
    let out = ctx.fails_in(&app, &["install", "--locked"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
    error: [TEMP]/app/skills.lock: invalid lockfile: TOML parse error at line 7, column 10
      |
    7 | source = "path+tools\\helper"
      |          ^^^^^^^^^^^^^^^^^^^^
    the path source 'path+tools\helper' is written with '\': skills.lock writes paths with '/' on every platform (Windows reads them too): write it 'path+tools/helper'
    hint: restore it from version control, or delete it and run `skillpkg install`
    "#);
    assert_eq!(
        std::fs::read_to_string(app.join("skills.lock")).unwrap(),
        edited
    );

    std::fs::write(app.join("skills.lock"), &lock).unwrap();
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    let edited = manifest.replace(r#"path = "tools/helper""#, r#"path = 'tools\helper'"#);
    assert_ne!(edited, manifest);
    std::fs::write(app.join("skills.toml"), &edited).unwrap();
    let out = ctx.fails_in(&app, &["install"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r#"
    error: [TEMP]/app/skills.toml: invalid [skills] entry
      Caused by: 'helper': the path 'tools\helper' is written with '\': skills.toml writes paths with '/' on every platform (Windows reads them too): write path = "tools/helper" (a folder whose own name holds '\' must be renamed)
    "#);
    assert_eq!(
        std::fs::read_to_string(app.join("skills.lock")).unwrap(),
        lock
    );
}

#[test]
fn a_git_skill_is_pinned_by_commit_until_update() {
    let ctx = TestContext::new();
    let (repo, url) = lint_repository(&ctx);
    let first = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    let app = new_project(&ctx, None);
    let out = ctx.ok_in(
        &app,
        &[
            "add",
            "team/lint",
            "--git",
            &url,
            "--rev",
            "main",
            "--subdir",
            "skills/lint",
        ],
    );
    insta::assert_snapshot!(out.stderr, @"   Installed team/lint v1.0.0");
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    assert!(
        manifest.contains(&format!(
            "\"team/lint\" = {{ git = \"{url}\", rev = \"main\", subdir = \"skills/lint\" }}"
        )),
        "{manifest}"
    );
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(
        lock.contains(&format!(
            "source = \"git+{url}?rev=main&subdir=skills/lint#{first}\""
        )),
        "{lock}"
    );
    use std::os::unix::fs::PermissionsExt;
    let script = app.join(".agents/skills/lint/scripts/run.sh");
    assert_ne!(
        std::fs::metadata(&script).unwrap().permissions().mode() & 0o111,
        0
    );

    // The branch moves on; install keeps the pinned commit.
    std::fs::write(
        repo.join("skills/lint/SKILL.md"),
        lint_md("1.1.0", "Version two."),
    )
    .unwrap();
    git(&repo, &["commit", "-q", "-am", "lint 2"]);
    ctx.ok_in(&app, &["install"]);
    assert_eq!(
        std::fs::read_to_string(app.join("skills.lock")).unwrap(),
        lock
    );

    // A fresh copy gets the pinned commit too, and then works offline.
    let copy = fresh_copy(&ctx, &app);
    // The repository is outside the copy: it is read once the user
    // trusts the copy.
    ctx.ok_in(&copy, &["trust", "--project"]);
    ctx.ok_in(&copy, &["install", "--locked"]);
    assert!(tree(&app.join(".agents/skills")) == tree(&copy.join(".agents/skills")));
    ctx.ok_in(&copy, &["install", "--frozen"]);

    // outdated and update --dry-run see the branch move, and change nothing.
    let second = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    let out = ctx.ok_in(&app, &["outdated", "--json"]);
    let listed: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(listed[0]["name"], "team/lint", "{listed}");
    assert_eq!(listed[0]["current"], first[..12], "{listed}");
    assert_eq!(listed[0]["kind"], "git", "{listed}");
    assert_eq!(listed[0]["latest"], second[..12], "{listed}");
    assert_eq!(listed[0]["repository"], url.as_str(), "{listed}");
    let out = ctx.ok_in(&app, &["update", "--dry-run"]);
    insta::assert_snapshot!(out.stderr, @"       Would update team/lint v1.0.0 → v1.1.0");
    assert_eq!(
        std::fs::read_to_string(app.join("skills.lock")).unwrap(),
        lock
    );

    // update moves the pin.
    let out = ctx.ok_in(&app, &["update", "team/lint"]);
    insta::assert_snapshot!(out.stderr, @"     Updated team/lint v1.0.0 → v1.1.0");
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(lock.contains(&format!("#{second}\"")), "{lock}");
    assert!(
        std::fs::read_to_string(app.join(".agents/skills/lint/SKILL.md"))
            .unwrap()
            .contains("Version two.")
    );
}

/// A git source is installed from git's own objects, not from a checkout,
/// so git's line-ending conversion (`core.autocrlf=true`, as Git for
/// Windows sets it) does not change what is installed or its tree hash:
/// a lock written where git converts nothing installs `--locked`, to the
/// same files, where it converts.
#[test]
fn a_git_source_installs_with_its_locked_tree_hash_where_git_converts_line_endings() {
    let ctx = TestContext::new();
    let (_repo, url) = lint_repository(&ctx);
    let app = new_project(&ctx, None);
    let args = ["add", "--git", &url, "--subdir", "skills/lint"];
    ctx.ok_in(&app, &args);
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();

    // This machine's git converts line endings on checkout.
    let home = ctx.root().join("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join(".gitconfig"), "[core]\n\tautocrlf = true\n").unwrap();
    let checkout = ctx.root().join("checkout");
    let mut clone = std::process::Command::new("git");
    clone
        .env("HOME", &home)
        .args(["clone", "-q", &url])
        .arg(&checkout);
    assert!(clone.status().unwrap().success());
    let converted = std::fs::read(checkout.join("skills/lint/SKILL.md")).unwrap();
    assert!(
        converted.windows(2).any(|w| w == b"\r\n"),
        "git converts the checkout here"
    );

    let copy = fresh_copy(&ctx, &app);
    // The copy names a repository outside it, which the user vouches for.
    ctx.ok_in(&copy, &["trust", "--project"]);
    ctx.ok_in(&copy, &["install", "--locked"]);
    assert_eq!(
        std::fs::read_to_string(copy.join("skills.lock")).unwrap(),
        lock
    );
    assert!(tree(&app.join(".agents/skills")) == tree(&copy.join(".agents/skills")));
    let installed = std::fs::read(copy.join(".agents/skills/lint/SKILL.md")).unwrap();
    assert!(
        !installed.contains(&b'\r'),
        "git's object content, unconverted"
    );
}

#[test]
fn a_git_tag_and_the_remote_head_can_be_installed() {
    let ctx = TestContext::new();
    let (repo, url) = lint_repository(&ctx);
    std::fs::write(repo.join("skills/lint/SKILL.md"), lint_md("2.0.0", "Head.")).unwrap();
    git(&repo, &["commit", "-q", "-am", "lint 2"]);
    let app = new_project(&ctx, None);
    let out = ctx.ok_in(
        &app,
        &[
            "add",
            "--git",
            &url,
            "--rev",
            "v1.0.0",
            "--subdir",
            "skills/lint",
        ],
    );
    insta::assert_snapshot!(out.stderr, @"   Installed lint v1.0.0");

    let other = ctx.root().join("other");
    std::fs::create_dir_all(&other).unwrap();
    ctx.ok_in(&app, &["init", other.to_str().unwrap()]);
    let out = ctx.ok_in(&other, &["add", "--git", &url, "--subdir", "skills/lint"]);
    insta::assert_snapshot!(out.stderr, @"   Installed lint v2.0.0");
}

#[test]
fn bad_direct_sources_are_explained_and_change_nothing() {
    let ctx = TestContext::new();
    let (_repo, url) = lint_repository(&ctx);
    let app = new_project(&ctx, None);
    let before = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    let empty = ctx.root().join("empty-repo");
    std::fs::create_dir_all(empty.join("docs")).unwrap();
    std::fs::write(empty.join("docs/README.md"), "No skills here.\n").unwrap();
    git(&empty, &["init", "-q", "-b", "main"]);
    git(&empty, &["add", "-A"]);
    git(&empty, &["commit", "-q", "-m", "docs"]);
    let empty_url = format!("file://{}", empty.display());
    let cases: [&[&str]; 5] = [
        &[
            "add",
            "--git",
            &url,
            "--rev",
            "nope",
            "--subdir",
            "skills/lint",
        ],
        &["add", "--git", &url, "--subdir", "skills/missing"],
        &[
            "add",
            "team/other",
            "--git",
            &url,
            "--subdir",
            "skills/lint",
        ],
        &["add", "--git", &empty_url],
        &["add", "--path", "nowhere"],
    ];
    let mut transcript = String::new();
    for args in cases {
        transcript += &ctx.fails_in(&app, args).transcript();
        assert_eq!(
            std::fs::read_to_string(app.join("skills.toml")).unwrap(),
            before
        );
        assert!(
            !app.join("skills.lock").exists()
                || !std::fs::read_to_string(app.join("skills.lock"))
                    .unwrap()
                    .contains("lint")
        );
    }
    insta::assert_snapshot!(ctx.redact(&transcript), @r#"
    $ skillpkg add --git file://[TEMP]/lint-repo --rev nope --subdir skills/lint
    error: could not get file://[TEMP]/lint-repo
      Caused by: file://[TEMP]/lint-repo has no branch, tag or commit 'nope'
    hint: check `rev` in skills.toml
    $ skillpkg add --git file://[TEMP]/lint-repo --subdir skills/missing
    error: folder 'skills/missing' of file://[TEMP]/lint-repo holds no SKILL.md
    hint: leave out --subdir to list the skills the repository holds
    $ skillpkg add team/other --git file://[TEMP]/lint-repo --subdir skills/lint
    error: 'team/other' names the skill 'lint', but skills.toml calls it 'team/other'
    hint: use "lint" (or "<org>/lint") as its key in skills.toml
    $ skillpkg add --git file://[TEMP]/empty-repo
    error: file://[TEMP]/empty-repo holds no skill agents can load
    hint: skills are folders with a SKILL.md, at the top of the repository or below it (skills/<name>, .claude/skills/<name>, …)
    $ skillpkg add --path nowhere
    error: there is no folder at nowhere
    "#);

    // A skill the reference validator rejects installs as agents load it,
    // with one warning; --require-valid gets the validator's verdict.
    write_skill(
        &app.join("tools"),
        "broken",
        "---\nname: Broken\ndescription: x\n---\n",
    );
    let out = ctx.fails_in(&app, &["add", "--path", "tools/broken", "--require-valid"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: 'Broken' cannot be installed
      Caused by: [TEMP]/app/tools/broken is not a valid skill:
      [TEMP]/app/tools/broken/SKILL.md: error[name-lowercase]: Skill name 'Broken' must be lowercase
      [TEMP]/app/tools/broken/SKILL.md: error[name-directory-mismatch]: Directory name 'broken' must match skill name 'Broken'
    hint: fix these, then check with `skillpkg validate [TEMP]/app/tools/broken`
    ");
    assert_eq!(
        std::fs::read_to_string(app.join("skills.toml")).unwrap(),
        before
    );
    let out = ctx.ok_in(&app, &["add", "--path", "tools/broken"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    warning: Broken breaks the specification's rules (name-directory-mismatch, name-lowercase), and is installed as agents load it; `skillpkg validate .agents/skills/Broken` shows why, and --require-valid refuses such skills
       Installed Broken h1:LJnC6FoG
    ");
    assert!(app.join(".agents/skills/Broken/SKILL.md").is_file());
}
