//! Release channels: where a version stands (`draft`, `testing`,
//! `published`, `deprecated`), signed by the org so that whoever can
//! write the index cannot promote a draft.
//!
//! A version's first channel is in its archive's signature: `publish`
//! signs the trusted comment `skillpkg corp/x@1.1.0 sha256:… channel=draft`,
//! so a draft cannot be passed off as anything else by editing or
//! dropping fields of its entry. Each later move (`promote`) appends a
//! record to the entry's `channels`: a minisign signature whose trusted
//! comment (and signed data) is the statement
//! `skillpkg corp/x@1.1.0 sha256:… channel=testing`, with
//! ` replacement=corp/y` for a deprecated version that names one. The
//! archive and its signature stay as they were, so what `skills.lock`
//! pins and what `minisign -V` checks do not change.
//!
//! Where a version stands is its last record's channel, or with none its
//! signature's, when one of the org's keys signed it; one that does not
//! verify leaves the version a `draft`. A signature that names no channel
//! was made before channels existed and counts as `published`, unless the
//! org's policy requires channel signatures. Dropping records can only
//! take a version back to an earlier channel the org signed, which is
//! what an index host can do with any signed state it serves.

use serde::{Deserialize, Serialize};

use super::IndexEntry;
use crate::store::signing::{self, SigningError, SigningKey};

pub use crate::manifest::channel::Channel;

/// Reads a channel name from an index. One this skillpkg does not know
/// counts as a draft (seen only by projects that ask for drafts), so that
/// a channel added later does not make a whole entry file unreadable.
pub fn lenient<'de, D: serde::Deserializer<'de>>(reader: D) -> Result<Channel, D::Error> {
    let name = String::deserialize(reader)?;
    Ok(name.parse().unwrap_or(Channel::Draft))
}

/// [`lenient`], for an optional channel.
pub(crate) fn lenient_option<'de, D: serde::Deserializer<'de>>(
    reader: D,
) -> Result<Option<Channel>, D::Error> {
    let name = Option::<String>::deserialize(reader)?;
    Ok(name.map(|name| name.parse().unwrap_or(Channel::Draft)))
}

/// One step of a version's channel history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelRecord {
    /// The channel the version moved to.
    #[serde(deserialize_with = "lenient")]
    pub channel: Channel,
    /// For a deprecated version: what to use instead (`org/name`, or
    /// `org/name@version`). Signed with the channel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacement: Option<String>,
    /// The index it was signed for, as its org names it (`identity` in
    /// the index's `config.json`). Signed: a record cannot be served by
    /// another index of the same org. Absent in records made before
    /// records were bound ([`super::freshness`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
    /// Its place in the version's history, 1 for the first record and
    /// one more for each later one. Signed: a machine refuses a record
    /// below the highest it accepted for the version (a replay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// When the org stops vouching for this standing (RFC 3339, UTC).
    /// Signed: past it, the version is not taken anew from the index
    /// until the org signs again (a frozen index).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
    /// When it moved (RFC 3339, UTC), as the signer's clock said. Not
    /// signed: a note for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// The full text of the minisign signature of the statement.
    pub sig: String,
}

/// What a channel record says, and signs: where the version moves, and
/// (since records are bound) for which index, at which place in its
/// history and until when.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Move<'a> {
    /// The channel.
    pub channel: Channel,
    /// For a deprecation, what replaces the version.
    pub replacement: Option<&'a str>,
    /// The index's identity.
    pub index: Option<&'a str>,
    /// The record's sequence number.
    pub seq: Option<u64>,
    /// When it stops counting for new installs.
    pub expires: Option<&'a str>,
}

impl<'a> Move<'a> {
    /// A plain move to `channel`, bound to nothing (as records were first
    /// written).
    pub fn to(channel: Channel) -> Move<'a> {
        Move {
            channel,
            ..Move::default()
        }
    }

    /// What `record` says it signs.
    pub fn of(record: &'a ChannelRecord) -> Move<'a> {
        Move {
            channel: record.channel,
            replacement: record.replacement.as_deref(),
            index: record.index.as_deref(),
            seq: record.seq,
            expires: record.expires.as_deref(),
        }
    }

    /// Whether a field holds a space or control character, which would
    /// let one field's text pass for another's in the statement.
    fn is_ambiguous(&self) -> bool {
        [self.replacement, self.index, self.expires]
            .into_iter()
            .flatten()
            .any(|field| {
                field.is_empty() || field.chars().any(|c| c.is_whitespace() || c.is_control())
            })
    }
}

/// The statement a channel record signs: package, version, archive and
/// channel (and replacement, index, sequence and expiry, when set).
pub(crate) fn statement(entry: &IndexEntry, moved: &Move<'_>) -> String {
    let mut text = format!(
        "{} channel={}",
        signing::trusted_comment(&entry.name, &entry.vers, &entry.cksum),
        moved.channel
    );
    let fields = [
        ("replacement", moved.replacement.map(str::to_string)),
        ("index", moved.index.map(str::to_string)),
        ("seq", moved.seq.map(|n| n.to_string())),
        ("expires", moved.expires.map(str::to_string)),
    ];
    for (name, value) in fields {
        if let Some(value) = value {
            text.push_str(&format!(" {name}={value}"));
        }
    }
    text
}

/// A record of `entry` making `moved`, signed with `key`.
pub(crate) fn sign_record(
    key: &SigningKey,
    entry: &IndexEntry,
    moved: &Move<'_>,
    at: Option<String>,
) -> Result<ChannelRecord, SigningError> {
    let text = statement(entry, moved);
    Ok(ChannelRecord {
        channel: moved.channel,
        replacement: moved.replacement.map(str::to_string),
        index: moved.index.map(str::to_string),
        seq: moved.seq,
        expires: moved.expires.map(str::to_string),
        at,
        sig: key.sign(text.as_bytes(), &text)?,
    })
}

/// Moves `entry` as `moved` says (its `seq` is taken as the next in the
/// entry's history, and `index` and `expires` are signed as given): a
/// record signed with `key` is appended and the entry's `channel` set.
/// `keys` are the org's, to tell where it stands now. Returns where it
/// stood, or `None` when it is there already with nothing new to sign.
pub fn promote(
    entry: &mut IndexEntry,
    key: &SigningKey,
    moved: Move<'_>,
    keys: &[String],
) -> Result<Option<Standing>, SigningError> {
    let now = standing(entry, OrgKeys::same(keys), false);
    let last = entry.channels.last();
    let bound_as_asked = last.is_some_and(|r| {
        r.index.as_deref() == moved.index && r.expires.as_deref() == moved.expires
    }) || (last.is_none() && moved.index.is_none() && moved.expires.is_none());
    if now.channel == moved.channel
        && now.replacement.as_deref() == moved.replacement
        && now.unverified.is_none()
        && bound_as_asked
    {
        return Ok(None);
    }
    let seq = next_seq(&entry.channels);
    let at = crate::time::utc_rfc3339(crate::time::now_or_source_date());
    let record = sign_record(
        key,
        entry,
        &Move {
            seq: Some(seq),
            ..moved
        },
        Some(at),
    )?;
    entry.channels.push(record);
    entry.channel = Some(moved.channel);
    Ok(Some(now))
}

/// The sequence number of the record after `records`: one more than the
/// highest they claim (records from before sequences count by place).
pub(crate) fn next_seq(records: &[ChannelRecord]) -> u64 {
    records
        .iter()
        .enumerate()
        .map(|(at, r)| r.seq.unwrap_or(at as u64 + 1))
        .max()
        .unwrap_or(0)
        + 1
}

/// Where a version stands, as far as its signatures show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// Its channel.
    pub channel: Channel,
    /// For a deprecated version, its replacement when the record names one.
    pub replacement: Option<String>,
    /// Why it counts as a draft when the entry claims more: its channel
    /// record does not verify.
    pub unverified: Option<String>,
}

impl Standing {
    fn plain(channel: Channel) -> Standing {
        Standing {
            channel,
            replacement: None,
            unverified: None,
        }
    }
}

/// The trusted comment of a package signature that puts the version in
/// `channel`.
pub(crate) fn signed_comment(
    package: &str,
    version: &str,
    sha256_hex: &str,
    channel: Channel,
) -> String {
    format!(
        "{} channel={channel}",
        signing::trusted_comment(package, version, sha256_hex)
    )
}

/// The channel `entry` claims, before any signature is checked: its
/// `channel`, else its last record's, else its signature's, else
/// `published` (an entry from before channels).
pub(crate) fn claimed(entry: &IndexEntry) -> Channel {
    entry
        .channel
        .or_else(|| entry.channels.last().map(|r| r.channel))
        .or_else(|| signature_channel(entry))
        .unwrap_or(Channel::Published)
}

/// The channel the trusted comment of `entry`'s package signature names,
/// unverified; `None` when it names none.
pub(crate) fn signature_channel(entry: &IndexEntry) -> Option<Channel> {
    let comment = signing::claimed_comment(&entry.sig)?;
    let base = signing::trusted_comment(&entry.name, &entry.vers, &entry.cksum);
    comment
        .strip_prefix(&base)?
        .strip_prefix(" channel=")?
        .parse()
        .ok()
}

/// The keys that may sign an org's channels.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OrgKeys<'a> {
    /// Those that sign channel records: the keys a project pins for the
    /// org (else, on first use, those the index lists).
    pub records: &'a [String],
    /// Those whose package signature's channel counts: the pinned keys
    /// and those the index lists. A package signed by a key the project
    /// does not pin is refused at install, naming both keys, so it is
    /// better chosen (and refused) than hidden.
    pub signatures: &'a [String],
}

impl<'a> OrgKeys<'a> {
    /// The same keys for both.
    pub(crate) fn same(keys: &'a [String]) -> OrgKeys<'a> {
        OrgKeys {
            records: keys,
            signatures: keys,
        }
    }
}

/// Where `entry` stands, its channel signatures checked against `keys`.
/// With `require_signed`, an entry whose signatures name no channel
/// counts as a draft rather than published.
pub(crate) fn standing(entry: &IndexEntry, keys: OrgKeys<'_>, require_signed: bool) -> Standing {
    let verified = verified_channel(entry, keys, require_signed);
    match (verified, entry.channel) {
        (Ok(standing), Some(claimed)) if claimed != standing.channel => Standing {
            unverified: Some(format!(
                "its entry says {claimed}, but its signatures say {}",
                standing.channel
            )),
            ..Standing::plain(Channel::Draft)
        },
        (Ok(standing), _) => standing,
        (Err(why), _) => Standing {
            unverified: Some(why),
            ..Standing::plain(Channel::Draft)
        },
    }
}

/// Whether `record`, a record of `entry`, is signed by one of `keys`.
pub(crate) fn record_is_signed(
    entry: &IndexEntry,
    record: &ChannelRecord,
    keys: &[String],
) -> bool {
    let moved = Move::of(record);
    if moved.is_ambiguous() {
        return false;
    }
    let text = statement(entry, &moved);
    keys.iter()
        .any(|key| signing::verify_for(key, text.as_bytes(), &record.sig, &text).is_ok())
}

/// The channel `entry`'s signatures put it in, or why they do not.
fn verified_channel(
    entry: &IndexEntry,
    keys: OrgKeys<'_>,
    require_signed: bool,
) -> Result<Standing, String> {
    if let Some(last) = entry.channels.last() {
        if Move::of(last).is_ambiguous() {
            return Err(format!(
                "its {} record has a field with spaces in it, which no record of skillpkg's has",
                last.channel
            ));
        }
        return match record_is_signed(entry, last, keys.records) {
            true => Ok(Standing {
                channel: last.channel,
                replacement: last.replacement.clone(),
                unverified: None,
            }),
            false => Err(format!(
                "its {} record is not signed by a key of its org",
                last.channel
            )),
        };
    }
    let Some(channel) = signature_channel(entry) else {
        if require_signed {
            return Err("it has no channel signature, which the org's policy requires".into());
        }
        // Published before channels existed, as far as its signature says.
        // A draft whose comment had its channel cut off, or whose
        // signature was dropped, stays in sight on purpose: its install
        // then fails on the signature, naming the tampering, rather than
        // quietly taking an older version.
        return Ok(Standing::plain(Channel::Published));
    };
    let comment = signed_comment(&entry.name, &entry.vers, &entry.cksum, channel);
    let signed = keys
        .signatures
        .iter()
        .any(|key| signing::verify_comment(key, &entry.sig).is_ok_and(|c| c == comment));
    match signed {
        true => Ok(Standing::plain(channel)),
        false => Err(format!(
            "its signature's channel ({channel}) is not signed by a key of its org"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_statement_names_package_archive_and_channel() {
        insta::assert_snapshot!(statement(&entry(), &Move::to(Channel::Draft)), @"skillpkg corp/x@1.1.0 sha256:abababababababababababababababababababababababababababababababab channel=draft");
        insta::assert_snapshot!(statement(&entry(), &Move { replacement: Some("corp/y"), ..Move::to(Channel::Deprecated) }), @"skillpkg corp/x@1.1.0 sha256:abababababababababababababababababababababababababababababababab channel=deprecated replacement=corp/y");
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

    #[test]
    fn a_channel_this_build_does_not_know_reads_as_a_draft() {
        let line = r#"{"name":"corp/x","vers":"1.0.0","cksum":"ab","channel":"nightly","channels":[{"channel":"nightly","sig":""}]}"#;
        let entry: IndexEntry = serde_json::from_str(line).unwrap();
        assert_eq!(entry.channel, Some(Channel::Draft));
        assert_eq!(claimed(&entry), Channel::Draft);
    }

    #[test]
    fn asking_for_a_channel_admits_it_and_those_above() {
        assert!(Channel::Published.admits(Channel::Deprecated));
        assert!(!Channel::Published.admits(Channel::Testing));
        assert!(Channel::Testing.admits(Channel::Published));
        assert!(Channel::Draft.admits(Channel::Testing));
        assert!(!Channel::Testing.admits(Channel::Draft));
    }
}
