//! Every moment answers through `check`, in one verdict type.

use std::path::Path;

use super::check;
use crate::manifest::lock::{LockedSigner, LockedSkill, Lockfile, SignerTable};
use crate::manifest::source_id::SourceId;
use crate::ops::provenance::claim::{Claim, Pins, Verdict};
use crate::ops::provenance::given::Given;
use crate::store::signing::throwaway_key;

/// A lock entry for `name` from `source` whose signer is `signer`.
fn locked(name: &str, source: &str, signer: Option<LockedSigner>) -> LockedSkill {
    LockedSkill {
        signer,
        ..LockedSkill::example(name, "0.0.0", source.parse().unwrap())
    }
}

/// The verdict's kind, as the table below names it.
fn kind(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Signed(_) => "signed",
        Verdict::Pending(_) => "pending",
        Verdict::Unasked => "unasked",
        Verdict::Unavailable(_) => "unavailable",
        Verdict::Refused(_) => "refused",
    }
}

#[test]
fn a_signature_given_by_hand_is_signed_by_its_key_or_refused() {
    let (dir, key) = throwaway_key();
    let (_other_dir, other) = throwaway_key();
    let file = dir.path().join("report.txt");
    std::fs::write(&file, b"quarterly figures").unwrap();
    let signature = dir.path().join("report.txt.minisig");
    std::fs::write(
        &signature,
        key.sign(b"quarterly figures", "made by hand").unwrap(),
    )
    .unwrap();
    let given = |keys: Vec<String>| Given {
        path: file.clone(),
        minisign_keys: keys,
        signature: Some(signature.clone()),
        ..Given::default()
    };
    let signed = check(Claim::Given(&given(vec![key.public_key()])), &Pins::none());
    let Verdict::Signed(proof) = signed else {
        panic!("a good signature is refused: {signed:?}");
    };
    assert_eq!(proof.signer, LockedSigner::Minisign(key.public_key()));
    assert_eq!(proof.statement.as_deref(), Some("made by hand"));
    let refused = check(
        Claim::Given(&given(vec![other.public_key()])),
        &Pins::none(),
    );
    assert_eq!(kind(&refused), "refused");
}

#[test]
fn install_claims_wait_for_the_tree_only_when_a_pin_asks() {
    let oms = LockedSigner::Other(SignerTable::Oms {
        subject: "CN=corp".into(),
        chain: "sha256:00".into(),
    });
    let mut lock = Lockfile::default();
    lock.skills_mut()
        .push(locked("pinned", "path+skills/pinned", Some(oms)));
    lock.skills_mut()
        .push(locked("free", "path+skills/free", None));
    let project = Path::new("/project");
    let pins = Pins::of_project(&lock, project, &[]);
    let direct = |name: &str, source: &SourceId| check(Claim::Direct { name, source }, &pins);
    let pinned: SourceId = "path+skills/pinned".parse().unwrap();
    let free: SourceId = "path+skills/free".parse().unwrap();
    let Verdict::Pending(stage) = direct("pinned", &pinned) else {
        panic!("a skill whose lock pins an OMS signer does not wait for its tree");
    };
    assert!(stage.needs_tree && stage.proven.is_none());
    assert_eq!(kind(&direct("free", &free)), "unasked");
    let registry = SourceId::registry("builtin");
    let archive = Claim::Archive {
        name: "corp/free",
        version: "v1.0.0",
        source: &registry,
        checksum: &"ab".repeat(32),
        bundle: None,
    };
    assert_eq!(kind(&check(archive, &pins)), "unasked");
}

#[test]
fn an_installed_skill_that_pins_no_signer_is_not_rechecked() {
    let lock = Lockfile::default();
    let home = tempfile::tempdir().unwrap();
    let dirs = crate::dirs::Dirs {
        config: home.path().join("config"),
        cache: home.path().join("cache"),
        data: home.path().join("data"),
        user_root: home.path().join("skills"),
        home: None,
    };
    let manifest = crate::manifest::Manifest::parse("", &home.path().join("skills.toml")).unwrap();
    let mut indexes = crate::ops::provenance::claim::OfflineIndexes::of(&manifest);
    let skill = locked("free", "path+skills/free", None);
    let installed = Claim::Installed {
        skill: &skill,
        dir: home.path(),
        dirs: &dirs,
        indexes: &mut indexes,
    };
    let pins = Pins::of_project(&lock, home.path(), &[]);
    assert_eq!(kind(&check(installed, &pins)), "unasked");
}
