//! Channel records: where a version stands, its records and its
//! signature checked against its org's keys, and the moves `promote`
//! signs (the record format is [`crate::index::channel`]'s).
//!
//! A version stands in its last record's channel, or with none its
//! signature's, when one of the org's keys signed it; one that does not
//! verify leaves the version a `draft`. A signature that names no channel
//! was made before channels existed and counts as `published`, unless the
//! org's policy requires channel signatures. Dropping records can only
//! take a version back to an earlier channel the org signed, which is
//! what an index host can do with any signed state it serves.

use crate::index::IndexEntry;
use crate::index::channel::{
    Channel, ChannelRecord, Move, next_seq, sign_record, signature_channel, signed_comment,
    statement,
};
use crate::ops::provenance::Proof;
use crate::ops::provenance::records::minisign_proof;
use crate::store::signing::{self, SigningError, SigningKey};

/// Moves `entry` as `moved` says (its `seq` is taken as the next in the
/// entry's history, and `index` and `expires` are signed as given): a
/// record signed with `key` is appended and the entry's `channel` set.
/// `keys` are the org's, to tell where it stands now. Returns where it
/// stood, or `None` when it is there already with nothing new to sign.
pub(crate) fn promote(
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

/// Where a version stands, as far as its signatures show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Standing {
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

/// The proof that `record`, a record of `entry`, is signed by one of
/// `keys`.
pub(super) fn record_proof(
    entry: &IndexEntry,
    record: &ChannelRecord,
    keys: &[String],
) -> anyhow::Result<Proof> {
    let moved = Move::of(record);
    if moved.is_ambiguous() {
        anyhow::bail!(
            "its {} record has a field with spaces in it, which no record of skillpkg's has",
            record.channel
        );
    }
    let text = statement(entry, &moved);
    minisign_proof(text.as_bytes(), &record.sig, &text, keys).ok_or_else(|| {
        anyhow::anyhow!(
            "its {} record is not signed by a key of its org",
            record.channel
        )
    })
}

/// The channel `entry`'s signatures put it in, or why they do not.
fn verified_channel(
    entry: &IndexEntry,
    keys: OrgKeys<'_>,
    require_signed: bool,
) -> Result<Standing, String> {
    if let Some(last) = entry.channels.last() {
        return match record_proof(entry, last, keys.records) {
            Ok(_) => Ok(Standing {
                channel: last.channel,
                replacement: last.replacement.clone(),
                unverified: None,
            }),
            Err(why) => Err(format!("{why:#}")),
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
mod tests;
