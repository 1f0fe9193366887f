//! The search listing: `search.jsonl` at the index root, one JSON line per
//! package (`name`, newest non-yanked `vers`, `desc`), sorted by name, so
//! that `search` reads one file (one conditional request on HTTP) instead
//! of every entry file. `publish` and `yank` keep it current; a package
//! whose every version is yanked has no line. `docs/index-format.md`
//! describes the format.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::IndexEntry;

/// The listing's file name, at the index root.
pub const LISTING_FILE: &str = "search.jsonl";

/// One line of the listing: a package as search shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListingEntry {
    /// `org/name`.
    pub name: String,
    /// Its newest version that is not yanked.
    pub vers: String,
    /// That version's description.
    #[serde(default)]
    pub desc: String,
}

/// The listing line of a package with `entries`: its newest version that
/// is not yanked (by semver; lines whose version does not parse are
/// skipped), or `None` when there is none.
pub fn listing_entry(entries: &[IndexEntry]) -> Option<ListingEntry> {
    entries
        .iter()
        .filter(|e| !e.yanked)
        .filter_map(|e| Some((semver::Version::parse(&e.vers).ok()?, e)))
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(version, entry)| ListingEntry {
            name: entry.name.clone(),
            vers: version.to_string(),
            desc: entry.desc.clone(),
        })
}

/// The package lines of a listing, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    packages: BTreeMap<String, ListingEntry>,
}

impl Listing {
    /// Parses a listing read from `origin` (named in errors). Blank lines
    /// are ignored; a bad line is an error naming the file and line.
    pub fn parse(text: &str, origin: &str) -> anyhow::Result<Listing> {
        let mut packages = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let entry: ListingEntry = serde_json::from_str(line).map_err(|e| {
                anyhow::anyhow!("{origin}:{}: invalid search listing line: {e}", i + 1)
            })?;
            packages.insert(entry.name.clone(), entry);
        }
        Ok(Listing { packages })
    }

    /// Sets the line of `name`: `entry`, or none.
    pub fn set(&mut self, name: &str, entry: Option<ListingEntry>) {
        match entry {
            Some(entry) => self.packages.insert(name.to_string(), entry),
            None => self.packages.remove(name),
        };
    }

    /// The packages, sorted by name.
    pub fn entries(&self) -> impl Iterator<Item = &ListingEntry> {
        self.packages.values()
    }

    /// The file's text: one line per package, sorted, each ending in a
    /// newline.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for entry in self.packages.values() {
            text.push_str(&serde_json::to_string(entry).expect("listing lines serialise"));
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(vers: &str, yanked: bool) -> IndexEntry {
        IndexEntry {
            name: "acme/x".into(),
            vers: vers.into(),
            cksum: String::new(),
            deps: Vec::new(),
            desc: format!("version {vers}"),
            sig: String::new(),
            sigstore: None,
            yanked,
            size: 0,
            invalid: Vec::new(),
        }
    }

    #[test]
    fn the_newest_version_not_yanked_is_listed() {
        let entries = [
            entry("1.10.0", false),
            entry("1.9.0", false),
            entry("2.0.0", true),
        ];
        let line = listing_entry(&entries).unwrap();
        assert_eq!(line.vers, "1.10.0");
        assert_eq!(line.desc, "version 1.10.0");
        assert_eq!(listing_entry(&[entry("1.0.0", true)]), None);
    }

    #[test]
    fn listings_round_trip_sorted_by_name() {
        let text = "{\"name\":\"b/y\",\"vers\":\"1.0.0\",\"desc\":\"B\"}\n\n{\"name\":\"a/x\",\"vers\":\"2.0.0\",\"desc\":\"A\"}\n";
        let mut listing = Listing::parse(text, "search.jsonl").unwrap();
        assert_eq!(
            listing.to_text(),
            "{\"name\":\"a/x\",\"vers\":\"2.0.0\",\"desc\":\"A\"}\n{\"name\":\"b/y\",\"vers\":\"1.0.0\",\"desc\":\"B\"}\n"
        );
        listing.set("a/x", None);
        assert_eq!(listing.entries().count(), 1);
        let error = Listing::parse("{\"name\":1}\n", "search.jsonl").unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("search.jsonl:1: invalid search listing line"),
            "{error}"
        );
    }
}
