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

/// How strictly a skill is checked before it is packed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Validity {
    /// The reference validator's verdict: an invalid skill is refused.
    Reference,
    /// What agents load: a name and a description, and a name that is a
    /// safe folder name. The rules it breaks are reported, not refused.
    Lenient,
}

/// A packed skill.
pub struct PackedSkill {
    /// Its metadata.
    pub skill: Skill,
    /// The archive's bytes.
    pub bytes: Vec<u8>,
    /// The files packed.
    pub files: Vec<pack::PackedFile>,
    /// The reference rules it breaks (rule identifiers, sorted, once each);
    /// empty for a valid skill.
    pub broken_rules: Vec<String>,
}

/// Checks the skill in `dir` as `validity` says (refusing it with the
/// validator's messages when it must be valid) and packs it into bytes.
pub fn pack_skill(dir: &Path, validity: Validity) -> anyhow::Result<PackedSkill> {
    pack_skill_from(dir, validity, None)
}

/// [`pack_skill`] for a skill exported from elsewhere (a folder of a git
/// repository at a commit, named by `origin`): messages name the origin,
/// not the folder it was exported to.
pub fn pack_skill_from(
    dir: &Path,
    validity: Validity,
    origin: Option<&str>,
) -> anyhow::Result<PackedSkill> {
    let CheckedSkill {
        skill,
        files,
        broken_rules,
    } = check_skill(dir, validity, origin)?;
    let cursor = pack::write_archive(&skill.meta.name, &files, std::io::Cursor::new(Vec::new()))?;
    Ok(PackedSkill {
        skill,
        bytes: cursor.into_inner(),
        files,
        broken_rules,
    })
}

/// A skill checked for packing: what [`PackedSkill`] holds but the bytes.
pub struct CheckedSkill {
    /// Its metadata.
    pub skill: Skill,
    /// The files an archive of it holds.
    pub files: Vec<pack::PackedFile>,
    /// The reference rules it breaks (rule identifiers, sorted, once each).
    pub broken_rules: Vec<String>,
}

/// Checks the skill in `dir` as [`pack_skill_from`] does and lists the
/// files an archive of it would hold, without writing one.
pub fn check_skill(
    dir: &Path,
    validity: Validity,
    origin: Option<&str>,
) -> anyhow::Result<CheckedSkill> {
    let report = validate(dir, ValidateOptions::default());
    let errors: Vec<_> = report
        .problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .collect();
    if !report.valid && validity == Validity::Reference {
        let shown = |file: &Path| match origin {
            Some(origin) => format!(
                "{origin}: {}",
                file.strip_prefix(dir).unwrap_or(file).display()
            ),
            None => file.display().to_string(),
        };
        let problems: Vec<String> = errors
            .iter()
            .map(|p| {
                let at = p.location();
                let at = at.strip_prefix(&p.file.display().to_string()).unwrap_or("");
                format!("  {}{at}: error[{}]: {}", shown(&p.file), p.rule, p.message)
            })
            .collect();
        let what = origin.map_or_else(|| dir.display().to_string(), str::to_string);
        bail!(
            Hinted::new(format!(
                "{what} is not a valid skill:\n{}",
                problems.join("\n")
            ))
            .hint(match origin {
                Some(_) => "fix these where the skill comes from".to_string(),
                None => format!(
                    "fix these, then check with `skillpkg validate {}`",
                    crate::hint::shell_path(dir)
                ),
            })
        );
    }
    let skill = load_skill(dir)?;
    if !crate::skill::name::is_safe_folder_name(&skill.meta.name) {
        bail!(
            Hinted::new(format!(
                "{}: the name {:?} cannot name a folder (it must be one folder name: no '/', '\\', leading '.' or control characters)",
                skill.skill_md.display(),
                skill.meta.name
            ))
            .hint("give the skill a plain name, such as the name of its folder")
        );
    }
    let mut broken_rules: Vec<String> = errors.iter().map(|p| p.rule.to_string()).collect();
    broken_rules.sort();
    broken_rules.dedup();
    let files = pack::list_files(dir)?;
    Ok(CheckedSkill {
        skill,
        files,
        broken_rules,
    })
}

/// Packs `dir` and writes the archive to `output` (default
/// `<cwd>/<name>-<version>.skill`, or `<name>.skill` without a version),
/// atomically.
///
/// With `layer`, writes the OCI layer an OCI index holds instead
/// (`<name>-<version>.tar.gz`, see [`crate::store::layer`]): the bytes a
/// Sigstore bundle for an OCI index is made over.
pub fn pack_to_file(
    dir: &Path,
    output: Option<&Path>,
    cwd: &Path,
    layer: bool,
) -> anyhow::Result<Packed> {
    let PackedSkill {
        skill,
        bytes,
        files,
        ..
    } = pack_skill(dir, Validity::Reference)?;
    let name = skill.meta.name;
    let version = skill.meta.metadata.get("version").cloned();
    let bytes = match layer {
        true => crate::store::layer::layer_from_archive(&bytes)?,
        false => bytes,
    };
    let extension = match layer {
        true => "tar.gz",
        false => "skill",
    };
    let path = match output {
        Some(path) => cwd.join(path),
        None => cwd.join(match &version {
            Some(v) => format!("{name}-{v}.{extension}"),
            None => format!("{name}.{extension}"),
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
