//! A cache of parsed frontmatter, so that a warm start reads no SKILL.md:
//! discovery of a large root spends most of its time parsing YAML.
//!
//! It lives in skillpkg's cache directory, never in a project (where a
//! cloned repository could plant one). Each entry is keyed by the path of
//! its SKILL.md and by what `stat` says of the file: device, inode, size,
//! and modification and change times to the nanosecond. Writing a file
//! moves its change time, which no program can set back, so an edit is
//! seen even when it keeps the size and restores the modification time. A
//! file changed within the last two seconds is not cached at all: a second
//! change within the same tick of the file system's clock could leave every
//! field of the key as it was. Only the parsed YAML is cached; everything
//! the loader derives from it (warnings, the world-writable check) is
//! worked out again on every load.
//!
//! The cache is a text file: a header line, then one line per SKILL.md
//! with its path, its key and its frontmatter as compact JSON, separated
//! by tabs, sorted by path. Reading it only splits lines into an index
//! sorted by path (no allocation per entry), looked up by binary search;
//! each frontmatter is parsed by the loading thread that needs it. It is written whole to a temporary
//! file and renamed into place. One that cannot be read or parsed, has
//! another header, belongs to another user or is writable by others is
//! ignored, and rebuilt; an entry whose JSON does not parse is a miss.

use super::stat::FileStat;
use std::io::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};

/// The cache file's name in the cache directory.
pub const FILE_NAME: &str = "frontmatter-v1.txt";
/// The first line of the file; another one is ignored.
const HEADER: &str = "skillpkg frontmatter cache 1\n";
/// Entries kept at most (about 330 bytes each, so some 160 MB at most):
/// more skills than any root set measured holds. Past this, the entries
/// this run parsed or found are kept first, then the others, so the cache
/// degrades by what does not fit, never all at once.
const MAX_ENTRIES: usize = 500_000;
/// How old a file's last change must be for it to be cached.
const SETTLE: Duration = Duration::from_secs(2);

/// What `stat` says of a SKILL.md, as far as the cache is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Key {
    #[cfg(unix)]
    fn of(stat: &FileStat) -> Option<Key> {
        Some(Key {
            dev: stat.dev,
            ino: stat.ino,
            size: stat.size,
            mtime: stat.mtime,
            ctime: stat.ctime,
        })
    }

    #[cfg(not(unix))]
    fn of(_: &FileStat) -> Option<Key> {
        None
    }

    /// Whether the file was last changed before `time`.
    fn changed_before(&self, time: SystemTime) -> bool {
        let Ok(since_epoch) = time.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let limit = (
            since_epoch.as_secs() as i64,
            since_epoch.subsec_nanos() as i64,
        );
        self.ctime < limit && self.mtime < limit
    }

    fn fields(&self) -> [i64; 7] {
        [
            self.dev as i64,
            self.ino as i64,
            self.size as i64,
            self.mtime.0,
            self.mtime.1,
            self.ctime.0,
            self.ctime.1,
        ]
    }

    fn from_fields(fields: [i64; 7]) -> Key {
        Key {
            dev: fields[0] as u64,
            ino: fields[1] as u64,
            size: fields[2] as u64,
            mtime: (fields[3], fields[4]),
            ctime: (fields[5], fields[6]),
        }
    }
}

/// One line of the file: `path`, the key and the frontmatter's JSON.
fn line(path: &str, key: &Key, json: &str) -> String {
    let mut line = path.to_string();
    for field in key.fields() {
        line.push('\t');
        line.push_str(&field.to_string());
    }
    line.push('\t');
    line.push_str(json);
    line.push('\n');
    line
}

/// One line of the file, by where its parts are in the text.
#[derive(Debug, Clone)]
struct Entry {
    /// The SKILL.md's path.
    path: Range<usize>,
    key: Key,
    /// The frontmatter's JSON.
    json: Range<usize>,
}

/// The entries of the file's `text`, sorted by path; `None` when any line
/// is malformed.
fn parse(text: &str) -> Option<Vec<Entry>> {
    let body = text.strip_prefix(HEADER)?;
    let lines = body.bytes().filter(|&b| b == b'\n').count();
    let mut entries = Vec::with_capacity(lines);
    let mut offset = HEADER.len();
    let mut sorted = true;
    for line in body.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let line = line.strip_suffix('\n')?;
        let mut parts = line.splitn(9, '\t');
        let path = parts.next()?;
        let mut fields = [0i64; 7];
        for field in &mut fields {
            *field = parts.next()?.parse().ok()?;
        }
        let json = parts.next()?;
        let json_start = start + line.len() - json.len();
        let entry = Entry {
            path: start..start + path.len(),
            key: Key::from_fields(fields),
            json: json_start..json_start + json.len(),
        };
        if let Some(previous) = entries.last() {
            let previous: &Entry = previous;
            sorted &= text[previous.path.clone()] < *path;
        }
        entries.push(entry);
    }
    // A file this version wrote is sorted; another is sorted here.
    if !sorted {
        entries.sort_by(|a, b| text[a.path.clone()].cmp(&text[b.path.clone()]));
    }
    Some(entries)
}

/// The frontmatter cache of one discovery: read once, looked up from the
/// loading threads, written back once when it learnt something.
#[derive(Debug)]
pub(crate) struct FrontmatterCache {
    path: PathBuf,
    text: String,
    old: Vec<Entry>,
    /// Which of `old` this run found (by index).
    seen: Vec<std::sync::atomic::AtomicBool>,
    /// Entries kept at most ([`MAX_ENTRIES`], smaller in tests).
    max_entries: usize,
    new: Mutex<Vec<(String, String)>>,
    /// Files changed after this are not cached.
    settled_before: SystemTime,
}

impl FrontmatterCache {
    /// The cache in `dir`; empty when there is none or it cannot be used.
    pub(crate) fn open(dir: &Path) -> FrontmatterCache {
        FrontmatterCache::open_settled(dir, SystemTime::now() - SETTLE)
    }

    /// The cache in `dir`, taking in only files last changed before
    /// `settled_before`.
    pub(crate) fn open_settled(dir: &Path, settled_before: SystemTime) -> FrontmatterCache {
        let path = dir.join(FILE_NAME);
        let text = read(&path).unwrap_or_default();
        let (text, old) = match parse(&text) {
            Some(old) => (text, old),
            None => (String::new(), Vec::new()),
        };
        let seen = old.iter().map(|_| Default::default()).collect();
        FrontmatterCache {
            path,
            text,
            old,
            seen,
            max_entries: MAX_ENTRIES,
            new: Mutex::new(Vec::new()),
            settled_before,
        }
    }

    /// The cached frontmatter of `skill_md`, when the file is still the
    /// one that was parsed (`metadata`: its `stat`, symlinks followed).
    pub(crate) fn get(&self, skill_md: &Path, metadata: &FileStat) -> Option<Map<String, Value>> {
        let at = self.find(skill_md.to_str()?)?;
        let entry = &self.old[at];
        if Some(entry.key) != Key::of(metadata) {
            return None;
        }
        let parsed = serde_json::from_str(&self.text[entry.json.clone()]).ok();
        if parsed.is_some() {
            self.seen[at].store(true, std::sync::atomic::Ordering::Relaxed);
        }
        parsed
    }

    /// The index in `old` of the entry for `path`, by binary search.
    fn find(&self, path: &str) -> Option<usize> {
        self.old
            .binary_search_by(|entry| self.text[entry.path.clone()].cmp(path))
            .ok()
    }

    /// Remembers the `frontmatter` parsed from `skill_md`, whose open file
    /// `metadata` describes.
    pub(crate) fn put(
        &self,
        skill_md: &Path,
        metadata: &FileStat,
        frontmatter: &Map<String, Value>,
    ) {
        let (Some(path), Some(key)) = (skill_md.to_str(), Key::of(metadata)) else {
            return;
        };
        if path.contains(['\t', '\n']) || !key.changed_before(self.settled_before) {
            return;
        }
        let Ok(json) = serde_json::to_string(frontmatter) else {
            return;
        };
        let line = line(path, &key, &json);
        let mut new = self.new.lock().unwrap_or_else(|e| e.into_inner());
        new.push((path.to_string(), line));
    }

    /// Writes the cache back if this discovery parsed anything it can keep.
    pub(crate) fn save(self) -> std::io::Result<()> {
        let new = self.new.into_inner().unwrap_or_else(|e| e.into_inner());
        if new.is_empty() {
            return Ok(());
        }
        let dir = self.path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        let mut temp = tempfile::NamedTempFile::new_in(dir)?;
        let mut out = std::io::BufWriter::new(temp.as_file_mut());
        out.write_all(HEADER.as_bytes())?;
        // This run's entries first, then the old ones it found, then the
        // others, up to the maximum; a path's first entry wins.
        let fresh: std::collections::HashSet<&str> = new.iter().map(|(p, _)| p.as_str()).collect();
        let mut lines: Vec<(&str, String)> = new
            .iter()
            .map(|(path, line)| (path.as_str(), line.clone()))
            .collect();
        let found = |at: &usize| self.seen[*at].load(std::sync::atomic::Ordering::Relaxed);
        let (seen, unseen): (Vec<usize>, Vec<usize>) = (0..self.old.len()).partition(found);
        for at in seen.into_iter().chain(unseen) {
            if lines.len() >= self.max_entries {
                break;
            }
            let entry = &self.old[at];
            let path = &self.text[entry.path.clone()];
            if !fresh.contains(path) {
                lines.push((path, line(path, &entry.key, &self.text[entry.json.clone()])));
            }
        }
        lines.truncate(self.max_entries);
        lines.sort_by(|a, b| a.0.cmp(b.0));
        lines.dedup_by(|later, earlier| later.0 == earlier.0);
        for (_, line) in &lines {
            out.write_all(line.as_bytes())?;
        }
        out.flush()?;
        drop(out);
        temp.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }
}

/// The text of the cache file at `path`, if it is there, is this user's
/// and is not writable by others.
fn read(path: &Path) -> Option<String> {
    use std::io::Read as _;
    let mut file = std::fs::File::open(path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let metadata = file.metadata().ok()?;
        let me = rustix::process::geteuid().as_raw();
        if metadata.uid() != me || metadata.mode() & 0o022 != 0 {
            return None;
        }
    }
    let mut text = String::new();
    file.read_to_string(&mut text).ok()?;
    Some(text)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::skill::document::read_frontmatter;
    use crate::skill::yaml::parse_yaml;

    fn write_skill(root: &Path, description: &str) -> PathBuf {
        let dir = root.join("a-skill");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: a-skill\ndescription: {description}\n---\nBody.\n"),
        )
        .unwrap();
        dir
    }

    /// The description of the skill in `dir` as discovery through the
    /// cache in `cache_dir` gets it, taking in files however recent: from
    /// the cache, or parsed and then cached.
    fn load(dir: &Path, cache_dir: &Path) -> String {
        let cache = FrontmatterCache::open_settled(cache_dir, SystemTime::now() + SETTLE);
        let skill_md = dir.join("SKILL.md");
        let metadata = FileStat::of_path(&skill_md).unwrap();
        let fields = match cache.get(&skill_md, &metadata) {
            Some(fields) => fields,
            None => {
                let yaml = read_frontmatter(&skill_md).unwrap().yaml;
                let Value::Object(fields) = parse_yaml(&yaml).unwrap() else {
                    panic!("{yaml}")
                };
                cache.put(&skill_md, &metadata, &fields);
                fields
            }
        };
        cache.save().unwrap();
        fields["description"].as_str().unwrap().to_string()
    }

    /// The keys in the cache file, by path.
    fn entries(cache_dir: &Path) -> std::collections::HashMap<String, Key> {
        let text = read(&cache_dir.join(FILE_NAME)).unwrap();
        parse(&text)
            .unwrap()
            .into_iter()
            .map(|entry| (text[entry.path].to_string(), entry.key))
            .collect()
    }

    #[test]
    fn an_edit_that_keeps_the_size_and_the_modification_time_is_seen() {
        let temp = tempfile::tempdir().unwrap();
        let cache_dir = temp.path().join("cache");
        let dir = write_skill(temp.path(), "First text. Use when testing.");
        assert_eq!(load(&dir, &cache_dir), "First text. Use when testing.");
        assert_eq!(entries(&cache_dir).len(), 1);

        // A new tick of the clock, then the same number of bytes written
        // and the modification time put back.
        std::thread::sleep(Duration::from_millis(1100));
        let skill_md = dir.join("SKILL.md");
        let before = std::fs::metadata(&skill_md).unwrap();
        std::fs::write(
            &skill_md,
            "---\nname: a-skill\ndescription: Other text. Use when testing.\n---\nBody.\n",
        )
        .unwrap();
        std::fs::File::options()
            .write(true)
            .open(&skill_md)
            .unwrap()
            .set_modified(before.modified().unwrap())
            .unwrap();
        let after = std::fs::metadata(&skill_md).unwrap();
        assert_eq!(after.len(), before.len());
        assert_eq!(after.modified().unwrap(), before.modified().unwrap());
        assert_eq!(load(&dir, &cache_dir), "Other text. Use when testing.");
    }

    #[test]
    fn an_entry_is_served_only_for_the_file_it_was_made_from() {
        let temp = tempfile::tempdir().unwrap();
        let cache_dir = temp.path().join("cache");
        let dir = write_skill(temp.path(), "On disk. Use when testing.");
        load(&dir, &cache_dir);
        let path = dir.join("SKILL.md").to_str().unwrap().to_string();

        // An entry for this very file is what the loader uses...
        let plant = |key: Key| {
            let mut fields = Map::new();
            fields.insert("description".into(), "Planted. Use when testing.".into());
            let json = serde_json::to_string(&fields).unwrap();
            let text = format!("{HEADER}{}", line(&path, &key, &json));
            std::fs::write(cache_dir.join(FILE_NAME), text).unwrap();
        };
        let key = entries(&cache_dir)[&path];
        plant(key);
        assert_eq!(load(&dir, &cache_dir), "Planted. Use when testing.");
        // ...one for another file at the same path (another inode, size,
        // time) is not.
        for other in [
            Key {
                ino: key.ino + 1,
                ..key
            },
            Key {
                size: key.size + 1,
                ..key
            },
            Key {
                mtime: (key.mtime.0, key.mtime.1 + 1),
                ..key
            },
            Key {
                ctime: (key.ctime.0 - 1, key.ctime.1),
                ..key
            },
        ] {
            plant(other);
            assert_eq!(load(&dir, &cache_dir), "On disk. Use when testing.");
            assert_eq!(entries(&cache_dir)[&path], key, "the entry is replaced");
        }
    }

    #[test]
    fn entries_are_found_in_a_file_in_any_order_and_written_back_sorted() {
        let temp = tempfile::tempdir().unwrap();
        let cache_dir = temp.path().join("cache");
        std::fs::create_dir_all(&cache_dir).unwrap();
        let names = ["m-skill", "a-skill", "z-skill", "b-skill"];
        let files: Vec<(PathBuf, FileStat)> = names
            .iter()
            .map(|name| {
                let dir = temp.path().join(name);
                std::fs::create_dir_all(&dir).unwrap();
                let skill_md = dir.join("SKILL.md");
                std::fs::write(&skill_md, format!("---\nname: {name}\n---\n")).unwrap();
                let stat = FileStat::of_path(&skill_md).unwrap();
                (skill_md, stat)
            })
            .collect();
        // As an older version wrote it: in no particular order.
        let mut text = HEADER.to_string();
        for (skill_md, stat) in &files {
            let json = format!("{{\"description\":\"{}\"}}", skill_md.display());
            text.push_str(&line(
                skill_md.to_str().unwrap(),
                &Key::of(stat).unwrap(),
                &json,
            ));
        }
        std::fs::write(cache_dir.join(FILE_NAME), &text).unwrap();
        let cache = FrontmatterCache::open_settled(&cache_dir, SystemTime::now() + SETTLE);
        for (skill_md, stat) in &files {
            let fields = cache.get(skill_md, stat).unwrap();
            assert_eq!(fields["description"], skill_md.display().to_string());
        }
        assert!(
            cache
                .get(&temp.path().join("c-skill/SKILL.md"), &files[0].1)
                .is_none()
        );
        // A new entry makes it write the file back: sorted, each path once.
        let extra = temp.path().join("c-skill");
        std::fs::create_dir_all(&extra).unwrap();
        std::fs::write(extra.join("SKILL.md"), "---\nname: c-skill\n---\n").unwrap();
        let stat = FileStat::of_path(&extra.join("SKILL.md")).unwrap();
        cache.put(&extra.join("SKILL.md"), &stat, &Map::new());
        cache.put(&files[0].0, &files[0].1, &Map::new());
        cache.save().unwrap();
        let written = read(&cache_dir.join(FILE_NAME)).unwrap();
        let paths: Vec<&str> = written
            .lines()
            .skip(1)
            .map(|line| line.split('\t').next().unwrap())
            .collect();
        let mut sorted = paths.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(paths, sorted);
        assert_eq!(paths.len(), 5);
        // This run's entry replaced the old one.
        let cache = FrontmatterCache::open_settled(&cache_dir, SystemTime::now() + SETTLE);
        assert_eq!(cache.get(&files[0].0, &files[0].1), Some(Map::new()));
    }

    #[test]
    fn a_corrupt_or_foreign_cache_is_ignored_and_rebuilt() {
        use std::os::unix::fs::PermissionsExt;
        let temp = tempfile::tempdir().unwrap();
        let cache_dir = temp.path().join("cache");
        std::fs::create_dir_all(&cache_dir).unwrap();
        let dir = write_skill(temp.path(), "On disk. Use when testing.");
        let file = cache_dir.join(FILE_NAME);
        for garbage in [
            &b"\x00\xff not json"[..],
            b"skillpkg frontmatter cache 1\nno tabs\n",
            b"skillpkg frontmatter cache 1\n/a\t1\t2\t3\t4\t5\t6\tx\t{}\n",
            b"skillpkg frontmatter cache 2\n",
            b"",
        ] {
            std::fs::write(&file, garbage).unwrap();
            assert_eq!(load(&dir, &cache_dir), "On disk. Use when testing.");
            assert_eq!(entries(&cache_dir).len(), 1, "rebuilt");
        }
        // A cache that others may write is not read.
        load(&dir, &cache_dir);
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
        assert!(read(&file).is_none());
        // A file changed too recently is not taken in.
        std::fs::remove_file(&file).unwrap();
        let cache = FrontmatterCache::open(&cache_dir);
        let skill_md = dir.join("SKILL.md");
        let metadata = FileStat::of_path(&skill_md).unwrap();
        cache.put(&skill_md, &metadata, &Map::new());
        cache.save().unwrap();
        assert!(!file.exists());
    }
}

#[cfg(all(test, unix))]
mod past_the_maximum {
    use super::*;

    /// Loads every skill in `dirs` through the cache in `cache_dir`
    /// holding at most `max` entries; returns how many came from it.
    fn hits(dirs: &[PathBuf], cache_dir: &Path, max: usize) -> usize {
        let mut cache = FrontmatterCache::open_settled(cache_dir, SystemTime::now() + SETTLE);
        cache.max_entries = max;
        let mut hits = 0;
        for dir in dirs {
            let skill_md = dir.join("SKILL.md");
            let metadata = FileStat::of_path(&skill_md).unwrap();
            match cache.get(&skill_md, &metadata) {
                Some(_) => hits += 1,
                None => {
                    let mut fields = Map::new();
                    fields.insert("name".into(), Value::String("x".into()));
                    cache.put(&skill_md, &metadata, &fields);
                }
            }
        }
        cache.save().unwrap();
        hits
    }

    /// `count` skill folders in `root`.
    fn skills(root: &Path, count: usize) -> Vec<PathBuf> {
        (0..count)
            .map(|i| {
                let dir = root.join(format!("skill-{i}"));
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(dir.join("SKILL.md"), "---\nname: x\n---\n").unwrap();
                dir
            })
            .collect()
    }

    #[test]
    fn the_cache_keeps_serving_what_fits_when_the_skills_outnumber_it() {
        let temp = tempfile::tempdir().unwrap();
        let dirs = skills(temp.path(), 5);
        let cache_dir = temp.path().join("cache");
        assert_eq!(hits(&dirs, &cache_dir, 3), 0);
        // Every later run finds as many as the cache holds, never none.
        for _ in 0..4 {
            assert_eq!(hits(&dirs, &cache_dir, 3), 3);
        }
        // Fewer skills than the maximum: all of them are found again.
        assert_eq!(hits(&dirs[..2], &cache_dir, 3), 2);
        assert_eq!(hits(&dirs[..2], &cache_dir, 3), 2);
    }

    #[test]
    fn entries_this_run_found_outlive_those_it_did_not() {
        let temp = tempfile::tempdir().unwrap();
        let dirs = skills(temp.path(), 4);
        let cache_dir = temp.path().join("cache");
        hits(&dirs[..3], &cache_dir, 3);
        // Two of the three are used, and one new one parsed: the one not
        // seen is the one evicted.
        assert_eq!(
            hits(
                &[dirs[1].clone(), dirs[2].clone(), dirs[3].clone()],
                &cache_dir,
                3
            ),
            2
        );
        assert_eq!(hits(&dirs[1..], &cache_dir, 3), 3);
        assert_eq!(hits(&dirs[..1], &cache_dir, 3), 0);
    }
}
