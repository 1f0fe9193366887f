//! The threat model, one attack a test: who may be hostile (an index, a
//! mirror or the cache; a package's archive; a cloned project; an
//! installed skill; the model) and what each may not do. Every test makes
//! the attack, expects a clear error naming what was refused, and checks
//! that the project's root and lock, and everything outside the project,
//! are byte-identical to before.

use std::path::{Path, PathBuf};

use crate::common::{Output, TestContext, run, skill_md, write_skill};
use crate::install::{new_project, tree};

/// An org `acme` with a signing key, able to publish into any index.
struct Publisher {
    keys: PathBuf,
}

impl Publisher {
    fn new(ctx: &TestContext) -> Publisher {
        let keys = ctx.root().join("acme-keys");
        let out = run(ctx
            .command()
            .args(["keygen", "--no-password", "--out"])
            .arg(&keys));
        assert_eq!(out.status, 0, "{}", out.stderr);
        Publisher { keys }
    }

    /// A folder index trusting this publisher's key for `acme`.
    fn index(&self, ctx: &TestContext, name: &str) -> PathBuf {
        let index = ctx.root().join(name);
        let out = run(ctx
            .command()
            .args(["index", "init"])
            .arg(&index)
            .args(["--org", "acme", "--key"])
            .arg(self.keys.join("skillpkg.pub")));
        assert_eq!(out.status, 0, "{}", out.stderr);
        index
    }

    /// Publishes skill `name` at `version` into `index`, its body saying `body`.
    fn publish(&self, ctx: &TestContext, index: &Path, name: &str, version: &str, body: &str) {
        let sources = ctx.root().join(format!("sources-{body}"));
        let dir = write_skill(
            &sources,
            name,
            &format!("{}{body}\n", skill_md(name, "A tool. Use when testing.")),
        );
        let out = run(ctx
            .command()
            .arg("publish")
            .arg(&dir)
            .args(["--version", version, "--index"])
            .arg(index)
            .args(["--org", "acme", "--key"])
            .arg(self.keys.join("skillpkg.key")));
        assert_eq!(out.status, 0, "{}", out.stderr);
    }
}

/// What an attack must leave alone: the project's root, lock and
/// manifest, and a folder outside the project.
struct Untouched {
    project: PathBuf,
    outside: PathBuf,
    before: Vec<(String, Vec<u8>)>,
}

impl Untouched {
    fn new(ctx: &TestContext, project: &Path) -> Untouched {
        let outside = ctx.root().join("outside");
        write_skill(&outside, "precious", &skill_md("precious", "Mine."));
        let mut untouched = Untouched {
            project: project.to_path_buf(),
            outside,
            before: Vec::new(),
        };
        untouched.before = untouched.state();
        untouched
    }

    fn state(&self) -> Vec<(String, Vec<u8>)> {
        let root = self.project.join(".agents/skills");
        let root_files = match root.exists() {
            true => tree(&root),
            false => vec![("(no root)".to_string(), Vec::new())],
        };
        let mut state: Vec<(String, Vec<u8>)> = root_files
            .into_iter()
            .map(|(path, bytes)| (format!("root/{path}"), bytes))
            .chain(
                tree(&self.outside)
                    .into_iter()
                    .map(|(path, bytes)| (format!("outside/{path}"), bytes)),
            )
            .collect();
        for file in ["skills.toml", "skills.lock"] {
            if let Ok(bytes) = std::fs::read(self.project.join(file)) {
                state.push((file.to_string(), bytes));
            }
        }
        state
    }

    /// Runs `skillpkg args` in the project: it must fail, say `message`,
    /// and change nothing.
    fn refused(&self, ctx: &TestContext, args: &[&str], message: &str) -> Output {
        let out = run(ctx.command().current_dir(&self.project).args(args));
        assert_eq!(out.status, 1, "{args:?} should fail:\n{}", out.stderr);
        assert!(
            out.stderr.contains(message),
            "{args:?}: expected {message:?} in:\n{}",
            out.stderr
        );
        assert!(
            self.state() == self.before,
            "{args:?} changed the project or something outside it"
        );
        out
    }
}

/// `acme/tool` 1.0.0 published into a folder index (or, with `git`, a
/// git repository of it) and added to a project: the index and project.
fn locked_tool(ctx: &TestContext, acme: &Publisher, git: bool) -> (PathBuf, PathBuf) {
    let index = acme.index(ctx, "index");
    acme.publish(ctx, &index, "tool", "1.0.0", "Honest.");
    let mut spec = index.display().to_string();
    if git {
        for args in [
            &["init", "-q", "-b", "main"][..],
            &["add", "-A"],
            &["commit", "-q", "-m", "index"],
        ] {
            crate::common::git(&index, args);
        }
        spec = format!("git+file://{spec}");
    }
    let app = new_project(ctx, Some(&spec));
    let out = run(ctx.command().current_dir(&app).args(["add", "acme/tool"]));
    assert_eq!(out.status, 0, "{}", out.stderr);
    (index, app)
}

/// A copy of `project`'s manifest and lock, as a fresh clone has them.
fn clone_of(ctx: &TestContext, project: &Path, name: &str) -> PathBuf {
    let clone = ctx.root().join(name);
    std::fs::create_dir_all(&clone).unwrap();
    for file in ["skills.toml", "skills.lock"] {
        std::fs::copy(project.join(file), clone.join(file)).unwrap();
    }
    clone
}

/// Copies the entry file and archive of `acme/<name>` from one index
/// layout to another, as a re-publication (or a poisoned copy) would.
fn overwrite_release(from: &Path, to: &Path, name: &str, version: &str) {
    let entry = format!("index/acme/{name}");
    std::fs::copy(from.join(&entry), to.join(&entry)).unwrap();
    let archive = format!("packages/acme/{name}/{name}-{version}.skill");
    std::fs::copy(from.join(&archive), to.join(&archive)).unwrap();
}

/// The `checksum` the lock records for `name`.
fn locked_checksum(project: &Path, name: &str) -> String {
    let lock: toml::Value =
        toml::from_str(&std::fs::read_to_string(project.join("skills.lock")).unwrap()).unwrap();
    lock["skill"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"].as_str() == Some(name))
        .unwrap()["checksum"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn an_index_that_republishes_a_locked_version_is_refused_in_every_mode() {
    let ctx = TestContext::new();
    let acme = Publisher::new(&ctx);
    let (index, app) = locked_tool(&ctx, &acme, false);
    let pinned = locked_checksum(&app, "acme/tool");

    // The same version again, other content, validly signed by the org.
    let evil = acme.index(&ctx, "evil");
    acme.publish(&ctx, &evil, "tool", "1.0.0", "Malicious.");
    overwrite_release(&evil, &index, "tool", "1.0.0");

    let untouched = Untouched::new(&ctx, &app);
    for args in [
        &["install"][..],
        &["install", "--locked"],
        &["install", "--force"],
        &["update", "acme/tool"],
    ] {
        let out = untouched.refused(&ctx, args, "the index changed a released version");
        assert!(
            out.stderr.contains(&format!("acme/tool@1.0.0: skills.lock pins its archive to {pinned}, but the index now has sha256:")),
            "{}",
            out.stderr
        );
    }

    // A fresh clone installs nothing rather than the other content.
    let clone = clone_of(&ctx, &app, "clone");
    let untouched = Untouched::new(&ctx, &clone);
    untouched.refused(
        &ctx,
        &["install", "--locked"],
        "the index changed a released version",
    );
    assert!(!clone.join(".agents/skills/tool").exists());
}

#[test]
fn a_poisoned_cache_is_refused_under_frozen() {
    let ctx = TestContext::new();
    let acme = Publisher::new(&ctx);
    let (_, app) = locked_tool(&ctx, &acme, true);

    // Someone with write access to the cache plants other, validly signed
    // content for the locked version in the cached checkout of the index.
    let evil = acme.index(&ctx, "evil");
    acme.publish(&ctx, &evil, "tool", "1.0.0", "Malicious.");
    let checkouts = ctx.root().join("cache/git-index");
    let checkout = std::fs::read_dir(&checkouts)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    overwrite_release(&evil, &checkout, "tool", "1.0.0");

    let clone = clone_of(&ctx, &app, "clone");
    let untouched = Untouched::new(&ctx, &clone);
    untouched.refused(
        &ctx,
        &["install", "--frozen"],
        "the index changed a released version",
    );
    assert!(!clone.join(".agents/skills/tool").exists());
}

#[test]
fn a_locked_version_re_signed_by_another_key_of_the_org_is_refused() {
    let ctx = TestContext::new();
    let acme = Publisher::new(&ctx);
    let (index, app) = locked_tool(&ctx, &acme, false);

    // The index lists a second key for acme and re-signs the same archive with it.
    let other = Publisher {
        keys: ctx.root().join("other-keys"),
    };
    let out = run(ctx
        .command()
        .args(["keygen", "--no-password", "--out"])
        .arg(&other.keys));
    assert_eq!(out.status, 0, "{}", out.stderr);
    let out = run(ctx
        .command()
        .args(["index", "init"])
        .arg(&index)
        .args(["--org", "acme", "--key"])
        .arg(other.keys.join("skillpkg.pub")));
    assert_eq!(out.status, 0, "{}", out.stderr);
    let resigned = other.index(&ctx, "resigned");
    other.publish(&ctx, &resigned, "tool", "1.0.0", "Honest.");
    overwrite_release(&resigned, &index, "tool", "1.0.0");

    let untouched = Untouched::new(&ctx, &app);
    for args in [&["install"][..], &["install", "--locked"]] {
        untouched.refused(&ctx, args, "skills.lock pins org 'acme' to");
    }
}
