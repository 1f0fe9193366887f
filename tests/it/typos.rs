//! A mistyped name, version, folder or repository: the error says what is
//! there instead, the closest first.

use crate::common::{TestContext, git, new_project, skill_md, write_skill};

#[test]
fn a_mistyped_name_version_or_path_gets_what_is_there() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    write_skill(
        &app.join("tools"),
        "helper",
        &skill_md("helper", "Helps. Use when testing."),
    );
    ctx.ok_in(&app, &["add", "--path", "tools/helper"]);
    ctx.ok_in(&app, &["add", "example/citation-style"]);
    std::fs::create_dir_all(ctx.root().join("collection")).unwrap();

    let mut transcript = String::new();
    for args in [
        &["remove", "nope"][..],
        &["remove", "helpr"],
        &["add", "example/pdf-processing@9.9.9"],
        &["add", "--path", "tols/helpr"],
        &["add", "--git", "../colection"],
        &["add", "--git", "github.com/anthropics/skills"],
    ] {
        transcript += &ctx.fails_in(&app, args).transcript();
    }
    insta::assert_snapshot!(ctx.redact(&transcript), @"
    $ skillpkg remove nope
    error: nope is not in [TEMP]/app/skills.toml
    hint: it names example/citation-style, helper
    $ skillpkg remove helpr
    error: helpr is not in [TEMP]/app/skills.toml
    hint: did you mean `skillpkg remove helper`?
    $ skillpkg add example/pdf-processing@9.9.9
    error: no versions satisfy the requirements:
    Because your project requires example/pdf-processing ^9.9.9 and no version of example/pdf-processing matches ^9.9.9 (it has 1.0.0), the requirements of your project cannot be met together.
    $ skillpkg add --path tols/helpr
    error: there is no folder at tols/helpr
    hint: did you mean tools/helper?
    $ skillpkg add --git ../colection
    error: could not get ../colection
      Caused by: there is no repository at ../colection
    hint: did you mean ../collection?
    $ skillpkg add --git github.com/anthropics/skills
    error: could not get github.com/anthropics/skills
      Caused by: there is no repository at github.com/anthropics/skills
    hint: for a repository on a server, give its whole URL: https://github.com/anthropics/skills
    ");
}

#[test]
fn a_mistyped_skill_or_folder_of_a_repository_gets_the_closest() {
    let ctx = TestContext::new();
    let repo = ctx.root().join("repo");
    for name in ["alpha", "beta"] {
        write_skill(
            &repo.join("skills"),
            name,
            &skill_md(name, "A skill. Use when testing."),
        );
    }
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "skills"]);
    let app = new_project(&ctx, None);
    let url = repo.to_str().unwrap();
    let mut transcript = String::new();
    for args in [
        &["add", "--git", url, "--skill", "alph"][..],
        &["add", "--git", url, "--subdir", "skills/bta"],
    ] {
        transcript += &ctx.fails_in(&app, args).transcript();
    }
    insta::assert_snapshot!(ctx.redact(&transcript), @r#"
    $ skillpkg add --git [TEMP]/repo --skill alph
    error: no skill of [TEMP]/repo matches "alph"
    hint: did you mean --skill alpha?
    $ skillpkg add --git [TEMP]/repo --subdir skills/bta
    error: folder 'skills/bta' of [TEMP]/repo holds no SKILL.md
    hint: did you mean --subdir skills/beta?
    "#);
}
