//! OpenSSF Model Signing in `signature verify`: skill folders signed by
//! `tests/fixtures/oms/make.py` (a test CA and keys; bundles written as
//! model_signing 1.1.1 writes them, and given the same verdicts by it)
//! verify by their root or their key, and each broken check fails naming
//! the folder, the signature and the check.

use crate::common::{Output, TestContext, copy_dir};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/oms/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A copy of the fixture folder `name` in the project (the working
/// directory), to change; it is named `name` there too.
fn copy(ctx: &TestContext, name: &str) -> PathBuf {
    let to = ctx.project.join(name);
    copy_dir(Path::new(&fixture(name)), &to);
    to
}

/// `signature verify DIR --oms-root ROOT` and `extra`, in the project.
fn by_root(ctx: &TestContext, dir: &str, root: &str, extra: &[&str]) -> Output {
    let root = fixture(root);
    let mut args = vec!["signature", "verify", dir, "--oms-root", &root];
    args.extend_from_slice(extra);
    ctx.run(&args)
}

/// `signature verify DIR --key KEY` and `extra`, in the project.
fn by_key(ctx: &TestContext, dir: &str, key: &str, extra: &[&str]) -> Output {
    let key = fixture(key);
    let mut args = vec!["signature", "verify", dir, "--key", &key];
    args.extend_from_slice(extra);
    ctx.run(&args)
}

/// The output failed, naming the folder, its signature and `check`.
#[track_caller]
fn refused(out: Output, dir: &str, check: &str) {
    let out = out.assert_fails();
    assert!(
        out.stderr.contains(&format!(
            "{dir}: the oms signature {dir}/skill.oms.sig does not verify"
        )),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains(check), "{check}: {}", out.stderr);
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `sha256:<hex>` of the DER inside a one-block PEM file.
fn der_fingerprint(pem_file: &str) -> String {
    use base64::Engine as _;
    let text = std::fs::read_to_string(fixture(pem_file)).unwrap();
    let body: String = text.lines().filter(|l| !l.starts_with("-----")).collect();
    let der = base64::engine::general_purpose::STANDARD
        .decode(body)
        .unwrap();
    format!("sha256:{}", sha256_hex(&der))
}

#[test]
fn a_signed_folder_verifies_by_its_root_naming_the_signer_and_the_root() {
    let ctx = TestContext::new();
    copy(&ctx, "signed");
    let out = by_root(&ctx, "signed", "root.pem", &["--json"]).assert_ok();
    let verdict: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(verdict["verified"], true);
    assert_eq!(verdict["signer"]["family"], "oms");
    assert_eq!(
        verdict["signer"]["subject"],
        "CN=skillpkg test OMS signer (p256),O=skillpkg tests"
    );
    assert_eq!(verdict["signer"]["chain"], der_fingerprint("root.pem"));
    let bundle = std::fs::read(fixture("signed/skill.oms.sig")).unwrap();
    assert_eq!(
        verdict["signature"],
        format!("sha256:{}", sha256_hex(&bundle))
    );

    let out = by_root(&ctx, "signed", "root.pem", &[]).assert_ok();
    insta::assert_snapshot!(out.stderr, @"    Verified signed: signed by CN=skillpkg test OMS signer (p256),O=skillpkg tests (root sha256:1ffe64a5b476bfcec207155e00412f9965c00d36bb8471aca7a45eb9328cd7e4)");

    // A P-384 leaf whose bundle carries the root too; a leaf that may sign
    // by extendedKeyUsage codeSigning alone; a leaf expired since, which
    // the reference verifies at its notBefore.
    for name in ["p384", "code-signing", "expired"] {
        by_root(&ctx, &fixture(name), "root.pem", &[]).assert_ok();
    }
    // Several roots in one file: any of them will do.
    let both = ctx.root().join("roots.pem");
    let text = std::fs::read_to_string(fixture("other-root.pem")).unwrap()
        + &std::fs::read_to_string(fixture("root.pem")).unwrap();
    std::fs::write(&both, text).unwrap();
    ctx.ok(&[
        "signature",
        "verify",
        "signed",
        "--oms-root",
        both.to_str().unwrap(),
    ]);
}

#[test]
fn a_keyed_folder_verifies_by_its_key_and_not_another() {
    let ctx = TestContext::new();
    copy(&ctx, "keyed");
    let out = by_key(&ctx, "keyed", "signer.pub", &["--json"]).assert_ok();
    let verdict: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(verdict["signer"]["family"], "oms-key");
    assert_eq!(verdict["signer"]["key"], der_fingerprint("signer.pub"));

    refused(
        by_key(&ctx, "keyed", "other.pub", &[]),
        "keyed",
        "(sha256 of its PEM), not the key given",
    );
    // The flows do not stand in for each other.
    refused(
        by_root(&ctx, "keyed", "root.pem", &[]),
        "keyed",
        "signed by a bare key, not a certificate chain",
    );
    copy(&ctx, "signed");
    refused(
        by_key(&ctx, "signed", "signer.pub", &[]),
        "signed",
        "signed by a certificate chain, not a bare key",
    );
    // model_signing verifies P-521 signatures; skillpkg says it cannot.
    copy(&ctx, "p521");
    refused(by_key(&ctx, "p521", "p521.pub", &[]), "p521", "P-521");
}

#[test]
fn an_edited_added_or_removed_file_fails_naming_it() {
    let ctx = TestContext::new();
    let dir = copy(&ctx, "signed");
    std::fs::write(dir.join("scripts/run.sh"), "#!/bin/sh\nrm -rf ~\n").unwrap();
    std::fs::write(dir.join("extra.txt"), "new\n").unwrap();
    std::fs::write(dir.join("scripts/.hidden"), "new\n").unwrap();
    std::fs::remove_file(dir.join(".env.example")).unwrap();
    let out = by_root(&ctx, "signed", "root.pem", &[]).assert_fails();
    insta::assert_snapshot!(out.stderr, @"
    error: signed: the oms signature signed/skill.oms.sig does not verify
      Caused by: .env.example is signed but missing; extra.txt is not covered by the signature; scripts/.hidden is not covered by the signature; scripts/run.sh was changed after signing
    ");
}

#[test]
fn ignore_unsigned_files_lets_unsigned_files_be_but_not_missing_ones() {
    let ctx = TestContext::new();
    let dir = copy(&ctx, "signed");
    std::fs::write(dir.join("extra.txt"), "new\n").unwrap();
    refused(
        by_root(&ctx, "signed", "root.pem", &[]),
        "signed",
        "extra.txt is not covered by the signature",
    );
    by_root(&ctx, "signed", "root.pem", &["--ignore-unsigned-files"]).assert_ok();
    std::fs::remove_file(dir.join("scripts/run.sh")).unwrap();
    refused(
        by_root(&ctx, "signed", "root.pem", &["--ignore-unsigned-files"]),
        "signed",
        "scripts/run.sh is signed but missing",
    );
    // A signed file reached through a link fails, even when only the
    // signed files are checked.
    std::fs::rename(dir.join("scripts"), ctx.root().join("elsewhere")).unwrap();
    std::fs::write(
        ctx.root().join("elsewhere/run.sh"),
        "#!/bin/sh\necho signed\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(ctx.root().join("elsewhere"), dir.join("scripts")).unwrap();
    refused(
        by_root(&ctx, "signed", "root.pem", &["--ignore-unsigned-files"]),
        "signed",
        "scripts is a symbolic link",
    );
}

#[test]
fn git_files_and_ignore_paths_are_left_out_at_the_root_only() {
    let ctx = TestContext::new();
    let dir = copy(&ctx, "signed");
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    std::fs::write(dir.join(".git/config"), "[core]\n").unwrap();
    std::fs::write(dir.join(".gitignore"), "*.log\n").unwrap();
    // `drafts` is in the signature's ignore_paths.
    std::fs::write(dir.join("drafts/more.md"), "more\n").unwrap();
    by_root(&ctx, "signed", "root.pem", &[]).assert_ok();
    std::fs::write(dir.join("scripts/.gitignore"), "*.log\n").unwrap();
    refused(
        by_root(&ctx, "signed", "root.pem", &[]),
        "signed",
        "scripts/.gitignore is not covered by the signature",
    );
}

#[test]
fn another_folders_signature_fails() {
    let ctx = TestContext::new();
    copy(&ctx, "signed");
    let other = fixture("p384/skill.oms.sig");
    let out = by_root(&ctx, "signed", "root.pem", &["--signature", &other]).assert_fails();
    assert!(
        out.stderr.contains("SKILL.md was changed after signing"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("scripts/run.sh is not covered by the signature"),
        "{}",
        out.stderr
    );
}

#[test]
fn the_right_signature_under_another_root_fails() {
    let ctx = TestContext::new();
    copy(&ctx, "signed");
    let cases = [
        (
            "other-root.pem",
            "no root given issued the chain's certificates",
        ),
        // The intermediate alone is no root: no partial chains.
        ("intermediate.pem", "holds no self-signed root certificate"),
        // The same root key and name, with one thing changed.
        (
            "root-pathlen0.pem",
            "allows 0 intermediate(s) below it, and the chain has 1",
        ),
        ("root-expired.pem", "is not valid when the leaf was issued"),
        (
            "root-no-cert-sign.pem",
            "OMS root,O=skillpkg tests is a CA whose keyUsage lacks keyCertSign",
        ),
    ];
    for (root, check) in cases {
        refused(by_root(&ctx, "signed", root, &[]), "signed", check);
    }
}

#[test]
fn leaves_that_may_not_sign_and_cas_that_may_not_issue_fail() {
    let ctx = TestContext::new();
    for (name, check) in [
        (
            "no-usage",
            "has neither keyUsage digitalSignature nor extendedKeyUsage codeSigning",
        ),
        ("not-a-ca", "a certificate that is not a CA issued another"),
        (
            "no-cert-sign",
            "OMS intermediate,O=skillpkg tests is a CA whose keyUsage lacks keyCertSign",
        ),
    ] {
        copy(&ctx, name);
        refused(by_root(&ctx, name, "root.pem", &[]), name, check);
    }
}

#[test]
fn links_and_special_files_fail_even_where_ignored() {
    let ctx = TestContext::new();
    let dir = copy(&ctx, "signed");
    std::os::unix::fs::symlink("run.sh", dir.join("scripts/again.sh")).unwrap();
    refused(
        by_root(&ctx, "signed", "root.pem", &[]),
        "signed",
        "scripts/again.sh is a symbolic link",
    );
    std::fs::remove_file(dir.join("scripts/again.sh")).unwrap();
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", dir.join(".git/link")).unwrap();
    refused(
        by_root(&ctx, "signed", "root.pem", &[]),
        "signed",
        ".git/link is a symbolic link",
    );
    std::fs::remove_file(dir.join(".git/link")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(dir.join("drafts/pipe"))
        .status()
        .unwrap();
    assert!(fifo.success());
    refused(
        by_root(&ctx, "signed", "root.pem", &[]),
        "signed",
        "drafts/pipe is not a regular file",
    );
    std::fs::remove_file(dir.join("drafts/pipe")).unwrap();
    by_root(&ctx, "signed", "root.pem", &[]).assert_ok();

    // The folder itself, reached through a link.
    std::os::unix::fs::symlink(&dir, ctx.project.join("linked")).unwrap();
    let signature = dir.join("skill.oms.sig");
    let out = by_root(
        &ctx,
        "linked",
        "root.pem",
        &["--signature", signature.to_str().unwrap()],
    )
    .assert_fails();
    assert!(
        out.stderr
            .contains("linked is a symbolic link; give the skill folder itself"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_file_whose_name_is_not_utf8_fails() {
    use std::os::unix::ffi::OsStrExt as _;
    let ctx = TestContext::new();
    let dir = copy(&ctx, "signed");
    let name = std::ffi::OsStr::from_bytes(b"scripts/r\xffn.sh");
    std::fs::write(dir.join(name), "#!/bin/sh\necho signed\n").unwrap();
    refused(
        by_root(&ctx, "signed", "root.pem", &[]),
        "signed",
        "has a name that is not UTF-8, which no signature can list",
    );
}

#[test]
fn a_signature_listing_a_file_outside_the_folder_is_refused() {
    let ctx = TestContext::new();
    copy(&ctx, "escape");
    // The file it lists, in place: model_signing with
    // --ignore_unsigned_files hashes it and verifies.
    std::fs::write(ctx.project.join("outside.txt"), "outside\n").unwrap();
    for flags in [&[][..], &["--ignore-unsigned-files"][..]] {
        refused(
            by_key(&ctx, "escape", "signer.pub", flags),
            "escape",
            "the signature lists \"../outside.txt\", a path outside the folder",
        );
    }
}

#[test]
fn a_tampered_bundle_fails() {
    let ctx = TestContext::new();
    let dir = copy(&ctx, "keyed");
    let signature = dir.join("skill.oms.sig");
    let text = std::fs::read_to_string(&signature).unwrap();
    let mut bundle: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Another statement under the same signature.
    let payload = bundle["dsseEnvelope"]["payload"].as_str().unwrap();
    let mut changed = payload.to_owned();
    changed.replace_range(40..44, "AAAA");
    bundle["dsseEnvelope"]["payload"] = changed.into();
    std::fs::write(&signature, bundle.to_string()).unwrap();
    refused(
        by_key(&ctx, "keyed", "signer.pub", &[]),
        "keyed",
        "the signature over the statement does not verify",
    );
    // The payload type is outside what is signed, and checked apart.
    let mut retyped: serde_json::Value = serde_json::from_str(&text).unwrap();
    retyped["dsseEnvelope"]["payloadType"] = "application/json".into();
    std::fs::write(&signature, retyped.to_string()).unwrap();
    refused(
        by_key(&ctx, "keyed", "signer.pub", &[]),
        "keyed",
        "the envelope's payload type is \"application/json\"",
    );
    // Only v0.3 bundles.
    let older = text.replace("bundle.v0.3+json", "bundle+json;version=0.2");
    std::fs::write(&signature, older).unwrap();
    refused(
        by_key(&ctx, "keyed", "signer.pub", &[]),
        "keyed",
        "the bundle's media type is \"application/vnd.dev.sigstore.bundle+json;version=0.2\"",
    );
}

#[test]
fn folders_and_files_take_only_the_flags_that_fit_them() {
    let ctx = TestContext::new();
    copy(&ctx, "signed");
    let out = ctx.fails(&["signature", "verify", "signed"]);
    insta::assert_snapshot!(out.stderr, @"
    error: signed: a folder's OMS signature needs what its signer must chain to
    hint: give --oms-root CERT (the root certificates, PEM), --key PEM (the signer's public key), or --identity ID --issuer URL (a keyless signature)
    ");
    let out = ctx.fails(&[
        "signature",
        "verify",
        "signed",
        "--minisign-key",
        "RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3",
    ]);
    assert!(
        out.stderr
            .contains("a minisign signature signs files, not folders"),
        "{}",
        out.stderr
    );
    let root = fixture("root.pem");
    let out = ctx.fails(&[
        "signature",
        "verify",
        "signed",
        "--bundle",
        "signed/skill.oms.sig",
        "--key",
        &fixture("signer.pub"),
    ]);
    assert!(
        out.stderr
            .contains("a Sigstore bundle signs files, not folders"),
        "{}",
        out.stderr
    );
    let out = ctx.fails(&[
        "signature",
        "verify",
        "signed/SKILL.md",
        "--oms-root",
        &root,
    ]);
    assert!(
        out.stderr
            .contains("an OMS signature covers a skill folder, and this is not one"),
        "{}",
        out.stderr
    );
    // Nonsense combinations stop at the command line.
    for extra in [
        &["--bundle", "b.json", "--identity", "i", "--issuer", "u"][..],
        &["--minisign-key", "KEY"],
        &["--key", "k.pem"],
        &["--staging"],
    ] {
        let mut args = vec!["signature", "verify", "signed", "--oms-root", &root];
        args.extend_from_slice(extra);
        let out = ctx.run(&args);
        assert_eq!(out.status, 2, "{extra:?}: {}", out.stderr);
        assert!(out.stderr.contains("cannot be used with"), "{}", out.stderr);
    }
    let out = ctx.run(&["signature", "verify", "signed", "--ignore-unsigned-files"]);
    assert_eq!(out.status, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("--oms-root <CERT>|--key <PEM>"),
        "{}",
        out.stderr
    );
}
