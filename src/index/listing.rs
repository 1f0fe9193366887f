//! The search listing: `search.jsonl` at the index root, so that
//! `search` reads one file (one conditional request on HTTP) instead of
//! every entry file. It is a log of JSON lines, one per version that
//! `publish` or `yank` touched (`name`, `vers`, `desc`, and `yanked` when
//! set), appended to, and folded by its readers: for each package and
//! version the last line counts, and the package shows its highest
//! version whose line is not yanked. Compaction rewrites it as one line
//! per package, sorted by name, which is also the form earlier builds of
//! skillpkg wrote, so every listing either writes is read the same way.
//! `docs/index-format.md` describes the format.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::IndexEntry;

/// The listing's file name, at the index root.
pub const LISTING_FILE: &str = "search.jsonl";

/// Below this size a listing is never compacted: folding it costs less
/// than a publish.
pub(crate) const MIN_COMPACTION_BYTES: u64 = 64 * 1024;

/// One package as search shows it: a compacted line of the listing.
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

/// One line of the listing as it is read and appended: a version of a
/// package, yanked or not. The first line of a compacted listing also
/// says how large compaction left the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Line {
    name: String,
    vers: String,
    #[serde(default)]
    desc: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    yanked: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    compacted: Option<u64>,
}

/// Whether search shows `entry`: not yanked, and released (published,
/// or deprecated) as far as its entry claims. A draft or testing version
/// is written to the listing as hidden, the way a yanked one is, so
/// every reader leaves it out.
fn listed(entry: &IndexEntry) -> bool {
    !entry.yanked
        && entry
            .channel
            .is_none_or(|claimed| super::channel::Channel::Published.admits(claimed))
}

impl Line {
    fn of(entry: &IndexEntry) -> Line {
        Line {
            name: entry.name.clone(),
            vers: entry.vers.clone(),
            desc: entry.desc.clone(),
            yanked: !listed(entry),
            compacted: None,
        }
    }

    fn to_text(&self) -> String {
        json_line(self)
    }
}

/// The listing line of a package with `entries`: its newest version that
/// is not yanked and is released (by semver; lines whose version does
/// not parse are skipped), or `None` when there is none.
pub(crate) fn listing_entry(entries: &[IndexEntry]) -> Option<ListingEntry> {
    entries
        .iter()
        .filter(|e| listed(e))
        .filter_map(|e| Some((semver::Version::parse(&e.vers).ok()?, e)))
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(version, entry)| ListingEntry {
            name: entry.name.clone(),
            vers: version.to_string(),
            desc: entry.desc.clone(),
        })
}

/// The lines `publish` appends for the new version `entry`: its line.
/// Readers show it when it is the package's highest version, whatever
/// was published before.
pub(crate) fn published_lines(entry: &IndexEntry) -> String {
    Line::of(entry).to_text()
}

/// The lines `yank` (or `promote`) appends when it changed `changed`, among
/// the package's versions `entries` as they are now: `changed`'s line,
/// then the line of the version the package shows, when that is another
/// one, so that a reader that keeps the last line of each package (as
/// earlier builds of skillpkg do) shows it too.
pub(crate) fn yanked_lines(changed: &IndexEntry, entries: &[IndexEntry]) -> String {
    let mut text = Line::of(changed).to_text();
    if let Some(shown) = entries
        .iter()
        .filter(|e| listed(e))
        .filter_map(|e| Some((semver::Version::parse(&e.vers).ok()?, e)))
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, e)| e)
        .filter(|e| e.vers != changed.vers)
    {
        text.push_str(&Line::of(shown).to_text());
    }
    text
}

/// How large compaction left the listing whose text starts with `head`:
/// the `compacted` field of its first line, `None` when it has none (a
/// listing written by an earlier build, or edited) or `head` does not
/// start with a whole line. Only the first line is read.
pub(crate) fn compacted_size(head: impl std::io::Read) -> Option<u64> {
    let mut lines = serde_json::Deserializer::from_reader(head).into_iter::<Line>();
    lines.next()?.ok()?.compacted
}

/// Whether a listing of `size` bytes, `compacted` bytes when it was last
/// compacted (see [`compacted_size`]), is due for compaction: when what
/// was appended since passes half of that, and [`MIN_COMPACTION_BYTES`].
/// Each publish appends one line, so a listing of `P` packages is
/// compacted once every `P / 2` publishes or more, and the work of
/// compaction, spread over them, is constant per publish.
pub(crate) fn needs_compaction(size: u64, compacted: Option<u64>) -> bool {
    let compacted = compacted.unwrap_or(0);
    size.saturating_sub(compacted) > (compacted / 2).max(MIN_COMPACTION_BYTES)
}

/// The package lines of a listing, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    packages: BTreeMap<String, ListingEntry>,
}

impl Listing {
    /// Parses and folds a listing read from `origin` (named in errors):
    /// for each package and version the last line counts, and a package
    /// is its highest version (by semver, then the version's text) whose
    /// line is not yanked; a package with none is left out. Blank lines
    /// are ignored; a bad line is an error naming the file and line.
    pub fn parse(text: &str, origin: &str) -> anyhow::Result<Listing> {
        let mut versions: BTreeMap<(String, String), (String, bool)> = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let line: Line = serde_json::from_str(line).map_err(|e| {
                anyhow::anyhow!("{origin}:{}: invalid search listing line: {e}", i + 1)
            })?;
            versions.insert((line.name, line.vers), (line.desc, line.yanked));
        }
        // The keys are sorted by name, so each package's versions come
        // together; keep the highest that is not yanked.
        let mut packages: BTreeMap<String, ListingEntry> = BTreeMap::new();
        let mut best: Option<(Option<semver::Version>, ListingEntry)> = None;
        for ((name, vers), (desc, yanked)) in versions {
            if best.as_ref().is_some_and(|(_, entry)| entry.name != name) {
                let (_, entry) = best.take().expect("checked");
                packages.insert(entry.name.clone(), entry);
            }
            if yanked {
                continue;
            }
            let version = semver::Version::parse(&vers).ok();
            if best
                .as_ref()
                .is_some_and(|(v, entry)| (v, &entry.vers) >= (&version, &vers))
            {
                continue;
            }
            best = Some((version, ListingEntry { name, vers, desc }));
        }
        if let Some((_, entry)) = best {
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
        self.packages.values().map(json_line).collect()
    }

    /// [`Listing::to_text`] with the file's size in the `compacted` field
    /// of its first line, for [`needs_compaction`].
    pub(crate) fn to_compacted_text(&self) -> String {
        let mut packages = self.packages.values();
        let Some(first) = packages.next() else {
            return String::new();
        };
        let rest: String = packages.map(json_line).collect();
        let mut head = Line {
            name: first.name.clone(),
            vers: first.vers.clone(),
            desc: first.desc.clone(),
            yanked: false,
            compacted: Some(0),
        };
        // The size counts its own digits: a few rounds settle it.
        for _ in 0..4 {
            let size = (head.to_text().len() + rest.len()) as u64;
            if head.compacted == Some(size) {
                break;
            }
            head.compacted = Some(size);
        }
        head.to_text() + &rest
    }
}

/// `line` as a line of the file: JSON, ending in a newline.
fn json_line(line: &impl Serialize) -> String {
    let mut text = serde_json::to_string(line).expect("listing lines serialise");
    text.push('\n');
    text
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
            ..Default::default()
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

    /// The fold of `text`, as `name vers desc` strings.
    fn folded(text: &str) -> Vec<String> {
        Listing::parse(text, "search.jsonl")
            .unwrap()
            .entries()
            .map(|e| format!("{} {} {}", e.name, e.vers, e.desc))
            .collect()
    }

    #[test]
    fn duplicate_lines_fold_to_the_highest_version_not_yanked() {
        let text = concat!(
            "{\"name\":\"b/y\",\"vers\":\"1.0.0\",\"desc\":\"B1\"}\n",
            "{\"name\":\"a/x\",\"vers\":\"1.0.0\",\"desc\":\"A1\"}\n",
            "{\"name\":\"a/x\",\"vers\":\"2.0.0\",\"desc\":\"A2\"}\n",
            // A backport published later does not hide 2.0.0.
            "{\"name\":\"a/x\",\"vers\":\"1.0.1\",\"desc\":\"A1.0.1\"}\n",
            "{\"name\":\"b/y\",\"vers\":\"1.1.0\",\"desc\":\"B1.1\"}\n",
            // 1.10.0 is above 1.9.0 by semver, not by text.
            "{\"name\":\"c/z\",\"vers\":\"1.10.0\",\"desc\":\"C10\"}\n",
            "{\"name\":\"c/z\",\"vers\":\"1.9.0\",\"desc\":\"C9\"}\n",
        );
        assert_eq!(
            folded(text),
            ["a/x 2.0.0 A2", "b/y 1.1.0 B1.1", "c/z 1.10.0 C10"]
        );
        // The last line of a version counts: yanked, then un-yanked.
        let yanked = format!(
            "{text}{}",
            "{\"name\":\"a/x\",\"vers\":\"2.0.0\",\"yanked\":true}\n"
        );
        assert_eq!(folded(&yanked)[0], "a/x 1.0.1 A1.0.1");
        let back = format!(
            "{yanked}{}",
            "{\"name\":\"a/x\",\"vers\":\"2.0.0\",\"desc\":\"A2\"}\n"
        );
        assert_eq!(folded(&back)[0], "a/x 2.0.0 A2");
        // A package whose every version is yanked is not shown.
        let gone = "{\"name\":\"a/x\",\"vers\":\"1.0.0\",\"desc\":\"A\"}\n{\"name\":\"a/x\",\"vers\":\"1.0.0\",\"yanked\":true}\n";
        assert!(folded(gone).is_empty());
    }

    #[test]
    fn a_listing_in_the_old_form_reads_as_before() {
        // One line per package, sorted, no `compacted`: what skillpkg
        // wrote before listings were appended to.
        let text = "{\"name\":\"a/x\",\"vers\":\"2.0.0\",\"desc\":\"A\"}\n{\"name\":\"b/y\",\"vers\":\"0.1.0-beta.1\",\"desc\":\"B\"}\n";
        assert_eq!(folded(text), ["a/x 2.0.0 A", "b/y 0.1.0-beta.1 B"]);
        assert_eq!(Listing::parse(text, "x").unwrap().to_text(), text);
        assert_eq!(compacted_size(text.as_bytes()), None);
    }

    #[test]
    fn appended_lines_fold_to_what_the_entries_say() {
        let mut entries = vec![entry("1.0.0", false), entry("2.0.0", false)];
        let mut text: String = entries.iter().map(published_lines).collect();
        assert_eq!(folded(&text), ["acme/x 2.0.0 version 2.0.0"]);
        // Yanking the shown version appends its line and the one shown now,
        // last: a reader keeping each package's last line agrees.
        entries[1].yanked = true;
        let lines = yanked_lines(&entries[1], &entries);
        assert_eq!(
            lines,
            "{\"name\":\"acme/x\",\"vers\":\"2.0.0\",\"desc\":\"version 2.0.0\",\"yanked\":true}\n{\"name\":\"acme/x\",\"vers\":\"1.0.0\",\"desc\":\"version 1.0.0\"}\n"
        );
        text.push_str(&lines);
        assert_eq!(folded(&text), ["acme/x 1.0.0 version 1.0.0"]);
        entries[0].yanked = true;
        text.push_str(&yanked_lines(&entries[0], &entries));
        assert!(folded(&text).is_empty());
        entries[1].yanked = false;
        text.push_str(&yanked_lines(&entries[1], &entries));
        assert_eq!(folded(&text), ["acme/x 2.0.0 version 2.0.0"]);
    }

    #[test]
    fn a_compacted_listing_records_its_size_on_its_first_line() {
        let mut text: String = (0..50)
            .map(|i| {
                let mut e = entry(&format!("1.0.{i}"), false);
                e.name = format!("acme/p{}", i % 20);
                published_lines(&e)
            })
            .collect();
        let listing = Listing::parse(&text, "x").unwrap();
        let compacted = listing.to_compacted_text();
        assert_eq!(
            compacted_size(compacted.as_bytes()),
            Some(compacted.len() as u64)
        );
        assert_eq!(Listing::parse(&compacted, "x").unwrap(), listing);
        assert_eq!(listing.entries().count(), 20);
        // Appended lines leave the first line as it is.
        text = compacted.clone() + &published_lines(&entry("9.0.0", false));
        assert_eq!(
            compacted_size(text.as_bytes()),
            Some(compacted.len() as u64)
        );
        assert_eq!(Listing::default().to_compacted_text(), "");
    }

    #[test]
    fn compaction_is_due_when_the_appended_half_passes_the_compacted_size() {
        let mb = 1024 * 1024;
        assert!(!needs_compaction(MIN_COMPACTION_BYTES, None));
        assert!(needs_compaction(MIN_COMPACTION_BYTES + 1, None));
        assert!(!needs_compaction(30 * mb, Some(20 * mb)));
        assert!(needs_compaction(30 * mb + 1, Some(20 * mb)));
        assert!(!needs_compaction(10_000, Some(20_000)));
        assert!(!needs_compaction(
            20_000 + MIN_COMPACTION_BYTES,
            Some(20_000)
        ));
    }
}
