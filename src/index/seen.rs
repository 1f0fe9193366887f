//! What this machine has accepted from each index: the identity the
//! index named itself by, the highest policy serial and, per version,
//! the highest channel-record sequence. An index host can serve an older
//! file its org once signed; a machine that saw a newer one refuses it,
//! as a TUF client keeps the versions of the metadata it trusted.
//!
//! Kept in the data directory (`SKILLPKG_DATA_DIR`), one small JSON file
//! per index, `index-seen/<sha256 of the index's label>.json`. Saving
//! takes a lock and merges with what another process saved meanwhile, so
//! concurrent runs only ever raise what is kept.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use crate::store::hash::sha256_hex;

/// The most bytes the file of one index may have: records of 100,000
/// versions. A larger file is not ours and is read as empty.
const MAX_BYTES: u64 = 8 * 1024 * 1024;

/// What was accepted from one index.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct Seen {
    /// The index's label (its URL as projects name it), for people.
    #[serde(default)]
    pub index: String,
    /// The identity its `config.json` first named, or its first bound
    /// record or policy did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<String>,
    /// The highest policy serial accepted.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub policy: u64,
    /// The highest channel-record sequence accepted, by `org/name@version`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub records: BTreeMap<String, u64>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Seen {
    /// Folds `other` in: the higher of each number, an identity kept
    /// once set.
    fn merge(&mut self, other: &Seen) {
        if self.identity.is_none() {
            self.identity.clone_from(&other.identity);
        }
        self.policy = self.policy.max(other.policy);
        for (version, seq) in &other.records {
            let kept = self.records.entry(version.clone()).or_default();
            *kept = (*kept).max(*seq);
        }
    }
}

/// The memory of one index on this machine: read once, raised while a
/// command runs, saved at its end.
#[derive(Debug)]
pub(crate) struct Memory {
    path: Option<PathBuf>,
    seen: std::sync::Mutex<Seen>,
    loaded: Seen,
}

impl Memory {
    /// The memory of the index `label`, kept under `data`.
    pub(crate) fn open(data: &Path, label: &str) -> Memory {
        let path = data
            .join("index-seen")
            .join(format!("{}.json", &sha256_hex(label.as_bytes())[..32]));
        let mut seen = read(&path).unwrap_or_default();
        if seen.index.is_empty() {
            seen.index = label.to_string();
        }
        Memory {
            path: Some(path),
            seen: std::sync::Mutex::new(seen.clone()),
            loaded: seen,
        }
    }

    /// A memory that keeps nothing, for tests.
    #[cfg(test)]
    pub(crate) fn none() -> Memory {
        Memory {
            path: None,
            seen: Default::default(),
            loaded: Seen::default(),
        }
    }

    /// What is known now.
    pub(crate) fn get(&self) -> Seen {
        self.lock().clone()
    }

    /// Changes what is known.
    pub(crate) fn update(&self, change: impl FnOnce(&mut Seen)) {
        change(&mut self.lock());
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Saves what was raised since it was read, merged with what other
    /// processes saved meanwhile. Nothing is written when nothing rose.
    pub(crate) fn save(&self) -> anyhow::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let now = self.get();
        if now == self.loaded {
            return Ok(());
        }
        let lock_path = path.with_extension("lock");
        let _lock = crate::fsutil::lock_exclusive(&lock_path)
            .with_context(|| format!("could not lock {}", lock_path.display()))?;
        let mut merged = read(path).unwrap_or_default();
        merged.merge(&now);
        if merged.index.is_empty() {
            merged.index = now.index.clone();
        }
        let bytes = serde_json::to_vec_pretty(&merged)?;
        crate::fsutil::write_atomically(path, &bytes)
            .with_context(|| format!("could not write {}", path.display()))
    }
}

/// The file at `path`; `None` when it is missing, too large or not ours
/// (then what it held is forgotten, which weakens, not breaks, the check).
fn read(path: &Path) -> Option<Seen> {
    let metadata = std::fs::symlink_metadata(path).ok()?;
    if !metadata.is_file() || metadata.len() > MAX_BYTES {
        return None;
    }
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saving_only_raises_what_another_process_kept() {
        let dir = tempfile::tempdir().unwrap();
        let first = Memory::open(dir.path(), "https://skills.example/");
        let second = Memory::open(dir.path(), "https://skills.example/");
        first.update(|seen| {
            seen.policy = 3;
            seen.records.insert("corp/x@1.0.0".into(), 5);
        });
        second.update(|seen| {
            seen.policy = 2;
            seen.records.insert("corp/x@1.0.0".into(), 4);
            seen.records.insert("corp/y@1.0.0".into(), 1);
            seen.identity = Some("https://skills.example/".into());
        });
        first.save().unwrap();
        second.save().unwrap();
        let kept = Memory::open(dir.path(), "https://skills.example/").get();
        assert_eq!(kept.policy, 3);
        assert_eq!(kept.records["corp/x@1.0.0"], 5);
        assert_eq!(kept.records["corp/y@1.0.0"], 1);
        assert_eq!(kept.identity.as_deref(), Some("https://skills.example/"));
        // Another index keeps its own.
        assert_eq!(
            Memory::open(dir.path(), "https://other.example/")
                .get()
                .policy,
            0
        );
    }
}
