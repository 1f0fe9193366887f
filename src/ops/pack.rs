//! `skillpkg pack`: validate, then write a deterministic `.skill` archive.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use crate::hint::Hinted;
use crate::skill::validate::{Severity, ValidateOptions, validate};
use crate::skill::{Skill, load_skill};
use crate::store::{hash, pack};

/// A written archive.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Packed {
    /// The skill's name.
    pub name: String,
    /// `metadata.version`, if the skill has one.
    pub version: Option<String>,
    /// Where the archive was written.
    pub path: PathBuf,
    /// sha256 of the archive bytes, hex.
    pub sha256: String,
    /// Number of files in it.
    pub files: usize,
    /// Its size in bytes.
    pub size: u64,
}

/// Validates the skill in `dir` (refusing an invalid one with the
/// validator's messages) and packs it into bytes. Returns the files packed
/// too.
pub fn pack_skill(dir: &Path) -> anyhow::Result<(Skill, Vec<u8>, Vec<pack::PackedFile>)> {
    let report = validate(dir, ValidateOptions::default());
    if !report.valid {
        let problems: Vec<String> = report
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .map(|p| format!("  {}: error[{}]: {}", p.file.display(), p.rule, p.message))
            .collect();
        bail!(
            Hinted::new(format!(
                "{} is not a valid skill:\n{}",
                dir.display(),
                problems.join("\n")
            ))
            .hint(format!(
                "fix these, then check with `skillpkg validate {}`",
                dir.display()
            ))
        );
    }
    let skill = load_skill(dir)?;
    let files = pack::list_files(dir)?;
    let cursor = pack::write_archive(&skill.meta.name, &files, std::io::Cursor::new(Vec::new()))?;
    Ok((skill, cursor.into_inner(), files))
}

/// Packs `dir` and writes the archive to `output` (default
/// `<cwd>/<name>-<version>.skill`, or `<name>.skill` without a version),
/// atomically.
pub fn pack_to_file(dir: &Path, output: Option<&Path>, cwd: &Path) -> anyhow::Result<Packed> {
    let (skill, bytes, files) = pack_skill(dir)?;
    let name = skill.meta.name;
    let version = skill.meta.metadata.get("version").cloned();
    let path = match output {
        Some(path) => cwd.join(path),
        None => cwd.join(match &version {
            Some(v) => format!("{name}-{v}.skill"),
            None => format!("{name}.skill"),
        }),
    };
    crate::fsutil::write_atomically(&path, &bytes)
        .with_context(|| format!("could not write {}", path.display()))?;
    Ok(Packed {
        name,
        version,
        sha256: hash::sha256_hex(&bytes),
        path,
        files: files.len(),
        size: bytes.len() as u64,
    })
}
