//! Records of verified archives: what a full check of an archive proved
//! (the signatures that verify over it, the tree it unpacks to and the
//! files it makes executable), kept in the cache under the archive's
//! sha256 so that a warm install need not read, hash and check the
//! archive again, and so that a lock's `tree` is checked against the
//! archive's without unpacking it.
//!
//! The cache may be hostile (DESIGN.md §11: it may not change the content
//! of a locked version), so a record is believed only when its MAC
//! (HMAC-SHA256) verifies under this machine's key, kept in skillpkg's
//! config dir with mode 0600, which sandboxed scripts and the model
//! cannot read: whoever can write the cache, but not the config dir,
//! cannot make a record that will be believed. A record speaks of the
//! archive alone, never of the cached files: those are still hashed, file
//! by file, against the record's tree on every install.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use hmac::{Hmac, Mac as _};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

/// The name of the key's file in the config dir.
const KEY_FILE: &str = "cache.key";

/// What the MAC covers besides the record, so that it means nothing else.
const DOMAIN: &[u8] = b"skillpkg verified archive 1\n";

/// Signatures kept per archive (one, unless its org re-signed it).
const MAX_SIGNATURES: usize = 8;

/// What a full check proved about one archive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Record {
    /// `sha256:<hex>` of the archive's bytes.
    pub archive: String,
    /// The `h1:` hash of the tree it unpacks to.
    pub tree: String,
    /// The files of that tree, relative to the skill, sorted.
    pub files: Vec<String>,
    /// The files it makes executable, relative to the skill.
    pub executables: BTreeSet<String>,
    /// Signatures that verify over it.
    pub signatures: Vec<Signature>,
}

/// A minisign signature that verified over an archive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Signature {
    /// The public key (base64, as the index lists it).
    pub key: String,
    /// The signature file's text, as the index entry holds it.
    pub signature: String,
    /// The trusted comment it was checked against.
    pub comment: String,
}

impl Record {
    /// Whether `key` was seen to make `signature` over the archive, with
    /// the trusted comment `comment`.
    pub(crate) fn is_signed(&self, key: &str, signature: &str, comment: &str) -> bool {
        self.signatures
            .iter()
            .any(|s| s.key == key && s.signature == signature && s.comment == comment)
    }

    /// Adds a signature seen to verify, keeping the newest few.
    pub(crate) fn add_signature(&mut self, signature: Signature) {
        if self.signatures.contains(&signature) {
            return;
        }
        self.signatures.push(signature);
        let excess = self.signatures.len().saturating_sub(MAX_SIGNATURES);
        self.signatures.drain(..excess);
    }
}

/// A record as stored: with its MAC.
#[derive(Serialize, Deserialize)]
struct Sealed {
    record: Record,
    mac: String,
}

/// The records in a cache dir, and the key that seals them.
#[derive(Debug)]
pub(crate) struct Records {
    dir: PathBuf,
    key_file: PathBuf,
    /// The key, once read or made.
    key: Mutex<Option<[u8; 32]>>,
}

impl Records {
    /// The records of the cache dir `cache` (`<cache>/verified`), sealed
    /// with the key in the config dir `config`. Nothing is read or made
    /// until a record is asked for or kept.
    pub(crate) fn new(cache: &Path, config: &Path) -> Records {
        Records {
            dir: cache.join("verified"),
            key_file: config.join(KEY_FILE),
            key: Mutex::new(None),
        }
    }

    /// The record of the archive `checksum` (`sha256:<hex>`), if the cache
    /// holds one sealed with this machine's key.
    pub(crate) fn get(&self, checksum: &str) -> Option<Record> {
        let path = self.path_of(checksum)?;
        let key = self.key()?;
        let bytes = std::fs::read(path).ok()?;
        let sealed: Sealed = serde_json::from_slice(&bytes).ok()?;
        let mac = crate::store::hash::unhex(&sealed.mac)?;
        (sealed.record.archive == checksum
            && mac_of(&key, &sealed.record).verify_slice(&mac).is_ok())
        .then_some(sealed.record)
    }

    /// Keeps `record`, sealed. Only a cache: a record that cannot be kept
    /// (no config dir, a read-only disk) means a full check next time.
    pub(crate) fn put(&self, record: &Record) {
        let (Some(path), Some(key)) = (self.path_of(&record.archive), self.key_or_new()) else {
            return;
        };
        let sealed = Sealed {
            record: record.clone(),
            mac: crate::store::hash::hex(&mac_of(&key, record).finalize().into_bytes()),
        };
        if let Ok(bytes) = serde_json::to_vec(&sealed) {
            let _ = crate::fsutil::write_cache_file(&path, &bytes);
        }
    }

    /// The MAC (hex) of `bytes` under this machine's key, for the purpose
    /// `domain`: how other cached verdicts are sealed. `None` when no key
    /// can be kept.
    pub(crate) fn seal(&self, domain: &[u8], bytes: &[u8]) -> Option<String> {
        let key = self.key_or_new()?;
        Some(crate::store::hash::hex(
            &mac_of_bytes(&key, domain, bytes).finalize().into_bytes(),
        ))
    }

    /// Whether `mac` (hex) is [`Records::seal`]'s of `bytes` for `domain`.
    pub(crate) fn is_sealed(&self, domain: &[u8], bytes: &[u8], mac: &str) -> bool {
        let (Some(key), Some(mac)) = (self.key(), crate::store::hash::unhex(mac)) else {
            return false;
        };
        mac_of_bytes(&key, domain, bytes).verify_slice(&mac).is_ok()
    }

    /// `<dir>/<hex>` for a sha256 in lowercase hex.
    fn path_of(&self, checksum: &str) -> Option<PathBuf> {
        let hex = checksum.strip_prefix("sha256:")?;
        let valid = hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        valid.then(|| self.dir.join(hex))
    }

    /// The key, if one is kept.
    fn key(&self) -> Option<[u8; 32]> {
        let mut key = self.key.lock().expect("key lock");
        if key.is_none() {
            *key = read_key(&self.key_file);
        }
        *key
    }

    /// The key, made if none is kept. Two runs making one at once each
    /// write theirs and then use whichever was written last: records
    /// sealed with the other are checked in full next time.
    fn key_or_new(&self) -> Option<[u8; 32]> {
        let mut key = self.key.lock().expect("key lock");
        if key.is_none() {
            *key = read_key(&self.key_file);
        }
        if key.is_none() {
            let mut new = [0u8; 32];
            getrandom::fill(&mut new).ok()?;
            let text = format!("{}\n", crate::store::hash::hex(&new));
            crate::fsutil::write_private(&self.key_file, text.as_bytes()).ok()?;
            *key = read_key(&self.key_file);
        }
        *key
    }
}

/// The key in `path`: 64 hex digits. `None` when absent or malformed (a
/// new one replaces it).
fn read_key(path: &Path) -> Option<[u8; 32]> {
    let text = std::fs::read_to_string(path).ok()?;
    crate::store::hash::unhex(text.trim())?.try_into().ok()
}

/// The MAC of `record` under `key`, before finalising.
fn mac_of(key: &[u8; 32], record: &Record) -> Hmac<Sha256> {
    let bytes = serde_json::to_vec(record).expect("a record serializes");
    mac_of_bytes(key, DOMAIN, &bytes)
}

/// The MAC of `bytes` for the purpose `domain` under `key`, before
/// finalising. Every domain ends in a newline, so none is a prefix of
/// another's message.
fn mac_of_bytes(key: &[u8; 32], domain: &[u8], bytes: &[u8]) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(domain);
    mac.update(bytes);
    mac
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUM: &str = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

    fn record() -> Record {
        Record {
            archive: SUM.to_string(),
            tree: "h1:tree".to_string(),
            files: vec!["SKILL.md".to_string(), "scripts/run.sh".to_string()],
            executables: BTreeSet::from(["scripts/run.sh".to_string()]),
            signatures: vec![Signature {
                key: "RWkey".to_string(),
                signature: "sig".to_string(),
                comment: "skillpkg acme/tool@1.0.0 sha256:bb".to_string(),
            }],
        }
    }

    fn records(dir: &Path) -> Records {
        Records::new(&dir.join("cache"), &dir.join("config"))
    }

    #[test]
    fn a_kept_record_is_read_back_by_the_same_machine() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(records(dir.path()).get(SUM), None);
        records(dir.path()).put(&record());
        assert_eq!(records(dir.path()).get(SUM), Some(record()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let key = std::fs::metadata(dir.path().join("config").join(KEY_FILE)).unwrap();
            assert_eq!(key.permissions().mode() & 0o777, 0o600);
        }
    }

    #[test]
    fn records_kept_before_and_after_the_key_is_made_are_all_believed() {
        let dir = tempfile::tempdir().unwrap();
        let records = records(dir.path());
        // Asked for before any key exists, as an install's first look is.
        assert_eq!(records.get(SUM), None);
        let other = Record {
            archive: format!("sha256:{}", "c".repeat(64)),
            ..record()
        };
        records.put(&record());
        records.put(&other);
        let again = self::records(dir.path());
        assert_eq!(again.get(SUM), Some(record()));
        assert_eq!(again.get(&other.archive), Some(other));
    }

    #[test]
    fn a_record_edited_or_sealed_by_another_key_is_not_believed() {
        let dir = tempfile::tempdir().unwrap();
        records(dir.path()).put(&record());
        let path = dir.path().join("cache/verified").join(&SUM[7..]);
        let kept = std::fs::read_to_string(&path).unwrap();
        // Another tree, the MAC unchanged.
        std::fs::write(&path, kept.replace("h1:tree", "h1:evil")).unwrap();
        assert_eq!(records(dir.path()).get(SUM), None);
        // Moved to another archive's name.
        let other = "c".repeat(64);
        std::fs::write(dir.path().join("cache/verified").join(&other), &kept).unwrap();
        assert_eq!(records(dir.path()).get(&format!("sha256:{other}")), None);
        // Sealed on another machine (another config dir).
        std::fs::write(&path, &kept).unwrap();
        let elsewhere = Records::new(&dir.path().join("cache"), &dir.path().join("other-config"));
        assert_eq!(elsewhere.get(SUM), None);
        assert_eq!(records(dir.path()).get(SUM), Some(record()));
    }

    #[test]
    fn signatures_are_added_once_and_the_oldest_dropped() {
        let mut record = record();
        let first = record.signatures[0].clone();
        record.add_signature(first.clone());
        assert_eq!(record.signatures.len(), 1);
        for i in 0..MAX_SIGNATURES {
            record.add_signature(Signature {
                signature: format!("sig{i}"),
                ..first.clone()
            });
        }
        assert_eq!(record.signatures.len(), MAX_SIGNATURES);
        assert!(!record.is_signed(&first.key, &first.signature, &first.comment));
        assert!(record.is_signed(&first.key, "sig0", &first.comment));
    }
}
