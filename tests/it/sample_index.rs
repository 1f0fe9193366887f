//! The shipped `registry-index/`: every archive matches its checksum and
//! signature, and the sample skills behave.

use std::path::{Path, PathBuf};
use std::process::Command;

use skillpkg::index::local::IndexDir;
use skillpkg::store::extract::extract;
use skillpkg::store::limits::Limits;
use skillpkg::store::{hash, signing};

use crate::common::{TestContext, run};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_shipped_archive_matches_its_checksum_and_signature() {
    let index = IndexDir::open(&repo().join("registry-index")).unwrap();
    let config = index.config().unwrap();
    let keys = &config.keys["example"];
    assert_eq!(keys.len(), 1);
    let packages = index.packages().unwrap();
    assert!(packages.len() >= 3, "{packages:?}");
    let ctx = TestContext::new();
    let mut checked = 0;
    for package in &packages {
        assert_eq!(package.org, "example");
        for entry in index.entries(package).unwrap() {
            let archive_path = index.root().join(package.archive_path(&entry.vers));
            let bytes = std::fs::read(&archive_path).unwrap();
            let cksum = hash::sha256_hex(&bytes);
            assert_eq!(entry.cksum, cksum, "{}", archive_path.display());
            assert_eq!(entry.size, bytes.len() as u64);
            let comment = signing::trusted_comment(&entry.name, &entry.vers, &cksum);
            signing::verify_for(&keys[0], &bytes, &entry.sig, &comment).unwrap();
            let staged = extract(
                &archive_path,
                Some(&package.name),
                &ctx.root().join("staging"),
                &Limits::default(),
            )
            .unwrap();
            // Validated in a folder named after the skill, as installed.
            let installed = ctx
                .root()
                .join(format!("checked-{checked}"))
                .join(&package.name);
            std::fs::create_dir_all(installed.parent().unwrap()).unwrap();
            staged.persist(&installed).unwrap();
            let report = skillpkg::skill::validate::validate(&installed, Default::default());
            assert!(report.valid, "{:?}", report.problems);
            for dep in &entry.deps {
                let dep_name: skillpkg::index::PackageName = dep.name.parse().unwrap();
                assert!(
                    packages.contains(&dep_name),
                    "{} depends on missing {}",
                    entry.name,
                    dep.name
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 4);
}

#[test]
fn shipped_archives_are_current_with_their_sources() {
    let index = IndexDir::open(&repo().join("registry-index")).unwrap();
    for package in index.packages().unwrap() {
        let source = repo().join("sample-skills").join(&package.name);
        let scratch = tempfile::tempdir().unwrap();
        let packed = skillpkg::ops::pack::pack_skill(
            &source,
            skillpkg::ops::pack::Validity::Reference,
            &Limits::default(),
            scratch.path(),
        )
        .unwrap();
        for entry in index.entries(&package).unwrap() {
            assert_eq!(
                entry.cksum, packed.archive.sha256,
                "registry-index is stale for {package}: run scripts/build-sample-index.sh"
            );
        }
    }
}

fn extract_script() -> PathBuf {
    repo().join("sample-skills/pdf-processing/scripts/extract_text.sh")
}

#[test]
fn pdf_script_extracts_text_from_a_real_pdf() {
    if !crate::common::has_pdftotext() {
        return;
    }
    let pdf = repo().join("../shared/corpus/anthropics-skills/theme-factory/theme-showcase.pdf");
    if !pdf.is_file() {
        assert!(
            std::env::var_os("CI").is_none(),
            "the corpus PDF must be at {} under CI",
            pdf.display()
        );
        eprintln!("SKIPPED: the corpus PDF is not at {}", pdf.display());
        return;
    }
    let ctx = TestContext::new();
    let out = run(Command::new(extract_script()).arg(&pdf)).assert_ok();
    assert!(
        out.stdout.to_lowercase().contains("theme"),
        "{}",
        &out.stdout[..out.stdout.len().min(500)]
    );
    let target = ctx.root().join("out.txt");
    run(Command::new(extract_script()).arg(&pdf).arg(&target)).assert_ok();
    assert!(
        std::fs::read_to_string(&target).unwrap().contains('\u{c}'),
        "pages are separated by form feeds"
    );

    let missing =
        run(Command::new(extract_script()).arg(ctx.root().join("nope.pdf"))).assert_fails();
    assert!(missing.stderr.contains("no such file"));
}

#[test]
fn pdf_script_explains_a_missing_pdftotext() {
    let ctx = TestContext::new();
    // A PATH with the shell's basic tools but no pdftotext.
    let bin = ctx.root().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let out = run(Command::new("/bin/sh")
        .arg(extract_script())
        .arg("x.pdf")
        .env("PATH", &bin));
    assert_eq!(out.status, 127);
    assert!(
        out.stderr.contains("pdftotext is not installed")
            && out.stderr.contains("apt-get install poppler-utils"),
        "{}",
        out.stderr
    );
}
