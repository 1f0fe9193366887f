//! Safe extraction of `.skill` archives into a staging directory.
//!
//! Every entry is checked before anything is written: no absolute paths,
//! `..`, backslashes or drive prefixes, no symlinks, no duplicates, all
//! entries under one `<name>/`, within the entry-count, size and
//! compression-ratio limits. Files are then written into a fresh temporary
//! directory, counting the bytes actually inflated; `<name>/SKILL.md` must
//! exist and name the same skill. On any error the staging directory is
//! removed, so a refused archive leaves nothing behind.

use std::collections::{BTreeMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use super::hash::HashingWriter;
use super::limits::Limits;
use super::names::{has_unsafe_chars, is_vcs_dir};
use crate::skill::load_skill;

/// Entries smaller than this are never judged by their compression ratio:
/// small, repetitive files compress very well and are harmless.
const RATIO_CHECK_FLOOR: u64 = 1024 * 1024;

/// What is wrong with an archive.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// Not a zip, or a truncated one.
    #[error("not a valid zip archive (truncated or not a .skill file): {0}")]
    NotZip(String),
    /// No entries at all.
    #[error("the archive is empty")]
    Empty,
    /// An entry name that is not UTF-8.
    #[error("entry {0:?} has a name that is not UTF-8")]
    NonUtf8Name(String),
    /// `/etc/passwd`.
    #[error("entry '{0}' has an absolute path")]
    AbsolutePath(String),
    /// `a/../../x`.
    #[error("entry '{0}' contains a '..' component")]
    ParentComponent(String),
    /// `a\\b`.
    #[error("entry '{0}' contains a backslash")]
    Backslash(String),
    /// `C:x`.
    #[error("entry '{0}' has a drive prefix")]
    DrivePrefix(String),
    /// `a//b`, `./a`.
    #[error("entry '{0}' has an empty or '.' path component")]
    UnnormalizedPath(String),
    /// Control characters or bidirectional marks, which could rewrite the
    /// terminal or disguise the name.
    #[error("entry {0:?} has control characters or bidirectional marks in its name")]
    UnsafeName(String),
    /// `.git/`, `.hg/` and the like: packing leaves them out, and a
    /// `.git/config` could make the user's next `git` command run code.
    #[error("entry '{0}' is inside a version-control folder, which packages may not ship")]
    VcsFolder(String),
    /// Two names that are one on case-insensitive or normalising file
    /// systems (macOS, Windows).
    #[error("entries '{first}' and '{second}' collide on case-insensitive file systems")]
    Collision {
        /// The entry seen first.
        first: String,
        /// The entry that collides with it.
        second: String,
    },
    /// The central directory lists one name twice.
    #[error("the central directory lists a file name more than once (duplicate entries)")]
    DuplicateInDirectory,
    /// Local headers disagree with the central directory, or entries overlap.
    #[error("its headers are inconsistent (a disguised or overlapping entry): {0}")]
    Inconsistent(String),
    /// A symbolic link.
    #[error("entry '{0}' is a symbolic link; archives may hold only regular files")]
    Symlink(String),
    /// A hard link, a device, a FIFO or another entry that is no regular
    /// file or folder (tar layers).
    #[error("entry '{entry}' is {kind}; archives may hold only regular files")]
    SpecialFile {
        /// The entry.
        entry: String,
        /// What it is.
        kind: &'static str,
    },
    /// Not a tar stream, a truncated one, or a compressed stream that
    /// does not inflate.
    #[error("not a valid tar layer (truncated, or not a tar): {0}")]
    NotTar(String),
    /// The same name twice.
    #[error("entry '{0}' appears more than once")]
    Duplicate(String),
    /// Not under the archive's single top-level directory.
    #[error("entry '{entry}' is outside the '{root}/' directory that every entry must be under")]
    OutsideRoot {
        /// The entry.
        entry: String,
        /// The expected top-level directory.
        root: String,
    },
    /// The top-level directory is not the expected package name.
    #[error("the archive holds skill '{found}' but '{expected}' was expected")]
    WrongSkill {
        /// The name asked for.
        expected: String,
        /// The archive's top-level directory.
        found: String,
    },
    /// `<name>/SKILL.md` is missing.
    #[error("the archive has no '{0}/SKILL.md'")]
    MissingSkillMd(String),
    /// `SKILL.md` does not load or names another skill.
    #[error("'{dir}/SKILL.md' {problem}")]
    BadSkillMd {
        /// The top-level directory.
        dir: String,
        /// What is wrong.
        problem: String,
    },
    /// Too many entries.
    #[error("the archive has {count} entries, more than the limit of {limit}")]
    TooManyEntries {
        /// Entries in the archive.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// Inflates past the size limit.
    #[error(
        "entry '{entry}' takes the unpacked size past the limit of {}",
        super::limits::show_size(*limit)
    )]
    TooLarge {
        /// The entry that crossed it.
        entry: String,
        /// The limit.
        limit: u64,
    },
    /// A zip bomb.
    #[error(
        "entry '{entry}' inflates {ratio}× (over the limit of {limit}×): refusing a likely zip bomb"
    )]
    CompressionRatio {
        /// The entry.
        entry: String,
        /// Its ratio.
        ratio: u64,
        /// The limit.
        limit: u64,
    },
    /// An entry that fails to inflate or fails its CRC check.
    #[error("entry '{entry}' is corrupt: {message}")]
    Corrupt {
        /// The entry.
        entry: String,
        /// The reader's message.
        message: String,
    },
}

/// Extraction failed: names the archive and what was refused.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    /// The archive is refused.
    #[error("refusing archive {archive}: {refusal}")]
    Refused {
        /// The archive.
        archive: PathBuf,
        /// Why.
        refusal: Refusal,
    },
    /// The file system failed.
    #[error("could not extract {archive}")]
    Io {
        /// The archive.
        archive: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
}

/// An archive extracted into a staging directory, not yet in place.
#[derive(Debug)]
pub struct Staged {
    staging: tempfile::TempDir,
    /// The skill's name (the archive's top-level directory).
    pub name: String,
    /// The sha256 of every file written, by path relative to the skill.
    digests: BTreeMap<String, String>,
    /// The files holding a byte outside ASCII, relative to the skill.
    non_ascii: Vec<String>,
}

impl Staged {
    /// A tree staged by other means (a copy of a cached tree), with the
    /// digests and non-ASCII files taken while writing it into `staging`.
    pub(crate) fn from_parts(
        staging: tempfile::TempDir,
        name: String,
        digests: BTreeMap<String, String>,
        non_ascii: Vec<String>,
    ) -> Staged {
        Staged {
            staging,
            name,
            digests,
            non_ascii,
        }
    }

    /// The `h1:` tree hash of what was extracted, from the digests taken
    /// while writing (the same as [`crate::store::hash::tree_hash`] of
    /// [`Staged::path`], without reading the files back).
    pub fn tree_hash(&self) -> String {
        crate::store::hash::tree_hash_of(&self.digests)
    }

    /// The sha256 of every file of the tree, by path relative to the
    /// skill (`/`-separated), sorted.
    pub(crate) fn digests(&self) -> &BTreeMap<String, String> {
        &self.digests
    }

    /// The files of the tree, relative to the skill, sorted.
    pub fn files(&self) -> Vec<String> {
        self.digests.keys().cloned().collect()
    }

    /// Removes the files `names` (relative to the skill, `/`-separated)
    /// from the staged tree, and the folders they leave empty.
    pub(crate) fn leave_out(&mut self, names: &[String]) -> std::io::Result<()> {
        let root = self.staging.path().to_path_buf();
        for name in names {
            let path = root.join(name);
            fs_err::remove_file(&path)?;
            self.digests.remove(name);
            self.non_ascii.retain(|file| file != name);
            let mut parent = path.parent();
            while let Some(dir) = parent.filter(|dir| *dir != root) {
                if fs_err::read_dir(dir)?.next().is_some() {
                    break;
                }
                fs_err::remove_dir(dir)?;
                parent = dir.parent();
            }
        }
        Ok(())
    }

    /// Hidden Unicode in the extracted files (see
    /// [`crate::skill::hidden`]); only files with non-ASCII bytes are read.
    pub(crate) fn scan_hidden_unicode(
        &self,
    ) -> std::io::Result<Vec<crate::skill::hidden::HiddenChar>> {
        crate::skill::hidden::scan_files(&self.path(), &self.non_ascii)
    }

    /// The extracted skill directory (the staging directory itself, so
    /// that putting it in place is one rename and leaves nothing to delete).
    pub fn path(&self) -> PathBuf {
        self.staging.path().to_path_buf()
    }

    /// Moves the skill directory to `target` (a rename: same file system as
    /// the staging parent). On failure it stays where it was, to be removed.
    pub fn persist(self, target: &Path) -> std::io::Result<()> {
        fs_err::rename(self.staging.path(), target)?;
        // Renamed away: nothing is left for the guard to remove.
        let _ = self.staging.keep();
        Ok(())
    }
}

struct EntryInfo {
    index: usize,
    name: String,
    is_dir: bool,
    executable: bool,
}

pub(super) fn check_name(name: &str) -> Result<(), Refusal> {
    let owned = || name.to_string();
    if has_unsafe_chars(name) {
        return Err(Refusal::UnsafeName(owned()));
    }
    if name.contains('\\') {
        return Err(Refusal::Backslash(owned()));
    }
    if name.starts_with('/') {
        return Err(Refusal::AbsolutePath(owned()));
    }
    let bytes = name.as_bytes();
    if bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic() {
        return Err(Refusal::DrivePrefix(owned()));
    }
    let trimmed = name.strip_suffix('/').unwrap_or(name);
    for component in trimmed.split('/') {
        match component {
            ".." => return Err(Refusal::ParentComponent(owned())),
            "" | "." => return Err(Refusal::UnnormalizedPath(owned())),
            vcs if is_vcs_dir(vcs) => {
                return Err(Refusal::VcsFolder(owned()));
            }
            _ => {}
        }
    }
    Ok(())
}

/// A name as case-insensitive, normalising file systems see it.
fn folded(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization as _;
    name.nfc().collect::<String>().to_lowercase()
}

/// Records `key` and the folders above it by their folded form, and
/// refuses a name that folds onto another one.
pub(super) fn check_collision(
    key: &str,
    folded_names: &mut std::collections::HashMap<String, String>,
) -> Result<(), Refusal> {
    let mut prefix = String::new();
    for part in key.split('/') {
        if !prefix.is_empty() {
            prefix.push('/');
        }
        prefix.push_str(part);
        match folded_names.entry(folded(&prefix)) {
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(prefix.clone());
            }
            std::collections::hash_map::Entry::Occupied(seen) if *seen.get() != prefix => {
                return Err(Refusal::Collision {
                    first: seen.get().clone(),
                    second: prefix,
                });
            }
            std::collections::hash_map::Entry::Occupied(_) => {}
        }
    }
    Ok(())
}

/// Where in a zip the skill is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ZipRoot<'a> {
    /// In one top folder (a `.skill`), which must be named `expected`
    /// when given.
    InFolder(Option<&'a str>),
    /// At the top (`SKILL.md` beside its files, as the discovery RFC
    /// packs skills), or else in one top folder.
    Anywhere,
}

/// Checks every entry of `zip` and returns them with the top-level name
/// (empty for a skill at the top).
fn survey<R: Read + std::io::Seek>(
    zip: &mut zip::ZipArchive<R>,
    rooted: ZipRoot,
    limits: &Limits,
) -> Result<(String, Vec<EntryInfo>), Refusal> {
    let expected = match rooted {
        ZipRoot::InFolder(expected) => expected,
        ZipRoot::Anywhere => None,
    };
    let at_top = rooted == ZipRoot::Anywhere && zip.index_for_name_raw(b"SKILL.md").is_some();
    if zip.has_duplicate_names() {
        return Err(Refusal::DuplicateInDirectory);
    }
    zip.validate_header_consistency()
        .map_err(|e| Refusal::Inconsistent(e.to_string()))?;
    if zip.is_empty() {
        return Err(Refusal::Empty);
    }
    if zip.len() > limits.max_entries {
        return Err(Refusal::TooManyEntries {
            count: zip.len(),
            limit: limits.max_entries,
        });
    }
    let mut root: Option<String> = None;
    let mut seen = HashSet::new();
    let mut folded_names = std::collections::HashMap::new();
    let mut entries = Vec::with_capacity(zip.len());
    let mut declared_total: u64 = 0;
    for index in 0..zip.len() {
        let file = zip
            .by_index_raw(index)
            .map_err(|e| Refusal::NotZip(e.to_string()))?;
        let name = std::str::from_utf8(file.name_raw())
            .map_err(|_| {
                Refusal::NonUtf8Name(String::from_utf8_lossy(file.name_raw()).into_owned())
            })?
            .to_string();
        check_name(&name)?;
        let mode = file.unix_mode().unwrap_or(0);
        if mode & 0o170000 == 0o120000 {
            return Err(Refusal::Symlink(name));
        }
        let key = name.strip_suffix('/').unwrap_or(&name).to_string();
        if !seen.insert(key.clone()) {
            return Err(Refusal::Duplicate(name));
        }
        check_collision(&key, &mut folded_names)?;
        let top = key.split('/').next().unwrap_or_default().to_string();
        let is_dir = name.ends_with('/');
        match &root {
            _ if at_top => {}
            None => root = Some(top.clone()),
            Some(r) if *r != top => {
                return Err(Refusal::OutsideRoot {
                    entry: name,
                    root: r.clone(),
                });
            }
            Some(_) => {}
        }
        if !at_top && !is_dir && !key.contains('/') {
            return Err(Refusal::OutsideRoot {
                entry: name,
                root: top,
            });
        }
        let size = file.size();
        let compressed = file.compressed_size().max(1);
        if size > RATIO_CHECK_FLOOR && size / compressed > limits.max_ratio {
            return Err(Refusal::CompressionRatio {
                entry: name,
                ratio: size / compressed,
                limit: limits.max_ratio,
            });
        }
        declared_total = declared_total.saturating_add(size);
        if declared_total > limits.max_total_bytes {
            return Err(Refusal::TooLarge {
                entry: name,
                limit: limits.max_total_bytes,
            });
        }
        entries.push(EntryInfo {
            index,
            name,
            is_dir,
            executable: mode & 0o111 != 0,
        });
    }
    if at_top {
        return Ok((String::new(), entries));
    }
    let root = root.expect("non-empty archive");
    if let Some(expected) = expected
        && expected != root
    {
        return Err(Refusal::WrongSkill {
            expected: expected.to_string(),
            found: root,
        });
    }
    if !seen.contains(&format!("{root}/SKILL.md")) {
        return Err(Refusal::MissingSkillMd(root));
    }
    Ok((root, entries))
}

/// Checks the zip `archive`, just packed from the skill `name`, as every
/// install does before it writes anything (names, links, duplicates,
/// collisions, entry count, size, compression ratio): what `pack` and
/// `publish` accept is what installs accept.
pub(crate) fn survey_packed<R: Read + std::io::Seek>(
    archive: R,
    name: &str,
    limits: &Limits,
) -> Result<(), Refusal> {
    let mut zip = zip::ZipArchive::new(archive).map_err(|e| Refusal::NotZip(e.to_string()))?;
    survey(&mut zip, ZipRoot::InFolder(Some(name)), limits).map(drop)
}

/// A zip archive opened from a file.
type OpenZip = zip::ZipArchive<std::io::BufReader<fs_err::File>>;

/// The zip at `archive` (named `shown` in errors), opened, with its
/// entries surveyed (every check of a hostile archive) for a skill rooted
/// as `root` says: the archive, the skill's top folder, and the entries.
fn open_surveyed(
    archive: &Path,
    shown: &Path,
    root: ZipRoot,
    limits: &Limits,
) -> Result<(OpenZip, String, Vec<EntryInfo>), ExtractError> {
    let refused = |refusal| ExtractError::Refused {
        archive: shown.to_path_buf(),
        refusal,
    };
    let file = fs_err::File::open(archive).map_err(|source| ExtractError::Io {
        archive: shown.to_path_buf(),
        source,
    })?;
    let mut zip = zip::ZipArchive::new(std::io::BufReader::new(file))
        .map_err(|e| refused(Refusal::NotZip(e.to_string())))?;
    let (top, entries) = survey(&mut zip, root, limits).map_err(refused)?;
    Ok((zip, top, entries))
}

/// Extracts `archive` into a new staging directory under `staging_parent`.
/// `expected` is the skill name the archive must hold, when known.
pub fn extract(
    archive: &Path,
    expected: Option<&str>,
    staging_parent: &Path,
    limits: &Limits,
) -> Result<Staged, ExtractError> {
    let refused = |refusal| ExtractError::Refused {
        archive: archive.to_path_buf(),
        refusal,
    };
    let io = |source| ExtractError::Io {
        archive: archive.to_path_buf(),
        source,
    };
    let (mut zip, name, entries) =
        open_surveyed(archive, archive, ZipRoot::InFolder(expected), limits)?;

    fs_err::create_dir_all(staging_parent).map_err(io)?;
    let staging = tempfile::Builder::new()
        .prefix(".extract-")
        .tempdir_in(staging_parent)
        .map_err(io)?;
    let (digests, non_ascii) = write_entries(
        &mut zip,
        &entries,
        &format!("{name}/"),
        staging.path(),
        archive,
        limits,
    )?;

    check_skill_md(staging.path(), &name).map_err(refused)?;
    Ok(Staged {
        staging,
        name,
        digests,
        non_ascii,
    })
}

/// Extracts the skill in the zip `archive` into a new folder inside
/// `dest`, which must exist, as checked as a `.skill` is: `SKILL.md` at
/// the archive's top (the discovery RFC's layout) or in its one top
/// folder. Returns that folder, named after the top folder (or `skill`,
/// for a skill at the top). Errors name the archive as `label`; a refused
/// archive leaves nothing behind.
pub(crate) fn extract_tree(
    archive: &Path,
    label: &str,
    dest: &Path,
    limits: &Limits,
) -> Result<PathBuf, ExtractError> {
    let shown = Path::new(label);
    let io = |source| ExtractError::Io {
        archive: shown.to_path_buf(),
        source,
    };
    let (mut zip, top, entries) = open_surveyed(archive, shown, ZipRoot::Anywhere, limits)?;
    let unpacking = tempfile::Builder::new()
        .prefix(".unzip-")
        .tempdir_in(dest)
        .map_err(io)?;
    let prefix = match top.is_empty() {
        true => String::new(),
        false => format!("{top}/"),
    };
    write_entries(&mut zip, &entries, &prefix, unpacking.path(), shown, limits)?;
    let folder = match top.is_empty() {
        true => "skill".to_string(),
        false => top,
    };
    let target = dest.join(&folder);
    if target.symlink_metadata().is_ok() {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("{} is already there", target.display()),
        )));
    }
    fs_err::rename(unpacking.path(), &target).map_err(io)?;
    let _ = unpacking.keep();
    Ok(target)
}

/// Writes the surveyed `entries` of `zip` into `into`, each without
/// `prefix` (the top folder); returns the sha256 of every file written and
/// the files holding bytes outside ASCII, by path relative to `into`.
/// Errors name `archive`.
fn write_entries<R: Read + std::io::Seek>(
    zip: &mut zip::ZipArchive<R>,
    entries: &[EntryInfo],
    prefix: &str,
    into: &Path,
    archive: &Path,
    limits: &Limits,
) -> Result<(BTreeMap<String, String>, Vec<String>), ExtractError> {
    let refused = |refusal| ExtractError::Refused {
        archive: archive.to_path_buf(),
        refusal,
    };
    let io = |source| ExtractError::Io {
        archive: archive.to_path_buf(),
        source,
    };
    let mut written: u64 = 0;
    let mut digests = BTreeMap::new();
    let mut non_ascii = Vec::new();
    let mut made_dirs = HashSet::new();
    made_dirs.insert(into.to_path_buf());
    for entry in entries {
        // The staging directory is the skill's folder: entries go in it
        // without the archive's top-level folder.
        let relative = entry.name.strip_prefix(prefix).unwrap_or(&entry.name);
        if relative.is_empty() || (prefix.is_empty() && relative == "/") {
            continue;
        }
        let target = into.join(relative);
        if entry.is_dir {
            fs_err::create_dir_all(&target).map_err(io)?;
            made_dirs.insert(target);
            continue;
        }
        if let Some(parent) = target.parent()
            && !made_dirs.contains(parent)
        {
            fs_err::create_dir_all(parent).map_err(io)?;
            made_dirs.insert(parent.to_path_buf());
        }
        let corrupt = |message: String| {
            refused(Refusal::Corrupt {
                entry: entry.name.clone(),
                message,
            })
        };
        let reader = zip
            .by_index(entry.index)
            .map_err(|e| corrupt(e.to_string()))?;
        let budget = limits.max_total_bytes - written;
        let mode = if entry.executable { 0o755 } else { 0o644 };
        let mut out = HashingWriter::new(create_with_mode(&target, mode).map_err(io)?);
        let copied = std::io::copy(&mut reader.take(budget + 1), &mut out)
            .map_err(|e| corrupt(e.to_string()))?;
        let (_, file) = out.finish();
        let relative = relative.to_string();
        if !file.ascii {
            non_ascii.push(relative.clone());
        }
        digests.insert(relative, file.sha256);
        if copied > budget {
            return Err(refused(Refusal::TooLarge {
                entry: entry.name.clone(),
                limit: limits.max_total_bytes,
            }));
        }
        written += copied;
    }
    Ok((digests, non_ascii))
}

/// Refuses the extracted skill in `dir`, from the archive's folder
/// `name`, unless its `SKILL.md` loads and names that skill.
pub(super) fn check_skill_md(dir: &Path, name: &str) -> Result<(), Refusal> {
    let skill = load_skill(dir).map_err(|e| Refusal::BadSkillMd {
        dir: name.to_string(),
        problem: format!("does not load: [{}] {e}", e.rule()),
    })?;
    if skill.meta.name != name {
        return Err(Refusal::BadSkillMd {
            dir: name.to_string(),
            problem: format!("names skill '{}', not '{name}'", skill.meta.name),
        });
    }
    Ok(())
}

/// The files of the zip `archive` that extraction makes executable, by
/// path relative to the skill, read from its central directory alone
/// (nothing is inflated). For an archive already verified against its
/// checksum: the executable bits a copy of its tree must get.
pub(crate) fn executables(
    archive: impl Read + std::io::Seek,
) -> Result<std::collections::BTreeSet<String>, Refusal> {
    let mut zip = zip::ZipArchive::new(archive).map_err(|e| Refusal::NotZip(e.to_string()))?;
    let mut found = std::collections::BTreeSet::new();
    for index in 0..zip.len() {
        let file = zip
            .by_index_raw(index)
            .map_err(|e| Refusal::NotZip(e.to_string()))?;
        if file.unix_mode().unwrap_or(0) & 0o111 == 0 || file.is_dir() {
            continue;
        }
        let name = String::from_utf8_lossy(file.name_raw());
        if let Some((_, relative)) = name.split_once('/') {
            found.insert(relative.to_string());
        }
    }
    Ok(found)
}

/// Creates the new file `path` with `mode` (less the umask, as `cp`, git
/// and tar create files), failing if anything is already there.
pub(super) fn create_with_mode(path: &Path, mode: u32) -> std::io::Result<fs_err::File> {
    let mut options = fs_err::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    fs_err::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
    #[cfg(not(unix))]
    let _ = mode;
    options.open(path)
}

impl crate::hint::Advice for ExtractError {
    /// What the user can do about it, when there is something.
    fn hints(&self) -> Vec<String> {
        let hint: Option<String> = match self {
            ExtractError::Refused {
                refusal: Refusal::TooLarge { limit, .. },
                ..
            } => Some(format!(
                "if the skill is that large on purpose, raise the limit with {} SIZE, past the {} it is now; otherwise do not install it",
                super::limits::SIZE_FLAG,
                super::limits::show_size(*limit)
            )),
            ExtractError::Refused { .. } => Some(
                "the package is broken or built to attack: do not install it, and tell its publisher"
                    .into(),
            ),
            _ => None,
        };
        hint.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_hash_taken_while_writing_matches_the_files_written() {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("demo");
        std::fs::create_dir_all(skill.join("references/deep")).unwrap();
        std::fs::write(
            skill.join("SKILL.md"),
            "---\nname: demo\ndescription: Demo. Use when testing.\n---\nBody.\n",
        )
        .unwrap();
        std::fs::write(skill.join("references/a.md"), "a\n".repeat(5000)).unwrap();
        std::fs::write(skill.join("references/deep/b.md"), "b\n\u{202E}c\n").unwrap();
        let archive = dir.path().join("demo.skill");
        std::fs::write(
            &archive,
            crate::store::pack::pack_to_bytes(&skill, "demo").unwrap(),
        )
        .unwrap();
        let staged = extract(
            &archive,
            Some("demo"),
            &dir.path().join("staging"),
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(
            staged.tree_hash(),
            crate::store::hash::tree_hash(&staged.path()).unwrap()
        );
        assert_eq!(
            staged.tree_hash(),
            crate::store::hash::tree_hash(&skill).unwrap()
        );
        assert_eq!(
            staged.scan_hidden_unicode().unwrap(),
            crate::skill::hidden::scan_hidden_unicode(&staged.path()).unwrap()
        );
        assert_eq!(staged.scan_hidden_unicode().unwrap().len(), 1);
    }
}
