use super::*;
use crate::index::policy_file::sign;

#[test]
fn a_policy_counts_only_signed_by_its_org() {
    let (_dir, key) = signing::throwaway_key();
    let (_other_dir, other) = signing::throwaway_key();
    let text = b"org = \"corp\"\nrequire-signatures = true\n";
    let keys = |org: &str| match org {
        "corp" => vec![key.public_key()],
        _ => Vec::new(),
    };
    let signature = sign(&key, "corp", text).unwrap();
    let policy = verified_policy(text, Some(&signature), "policy.toml", keys).unwrap();
    assert!(policy.policy.require_signatures);
    let forged = sign(&other, "corp", text).unwrap();
    assert!(verified_policy(text, Some(&forged), "policy.toml", keys).is_err());
    assert!(verified_policy(text, None, "policy.toml", keys).is_err());
    let edited = b"org = \"corp\"\nrequire-signatures = false\n";
    assert!(verified_policy(edited, Some(&signature), "policy.toml", keys).is_err());
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
    assert!(upstream_is_signed_by(
        &upstream, &keys, "corp/x", "1.0.0", "ab"
    ));
    assert!(!upstream_is_signed_by(
        &upstream, &keys, "corp/x", "1.0.0", "cd"
    ));
    let mut moved = upstream.clone();
    moved.source = "https://evil.example/skills.git".into();
    assert!(!upstream_is_signed_by(
        &moved, &keys, "corp/x", "1.0.0", "ab"
    ));
}
