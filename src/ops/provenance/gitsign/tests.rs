//! Over the commits tests/fixtures/gitsign/make.py makes: a test Fulcio,
//! CT log and Rekor-style log, whose trusted root is beside them.

use super::*;

const IDENTITY: &str = "dev@acme.example";
const ISSUER: &str = "https://accounts.example.com";

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/gitsign")
        .join(name);
    fs_err::read(path).unwrap()
}

/// The commit `name` split as git splits it: the signature (the `gpgsig`
/// header's value) and the commit without that header.
fn commit(name: &str) -> (String, Vec<u8>) {
    let raw = String::from_utf8(fixture(name)).unwrap();
    let (head, message) = raw.split_once("\n\n").unwrap();
    let (mut signature, mut signed, mut inside) = (String::new(), String::new(), false);
    for line in head.lines() {
        if let Some(first) = line.strip_prefix("gpgsig ") {
            inside = true;
            signature.push_str(first);
            signature.push('\n');
        } else if let Some(more) = line.strip_prefix(' ').filter(|_| inside) {
            signature.push_str(more);
            signature.push('\n');
        } else {
            inside = false;
            signed.push_str(line);
            signed.push('\n');
        }
    }
    signed.push('\n');
    signed.push_str(message);
    (signature, signed.into_bytes())
}

fn test_root() -> Root {
    Root::Json(String::from_utf8(fixture("trusted_root.json")).unwrap())
}

fn check(name: &str, policy: Policy, root: Root) -> anyhow::Result<Proof> {
    let (signature, signed) = commit(name);
    Gitsign {
        signature,
        policy,
        root,
    }
    .verify(Subject::Bytes(&signed))
}

fn dev() -> Policy {
    Policy::Identity {
        identity: IDENTITY.into(),
        issuer: ISSUER.into(),
    }
}

fn refusal(result: anyhow::Result<Proof>) -> String {
    format!("{:#}", result.unwrap_err())
}

#[test]
fn a_gitsign_commit_with_its_log_entry_verifies_offline_and_names_its_signer() {
    let verified = check("signed.commit", dev(), test_root()).unwrap();
    assert_eq!(
        verified.signer,
        crate::manifest::lock::LockedSigner::Other(crate::manifest::lock::SignerTable::Sigstore {
            identity: IDENTITY.into(),
            issuer: ISSUER.into(),
            root: None,
        })
    );
    let pattern = Policy::IdentityPattern {
        pattern: r".*@acme\.example".into(),
        issuer: ISSUER.into(),
    };
    assert!(check("signed.commit", pattern, test_root()).is_ok());
    let (signature, _) = commit("signed.commit");
    assert_eq!(
        claimed(&signature).unwrap(),
        Claimed {
            identity: IDENTITY.into(),
            issuer: ISSUER.into()
        }
    );
}

#[test]
fn another_identity_another_issuer_or_another_root_is_refused() {
    let other = refusal(check("other-identity.commit", dev(), test_root()));
    assert!(other.contains("identity mismatch"), "{other}");
    let issuer = Policy::Identity {
        identity: IDENTITY.into(),
        issuer: "https://token.actions.githubusercontent.com".into(),
    };
    assert!(check("signed.commit", issuer, test_root()).is_err());
    // Sigstore's public-good root did not issue the test certificate.
    assert!(check("signed.commit", dev(), Root::Production).is_err());
}

#[test]
fn a_commit_changed_after_signing_is_refused() {
    let tampered = refusal(check("tampered.commit", dev(), test_root()));
    assert!(
        tampered.contains("changed after it was signed"),
        "{tampered}"
    );
}

#[test]
fn a_log_entry_of_another_signature_is_refused() {
    // other@'s signature, carrying the entry the log made for dev@'s: the
    // body rebuilt from other@'s signature is not the one the log signed.
    let policy = Policy::Identity {
        identity: "other@acme.example".into(),
        issuer: ISSUER.into(),
    };
    let borrowed = refusal(check("borrowed-entry.commit", policy, test_root()));
    assert!(borrowed.contains("inclusion promise"), "{borrowed}");
}

#[test]
fn a_signature_without_a_log_entry_is_refused_saying_how_to_sign() {
    let error = check("no-entry.commit", dev(), test_root()).unwrap_err();
    assert!(format!("{error:#}").contains("carries no Rekor entry"));
    let hinted = error.downcast_ref::<Hinted>().expect("a hint");
    assert!(
        format!("{hinted:?}").contains("rekorMode offline"),
        "{hinted:?}"
    );
}

/// Why `text` is no signature gitsign makes.
fn unparsed(text: &str) -> String {
    match parse(text) {
        Ok(_) => panic!("{text:?} should not parse"),
        Err(e) => format!("{e:#}"),
    }
}

#[test]
fn what_gitsign_does_not_make_is_refused() {
    assert!(unparsed("-----BEGIN PGP SIGNATURE-----\n").contains("not a PEM `SIGNED MESSAGE`"));
    assert!(unparsed("-----BEGIN SIGNED MESSAGE-----\nMIIB\n").contains("no end line"));
    let garbage = "-----BEGIN SIGNED MESSAGE-----\nAAAA\n-----END SIGNED MESSAGE-----\n";
    assert!(unparsed(garbage).contains("not CMS"));
    let (signature, signed) = commit("signed.commit");
    let digest = sha256(&signed).try_into().unwrap();
    let by_digest = Gitsign {
        signature,
        policy: dev(),
        root: test_root(),
    }
    .verify(Subject::Sha256(digest));
    assert!(refusal(by_digest).contains("signs a commit's bytes"));
}

#[test]
fn a_signature_its_certificate_did_not_make_is_refused() {
    // The signature over the signed attributes is checked by the bundle
    // verifier, with the log entry's record of it.
    let (armored, _) = commit("signed.commit");
    let mut parsed = parse(&armored).unwrap();
    let at = parsed.signature.len() - 2;
    parsed.signature[at] ^= 1;
    let entry = parsed.entry.clone().unwrap();
    let altered = Sigstore {
        bundle: bundle(&parsed, &entry).unwrap(),
        policy: dev(),
        root: test_root(),
    }
    .verify(Subject::Bytes(&parsed.signed_attributes));
    assert!(refusal(altered).contains("does not verify"));
}
