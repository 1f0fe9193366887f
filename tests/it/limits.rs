//! One set of limits: what `pack` and `publish` accept is what every
//! install accepts; `--max-skill-size` moves the size limit on all of
//! them; an entry file of many versions installs over HTTP.

use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use crate::common::{AcmeIndex, TestContext, new_project, skill_md, write_skill};
use crate::server::StaticServer;

/// `len` bytes that do not compress (sha256 in counter mode), so that no
/// zip-bomb ratio check has anything to say about them.
fn incompressible(len: usize) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(len + 32);
    let mut counter = 0u64;
    while bytes.len() < len {
        bytes.extend_from_slice(&Sha256::digest(counter.to_le_bytes()));
        counter += 1;
    }
    bytes.truncate(len);
    bytes
}

/// A skill `name` at version 1.0.0 under `<temp>/src`.
fn skill(ctx: &TestContext, name: &str) -> PathBuf {
    let text = format!(
        "---\nname: {name}\ndescription: The {name} skill. Use when testing.\nmetadata:\n  version: \"1.0.0\"\n---\nBody.\n"
    );
    write_skill(&ctx.root().join("src"), name, &text)
}

/// `skillpkg publish <dir>` of org acme into `acme`'s folder index, with
/// `extra` arguments.
fn publish(
    ctx: &TestContext,
    acme: &AcmeIndex,
    dir: &Path,
    extra: &[&str],
) -> crate::common::Output {
    let mut args = acme.publish_args(dir, "1.0.0");
    args.extend(extra.iter().map(|arg| arg.to_string()));
    ctx.run(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn a_skill_of_more_files_than_installs_take_is_refused_by_pack_and_publish() {
    let ctx = TestContext::new();
    let acme = AcmeIndex::new(&ctx);
    let dir = skill(&ctx, "many");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    // SKILL.md and 10,000 more: one past the limit.
    for i in 0..10_000 {
        std::fs::write(files.join(format!("{i:05}.md")), "x\n").unwrap();
    }
    let packed = ctx.fails(&["pack", dir.to_str().unwrap(), "-o", "many.skill"]);
    insta::assert_snapshot!(ctx.redact(&packed.stderr), @"
    error: [TEMP]/src/many holds 10001 files, more than the 10000 a skill may hold (installs refuse more)
    hint: leave files out with .skillignore (gitignore syntax): no flag raises the limit of 10000 files
    ");
    assert!(!ctx.project.join("many.skill").exists());
    // --max-skill-size moves the size limit, not this one.
    let published = publish(&ctx, &acme, &dir, &["--max-skill-size", "1GB"]).assert_fails();
    assert_eq!(published.stderr, packed.stderr);
    assert!(!acme.index.join("index/acme/many").exists());
    assert!(!acme.index.join("packages/acme/many").exists());

    // One file fewer packs, publishes and installs.
    std::fs::remove_file(files.join("09999.md")).unwrap();
    publish(&ctx, &acme, &dir, &[]).assert_ok();
    let app = new_project(&ctx, Some(acme.index.to_str().unwrap()));
    ctx.ok_in(&app, &["add", "acme/many"]);
    assert!(app.join(".agents/skills/many/files/09998.md").is_file());
}

#[test]
fn max_skill_size_moves_the_size_limit_of_pack_publish_and_every_install() {
    let ctx = TestContext::new();
    let acme = AcmeIndex::new(&ctx);
    let dir = skill(&ctx, "big");
    std::fs::write(dir.join("data.bin"), incompressible(2 << 20)).unwrap();
    let path = dir.to_str().unwrap();

    // Held to 1 MiB, the 2 MiB skill is refused, naming the limit and
    // the flag; given 4 MiB, it goes through.
    let packed = ctx.fails(&["pack", path, "--max-skill-size", "1MiB"]);
    insta::assert_snapshot!(ctx.redact(&packed.stderr), @"
    error: [TEMP]/src/big holds 2.0 MiB (2097251 bytes) of files, more than the 1 MiB a skill may hold unpacked (installs refuse more)
    hint: raise the limit with --max-skill-size (say --max-skill-size 4MiB), given to pack, publish and every install of it, or leave large files out with .skillignore
    ");
    ctx.ok(&["pack", path, "--max-skill-size", "4MiB", "-o", "big.skill"]);
    let published = publish(&ctx, &acme, &dir, &["--max-skill-size", "1MiB"]).assert_fails();
    assert_eq!(published.stderr, packed.stderr);
    assert!(!acme.index.join("index/acme/big").exists());
    publish(&ctx, &acme, &dir, &["--max-skill-size", "4MiB"]).assert_ok();

    // An install held to less refuses the archive, with the flag to raise it.
    let app = new_project(&ctx, Some(acme.index.to_str().unwrap()));
    let refused = ctx.fails_in(&app, &["add", "acme/big", "--max-skill-size", "1MiB"]);
    assert!(
        refused
            .stderr
            .contains("takes the unpacked size past the limit of 1 MiB"),
        "{}",
        refused.stderr
    );
    assert!(
        refused.stderr.contains(
            "hint: if the skill is that large on purpose, raise the limit with --max-skill-size"
        ),
        "{}",
        refused.stderr
    );
    assert!(!app.join(".agents/skills/big").exists());
    ctx.ok_in(&app, &["add", "acme/big", "--max-skill-size", "4MiB"]);
    assert_eq!(
        std::fs::read(app.join(".agents/skills/big/data.bin")).unwrap(),
        std::fs::read(dir.join("data.bin")).unwrap()
    );

    // A folder is held to the same limits.
    let refused = ctx.fails_in(&app, &["add", "--path", path, "--max-skill-size", "1MiB"]);
    assert!(
        refused
            .stderr
            .contains("more than the 1 MiB a skill may hold unpacked"),
        "{}",
        refused.stderr
    );
}

#[test]
fn a_file_installs_would_take_for_a_zip_bomb_is_refused_by_pack_and_publish() {
    let ctx = TestContext::new();
    let acme = AcmeIndex::new(&ctx);
    let dir = skill(&ctx, "zeros");
    // 4 MiB of zeros deflate over 1,000 times.
    std::fs::write(dir.join("zeros.bin"), vec![0u8; 4 << 20]).unwrap();
    let packed = ctx.fails(&["pack", dir.to_str().unwrap()]);
    let stderr = ctx.redact(&packed.stderr);
    assert!(
        stderr.starts_with("error: [TEMP]/src/zeros cannot be packed: every install would refuse its archive: entry 'zeros/zeros.bin' inflates"),
        "{stderr}"
    );
    assert!(
        stderr.contains("hint: installs take a file that inflates over 200x for a zip bomb"),
        "{stderr}"
    );
    assert_eq!(
        publish(&ctx, &acme, &dir, &[]).assert_fails().stderr,
        packed.stderr
    );
    assert!(!acme.index.join("index/acme/zeros").exists());
}

#[test]
fn a_package_of_ten_thousand_versions_installs_over_http() {
    let ctx = TestContext::new();
    let acme = AcmeIndex::new(&ctx);
    let tool = write_skill(
        &ctx.root().join("src"),
        "tool",
        &skill_md("tool", "A tool. Use when testing."),
    );
    acme.publish_version(&ctx, &tool, "1.0.0");
    // 9,999 older versions before it: an entry file of about 7 MB, past
    // what other index files may be. Only 1.0.0 has an archive.
    let entry_file = acme.index.join("index/acme/tool");
    let line = std::fs::read_to_string(&entry_file).unwrap();
    let mut text = String::with_capacity(line.len() * 10_000);
    for i in 0..9_999 {
        text.push_str(&line.replace(
            "\"vers\":\"1.0.0\"",
            &format!("\"vers\":\"0.{}.{}\"", i / 100, i % 100),
        ));
    }
    text.push_str(&line);
    std::fs::write(&entry_file, &text).unwrap();
    assert!(text.len() > 4 << 20, "{}", text.len());
    let server = StaticServer::start(&acme.index);
    let app = new_project(&ctx, Some(&server.url()));
    ctx.ok_in(&app, &["add", "acme/tool"]);
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(lock.contains("version = \"1.0.0\""), "{lock}");
    assert!(app.join(".agents/skills/tool/SKILL.md").is_file());
}
