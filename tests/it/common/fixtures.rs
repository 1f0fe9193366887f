//! Projects, indexes and trees the test files share.

use std::path::{Path, PathBuf};

use super::{Keys, TestContext, skill_md, write_skill};

/// The sample index in the repository.
pub(crate) fn repo_index() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("registry-index")
}

/// Every file under `dir` with its bytes, relative and sorted.
pub(crate) fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// Copies the tree at `from` to `to`.
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A project made by `skillpkg init` in `<temp>/app`, whose default
/// registry is `registry` when given.
pub(crate) fn new_project(ctx: &TestContext, registry: Option<&str>) -> PathBuf {
    let dir = ctx.root().join("app");
    ctx.ok(&["init", dir.to_str().unwrap()]);
    if let Some(index) = registry {
        let manifest = dir.join("skills.toml");
        let mut text = std::fs::read_to_string(&manifest).unwrap();
        text.push_str(&format!(
            "\n[registries]\ndefault = {{ index = {index:?} }}\n"
        ));
        std::fs::write(manifest, text).unwrap();
    }
    dir
}

/// A fresh copy of the project in `app` (its skills.toml and skills.lock
/// only), as a clone of its repository would be: `<temp>/copy`.
pub(crate) fn fresh_copy(ctx: &TestContext, app: &Path) -> PathBuf {
    let copy = ctx.root().join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    for file in ["skills.toml", "skills.lock"] {
        std::fs::copy(app.join(file), copy.join(file)).unwrap();
    }
    copy
}

/// add → lock → a fresh copy of the project → install --locked: identical trees.
pub(crate) fn round_trip(ctx: &TestContext, registry: Option<&str>) {
    let app = new_project(ctx, registry);
    let out = ctx.ok_in(&app, &["add", "example/report-writer"]);
    for name in ["report-writer", "pdf-processing", "citation-style"] {
        assert!(
            out.stderr
                .contains(&format!("Installed example/{name} v1.0.0")),
            "{}",
            out.stderr
        );
        assert!(
            app.join(".agents/skills")
                .join(name)
                .join("SKILL.md")
                .is_file()
        );
    }
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    assert!(
        manifest.contains("\"example/report-writer\" = \"^1.0.0\""),
        "{manifest}"
    );
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert_eq!(lock.matches("[[skill]]").count(), 3);
    let ignore = std::fs::read_to_string(app.join(".skillpkg/.gitignore")).unwrap();
    assert!(
        ignore.lines().any(|l| l == "*"),
        "the state folder ignores itself"
    );
    // The PDF script keeps its executable bit.
    use std::os::unix::fs::PermissionsExt;
    let script = app.join(".agents/skills/pdf-processing/scripts/extract_text.sh");
    assert_ne!(
        std::fs::metadata(&script).unwrap().permissions().mode() & 0o111,
        0
    );

    let copy = fresh_copy(ctx, &app);
    ctx.ok_in(&copy, &["install", "--locked"]);
    assert!(
        tree(&app.join(".agents/skills")) == tree(&copy.join(".agents/skills")),
        "trees differ"
    );
    assert_eq!(
        std::fs::read_to_string(copy.join("skills.lock")).unwrap(),
        lock,
        "install --locked keeps the lock byte for byte"
    );

    // Installing again changes nothing; removing cleans up.
    let again = ctx.ok_in(&copy, &["install"]);
    assert!(!again.stderr.contains("Installed"), "{}", again.stderr);
    ctx.ok_in(&copy, &["remove", "example/report-writer"]);
    assert_eq!(
        std::fs::read_dir(copy.join(".agents/skills"))
            .unwrap()
            .count(),
        0
    );
}

/// A folder index whose org `acme` trusts a freshly made key.
pub(crate) struct AcmeIndex {
    keys: Keys,
    pub(crate) index: PathBuf,
}

impl AcmeIndex {
    pub(crate) fn new(ctx: &TestContext) -> AcmeIndex {
        let keys = ctx.keygen("keys");
        let index = ctx.root().join("index");
        list_acme_key(ctx, &index, &keys);
        AcmeIndex { keys, index }
    }

    /// Publishes the skill in `dir` as version 1.0.0.
    pub(crate) fn publish(&self, ctx: &TestContext, dir: &Path) {
        self.publish_version(ctx, dir, "1.0.0");
    }

    /// Publishes the skill in `dir` as `version`.
    pub(crate) fn publish_version(&self, ctx: &TestContext, dir: &Path, version: &str) {
        let args = self.publish_args(dir, version);
        ctx.ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    }

    /// The arguments of `skillpkg publish` for the skill in `dir` as `version`.
    pub(crate) fn publish_args(&self, dir: &Path, version: &str) -> Vec<String> {
        publish_args(&self.index, dir, version, "acme", &self.keys)
    }
}

/// Adds `keys` to org `acme`'s signing keys in the folder index `index`
/// (made when missing).
pub(crate) fn list_acme_key(ctx: &TestContext, index: &Path, keys: &Keys) {
    ctx.ok(&[
        "index",
        "init",
        index.to_str().unwrap(),
        "--org",
        "acme",
        "--key",
        keys.public_file.to_str().unwrap(),
    ]);
}

/// The arguments of `skillpkg publish` for the skill in `dir` as `version`
/// of `org`, into the folder index `index`, signed with `keys`.
pub(crate) fn publish_args(
    index: &Path,
    dir: &Path,
    version: &str,
    org: &str,
    keys: &Keys,
) -> Vec<String> {
    [
        "publish",
        dir.to_str().unwrap(),
        "--version",
        version,
        "--index",
        index.to_str().unwrap(),
        "--org",
        org,
        "--key",
        keys.secret_file.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

/// A publisher's folder index with `count` packages, and a project that
/// wants them all; returns the project and the index.
pub(crate) fn project_with_packages(ctx: &TestContext, count: usize) -> (PathBuf, PathBuf) {
    let acme = AcmeIndex::new(ctx);
    let app = new_project(ctx, Some(acme.index.to_str().unwrap()));
    let mut manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    for i in 0..count {
        let name = format!("pkg-{i}");
        let dir = write_skill(
            &ctx.root().join("src"),
            &name,
            &skill_md(&name, "Bulk. Use when testing."),
        );
        std::fs::create_dir_all(dir.join("references")).unwrap();
        for f in 0..20 {
            std::fs::write(
                dir.join(format!("references/r{f}.md")),
                format!("{name} reference {f}\n").repeat(200),
            )
            .unwrap();
        }
        acme.publish(ctx, &dir);
        manifest = manifest.replace(
            "[skills]\n",
            &format!("[skills]\n\"acme/{name}\" = \"1\"\n"),
        );
    }
    std::fs::write(app.join("skills.toml"), manifest).unwrap();
    (app, acme.index)
}
