//! minisign interoperability: the `minisign` CLI and skillpkg verify each
//! other's signatures, and a flipped byte fails both ways.

use std::path::Path;
use std::process::Command;

use skillpkg::store::signing::{SigningKey, trusted_comment, verify, verify_for};

use crate::common::{TestContext, has_program, run};

fn flip(path: &Path, at: usize) {
    let mut bytes = std::fs::read(path).unwrap();
    let at = at.min(bytes.len() - 1);
    bytes[at] ^= 0x01;
    std::fs::write(path, bytes).unwrap();
}

fn cli_verifies(public: &Path, file: &Path, signature: &Path) -> bool {
    Command::new("minisign")
        .args(["-V", "-q", "-p"])
        .arg(public)
        .arg("-m")
        .arg(file)
        .arg("-x")
        .arg(signature)
        .status()
        .unwrap()
        .success()
}

fn public_line(pub_file: &Path) -> String {
    std::fs::read_to_string(pub_file)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string()
}

/// A passwordless key pair made by the `minisign` CLI in `dir`, and
/// `file` signed with it by the CLI, with `comment` as trusted comment:
/// the public key file.
fn cli_signed(dir: &Path, file: &Path, comment: &str) -> std::path::PathBuf {
    let (public, secret) = (dir.join("cli.pub"), dir.join("cli.key"));
    run(Command::new("minisign")
        .args(["-G", "-W", "-p"])
        .arg(&public)
        .arg("-s")
        .arg(&secret))
    .assert_ok();
    run(Command::new("minisign")
        .args(["-S", "-s"])
        .arg(&secret)
        .arg("-m")
        .arg(file)
        .arg("-t")
        .arg(comment))
    .assert_ok();
    public
}

#[test]
fn cli_signature_verifies_in_skillpkg_and_tampering_fails() {
    if !has_program("minisign", "minisign") {
        return;
    }
    let ctx = TestContext::new();
    let dir = ctx.root();
    let archive = dir.join("pkg.skill");
    std::fs::write(&archive, b"archive bytes for signing").unwrap();
    let comment = trusted_comment("acme/pkg", "1.0.0", "00ff");
    let public = cli_signed(dir, &archive, &comment);
    let sig_path = dir.join("pkg.skill.minisig");
    let key = public_line(&public);

    let data = std::fs::read(&archive).unwrap();
    let signature = std::fs::read_to_string(&sig_path).unwrap();
    verify_for(&key, &data, &signature, &comment).unwrap();

    // A flipped byte in the archive, then in the signature: both fail.
    let mut tampered = data.clone();
    tampered[3] ^= 1;
    assert!(verify(&key, &tampered, &signature).is_err());
    flip(&archive, 3);
    assert!(!cli_verifies(&public, &archive, &sig_path));
    flip(&archive, 3);
    assert!(cli_verifies(&public, &archive, &sig_path));
    let sig_line = signature.lines().nth(1).unwrap();
    let mut bad_line = sig_line.as_bytes().to_vec();
    bad_line[20] = if bad_line[20] == b'A' { b'B' } else { b'A' };
    let bad_signature = signature.replace(sig_line, std::str::from_utf8(&bad_line).unwrap());
    assert!(verify(&key, &data, &bad_signature).is_err());
    std::fs::write(&sig_path, &bad_signature).unwrap();
    assert!(!cli_verifies(&public, &archive, &sig_path));
}

#[test]
fn skillpkg_signature_verifies_with_the_cli_and_tampering_fails() {
    if !has_program("minisign", "minisign") {
        return;
    }
    let ctx = TestContext::new();
    let keys = ctx.root().join("keys");
    let out = run(ctx
        .command()
        .args(["keygen", "--no-password", "--out"])
        .arg(&keys))
    .assert_ok();
    let public_file = keys.join("skillpkg.pub");
    assert_eq!(
        out.stdout.trim(),
        public_line(&public_file),
        "keygen prints the public key"
    );

    // Encrypted keys need a password, and refuse to work without one off a TTY.
    let protected = ctx.root().join("protected");
    let refused = run(ctx.command().args(["keygen", "--out"]).arg(&protected)).assert_fails();
    insta::assert_snapshot!(ctx.redact(&refused.stderr), @"
    error: no terminal to ask for a new password to encrypt the secret key
    hint: set SKILLPKG_KEY_PASSWORD to the new password, or pass --no-password for an unencrypted key
    ");
    run(ctx
        .command()
        .env("SKILLPKG_KEY_PASSWORD", "hunter2")
        .args(["keygen", "--out"])
        .arg(&protected))
    .assert_ok();
    // Key files are private, and never overwritten.
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(keys.join("skillpkg.key"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    let again = run(ctx
        .command()
        .args(["keygen", "--no-password", "--out"])
        .arg(&keys))
    .assert_fails();
    insta::assert_snapshot!(ctx.redact(&again.stderr), @"
    error: [TEMP]/keys/skillpkg.pub already exists; refusing to overwrite a key
    hint: choose another directory with --out, or move the old key away
    ");

    let key = SigningKey::load(&keys.join("skillpkg.key")).unwrap();
    let archive = ctx.root().join("pkg.skill");
    std::fs::write(&archive, b"another archive").unwrap();
    let comment = trusted_comment("acme/pkg", "2.0.0", "abcd");
    let signature = key
        .sign(&std::fs::read(&archive).unwrap(), &comment)
        .unwrap();
    let sig_path = ctx.root().join("pkg.skill.minisig");
    std::fs::write(&sig_path, &signature).unwrap();
    assert!(cli_verifies(&public_file, &archive, &sig_path));
    let shown = Command::new("minisign")
        .args(["-V", "-p"])
        .arg(&public_file)
        .arg("-m")
        .arg(&archive)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&shown.stdout).contains(&comment),
        "the CLI shows the trusted comment"
    );

    flip(&archive, 2);
    assert!(!cli_verifies(&public_file, &archive, &sig_path));
    flip(&archive, 2);
    flip(&sig_path, signature.find('\n').unwrap() + 10);
    assert!(!cli_verifies(&public_file, &archive, &sig_path));
}

/// `skillpkg signature verify` checks a file the `minisign` CLI signed,
/// exits 1 naming the check for a tampered file or another key, and
/// reports the signer as the lock pins it.
#[test]
fn signature_verify_checks_what_the_minisign_cli_signed() {
    if !has_program("minisign", "minisign") {
        return;
    }
    let ctx = TestContext::new();
    let dir = ctx.root();
    let file = dir.join("notes.txt");
    std::fs::write(&file, b"signed by hand").unwrap();
    let public = cli_signed(dir, &file, "hand-signed");
    let key = public_line(&public);
    let path = file.to_str().unwrap();
    let pub_file = public.to_str().unwrap();

    let out = ctx.ok(&[
        "signature",
        "verify",
        path,
        "--minisign-key",
        pub_file,
        "--json",
    ]);
    let verdict: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(verdict["verified"], true);
    assert_eq!(verdict["signer"]["family"], "minisign");
    assert_eq!(verdict["signer"]["key"], key.as_str());
    assert_eq!(verdict["statement"], "hand-signed");
    assert!(
        verdict["signature"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );

    // Another key: refused, naming the key id the signature names.
    ctx.ok(&[
        "keygen",
        "--out",
        dir.join("other").to_str().unwrap(),
        "--no-password",
    ]);
    let other = dir.join("other/skillpkg.pub");
    let out = ctx.fails(&[
        "signature",
        "verify",
        path,
        "--minisign-key",
        other.to_str().unwrap(),
    ]);
    assert!(
        out.stderr.contains("which is not among the 1 key(s) given"),
        "{}",
        out.stderr
    );
    // A digest in place of the file: minisign signs the file's bytes, so
    // it is refused, saying to give the file.
    let digest = format!("sha256:{}", "ab".repeat(32));
    let out = ctx.fails(&[
        "signature",
        "verify",
        &digest,
        "--minisign-key",
        &key,
        "--signature",
        &format!("{path}.minisig"),
    ]);
    assert!(
        out.stderr
            .contains("a minisign signature is checked against the file, not its digest"),
        "{}",
        out.stderr
    );
    // A tampered file: refused, naming the file and the signature.
    flip(&file, 2);
    let out = ctx.fails(&["signature", "verify", path, "--minisign-key", &key]);
    assert!(
        out.stderr.contains(&format!(
            "{path}: the minisign signature {path}.minisig does not verify"
        )),
        "{}",
        out.stderr
    );
}
