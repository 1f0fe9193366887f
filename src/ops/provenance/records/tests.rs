use crate::index::policy_file::{IndexPolicy, parse, sign};
use crate::index::upstream::Upstream;
use crate::ops::provenance::check::check;
use crate::ops::provenance::claim::{Claim, Pins};
use crate::store::signing;

/// Whether the policy `text` passes, signed with `signature`, `keys`
/// being its org's.
fn policy_passes(text: &[u8], signature: Option<&str>, keys: &[String]) -> bool {
    let policy = IndexPolicy::read(text, "policy.toml").unwrap();
    let claim = Claim::Policy {
        policy: &policy,
        text,
        signature,
    };
    check(claim, &Pins::of_keys(keys)).is_signed()
}

/// Whether `upstream` passes as the record of that version, `keys` being
/// the org's.
fn upstream_passes(upstream: &Upstream, keys: &[String], version: &str, cksum: &str) -> bool {
    let claim = Claim::Upstream {
        upstream,
        package: "corp/x",
        version,
        cksum,
    };
    check(claim, &Pins::of_keys(keys)).is_signed()
}

#[test]
fn a_policy_counts_only_signed_by_its_org() {
    let (_dir, key) = signing::throwaway_key();
    let (_other_dir, other) = signing::throwaway_key();
    let text = b"org = \"corp\"\nrequire-signatures = true\n";
    let keys = [key.public_key()];
    let signature = sign(&key, "corp", text).unwrap();
    assert!(
        IndexPolicy::read(text, "policy.toml")
            .unwrap()
            .policy
            .require_signatures
    );
    assert!(policy_passes(text, Some(&signature), &keys));
    let forged = sign(&other, "corp", text).unwrap();
    assert!(!policy_passes(text, Some(&forged), &keys));
    assert!(!policy_passes(text, None, &keys));
    let edited = b"org = \"corp\"\nrequire-signatures = false\n";
    assert!(!policy_passes(edited, Some(&signature), &keys));
    let unknown = b"org = \"corp\"\nallow-everything = true\n";
    assert!(parse(unknown, "policy.toml").is_err());
}

#[test]
fn an_upstream_record_signs_its_origin_and_archive() {
    let (_dir, key) = signing::throwaway_key();
    let keys = vec![key.public_key()];
    let mut upstream = Upstream {
        source: "https://example.com/skills.git".into(),
        commit: Some("a".repeat(40)),
        digest: None,
        signer: None,
        by: String::new(),
        at: "2026-11-26T23:00:00Z".into(),
        sig: String::new(),
    };
    upstream.sign(&key, "corp/x", "1.0.0", "ab").unwrap();
    assert_eq!(upstream.by, key.public_key());
    assert!(!upstream_passes(&upstream, &[], "1.0.0", "ab"));
    assert!(upstream_passes(&upstream, &keys, "1.0.0", "ab"));
    assert!(!upstream_passes(&upstream, &keys, "1.0.0", "cd"));
    let mut moved = upstream.clone();
    moved.source = "https://evil.example/skills.git".into();
    assert!(!upstream_passes(&moved, &keys, "1.0.0", "ab"));
}
