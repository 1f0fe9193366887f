//! Index metadata that cannot be replayed: each signed channel record and
//! each `policy.toml` names the index it was signed for (its identity,
//! as the org named it at `index init`) and a sequence number (a record's
//! place in its version's history; a policy's `serial`), and may say
//! until when it counts (`expires`). The machine keeps the highest
//! sequence it accepted per index ([`super::seen`]) and refuses anything
//! lower or from another index, naming both; past `expires` it takes no
//! new version from the index, as TUF's timestamp role does.
//!
//! Records and policies from before this binding keep their meaning until
//! the org's policy requires it (`require-fresh-metadata = true`).

use std::str::FromStr as _;

use anyhow::bail;

use super::channel::ChannelRecord;
use super::seen::Memory;
use crate::hint::Hinted;

/// The checks of one index's metadata, for one command.
#[derive(Debug)]
pub(crate) struct Freshness {
    /// The index's label, for messages.
    pub label: String,
    /// The identity the index goes by on this machine: the one first
    /// seen, else the one its `config.json` names now.
    pub identity: Option<String>,
    /// Records must be bound (the org's policy requires fresh metadata).
    pub required: bool,
    /// Now.
    pub now: jiff::Timestamp,
    memory: Memory,
}

/// How a version's newest channel record stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RecordCheck {
    /// Bound to this index, not replayed, not expired (or from before
    /// records were bound, where the policy allows that).
    Fresh,
    /// Not bound to an index, and the org's policy requires it: the
    /// version counts as a draft.
    Unbound,
}

impl Freshness {
    /// The checks of the index `label`, whose `config.json` names
    /// `identity`, against what `memory` kept. An index that names itself
    /// otherwise than this machine first saw is refused.
    pub(crate) fn open(
        label: &str,
        identity: Option<&str>,
        memory: Memory,
    ) -> anyhow::Result<Freshness> {
        let seen = memory.get();
        if let (Some(pinned), Some(named)) = (&seen.identity, identity)
            && pinned != named
        {
            bail!(
                Hinted::new(format!(
                    "the index {label} names itself {named} in its config.json, but this machine knows it as {pinned}"
                ))
                .hint("an index keeps its identity: this is another index served in its place; if its org really renamed it, delete this machine's record of it in the data directory (`index-seen/`)")
            );
        }
        let identity = seen.identity.or_else(|| identity.map(str::to_string));
        if let Some(identity) = &identity {
            memory.update(|seen| {
                seen.identity.get_or_insert_with(|| identity.clone());
            });
        }
        Ok(Freshness {
            label: label.to_string(),
            identity,
            required: false,
            now: jiff::Timestamp::now(),
            memory,
        })
    }

    /// The checks of `registry`, with what this machine kept of it under
    /// `data`.
    pub(crate) fn of(
        registry: &super::source::Registry,
        data: &std::path::Path,
    ) -> anyhow::Result<Freshness> {
        Freshness::open(
            &registry.label,
            registry.config.identity.as_deref(),
            Memory::open(data, &registry.label),
        )
    }

    /// Keeps what this command accepted, for the next.
    pub(crate) fn save(&self) -> anyhow::Result<()> {
        self.memory.save()
    }

    /// Checks the channel history `records` of `package@version`, whose
    /// newest record's signature verified: in order, signed for this
    /// index, not below the sequence this machine accepted, not expired.
    /// What passes raises the sequence kept.
    pub(crate) fn check_records(
        &self,
        package: &str,
        version: &str,
        records: &[ChannelRecord],
    ) -> anyhow::Result<RecordCheck> {
        let what = format!("{package}@{version} from {}", self.label);
        for pair in records.windows(2) {
            let (earlier, later) = (&pair[0], &pair[1]);
            match (earlier.seq, later.seq) {
                (Some(a), Some(b)) if b <= a => bail!(replayed(format!(
                    "the channel records of {what} are out of order: sequence {b} follows sequence {a}"
                ))),
                (Some(a), None) => bail!(replayed(format!(
                    "the channel records of {what} are out of order: a record without a sequence follows sequence {a}"
                ))),
                _ => {}
            }
        }
        let Some(last) = records.last() else {
            return Ok(RecordCheck::Fresh);
        };
        let (Some(index), Some(seq)) = (&last.index, last.seq) else {
            return Ok(match self.required {
                true => RecordCheck::Unbound,
                false => RecordCheck::Fresh,
            });
        };
        match &self.identity {
            Some(identity) if identity != index => bail!(
                Hinted::new(format!(
                    "the channel record of {what} was signed for the index {index}, not for this one ({identity})"
                ))
                .hint("the index serves a record its org signed for another index: do not install from it until its maintainers fix it")
            ),
            Some(_) => {}
            None => self.memory.update(|seen| {
                seen.identity.get_or_insert_with(|| index.clone());
            }),
        }
        let key = format!("{package}@{version}");
        let kept = self.memory.get().records.get(&key).copied().unwrap_or(0);
        if seq < kept {
            bail!(replayed(format!(
                "the channel record of {what} has sequence {seq}, but this machine accepted sequence {kept} for it"
            )));
        }
        if let Some(expires) = &last.expires {
            self.check_expiry(&format!("the channel record of {what}"), expires)?;
        }
        self.memory.update(|seen| {
            let kept = seen.records.entry(key).or_default();
            *kept = (*kept).max(seq);
        });
        Ok(RecordCheck::Fresh)
    }

    /// Remembers the newest record of `package@version`'s history when it
    /// claims a sequence above the one kept and `signed` (the check of its
    /// signature by the org's keys) holds, and it was signed for this
    /// index: so that a version the org demoted stays demoted here, even
    /// when no resolution chose it. Each record is verified once per
    /// machine; a claim that does not hold changes nothing.
    pub(crate) fn note(
        &self,
        package: &str,
        version: &str,
        records: &[ChannelRecord],
        signed: impl FnOnce(&ChannelRecord) -> bool,
    ) {
        let Some(last) = records.last() else {
            return;
        };
        let (Some(index), Some(seq)) = (&last.index, last.seq) else {
            return;
        };
        let key = format!("{package}@{version}");
        let kept = self.memory.get().records.get(&key).copied().unwrap_or(0);
        if seq <= kept || self.identity.as_ref().is_some_and(|i| i != index) || !signed(last) {
            return;
        }
        self.memory.update(|seen| {
            let kept = seen.records.entry(key).or_default();
            *kept = (*kept).max(seq);
        });
    }

    /// Checks a policy of `serial` that names `index` and `expires`,
    /// read from `origin`: signed for this index, not below the serial
    /// this machine accepted. Returns when it expired, if it did (new
    /// versions are then refused, the lock's still install). What passes
    /// raises the serial kept.
    pub(crate) fn check_policy(
        &self,
        origin: &str,
        index: Option<&str>,
        serial: u64,
        expires: Option<&str>,
    ) -> anyhow::Result<Option<jiff::Timestamp>> {
        if let (Some(index), Some(identity)) = (index, &self.identity)
            && index != identity
        {
            bail!(
                Hinted::new(format!(
                    "{origin} was signed for the index {index}, not for this one ({identity})"
                ))
                .hint("the index serves a policy its org signed for another index (a staging policy in production, say): do not install from it until its maintainers fix it")
            );
        }
        let kept = self.memory.get().policy;
        if serial < kept {
            bail!(
                Hinted::new(format!(
                    "{origin} has serial {serial}, but this machine accepted serial {kept} from {}",
                    self.label
                ))
                .hint("the index serves an older policy its org once signed (a replay): do not install from it until its maintainers serve the newest")
            );
        }
        let expired = match expires {
            Some(expires) => expiry(expires)
                .map_err(|why| anyhow::anyhow!("{origin}: expires: {why}"))?
                .filter(|at| *at < self.now),
            None => None,
        };
        self.memory.update(|seen| {
            seen.policy = seen.policy.max(serial);
            if let Some(index) = index {
                seen.identity.get_or_insert_with(|| index.to_string());
            }
        });
        Ok(expired)
    }

    fn check_expiry(&self, what: &str, expires: &str) -> anyhow::Result<()> {
        let at = expiry(expires).map_err(|why| anyhow::anyhow!("{what}: expires: {why}"))?;
        if let Some(at) = at.filter(|at| *at < self.now) {
            bail!(expired_refusal(what, at));
        }
        Ok(())
    }
}

/// The `expires` of a record or policy for `text`: an RFC 3339 time, or
/// a span from `now` (`30d`, `12h`, `2 weeks`), in UTC to the second.
pub(crate) fn expires_from(text: &str, now: jiff::Timestamp) -> anyhow::Result<String> {
    let at = match jiff::Timestamp::from_str(text) {
        Ok(at) => at,
        Err(_) => {
            let span = jiff::Span::from_str(text).map_err(|_| {
                anyhow::anyhow!(
                    "'{text}' is neither a time (2027-01-31T00:00:00Z) nor a span from now (30d, 12h)"
                )
            })?;
            now.to_zoned(jiff::tz::TimeZone::UTC)
                .checked_add(span)
                .map_err(|e| anyhow::anyhow!("'{text}' from now: {e}"))?
                .timestamp()
        }
    };
    Ok(at.round(jiff::Unit::Second)?.to_string())
}

/// The instant `text` (RFC 3339) names.
fn expiry(text: &str) -> Result<Option<jiff::Timestamp>, String> {
    jiff::Timestamp::from_str(text)
        .map(Some)
        .map_err(|_| format!("'{text}' is not an RFC 3339 time such as 2027-01-31T00:00:00Z"))
}

/// The refusal of new versions from an index whose `what` expired `at`.
pub(crate) fn expired_refusal(what: &str, at: jiff::Timestamp) -> Hinted {
    Hinted::new(format!(
        "{what} expired at {at}: the org no longer vouches for it, so no new version is taken from the index"
    ))
    .hint("the index is stale or held back: ask its org to sign it anew; `skillpkg install --locked` still installs exactly what skills.lock pins")
}

fn replayed(message: String) -> Hinted {
    Hinted::new(message).hint(
        "the index serves a record its org signed earlier (a replay): do not install from it until its maintainers serve the org's newest records",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(index: &str, seq: u64, expires: Option<&str>) -> ChannelRecord {
        ChannelRecord {
            channel: crate::manifest::channel::Channel::Published,
            replacement: None,
            index: Some(index.into()),
            seq: Some(seq),
            expires: expires.map(str::to_string),
            at: None,
            sig: String::new(),
        }
    }

    const PROD: &str = "https://skills.corp/prod/";

    #[test]
    fn a_lower_sequence_than_this_machine_accepted_is_a_replay() {
        let fresh =
            Freshness::open("https://skills.corp/prod/", Some(PROD), Memory::none()).unwrap();
        let history = [
            record(PROD, 1, None),
            record(PROD, 2, None),
            record(PROD, 3, None),
        ];
        assert_eq!(
            fresh.check_records("corp/x", "1.0.0", &history).unwrap(),
            RecordCheck::Fresh
        );
        // The newest record dropped after this machine saw it.
        let err = fresh
            .check_records("corp/x", "1.0.0", &history[..2])
            .unwrap_err();
        insta::assert_snapshot!(err.to_string(), @"the channel record of corp/x@1.0.0 from https://skills.corp/prod/ has sequence 2, but this machine accepted sequence 3 for it");
        let hints = err.downcast_ref::<Hinted>().unwrap().hints();
        assert!(hints[0].contains("(a replay)"), "{hints:?}");
        // An earlier record appended again.
        let mut appended = history.to_vec();
        appended.push(record(PROD, 2, None));
        let err = fresh
            .check_records("corp/x", "1.0.0", &appended)
            .unwrap_err();
        assert!(
            err.to_string().contains("sequence 2 follows sequence 3"),
            "{err}"
        );
    }

    #[test]
    fn a_record_of_another_index_is_refused_naming_both() {
        let fresh =
            Freshness::open("https://skills.corp/prod/", Some(PROD), Memory::none()).unwrap();
        let staging = [record("https://skills.corp/staging/", 1, None)];
        let err = fresh
            .check_records("corp/x", "1.0.0", &staging)
            .unwrap_err();
        assert!(
            err.to_string().contains("signed for the index https://skills.corp/staging/, not for this one (https://skills.corp/prod/)"),
            "{err}"
        );
    }

    #[test]
    fn unbound_records_count_until_the_policy_requires_binding() {
        let mut fresh = Freshness::open("https://skills.corp/prod/", None, Memory::none()).unwrap();
        let old = [ChannelRecord {
            index: None,
            seq: None,
            ..record(PROD, 1, None)
        }];
        assert_eq!(
            fresh.check_records("corp/x", "1.0.0", &old).unwrap(),
            RecordCheck::Fresh
        );
        fresh.required = true;
        assert_eq!(
            fresh.check_records("corp/x", "1.0.0", &old).unwrap(),
            RecordCheck::Unbound
        );
    }

    #[test]
    fn an_expired_record_and_policy() {
        let fresh =
            Freshness::open("https://skills.corp/prod/", Some(PROD), Memory::none()).unwrap();
        let stale = [record(PROD, 1, Some("2020-01-01T00:00:00Z"))];
        let err = fresh.check_records("corp/x", "1.0.0", &stale).unwrap_err();
        assert!(
            err.to_string().contains("expired at 2020-01-01T00:00:00Z"),
            "{err}"
        );
        let good = [record(PROD, 1, Some("2999-01-01T00:00:00Z"))];
        assert!(fresh.check_records("corp/x", "1.0.0", &good).is_ok());
        let expired = fresh
            .check_policy("policy.toml", Some(PROD), 1, Some("2020-01-01T00:00:00Z"))
            .unwrap();
        assert!(expired.is_some());
        let garbled = fresh.check_policy("policy.toml", Some(PROD), 1, Some("soon"));
        assert!(garbled.is_err());
    }

    #[test]
    fn a_policy_below_the_serial_accepted_or_of_another_index_is_refused() {
        let fresh =
            Freshness::open("https://skills.corp/prod/", Some(PROD), Memory::none()).unwrap();
        fresh
            .check_policy("policy.toml", Some(PROD), 4, None)
            .unwrap();
        let err = fresh
            .check_policy("policy.toml", Some(PROD), 3, None)
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("has serial 3, but this machine accepted serial 4"),
            "{err}"
        );
        let err = fresh
            .check_policy("policy.toml", Some("https://skills.corp/staging/"), 5, None)
            .unwrap_err();
        assert!(err.to_string().contains("not for this one"), "{err}");
    }

    #[test]
    fn expiry_is_a_time_or_a_span_from_now() {
        let now = jiff::Timestamp::from_second(1_795_000_000).unwrap();
        assert_eq!(expires_from("30d", now).unwrap(), "2026-12-18T11:06:40Z");
        assert_eq!(expires_from("12h", now).unwrap(), "2026-11-18T23:06:40Z");
        assert_eq!(
            expires_from("2027-01-31T00:00:00Z", now).unwrap(),
            "2027-01-31T00:00:00Z"
        );
        assert!(expires_from("soon", now).is_err());
    }

    #[test]
    fn an_index_that_names_itself_anew_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let label = "https://skills.corp/prod/";
        let first = Freshness::open(label, Some(PROD), Memory::open(dir.path(), label)).unwrap();
        first.save().unwrap();
        let err = Freshness::open(
            label,
            Some("https://skills.corp/staging/"),
            Memory::open(dir.path(), label),
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("knows it as https://skills.corp/prod/"),
            "{err}"
        );
    }
}
