//! An org's signed `policy.toml` in its index: projects whose default
//! registry is that index follow it, pin it on first use, and refuse an
//! index that drops it or serves one the org did not sign.

use std::path::{Path, PathBuf};

use crate::common::{git, run, write_skill};
use crate::publish::Publisher;

const POLICY: &str = "# The acme org's rules for its members' projects.\norg = \"acme\"\nserial = 1\nrequire-signatures = true\nlowest-channel = \"testing\"\nunwaivable = [\"remote-code-run\"]\n";

/// Signs `text` as the index's policy with `key` (`index policy`).
pub(crate) fn sign_policy(
    p: &Publisher,
    index: &Path,
    text: &str,
    key: &Path,
) -> crate::common::Output {
    let file = p.ctx.root().join("policy.toml");
    std::fs::write(&file, text).unwrap();
    let mut cmd = p.ctx.command();
    cmd.args(["index", "policy"])
        .arg(index)
        .arg(&file)
        .arg("--key")
        .arg(key);
    run(&mut cmd)
}

/// An index with a signed policy and a signed package, and a project
/// whose default registry it is, with the package installed.
fn setup(p: &Publisher) -> (PathBuf, PathBuf) {
    let index = p.init_index("index", false);
    let out = sign_policy(p, &index, POLICY, &p.keys.secret_file).assert_ok();
    assert!(
        out.stderr
            .contains("Signed the policy of org 'acme' (sha256:"),
        "{}",
        out.stderr
    );
    let hello = p.skill("hello", "");
    p.publish(&hello, index.to_str().unwrap(), &[]).assert_ok();
    let app = p.ctx.root().join("app");
    p.ctx.ok(&["init", app.to_str().unwrap()]);
    p.ctx.ok_in(
        &app,
        &["registry", "add", "--default", index.to_str().unwrap()],
    );
    let out = p.ctx.ok_in(&app, &["add", "acme/hello"]);
    assert_eq!(out.stderr.trim(), "Installed acme/hello v1.0.0");
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(lock.contains("[policies."), "{lock}");
    (index, app)
}

#[test]
fn a_signed_policy_refuses_an_unsigned_source_naming_the_policy() {
    let p = Publisher::new();
    let (_index, app) = setup(&p);
    let repo = p.ctx.root().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    write_skill(
        &repo,
        "lint",
        "---\nname: lint\ndescription: Lints. Use when linting.\n---\nBody.\n",
    );
    git(&repo, &["add", "-A"]);
    git(
        &repo,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "-m",
            "lint",
        ],
    );
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    let url = format!("file://{}", repo.display());
    let out = p.ctx.fails_in(&app, &["add", "--git", &url]);
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @"
    error: lint from file://[TEMP]/repo is refused by the policy of org 'acme' ([TEMP]/index/policy.toml): it is not signed, and every skill must be
    hint: the org's policy applies to projects whose default registry is its index; ask the org, or use another default registry
    ");
    assert_eq!(
        std::fs::read_to_string(app.join("skills.toml")).unwrap(),
        manifest,
        "nothing is written"
    );
    assert!(!app.join(".agents/skills/lint").exists());

    // Nor may the project ask for a channel below the policy's lowest,
    // not even to look at it.
    let out = p.ctx.fails_in(&app, &["outdated", "--channel", "draft"]);
    assert!(
        out.stderr.contains(
            "error: the draft channel for acme/hello is refused by the policy of org 'acme'"
        ),
        "{}",
        out.stderr
    );
    let out = p
        .ctx
        .fails_in(&app, &["add", "acme/hello", "--channel", "draft"]);
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @"
    error: the draft channel for acme/hello is refused by the policy of org 'acme' ([TEMP]/index/policy.toml): members may use the testing channel and above
    hint: the org's policy applies to projects whose default registry is its index; ask the org, or use another default registry
    ");
}

#[test]
fn a_policy_with_a_bad_signature_or_dropped_is_refused_as_a_whole() {
    let p = Publisher::new();
    let (index, app) = setup(&p);
    let policy = index.join("policy.toml");

    // The index's host loosens the policy without the org's key.
    std::fs::write(
        &policy,
        POLICY.replace("require-signatures = true", "require-signatures = false"),
    )
    .unwrap();
    let out = p.ctx.fails_in(&app, &["install"]);
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @"
    error: the policy [TEMP]/index/policy.toml is refused as a whole: its signature is not by a key of org 'acme'
    hint: the index's copy was altered, or written without the org's key: do not use the index until its maintainers sign it (`skillpkg index policy`)
    ");

    // Or signs it with a key of its own, which it adds to the index's
    // config: the project pinned the org's keys with the policy.
    let intruder = p.ctx.keygen("intruder");
    let mut cmd = p.ctx.command();
    cmd.args(["index", "init"])
        .arg(&index)
        .args(["--org", "acme", "--key"])
        .arg(&intruder.public_file);
    run(&mut cmd).assert_ok();
    sign_policy(
        &p,
        &index,
        &POLICY.replace("require-signatures = true", "require-signatures = false"),
        &intruder.secret_file,
    )
    .assert_ok();
    let out = p.ctx.fails_in(&app, &["install"]);
    assert!(
        out.stderr
            .contains("is refused as a whole: its signature is not by a key of org 'acme'"),
        "{}",
        out.stderr
    );

    // Or drops it.
    std::fs::remove_file(&policy).unwrap();
    std::fs::remove_file(index.join("policy.toml.minisig")).unwrap();
    let out = p.ctx.fails_in(&app, &["install"]);
    let shown = p.ctx.redact(&out.stderr);
    assert!(
        shown.contains("error: the index [TEMP]/index no longer serves the signed policy.toml that skills.lock pins (org 'acme', sha256:"),
        "{shown}"
    );

    // Or hands the project to another org's policy, which it signs with
    // a key it lists for that org.
    let mut cmd = p.ctx.command();
    cmd.args(["index", "init"])
        .arg(&index)
        .args(["--org", "hostorg", "--key"])
        .arg(&intruder.public_file);
    run(&mut cmd).assert_ok();
    sign_policy(
        &p,
        &index,
        "org = \"hostorg\"\nserial = 9\n",
        &intruder.secret_file,
    )
    .assert_ok();
    let out = p.ctx.fails_in(&app, &["install"]);
    let shown = p.ctx.redact(&out.stderr);
    assert!(
        shown.contains(
            "names org 'hostorg', but skills.lock pins org 'acme''s policy for [TEMP]/index"
        ),
        "{shown}"
    );

    // Or serves an older policy the org once signed (serial 0).
    sign_policy(&p, &index, "org = \"acme\"\n", &p.keys.secret_file).assert_ok();
    let out = p.ctx.fails_in(&app, &["install"]);
    assert!(
        out.stderr
            .contains("has serial 0, and skills.lock pins org 'acme''s policy with serial 1"),
        "{}",
        out.stderr
    );

    // The org signs a new policy with a higher serial: it replaces the pin.
    let newer = POLICY
        .replace("serial = 1", "serial = 2")
        .replace("testing", "published");
    let out = sign_policy(&p, &index, &newer, &p.keys.secret_file).assert_ok();
    assert!(out.stderr.contains("Signed"), "{}", out.stderr);
    p.ctx.ok_in(&app, &["install"]);
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(lock.contains("serial = 2"), "{lock}");
}

#[test]
fn a_locked_version_below_the_lowest_channel_is_refused_naming_the_rule() {
    let p = Publisher::new();
    let index = p.init_index("index", false);
    let hello = p.skill("hello", "");
    let at = index.to_str().unwrap();
    p.publish(&hello, at, &[]).assert_ok();
    p.publish(&hello, at, &["--version", "1.1.0", "--channel", "draft"])
        .assert_ok();
    let app = p.ctx.root().join("app");
    p.ctx.ok(&["init", app.to_str().unwrap()]);
    p.ctx.ok_in(&app, &["registry", "add", "--default", at]);
    p.ctx
        .ok_in(&app, &["add", "acme/hello@=1.1.0", "--channel", "draft"]);
    // The project stops asking for drafts; its lock still pins one. Then
    // the org sets its policy.
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    let plain = manifest.replace(", channel = \"draft\"", "");
    assert_ne!(plain, manifest);
    std::fs::write(app.join("skills.toml"), plain).unwrap();
    sign_policy(
        &p,
        &index,
        "org = \"acme\"\nserial = 1\nlowest-channel = \"testing\"\n",
        &p.keys.secret_file,
    )
    .assert_ok();
    let out = p.ctx.fails_in(&app, &["install"]);
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @"
    error: acme/hello 1.1.0, which skills.lock pins in the draft channel, is refused by the policy of org 'acme' ([TEMP]/index/policy.toml): members may use the testing channel and above (lowest-channel)
    hint: the org's policy applies to projects whose default registry is its index; ask the org, or use another default registry
    hint: move to a version the org published: `skillpkg update acme/hello`
    ");
    assert!(
        app.join(".agents/skills/hello").exists(),
        "the installed tree is left as it was"
    );
}
