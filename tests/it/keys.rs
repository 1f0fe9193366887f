//! Orgs with several signing keys: every key the index lists is pinned on
//! first use, packages signed by any pinned key install side by side, a key
//! the index lists later is refused until `skillpkg trust` adds it,
//! `--replace` swaps, and a lock must pin the signer of each locked package.

use std::path::{Path, PathBuf};

use crate::common::{
    Keys, TestContext, fresh_copy, list_acme_key, new_project, publish_args, skill_md, tree,
    write_skill,
};

/// Org `acme` signing with two keys, a folder index listing both, and a
/// project on that index.
struct TwoKeys {
    ctx: TestContext,
    first: Keys,
    second: Keys,
    index: PathBuf,
    app: PathBuf,
}

impl TwoKeys {
    fn new() -> TwoKeys {
        let ctx = TestContext::new();
        // `first` sorts before `second`, as skills.lock lists them.
        let (mut first, mut second) = (ctx.keygen("first-keys"), ctx.keygen("second-keys"));
        if first.public_key > second.public_key {
            std::mem::swap(&mut first, &mut second);
        }
        let index = ctx.root().join("index");
        for keys in [&first, &second] {
            list_acme_key(&ctx, &index, keys);
        }
        let app = new_project(&ctx, Some(index.to_str().unwrap()));
        TwoKeys {
            ctx,
            first,
            second,
            index,
            app,
        }
    }

    /// Publishes `acme/<name>` 1.0.0 into `index`, signed with `keys`.
    fn publish(&self, index: &Path, name: &str, keys: &Keys) {
        let dir = write_skill(
            &self.ctx.root().join("sources"),
            name,
            &skill_md(name, "A tool. Use when testing."),
        );
        let args = publish_args(index, &dir, "1.0.0", "acme", keys);
        self.ctx
            .ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    }

    /// `acme/one` signed by the first key and `acme/two` by the second,
    /// both added to the project.
    fn installed() -> TwoKeys {
        let t = TwoKeys::new();
        t.publish(&t.index, "one", &t.first);
        t.publish(&t.index, "two", &t.second);
        t.ctx.ok_in(&t.app, &["add", "acme/one"]);
        t.ctx.ok_in(&t.app, &["add", "acme/two"]);
        t
    }

    fn lock(&self) -> String {
        std::fs::read_to_string(self.app.join("skills.lock")).unwrap()
    }

    /// What a refusal must leave alone: the project's root and lock.
    fn state(&self) -> (Vec<(String, Vec<u8>)>, String) {
        (tree(&self.app.join(".agents/skills")), self.lock())
    }

    /// Runs `args` in the project: it must fail and change nothing.
    /// Returns its stderr, redacted, keys named as [`TwoKeys::names`] does.
    fn refused(&self, args: &[&str], others: &[&Keys]) -> String {
        let before = self.state();
        let out = self.ctx.fails_in(&self.app, args);
        assert!(self.state() == before, "{args:?} changed the project");
        self.names(&out.stderr, others)
    }

    /// `text` redacted, with the keys written `[FIRST KEY]`, `[SECOND KEY]`
    /// and, for each of `others`, `[NEW KEY]`.
    fn names(&self, text: &str, others: &[&Keys]) -> String {
        let mut text = self
            .ctx
            .redact(text)
            .replace(&self.first.public_key, "[FIRST KEY]")
            .replace(&self.second.public_key, "[SECOND KEY]");
        for other in others {
            text = text.replace(&other.public_key, "[NEW KEY]");
        }
        text
    }
}

/// The `[keys]` table and each skill's `signer` of a lock's text.
fn pins(lock: &str) -> (Vec<String>, Vec<Option<String>>) {
    let lock: toml::Value = toml::from_str(lock).unwrap();
    let keys = lock
        .get("keys")
        .and_then(|keys| keys.get("acme"))
        .and_then(|keys| keys.as_array())
        .map(|keys| {
            keys.iter()
                .map(|key| key.as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default();
    let signers = lock["skill"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skill| skill.get("signer").map(|s| s.as_str().unwrap().to_string()))
        .collect();
    (keys, signers)
}

#[test]
fn packages_signed_by_each_key_of_an_org_install_side_by_side_and_hold_under_locked() {
    let t = TwoKeys::new();
    t.publish(&t.index, "one", &t.first);
    t.publish(&t.index, "two", &t.second);

    // First use pins every key the index lists, not only the one that signed.
    t.ctx.ok_in(&t.app, &["add", "acme/one"]);
    let mut both = vec![t.first.public_key.clone(), t.second.public_key.clone()];
    both.sort();
    assert_eq!(pins(&t.lock()).0, both);

    // So a package signed by the other key installs beside it.
    t.ctx.ok_in(&t.app, &["add", "acme/two"]);
    let lock = t.lock();
    let (keys, signers) = pins(&lock);
    assert_eq!(keys, both);
    assert_eq!(
        signers,
        [
            Some(t.first.public_key.clone()),
            Some(t.second.public_key.clone())
        ]
    );

    // A fresh copy installs both under --locked, and the lock holds.
    let copy = fresh_copy(&t.ctx, &t.app);
    t.ctx.ok_in(&copy, &["install", "--locked"]);
    assert!(tree(&t.app.join(".agents/skills")) == tree(&copy.join(".agents/skills")));
    assert_eq!(
        std::fs::read_to_string(copy.join("skills.lock")).unwrap(),
        lock,
        "install --locked keeps the lock byte for byte"
    );
}

#[test]
fn a_key_the_index_lists_after_pinning_is_refused_until_trust_adds_it() {
    let t = TwoKeys::installed();
    let pinned = t.lock();

    // The index lists a third key for acme (the org's, or one of its own)
    // and serves a package signed with it.
    let third = t.ctx.keygen("third-keys");
    list_acme_key(&t.ctx, &t.index, &third);
    t.publish(&t.index, "three", &third);
    insta::assert_snapshot!(t.refused(&["add", "acme/three"], &[&third]), @"
    error: acme/three@1.0.0 is signed by key [NEW KEY], which skills.lock does not pin for org 'acme' (it pins [FIRST KEY], [SECOND KEY])
    hint: [TEMP]/index lists this key for org 'acme' beside the pinned ones: if the org really added it, accept it with `skillpkg trust acme --key [NEW KEY]`
    hint: nothing was installed; ask the org before trusting a key an index offers
    ");
    assert_eq!(t.lock(), pinned);

    // Trusting it adds it to the pinned keys, and keeps every other pin.
    let out = t.ctx.ok_in(
        &t.app,
        &[
            "trust",
            "acme",
            "--key",
            third.public_file.to_str().unwrap(),
        ],
    );
    insta::assert_snapshot!(t.names(&out.stderr, &[&third]), @"     Trusted key [NEW KEY] of org 'acme' (one of 3 pinned keys)");
    let (keys, signers) = pins(&t.lock());
    assert_eq!(keys.len(), 3);
    assert!(keys.contains(&third.public_key));
    assert_eq!(signers, pins(&pinned).1, "signer pins stay");
    let again = t
        .ctx
        .ok_in(&t.app, &["trust", "acme", "--key", &third.public_key]);
    insta::assert_snapshot!(t.names(&again.stderr, &[&third]), @"     Trusted key [NEW KEY] of org 'acme', already pinned (one of 3 pinned keys)");
    t.ctx.ok_in(&t.app, &["add", "acme/three"]);

    // A newly trusted key still cannot re-sign a locked version: the lock
    // keeps the signer it recorded for acme/one.
    let resigned = t.ctx.root().join("resigned");
    list_acme_key(&t.ctx, &resigned, &third);
    t.publish(&resigned, "one", &third);
    for file in ["index/acme/one", "packages/acme/one/one-1.0.0.skill"] {
        std::fs::copy(resigned.join(file), t.index.join(file)).unwrap();
    }
    insta::assert_snapshot!(t.refused(&["install"], &[&third]), @"
    error: acme/one@1.0.0: skills.lock pins its signer to [FIRST KEY], but it is now signed by [NEW KEY]; the index changed a released version
    hint: a released version never changes: it was re-published, or [TEMP]/index or the cache was tampered with; nothing was installed
    hint: if the publisher confirms the change, they should release a new version for `skillpkg update acme/one`
    ");
}

#[test]
fn trust_replace_swaps_the_keys_of_an_org() {
    let t = TwoKeys::installed();
    let new = t.ctx.keygen("new-keys");
    let out = t.ctx.ok_in(
        &t.app,
        &["trust", "acme", "--key", &new.public_key, "--replace"],
    );
    insta::assert_snapshot!(t.names(&out.stderr, &[&new]), @"
         Removed key [FIRST KEY] of org 'acme'
         Removed key [SECOND KEY] of org 'acme'
         Trusted key [NEW KEY] of org 'acme' (its only pinned key)
    ");
    // The old keys are gone, and so are the signer pins they made.
    assert_eq!(
        pins(&t.lock()),
        (vec![new.public_key.clone()], vec![None, None])
    );

    // Packages the old keys signed are refused now.
    let out = t.refused(&["install"], &[&new]);
    assert!(
        out.starts_with("error: acme/one@1.0.0 is signed by key [FIRST KEY], which skills.lock does not pin for org 'acme' (it pins [NEW KEY])"),
        "{out}"
    );
}

#[test]
fn a_lock_that_does_not_pin_the_signer_of_a_locked_package_is_refused() {
    let t = TwoKeys::installed();
    let lock = t.lock();
    // The lock loses the key that signed acme/one, then every key of acme.
    let one_key = lock.replace(&format!("\"{}\", ", t.first.public_key), "");
    let no_keys: String = lock
        .lines()
        .filter(|line| !line.starts_with("[keys]") && !line.starts_with("acme = "))
        .map(|line| format!("{line}\n"))
        .collect();
    let mut refusals = Vec::new();
    for edited in [one_key, no_keys] {
        assert_ne!(edited, lock);
        std::fs::write(t.app.join("skills.lock"), edited).unwrap();
        let out = t.refused(&["install"], &[]);
        // A fresh copy, under --locked, is refused alike.
        let copy = fresh_copy(&t.ctx, &t.app);
        let locked = t.ctx.fails_in(&copy, &["install", "--locked"]);
        assert_eq!(t.names(&locked.stderr, &[]), out.replace("/app/", "/copy/"));
        assert!(!copy.join(".agents").exists());
        std::fs::remove_dir_all(copy).unwrap();
        refusals.push(out);
    }
    insta::assert_snapshot!(refusals.join("\n"), @"
    error: [TEMP]/app/skills.lock: acme/one is locked to signer [FIRST KEY], but its [keys] table pins [SECOND KEY] for org 'acme'
    hint: restore skills.lock from version control; nothing was installed
    hint: if [FIRST KEY] really is a key of org 'acme', accept it with `skillpkg trust acme --key [FIRST KEY]`

    error: [TEMP]/app/skills.lock: acme/one is locked to signer [FIRST KEY], but its [keys] table pins no key for org 'acme'
    hint: restore skills.lock from version control; nothing was installed
    hint: if [FIRST KEY] really is a key of org 'acme', accept it with `skillpkg trust acme --key [FIRST KEY]`
    ");
}

#[test]
fn trust_says_its_two_meanings_apart_and_keeps_the_spellings_before() {
    let ctx = TestContext::new();
    let help = ctx.ok(&["trust", "--help"]).stdout;
    let commands: String = help
        .lines()
        .skip_while(|line| *line != "Commands:")
        .take_while(|line| !line.is_empty())
        .filter(|line| line.starts_with("  ") && !line.starts_with("   "))
        .map(|line| format!("{}\n", line.split_whitespace().next().unwrap()))
        .collect();
    insta::assert_snapshot!(commands, @"
    key
    project
    list
    help
    ");
    assert!(
        !help.contains("--oms-root"),
        "the help shows the subcommands: {help}"
    );

    let key = ctx.keygen("k");
    let new = ctx.ok(&["trust", "key", "acme", "--key", &key.public_key]);
    assert!(new.stderr.contains("Trusted key"), "{}", new.stderr);
    let old = ctx.ok(&["trust", "acme", "--key", &key.public_key]);
    assert!(old.stderr.contains("already pinned"), "{}", old.stderr);
    assert_eq!(
        ctx.ok(&["trust", "list", "--json"]).stdout,
        ctx.ok(&["trust", "--list", "--json"]).stdout
    );
    assert!(ctx.ok(&["trust", "project"]).stderr.contains("Trusted"));
    assert!(
        ctx.ok(&["trust", "--project", "--revoke"])
            .stderr
            .contains("Revoked")
    );
    let out = ctx.run(&["trust", "key", "acme"]);
    assert_eq!(out.status, 2, "a usage error: {}", out.stderr);
    assert!(out.stderr.contains("required arguments"), "{}", out.stderr);
}
