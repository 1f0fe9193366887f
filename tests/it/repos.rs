//! Whole repositories as `npx skills` users know them: `add --git URL`
//! finds every skill a repository holds (where agents look), installs each
//! under its own name, including the ones the reference validator rejects
//! but agents load, and `remove URL` takes them all away again.

use std::path::{Path, PathBuf};

use crate::common::{TestContext, fresh_copy, git, new_project, tree, write_skill};

/// A repository modelled on the real collections: a description over
/// 1,024 characters (Anthropic's claude-api), extra frontmatter fields
/// (trailofbits), a name that differs from its folder (vercel), a plain
/// skill, and one under `.claude/skills`; plus files that are no skills.
fn collection(ctx: &TestContext) -> (PathBuf, String) {
    let repo = ctx.root().join("collection");
    let skills = repo.join("skills");
    let long = format!("Calls the API. Use when calling it. {}", "x".repeat(1100));
    write_skill(
        &skills,
        "long-desc",
        &format!("---\nname: long-desc\ndescription: {long}\n---\nBody.\n"),
    );
    write_skill(
        &skills,
        "audit",
        "---\nname: audit\ndescription: Audits code. Use when auditing.\ntype: tool\neffort: high\nargument-hint: <path>\ndisable-model-invocation: true\n---\nAudit.\n",
    );
    write_skill(
        &skills,
        "react-best-practices",
        "---\nname: vercel-react-best-practices\ndescription: React rules. Use when writing React.\n---\nRules.\n",
    );
    write_skill(
        &skills,
        "plain",
        "---\nname: plain\ndescription: Plain. Use when testing.\n---\nPlain.\n",
    );
    write_skill(
        &repo.join(".claude/skills"),
        "review",
        "---\nname: review\ndescription: Reviews. Use when reviewing.\n---\nReview.\n",
    );
    std::fs::write(repo.join("README.md"), "# A collection\n").unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "skills"]);
    let url = format!("file://{}", repo.display());
    (repo, url)
}

fn lock_of(app: &Path) -> String {
    std::fs::read_to_string(app.join("skills.lock")).unwrap()
}

#[test]
fn a_whole_repository_is_listed_picked_and_added_in_one_command() {
    let ctx = TestContext::new();
    let (_repo, url) = collection(&ctx);
    let listed = ctx.ok(&["add", "--git", &url, "--list"]);
    insta::assert_snapshot!(ctx.redact(&listed.stdout), @"
    review                       .claude/skills/review        Reviews. Use when reviewing.
    audit                        skills/audit                 Audits code. Use when auditing.
    long-desc                    skills/long-desc             Calls the API. Use when calling it. xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
    plain                        skills/plain                 Plain. Use when testing.
    vercel-react-best-practices  skills/react-best-practices  React rules. Use when writing React.
    ");

    let app = new_project(&ctx, None);
    let out = ctx.ok_in(
        &app,
        &[
            "add", "--git", &url, "--skill", "plain", "--skill", "vercel-*",
        ],
    );
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
        Found 5 skills in file://[TEMP]/collection at commit [COMMIT]
    Installed plain [SHORT]
    Installed vercel-react-best-practices [SHORT]
    ");
    let out = ctx.ok_in(&app, &["add", "--git", &url]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
           Found 5 skills in file://[TEMP]/collection at commit [COMMIT]
       Installed audit [SHORT]
       Installed long-desc [SHORT]
       Installed review [SHORT]
    warning: 2 skills break the specification's rules, and are installed as agents load them:
      description-length  1 skill (long-desc)
      unknown-field       1 skill (audit)
    hint: `skillpkg validate .agents/skills/audit` shows why, -v lists every skill's rules, and --require-valid refuses such skills
    ");
    let installed: Vec<String> = std::fs::read_dir(app.join(".agents/skills"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(
        installed,
        [
            "audit",
            "long-desc",
            "plain",
            "review",
            "vercel-react-best-practices"
        ]
    );
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    insta::assert_snapshot!(ctx.redact(&manifest), @r#"
    # The skills this project uses. `skillpkg add org/name` adds them here;
    # skills.lock records exactly what was installed. Commit both files.

    [skills]
    plain = { git = "file://[TEMP]/collection", subdir = "skills/plain" }
    vercel-react-best-practices = { git = "file://[TEMP]/collection", subdir = "skills/react-best-practices" }
    review = { git = "file://[TEMP]/collection", subdir = ".claude/skills/review" }
    audit = { git = "file://[TEMP]/collection", subdir = "skills/audit" }
    long-desc = { git = "file://[TEMP]/collection", subdir = "skills/long-desc" }
    "#);
    // One commit for all of them.
    let lock = lock_of(&app);
    let commits: std::collections::BTreeSet<&str> = lock
        .lines()
        .filter(|l| l.starts_with("source = \"git+"))
        .filter_map(|l| l.rsplit_once('#').map(|(_, c)| c))
        .collect();
    assert_eq!(commits.len(), 1, "{lock}");
    // The agents' loader lists every one of them.
    let list = ctx.ok_in(&app, &["list", "--json"]);
    for name in &installed {
        assert!(
            list.stdout.contains(&format!("\"name\": \"{name}\"")),
            "{name}"
        );
    }

    // A fresh copy installs byte-identical trees from the lock.
    let copy = fresh_copy(&ctx, &app);
    // The repository is outside the copy: it is read once the user
    // trusts the copy.
    ctx.ok_in(&copy, &["trust", "--project"]);
    ctx.ok_in(&copy, &["install", "--locked"]);
    assert!(tree(&app.join(".agents/skills")) == tree(&copy.join(".agents/skills")));
    assert_eq!(lock_of(&copy), lock_of(&app));

    // The repository's URL removes all of its skills.
    let out = ctx.ok_in(&copy, &["remove", &url]);
    assert_eq!(out.stderr.matches("Removed").count(), 5, "{}", out.stderr);
    assert_eq!(
        std::fs::read_dir(copy.join(".agents/skills"))
            .unwrap()
            .count(),
        0
    );
}

/// A large collection where most skills carry fields of their own
/// (ComposioHQ's has hundreds): one line per rule, and per kind of
/// folder skipped, not one per skill; `-v` lists every one.
#[test]
fn warnings_about_many_skills_of_a_repository_are_summed_up_per_kind() {
    let ctx = TestContext::new();
    let repo = ctx.root().join("many");
    for name in ["one", "two", "three", "four", "five"] {
        write_skill(
            &repo.join("skills"),
            name,
            &format!(
                "---\nname: {name}\ndescription: Does {name}.\nversion: 1\ncategory: misc\n---\nBody.\n"
            ),
        );
    }
    write_skill(
        &repo.join("skills"),
        "fine",
        "---\nname: fine\ndescription: Fine.\n---\nBody.\n",
    );
    for name in ["nodesc", "nodesc-either"] {
        write_skill(
            &repo.join("skills"),
            name,
            &format!("---\nname: {name}\n---\nBody.\n"),
        );
    }
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "skills"]);
    let url = format!("file://{}", repo.display());

    let app = new_project(&ctx, None);
    let out = ctx.ok_in(&app, &["add", "--git", &url]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    warning: skipped 2 folders of file://[TEMP]/many whose SKILL.md agents cannot load
    hint: -v lists them with why, and so does `skillpkg add --git file://[TEMP]/many --list`
           Found 6 skills in file://[TEMP]/many at commit [COMMIT]
       Installed fine [SHORT]
       Installed five [SHORT]
       Installed four [SHORT]
       Installed one [SHORT]
       Installed three [SHORT]
       Installed two [SHORT]
    warning: 5 skills break the specification's rules, and are installed as agents load them:
      unknown-field  5 skills (five, four, one, …)
    hint: `skillpkg validate .agents/skills/five` shows why, -v lists every skill's rules, and --require-valid refuses such skills
    ");

    let out = ctx.ok(&["add", "-v", "--git", &url]);
    let stderr = ctx.redact(&out.stderr);
    for name in ["one", "two", "three", "four", "five"] {
        assert!(
            stderr.contains(&format!("warning: {name} breaks the specification's rules (unknown-field), and is installed as agents load it; `skillpkg validate .agents/skills/{name}` shows why")),
            "{stderr}"
        );
    }
    for name in ["nodesc", "nodesc-either"] {
        assert!(
            stderr.contains(&format!("warning: skipped folder 'skills/{name}' of file://[TEMP]/many: skills/{name}/SKILL.md: field 'description'")),
            "{stderr}"
        );
    }
    assert!(!stderr.contains("5 skills break"), "{stderr}");
}

#[test]
fn require_valid_refuses_what_the_reference_rejects_naming_the_rules() {
    let ctx = TestContext::new();
    let (_repo, url) = collection(&ctx);
    let app = new_project(&ctx, None);
    let before = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    let out = ctx.fails_in(
        &app,
        &[
            "add",
            "--git",
            &url,
            "--skill",
            "long-desc",
            "--require-valid",
        ],
    );
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: 'long-desc' cannot be installed
      Caused by: folder 'skills/long-desc' of file://[TEMP]/collection at [COMMIT] is not a valid skill:
      folder 'skills/long-desc' of file://[TEMP]/collection at [COMMIT]: SKILL.md: error[description-length]: Description exceeds 1024 character limit (1136 chars)
    hint: fix these where the skill comes from
    ");
    assert_eq!(
        std::fs::read_to_string(app.join("skills.toml")).unwrap(),
        before
    );
    ctx.ok_in(
        &app,
        &["add", "--git", &url, "--skill", "plain", "--require-valid"],
    );
}

#[test]
fn a_repository_that_is_one_skill_installs_under_the_skills_name() {
    let ctx = TestContext::new();
    let repo = ctx.root().join("my-solo-skill-repo");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::write(
        repo.join("SKILL.md"),
        "---\nname: solo\ndescription: Alone. Use when alone.\n---\nSolo.\n",
    )
    .unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "solo"]);
    let app = new_project(&ctx, None);
    let url = format!("file://{}", repo.display());
    let out = ctx.ok_in(&app, &["add", "--git", &url]);
    assert!(
        ctx.redact(&out.stderr).contains("Installed solo [SHORT]"),
        "{}",
        out.stderr
    );
    assert!(app.join(".agents/skills/solo/SKILL.md").is_file());
    assert!(!app.join(".agents/skills/my-solo-skill-repo").exists());
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    assert!(manifest.contains("solo = {"), "{manifest}");
    assert!(!manifest.contains("subdir"), "{manifest}");
}

#[test]
fn a_locked_git_skill_in_place_is_neither_fetched_nor_packed_again() {
    let ctx = TestContext::new();
    let (repo, url) = collection(&ctx);
    let app = new_project(&ctx, None);
    ctx.ok_in(&app, &["add", "--git", &url, "--skill", "plain"]);
    // A repository on this machine is read in place, not copied into the cache.
    assert!(!ctx.root().join("cache/git-db").exists());
    // The repository is gone: the lock's tree hash is the check.
    std::fs::rename(&repo, ctx.root().join("moved")).unwrap();
    let out = ctx.ok_in(&app, &["install"]);
    assert!(!out.stderr.contains("Installed"), "{}", out.stderr);
    // An edited skill is not in place: it is refused, never taken as pinned.
    std::fs::write(app.join(".agents/skills/plain/notes.md"), "mine\n").unwrap();
    let out = ctx.fails_in(&app, &["install"]);
    assert!(out.stderr.contains("could not get"), "{}", out.stderr);
}

#[test]
fn outdated_and_update_follow_a_repository_whose_branch_moved() {
    let ctx = TestContext::new();
    let (repo, url) = collection(&ctx);
    let app = new_project(&ctx, None);
    ctx.ok_in(
        &app,
        &[
            "add",
            "--git",
            &url,
            "--skill",
            "plain",
            "--skill",
            "audit",
            "--skill",
            "long-desc",
        ],
    );
    let first = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    let out = ctx.ok_in(&app, &["outdated"]);
    assert!(out.stderr.contains("Up-to-date"), "{}", out.stderr);

    // A commit elsewhere in the repository changes none of its skills.
    std::fs::write(repo.join("README.md"), "# A collection, described\n").unwrap();
    git(&repo, &["commit", "-q", "-am", "readme"]);
    let out = ctx.ok_in(&app, &["outdated"]);
    assert!(out.stderr.contains("Up-to-date"), "{}", out.stderr);
    assert_eq!(out.stdout, "");

    std::fs::write(
        repo.join("skills/plain/SKILL.md"),
        "---\nname: plain\ndescription: Plain, better. Use when testing.\n---\nPlain.\n",
    )
    .unwrap();
    std::fs::write(repo.join("skills/long-desc/notes.md"), "More.\n").unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "better plain"]);
    let second = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    // Only the skills whose folders changed, in aligned columns (the
    // commits replaced by placeholders as wide as they are).
    let out = ctx.ok_in(&app, &["outdated"]);
    let shown = out
        .stdout
        .replace(&first[..12], "<first----->")
        .replace(&second[..12], "<second---->");
    insta::assert_snapshot!(shown, @"
    NAME       LOCKED        COMPATIBLE    LATEST
    long-desc  <first----->  <second---->  <second---->
    plain      <first----->  <second---->  <second---->
    ");
    let out = ctx.ok_in(&app, &["update", "--dry-run"]);
    assert!(
        out.stderr.contains(&format!(
            "Would update plain {} → {}",
            &first[..12],
            &second[..12]
        )),
        "{}",
        out.stderr
    );
    // The repository's URL updates all of its skills.
    let out = ctx.ok_in(&app, &["update", &url]);
    assert!(out.stderr.contains("Updated plain"), "{}", out.stderr);
    assert!(out.stderr.contains("Updated audit"), "{}", out.stderr);
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(!lock.contains(&first), "{lock}");
}

/// A repository `<temp>/<dir>` holding one skill per name of `names`
/// (under `skills/`), each saying where it comes from; its file:// URL.
fn repository_of(ctx: &TestContext, dir: &str, names: &[&str]) -> String {
    let repo = ctx.root().join(dir);
    for name in names {
        write_skill(
            &repo.join("skills"),
            name,
            &format!(
                "---\nname: {name}\ndescription: {name} from {dir}. Use when testing.\n---\nFrom {dir}.\n"
            ),
        );
    }
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "skills"]);
    format!("file://{}", repo.display())
}

/// The manifest, the lock and every installed file, byte for byte.
fn project_state(app: &Path) -> Vec<(String, Vec<u8>)> {
    let mut state = tree(&app.join(".agents/skills"));
    for file in ["skills.toml", "skills.lock"] {
        state.push((file.to_string(), std::fs::read(app.join(file)).unwrap()));
    }
    state
}

#[test]
fn a_second_repository_holding_a_taken_name_changes_nothing_unless_told_to_replace_it() {
    let ctx = TestContext::new();
    let first = repository_of(&ctx, "first", &["pdf", "docx", "alpha"]);
    let second = repository_of(&ctx, "second", &["pdf", "docx", "beta"]);
    let app = new_project(&ctx, None);
    ctx.ok_in(&app, &["add", "--git", &first]);
    let before = project_state(&app);

    // Every collision is listed, with both sources, and nothing is written.
    let out = ctx.fails_in(&app, &["add", "--git", &second]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: 2 skills this command adds are taken by another source, so nothing was changed:
      docx  skills.toml takes it from file://[TEMP]/first (skills/docx); this command asks for it from file://[TEMP]/second (skills/docx)
      pdf   skills.toml takes it from file://[TEMP]/first (skills/pdf); this command asks for it from file://[TEMP]/second (skills/pdf)
    hint: to leave those names out, pick only the others: --skill beta
    hint: to let the new source take those names over, add --replace docx --replace pdf
    ");
    assert!(project_state(&app) == before, "add changed the project");

    // A name given to --replace must be one the command adds.
    let out = ctx.fails_in(&app, &["add", "--git", &second, "--replace", "alpha"]);
    assert!(
        out.stderr.contains("adds no skill named 'alpha'"),
        "{}",
        out.stderr
    );
    assert!(project_state(&app) == before, "add changed the project");

    // The same repository again is an update, not a collision.
    ctx.ok_in(&app, &["add", "--git", &first]);
    assert!(
        project_state(&app) == before,
        "nothing moved in the first repository"
    );

    // Leaving the taken names out adds the others.
    let out = ctx.ok_in(&app, &["add", "--git", &second, "--skill", "beta"]);
    assert!(out.stderr.contains("Installed beta"), "{}", out.stderr);

    // --replace hands the name over, and says so.
    let out = ctx.ok_in(
        &app,
        &[
            "add",
            "--git",
            &second,
            "--replace",
            "pdf",
            "--skill",
            "pdf",
        ],
    );
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
       Found 3 skills in file://[TEMP]/second at commit [COMMIT]
    Replaced pdf (from file://[TEMP]/first (skills/pdf)) with file://[TEMP]/second (skills/pdf)
    ");
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    assert!(
        manifest.contains(&format!(
            "pdf = {{ git = \"{second}\", subdir = \"skills/pdf\" }}"
        )),
        "{manifest}"
    );
    assert!(
        manifest.contains(&format!(
            "docx = {{ git = \"{first}\", subdir = \"skills/docx\" }}"
        )),
        "{manifest}"
    );
    let installed = std::fs::read_to_string(app.join(".agents/skills/pdf/SKILL.md")).unwrap();
    assert!(installed.contains("From second."), "{installed}");
}

#[test]
fn a_path_skill_whose_name_a_repository_holds_changes_nothing_unless_told_to_replace_it() {
    let ctx = TestContext::new();
    let first = repository_of(&ctx, "first", &["pdf"]);
    let app = new_project(&ctx, None);
    ctx.ok_in(&app, &["add", "--git", &first]);
    write_skill(
        &app.join("tools"),
        "pdf",
        "---\nname: pdf\ndescription: pdf of our own. Use when testing.\n---\nOurs.\n",
    );
    let before = project_state(&app);

    let out = ctx.fails_in(&app, &["add", "--path", "tools/pdf"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: 1 skill this command adds is taken by another source, so nothing was changed:
      pdf  skills.toml takes it from file://[TEMP]/first (skills/pdf); this command asks for it from the folder tools/pdf
    hint: to let the new source take that name over, add --replace pdf
    ");
    assert!(project_state(&app) == before, "add changed the project");

    let out = ctx.ok_in(&app, &["add", "--path", "tools/pdf", "--replace", "pdf"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
        Replaced pdf (from file://[TEMP]/first (skills/pdf)) with the folder tools/pdf
    ");
    // The same folder again is no collision.
    let after = project_state(&app);
    ctx.ok_in(&app, &["add", "--path", "tools/pdf"]);
    assert!(project_state(&app) == after, "nothing moved in tools/pdf");
    let installed = std::fs::read_to_string(app.join(".agents/skills/pdf/SKILL.md")).unwrap();
    assert!(installed.contains("Ours."), "{installed}");
}

/// A name with a space, as a hand-written skill may have: the flags the
/// hints give keep it one word.
#[test]
fn the_flags_a_collision_suggests_quote_the_names() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    for (dir, body) in [("tools", "Ours."), ("other", "Theirs.")] {
        write_skill(
            &app.join(dir),
            "my skill",
            &format!("---\nname: my skill\ndescription: {body} Use when testing.\n---\n{body}\n"),
        );
    }
    ctx.ok_in(&app, &["add", "--path", "tools/my skill"]);
    let out = ctx.fails_in(&app, &["add", "--path", "other/my skill"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: 1 skill this command adds is taken by another source, so nothing was changed:
      my skill  skills.toml takes it from the folder tools/my skill; this command asks for it from the folder other/my skill
    hint: to let the new source take that name over, add --replace 'my skill'
    ");
    ctx.ok_in(
        &app,
        &["add", "--path", "other/my skill", "--replace", "my skill"],
    );
}
