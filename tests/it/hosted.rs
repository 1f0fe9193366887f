//! Hosted git indexes: what a git host gives you is an empty bare
//! repository; `index init` makes it an index by pushing the first commit,
//! and many publishers push to it at once.

use std::path::PathBuf;
use std::process::Command;

use crate::common::{git, new_project};
use crate::publish::{Publisher, entry_lines};

/// `git init --bare <temp>/<name>`, as a git host makes a repository.
fn empty_bare_repo(p: &Publisher, name: &str) -> PathBuf {
    let path = p.ctx.root().join(name);
    let out = Command::new("git")
        .args(["init", "-q", "--bare"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    path
}

/// A clone of `url` at `<temp>/<dir>`, as a user of the host would make.
fn clone(p: &Publisher, url: &str, dir: &str) -> PathBuf {
    let path = p.ctx.root().join(dir);
    let out = Command::new("git")
        .args(["clone", "-q", url])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    path
}

fn index_init(p: &Publisher, spec: &str) -> String {
    let public = p.keys.public_file.to_str().unwrap();
    let args = [
        "index", "init", spec, "--git", "--org", "acme", "--key", public,
    ];
    p.ctx.redact(&p.ctx.ok(&args).stderr)
}

#[test]
fn an_empty_bare_repository_becomes_an_index_takes_publishes_and_installs() {
    let p = Publisher::new();
    // By its file:// URL.
    let bare = empty_bare_repo(&p, "hosted.git");
    let url = format!("file://{}", bare.display());
    insta::assert_snapshot!(index_init(&p, &url), @r"
         Created git index in file://[TEMP]/hosted.git (its first commit is pushed)
         Trusted the given key for org 'acme'
    ");
    for name in ["alpha", "beta"] {
        let dir = p.skill(name, "");
        p.publish(&dir, &url, &[]).assert_ok();
    }
    // The first commit went to the branch the repository's HEAD names,
    // so a plain clone checks the index out.
    let check = clone(&p, &url, "check");
    assert!(check.join("config.json").is_file());
    assert_eq!(entry_lines(&check, "acme/alpha").len(), 1);
    assert_eq!(
        git(&check, &["log", "--format=%s"]),
        "Publish acme/beta@1.0.0\nPublish acme/alpha@1.0.0\nCreate skill index\n"
    );
    let listing = std::fs::read_to_string(check.join("search.jsonl")).unwrap();
    assert_eq!(listing.lines().count(), 2, "{listing}");

    // A project installs from it.
    let app = new_project(&p.ctx, Some(&format!("git+{url}")));
    let out = p.ctx.ok_in(&app, &["add", "acme/beta"]);
    assert!(
        out.stderr.contains("Installed acme/beta v1.0.0"),
        "{}",
        out.stderr
    );
    assert!(app.join(".agents/skills/beta/SKILL.md").is_file());

    // By its path; running init again only adds what is missing.
    let bare = empty_bare_repo(&p, "other.git");
    let path = bare.to_str().unwrap();
    let out = p.ctx.fails(&["index", "init", path]);
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @r"
    error: [TEMP]/other.git is a bare git repository or a URL; without --git, an index is a folder
    hint: for a git index, run `skillpkg index init [TEMP]/other.git --git`
    ");
    insta::assert_snapshot!(index_init(&p, path), @r"
         Created git index in [TEMP]/other.git (its first commit is pushed)
         Trusted the given key for org 'acme'
    ");
    insta::assert_snapshot!(index_init(&p, path), @r"
         Updated the git index at [TEMP]/other.git
         Trusted the given key for org 'acme'
    ");
    let dir = p.skill("gamma", "");
    p.publish(&dir, path, &[]).assert_ok();
    let check = clone(&p, path, "check-other");
    assert_eq!(entry_lines(&check, "acme/gamma").len(), 1);
    assert_eq!(git(&check, &["rev-list", "--count", "HEAD"]).trim(), "2");

    // A repository that holds something else is not made an index.
    let work = p.ctx.root().join("work");
    std::fs::create_dir_all(&work).unwrap();
    git(&work, &["init", "-q"]);
    std::fs::write(work.join("README"), "hello").unwrap();
    git(&work, &["add", "README"]);
    git(&work, &["commit", "-q", "-m", "Start"]);
    let project = empty_bare_repo(&p, "project.git");
    git(&work, &["push", "-q", project.to_str().unwrap(), "HEAD"]);
    let public = p.keys.public_file.to_str().unwrap();
    let spec = project.to_str().unwrap();
    let out = p.ctx.fails(&[
        "index", "init", spec, "--git", "--org", "acme", "--key", public,
    ]);
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @r"
    error: could not make [TEMP]/project.git a skill index
      Caused by: [TEMP]/project.git is a git repository but not a skill index: it has no config.json
    hint: check the index URL; a new index starts from an empty repository (`git init --bare`) made one with `skillpkg index init <url> --git`
    ");
}

#[test]
fn publishing_to_an_empty_repository_says_to_run_index_init_never_naming_the_cache() {
    let p = Publisher::new();
    let bare = empty_bare_repo(&p, "hosted.git");
    let dir = p.skill("alpha", "");
    let cache = p.ctx.root().join("cache");
    for spec in [
        bare.display().to_string(),
        format!("file://{}", bare.display()),
    ] {
        let out = p.publish(&dir, &spec, &[]).assert_fails();
        assert!(
            !out.stderr.contains(cache.to_str().unwrap()),
            "a message names the cache: {}",
            out.stderr
        );
        let expected = format!(
            "error: {spec} is an empty git repository, not a skill index yet\n\
             hint: make it an index first: `skillpkg index init {spec} --git --org <org> --key <public key>`\n"
        );
        assert_eq!(out.stderr, expected);
    }
    let out = p.publish(&dir, bare.to_str().unwrap(), &[]).assert_fails();
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @r"
    error: [TEMP]/hosted.git is an empty git repository, not a skill index yet
    hint: make it an index first: `skillpkg index init [TEMP]/hosted.git --git --org <org> --key <public key>`
    ");

    // Reading it says the same, naming the repository, not the checkout.
    let url = format!("git+file://{}", bare.display());
    let app = new_project(&p.ctx, Some(&url));
    let out = p.ctx.fails_in(&app, &["add", "acme/alpha"]);
    assert!(
        !out.stderr.contains(cache.to_str().unwrap()),
        "{}",
        out.stderr
    );
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @r"
    error: file://[TEMP]/hosted.git is an empty git repository, not a skill index yet
    hint: its owner makes it one with `skillpkg index init <url> --git --org <org> --key <public key>`
    ");
}

#[test]
fn twenty_publishers_at_once_all_land() {
    const PUBLISHERS: usize = 20;
    let p = Publisher::new();
    let bare = empty_bare_repo(&p, "busy.git");
    let url = format!("file://{}", bare.display());
    index_init(&p, &url);
    let names: Vec<String> = (0..PUBLISHERS).map(|i| format!("skill-{i}")).collect();
    let dirs: Vec<PathBuf> = names.iter().map(|n| p.skill(n, "")).collect();
    for out in p.publish_all_at_once(&dirs, &url) {
        out.assert_ok();
    }
    let check = clone(&p, &url, "check");
    let listing = std::fs::read_to_string(check.join("search.jsonl")).unwrap();
    for name in &names {
        assert_eq!(
            entry_lines(&check, &format!("acme/{name}")).len(),
            1,
            "{name}"
        );
        assert!(
            listing.contains(&format!("\"acme/{name}\"")),
            "{name}: {listing}"
        );
    }
    assert_eq!(listing.lines().count(), PUBLISHERS);
    let log = git(&check, &["rev-list", "--count", "HEAD"]);
    assert_eq!(log.trim(), (PUBLISHERS + 1).to_string());
    // And `search` on the index lists them all.
    let app = new_project(&p.ctx, Some(&format!("git+{url}")));
    let out = p.ctx.ok_in(&app, &["search", "--json", "skill"]);
    let hits: Vec<serde_json::Value> = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(hits.len(), PUBLISHERS);
}
