use super::*;
use crate::index::channel::claimed;
use crate::store::signing::throwaway_key as key;

fn entry() -> IndexEntry {
    IndexEntry {
        name: "corp/x".into(),
        vers: "1.1.0".into(),
        cksum: "ab".repeat(32),
        ..IndexEntry::default()
    }
}

#[test]
fn an_entry_from_before_channels_counts_as_published_unless_required() {
    let (_dir, org) = key();
    let keys = vec![org.public_key()];
    let mut old = entry();
    old.sig = org
        .sign(
            b"archive",
            &signing::trusted_comment("corp/x", "1.1.0", &old.cksum),
        )
        .unwrap();
    assert_eq!(
        standing(&old, OrgKeys::same(&keys), false).channel,
        Channel::Published
    );
    assert_eq!(
        standing(&old, OrgKeys::same(&keys), true).channel,
        Channel::Draft
    );
    assert_eq!(
        standing(&entry(), OrgKeys::same(&[]), false).channel,
        Channel::Published
    );
}

/// `entry` signed by `key` into `channel` at publish.
fn published_as(key: &SigningKey, channel: Channel) -> IndexEntry {
    let mut signed = entry();
    let comment = signed_comment("corp/x", "1.1.0", &signed.cksum, channel);
    signed.sig = key.sign(b"archive", &comment).unwrap();
    signed.channel = Some(channel);
    signed
}

#[test]
fn a_draft_stays_a_draft_whatever_its_entry_says() {
    let (_dir, org) = key();
    let keys = vec![org.public_key()];
    let draft = published_as(&org, Channel::Draft);
    assert_eq!(claimed(&draft), Channel::Draft);
    assert_eq!(
        standing(&draft, OrgKeys::same(&keys), true).channel,
        Channel::Draft
    );
    // The index host says "published", or drops the channel fields.
    let mut said = draft.clone();
    said.channel = Some(Channel::Published);
    assert_eq!(
        standing(&said, OrgKeys::same(&keys), false).channel,
        Channel::Draft
    );
    let mut dropped = draft.clone();
    dropped.channel = None;
    assert_eq!(
        standing(&dropped, OrgKeys::same(&keys), false).channel,
        Channel::Draft
    );
    // Or edits the signature's comment.
    let mut edited = dropped.clone();
    edited.sig = edited.sig.replace("channel=draft", "channel=published");
    assert_eq!(claimed(&edited), Channel::Published);
    let standing_now = standing(&edited, OrgKeys::same(&keys), false);
    assert_eq!(standing_now.channel, Channel::Draft);
    assert!(standing_now.unverified.is_some());
}

#[test]
fn only_a_record_signed_by_the_org_moves_a_version() {
    let (_dir, org) = key();
    let (_other_dir, other) = key();
    let keys = vec![org.public_key()];
    let mut signed = published_as(&org, Channel::Draft);
    signed
        .channels
        .push(sign_record(&org, &signed, &Move::to(Channel::Testing), None).unwrap());
    signed.channel = Some(Channel::Testing);
    assert_eq!(
        standing(&signed, OrgKeys::same(&keys), true).channel,
        Channel::Testing
    );

    // Someone else's key.
    let mut forged = signed.clone();
    forged
        .channels
        .push(sign_record(&other, &forged, &Move::to(Channel::Published), None).unwrap());
    forged.channel = Some(Channel::Published);
    assert_eq!(
        standing(&forged, OrgKeys::same(&keys), false).channel,
        Channel::Draft
    );

    // A record of another archive, replayed.
    let mut replayed = published_as(&org, Channel::Draft);
    replayed.cksum = "cd".repeat(32);
    replayed.channels = signed.channels.clone();
    replayed.channel = Some(Channel::Testing);
    assert_eq!(
        standing(&replayed, OrgKeys::same(&keys), false).channel,
        Channel::Draft
    );
}

#[test]
fn a_deprecation_signs_its_replacement() {
    let (_dir, org) = key();
    let keys = vec![org.public_key()];
    let mut old = published_as(&org, Channel::Published);
    old.channels = vec![
        sign_record(
            &org,
            &old,
            &Move {
                replacement: Some("corp/y"),
                ..Move::to(Channel::Deprecated)
            },
            None,
        )
        .unwrap(),
    ];
    old.channel = Some(Channel::Deprecated);
    let standing_now = standing(&old, OrgKeys::same(&keys), false);
    assert_eq!(standing_now.channel, Channel::Deprecated);
    assert_eq!(standing_now.replacement.as_deref(), Some("corp/y"));
    old.channels[0].replacement = Some("evil/z".into());
    assert_eq!(
        standing(&old, OrgKeys::same(&keys), false).channel,
        Channel::Draft
    );
}
