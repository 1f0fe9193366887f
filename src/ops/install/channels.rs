//! Which versions a project sees: those in the channel it asks for and
//! above (`published` unless `skills.toml` or `--channel` says
//! otherwise), each checked against the org's keys. The rest are not
//! there at all for `add`, `update` and `outdated`; a locked version is
//! always there, as a yanked one is.

use std::collections::{BTreeMap, HashMap};

use crate::index::IndexEntry;
use crate::index::channel::{self, Channel};

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

/// What a filtered entry file leaves: the versions seen, and those of
/// them that are deprecated, by version.
pub(crate) struct Seen {
    /// The entries the project sees, in file order.
    pub entries: Vec<IndexEntry>,
    /// The deprecated ones among them, by version.
    pub deprecated: HashMap<String, Deprecated>,
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

    /// The entries of `name` its project sees: those standing in the
    /// channel it asks for or above, and `locked` (the version the lock
    /// pins) whatever its channel. Signatures are checked only where they
    /// decide something: not for a version claiming a channel below the
    /// one asked for (dropped), nor for the locked version or when drafts
    /// are asked for (seen either way), unless it claims to be deprecated.
    pub(crate) fn seen(&self, name: &str, entries: Vec<IndexEntry>, locked: Option<&str>) -> Seen {
        let asked = self.asked_for(name);
        let org = name.split_once('/').map_or(name, |(org, _)| org);
        let signature_keys = self.signature_keys(org);
        let keys = channel::OrgKeys {
            records: self.record_keys(org),
            signatures: &signature_keys,
        };
        let mut seen = Seen {
            entries: Vec::with_capacity(entries.len()),
            deprecated: HashMap::new(),
        };
        for entry in entries {
            let claimed = channel::claimed(&entry);
            let seen_anyway = locked == Some(entry.vers.as_str()) || asked == Channel::Draft;
            if !seen_anyway && !asked.admits(claimed) {
                continue;
            }
            if seen_anyway && claimed != Channel::Deprecated {
                seen.entries.push(entry);
                continue;
            }
            let standing = channel::standing(&entry, keys, self.require_signed);
            if !seen_anyway && !asked.admits(standing.channel) {
                continue;
            }
            if standing.channel == Channel::Deprecated {
                seen.deprecated.insert(
                    entry.vers.clone(),
                    Deprecated {
                        replacement: standing.replacement,
                    },
                );
            }
            seen.entries.push(entry);
        }
        seen
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
        draft
            .channels
            .push(channel::sign_record(&intruder, &draft, Channel::Published, None, None).unwrap());
        draft.channel = Some(Channel::Published);
        let listed = BTreeMap::from([(
            "acme".to_string(),
            vec![org.public_key(), intruder.public_key()],
        )]);
        let pinned = BTreeMap::from([("acme".to_string(), vec![org.public_key()])]);
        let asked = BTreeMap::new();
        let filter = |pinned| ChannelFilter {
            asked: &asked,
            default: Channel::Published,
            pinned,
            listed: &listed,
            require_signed: false,
        };
        let seen = filter(&pinned).seen("acme/x", vec![draft.clone()], None);
        assert!(seen.entries.is_empty());
        // Before the org is pinned, the index's keys are all there is to
        // go on (trust on first use, as for packages).
        let unpinned = BTreeMap::new();
        let seen = filter(&unpinned).seen("acme/x", vec![draft.clone()], None);
        assert_eq!(seen.entries.len(), 1);
        // The locked version is seen whatever its channel.
        let seen = filter(&pinned).seen("acme/x", vec![draft], Some("1.0.0"));
        assert_eq!(seen.entries.len(), 1);
    }
}
