//! Index metadata that cannot be replayed: channel records and policies
//! name the index they were signed for and their sequence, the machine
//! keeps the highest it accepted, and `expires` stops new versions from a
//! stale index while the lock still installs.

use std::path::{Path, PathBuf};

use crate::common::{Output, run};
use crate::publish::{Publisher, entry_lines};

/// `skillpkg promote SPEC --to TO --index INDEX --key <publisher's>`.
fn promote(p: &Publisher, index: &Path, spec: &str, to: &str) -> Output {
    let mut cmd = p.ctx.command();
    cmd.args(["promote", spec, "--to", to, "--index"])
        .arg(index)
        .arg("--key")
        .arg(&p.keys.secret_file);
    run(&mut cmd)
}

/// A new project whose default registry is `index`.
fn project(p: &Publisher, index: &Path, name: &str) -> PathBuf {
    let dir = p.ctx.root().join(name);
    p.ctx.ok(&["init", dir.to_str().unwrap()]);
    p.ctx.ok_in(
        &dir,
        &["registry", "add", "--default", index.to_str().unwrap()],
    );
    dir
}

/// The entry file of `acme/hello` in the folder index `index`.
fn entry_file(index: &Path) -> PathBuf {
    index.join("index/acme/hello")
}

/// `index` with `hello` 1.0.0 published and 1.1.0 published by promotion
/// (a testing release moved up: its first record, sequence 1).
fn released(p: &Publisher, name: &str) -> PathBuf {
    let index = p.init_index(name, false);
    let hello = p.skill("hello", "");
    let at = index.to_str().unwrap();
    p.publish(&hello, at, &[]).assert_ok();
    p.publish(&hello, at, &["--version", "1.1.0", "--channel", "testing"])
        .assert_ok();
    promote(p, &index, "acme/hello@1.1.0", "published").assert_ok();
    index
}

#[test]
fn records_name_their_index_and_sequence() {
    let p = Publisher::new();
    let index = released(&p, "index");
    promote(&p, &index, "acme/hello@1.1.0", "draft").assert_ok();
    let entry = &entry_lines(&index, "acme/hello")[1];
    let records = entry["channels"].as_array().unwrap();
    let identity = format!("file://{}", index.display());
    assert_eq!(records[0]["index"], identity.as_str());
    assert_eq!(records[0]["seq"], 1);
    assert_eq!(records[1]["seq"], 2);
    let config: serde_json::Value =
        serde_json::from_slice(&std::fs::read(index.join("config.json")).unwrap()).unwrap();
    assert_eq!(config["identity"], identity.as_str());
}

#[test]
fn a_demoted_version_served_again_as_published_is_a_replay() {
    let p = Publisher::new();
    let index = released(&p, "index");
    let ctx = &p.ctx;
    let app = project(&p, &index, "app");
    let out = ctx.ok_in(&app, &["add", "acme/hello@^1"]);
    assert!(out.stderr.contains("acme/hello v1.1.0"), "{}", out.stderr);

    // The org pulls 1.1.0 back to draft; this machine sees the demotion
    // while resolving, though it chooses 1.0.0.
    let published = std::fs::read(entry_file(&index)).unwrap();
    promote(&p, &index, "acme/hello@1.1.0", "draft").assert_ok();
    let demoted = std::fs::read(entry_file(&index)).unwrap();
    let other = project(&p, &index, "other");
    let out = ctx.ok_in(&other, &["add", "acme/hello@^1"]);
    assert!(out.stderr.contains("acme/hello v1.0.0"), "{}", out.stderr);

    // The index host drops the demotion: 1.1.0 looks published again.
    std::fs::write(entry_file(&index), &published).unwrap();
    let third = project(&p, &index, "third");
    let out = ctx.fails_in(&third, &["add", "acme/hello@^1"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: the channel record of acme/hello@1.1.0 from [TEMP]/index has sequence 1, but this machine accepted sequence 2 for it
    hint: the index serves a record its org signed earlier (a replay): do not install from it until its maintainers serve the org's newest records
    ");
    assert!(!third.join(".agents/skills/hello").exists());

    // Or appends the earlier record after the demotion.
    let mut lines: Vec<serde_json::Value> = String::from_utf8(demoted)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let first = lines[1]["channels"][0].clone();
    lines[1]["channels"].as_array_mut().unwrap().push(first);
    lines[1]["channel"] = "published".into();
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(entry_file(&index), text).unwrap();
    let out = ctx.fails_in(&third, &["add", "acme/hello@^1"]);
    assert!(
        out.stderr
            .contains("are out of order: sequence 1 follows sequence 2"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_record_copied_from_another_index_of_the_org_is_refused() {
    let p = Publisher::new();
    let staging = released(&p, "staging");
    // Production holds the same archive as a testing version, unpromoted.
    let production = p.init_index("production", false);
    let hello = p.skill("hello", "");
    let at = production.to_str().unwrap();
    p.publish(&hello, at, &[]).assert_ok();
    p.publish(&hello, at, &["--version", "1.1.0", "--channel", "testing"])
        .assert_ok();
    // The host serves staging's promoted entry in production.
    std::fs::copy(entry_file(&staging), entry_file(&production)).unwrap();
    let app = project(&p, &production, "app");
    let out = p.ctx.fails_in(&app, &["add", "acme/hello@^1"]);
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @"
    error: the channel record of acme/hello@1.1.0 from [TEMP]/production was signed for the index file://[TEMP]/staging, not for this one (file://[TEMP]/production)
    hint: the index serves a record its org signed for another index: do not install from it until its maintainers fix it
    ");
}

/// Signs `text` as the policy of `index` with the publisher's key.
fn sign_policy(p: &Publisher, index: &Path, text: &str) -> Output {
    crate::org_policy::sign_policy(p, index, text, &p.keys.secret_file)
}

fn policy(index: &Path, serial: u64, extra: &str) -> String {
    format!(
        "org = \"acme\"\nserial = {serial}\nindex = \"file://{}\"\n{extra}",
        index.display()
    )
}

/// Copies `from`'s policy files and announcement into `to`, as a host
/// holding both could.
fn serve_policy_of(from: &Path, to: &Path) {
    for name in ["policy.toml", "policy.toml.minisig"] {
        std::fs::copy(from.join(name), to.join(name)).unwrap();
    }
    let read = |dir: &Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(dir.join("config.json")).unwrap()).unwrap()
    };
    let mut config = read(to);
    config["policy"] = read(from)["policy"].clone();
    std::fs::write(to.join("config.json"), config.to_string()).unwrap();
}

#[test]
fn a_policy_of_another_index_or_with_a_lower_serial_is_refused_naming_both() {
    let p = Publisher::new();
    let staging = released(&p, "staging");
    let production = released(&p, "production");
    sign_policy(&p, &staging, &policy(&staging, 9, "")).assert_ok();
    sign_policy(&p, &production, &policy(&production, 1, "")).assert_ok();
    let app = project(&p, &production, "app");
    p.ctx.ok_in(&app, &["add", "acme/hello"]);
    let old_policy = p.ctx.root().join("old-policy");
    std::fs::create_dir_all(&old_policy).unwrap();
    std::fs::copy(
        production.join("config.json"),
        old_policy.join("config.json"),
    )
    .unwrap();
    serve_policy_of(&production, &old_policy);

    // Staging's policy, with its higher serial, served in production.
    serve_policy_of(&staging, &production);
    let out = p.ctx.fails_in(&app, &["install"]);
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @"
    error: [TEMP]/production/policy.toml was signed for the index file://[TEMP]/staging, not for this one (file://[TEMP]/production)
    hint: the index serves a policy its org signed for another index (a staging policy in production, say): do not install from it until its maintainers fix it
    ");

    // A newer policy, then the older one served again: the lock names
    // both serials, and so does a new project on this machine.
    sign_policy(&p, &production, &policy(&production, 2, "")).assert_ok();
    p.ctx.ok_in(&app, &["install"]);
    serve_policy_of(&old_policy, &production);
    let out = p.ctx.fails_in(&app, &["install"]);
    assert!(
        out.stderr
            .contains("has serial 1, and skills.lock pins org 'acme''s policy with serial 2"),
        "{}",
        out.stderr
    );
    let fresh = project(&p, &production, "fresh");
    let out = p.ctx.fails_in(&fresh, &["add", "acme/hello"]);
    assert!(
        out.stderr
            .contains("has serial 1, but this machine accepted serial 2 from"),
        "{}",
        out.stderr
    );
}

#[test]
fn an_expired_policy_refuses_new_versions_but_installs_the_lock_with_a_warning() {
    let p = Publisher::new();
    let index = released(&p, "index");
    let app = project(&p, &index, "app");
    p.ctx.ok_in(&app, &["add", "acme/hello@=1.0.0"]);
    sign_policy(
        &p,
        &index,
        &policy(&index, 1, "expires = 2020-01-31T00:00:00Z\n"),
    )
    .assert_ok();

    let out = p.ctx.ok_in(&app, &["install", "--locked"]);
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @"warning: the policy of org 'acme' ([TEMP]/index/policy.toml) expired at 2020-01-31T00:00:00Z; installing only what skills.lock pins from [TEMP]/index");

    // A new version, by `add` or by `update`, is not taken.
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    std::fs::write(app.join("skills.toml"), manifest.replace("=1.0.0", "^1")).unwrap();
    let out = p.ctx.fails_in(&app, &["update"]);
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @"
    error: acme/hello 1.1.0 is not taken from [TEMP]/index: the policy of org 'acme' ([TEMP]/index/policy.toml) expired at 2020-01-31T00:00:00Z: the org no longer vouches for it, so no new version is taken from the index
    hint: the index is stale or held back: ask its org to sign it anew; `skillpkg install --locked` still installs exactly what skills.lock pins
    ");
    let other = project(&p, &index, "other");
    let out = p.ctx.fails_in(&other, &["add", "acme/hello"]);
    assert!(out.stderr.contains("is not taken from"), "{}", out.stderr);
}

#[test]
fn promote_refuses_an_expiry_in_the_past_and_signs_a_future_one() {
    let p = Publisher::new();
    let index = released(&p, "index");
    let mut cmd = p.ctx.command();
    cmd.args(["promote", "acme/hello@1.1.0", "--to", "testing", "--index"])
        .arg(&index)
        .arg("--key")
        .arg(&p.keys.secret_file)
        .args(["--expires", "2020-01-01T00:00:00Z"]);
    let out = run(&mut cmd).assert_fails();
    assert!(out.stderr.contains("is in the past"), "{}", out.stderr);
    let mut cmd = p.ctx.command();
    cmd.args(["promote", "acme/hello@1.1.0", "--to", "testing", "--index"])
        .arg(&index)
        .arg("--key")
        .arg(&p.keys.secret_file)
        .args(["--expires", "30d"]);
    run(&mut cmd).assert_ok();
    let entry = &entry_lines(&index, "acme/hello")[1];
    let record = &entry["channels"][1];
    assert_eq!(record["seq"], 2);
    assert!(
        record["expires"].as_str().unwrap().ends_with('Z'),
        "{record}"
    );
}

#[test]
fn offline_with_no_cached_policy_says_it_could_not_be_fetched() {
    let p = Publisher::new();
    let index = p.ctx.root().join("www");
    std::fs::create_dir_all(&index).unwrap();
    let server = crate::server::StaticServer::start(&index);
    // Named as projects reach it, which the records and policy are
    // signed for.
    let url = server.url();
    let mut cmd = p.ctx.command();
    cmd.args(["index", "init"])
        .arg(&index)
        .args(["--org", "acme", "--key"])
        .arg(&p.keys.public_file)
        .args(["--identity", &url]);
    run(&mut cmd).assert_ok();
    let hello = p.skill("hello", "");
    p.publish(&hello, index.to_str().unwrap(), &[]).assert_ok();
    let text = format!("org = \"acme\"\nserial = 1\nindex = \"{url}\"\n");
    sign_policy(&p, &index, &text).assert_ok();
    let app = p.ctx.root().join("app");
    p.ctx.ok(&["init", app.to_str().unwrap()]);
    p.ctx.ok_in(&app, &["registry", "add", "--default", &url]);
    p.ctx.ok_in(&app, &["add", "acme/hello"]);

    // The cache loses its copy of the policy, and the machine is offline.
    let cached: Vec<_> = walkdir::WalkDir::new(p.ctx.root().join("cache"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() == "policy.toml")
        .collect();
    assert!(!cached.is_empty(), "the policy was cached");
    for file in cached {
        std::fs::remove_file(file.path()).unwrap();
    }
    let out = p.ctx.fails_in(&app, &["install", "--offline"]);
    insta::assert_snapshot!(server.redact(&out.stderr), @"
    error: the policy of the index [SERVER]/ could not be fetched: skillpkg is offline, and the cache holds no copy of it
    hint: run the command once online (without --offline or --frozen), so that the org's policy is fetched and kept in the cache
    ");
}
