//! `index init`, `publish` and `yank` against folder and git indexes.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{Keys, Output, TestContext, git, run, skill_md, tree, write_skill};

/// A test context with a signing key for org `acme`.
pub(crate) struct Publisher {
    pub(crate) ctx: TestContext,
    pub(crate) keys: Keys,
}

impl Publisher {
    pub(crate) fn new() -> Publisher {
        let ctx = TestContext::new();
        let keys = ctx.keygen("keys");
        Publisher { ctx, keys }
    }

    /// Creates an index (`--git` when `git`) trusting this publisher's key for `acme`.
    pub(crate) fn init_index(&self, dir: &str, git: bool) -> PathBuf {
        let path = self.ctx.root().join(dir);
        let mut cmd = self.ctx.command();
        cmd.args(["index", "init"])
            .arg(&path)
            .args(["--org", "acme", "--key"])
            .arg(&self.keys.public_file);
        if git {
            cmd.arg("--git");
        }
        run(&mut cmd).assert_ok();
        path
    }

    /// Writes a skill `name` at version 1.0.0 under `<temp>/src`.
    pub(crate) fn skill(&self, name: &str, extra_metadata: &str) -> PathBuf {
        let text = format!(
            "---\nname: {name}\ndescription: The {name} skill. Use when testing.\nmetadata:\n  version: \"1.0.0\"\n{extra_metadata}---\nBody.\n"
        );
        write_skill(&self.ctx.root().join("src"), name, &text)
    }

    /// `skillpkg publish <dir> --index <index> --org acme --key … <extra>`.
    pub(crate) fn publish(&self, dir: &Path, index: &str, extra: &[&str]) -> Output {
        self.publish_with_cache(dir, index, extra, None)
    }

    /// [`Publisher::publish`] with its own cache directory.
    pub(crate) fn publish_with_cache(
        &self,
        dir: &Path,
        index: &str,
        extra: &[&str],
        cache: Option<&Path>,
    ) -> Output {
        run(&mut self.publish_command(dir, index, extra, cache))
    }

    fn publish_command(
        &self,
        dir: &Path,
        index: &str,
        extra: &[&str],
        cache: Option<&Path>,
    ) -> Command {
        let mut cmd = self.ctx.command();
        if let Some(cache) = cache {
            cmd.env("SKILLPKG_CACHE_DIR", cache);
        }
        cmd.arg("publish")
            .arg(dir)
            .args(["--index", index, "--org", "acme", "--key"])
            .arg(&self.keys.secret_file)
            .args(extra);
        cmd
    }

    /// Publishes every skill of `dirs` to `index`, each from its own
    /// machine (cache `<temp>/cache-<i>`), all released at the same moment.
    /// The time budget for pushes is generous: a loaded machine must not
    /// make a test fail.
    pub(crate) fn publish_all_at_once(&self, dirs: &[PathBuf], index: &str) -> Vec<Output> {
        let start = std::sync::Barrier::new(dirs.len());
        std::thread::scope(|scope| {
            let handles: Vec<_> = dirs
                .iter()
                .enumerate()
                .map(|(i, dir)| {
                    let cache = self.ctx.root().join(format!("cache-{i}"));
                    let mut cmd = self.publish_command(dir, index, &[], Some(&cache));
                    cmd.env("SKILLPKG_PUBLISH_TIMEOUT", "600");
                    let start = &start;
                    scope.spawn(move || {
                        start.wait();
                        run(&mut cmd)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    }
}

pub(crate) fn entry_lines(index_root: &Path, package: &str) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(index_root.join("index").join(package)).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn publish_to_a_folder_index_writes_archive_and_entry() {
    let p = Publisher::new();
    let index = p.init_index("index", false);
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(index.join("config.json")).unwrap()).unwrap();
    assert_eq!(config["version"], 1);
    assert_eq!(
        config["dl"],
        "{index}/packages/{org}/{name}/{name}-{version}.skill"
    );
    let public = &p.keys.public_key;
    assert_eq!(config["keys"]["acme"], serde_json::json!([public]));

    let dir = p.skill("base", "  dependencies: acme/util@^1, acme/other\n");
    p.publish(&dir, index.to_str().unwrap(), &[]).assert_ok();
    let entries = entry_lines(&index, "acme/base");
    assert_eq!(entries.len(), 1);
    let entry = &entries[0];
    assert_eq!(entry["vers"], "1.0.0");
    assert_eq!(
        entry["deps"],
        serde_json::json!([{"name": "acme/util", "req": "^1"}, {"name": "acme/other", "req": "*"}])
    );
    assert_eq!(entry["yanked"], false);
    let archive = std::fs::read(index.join("packages/acme/base/base-1.0.0.skill")).unwrap();
    assert_eq!(entry["size"], archive.len());
    let cksum = skillpkg::store::hash::sha256_hex(&archive);
    assert_eq!(entry["cksum"], cksum.as_str());
    skillpkg::store::signing::verify_for(
        public,
        &archive,
        entry["sig"].as_str().unwrap(),
        &format!("skillpkg acme/base@1.0.0 sha256:{cksum} channel=published"),
    )
    .unwrap();
    assert_eq!(entry["channel"], "published");

    // --version and --dependencies override the metadata.
    p.publish(
        &dir,
        index.to_str().unwrap(),
        &["--version", "1.1.0", "--dependencies", ""],
    )
    .assert_ok();
    let entries = entry_lines(&index, "acme/base");
    assert_eq!(entries[1]["vers"], "1.1.0");
    assert_eq!(entries[1]["deps"], serde_json::json!([]));
}

#[test]
fn publish_refuses_bad_requests_and_changes_nothing() {
    let p = Publisher::new();
    let index = p.init_index("index", false);
    let dir = p.skill("tool", "");
    let spec = index.to_str().unwrap();
    p.publish(&dir, spec, &[]).assert_ok();
    let before = tree(&index);

    let cases: [&[&str]; 3] = [
        &[],
        &["--version", "1.0"],
        &["--version", "2.0.0", "--dependencies", "acme/x@bogus"],
    ];
    let mut transcript = String::new();
    for extra in cases {
        transcript += &p.publish(&dir, spec, extra).assert_fails().transcript();
    }
    // An org whose keys do not include the signing key.
    let mut cmd = p.ctx.command();
    cmd.arg("publish")
        .arg(&dir)
        .args([
            "--index",
            spec,
            "--org",
            "other",
            "--version",
            "3.0.0",
            "--key",
        ])
        .arg(&p.keys.secret_file);
    transcript += &run(&mut cmd).assert_fails().transcript();
    // An invalid skill.
    let bad = write_skill(&p.ctx.root().join("src"), "Bad", &skill_md("Bad", "x"));
    transcript += &p
        .publish(&bad, spec, &["--version", "1.0.0"])
        .assert_fails()
        .transcript();
    let transcript = p
        .ctx
        .redact(&transcript)
        .replace(&p.keys.public_key, "[KEY]");
    insta::assert_snapshot!(transcript, @"
    $ skillpkg publish [TEMP]/src/tool --index [TEMP]/index --org acme --key [TEMP]/keys/skillpkg.key
    error: acme/tool@1.0.0 is already in the index; versions are immutable
    hint: bump metadata.version (or pass --version) and publish again
    $ skillpkg publish [TEMP]/src/tool --index [TEMP]/index --org acme --key [TEMP]/keys/skillpkg.key --version 1.0
    error: invalid version '1.0' for acme/tool: unexpected end of input while parsing minor version number (versions are semver, like 1.2.3)
    $ skillpkg publish [TEMP]/src/tool --index [TEMP]/index --org acme --key [TEMP]/keys/skillpkg.key --version 2.0.0 --dependencies acme/x@bogus
    error: invalid dependencies for acme/tool
      Caused by: dependency 'acme/x@bogus': invalid version requirement 'bogus': unexpected character 'b' while parsing major version number
    $ skillpkg publish [TEMP]/src/tool --index [TEMP]/index --org other --version 3.0.0 --key [TEMP]/keys/skillpkg.key
    error: the signing key [KEY] is not one of org 'other''s keys in [TEMP]/index/config.json
    hint: if it is a key of org 'other', add it with `skillpkg index init [TEMP]/index --org other --key [KEY]`
    $ skillpkg publish [TEMP]/src/Bad --index [TEMP]/index --org acme --key [TEMP]/keys/skillpkg.key --version 1.0.0
    error: [TEMP]/src/Bad is not a valid skill:
      [TEMP]/src/Bad/SKILL.md: error[name-lowercase]: Skill name 'Bad' must be lowercase
    hint: fix these, then check with `skillpkg validate [TEMP]/src/Bad`
    ");

    assert!(
        tree(&index) == before,
        "a refused publish changed the index"
    );
}

/// The hint for an org new to a git index says `--git`, without which
/// `index init` takes the repository for a folder, and names the key.
#[test]
fn a_key_new_to_an_org_of_a_git_index_is_added_with_git() {
    let p = Publisher::new();
    let index = p.init_index("index.git", true);
    let dir = p.skill("tool", "");
    let spec = index.to_str().unwrap();
    let out = run(p
        .ctx
        .command()
        .arg("publish")
        .arg(&dir)
        .args(["--index", spec, "--org", "other", "--key"])
        .arg(&p.keys.secret_file))
    .assert_fails();
    let shown = p
        .ctx
        .redact(&out.stderr)
        .replace(&p.keys.public_key, "[KEY]");
    insta::assert_snapshot!(shown, @"
    error: the signing key [KEY] is not one of org 'other''s keys in [TEMP]/index.git/config.json
    hint: if it is a key of org 'other', add it with `skillpkg index init [TEMP]/index.git --git --org other --key [KEY]`
    ");
    // The hint, run as it is, lets the publish through.
    let hint = out
        .stderr
        .lines()
        .find_map(|l| l.split('`').nth(1))
        .unwrap();
    let words: Vec<&str> = hint.split(' ').skip(1).collect();
    p.ctx.ok(&words);
    run(p
        .ctx
        .command()
        .arg("publish")
        .arg(&dir)
        .args(["--index", spec, "--org", "other", "--key"])
        .arg(&p.keys.secret_file))
    .assert_ok();
}

#[test]
fn concurrent_publishes_to_a_bare_git_index_both_land() {
    let p = Publisher::new();
    let bare = p.init_index("index.git", true);
    let url = format!("file://{}", bare.display());

    // Four publishers with their own caches (four machines), at the same time.
    let names = ["alpha", "beta", "gamma", "delta"];
    let dirs: Vec<PathBuf> = names.iter().map(|n| p.skill(n, "")).collect();
    for out in p.publish_all_at_once(&dirs, &url) {
        out.assert_ok();
    }

    let clone = p.ctx.root().join("check");
    let out = Command::new("git")
        .arg("clone")
        .arg("-q")
        .arg(&url)
        .arg(&clone)
        .output()
        .unwrap();
    assert!(out.status.success());
    for name in names {
        assert_eq!(
            entry_lines(&clone, &format!("acme/{name}")).len(),
            1,
            "{name} missing from the index"
        );
        assert!(
            clone
                .join(format!("packages/acme/{name}/{name}-1.0.0.skill"))
                .is_file()
        );
    }
    let log = git(&clone, &["log", "--format=%s"]);
    for name in names {
        assert!(log.contains(&format!("Publish acme/{name}@1.0.0")), "{log}");
    }

    // Republishing a version is refused.
    let out = p.publish(&dirs[0], &url, &[]).assert_fails();
    insta::assert_snapshot!(p.ctx.redact(&out.stderr), @"
    error: acme/alpha@1.0.0 is already in the index; versions are immutable
    hint: bump metadata.version (or pass --version) and publish again
    ");

    // Yank flips exactly one line; --undo flips it back.
    p.publish(&dirs[0], &url, &["--version", "1.1.0"])
        .assert_ok();
    git(&clone, &["pull", "-q"]);
    let before = std::fs::read_to_string(clone.join("index/acme/alpha")).unwrap();
    p.ctx.ok(&["yank", "acme/alpha@1.0.0", "--index", &url]);
    git(&clone, &["pull", "-q"]);
    let after = std::fs::read_to_string(clone.join("index/acme/alpha")).unwrap();
    let changed: Vec<(&str, &str)> = before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(changed.len(), 1, "exactly one line changes");
    assert_eq!(
        changed[0].0.replace("\"yanked\":false", "\"yanked\":true"),
        changed[0].1
    );
    assert_eq!(before.lines().count(), after.lines().count());
    // The listing gains lines, the version's and (for readers that keep
    // a package's last line) the one shown; none is rewritten.
    let diff = git(&clone, &["diff", "--numstat", "HEAD~1", "HEAD"]);
    assert_eq!(diff.trim(), "1\t1\tindex/acme/alpha\n2\t0\tsearch.jsonl");

    let again = p.ctx.ok(&["yank", "acme/alpha@1.0.0", "--index", &url]);
    insta::assert_snapshot!(p.ctx.redact(&again.stderr), @"warning: acme/alpha@1.0.0 is already yanked; nothing changed");
    p.ctx
        .ok(&["yank", "acme/alpha@1.0.0", "--undo", "--index", &url]);
    git(&clone, &["pull", "-q"]);
    assert_eq!(
        std::fs::read_to_string(clone.join("index/acme/alpha")).unwrap(),
        before
    );
}

#[test]
fn a_rejected_push_is_fetched_and_retried() {
    use skillpkg::index::git::GitIndex;
    let p = Publisher::new();
    let bare = p.init_index("race.git", true);
    let url = format!("file://{}", bare.display());
    let rival = p.skill("rival", "");

    let cache = p.ctx.root().join("cache-mine");
    let mut attempts = 0;
    GitIndex::new(&url, &cache)
        .unwrap()
        .publish(&cache, |index| {
            attempts += 1;
            if attempts == 1 {
                // Another publisher pushes between our fetch and our push.
                p.publish_with_cache(&rival, &url, &[], Some(&p.ctx.root().join("cache-rival")))
                    .assert_ok();
            }
            std::fs::write(index.root().join("marker.txt"), "mine").unwrap();
            Ok("Add marker".to_string())
        })
        .unwrap();
    assert_eq!(attempts, 2, "the first push is rejected, the second lands");

    let clone = p.ctx.root().join("check");
    assert!(
        Command::new("git")
            .arg("clone")
            .arg("-q")
            .arg(&url)
            .arg(&clone)
            .status()
            .unwrap()
            .success()
    );
    assert!(clone.join("marker.txt").is_file());
    assert_eq!(entry_lines(&clone, "acme/rival").len(), 1);
    assert_eq!(
        git(&clone, &["log", "--format=%s", "-2"]),
        "Add marker\nPublish acme/rival@1.0.0\n"
    );
}

#[test]
fn pushes_beaten_until_the_time_budget_runs_out_say_what_happened_and_what_to_do() {
    use skillpkg::index::git::GitIndex;
    use skillpkg::net::{Clock, RetryPolicy};
    let p = Publisher::new();
    let bare = p.init_index("busy.git", true);
    let url = format!("file://{}", bare.display());
    let rival = p.skill("rival", "");
    let cache = p.ctx.root().join("cache-mine");
    let waits = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let policy = RetryPolicy {
        budget: Some(std::time::Duration::from_millis(400)),
        clock: Clock::Recorded(waits.clone()),
        ..RetryPolicy::for_pushes()
    };
    let mut attempts = 0;
    let error = GitIndex::new(&url, &cache)
        .unwrap()
        .with_push_policy(policy)
        .publish(&cache, |index| {
            // Someone else always pushes between our fetch and our push.
            attempts += 1;
            let version = format!("1.0.{attempts}");
            let rival_cache = p.ctx.root().join("cache-rival");
            p.publish_with_cache(&rival, &url, &["--version", &version], Some(&rival_cache))
                .assert_ok();
            std::fs::write(index.root().join("marker.txt"), "mine").unwrap();
            Ok("Add marker".to_string())
        })
        .unwrap_err();
    let waits = waits.lock().unwrap().clone();
    assert_eq!(
        waits.len() + 1,
        attempts,
        "a wait between attempts, none after the last"
    );
    let message = format!("{error:#}");
    let prefix = format!("could not push to {url}: {attempts} attempts failed over 0.");
    assert!(attempts >= 4, "three waits fit in the budget: {attempts}");
    assert!(message.starts_with(&prefix), "{message}");
    assert!(message.contains("; the last: push rejected: "), "{message}");
    let hinted = error.downcast_ref::<skillpkg::hint::Hinted>().unwrap();
    insta::assert_snapshot!(hinted.hints().join("\n"), @"others kept pushing to the index first; publish again when it is quieter, or allow more time with SKILLPKG_PUBLISH_TIMEOUT=<seconds> (now 60)");
}

#[test]
fn a_skill_the_reference_rejects_publishes_with_allow_invalid_and_installs_with_a_warning() {
    let ctx = TestContext::new();
    let acme = crate::common::AcmeIndex::new(&ctx);
    // Like Anthropic's claude-api: a description over 1,024 characters.
    let description = format!("Calls the API. Use when calling it. {}", "x".repeat(1100));
    let dir = write_skill(
        &ctx.root().join("src"),
        "long",
        &skill_md("long", &description),
    );
    let args = acme.publish_args(&dir, "1.0.0");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = ctx.fails(&args);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: [TEMP]/src/long cannot be published
      Caused by: [TEMP]/src/long is not a valid skill:
      [TEMP]/src/long/SKILL.md: error[description-length]: Description exceeds 1024 character limit (1136 chars)
    hint: --allow-invalid publishes it as agents load it, with the broken rules recorded in its entry
    hint: fix these, then check with `skillpkg validate [TEMP]/src/long`
    ");
    let mut allowed = args.clone();
    allowed.push("--allow-invalid");
    ctx.ok(&allowed);
    let entries = entry_lines(&acme.index, "acme/long");
    assert_eq!(
        entries[0]["invalid"],
        serde_json::json!(["description-length"])
    );

    let app = crate::common::new_project(&ctx, Some(acme.index.to_str().unwrap()));
    let out = ctx.fails_in(&app, &["add", "acme/long", "--require-valid"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: acme/long@1.0.0 breaks the specification's rules (description-length), and --require-valid was given
    hint: leave out --require-valid to install it as agents load it
    ");
    assert!(!app.join(".agents/skills/long").exists());
    let out = ctx.ok_in(&app, &["add", "acme/long"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    warning: acme/long breaks the specification's rules (description-length), and is installed as agents load it; `skillpkg validate .agents/skills/long` shows why, and --require-valid refuses such skills
       Installed acme/long v1.0.0
    ");
    // Said when it is put in place, not on every install.
    let again = ctx.ok_in(&app, &["install"]);
    assert!(!again.stderr.contains("warning"), "{}", again.stderr);
}

#[test]
fn publish_given_the_public_key_names_the_secret_one_and_defaults_to_keygens_key() {
    let ctx = TestContext::new();
    // keygen without --out writes into the config directory.
    let out = ctx.ok(&["keygen", "--no-password"]);
    let keys = Keys {
        public_file: ctx.root().join("config/skillpkg.pub"),
        secret_file: ctx.root().join("config/skillpkg.key"),
        public_key: out.stdout.trim().to_string(),
    };
    let index = ctx.root().join("index");
    crate::common::list_acme_key(&ctx, &index, &keys);
    let public_file = keys.public_file.clone();
    let dir = write_skill(
        &ctx.root().join("src"),
        "tool",
        "---\nname: tool\ndescription: A tool. Use when testing.\nmetadata:\n  version: \"1.0.0\"\n---\nUse it.\n",
    );
    let base = [
        "publish",
        dir.to_str().unwrap(),
        "--index",
        index.to_str().unwrap(),
        "--org",
        "acme",
    ];
    let mut with_public = base.to_vec();
    with_public.extend(["--key", public_file.to_str().unwrap()]);
    let out = ctx.fails(&with_public);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: [TEMP]/config/skillpkg.pub is a public key; signing needs the secret key
    hint: give its secret key: --key [TEMP]/config/skillpkg.key
    ");
    // Without --key, the key keygen wrote signs.
    ctx.ok(&base);
    let entries = entry_lines(&index, "acme/tool");
    assert_eq!(entries.len(), 1);
}
