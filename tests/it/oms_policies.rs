//! OMS signer policies on a git source: `add --git` of a skill whose
//! `skill.oms.sig` chains to the policy's root records the signer and the
//! root in `skills.lock`; a later commit that changes a file is refused on
//! `update`; a teammate's `install --locked` re-verifies from the lock
//! alone; `verify` re-checks the installed tree.

use std::path::{Path, PathBuf};

use crate::common::{TestContext, copy_dir, fresh_copy, git, new_project};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/oms")
        .join(name)
}

/// A git repository holding the signed fixture at `skills/signed`, and
/// its `file://` URL.
fn signed_repository(ctx: &TestContext) -> (PathBuf, String) {
    let repo = ctx.root().join("repo");
    copy_dir(&fixture("signed"), &repo.join("skills/signed"));
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "signed"]);
    let url = format!("file://{}", repo.display());
    (repo, url)
}

#[test]
fn a_git_skill_under_an_oms_policy_is_pinned_to_its_signer_and_a_changed_file_is_refused() {
    let ctx = TestContext::new();
    let (repo, url) = signed_repository(&ctx);
    let app = new_project(&ctx, None);
    let root = fixture("root.pem");
    ctx.ok(&["trust", &url, "--oms-root", root.to_str().unwrap()]);

    ctx.ok_in(&app, &["add", "--git", &url, "--subdir", "skills/signed"]);
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(
        lock.contains("signer = { oms = { subject = \"") && lock.contains("chain = \"sha256:"),
        "the lock pins the certificate's subject and the root: {lock}"
    );
    assert!(
        lock.contains("[roots]") && lock.contains("BEGIN CERTIFICATE"),
        "the lock carries the root: {lock}"
    );
    ctx.ok_in(&app, &["verify"]);
    let out = ctx.ok_in(&app, &["show", "signed"]);
    assert!(
        out.stdout.contains("\nlocked:        ")
            && out
                .stdout
                .contains("\nsigned by:     CN=skillpkg test OMS signer"),
        "show says where the skill came from and who signed it: {}",
        out.stdout
    );

    // Upstream changes a file without signing again.
    let skill_md = repo.join("skills/signed/SKILL.md");
    let text = std::fs::read_to_string(&skill_md).unwrap();
    std::fs::write(&skill_md, format!("{text}\nOne more line.\n")).unwrap();
    git(&repo, &["commit", "-q", "-am", "unsigned change"]);
    let out = ctx.fails_in(&app, &["update"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: signed [SHORT] is refused by your signer policy for [TEMP]/repo: SKILL.md was changed after signing
    hint: nothing was installed; `skillpkg trust --list` shows the policy, and `skillpkg trust [TEMP]/repo --oms-root CERT --replace` changes it if the source really changed its signer
    ");
    assert!(
        out.stderr.contains("is refused by your signer policy for")
            && out.stderr.contains("SKILL.md"),
        "the refusal names the policy and the file: {}",
        out.stderr
    );
    assert_eq!(
        std::fs::read_to_string(app.join("skills.lock")).unwrap(),
        lock,
        "nothing moved"
    );
    assert!(
        !std::fs::read_to_string(app.join(".agents/skills/signed/SKILL.md"))
            .unwrap()
            .contains("One more line."),
        "the changed file was not put in place"
    );

    // A teammate with no policy and an empty cache: the lock's pin and
    // root verify the tree again.
    std::fs::remove_file(ctx.root().join("config/signers.toml")).unwrap();
    std::fs::remove_dir_all(ctx.root().join("cache")).unwrap();
    let copy = fresh_copy(&ctx, &app);
    ctx.ok_in(&copy, &["trust", "--project"]);
    ctx.ok_in(&copy, &["install", "--locked"]);
    assert!(copy.join(".agents/skills/signed/skill.oms.sig").is_file());

    // A lock whose root was swapped for another: the pin does not verify.
    let other = std::fs::read_to_string(fixture("other-root.pem")).unwrap();
    let locked = std::fs::read_to_string(copy.join("skills.lock")).unwrap();
    let start = locked.find("-----BEGIN CERTIFICATE-----").unwrap();
    let end = locked.find("-----END CERTIFICATE-----").unwrap() + "-----END CERTIFICATE-----".len();
    let swapped = format!("{}{}{}", &locked[..start], other.trim(), &locked[end..]);
    std::fs::write(copy.join("skills.lock"), swapped).unwrap();
    std::fs::remove_dir_all(copy.join(".agents")).unwrap();
    let out = ctx.fails_in(&copy, &["install", "--locked"]);
    assert!(
        out.stderr.contains("skills.lock pins its signer to"),
        "{}",
        out.stderr
    );
    assert!(!copy.join(".agents/skills/signed").exists());
}

#[test]
fn a_skill_with_no_oms_signature_is_refused_under_a_policy_on_its_repository() {
    let ctx = TestContext::new();
    let (repo, url) = signed_repository(&ctx);
    std::fs::remove_file(repo.join("skills/signed/skill.oms.sig")).unwrap();
    git(&repo, &["commit", "-q", "-am", "drop the signature"]);
    let app = new_project(&ctx, None);
    // The policy is set on another spelling of the same repository.
    let spelled = format!("git+{url}/./");
    ctx.ok(&[
        "trust",
        &spelled,
        "--oms-root",
        fixture("root.pem").to_str().unwrap(),
    ]);
    let out = ctx.fails_in(&app, &["add", "--git", &url, "--subdir", "skills/signed"]);
    assert!(
        out.stderr.contains("it carries no skill.oms.sig"),
        "{}",
        out.stderr
    );
    assert!(!app.join(".agents/skills/signed").exists());
}

const IDENTITY: &str =
    "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main";
const ISSUER: &str = "https://token.actions.githubusercontent.com";

fn sigstore_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sigstore")
        .join(name)
}

#[test]
fn a_keyless_oms_signature_verifies_by_identity_and_not_another() {
    let ctx = TestContext::new();
    let dir = ctx.root().join("keyless-oms");
    copy_dir(&sigstore_fixture("keyless-oms"), &dir);
    let root = sigstore_fixture("trusted_root.json");
    let verify = |identity: &str| {
        ctx.run(&[
            "signature",
            "verify",
            dir.to_str().unwrap(),
            "--identity",
            identity,
            "--issuer",
            ISSUER,
            "--trusted-root",
            root.to_str().unwrap(),
        ])
    };
    let out = verify(IDENTITY);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!("signed by {IDENTITY}")),
        "{}",
        out.stderr
    );

    let out =
        verify("https://github.com/evil/skills/.github/workflows/release.yml@refs/heads/main");
    assert_eq!(out.status, 1, "another identity is refused: {}", out.stderr);

    std::fs::write(dir.join("scripts/run.sh"), "#!/bin/sh\nrm -rf ~\n").unwrap();
    let out = verify(IDENTITY);
    assert!(
        out.status == 1
            && out
                .stderr
                .contains("scripts/run.sh was changed after signing"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_git_skill_signed_keylessly_installs_under_an_identity_policy_and_re_verifies_from_the_lock() {
    let ctx = TestContext::new();
    let repo = ctx.root().join("repo");
    copy_dir(
        &sigstore_fixture("keyless-oms"),
        &repo.join("skills/keyless-oms"),
    );
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "signed"]);
    let url = format!("file://{}", repo.display());
    let app = new_project(&ctx, None);
    let root = sigstore_fixture("trusted_root.json");
    ctx.ok(&[
        "trust",
        &url,
        "--sigstore-identity",
        IDENTITY,
        "--sigstore-issuer",
        ISSUER,
        "--trusted-root",
        root.to_str().unwrap(),
    ]);
    ctx.ok_in(
        &app,
        &["add", "--git", &url, "--subdir", "skills/keyless-oms"],
    );
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(
        lock.contains(&format!(
            "signer = {{ sigstore = {{ identity = \"{IDENTITY}\""
        )) && lock.contains("[roots]"),
        "{lock}"
    );
    ctx.ok_in(&app, &["verify"]);

    std::fs::remove_file(ctx.root().join("config/signers.toml")).unwrap();
    let copy = fresh_copy(&ctx, &app);
    ctx.ok_in(&copy, &["trust", "--project"]);
    ctx.ok_in(&copy, &["install", "--locked"]);
    std::fs::write(
        copy.join(".agents/skills/keyless-oms/scripts/run.sh"),
        "#!/bin/sh\necho changed\n",
    )
    .unwrap();
    let out = ctx.fails_in(&copy, &["verify"]);
    assert!(out.stdout.contains("keyless-oms@"), "{}", out.stdout);
}
