//! Only what a signature vouches for is installed. An OMS signature over a
//! folder leaves `.github/`, `.gitignore`, `.gitattributes` and its
//! `ignore_paths` out of what it signs, as model_signing does: files put
//! there after signing are left out of the install (saying so), and
//! `verify` and `mirror` agree. An archive's signature (minisign, a
//! Sigstore bundle) covers every file of the archive: a file added to it
//! after signing is refused.

use std::path::{Path, PathBuf};

use crate::common::{TestContext, copy_dir, git, new_project};
use crate::publish::Publisher;

fn oms_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/oms")
        .join(name)
}

/// A git repository holding the OMS-signed fixture at `skills/signed`, with
/// `.github/run.sh` and `.gitignore` added after signing, and its URL.
fn repository_with_files_added_after_signing(ctx: &TestContext) -> (PathBuf, String) {
    let repo = ctx.root().join("repo");
    let skill = repo.join("skills/signed");
    copy_dir(&oms_fixture("signed"), &skill);
    std::fs::create_dir_all(skill.join(".github")).unwrap();
    std::fs::write(
        skill.join(".github/run.sh"),
        "#!/bin/sh\necho added after signing\n",
    )
    .unwrap();
    std::fs::write(skill.join(".gitignore"), "*.log\n").unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "signed, then more"]);
    (repo.clone(), format!("file://{}", repo.display()))
}

/// What the fixture's signature vouches for: its files but
/// `drafts/notes.md`, which the statement's `ignore_paths` leaves out.
fn signed_files() -> Vec<String> {
    files_of(&oms_fixture("signed"))
        .into_iter()
        .filter(|name| name != "drafts/notes.md")
        .collect()
}

/// Every file under `dir`, `/`-separated, sorted.
fn files_of(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| !e.file_type().is_dir())
        .map(|e| {
            e.path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    files.sort();
    files
}

#[test]
fn oms_files_outside_the_signature_are_left_out_of_the_install_and_verify_agrees() {
    let ctx = TestContext::new();
    let (_repo, url) = repository_with_files_added_after_signing(&ctx);
    let app = new_project(&ctx, None);
    let root = oms_fixture("root.pem");
    ctx.ok(&["trust", &url, "--oms-root", root.to_str().unwrap()]);

    let out = ctx.ok_in(&app, &["add", "--git", &url, "--subdir", "skills/signed"]);
    let said = ctx.redact(&out.stderr);
    assert!(
        said.contains(
            "warning: signed: left out files its signature does not cover (.github/run.sh, .gitignore, drafts/notes.md): only what a signature vouches for is installed"
        ),
        "{said}"
    );
    let installed = app.join(".agents/skills/signed");
    assert_eq!(
        files_of(&installed),
        signed_files(),
        "exactly the signed files (and the signature) are installed"
    );
    assert!(
        !installed.join(".github").exists() && !installed.join("drafts").exists(),
        "no empty folder is left"
    );
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(lock.contains("signer = { oms = {"), "{lock}");
    ctx.ok_in(&app, &["verify"]);

    // A second install keeps the tree in place and says nothing again.
    let out = ctx.ok_in(&app, &["install"]);
    assert!(!out.stderr.contains("left out"), "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(app.join("skills.lock")).unwrap(),
        lock
    );

    // A file planted under `.github/` of the installed skill: `verify`
    // names it, as the signature does not cover it.
    std::fs::create_dir_all(installed.join(".github")).unwrap();
    std::fs::write(installed.join(".github/run.sh"), "#!/bin/sh\nid\n").unwrap();
    let out = ctx.fails_in(&app, &["verify"]);
    assert!(
        out.stdout
            .contains(".github/run.sh is in the folder but not covered by its signature")
            || out
                .stderr
                .contains(".github/run.sh is in the folder but not covered by its signature"),
        "{}{}",
        out.stdout,
        out.stderr
    );

    // `install --locked` in a fresh clone puts the same files in place.
    let copy = crate::common::fresh_copy(&ctx, &app);
    ctx.ok_in(&copy, &["trust", "--project"]);
    ctx.ok_in(&copy, &["install", "--locked"]);
    assert_eq!(
        files_of(&copy.join(".agents/skills/signed")),
        signed_files()
    );
    ctx.ok_in(&copy, &["verify"]);
}

#[test]
fn oms_files_outside_the_signature_are_not_mirrored() {
    let p = Publisher::new();
    let (_repo, url) = repository_with_files_added_after_signing(&p.ctx);
    let root = oms_fixture("root.pem");
    p.ctx
        .ok(&["trust", &url, "--oms-root", root.to_str().unwrap()]);
    let index_dir = p.ctx.root().join("corp-index");
    let mut init = p.ctx.command();
    init.args(["index", "init"])
        .arg(&index_dir)
        .args(["--org", "corp", "--key"])
        .arg(&p.keys.public_file);
    crate::common::run(&mut init).assert_ok();
    let mut mirror = p.ctx.command();
    mirror
        .args(["mirror", &url, "--version", "1.0.0"])
        .args([
            "--index",
            index_dir.to_str().unwrap(),
            "--org",
            "corp",
            "--key",
        ])
        .arg(&p.keys.secret_file);
    let out = crate::common::run(&mut mirror);
    assert!(
        out.stderr.contains("Mirrored corp/signed@1.0.0 (draft)"),
        "{}",
        out.stderr
    );
    let archive = index_dir.join("packages/corp/signed/signed-1.0.0.skill");
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&archive).unwrap()).unwrap();
    let mut names: Vec<String> = (0..zip.len())
        .map(|i| zip.by_index(i).unwrap().name().unwrap().to_string())
        .filter(|name| !name.ends_with('/'))
        .collect();
    names.sort();
    let expected: Vec<String> = signed_files()
        .into_iter()
        .map(|name| format!("signed/{name}"))
        .collect();
    assert_eq!(names, expected, "the org republishes only what was signed");
}

/// Lower-case hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Adds `name` to the `.skill` (zip) `archive` after it was signed, and
/// makes the index entry file `entry` name the new archive's sha256, as
/// whoever hosts the index, holding no key, could.
fn add_file_after_signing(archive: &Path, entry: &Path, name: &str) {
    use sha2::Digest as _;
    use std::io::Write as _;
    let before = std::fs::read(archive).unwrap();
    let old_sum = hex(&sha2::Sha256::digest(&before));
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(before)).unwrap();
    let top = zip
        .by_index(0)
        .unwrap()
        .name()
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for i in 0..zip.len() {
        out.raw_copy_file(zip.by_index_raw(i).unwrap()).unwrap();
    }
    out.start_file(
        format!("{top}/{name}"),
        zip::write::SimpleFileOptions::default(),
    )
    .unwrap();
    out.write_all(b"#!/bin/sh\necho added after signing\n")
        .unwrap();
    let after = out.finish().unwrap().into_inner();
    std::fs::write(archive, &after).unwrap();
    let new_sum = hex(&sha2::Sha256::digest(&after));
    let text = std::fs::read_to_string(entry).unwrap();
    assert!(
        text.contains(&old_sum),
        "the entry names the archive's sha256"
    );
    std::fs::write(entry, text.replace(&old_sum, &new_sum)).unwrap();
}

#[test]
fn minisign_files_added_to_the_archive_after_signing_are_refused() {
    let p = Publisher::new();
    let index = p.init_index("index", false);
    let dir = p.skill("notes", "");
    p.publish(&dir, index.to_str().unwrap(), &[]).assert_ok();
    add_file_after_signing(
        &index.join("packages/acme/notes/notes-1.0.0.skill"),
        &index.join("index/acme/notes"),
        "scripts/added.sh",
    );
    let app = new_project(&p.ctx, Some(index.to_str().unwrap()));
    let out = p.ctx.fails_in(&app, &["add", "acme/notes"]);
    assert!(
        // The entry's signature no longer verifies over the new archive's
        // digest, so the index offers no version of it.
        out.stderr
            .contains("acme/notes has no versions in the index"),
        "{}",
        out.stderr
    );
    assert!(
        !app.join(".agents/skills/notes").exists(),
        "nothing is installed"
    );
}

#[test]
fn sigstore_files_added_to_the_archive_after_signing_are_refused() {
    let ctx = TestContext::new();
    let server = crate::policies::sigstore_index(&ctx);
    let index = ctx.root().join("index");
    add_file_after_signing(
        &index.join("packages/acme/signed-skill/signed-skill-1.0.0.skill"),
        &index.join("index/acme/signed-skill"),
        "scripts/added.sh",
    );
    crate::policies::trust_identity(&ctx, crate::policies::IDENTITY, false);
    let app = new_project(&ctx, Some(&server.url()));
    let out = ctx.fails_in(&app, &["add", "acme/signed-skill"]);
    assert!(
        // The entry also pins the archive's size: the larger archive is
        // refused before its digest is checked against the bundle.
        out.stderr
            .contains("signed-skill-1.0.0.skill: the answer is larger than"),
        "{}",
        out.stderr
    );
    assert!(
        !app.join(".agents/skills/signed-skill").exists(),
        "nothing is installed"
    );
}

#[test]
fn a_well_known_skill_with_files_outside_its_signature_reinstalls_from_the_lock() {
    use std::io::Write as _;
    let ctx = TestContext::new();
    let site_root = ctx.root().join("site");
    let mut files: Vec<(String, Vec<u8>)> = files_of(&oms_fixture("signed"))
        .into_iter()
        .map(|name| {
            let bytes = std::fs::read(oms_fixture("signed").join(&name)).unwrap();
            (name, bytes)
        })
        .collect();
    files.push((".github/run.sh".into(), b"#!/bin/sh\necho added\n".to_vec()));
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in &files {
        let options = zip::write::SimpleFileOptions::default().unix_permissions(0o644);
        zip.start_file(name.as_str(), options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    let archive = zip.finish().unwrap().into_inner();
    let folder = site_root.join(".well-known/agent-skills");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("signed.zip"), &archive).unwrap();
    let index = serde_json::json!({
        "$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
        "skills": [{"name": "signed", "type": "archive", "description": "A signed skill.",
                    "url": "signed.zip", "digest": crate::common::registry::digest_of(&archive)}],
    });
    std::fs::write(folder.join("index.json"), index.to_string()).unwrap();
    let server = crate::server::StaticServer::start(&site_root);
    let url = server.url().trim_end_matches('/').to_string();

    let app = new_project(&ctx, None);
    let root = oms_fixture("root.pem");
    ctx.ok(&["trust", &url, "--oms-root", root.to_str().unwrap()]);
    let out = ctx.ok_in(&app, &["add", "--well-known", &url]);
    assert!(out.stderr.contains("left out files"), "{}", out.stderr);
    assert_eq!(files_of(&app.join(".agents/skills/signed")), signed_files());

    // A fresh clone installs the same vouched files from the lock.
    let copy = crate::common::fresh_copy(&ctx, &app);
    ctx.ok_in(&copy, &["trust", "--project"]);
    ctx.ok_in(&copy, &["install", "--locked"]);
    assert_eq!(
        files_of(&copy.join(".agents/skills/signed")),
        signed_files()
    );
    ctx.ok_in(&copy, &["verify"]);
}
