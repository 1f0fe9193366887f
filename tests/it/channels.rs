//! Release channels: `publish --channel`, `promote`, and resolution that
//! takes published versions unless a project asks for more, on folder,
//! git and OCI indexes, with the index host unable to promote a draft.

use std::path::{Path, PathBuf};

use crate::common::{Output, run};
use crate::publish::Publisher;

/// `skillpkg promote SPEC --to TO --index INDEX --key <publisher's> <extra>`.
fn promote(p: &Publisher, index: &str, spec: &str, to: &str, extra: &[&str]) -> Output {
    let mut cmd = p.ctx.command();
    cmd.args(["promote", spec, "--to", to, "--index", index, "--key"])
        .arg(&p.keys.secret_file)
        .args(extra);
    run(&mut cmd)
}

/// A project whose registry `corp` is `index`.
fn project(p: &Publisher, index: &str, name: &str) -> PathBuf {
    let dir = p.ctx.root().join(name);
    p.ctx.ok(&["init", dir.to_str().unwrap()]);
    p.ctx.ok_in(&dir, &["registry", "add", "corp", index]);
    dir
}

/// Publishes `hello` at 1.0.0 (published), 1.1.0 (testing) and 1.2.0
/// (draft) to `index`.
fn publish_three(p: &Publisher, index: &str) {
    let hello = p.skill("hello", "");
    p.publish(&hello, index, &[]).assert_ok();
    let out = p
        .publish(
            &hello,
            index,
            &["--version", "1.1.0", "--channel", "testing"],
        )
        .assert_ok();
    assert!(
        out.stderr.contains("Published acme/hello@1.1.0"),
        "{}",
        out.stderr
    );
    p.publish(&hello, index, &["--version", "1.2.0", "--channel", "draft"])
        .assert_ok();
}

fn installed_version(app: &Path) -> String {
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    let lock: toml::Value = toml::from_str(&lock).unwrap();
    lock["skill"][0]["version"].as_str().unwrap().to_string()
}

#[test]
fn resolution_takes_published_unless_a_project_asks_for_a_lower_channel() {
    let p = Publisher::new();
    let index = p.init_index("index", false);
    let index = index.to_str().unwrap();
    publish_three(&p, index);
    let ctx = &p.ctx;

    // `^1` picks the newest published version; testing and draft
    // versions are not there for `add`, `outdated` or `update`.
    let app = project(&p, index, "app");
    let out = ctx.ok_in(&app, &["add", "acme/hello@^1", "--registry", "corp"]);
    insta::assert_snapshot!(out.stderr, @"   Installed acme/hello v1.0.0");
    let out = ctx.ok_in(&app, &["outdated", "--json"]);
    assert_eq!(out.stdout.trim(), "[]");
    let out = ctx.ok_in(&app, &["update"]);
    assert!(!out.stderr.contains("1.1.0") && !out.stderr.contains("1.2.0"));
    assert_eq!(installed_version(&app), "1.0.0");

    // Asked for, the testing channel shows its version, not the draft.
    let out = ctx.ok_in(&app, &["outdated", "--channel", "testing"]);
    assert!(out.stdout.contains("1.1.0"), "{}", out.stdout);
    assert!(!out.stdout.contains("1.2.0"), "{}", out.stdout);

    // `add --channel testing` takes the newest testing version and
    // records the channel in skills.toml, where later commands read it.
    let beta = project(&p, index, "beta");
    let out = ctx.ok_in(
        &beta,
        &[
            "add",
            "acme/hello@^1",
            "--registry",
            "corp",
            "--channel",
            "testing",
        ],
    );
    insta::assert_snapshot!(out.stderr, @"   Installed acme/hello v1.1.0");
    let manifest = std::fs::read_to_string(beta.join("skills.toml")).unwrap();
    assert!(
        manifest.contains(
            r#""acme/hello" = { version = "^1", registry = "corp", channel = "testing" }"#
        ),
        "{manifest}"
    );
    ctx.ok_in(&beta, &["install", "--locked"]);

    // Promoted, the draft reaches everyone through `update`.
    let out = promote(&p, index, "acme/hello@1.2.0", "published", &[]).assert_ok();
    insta::assert_snapshot!(out.stderr, @"    Promoted acme/hello@1.2.0 from draft to published");
    let out = promote(&p, index, "acme/hello@1.2.0", "published", &[]).assert_ok();
    insta::assert_snapshot!(out.stderr, @"warning: acme/hello@1.2.0 is published already; nothing changed");
    let out = ctx.ok_in(&app, &["update"]);
    assert!(out.stderr.contains("v1.0.0 → v1.2.0"), "{}", out.stderr);

    // The entry keeps its history: the channel it was published in is in
    // its signature, each move a record.
    let entries = crate::publish::entry_lines(Path::new(index), "acme/hello");
    assert_eq!(entries[2]["channel"], "published");
    let records = entries[2]["channels"].as_array().unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["channel"], "published");
    assert!(
        entries[2]["sig"]
            .as_str()
            .unwrap()
            .contains(" channel=draft\n"),
        "{}",
        entries[2]["sig"]
    );
}

/// Whoever can write the index cannot make a draft a release: not by
/// saying so in the entry, not by dropping its channel fields, not by
/// editing the signature's comment, not with a record signed by another
/// key.
#[test]
fn the_index_host_cannot_promote_a_draft() {
    let p = Publisher::new();
    let index_dir = p.init_index("index", false);
    let index = index_dir.to_str().unwrap();
    let hello = p.skill("hello", "");
    p.publish(&hello, index, &[]).assert_ok();
    p.publish(&hello, index, &["--version", "2.0.0", "--channel", "draft"])
        .assert_ok();
    let entry_file = index_dir.join("index/acme/hello");
    let original = std::fs::read_to_string(&entry_file).unwrap();
    let mut lines: Vec<serde_json::Value> = original
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();

    // Another key, which the host holds, signs a "published" record.
    let intruder = p.ctx.keygen("intruder");
    let draft = lines[1].clone();
    let forged_record = {
        let cksum = draft["cksum"].as_str().unwrap();
        let text = format!("skillpkg acme/hello@2.0.0 sha256:{cksum} channel=published");
        let key = skillpkg::store::signing::SigningKey::load(&intruder.secret_file).unwrap();
        serde_json::json!({"channel": "published", "sig": key.sign(text.as_bytes(), &text).unwrap()})
    };
    let tampered: Vec<(&str, serde_json::Value)> = vec![
        ("says published", {
            let mut e = draft.clone();
            e["channel"] = "published".into();
            e
        }),
        ("drops its channel", {
            let mut e = draft.clone();
            e.as_object_mut().unwrap().remove("channel");
            e
        }),
        ("edits the signature's comment", {
            let mut e = draft.clone();
            let sig = e["sig"]
                .as_str()
                .unwrap()
                .replace("channel=draft", "channel=published");
            e["sig"] = sig.into();
            e.as_object_mut().unwrap().remove("channel");
            e
        }),
        ("adds a record signed by another key", {
            let mut e = draft.clone();
            e["channel"] = "published".into();
            e["channels"] = serde_json::json!([forged_record]);
            e
        }),
    ];
    for (what, entry) in tampered {
        lines[1] = entry;
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&entry_file, text).unwrap();
        let app = project(&p, index, &format!("app-{}", what.replace(' ', "-")));
        let out = p
            .ctx
            .ok_in(&app, &["add", "acme/hello", "--registry", "corp"]);
        assert_eq!(
            out.stderr.trim(),
            "Installed acme/hello v1.0.0",
            "the host {what}"
        );
    }

    // Cutting the channel off the signature's comment, or dropping the
    // signature, leaves the draft in sight as an entry from before
    // channels: its install then fails on the signature, loudly, and the
    // draft is never installed.
    let cut = {
        let mut e = draft.clone();
        let sig = e["sig"].as_str().unwrap().replace(" channel=draft", "");
        e["sig"] = sig.into();
        e.as_object_mut().unwrap().remove("channel");
        e
    };
    let dropped = {
        let mut e = draft.clone();
        e["sig"] = "".into();
        e.as_object_mut().unwrap().remove("channel");
        e
    };
    for (what, entry, refusal) in [
        ("cuts the channel off", cut, "the signature does not verify"),
        (
            "drops the signature",
            dropped,
            "is not signed, but org 'acme' signs its packages",
        ),
    ] {
        lines[1] = entry;
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&entry_file, text).unwrap();
        let app = project(&p, index, &format!("loud-{}", what.replace(' ', "-")));
        let out = p
            .ctx
            .fails_in(&app, &["add", "acme/hello", "--registry", "corp"]);
        assert!(
            out.stderr.contains(refusal),
            "the host {what}: {}",
            out.stderr
        );
        assert!(!app.join(".agents/skills/hello").exists());
    }
}

#[test]
fn a_deprecated_version_installs_with_a_warning_naming_its_replacement() {
    let p = Publisher::new();
    let index = p.init_index("index", false);
    let index = index.to_str().unwrap();
    let hello = p.skill("hello", "");
    p.publish(&hello, index, &[]).assert_ok();
    p.publish(&hello, index, &["--version", "1.1.0"])
        .assert_ok();
    let out = promote(
        &p,
        index,
        "acme/hello@1.1.0",
        "deprecated",
        &["--replacement", "acme/greeting@^2"],
    )
    .assert_ok();
    insta::assert_snapshot!(out.stderr, @"    Promoted acme/hello@1.1.0 from published to deprecated");
    let ctx = &p.ctx;

    // A range that other versions meet takes one that is not deprecated.
    let app = project(&p, index, "app");
    let out = ctx.ok_in(&app, &["add", "acme/hello@^1", "--registry", "corp"]);
    insta::assert_snapshot!(out.stderr, @"   Installed acme/hello v1.0.0");

    // Only the deprecated version will do: it installs, with a warning.
    let out = ctx.ok_in(&app, &["add", "acme/hello@^1.1", "--registry", "corp"]);
    insta::assert_snapshot!(out.stderr, @"
    warning: acme/hello 1.1.0 is deprecated by its publisher; use acme/greeting@^2 instead
         Updated acme/hello v1.0.0 → v1.1.0
    ");

    // A replacement goes with a deprecation, and names a package.
    let out = promote(
        &p,
        index,
        "acme/hello@1.0.0",
        "testing",
        &["--replacement", "acme/greeting"],
    )
    .assert_fails();
    insta::assert_snapshot!(out.stderr, @"error: --replacement names what replaces a deprecated version; it goes with --to deprecated");
}

#[test]
fn promote_needs_a_key_of_the_org_and_a_version_of_the_index() {
    let p = Publisher::new();
    let index = p.init_index("index", false);
    let index = index.to_str().unwrap();
    let hello = p.skill("hello", "");
    p.publish(&hello, index, &["--channel", "draft"])
        .assert_ok();
    let stranger = p.ctx.keygen("stranger");
    let mut cmd = p.ctx.command();
    cmd.args([
        "promote",
        "acme/hello@1.0.0",
        "--to",
        "published",
        "--index",
        index,
        "--key",
    ])
    .arg(&stranger.secret_file);
    let out = run(&mut cmd).assert_fails();
    let shown = p
        .ctx
        .redact(&out.stderr)
        .replace(&stranger.public_key, "[KEY]");
    insta::assert_snapshot!(shown, @"
    error: the key [KEY] is not one of org 'acme''s keys in [TEMP]/index, so it cannot sign acme/hello's channel
    hint: pass one of the org's secret keys with --key; `skillpkg index init INDEX --org ORG --key PUB` adds a key
    ");
    let out = promote(&p, index, "acme/hello@9.0.0", "published", &[]).assert_fails();
    insta::assert_snapshot!(out.stderr, @"error: acme/hello@9.0.0 is not in the index");
    // Nothing moved: the draft is still out of sight.
    let app = project(&p, index, "app");
    let out = p
        .ctx
        .fails_in(&app, &["add", "acme/hello", "--registry", "corp"]);
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @"
    error: acme/hello is not in the index [TEMP]/index
    hint: no version of it is in the published channel or above; a project that asks for the testing or draft channel sees those (`--channel testing`, or `channel = \"testing\"` on it in skills.toml)
    ");
}

#[test]
fn channels_move_on_a_git_index() {
    let p = Publisher::new();
    let bare = p.init_index("index.git", true);
    let index = bare.to_str().unwrap();
    let hello = p.skill("hello", "");
    p.publish(&hello, index, &["--channel", "testing"])
        .assert_ok();
    let app = project(&p, index, "app");
    p.ctx
        .fails_in(&app, &["add", "acme/hello", "--registry", "corp"]);
    promote(&p, index, "acme/hello@1.0.0", "published", &[]).assert_ok();
    let out = p
        .ctx
        .ok_in(&app, &["add", "acme/hello", "--registry", "corp"]);
    insta::assert_snapshot!(out.stderr, @"   Installed acme/hello v1.0.0");
}

/// Many forged claims above a release: resolution checks what it chose,
/// takes each forged version out, and after a few rounds checks every
/// version at once; the release is what installs.
#[test]
fn many_forged_claims_still_resolve_to_the_release() {
    let p = Publisher::new();
    let index_dir = p.init_index("index", false);
    let index = index_dir.to_str().unwrap();
    let hello = p.skill("hello", "");
    p.publish(&hello, index, &[]).assert_ok();
    for minor in 0..6 {
        let version = format!("2.{minor}.0");
        p.publish(
            &hello,
            index,
            &["--version", &version, "--channel", "draft"],
        )
        .assert_ok();
    }
    let entry_file = index_dir.join("index/acme/hello");
    let forged = std::fs::read_to_string(&entry_file)
        .unwrap()
        .replace("channel=draft", "channel=published")
        .replace("\"channel\":\"draft\"", "\"channel\":\"published\"");
    std::fs::write(&entry_file, forged).unwrap();
    let app = project(&p, index, "app");
    let out = p
        .ctx
        .ok_in(&app, &["add", "acme/hello", "--registry", "corp"]);
    assert_eq!(out.stderr.trim(), "Installed acme/hello v1.0.0");
    assert_eq!(installed_version(&app), "1.0.0");
}
