//! Sigstore bundles in `signature verify`: keyless and keyed bundles made
//! by `tests/fixtures/sigstore/make.py` (a test CA, log and CT log, listed
//! in its trusted_root.json) verify, and each broken check fails naming
//! the file and the check.

use crate::common::TestContext;

const IDENTITY: &str =
    "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main";
const ISSUER: &str = "https://token.actions.githubusercontent.com";

fn fixture(name: &str) -> String {
    format!(
        "{}/tests/fixtures/sigstore/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// `signature verify` of `artifact` with a keyless bundle, an identity
/// policy and the fixtures' root.
fn keyless<'a>(
    artifact: &'a str,
    bundle: &'a str,
    identity: &'a str,
    issuer: &'a str,
) -> Vec<String> {
    [
        "signature",
        "verify",
        artifact,
        "--bundle",
        bundle,
        "--identity",
        identity,
        "--issuer",
        issuer,
        "--trusted-root",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([fixture("trusted_root.json")])
    .collect()
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn sha256_of(path: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(std::fs::read(path).unwrap());
    format!(
        "sha256:{}",
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    )
}

#[test]
fn a_keyless_bundle_verifies_by_identity_and_issuer_for_the_file_or_its_digest() {
    let ctx = TestContext::new();
    let (artifact, bundle) = (fixture("artifact.txt"), fixture("keyless.sigstore.json"));
    let mut call = keyless(&artifact, &bundle, IDENTITY, ISSUER);
    call.push("--json".into());
    let out = ctx.ok(&args(&call));
    let verdict: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(verdict["verified"], true);
    assert_eq!(verdict["signer"]["family"], "sigstore");
    assert_eq!(verdict["signer"]["identity"], IDENTITY);
    assert_eq!(verdict["signer"]["issuer"], ISSUER);
    assert_eq!(verdict["signature"], sha256_of(&bundle));

    // The artifact known only by its digest.
    ctx.ok(&args(&keyless(
        &sha256_of(&artifact),
        &bundle,
        IDENTITY,
        ISSUER,
    )));

    // A regex over the whole identity.
    let mut call = keyless(&artifact, &bundle, IDENTITY, ISSUER);
    call[5] = "--identity-regexp".into();
    call[6] = "https://github\\.com/acme/.*".into();
    ctx.ok(&args(&call));
    call[6] = "https://github\\.com/acme/".into();
    let out = ctx.fails(&args(&call));
    assert!(out.stderr.contains("does not match"), "{}", out.stderr);
}

#[test]
fn a_keyed_bundle_verifies_with_its_key_and_not_another() {
    let ctx = TestContext::new();
    let (artifact, bundle) = (fixture("artifact.txt"), fixture("keyed.sigstore.json"));
    let root = fixture("trusted_root.json");
    let call = |key: &str| {
        vec![
            "signature".to_string(),
            "verify".into(),
            artifact.clone(),
            "--bundle".into(),
            bundle.clone(),
            "--key".into(),
            fixture(key),
            "--trusted-root".into(),
            root.clone(),
            "--json".into(),
        ]
    };
    let out = ctx.ok(&args(&call("signer.pub")));
    let verdict: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(verdict["signer"]["family"], "sigstore-key");
    assert!(
        verdict["signer"]["key"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );

    let out = ctx.fails(&args(&call("other.pub")));
    assert!(
        out.stderr.contains("signature is invalid"),
        "{}",
        out.stderr
    );
    let out = ctx.fails(&args(&call("trusted_root.json")));
    assert!(
        out.stderr.contains("not a PEM public key"),
        "{}",
        out.stderr
    );
}

/// Runs a call that must fail: stderr names the signed file, the bundle
/// and `check`.
fn fails_naming(call: &[String], check: &str) {
    let ctx = TestContext::new();
    let out = ctx.fails(&args(call));
    let (path, bundle) = (&call[2], &call[4]);
    assert!(
        out.stderr.contains(&format!(
            "{path}: the sigstore signature {bundle} does not verify"
        )),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains(check), "{check}: {}", out.stderr);
}

#[test]
fn another_identity_or_issuer_is_refused() {
    let (artifact, bundle) = (fixture("artifact.txt"), fixture("keyless.sigstore.json"));
    let other = "https://github.com/evil/skills/.github/workflows/release.yml@refs/heads/main";
    fails_naming(
        &keyless(&artifact, &bundle, other, ISSUER),
        "identity mismatch",
    );
    fails_naming(
        &keyless(&artifact, &bundle, IDENTITY, "https://accounts.google.com"),
        "issuer mismatch",
    );
}

#[test]
fn a_changed_artifact_is_refused_by_path_and_by_digest() {
    let (tampered, bundle) = (fixture("tampered.txt"), fixture("keyless.sigstore.json"));
    fails_naming(
        &keyless(&tampered, &bundle, IDENTITY, ISSUER),
        "artifact mismatch",
    );
    fails_naming(
        &keyless(&sha256_of(&tampered), &bundle, IDENTITY, ISSUER),
        "artifact mismatch",
    );
}

#[test]
fn a_broken_inclusion_proof_is_refused() {
    let (artifact, bundle) = (
        fixture("artifact.txt"),
        fixture("broken-proof.sigstore.json"),
    );
    fails_naming(
        &keyless(&artifact, &bundle, IDENTITY, ISSUER),
        "inclusion proof",
    );
}

#[test]
fn a_certificate_expired_when_logged_is_refused() {
    let (artifact, bundle) = (fixture("artifact.txt"), fixture("expired.sigstore.json"));
    fails_naming(
        &keyless(&artifact, &bundle, IDENTITY, ISSUER),
        "CertExpired",
    );
}

#[test]
fn the_public_good_root_does_not_trust_the_test_log() {
    let ctx = TestContext::new();
    let (artifact, bundle) = (fixture("artifact.txt"), fixture("keyless.sigstore.json"));
    let mut call = keyless(&artifact, &bundle, IDENTITY, ISSUER);
    call.truncate(9); // no --trusted-root: the embedded root
    let out = ctx.fails(&args(&call));
    assert!(out.stderr.contains("does not verify"), "{}", out.stderr);
}

#[test]
fn unreadable_bundles_and_roots_are_refused_naming_them() {
    let ctx = TestContext::new();
    let artifact = fixture("artifact.txt");
    let not_json = ctx.root().join("bundle.json");
    std::fs::write(&not_json, "{ not json").unwrap();
    fails_naming(
        &keyless(&artifact, not_json.to_str().unwrap(), IDENTITY, ISSUER),
        "the bundle cannot be read",
    );

    let bundle = fixture("keyless.sigstore.json");
    let wrong_type = ctx.root().join("v9.json");
    let text = std::fs::read_to_string(&bundle)
        .unwrap()
        .replace("bundle.v0.3+json", "bundle.v9+json");
    std::fs::write(&wrong_type, text).unwrap();
    fails_naming(
        &keyless(&artifact, wrong_type.to_str().unwrap(), IDENTITY, ISSUER),
        "the bundle cannot be read",
    );

    let mut call = keyless(&artifact, &bundle, IDENTITY, ISSUER);
    let root = ctx.root().join("root.json");
    std::fs::write(&root, "{}").unwrap();
    call[10] = root.to_str().unwrap().into();
    fails_naming(&call, "the trusted root cannot be read");
}

/// A release archive's build provenance, shaped as GitHub's
/// attest-build-provenance writes it (an in-toto SLSA v1 statement in a
/// DSSE envelope), verifies over the archive and its digest by the
/// release workflow's identity, as docs/releasing.md tells users to check
/// a download; another archive, repository or a rewritten statement fails.
#[test]
fn a_release_build_provenance_verifies_over_the_archive_by_the_release_workflow() {
    let ctx = TestContext::new();
    let (archive, bundle) = (fixture("artifact.txt"), fixture("provenance.sigstore.json"));
    let release = "https://github.com/acme/skillpkg/.github/workflows/release.yml@refs/tags/v1.0.0";
    let docs_regexp =
        "^https://github\\.com/acme/skillpkg/\\.github/workflows/release\\.yml@refs/tags/.*$";
    let mut call = keyless(&archive, &bundle, release, ISSUER);
    call.push("--json".into());
    let verdict: serde_json::Value = serde_json::from_str(&ctx.ok(&args(&call)).stdout).unwrap();
    assert_eq!(verdict["verified"], true);
    assert_eq!(verdict["signer"]["identity"], release);
    ctx.ok(&args(&keyless(
        &sha256_of(&archive),
        &bundle,
        release,
        ISSUER,
    )));
    let mut by_regexp = keyless(&archive, &bundle, release, ISSUER);
    by_regexp[5] = "--identity-regexp".into();
    by_regexp[6] = docs_regexp.into();
    ctx.ok(&args(&by_regexp));

    // Another archive, by path and by digest.
    let tampered = fixture("tampered.txt");
    fails_naming(&keyless(&tampered, &bundle, release, ISSUER), "mismatch");
    fails_naming(
        &keyless(&sha256_of(&tampered), &bundle, release, ISSUER),
        "mismatch",
    );
    // A fork's release workflow is not the project's.
    let mut fork = by_regexp.clone();
    fork[6] = "^https://github\\.com/evil/skillpkg/\\.github/workflows/release\\.yml@refs/tags/.*$"
        .into();
    let out = ctx.fails(&args(&fork));
    assert!(out.stderr.contains("does not match"), "{}", out.stderr);
    // The statement rewritten to name the tampered archive: the envelope's
    // signature no longer holds.
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&bundle).unwrap()).unwrap();
    use base64::Engine;
    let engine = base64::engine::general_purpose::STANDARD;
    let payload = engine
        .decode(doc["dsseEnvelope"]["payload"].as_str().unwrap())
        .unwrap();
    let good = sha256_of(&archive);
    let bad = sha256_of(&tampered);
    let rewritten = String::from_utf8(payload)
        .unwrap()
        .replace(&good["sha256:".len()..], &bad["sha256:".len()..]);
    doc["dsseEnvelope"]["payload"] = engine.encode(rewritten).into();
    let forged = ctx.root().join("forged.sigstore.json");
    std::fs::write(&forged, doc.to_string()).unwrap();
    let out = ctx.fails(&args(&keyless(
        &tampered,
        forged.to_str().unwrap(),
        release,
        ISSUER,
    )));
    assert!(out.stderr.contains("does not verify"), "{}", out.stderr);
    assert!(
        out.stderr.contains("DSSE signature verification failed"),
        "{}",
        out.stderr
    );
}
