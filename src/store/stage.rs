//! Staging a skill straight from its folder: the files [`super::pack`]
//! lists, copied into a staging directory under the names, with the
//! modes, checks and limits that extracting an archive of them would
//! give, without packing and inflating one. Path and git skills are
//! installed this way.
//!
//! The files are read without following links (a link planted after the
//! listing is refused, not followed) and hashed from the bytes written,
//! so the tree hash is that of what is staged.

use std::collections::{BTreeMap, HashMap};
use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::extract::{Refusal, Staged, check_collision, check_name, create_with_mode};
use super::hash::HashingWriter;
use super::limits::Limits;
use super::pack::PackedFile;

/// Why a folder cannot be staged.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StageError {
    /// A file or name is refused, as it would be in an archive.
    #[error("refusing {dir}: {refusal}")]
    Refused {
        /// The skill's folder.
        dir: PathBuf,
        /// Why.
        refusal: Refusal,
    },
    /// The file system failed.
    #[error("could not stage {dir}")]
    Io {
        /// The skill's folder.
        dir: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
}

/// Copies `files` (listed from the skill folder `dir` by
/// [`super::pack::list_files`]) into a new staging directory under
/// `staging_parent`, as the skill `name`.
pub(crate) fn stage_files(
    dir: &Path,
    name: &str,
    files: &[PackedFile],
    staging_parent: &Path,
    limits: &Limits,
) -> Result<Staged, StageError> {
    let refused = |refusal| StageError::Refused {
        dir: dir.to_path_buf(),
        refusal,
    };
    let io = |source| StageError::Io {
        dir: dir.to_path_buf(),
        source,
    };
    if files.len() > limits.max_entries {
        return Err(refused(Refusal::TooManyEntries {
            count: files.len(),
            limit: limits.max_entries,
        }));
    }
    if !files.iter().any(|f| f.relative == "SKILL.md") {
        return Err(refused(Refusal::MissingSkillMd(name.to_string())));
    }
    let mut folded_names = HashMap::new();
    for file in files {
        let key = format!("{name}/{}", file.relative);
        check_name(&key).map_err(refused)?;
        check_collision(&key, &mut folded_names).map_err(refused)?;
    }
    fs_err::create_dir_all(staging_parent).map_err(io)?;
    let staging = tempfile::Builder::new()
        .prefix(".stage-")
        .tempdir_in(staging_parent)
        .map_err(io)?;
    let skill = staging.path().to_path_buf();
    let mut made = std::collections::HashSet::from([skill.clone()]);
    let mut digests = BTreeMap::new();
    let mut non_ascii = Vec::new();
    let mut budget = limits.max_total_bytes;
    for file in files {
        let target = skill.join(&file.relative);
        let parent = target.parent().expect("a file under the skill");
        if !made.contains(parent) {
            fs_err::create_dir_all(parent).map_err(io)?;
            made.insert(parent.to_path_buf());
        }
        let mode = if file.executable { 0o755 } else { 0o644 };
        let mut out = HashingWriter::new(create_with_mode(&target, mode).map_err(io)?);
        let source = super::regular::open_regular(&file.path).map_err(io)?;
        let copied = std::io::copy(&mut source.take(budget + 1), &mut out).map_err(io)?;
        if copied > budget {
            return Err(refused(Refusal::TooLarge {
                entry: format!("{name}/{}", file.relative),
                limit: limits.max_total_bytes,
            }));
        }
        budget -= copied;
        let (_, written) = out.finish();
        if !written.ascii {
            non_ascii.push(file.relative.clone());
        }
        digests.insert(file.relative.clone(), written.sha256);
    }
    Ok(Staged::from_parts(
        staging,
        name.to_string(),
        digests,
        non_ascii,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The store's demo skill, with a junk file an archive leaves out.
    fn demo(dir: &Path) -> PathBuf {
        let skill = crate::store::demo_skill(dir, "src-demo");
        std::fs::write(skill.join(".DS_Store"), "junk").unwrap();
        skill
    }

    #[test]
    fn a_staged_folder_is_what_its_archive_extracts_to() {
        let dir = tempfile::tempdir().unwrap();
        let skill = demo(dir.path());
        let files = super::super::pack::list_files(&skill).unwrap();
        let staged = stage_files(
            &skill,
            "demo",
            &files,
            &dir.path().join("s1"),
            &Limits::default(),
        )
        .unwrap();
        let archive = dir.path().join("demo.skill");
        std::fs::write(
            &archive,
            super::super::pack::write_archive(
                &skill,
                "demo",
                &files,
                std::io::Cursor::new(Vec::new()),
                &Limits::default(),
            )
            .unwrap()
            .into_inner(),
        )
        .unwrap();
        let extracted = super::super::archive::extract(
            &archive,
            Some("demo"),
            &dir.path().join("s2"),
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(staged.tree_hash(), extracted.tree_hash());
        assert_eq!(
            crate::store::hash::tree_hash(&staged.path()).unwrap(),
            staged.tree_hash()
        );
        assert!(!staged.path().join(".DS_Store").exists());
        assert_eq!(
            staged.scan_hidden_unicode().unwrap(),
            extracted.scan_hidden_unicode().unwrap()
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = |p: PathBuf| std::fs::metadata(p).unwrap().permissions().mode() & 0o111;
            for file in ["scripts/run.sh", "SKILL.md", "references/deep/a.md"] {
                assert_eq!(
                    mode(staged.path().join(file)),
                    mode(extracted.path().join(file)),
                    "{file}"
                );
            }
            assert_ne!(mode(staged.path().join("scripts/run.sh")), 0);
        }
    }

    #[test]
    fn what_an_archive_would_refuse_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let skill = demo(dir.path());
        let files = super::super::pack::list_files(&skill).unwrap();
        let staging = dir.path().join("s");
        let tight = Limits {
            max_total_bytes: 10,
            ..Limits::default()
        };
        let err = stage_files(&skill, "demo", &files, &staging, &tight).unwrap_err();
        assert!(
            matches!(
                err,
                StageError::Refused {
                    refusal: Refusal::TooLarge { .. },
                    ..
                }
            ),
            "{err}"
        );
        let few = Limits {
            max_entries: 2,
            ..Limits::default()
        };
        let err = stage_files(&skill, "demo", &files, &staging, &few).unwrap_err();
        assert!(err.to_string().contains("refusing"), "{err}");
        // Names that fold onto each other, as on a case-insensitive disk.
        let mut twins = files.clone();
        let mut twin = twins[1].clone();
        twin.relative = twin.relative.to_uppercase();
        twins.push(twin);
        let err = stage_files(&skill, "demo", &twins, &staging, &Limits::default()).unwrap_err();
        assert!(
            matches!(
                err,
                StageError::Refused {
                    refusal: Refusal::Collision { .. },
                    ..
                }
            ),
            "{err}"
        );
        // A file swapped for a link after the listing is not followed.
        #[cfg(unix)]
        {
            std::fs::remove_file(skill.join("references/deep/a.md")).unwrap();
            std::os::unix::fs::symlink("/etc/passwd", skill.join("references/deep/a.md")).unwrap();
            let err =
                stage_files(&skill, "demo", &files, &staging, &Limits::default()).unwrap_err();
            assert!(matches!(err, StageError::Io { .. }), "{err}");
        }
        // Nothing is left in staging by a refusal.
        assert_eq!(std::fs::read_dir(&staging).unwrap().count(), 0);
    }
}
