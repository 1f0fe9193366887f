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
//! Where a version stands, its records and signature checked against its
//! org's keys, is `ops::provenance::channels`' to say.

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
    pub(crate) fn is_ambiguous(&self) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

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
