//! `skillpkg pack`: a skill directory to a deterministic `.skill` zip.
//!
//! The same tree always gives the same bytes: entries sorted by path under
//! `<name>/`, a fixed timestamp (1980-01-01), permissions normalised to 0644
//! or 0755 (the executable bit kept), one compression method and level, no
//! directory entries. VCS folders, OS junk and paths matched by a
//! `.skillignore` (gitignore syntax) are left out.

use std::io::{Read as _, Seek, Write};
use std::path::{Path, PathBuf};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use super::limits::{Limits, MAX_FILES, SIZE_FLAG, show_size, suggest_size};
use super::names::{has_unsafe_chars, is_vcs_dir};

/// File names never packed: operating-system junk and packaging metadata.
pub(crate) const JUNK_FILES: [&str; 5] = [
    ".DS_Store",
    "Thumbs.db",
    "desktop.ini",
    "__MACOSX",
    ".skillignore",
];
/// The file that lists what else to leave out, in gitignore syntax.
pub(crate) const IGNORE_FILE: &str = ".skillignore";

/// Why a tree could not be packed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PackError {
    /// Reading the tree failed.
    #[error("could not read {path}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A symbolic link is in the tree; archives carry regular files only.
    #[error("{path} is a symbolic link: skills are packed as regular files only")]
    Symlink {
        /// The link.
        path: PathBuf,
    },
    /// A name with control characters or bidirectional marks.
    #[error(
        "{} has control characters or bidirectional marks in its name",
        path.display().to_string().escape_debug()
    )]
    UnsafeName {
        /// The file.
        path: PathBuf,
    },
    /// A path is not UTF-8, which zip entry names must be.
    #[error("{path}: file names in a skill must be UTF-8")]
    NonUtf8Path {
        /// The path.
        path: PathBuf,
    },
    /// The `.skillignore` file could not be parsed.
    #[error("{path}: {message}")]
    Ignore {
        /// The ignore file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// More files than an install accepts.
    #[error(
        "{} holds {count} files, more than the {limit} a skill may hold (installs refuse more)",
        dir.display()
    )]
    TooManyFiles {
        /// The skill's folder.
        dir: PathBuf,
        /// Files it holds.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// More bytes than an install accepts.
    #[error(
        "{} holds {} of files, more than the {} a skill may hold unpacked (installs refuse more)",
        dir.display(),
        show_size(*size),
        show_size(*limit)
    )]
    TooLarge {
        /// The skill's folder.
        dir: PathBuf,
        /// Bytes its files hold (at least).
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// Writing the zip failed.
    #[error("could not write the archive")]
    Zip(#[from] zip::result::ZipError),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PackError + '_ {
    move |source| PackError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A file to pack: its path inside the skill and on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedFile {
    /// Relative path with `/` separators, e.g. `scripts/run.sh`.
    pub relative: String,
    /// Where it is on disk.
    pub path: PathBuf,
    /// Whether any executable bit is set.
    pub executable: bool,
    /// Its size when listed.
    pub size: u64,
}

fn is_excluded(name: &str, is_dir: bool) -> bool {
    (is_dir && is_vcs_dir(name)) || JUNK_FILES.contains(&name) || name.starts_with("._")
}

/// Lists the files of the skill in `dir` that an archive holds, sorted.
pub(crate) fn list_files(dir: &Path) -> Result<Vec<PackedFile>, PackError> {
    let mut builder = ignore::WalkBuilder::new(dir);
    builder
        .standard_filters(false)
        .follow_links(false)
        .add_custom_ignore_filename(IGNORE_FILE)
        .filter_entry(|entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            entry.depth() == 0 || !is_excluded(&entry.file_name().to_string_lossy(), is_dir)
        });
    let mut files = Vec::new();
    for entry in builder.build() {
        let entry = entry.map_err(|e| PackError::Ignore {
            path: dir.join(IGNORE_FILE),
            message: e.to_string(),
        })?;
        let file_type = entry
            .file_type()
            .expect("walk entries other than stdin have a type");
        let path = entry.path();
        if file_type.is_symlink() {
            return Err(PackError::Symlink {
                path: path.to_path_buf(),
            });
        }
        if file_type.is_dir() {
            continue;
        }
        let relative = path.strip_prefix(dir).expect("walk stays under its root");
        let mut parts = Vec::new();
        for component in relative.components() {
            let part = component
                .as_os_str()
                .to_str()
                .ok_or_else(|| PackError::NonUtf8Path {
                    path: path.to_path_buf(),
                })?;
            if has_unsafe_chars(part) {
                return Err(PackError::UnsafeName {
                    path: path.to_path_buf(),
                });
            }
            parts.push(part);
        }
        let metadata = fs_err::metadata(path).map_err(io(path))?;
        #[cfg(unix)]
        let executable =
            std::os::unix::fs::PermissionsExt::mode(&metadata.permissions()) & 0o111 != 0;
        #[cfg(not(unix))]
        let executable = {
            let _ = &metadata;
            false
        };
        files.push(PackedFile {
            relative: parts.join("/"),
            path: path.to_path_buf(),
            executable,
            size: metadata.len(),
        });
    }
    // The instructions file is always `SKILL.md` inside an archive.
    if !files.iter().any(|f| f.relative == "SKILL.md")
        && let Some(lower) = files.iter_mut().find(|f| f.relative == "skill.md")
    {
        lower.relative = "SKILL.md".into();
    }
    files.sort_by(|a, b| a.relative.as_bytes().cmp(b.relative.as_bytes()));
    Ok(files)
}

/// Refuses the files of the skill in `dir` when an install would refuse
/// them for their number or size, before any is packed.
pub(crate) fn check_limits(
    dir: &Path,
    files: &[PackedFile],
    limits: &Limits,
) -> Result<(), PackError> {
    if files.len() > limits.max_entries {
        return Err(PackError::TooManyFiles {
            dir: dir.to_path_buf(),
            count: files.len(),
            limit: limits.max_entries,
        });
    }
    let size = files
        .iter()
        .fold(0u64, |total, file| total.saturating_add(file.size));
    if size > limits.max_total_bytes {
        return Err(PackError::TooLarge {
            dir: dir.to_path_buf(),
            size,
            limit: limits.max_total_bytes,
        });
    }
    Ok(())
}

/// Writes the archive of `files` (of the skill in `dir`) under `<name>/`
/// to `out`, each file streamed from disk; refused when they are more or
/// larger than `limits` allow. (What else an install checks is checked
/// on the archive written: [`super::extract::survey_packed`].)
pub(crate) fn write_archive<W: Write + Seek>(
    dir: &Path,
    name: &str,
    files: &[PackedFile],
    out: W,
    limits: &Limits,
) -> Result<W, PackError> {
    check_limits(dir, files, limits)?;
    let mut zip = ZipWriter::new(out);
    let mut budget = limits.max_total_bytes;
    for file in files {
        let options = SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            .compression_level(Some(9))
            .last_modified_time(DateTime::default())
            .unix_permissions(if file.executable { 0o755 } else { 0o644 })
            .large_file(file.size > u64::from(u32::MAX));
        zip.start_file(format!("{name}/{}", file.relative), options)?;
        let source = super::regular::open_regular(&file.path).map_err(io(&file.path))?;
        // A file that grew since it was listed is held to the limit too.
        let copied =
            std::io::copy(&mut source.take(budget + 1), &mut zip).map_err(io(&file.path))?;
        if copied > budget {
            return Err(PackError::TooLarge {
                dir: dir.to_path_buf(),
                size: limits.max_total_bytes - budget + copied,
                limit: limits.max_total_bytes,
            });
        }
        budget -= copied;
    }
    Ok(zip.finish()?)
}

impl crate::hint::Advice for PackError {
    /// What the user can do about it, when there is something.
    fn hints(&self) -> Vec<String> {
        let hint: Option<String> = match self {
            PackError::Symlink { .. } => Some(
                "replace the link with the file it points to, or list it in .skillignore".into(),
            ),
            PackError::TooManyFiles { .. } => Some(format!(
                "leave files out with .skillignore (gitignore syntax): no flag raises the limit of {MAX_FILES} files"
            )),
            PackError::TooLarge { size, .. } => Some(format!(
                "raise the limit with {SIZE_FLAG} (say {SIZE_FLAG} {}), given to pack, publish and every install of it, or leave large files out with .skillignore",
                suggest_size(*size)
            )),

            _ => None,
        };
        hint.into_iter().collect()
    }
}

/// Packs the skill `name` in `dir` into bytes: for tests of archives.
#[cfg(test)]
pub(crate) fn pack_to_bytes(dir: &Path, name: &str) -> Result<Vec<u8>, PackError> {
    let files = list_files(dir)?;
    let cursor = write_archive(
        dir,
        name,
        &files,
        std::io::Cursor::new(Vec::new()),
        &Limits::default(),
    )?;
    Ok(cursor.into_inner())
}
