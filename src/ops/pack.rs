//! `skillpkg pack`: validate, then write a deterministic `.skill` archive.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use crate::hint::Hinted;
use crate::skill::validate::{Severity, ValidateOptions, validate};
use crate::skill::{Skill, load_skill};
use crate::store::archive::ArchiveFile;
use crate::store::extract::Refusal;
use crate::store::limits::Limits;
use crate::store::pack;

/// A written archive.
#[derive(Debug, Clone, serde::Serialize)]
pub(crate) struct Packed {
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
    /// The archive, in a temporary file.
    pub archive: ArchiveFile,
    /// The files packed.
    pub files: Vec<pack::PackedFile>,
    /// The reference rules it breaks (rule identifiers, sorted, once each);
    /// empty for a valid skill.
    pub broken_rules: Vec<String>,
}

/// Checks the skill in `dir` as `validity` says (refusing it with the
/// validator's messages when it must be valid, or when an install within
/// `limits` would refuse it) and packs it into a temporary file in the
/// folder `scratch`, streaming every file: memory does not grow with the
/// skill.
pub fn pack_skill(
    dir: &Path,
    validity: Validity,
    limits: &Limits,
    scratch: &Path,
) -> anyhow::Result<PackedSkill> {
    let CheckedSkill {
        skill,
        files,
        broken_rules,
    } = check_skill(dir, validity, None, limits)?;
    fs_err::create_dir_all(scratch)?;
    let mut temp = tempfile::NamedTempFile::new_in(scratch)
        .with_context(|| format!("could not make a file in {}", scratch.display()))?;
    pack::write_archive(dir, &skill.meta.name, &files, temp.as_file_mut(), limits)?;
    // Read back as every install reads an archive before it unpacks
    // anything: what pack and publish accept, installs accept.
    let written = std::io::BufReader::new(temp.reopen()?);
    crate::store::extract::survey_packed(written, &skill.meta.name, limits).map_err(|refusal| {
        RefusedOnInstall {
            dir: dir.to_path_buf(),
            refusal,
        }
    })?;
    Ok(PackedSkill {
        skill,
        archive: ArchiveFile::hashed(temp)?,
        files,
        broken_rules,
    })
}

/// A skill whose archive every install would refuse: refused by `pack`
/// and `publish` too.
#[derive(Debug, thiserror::Error)]
#[error("{} cannot be packed: every install would refuse its archive: {refusal}", dir.display())]
pub(crate) struct RefusedOnInstall {
    /// The skill's folder.
    pub dir: PathBuf,
    /// What installs refuse.
    pub refusal: Refusal,
}

impl crate::hint::Advice for RefusedOnInstall {
    /// What the user can do about it.
    fn hints(&self) -> Vec<String> {
        vec![match &self.refusal {
            Refusal::CompressionRatio { limit, .. } => format!(
                "installs take a file that inflates over {limit}x for a zip bomb: compress it yourself, or leave it out with .skillignore"
            ),
            _ => {
                "rename or leave out the file it names (.skillignore), then pack again".to_string()
            }
        }]
    }
}

/// A skill checked for packing: what [`PackedSkill`] holds but the archive.
pub(crate) struct CheckedSkill {
    /// Its metadata.
    pub skill: Skill,
    /// The files an archive of it holds.
    pub files: Vec<pack::PackedFile>,
    /// The reference rules it breaks (rule identifiers, sorted, once each).
    pub broken_rules: Vec<String>,
}

/// Checks the skill in `dir` as [`pack_skill`] does and lists the files
/// an archive of it would hold, without writing one. `origin` names where
/// the skill comes from when `dir` is a copy (a git repository's folder at
/// a commit): messages name it.
pub(crate) fn check_skill(
    dir: &Path,
    validity: Validity,
    origin: Option<&str>,
    limits: &Limits,
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
    pack::check_limits(dir, &files, limits)?;
    Ok(CheckedSkill {
        skill,
        files,
        broken_rules,
    })
}

/// Packs `dir` and writes the archive to `output` (default
/// `<cwd>/<name>-<version>.skill`, or `<name>.skill` without a version),
/// atomically, streamed through a temporary file beside it.
///
/// With `layer`, writes the OCI layer an OCI index holds instead
/// (`<name>-<version>.tar.gz`, see [`crate::store::layer`]): the bytes a
/// Sigstore bundle for an OCI index is made over.
pub(crate) fn pack_to_file(
    dir: &Path,
    output: Option<&Path>,
    cwd: &Path,
    layer: bool,
    limits: &Limits,
) -> anyhow::Result<Packed> {
    let extension = match layer {
        true => "tar.gz",
        false => "skill",
    };
    // The folder the archive goes to, known before the skill's name only
    // when `output` names it.
    let scratch = match output {
        Some(path) => cwd.join(path).parent().unwrap_or(cwd).to_path_buf(),
        None => cwd.to_path_buf(),
    };
    let PackedSkill {
        skill,
        archive,
        files,
        ..
    } = pack_skill(dir, Validity::Reference, limits, &scratch)?;
    let name = skill.meta.name;
    let version = skill.meta.metadata.get("version").cloned();
    let archive = match layer {
        true => crate::store::layer::layer_beside(&archive)?,
        false => archive,
    };
    let path = match output {
        Some(path) => cwd.join(path),
        None => cwd.join(match &version {
            Some(v) => format!("{name}-{v}.{extension}"),
            None => format!("{name}.{extension}"),
        }),
    };
    let (sha256, size) = (archive.sha256.clone(), archive.size);
    archive
        .persist(&path)
        .with_context(|| format!("could not write {}", path.display()))?;
    Ok(Packed {
        name,
        version,
        sha256,
        path,
        files: files.len(),
        size,
    })
}
