//! `.skill` archives: deterministic packing and hostile-archive refusal.

use std::io::Write;
use std::path::{Path, PathBuf};

use skillpkg::store::extract::{ExtractError, extract};
use skillpkg::store::limits::Limits;
use zip::write::SimpleFileOptions;

use crate::common::{TestContext, run, skill_md, write_skill};

fn set_tree_times_and_modes(dir: &Path, seconds: u64, exec_mode: u32, file_mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let path = entry.path();
            let executable = std::fs::metadata(path).unwrap().permissions().mode() & 0o111 != 0;
            let mode = if executable { exec_mode } else { file_mode };
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
            let file = std::fs::File::options().write(true).open(path).unwrap();
            file.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(seconds))
                .unwrap();
        }
    }
}

fn sample_tree(root: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = write_skill(
        root,
        "sample",
        &skill_md("sample", "A sample. Use when packing."),
    );
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::create_dir_all(dir.join("assets/deep")).unwrap();
    std::fs::write(dir.join("scripts/run.sh"), "#!/bin/sh\necho hi\n").unwrap();
    std::fs::set_permissions(
        dir.join("scripts/run.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    std::fs::write(
        dir.join("assets/deep/data.bin"),
        (0..=255u8).cycle().take(70_000).collect::<Vec<_>>(),
    )
    .unwrap();
    std::fs::write(dir.join("assets/b.txt"), "b").unwrap();
    std::fs::write(dir.join("assets/a.txt"), "a").unwrap();
    // Left out: VCS metadata, OS junk, and what .skillignore lists.
    std::fs::create_dir_all(dir.join(".git/objects")).unwrap();
    std::fs::write(dir.join(".git/HEAD"), "ref").unwrap();
    std::fs::write(dir.join(".DS_Store"), "junk").unwrap();
    std::fs::write(dir.join("assets/._a.txt"), "junk").unwrap();
    std::fs::write(dir.join(".skillignore"), "*.log\nbuild/\n").unwrap();
    std::fs::write(dir.join("debug.log"), "noise").unwrap();
    std::fs::create_dir_all(dir.join("build")).unwrap();
    std::fs::write(dir.join("build/out.o"), "obj").unwrap();
    dir
}

fn entry_names(archive: &Path) -> Vec<(String, u32)> {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(archive).unwrap()).unwrap();
    (0..zip.len())
        .map(|i| {
            let f = zip.by_index(i).unwrap();
            (
                f.name().unwrap().to_string(),
                f.unix_mode().unwrap() & 0o777,
            )
        })
        .collect()
}

#[test]
fn packing_one_tree_twice_gives_identical_bytes() {
    let ctx = TestContext::new();
    let first = sample_tree(&ctx.root().join("one"));
    set_tree_times_and_modes(&first, 1_000_000, 0o755, 0o644);
    // A copy elsewhere, with other mtimes and a stricter umask's modes.
    let second = sample_tree(&ctx.root().join("elsewhere/two"));
    set_tree_times_and_modes(&second, 1_700_000_000, 0o700, 0o600);

    let a = run(ctx.command().args(["pack", "-o", "a.skill"]).arg(&first)).assert_ok();
    let b = run(ctx.command().args(["pack", "-o", "b.skill"]).arg(&second)).assert_ok();
    let bytes_a = std::fs::read(ctx.project.join("a.skill")).unwrap();
    let bytes_b = std::fs::read(ctx.project.join("b.skill")).unwrap();
    assert!(bytes_a == bytes_b, "archives differ");
    assert_eq!(a.stdout, b.stdout, "same sha256 printed");
    assert!(a.stdout.starts_with("sha256:") && a.stdout.trim().len() == 7 + 64);

    assert_eq!(
        entry_names(&ctx.project.join("a.skill")),
        [
            ("sample/SKILL.md".to_string(), 0o644),
            ("sample/assets/a.txt".to_string(), 0o644),
            ("sample/assets/b.txt".to_string(), 0o644),
            ("sample/assets/deep/data.bin".to_string(), 0o644),
            ("sample/scripts/run.sh".to_string(), 0o755),
        ]
    );
}

#[test]
fn pack_refuses_invalid_skills_and_symlinks() {
    let ctx = TestContext::new();
    let bad = write_skill(ctx.root(), "Bad", &skill_md("Bad", "x"));
    let out = run(ctx.command().arg("pack").arg(&bad)).assert_fails();
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: [TEMP]/Bad is not a valid skill:
      [TEMP]/Bad/SKILL.md: error[name-lowercase]: Skill name 'Bad' must be lowercase
    hint: fix these, then check with `skillpkg validate [TEMP]/Bad`
    ");

    let linked = write_skill(
        ctx.root(),
        "linked",
        &skill_md("linked", "Links. Use when testing."),
    );
    std::os::unix::fs::symlink("/etc/passwd", linked.join("passwd")).unwrap();
    let out = run(ctx.command().arg("pack").arg(&linked)).assert_fails();
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    error: [TEMP]/linked/passwd is a symbolic link: skills are packed as regular files only
    hint: replace the link with the file it points to, or list it in .skillignore
    ");
    assert!(!ctx.project.join("linked.skill").exists());
}

#[test]
fn packed_corpus_skills_round_trip_with_binaries_and_exec_bits() {
    let corpus =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/anthropics-skills");
    if !corpus.is_dir() {
        eprintln!("SKIPPED: the skills corpus is not at {}", corpus.display());
        return;
    }
    let ctx = TestContext::new();
    for name in [
        "theme-factory",
        "web-artifacts-builder",
        "skill-creator",
        "slack-gif-creator",
    ] {
        let source = corpus.join(name);
        run(ctx
            .command()
            .args(["pack", "-o"])
            .arg(format!("{name}.skill"))
            .arg(&source))
        .assert_ok();
        let staging = ctx.root().join("staging");
        let staged = extract(
            &ctx.project.join(format!("{name}.skill")),
            Some(name),
            &staging,
            &Limits::default(),
        )
        .unwrap();
        for entry in walkdir::WalkDir::new(&source) {
            let entry = entry.unwrap();
            if !entry.file_type().is_file() {
                continue;
            }
            let relative = entry.path().strip_prefix(&source).unwrap();
            let copy = staged.path().join(relative);
            assert_eq!(
                std::fs::read(entry.path()).unwrap(),
                std::fs::read(&copy).unwrap(),
                "{}",
                relative.display()
            );
            use std::os::unix::fs::PermissionsExt;
            let exec = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o111 != 0;
            assert_eq!(
                exec(entry.path()),
                exec(&copy),
                "exec bit of {}",
                relative.display()
            );
        }
    }
}

/// Builds a zip with the given (name, contents, unix mode) entries.
fn zip_with(entries: &[(&str, &[u8], u32)]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, contents, mode) in entries {
        let options = SimpleFileOptions::default().unix_permissions(*mode);
        if mode & 0o170000 == 0o120000 {
            zip.add_symlink(
                *name,
                std::str::from_utf8(contents).unwrap(),
                SimpleFileOptions::default(),
            )
            .unwrap();
        } else {
            zip.start_file(*name, options).unwrap();
            zip.write_all(contents).unwrap();
        }
    }
    zip.finish().unwrap().into_inner()
}

const GOOD_MD: &[u8] = b"---\nname: ok\ndescription: Fine.\n---\nbody\n";

fn refusal(ctx: &TestContext, label: &str, bytes: &[u8], limits: &Limits) -> String {
    let archive = ctx.root().join(format!("{label}.skill"));
    std::fs::write(&archive, bytes).unwrap();
    let staging = ctx.root().join("staging");
    std::fs::create_dir_all(&staging).unwrap();
    let err = extract(&archive, Some("ok"), &staging, limits).expect_err(label);
    let leftovers: Vec<_> = std::fs::read_dir(&staging).unwrap().collect();
    assert!(
        leftovers.is_empty(),
        "{label}: staging not cleaned: {leftovers:?}"
    );
    assert!(
        !ctx.root().join("etc").exists() && !ctx.root().join("evil").exists(),
        "{label}: wrote outside"
    );
    let message = err.to_string();
    assert!(
        message.contains(&archive.display().to_string()),
        "{label}: error must name the archive: {message}"
    );
    match err {
        ExtractError::Refused { refusal, .. } => format!("{refusal:?}"),
        other => panic!("{label}: unexpected {other}"),
    }
}

#[test]
fn every_hostile_archive_class_is_refused_and_leaves_nothing() {
    let ctx = TestContext::new();
    let limits = Limits::default();
    let good = ("ok/SKILL.md", GOOD_MD, 0o644);

    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "absolute",
            zip_with(&[good, ("/etc/evil", b"x", 0o644)]),
            "AbsolutePath",
        ),
        (
            "dotdot",
            zip_with(&[good, ("ok/../../evil", b"x", 0o644)]),
            "ParentComponent",
        ),
        (
            "backslash",
            zip_with(&[good, ("ok\\..\\evil", b"x", 0o644)]),
            "Backslash",
        ),
        (
            "drive",
            zip_with(&[good, ("C:evil", b"x", 0o644)]),
            "DrivePrefix",
        ),
        (
            "symlink",
            zip_with(&[good, ("ok/link", b"/etc/passwd", 0o120777)]),
            "Symlink",
        ),
        (
            "outside",
            zip_with(&[good, ("other/file", b"x", 0o644)]),
            "OutsideRoot",
        ),
        (
            "top-level file",
            zip_with(&[good, ("ok", b"x", 0o644)]),
            "OutsideRoot",
        ),
        (
            "no skill md",
            zip_with(&[("ok/README.md", b"x", 0o644)]),
            "MissingSkillMd",
        ),
        (
            "mismatched skill md",
            zip_with(&[(
                "ok/SKILL.md",
                b"---\nname: other\ndescription: x\n---\n",
                0o644,
            )]),
            "BadSkillMd",
        ),
        (
            "broken skill md",
            zip_with(&[("ok/SKILL.md", b"no frontmatter", 0o644)]),
            "BadSkillMd",
        ),
        (
            "wrong skill",
            zip_with(&[("evil/SKILL.md", GOOD_MD, 0o644)]),
            "WrongSkill",
        ),
        ("empty", zip_with(&[]), "Empty"),
        (
            "not a zip",
            b"this is not a zip archive at all".to_vec(),
            "NotZip",
        ),
    ];
    for (label, bytes, expected) in &cases {
        let got = refusal(&ctx, label, bytes, &limits);
        assert!(
            got.starts_with(expected),
            "{label}: expected {expected}, got {got}"
        );
    }

    // Duplicate names: write two entries, then give the second the first's name.
    let mut bytes = zip_with(&[good, ("ok/aaaa", b"1", 0o644), ("ok/bbbb", b"2", 0o644)]);
    let mut i = 0;
    while let Some(at) = bytes[i..].windows(7).position(|w| w == b"ok/bbbb") {
        bytes[i + at..i + at + 7].copy_from_slice(b"ok/aaaa");
        i += at + 7;
    }
    assert!(refusal(&ctx, "duplicate", &bytes, &limits).starts_with("DuplicateInDirectory"));
    // A directory entry and a file entry with the same path.
    let same = zip_with(&[good, ("ok/a/", b"", 0o755), ("ok/a", b"x", 0o644)]);
    assert!(refusal(&ctx, "file over directory", &same, &limits).starts_with("Duplicate"));

    // Truncated: a valid archive cut short.
    let full = zip_with(&[good, ("ok/data", &[7u8; 5000], 0o644)]);
    assert!(refusal(&ctx, "truncated", &full[..full.len() - 30], &limits).starts_with("NotZip"));

    // Limits: entries, total size, compression ratio.
    let many: Vec<(String, Vec<u8>)> = (0..20).map(|i| (format!("ok/f{i}"), vec![b'x'])).collect();
    let mut entries: Vec<(&str, &[u8], u32)> = vec![good];
    entries.extend(many.iter().map(|(n, c)| (n.as_str(), c.as_slice(), 0o644)));
    let small = Limits {
        max_entries: 10,
        ..limits
    };
    assert!(refusal(&ctx, "too many", &zip_with(&entries), &small).starts_with("TooManyEntries"));
    let tiny = Limits {
        max_total_bytes: 1000,
        ..limits
    };
    assert!(
        refusal(
            &ctx,
            "too big",
            &zip_with(&[good, ("ok/big", &[1u8; 2000], 0o644)]),
            &tiny
        )
        .starts_with("TooLarge")
    );
    let zeros = vec![0u8; 20 * 1024 * 1024];
    assert!(
        refusal(
            &ctx,
            "bomb",
            &zip_with(&[good, ("ok/zeros", &zeros, 0o644)]),
            &limits
        )
        .starts_with("CompressionRatio")
    );
}

#[test]
fn a_good_archive_extracts_and_persists() {
    let ctx = TestContext::new();
    let bytes = zip_with(&[
        ("ok/SKILL.md", GOOD_MD, 0o644),
        ("ok/scripts/x.sh", b"#!/bin/sh\n", 0o755),
    ]);
    let archive = ctx.root().join("ok.skill");
    std::fs::write(&archive, bytes).unwrap();
    let staged = extract(
        &archive,
        Some("ok"),
        &ctx.root().join("staging"),
        &Limits::default(),
    )
    .unwrap();
    let target = ctx.root().join("staging/ok");
    staged.persist(&target).unwrap();
    assert!(target.join("scripts/x.sh").is_file());
    let names: Vec<_> = std::fs::read_dir(ctx.root().join("staging"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["ok"], "the staging directory is gone");
}
