//! The sample index built into the binary (the repository's
//! `registry-index/`), read straight from the binary: no copy of it on
//! disk is ever trusted, so a poisoned cache cannot change what the
//! default registry offers.

use anyhow::Context as _;

use super::{IndexConfig, IndexEntry, PackageName, parse_entries};
use crate::embedded::{EmbeddedFile, REGISTRY_INDEX};

/// The embedded index.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BuiltinIndex {
    files: &'static [EmbeddedFile],
}

impl Default for BuiltinIndex {
    fn default() -> BuiltinIndex {
        BuiltinIndex {
            files: REGISTRY_INDEX,
        }
    }
}

impl BuiltinIndex {
    /// The bytes of the file at `path` (relative, `/`-separated).
    fn file(&self, path: &str) -> Option<&'static [u8]> {
        self.files
            .iter()
            .find(|(relative, _, _)| *relative == path)
            .map(|(_, _, bytes)| *bytes)
    }

    /// Its `config.json`.
    pub(crate) fn config(&self) -> anyhow::Result<IndexConfig> {
        let bytes = self
            .file("config.json")
            .context("the built-in index has no config.json")?;
        IndexConfig::parse(bytes, "the built-in index's config.json")
    }

    /// Every version of `package` (empty if unknown).
    pub(crate) fn entries(&self, package: &PackageName) -> anyhow::Result<Vec<IndexEntry>> {
        let relative = package.entry_path();
        match self.file(&relative) {
            Some(bytes) => {
                let text = std::str::from_utf8(bytes)
                    .with_context(|| format!("the built-in index's {relative} is not UTF-8"))?;
                parse_entries(text, &relative)
            }
            None => Ok(Vec::new()),
        }
    }

    /// Every package it lists, sorted.
    pub(crate) fn packages(&self) -> Vec<PackageName> {
        let mut packages: Vec<PackageName> = self
            .files
            .iter()
            .filter_map(|(path, _, _)| path.strip_prefix("index/")?.parse().ok())
            .collect();
        packages.sort();
        packages
    }

    /// The archive of `package` at `version`, if it ships one.
    pub(crate) fn archive(&self, package: &PackageName, version: &str) -> Option<Vec<u8>> {
        self.file(&package.archive_path(version))
            .map(<[u8]>::to_vec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_index_is_read_from_the_binary() {
        let index = BuiltinIndex::default();
        assert!(index.config().unwrap().keys.contains_key("example"));
        let package: PackageName = "example/pdf-processing".parse().unwrap();
        assert!(index.packages().contains(&package));
        let entry = &index.entries(&package).unwrap()[0];
        let archive = index.archive(&package, &entry.vers).unwrap();
        assert_eq!(crate::store::hash::sha256_hex(&archive), entry.cksum);
    }
}
