//! An index in a directory: a local folder, or the work tree of a git index.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use super::listing::{
    LISTING_FILE, Listing, compacted_size, listing_entry, needs_compaction, published_lines,
    yanked_lines,
};
use super::{DEFAULT_DL, IndexConfig, IndexEntry, PackageName, parse_entries};
use crate::fsutil::{append_lines, write_atomically};
use crate::hint::Hinted;

/// How `index init` names an index ([`IndexDir::name_as`]).
#[derive(Debug, Clone)]
pub enum Naming<'a> {
    /// As its org asked (`--identity`).
    Given(&'a str),
    /// As it was reached at `init`, when its org named none.
    Default(String),
}

/// An index rooted at a directory.
#[derive(Debug, Clone)]
pub struct IndexDir {
    root: PathBuf,
}

impl IndexDir {
    /// Creates the index layout in `root` if it is not there yet, and, when
    /// given, adds `key` to `org`'s signing keys. Running it again is safe.
    pub fn init(root: &Path, org_key: Option<(&str, &str)>) -> anyhow::Result<IndexDir> {
        let index = IndexDir {
            root: root.to_path_buf(),
        };
        let mut config = if index.config_path().exists() {
            index.config()?
        } else {
            IndexConfig::default()
        };
        if let Some((org, key)) = org_key {
            let keys = config.keys.entry(org.to_string()).or_default();
            if !keys.iter().any(|k| k == key) {
                keys.push(key.to_string());
            }
        }
        for dir in ["index", "packages"] {
            fs_err::create_dir_all(root.join(dir))?;
        }
        index.write_config(&config)?;
        index.compact_listing()?;
        Ok(index)
    }

    /// Gives the index its identity (`config.json`'s `identity`), unless
    /// it has one: an index keeps the identity it was first given, since
    /// the records and policies signed for it name it. Naming it anew
    /// otherwise is refused.
    pub(crate) fn name_as(&self, naming: &Naming<'_>) -> anyhow::Result<()> {
        let mut config = self.config()?;
        let identity = match (&config.identity, naming) {
            (Some(old), Naming::Given(new)) if old != new => bail!(
                Hinted::new(format!(
                    "the index {} is named {old} already, not {new}",
                    self.root.display()
                ))
                .hint("an index keeps its identity, which its channel records and policy are signed for: make a new index for a new name")
            ),
            (Some(_), _) => return Ok(()),
            (None, Naming::Given(identity)) => identity.to_string(),
            (None, Naming::Default(identity)) => identity.clone(),
        };
        super::check_identity(&identity).map_err(|why| anyhow::anyhow!("--identity: {why}"))?;
        config.identity = Some(identity);
        self.write_config(&config)
    }

    /// Opens an existing index.
    pub fn open(root: &Path) -> anyhow::Result<IndexDir> {
        let index = IndexDir {
            root: root.to_path_buf(),
        };
        if !root.exists() {
            bail!(
                Hinted::new(format!("the index {} does not exist", root.display()))
                    .hint("check the index path or URL")
            );
        }
        if !index.config_path().is_file() {
            bail!(
                Hinted::new(format!(
                    "{} is not a skill index: it has no config.json",
                    root.display()
                ))
                .hint(format!(
                    "create one with `skillpkg index init {}`",
                    crate::hint::shell_path(root)
                ))
            );
        }
        Ok(index)
    }

    /// The index's directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn config_path(&self) -> PathBuf {
        self.root.join("config.json")
    }

    fn listing_path(&self) -> PathBuf {
        self.root.join(LISTING_FILE)
    }

    /// The search listing, or `None` when the index has none (it was
    /// written by a skillpkg that did not keep one).
    pub fn listing(&self) -> anyhow::Result<Option<Listing>> {
        let path = self.listing_path();
        match fs_err::read_to_string(&path) {
            Ok(text) => Ok(Some(Listing::parse(&text, &path.display().to_string())?)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Writes the search listing afresh from every entry file.
    pub(crate) fn rebuild_listing(&self) -> anyhow::Result<()> {
        let mut listing = Listing::default();
        for package in self.packages()? {
            listing.set(
                &package.to_string(),
                listing_entry(&self.entries(&package)?),
            );
        }
        self.write_listing(&listing)
    }

    /// Compacts the search listing: one line per package, sorted (see
    /// [`Listing::to_compacted_text`]); built from every entry file when
    /// the index has none.
    pub(crate) fn compact_listing(&self) -> anyhow::Result<()> {
        match self.listing()? {
            Some(listing) => self.write_listing(&listing),
            None => self.rebuild_listing(),
        }
    }

    /// Appends `lines` to the search listing (writing the whole listing
    /// when the index has none yet), and compacts it when it is due.
    fn append_listing(&self, lines: &str) -> anyhow::Result<()> {
        let path = self.listing_path();
        if !path.is_file() {
            return self.rebuild_listing();
        }
        let size = append_lines(&path, lines.as_bytes())
            .with_context(|| format!("could not write {}", path.display()))?;
        let compacted = fs_err::File::open(&path)
            .ok()
            .and_then(|file| compacted_size(std::io::BufReader::new(file)));
        if needs_compaction(size, compacted) {
            self.compact_listing()?;
        }
        Ok(())
    }

    fn write_listing(&self, listing: &Listing) -> anyhow::Result<()> {
        let path = self.listing_path();
        write_atomically(&path, listing.to_compacted_text().as_bytes())
            .with_context(|| format!("could not write {}", path.display()))
    }

    /// Reads `config.json`.
    pub fn config(&self) -> anyhow::Result<IndexConfig> {
        let path = self.config_path();
        IndexConfig::parse(&fs_err::read(&path)?, &path.display().to_string())
    }

    /// Writes `config.json` atomically.
    pub(crate) fn write_config(&self, config: &IndexConfig) -> anyhow::Result<()> {
        let path = self.config_path();
        write_atomically(&path, config.to_text().as_bytes())
            .with_context(|| format!("could not write {}", path.display()))
    }

    /// Every version of `package`, in file order (empty if unknown).
    pub fn entries(&self, package: &PackageName) -> anyhow::Result<Vec<IndexEntry>> {
        let relative = package.entry_path();
        match fs_err::read_to_string(self.root.join(&relative)) {
            Ok(text) => parse_entries(&text, &relative),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(e.into()),
        }
    }

    /// Every package listed in the index, sorted.
    pub fn packages(&self) -> anyhow::Result<Vec<PackageName>> {
        let mut packages = Vec::new();
        let index = self.root.join("index");
        let Ok(orgs) = fs_err::read_dir(&index) else {
            return Ok(packages);
        };
        for org in orgs {
            let org = org?;
            if !org.file_type()?.is_dir() {
                continue;
            }
            for name in fs_err::read_dir(org.path())? {
                let name = name?;
                let text = format!(
                    "{}/{}",
                    org.file_name().to_string_lossy(),
                    name.file_name().to_string_lossy()
                );
                if let Ok(package) = text.parse() {
                    packages.push(package);
                }
            }
        }
        packages.sort();
        Ok(packages)
    }

    /// Adds a version: copies the archive at `archive` in, then appends
    /// its entry line and its search listing line, reading neither file.
    /// Refuses a version that is already listed.
    pub fn add_version(
        &self,
        package: &PackageName,
        entry: &IndexEntry,
        archive: &Path,
    ) -> anyhow::Result<()> {
        if self.has_version(package, &entry.vers)? {
            bail!(
                Hinted::new(format!(
                    "{package}@{} is already in the index; versions are immutable",
                    entry.vers
                ))
                .hint("bump metadata.version (or pass --version) and publish again")
            );
        }
        let archive_path = self.root.join(package.archive_path(&entry.vers));
        crate::fsutil::copy_atomically(archive, &archive_path)
            .with_context(|| format!("could not write {}", archive_path.display()))?;
        let entry_path = self.root.join(package.entry_path());
        append_lines(&entry_path, format!("{}\n", entry.to_line()).as_bytes())
            .with_context(|| format!("could not write {}", entry_path.display()))?;
        self.append_listing(&published_lines(entry))
    }

    /// Whether `package`'s entry file lists `version`. Every version is
    /// published with its archive, so where the archives live in the
    /// index (its `dl` is the default) a version without one is not
    /// listed: one look-up. Otherwise (an archive left by a publish that
    /// was cut short, or archives served from elsewhere) the entry file
    /// is read once, a line at a time.
    fn has_version(&self, package: &PackageName, version: &str) -> anyhow::Result<bool> {
        let archive = self.root.join(package.archive_path(version));
        let no_archive = matches!(
            fs_err::symlink_metadata(&archive),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound
        );
        if no_archive && self.config()?.dl == DEFAULT_DL {
            return Ok(false);
        }
        let relative = package.entry_path();
        let file = match fs_err::File::open(self.root.join(&relative)) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(e.into()),
        };
        /// The one field read of each line.
        #[derive(serde::Deserialize)]
        struct Version<'a> {
            #[serde(borrow)]
            vers: std::borrow::Cow<'a, str>,
        }
        let mut reader = std::io::BufReader::new(file);
        let mut line = String::new();
        let mut number = 0;
        loop {
            line.clear();
            if std::io::BufRead::read_line(&mut reader, &mut line)? == 0 {
                return Ok(false);
            }
            number += 1;
            if line.trim().is_empty() {
                continue;
            }
            let entry: Version<'_> = serde_json::from_str(&line)
                .map_err(|e| anyhow::anyhow!("{relative}:{number}: invalid index entry: {e}"))?;
            if entry.vers == version {
                return Ok(true);
            }
        }
    }

    /// Sets the `yanked` flag of one version, rewriting exactly that line,
    /// and appends the change to the search listing. Returns false when it
    /// already had that value.
    pub(crate) fn set_yanked(
        &self,
        package: &PackageName,
        version: &str,
        yanked: bool,
    ) -> anyhow::Result<bool> {
        self.change_entry(package, version, |entry| {
            let changed = entry.yanked != yanked;
            entry.yanked = yanked;
            Ok(changed)
        })
    }

    /// Changes one version's entry with `change` (which says whether it
    /// changed anything), rewriting exactly that line, and appends the
    /// change to the search listing. Returns what `change` said.
    pub(crate) fn change_entry(
        &self,
        package: &PackageName,
        version: &str,
        change: impl FnOnce(&mut IndexEntry) -> anyhow::Result<bool>,
    ) -> anyhow::Result<bool> {
        let relative = package.entry_path();
        let path = self.root.join(&relative);
        let text = fs_err::read_to_string(&path)
            .with_context(|| format!("{package} is not in the index"))?;
        let mut entries = Vec::new();
        let mut change = Some(change);
        let mut changed = None;
        let mut out = String::with_capacity(text.len());
        for (i, line) in text.split_inclusive('\n').enumerate() {
            let content = line.trim_end_matches('\n');
            if !content.trim().is_empty() {
                let mut entry: IndexEntry = serde_json::from_str(content).map_err(|e| {
                    anyhow::anyhow!("{relative}:{}: invalid index entry: {e}", i + 1)
                })?;
                if entry.vers == version
                    && let Some(change) = change.take()
                    && change(&mut entry)?
                {
                    changed = Some(entries.len());
                    out.push_str(&entry.to_line());
                    out.push_str(&line[content.len()..]);
                    entries.push(entry);
                    continue;
                }
                entries.push(entry);
            }
            out.push_str(line);
        }
        if !entries.iter().any(|e| e.vers == version) {
            bail!("{package}@{version} is not in the index");
        }
        let Some(changed) = changed else {
            if !self.listing_path().is_file() {
                self.rebuild_listing()?;
            }
            return Ok(false);
        };
        write_atomically(&path, out.as_bytes())
            .with_context(|| format!("could not write {}", path.display()))?;
        self.append_listing(&yanked_lines(&entries[changed], &entries))?;
        Ok(true)
    }
}
