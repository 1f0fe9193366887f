//! Which versions a project sees: those in the channel it asks for and
//! above (`published` unless `skills.toml` or `--channel` says
//! otherwise), each checked against the org's keys. The rest are not
//! there at all for `add`, `update` and `outdated`; a locked version is
//! always there, as a yanked one is.

use crate::ops::provenance::check::check;
use crate::ops::provenance::claim::{Claim, Pins};
use std::collections::BTreeMap;

use crate::index::IndexEntry;
use crate::index::channel::{self, Channel};
use crate::index::freshness::{Freshness, RecordCheck};

/// The channels a resolution over one index asks for.
pub(crate) struct ChannelFilter<'a> {
    /// The channel each package asks for in `skills.toml`.
    pub asked: &'a BTreeMap<String, Channel>,
    /// What packages that name none ask for (`--channel`, else published).
    pub default: Channel,
    /// The keys `skills.lock` pins, by org: when it pins an org's, only
    /// they sign its channels.
    pub pinned: &'a BTreeMap<String, Vec<String>>,
    /// The keys the index lists, by org, for orgs the lock does not pin.
    pub listed: &'a BTreeMap<String, Vec<String>>,
    /// Versions without channel signatures count as drafts (the org's
    /// policy requires them).
    pub require_signed: bool,
    /// The checks that records are bound to the index, in sequence and
    /// not expired ([`crate::index::freshness`]).
    pub freshness: &'a Freshness,
}

/// A deprecated version that resolution may choose: what to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Deprecated {
    /// What to use instead, when its record names it.
    pub replacement: Option<String>,
}

impl Deprecated {
    /// The warning an install of `name@version` prints.
    pub(crate) fn warning(&self, name: &str, version: &str) -> String {
        match &self.replacement {
            Some(replacement) => format!(
                "{name} {version} is deprecated by its publisher; use {replacement} instead"
            ),
            None => format!("{name} {version} is deprecated by its publisher"),
        }
    }
}

/// The channel each registry package of `manifest` asks for, where it
/// names one.
pub(crate) fn asked_in(manifest: &crate::manifest::Manifest) -> BTreeMap<String, Channel> {
    manifest
        .skills
        .iter()
        .filter_map(|(name, spec)| match spec.source(name) {
            Ok(crate::manifest::Source::Registry {
                channel: Some(channel),
                ..
            }) => Some((name.clone(), channel)),
            _ => None,
        })
        .collect()
}

impl ChannelFilter<'_> {
    /// The channel `name` is resolved in.
    pub(crate) fn asked_for(&self, name: &str) -> Channel {
        self.asked.get(name).copied().unwrap_or(self.default)
    }

    /// The keys that sign the channel records of `org`'s packages: those
    /// the lock pins, else those the index lists.
    fn record_keys(&self, org: &str) -> &[String] {
        match self.pinned.get(org).filter(|keys| !keys.is_empty()) {
            Some(keys) => keys,
            None => self.listed.get(org).map(Vec::as_slice).unwrap_or_default(),
        }
    }

    /// The keys whose package signatures' channels count: pinned and
    /// listed (an install refuses a signer the lock does not pin, naming
    /// it, later).
    fn signature_keys(&self, org: &str) -> Vec<String> {
        let mut keys: Vec<String> = self.pinned.get(org).cloned().unwrap_or_default();
        for key in self.listed.get(org).into_iter().flatten() {
            if !keys.contains(key) {
                keys.push(key.clone());
            }
        }
        keys
    }

    /// The entries of `name` its project sees, as far as their claims
    /// go: those claiming the channel it asks for or above, and `locked`
    /// (the version the lock pins) whatever its channel. Claims are not
    /// checked here: [`ChannelFilter::verified`] checks the versions
    /// resolution chooses, so that the work does not grow with the
    /// versions an index lists. Only a record newer than this machine
    /// knows is verified, once, to be remembered (a demotion stays one).
    pub(crate) fn seen(
        &self,
        name: &str,
        entries: Vec<IndexEntry>,
        locked: Option<&str>,
    ) -> Vec<IndexEntry> {
        let asked = self.asked_for(name);
        let org = name.split_once('/').map_or(name, |(org, _)| org);
        for entry in &entries {
            self.freshness
                .note(name, &entry.vers, &entry.channels, |record| {
                    let claim = Claim::ChannelRecord { entry, record };
                    check(claim, &Pins::of_keys(self.record_keys(org))).is_signed()
                });
        }
        entries
            .into_iter()
            .filter(|entry| {
                locked == Some(entry.vers.as_str()) || asked.admits(channel::claimed(entry))
            })
            .collect()
    }

    /// Where `entry` of `name` stands, as far as its signatures show.
    pub(crate) fn standing(
        &self,
        name: &str,
        entry: &IndexEntry,
    ) -> crate::ops::provenance::channels::Standing {
        let org = name.split_once('/').map_or(name, |(org, _)| org);
        let signature_keys = self.signature_keys(org);
        let keys = crate::ops::provenance::channels::OrgKeys {
            records: self.record_keys(org),
            signatures: &signature_keys,
        };
        crate::ops::provenance::channels::standing(entry, keys, self.require_signed)
    }

    /// Where the chosen version `entry` of `name` stands, its signatures
    /// checked: `None` when it is not seen after all (its claim does not
    /// verify, or it stands below the channel asked for); else whether it
    /// is deprecated, and for what. The locked version (`locked`) is seen
    /// whatever its channel. A verified record that is replayed, signed
    /// for another index or expired is an error naming it.
    pub(crate) fn verified(
        &self,
        name: &str,
        entry: &IndexEntry,
        locked: bool,
    ) -> anyhow::Result<Option<Option<Deprecated>>> {
        let asked = self.asked_for(name);
        let seen_anyway = locked || asked == Channel::Draft;
        if seen_anyway && channel::claimed(entry) != Channel::Deprecated {
            return Ok(Some(None));
        }
        let mut standing = self.standing(name, entry);
        if standing.unverified.is_none()
            && !entry.channels.is_empty()
            && self
                .freshness
                .check_records(name, &entry.vers, &entry.channels)?
                == RecordCheck::Unbound
        {
            standing.channel = Channel::Draft;
        }
        if !seen_anyway && !asked.admits(standing.channel) {
            return Ok(None);
        }
        Ok(Some((standing.channel == Channel::Deprecated).then_some(
            Deprecated {
                replacement: standing.replacement,
            },
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::store::signing::throwaway_key as key;

    /// A key an index host adds to `config.json` cannot promote a draft
    /// in a project whose lock pins the org's keys.
    #[test]
    fn records_count_only_by_the_keys_a_lock_pins() {
        let (_org_dir, org) = key();
        let (_intruder_dir, intruder) = key();
        let mut draft = IndexEntry {
            name: "acme/x".into(),
            vers: "1.0.0".into(),
            cksum: "ab".repeat(32),
            ..IndexEntry::default()
        };
        let comment = channel::signed_comment("acme/x", "1.0.0", &draft.cksum, Channel::Draft);
        draft.sig = org.sign(b"archive", &comment).unwrap();
        draft.channels.push(
            channel::sign_record(
                &intruder,
                &draft,
                &channel::Move::to(Channel::Published),
                None,
            )
            .unwrap(),
        );
        draft.channel = Some(Channel::Published);
        let listed = BTreeMap::from([(
            "acme".to_string(),
            vec![org.public_key(), intruder.public_key()],
        )]);
        let pinned = BTreeMap::from([("acme".to_string(), vec![org.public_key()])]);
        let asked = BTreeMap::new();
        let freshness = Freshness::open("index", None, crate::index::seen::Memory::none()).unwrap();
        let filter = |pinned| ChannelFilter {
            asked: &asked,
            default: Channel::Published,
            pinned,
            listed: &listed,
            require_signed: false,
            freshness: &freshness,
        };
        // It claims published, so resolution may choose it; checked, it
        // is not seen.
        assert_eq!(
            filter(&pinned)
                .seen("acme/x", vec![draft.clone()], None)
                .len(),
            1
        );
        assert_eq!(
            filter(&pinned).verified("acme/x", &draft, false).unwrap(),
            None
        );
        // Before the org is pinned, the index's keys are all there is to
        // go on (trust on first use, as for packages).
        let unpinned = BTreeMap::new();
        assert_eq!(
            filter(&unpinned).verified("acme/x", &draft, false).unwrap(),
            Some(None)
        );
        // The locked version is seen whatever its channel.
        assert_eq!(
            filter(&pinned).verified("acme/x", &draft, true).unwrap(),
            Some(None)
        );
    }
}
