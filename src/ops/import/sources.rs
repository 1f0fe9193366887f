//! What each entry of a lock becomes in `skills.toml`: a git dependency
//! or a path dependency, and the skills below a local source.

use super::npx_lock::NpxEntry;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::dirs::Dirs;
use crate::manifest::{DependencySpec, DetailedSpec};
use crate::ops::install::InstallOptions;
use crate::ops::install::repo::{RepoRequest, list_repo};
use crate::project::Project;

/// Where a dependency comes from, in a few words.
pub(super) fn describe(spec: &DependencySpec) -> String {
    let DependencySpec::Detailed(d) = spec else {
        return String::new();
    };
    match (&d.git, &d.path) {
        (Some(git), _) => {
            let mut text = git.clone();
            if let Some(subdir) = &d.subdir {
                text.push_str(&format!(" ({subdir})"));
            }
            if let Some(rev) = &d.rev {
                text.push_str(&format!(" at {rev}"));
            }
            text
        }
        (None, Some(path)) => path.clone(),
        (None, None) => String::new(),
    }
}

/// The dependency that stands for `entry`, or why there is none.
pub(super) fn spec_of(
    project: &Project,
    dirs: &Dirs,
    name: &str,
    entry: &NpxEntry,
    lock_dir: &Path,
    options: InstallOptions,
    local: &mut LocalSkills,
) -> anyhow::Result<Result<DependencySpec, String>> {
    let folder = entry
        .skill_path
        .as_deref()
        .map(|p| match p.rsplit_once('/') {
            Some((dir, _)) => dir.trim_matches('/').to_string(),
            None => String::new(),
        });
    let bare = |s: &str| !s.contains(':') && !s.starts_with('.') && !s.starts_with('/');
    let url = match entry.source_type.as_str() {
        "github" if bare(&entry.source) => format!(
            "https://github.com/{}",
            entry.source.trim_end_matches(".git")
        ),
        "github" | "gitlab" | "git" => entry
            .source_url
            .clone()
            .unwrap_or_else(|| entry.source.clone()),
        "local" => {
            return Ok(local_spec(
                project,
                name,
                &entry.source,
                folder,
                lock_dir,
                local,
            ));
        }
        other => {
            return Ok(Err(format!(
                "its source type '{other}' has no skills.toml form"
            )));
        }
    };
    let subdir = match folder {
        Some(folder) => (!folder.is_empty()).then_some(folder),
        // Not recorded: found by name among the repository's skills.
        None => {
            fs_err::create_dir_all(project.staging_dir())?;
            let scratch = crate::fsutil::private_tempdir(".list-", Some(&project.staging_dir()))?;
            let request = RepoRequest {
                url: &url,
                rev: entry.git_ref.as_deref(),
                subdir: None,
                signed_by: &[],
                trusted_root: None,
            };
            let listing = match list_repo(
                &crate::git::Resolver::default(),
                request,
                &dirs.cache,
                options.offline,
                scratch.path(),
            ) {
                Ok(listing) => listing,
                Err(e) => return Ok(Err(format!("its source {url} cannot be read ({e:#})"))),
            };
            match listing.skills.iter().find(|s| s.name == name) {
                Some(skill) => skill.subdir.clone(),
                None => {
                    return Ok(Err(format!(
                        "{} holds no skill named '{name}' now",
                        listing.url
                    )));
                }
            }
        }
    };
    Ok(Ok(DependencySpec::Detailed(DetailedSpec {
        git: Some(url),
        rev: entry.git_ref.clone(),
        subdir,
        ..Default::default()
    })))
}

/// A path dependency on a local source (relative to the lock's folder),
/// recorded relative to the project when it lies inside it. Without the
/// skill's folder (`npx skills` records none for a local source), the
/// skill `name` is looked for in the source as `npx skills` finds skills.
pub(super) fn local_spec(
    project: &Project,
    name: &str,
    source: &str,
    folder: Option<String>,
    lock_dir: &Path,
    local: &mut LocalSkills,
) -> Result<DependencySpec, String> {
    let mut dir = lock_dir.join(source);
    let recorded = folder.filter(|f| !f.is_empty());
    if let Some(folder) = &recorded {
        dir.push(folder);
    }
    let Ok(mut dir) = fs_err::canonicalize(&dir) else {
        return Err(format!("its source {} is gone", dir.display()));
    };
    let holds_skill = |dir: &Path| dir.join("SKILL.md").is_file() || dir.join("skill.md").is_file();
    if !holds_skill(&dir) {
        match recorded {
            None => match local.find(&dir, name) {
                Some(found) => dir = found,
                None => {
                    return Err(format!(
                        "its source {} holds no skill named '{name}' now",
                        dir.display()
                    ));
                }
            },
            Some(_) => return Err(format!("its source {} holds no SKILL.md", dir.display())),
        }
    }
    let project_dir = fs_err::canonicalize(&project.dir).unwrap_or_else(|_| project.dir.clone());
    let path = crate::fsutil::slashed_beneath(&dir, &project_dir);
    Ok(DependencySpec::Detailed(DetailedSpec {
        path: Some(path),
        ..Default::default()
    }))
}

/// The skills of local sources, found once per source: a lock usually
/// takes many skills from one folder.
#[derive(Default)]
pub(super) struct LocalSkills {
    /// Per source folder, each skill folder with the name its `SKILL.md`
    /// gives (`None` when it does not load).
    found: BTreeMap<PathBuf, Vec<(Option<String>, PathBuf)>>,
}

impl LocalSkills {
    /// The folder below `source` that holds the skill `name`: one whose
    /// `SKILL.md` names it, else one named after it.
    fn find(&mut self, source: &Path, name: &str) -> Option<PathBuf> {
        let skills = self
            .found
            .entry(source.to_path_buf())
            .or_insert_with(|| skills_below(source));
        let named = skills.iter().find(|(n, _)| n.as_deref() == Some(name));
        let by_folder = || {
            skills
                .iter()
                .find(|(_, f)| f.file_name().is_some_and(|f| f == name))
        };
        named.or_else(by_folder).map(|(_, folder)| folder.clone())
    }
}

/// The folders below `source` holding a `SKILL.md`, searched as `npx
/// skills` and git sources are (`git::discover`: as deep, skipping
/// the same folders), at most 100,000 entries wide, following no links.
pub(super) fn skills_below(source: &Path) -> Vec<(Option<String>, PathBuf)> {
    use crate::git::discover::{MAX_DEPTH, SKIPPED};
    let walk = walkdir::WalkDir::new(source)
        .follow_links(false)
        .max_depth(MAX_DEPTH + 1)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !(e.file_type().is_dir() && SKIPPED.iter().any(|n| e.file_name() == *n)));
    walk.take(100_000)
        .flatten()
        .filter(|e| {
            e.file_type().is_file()
                && crate::skill::document::SKILL_FILE_NAMES
                    .iter()
                    .any(|n| e.file_name() == *n)
        })
        .filter_map(|e| {
            let folder = e.path().parent()?.to_path_buf();
            let name = crate::skill::load::load_skill(&folder)
                .ok()
                .map(|s| s.meta.name);
            Some((name, folder))
        })
        .collect()
}
