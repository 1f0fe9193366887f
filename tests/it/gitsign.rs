//! Git skills signed with gitsign: a commit's detached CMS signature by a
//! Fulcio certificate, with the Rekor entry embedded, checked offline
//! against the identity and issuer `signed-by` names and the project's
//! `trusted-root`. The commits are the ones tests/fixtures/gitsign/make.py
//! made over a test CA and log; the repositories are built here from them
//! with `git hash-object`, so their ids are the signed bytes' own.

use std::path::{Path, PathBuf};

use crate::common::{TestContext, fresh_copy, git};

const DEV: &str = "sigstore:dev@acme.example,https://accounts.example.com";
const OTHER: &str = "sigstore:other@acme.example,https://accounts.example.com";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gitsign")
}

/// A repository holding the fixture's tree (the skill `signed` at its
/// root), whose `main` is the fixture commit `name`.
fn repository(ctx: &TestContext) -> (PathBuf, String) {
    let repo = ctx.root().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::copy(fixtures().join("tree/SKILL.md"), repo.join("SKILL.md")).unwrap();
    git(&repo, &["add", "-A"]);
    let tree = git(&repo, &["write-tree"]);
    let signed = std::fs::read_to_string(fixtures().join("signed.commit")).unwrap();
    assert!(
        signed.starts_with(&format!("tree {}\n", tree.trim())),
        "the fixture's tree is the one built here"
    );
    let url = format!("file://{}", repo.display());
    (repo, url)
}

/// Points `main` of `repo` at the fixture commit `name`.
fn point_main_at(repo: &Path, name: &str) -> String {
    let file = fixtures().join(name);
    let id = git(
        repo,
        &["hash-object", "-t", "commit", "-w", file.to_str().unwrap()],
    );
    let id = id.trim().to_string();
    git(repo, &["update-ref", "refs/heads/main", &id]);
    id
}

/// The test log's trusted root, copied into the project.
fn project_root_file(ctx: &TestContext) -> String {
    std::fs::create_dir_all(ctx.project.join("sigstore")).unwrap();
    std::fs::copy(
        fixtures().join("trusted_root.json"),
        ctx.project.join("sigstore/trusted_root.json"),
    )
    .unwrap();
    "sigstore/trusted_root.json".to_string()
}

fn add<'a>(url: &'a str, root: &'a str, signers: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["add", "--git", url, "--trusted-root", root];
    for signer in signers {
        args.extend(["--signed-by", signer]);
    }
    args
}

#[test]
fn a_gitsign_signed_commit_installs_with_signed_by_and_install_locked_checks_it_again() {
    let ctx = TestContext::new();
    let (repo, url) = repository(&ctx);
    let commit = point_main_at(&repo, "signed.commit");
    let root = project_root_file(&ctx);
    let out = ctx.ok(&add(&url, &root, &[DEV]));
    assert!(out.stderr.contains("Installed signed"), "{}", out.stderr);
    let manifest = std::fs::read_to_string(ctx.project.join("skills.toml")).unwrap();
    assert!(
        manifest.contains(&format!(
            "signed-by = \"{DEV}\", trusted-root = \"sigstore/trusted_root.json\""
        )),
        "{manifest}"
    );
    let lock = std::fs::read_to_string(ctx.project.join("skills.lock")).unwrap();
    assert!(lock.contains(&commit), "{lock}");
    assert!(
        lock.contains(
            "commit-signer = { sigstore = { identity = \"dev@acme.example\", issuer = \"https://accounts.example.com\" } }"
        ),
        "{lock}"
    );

    // A teammate's clone fetches the locked commit and checks it again,
    // against the trusted root the project holds.
    let clone = fresh_copy(&ctx, &ctx.project);
    ctx.ok_in(&clone, &["trust", "--project"]);
    let out = ctx.fails_in(&clone, &["install", "--locked"]);
    assert!(
        out.stderr
            .contains("'signed': trusted-root sigstore/trusted_root.json is not in the project"),
        "{}",
        out.stderr
    );
    std::fs::create_dir_all(clone.join("sigstore")).unwrap();
    std::fs::copy(
        fixtures().join("trusted_root.json"),
        clone.join("sigstore/trusted_root.json"),
    )
    .unwrap();
    ctx.ok_in(&clone, &["install", "--locked"]);
    assert!(clone.join(".agents/skills/signed/SKILL.md").is_file());
    assert_eq!(
        std::fs::read_to_string(clone.join("skills.lock")).unwrap(),
        lock
    );

    // Without the project's root, the public-good one did not issue the
    // certificate.
    let manifest = std::fs::read_to_string(clone.join("skills.toml")).unwrap();
    let public_good = manifest.replace(", trusted-root = \"sigstore/trusted_root.json\"", "");
    std::fs::write(clone.join("skills.toml"), public_good).unwrap();
    std::fs::remove_dir_all(clone.join(".agents/skills/signed")).unwrap();
    let out = ctx.fails_in(&clone, &["install", "--locked"]);
    assert!(
        out.stderr
            .contains("carries a gitsign signature by dev@acme.example (issuer https://accounts.example.com) that does not verify"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_gitsign_commit_by_another_identity_a_tampered_one_or_one_without_its_log_entry_is_refused() {
    let ctx = TestContext::new();
    let (repo, url) = repository(&ctx);
    let root = project_root_file(&ctx);

    point_main_at(&repo, "other-identity.commit");
    let out = ctx.fails(&add(&url, &root, &[DEV]));
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: 'signed': commit [COMMIT] of file://[TEMP]/repo is signed by other@acme.example (issuer https://accounts.example.com), by gitsign, which is not a signer skills.toml names (signed-by: dev@acme.example (issuer https://accounts.example.com))
    hint: if that signer is one of the repository's owners, add it to `signed-by` in skills.toml
    ");

    point_main_at(&repo, "tampered.commit");
    let out = ctx.fails(&add(&url, &root, &[DEV]));
    assert!(
        out.stderr
            .contains("the commit was changed after it was signed"),
        "{}",
        out.stderr
    );

    // other@'s signature carrying the log entry of dev@'s: the log never
    // saw this signature.
    point_main_at(&repo, "borrowed-entry.commit");
    let out = ctx.fails(&add(&url, &root, &[OTHER]));
    assert!(
        out.stderr.contains("invalid inclusion promise"),
        "{}",
        out.stderr
    );

    point_main_at(&repo, "no-entry.commit");
    let out = ctx.fails(&add(&url, &root, &[DEV]));
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: 'signed': commit [COMMIT] of file://[TEMP]/repo carries a gitsign signature by dev@acme.example (issuer https://accounts.example.com) that does not verify: the signature carries no Rekor entry, so nothing but a time its signer chose says when it was made
    hint: ask the signer to sign with the entry embedded (gitsign's default; `gitsign config rekorMode offline`)
    ");

    // A project naming only SSH keys takes no gitsign commit.
    point_main_at(&repo, "signed.commit");
    let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIL9+kelccF2RdFV5CCuht8AaIzivMSML0/bydUx+Jzjx";
    let out = ctx.fails(&["add", "--git", &url, "--signed-by", key]);
    assert!(
        out.stderr
            .contains("is signed by a Sigstore certificate (gitsign), which is not a signer"),
        "{}",
        out.stderr
    );
    assert!(!ctx.project.join("skills.lock").exists());
}

#[test]
fn a_gitsign_commit_by_another_named_identity_needs_allow_signer_change() {
    let ctx = TestContext::new();
    let (repo, url) = repository(&ctx);
    let root = project_root_file(&ctx);
    point_main_at(&repo, "signed.commit");
    ctx.ok(&add(&url, &root, &[DEV, OTHER]));
    point_main_at(&repo, "other-identity.commit");
    let out = ctx.fails(&["update", "signed"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: 'signed': commit [COMMIT] of file://[TEMP]/repo is signed by other@acme.example (issuer https://accounts.example.com, gitsign), but the locked commit [COMMIT] was signed by dev@acme.example (issuer https://accounts.example.com, gitsign)
    hint: both are signers skills.toml names; if the change is expected, run `skillpkg update signed --allow-signer-change`
    ");
    ctx.ok(&["update", "signed", "--allow-signer-change"]);
    let lock = std::fs::read_to_string(ctx.project.join("skills.lock")).unwrap();
    assert!(lock.contains("identity = \"other@acme.example\""), "{lock}");
}

#[test]
fn a_trusted_root_outside_the_project_or_without_signed_by_is_refused() {
    let ctx = TestContext::new();
    let (repo, url) = repository(&ctx);
    point_main_at(&repo, "signed.commit");
    let outside = fixtures().join("trusted_root.json");
    let out = ctx.fails(&add(&url, outside.to_str().unwrap(), &[DEV]));
    assert!(
        out.stderr.contains("not a file inside the project"),
        "{}",
        out.stderr
    );
    std::fs::write(
        ctx.project.join("skills.toml"),
        format!("[skills]\nsigned = {{ git = \"{url}\", trusted-root = \"root.json\" }}\n"),
    )
    .unwrap();
    let out = ctx.fails(&["install"]);
    assert!(
        out.stderr.contains("`trusted-root` goes with `signed-by`"),
        "{}",
        out.stderr
    );
}
