//! Signer policies per source and the signers `skills.lock` pins: a
//! registry package published with a Sigstore bundle installs under an
//! identity policy and is refused under another; the lock pins the
//! identity and the root that verified it, so a teammate's `install
//! --locked` re-verifies with no policy of their own; a signer change is
//! refused naming both signers until `trust … --replace` accepts it.

use std::path::{Path, PathBuf};

use crate::common::TestContext;
use crate::common::new_project;
use crate::server::StaticServer;

pub(crate) const IDENTITY: &str =
    "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main";
const ISSUER: &str = "https://token.actions.githubusercontent.com";
const OTHER_IDENTITY: &str =
    "https://github.com/evil/skills/.github/workflows/release.yml@refs/heads/main";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sigstore")
        .join(name)
}

/// An HTTP index holding `acme/signed-skill@1.0.0`, published from the
/// `.skill` that `pack` makes of the fixture with its Sigstore bundle and
/// no minisign signature.
pub(crate) fn sigstore_index(ctx: &TestContext) -> StaticServer {
    let index = ctx.root().join("index");
    ctx.ok(&["index", "init", index.to_str().unwrap()]);
    let archive = ctx.root().join("signed-skill-1.0.0.skill");
    ctx.ok(&[
        "pack",
        fixture("signed-skill").to_str().unwrap(),
        "--output",
        archive.to_str().unwrap(),
    ]);
    let out = ctx.run(&[
        "publish",
        archive.to_str().unwrap(),
        "--index",
        index.to_str().unwrap(),
        "--org",
        "acme",
        "--sigstore-bundle",
        fixture("signed-skill.sigstore.json").to_str().unwrap(),
    ]);
    assert!(
        out.status == 0,
        "the fixture bundle no longer signs what `pack` makes of signed-skill/ (regenerate it with tests/fixtures/sigstore/make.py): {}",
        out.stderr
    );
    StaticServer::start(&index)
}

/// `trust acme` with a Sigstore identity and the fixtures' trusted root.
pub(crate) fn trust_identity(ctx: &TestContext, identity: &str, replace: bool) {
    let root = fixture("trusted_root.json");
    let mut args = vec![
        "trust",
        "acme",
        "--sigstore-identity",
        identity,
        "--sigstore-issuer",
        ISSUER,
        "--trusted-root",
        root.to_str().unwrap(),
    ];
    if replace {
        args.push("--replace");
    }
    ctx.ok(&args);
}

#[test]
fn a_package_with_a_sigstore_bundle_installs_under_its_identity_policy_and_no_other() {
    let ctx = TestContext::new();
    let server = sigstore_index(&ctx);
    let app = new_project(&ctx, Some(&server.url()));

    // No policy: nobody says who must sign, so the bundle proves nothing
    // and the package is as unsigned as any other.
    let out = ctx.fails_in(&app, &["add", "acme/signed-skill"]);
    assert!(
        out.stderr.contains(
            "is signed only with a Sigstore bundle, and no signer policy says who must sign it"
        ) && out
            .stderr
            .contains("skillpkg trust acme --sigstore-identity ID --sigstore-issuer URL"),
        "{}",
        out.stderr
    );

    trust_identity(&ctx, OTHER_IDENTITY, false);
    let out = ctx.fails_in(&app, &["add", "acme/signed-skill"]);
    assert!(
        out.stderr
            .contains("v1.0.0 is refused by your signer policy for acme")
            && out.stderr.contains(OTHER_IDENTITY),
        "the refusal names the policy and whom it wants: {}",
        out.stderr
    );
    assert!(!app.join(".agents/skills/signed-skill").exists());

    trust_identity(&ctx, IDENTITY, true);
    ctx.ok_in(&app, &["add", "acme/signed-skill"]);
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(
        lock.contains(&format!("identity = \"{IDENTITY}\""))
            && lock.contains(&format!("issuer = \"{ISSUER}\""))
            && lock.contains("[roots]"),
        "the lock pins the identity and carries the root: {lock}"
    );
    assert!(lock.contains("signature = \"sha256:"), "{lock}");
}

#[test]
fn a_teammate_re_verifies_the_pinned_sigstore_signer_with_no_policy_of_their_own() {
    let ctx = TestContext::new();
    let server = sigstore_index(&ctx);
    let app = new_project(&ctx, Some(&server.url()));
    trust_identity(&ctx, IDENTITY, false);
    ctx.ok_in(&app, &["add", "acme/signed-skill"]);

    // The teammate has no policy, and an empty cache.
    std::fs::remove_file(ctx.root().join("config/signers.toml")).unwrap();
    std::fs::remove_dir_all(ctx.root().join("cache")).unwrap();
    let copy = crate::common::fresh_copy(&ctx, &app);
    ctx.ok_in(&copy, &["install", "--locked"]);
    assert!(copy.join(".agents/skills/signed-skill/SKILL.md").is_file());

    // The index swaps the bundle for one by another signer (here: a
    // bundle over another file): the pin refuses it.
    let entry = ctx.root().join("index/index/acme/signed-skill");
    let line = std::fs::read_to_string(&entry).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    json["sigstore"] =
        serde_json::from_str(&std::fs::read_to_string(fixture("keyless.sigstore.json")).unwrap())
            .unwrap();
    std::fs::write(&entry, format!("{json}\n")).unwrap();
    std::fs::remove_dir_all(copy.join(".agents")).unwrap();
    std::fs::remove_dir_all(ctx.root().join("cache")).unwrap();
    let out = ctx.fails_in(&copy, &["install", "--locked"]);
    assert!(
        out.stderr.contains("skills.lock pins its signer to")
            && out.stderr.contains(IDENTITY)
            && out.stderr.contains("does not verify"),
        "{}",
        out.stderr
    );
    assert!(!copy.join(".agents/skills/signed-skill").exists());
}

#[test]
fn trust_list_shows_policies_and_remove_drops_them() {
    let ctx = TestContext::new();
    trust_identity(&ctx, IDENTITY, false);
    // Policies are the user's: no project is needed to set one.
    ctx.ok_in(
        ctx.root(),
        &[
            "trust",
            "github:NVIDIA/skills",
            "--oms-root",
            fixture("ca.pem").to_str().unwrap(),
        ],
    );
    let out = ctx.ok(&["trust", "--list"]);
    assert!(out.stdout.contains("acme (your policy):"), "{}", out.stdout);
    assert!(out.stdout.contains(IDENTITY), "{}", out.stdout);
    assert!(
        out.stdout.contains("github:NVIDIA/skills (your policy):"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("OMS certificates of root"),
        "{}",
        out.stdout
    );

    // Any other spelling of the repository names the same policy.
    ctx.ok(&["trust", "https://github.com/nvidia/skills.git", "--remove"]);
    let out = ctx.ok(&["trust", "--list", "--json"]);
    let list: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(list["policies"].as_array().unwrap().len(), 1, "{list}");
}

#[test]
fn a_signer_change_on_update_names_both_signers_until_trust_replace_accepts_it() {
    const CHANGED: &str =
        "https://github.com/acme/skills/.github/workflows/other.yml@refs/heads/main";
    let ctx = TestContext::new();
    let server = sigstore_index(&ctx);
    let app = new_project(&ctx, Some(&server.url()));
    let root = fixture("trusted_root.json");
    // A policy any workflow of the repository satisfies.
    ctx.ok(&[
        "trust",
        "acme",
        "--sigstore-identity-regexp",
        r"https://github\.com/acme/skills/\.github/workflows/.*",
        "--sigstore-issuer",
        ISSUER,
        "--trusted-root",
        root.to_str().unwrap(),
    ]);
    ctx.ok_in(&app, &["add", "acme/signed-skill"]);

    // 1.1.0 is signed by another workflow: the policy lets it in, the pin
    // does not.
    ctx.ok(&[
        "publish",
        ctx.root()
            .join("signed-skill-1.0.0.skill")
            .to_str()
            .unwrap(),
        "--version",
        "1.1.0",
        "--index",
        ctx.root().join("index").to_str().unwrap(),
        "--org",
        "acme",
        "--sigstore-bundle",
        fixture("signed-skill.other-identity.sigstore.json")
            .to_str()
            .unwrap(),
    ]);
    let out = ctx.fails_in(&app, &["update"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: acme/signed-skill v1.1.0: skills.lock pins its signer to https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main (issuer https://token.actions.githubusercontent.com), but it is now signed by https://github.com/acme/skills/.github/workflows/other.yml@refs/heads/main (issuer https://token.actions.githubusercontent.com)
    hint: nothing was installed; if the source really changed its signer, accept it with `skillpkg trust acme --sigstore-identity https://github.com/acme/skills/.github/workflows/other.yml@refs/heads/main --sigstore-issuer https://token.actions.githubusercontent.com --trusted-root FILE --replace`, then install again
    ");
    assert!(
        out.stderr
            .contains(&format!("skills.lock pins its signer to {IDENTITY}"))
            && out
                .stderr
                .contains(&format!("but it is now signed by {CHANGED}"))
            && out
                .stderr
                .contains("skillpkg trust acme --sigstore-identity"),
        "{}",
        out.stderr
    );
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(
        lock.contains("version = \"1.0.0\""),
        "nothing moved: {lock}"
    );

    let out = ctx.ok_in(
        &app,
        &[
            "trust",
            "acme",
            "--sigstore-identity",
            CHANGED,
            "--sigstore-issuer",
            ISSUER,
            "--trusted-root",
            root.to_str().unwrap(),
            "--replace",
        ],
    );
    assert!(
        out.stderr
            .contains("Unpinned the signer of acme/signed-skill"),
        "{}",
        out.stderr
    );
    ctx.ok_in(&app, &["update"]);
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(
        lock.contains("version = \"1.1.0\"") && lock.contains(&format!("identity = \"{CHANGED}\"")),
        "{lock}"
    );
}

#[test]
fn a_project_adds_requirements_to_the_users_policy_and_never_relaxes_it() {
    let ctx = TestContext::new();
    let server = sigstore_index(&ctx);
    let app = new_project(&ctx, Some(&server.url()));
    trust_identity(&ctx, IDENTITY, false);
    std::fs::copy(fixture("trusted_root.json"), app.join("trusted_root.json")).unwrap();
    let manifest = app.join("skills.toml");
    let original = std::fs::read_to_string(&manifest).unwrap();

    // The project requires another identity as well: both must hold.
    std::fs::write(
        &manifest,
        format!(
            "{original}\n[signers]\nacme = {{ sigstore-identity = {OTHER_IDENTITY:?}, sigstore-issuer = {ISSUER:?}, trusted-root = \"trusted_root.json\" }}\n"
        ),
    )
    .unwrap();
    let out = ctx.ok_in(&app, &["trust", "--list"]);
    assert!(
        out.stdout.contains("acme (skills.toml requires):"),
        "{}",
        out.stdout
    );
    let out = ctx.fails_in(&app, &["add", "acme/signed-skill"]);
    assert!(
        out.stderr
            .contains("is refused by your signer policy for acme")
            && out.stderr.contains(OTHER_IDENTITY),
        "{}",
        out.stderr
    );

    // A root file outside the project is not read.
    std::fs::write(
        &manifest,
        format!("{original}\n[signers]\nacme = {{ oms-root = \"../index/config.json\" }}\n"),
    )
    .unwrap();
    let out = ctx.fails_in(&app, &["add", "acme/signed-skill"]);
    assert!(
        out.stderr.contains("[signers] \"acme\"") && out.stderr.contains("outside"),
        "{}",
        out.stderr
    );

    // The project's own requirement met, the user's policy met: installed.
    std::fs::write(
        &manifest,
        format!(
            "{original}\n[signers]\nacme = {{ sigstore-identity = {IDENTITY:?}, sigstore-issuer = {ISSUER:?}, trusted-root = \"trusted_root.json\" }}\n"
        ),
    )
    .unwrap();
    ctx.ok_in(&app, &["add", "acme/signed-skill"]);
}

#[test]
fn verify_re_checks_the_pinned_sigstore_signature_offline() {
    let ctx = TestContext::new();
    let _server = sigstore_index(&ctx);
    let index = ctx.root().join("index");
    let app = new_project(&ctx, Some(index.to_str().unwrap()));
    trust_identity(&ctx, IDENTITY, false);
    ctx.ok_in(&app, &["add", "acme/signed-skill"]);
    let out = ctx.ok_in(&app, &["verify", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(report[0]["status"], "ok", "{report}");
    assert!(report[0].get("signature").is_none(), "{report}");

    // The index's entry now carries another bundle: the files are as
    // locked, the signature is not.
    let entry = index.join("index/acme/signed-skill");
    let line = std::fs::read_to_string(&entry).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    json["sigstore"] = serde_json::from_str(
        &std::fs::read_to_string(fixture("signed-skill.other-identity.sigstore.json")).unwrap(),
    )
    .unwrap();
    std::fs::write(&entry, format!("{json}\n")).unwrap();
    let out = ctx.fails_in(&app, &["verify"]);
    assert!(
        out.stdout
            .contains("acme/signed-skill@1.0.0: bad-signature")
            && out.stdout.contains("signature:"),
        "{}",
        out.stdout
    );
}

#[test]
fn verify_reads_no_index_that_only_the_lock_names() {
    let ctx = TestContext::new();
    let _server = sigstore_index(&ctx);
    let index = ctx.root().join("index");
    let app = new_project(&ctx, Some(index.to_str().unwrap()));
    trust_identity(&ctx, IDENTITY, false);
    ctx.ok_in(&app, &["add", "acme/signed-skill"]);
    // A cloned lock names another index (here: another spelling of a
    // folder outside the project) for the same entry.
    let lock_path = app.join("skills.lock");
    let lock = std::fs::read_to_string(&lock_path).unwrap();
    let elsewhere = format!("{}/./", index.display());
    std::fs::write(
        &lock_path,
        lock.replace(
            &format!("registry+{}", index.display()),
            &format!("registry+{elsewhere}"),
        ),
    )
    .unwrap();
    let out = ctx.ok_in(&app, &["verify", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        report[0]["signature"], "not re-checked: skills.toml names no index it came from",
        "{report}"
    );
}

/// An org policy (org `corp`, in the same index) whose `signers` are
/// `signers`, signed with `keys`: `index policy` with serial `serial`.
fn corp_policy(ctx: &TestContext, keys: &crate::common::Keys, serial: u64, signers: &str) {
    let index = ctx.root().join("index");
    let file = ctx.root().join("policy.toml");
    std::fs::write(
        &file,
        format!("org = \"corp\"\nserial = {serial}\nsigners = [{signers}]\n"),
    )
    .unwrap();
    ctx.ok(&[
        "index",
        "policy",
        index.to_str().unwrap(),
        file.to_str().unwrap(),
        "--key",
        keys.secret_file.to_str().unwrap(),
    ]);
}

#[test]
fn an_org_policy_naming_a_sigstore_identity_admits_that_signer_and_no_other() {
    let ctx = TestContext::new();
    let server = sigstore_index(&ctx);
    let keys = ctx.keygen("corp-keys");
    let index = ctx.root().join("index");
    ctx.ok(&[
        "index",
        "init",
        index.to_str().unwrap(),
        "--org",
        "corp",
        "--key",
        keys.public_file.to_str().unwrap(),
    ]);
    trust_identity(&ctx, IDENTITY, false);
    let signer = |identity: &str| {
        format!("{{ sigstore-identity = {identity:?}, sigstore-issuer = {ISSUER:?} }}")
    };

    corp_policy(&ctx, &keys, 1, &signer(IDENTITY));
    let app = new_project(&ctx, Some(&server.url()));
    ctx.ok_in(&app, &["add", "acme/signed-skill"]);

    // The org names another identity (and a pattern that only looks
    // like ours: patterns are anchored).
    let pattern = "{ sigstore-identity = \"https://github.com/acme/skills/\", sigstore-issuer = \"https://token.actions.githubusercontent.com\", regexp = true }";
    corp_policy(
        &ctx,
        &keys,
        2,
        &format!("{}, {pattern}", signer(OTHER_IDENTITY)),
    );
    std::fs::remove_dir_all(app.join(".agents")).unwrap();
    let out = ctx.fails_in(&app, &["install"]);
    assert!(
        out.stderr.contains("acme/signed-skill from")
            && out
                .stderr
                .contains("is refused by the policy of org 'corp'")
            && out.stderr.contains(&format!("it is signed by {IDENTITY}")),
        "{}",
        out.stderr
    );
    assert!(!app.join(".agents/skills/signed-skill").exists());

    // A pattern that covers the identity lets it in again.
    corp_policy(
        &ctx,
        &keys,
        3,
        "{ sigstore-identity = \"https://github.com/acme/skills/.+\", sigstore-issuer = \"https://token.actions.githubusercontent.com\", regexp = true }",
    );
    ctx.ok_in(&app, &["install"]);
}
