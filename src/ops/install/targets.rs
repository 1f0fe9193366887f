//! `[install] targets`: expose installed skills in the folders other
//! agents read (`.claude/skills/<name>`, …; see [`crate::roots::agents`])
//! by relative symlink, or by copy where links fail. An agent that reads
//! the install root itself needs nothing. Only links and copies skillpkg
//! made are ever changed, and those in folders that are no longer targets
//! are taken away.

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::hint::Hinted;
use crate::project::Project;
use crate::roots::agents::{self, Agent};

/// The agents' folders `[install] targets` name, for a project installing
/// into `root`.
#[derive(Debug, Default)]
pub(crate) struct Targets {
    /// The folders to expose installed skills in.
    pub folders: Vec<PathBuf>,
    /// Each of those folders as shown (relative to the project when in
    /// it), with the agents that read it.
    pub linked: Vec<(String, Vec<&'static str>)>,
    /// Targets that need no link, each with why: the agent reads the
    /// install root itself.
    pub notes: Vec<String>,
}

/// Where an agent reads skills for `project`: its project folder, or its
/// user folder for the global project (which installs into the user root).
fn folder_of(agent: &Agent, project: &Project, home: Option<&Path>) -> Option<PathBuf> {
    match project.is_global() {
        false => Some(agent.project_folder(&project.dir)),
        true => home.map(|home| agent.user_folder(home, &agents::config_home(home))),
    }
}

/// The folders of the agents `names` for `project`, which installs into
/// `root`. An unknown name is an error listing the known ones.
pub(crate) fn resolve_targets(
    project: &Project,
    root: &Path,
    names: &[String],
    home: Option<&Path>,
) -> anyhow::Result<Targets> {
    let mut targets = Targets::default();
    for name in names {
        let Some(agent) = agents::agent(name) else {
            bail!(
                Hinted::new(format!(
                    "unknown install target '{name}' in {}",
                    project.manifest_path.display()
                ))
                .hint(format!(
                    "known agents: {}",
                    agents::known_names().join(", ")
                ))
            );
        };
        let Some(folder) = folder_of(agent, project, home) else {
            continue;
        };
        if folder == root {
            targets.notes.push(format!(
                "{} reads {}, where skills are installed: no links needed",
                agent.name,
                project.shown(&folder).display()
            ));
        } else if let Some(at) = targets.folders.iter().position(|f| *f == folder) {
            targets.linked[at].1.push(agent.name);
        } else {
            let shown = project.shown(&folder).display().to_string();
            targets.folders.push(folder);
            targets.linked.push((shown, vec![agent.name]));
        }
    }
    Ok(targets)
}

/// The marker file in a copy skillpkg made (where symlinks fail).
use crate::roots::COPY_MARKER;

/// What is at a skill's place in a target folder.
enum Exposure {
    Missing,
    OurLink,
    OurCopy,
    Foreign,
}

fn exposure(exposed: &Path, link_target: &Path) -> Exposure {
    match std::fs::symlink_metadata(exposed) {
        Err(_) => Exposure::Missing,
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::read_link(exposed) {
            Ok(points_to) if points_to == link_target => Exposure::OurLink,
            _ => Exposure::Foreign,
        },
        Ok(meta) if meta.is_dir() && exposed.join(COPY_MARKER).is_file() => Exposure::OurCopy,
        Ok(_) => Exposure::Foreign,
    }
}

/// Exposes `skill` (a directory of the root) in `target`: a relative
/// symlink, or a marked copy where links fail; a copy is refreshed each
/// run. Returns a warning when something skillpkg did not make is in the way.
pub(crate) fn expose(target: &Path, skill: &Path) -> anyhow::Result<Option<String>> {
    let name = skill.file_name().expect("skills have names");
    let exposed = target.join(name);
    let link_target = relative_path(target, skill);
    match exposure(&exposed, &link_target) {
        Exposure::OurLink => return Ok(None),
        Exposure::OurCopy => remove_exposure(&exposed)?,
        Exposure::Foreign => {
            return Ok(Some(format!(
                "{} exists and skillpkg did not make it; not exposing {} there",
                exposed.display(),
                name.to_string_lossy()
            )));
        }
        Exposure::Missing => {}
    }
    fs_err::create_dir_all(target)?;
    #[cfg(unix)]
    let linked = std::os::unix::fs::symlink(&link_target, &exposed).is_ok();
    // Windows lets only Developer Mode or an administrator make links.
    #[cfg(windows)]
    let linked = std::os::windows::fs::symlink_dir(&link_target, &exposed).is_ok();
    #[cfg(not(any(unix, windows)))]
    let linked = false;
    if !linked {
        copy_tree(skill, &exposed)?;
        fs_err::write(
            exposed.join(COPY_MARKER),
            "copied by skillpkg: edit the skill in the project root\n",
        )?;
    }
    Ok(None)
}

/// Removes skillpkg's exposure of `skill` from `target`, if it made one.
pub(crate) fn unexpose(target: &Path, skill: &Path) -> anyhow::Result<()> {
    let exposed = target.join(skill.file_name().expect("skills have names"));
    if let Exposure::OurLink | Exposure::OurCopy = exposure(&exposed, &relative_path(target, skill))
    {
        remove_exposure(&exposed)?;
    }
    Ok(())
}

fn remove_exposure(exposed: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(exposed)?.file_type().is_symlink() {
        fs_err::remove_file(exposed)
    } else {
        fs_err::remove_dir_all(exposed)
    }
}

/// `to` relative to the directory `from` (both under one project).
pub(crate) fn relative_path(from: &Path, to: &Path) -> PathBuf {
    let from: Vec<_> = from.components().collect();
    let to_parts: Vec<_> = to.components().collect();
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut path = PathBuf::new();
    for _ in common..from.len() {
        path.push("..");
    }
    for part in &to_parts[common..] {
        path.push(part);
    }
    path
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.map_err(std::io::Error::other)?;
        let target = to.join(entry.path().strip_prefix(from).expect("under from"));
        if entry.file_type().is_dir() {
            fs_err::create_dir_all(&target)?;
        } else {
            fs_err::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// Takes away the links (and marked copies) skillpkg made of the skills
/// of `old_lock` and `installed` in agents' folders that are no longer
/// targets. A folder that resolves outside the project is left alone.
pub(super) fn take_back_former_exposures(
    project: &Project,
    root: &Path,
    targets: &[std::path::PathBuf],
    old_lock: &crate::manifest::lock::Lockfile,
    installed: &[crate::manifest::lock::LockedSkill],
) -> anyhow::Result<()> {
    // Only folders skillpkg exposed skills in (as recorded by the last
    // install here): a link another tool made the same way, such as
    // `npx skills`' `.claude/skills/<name>` link, is not skillpkg's to take.
    let record = project.state_dir().join(EXPOSED_IN);
    let recorded = std::fs::read_to_string(&record).unwrap_or_default();
    for folder in recorded.lines().map(std::path::PathBuf::from) {
        if !folder.is_absolute() || folder == root || targets.contains(&folder) {
            continue;
        }
        if !folder.is_dir() || project.check_inside(&folder, "an agent's folder").is_err() {
            continue;
        }
        for skill in old_lock.skills().iter().chain(installed) {
            unexpose(&folder, &root.join(skill.folder()))?;
        }
    }
    let now: String = targets
        .iter()
        .map(|t| format!("{}\n", t.display()))
        .collect();
    if now != recorded {
        crate::fsutil::ignore_in_git(&project.state_dir())?;
        crate::fsutil::write_cache_file(&record, now.as_bytes())?;
    }
    let placed = targets.iter().flat_map(|folder| {
        installed.iter().filter_map(move |skill| {
            let exposed = folder.join(skill.folder());
            let link_target = relative_path(folder, &root.join(skill.folder()));
            match exposure(&exposed, &link_target) {
                Exposure::OurLink | Exposure::OurCopy => Some(exposed),
                Exposure::Missing | Exposure::Foreign => None,
            }
        })
    });
    record_placed(project, placed.collect(), false)
}

/// The file in `.skillpkg/` that lists each link and copy skillpkg placed
/// in an agent's folder, one absolute path a line: `verify` tells a link
/// of its own that was pointed elsewhere from another tool's by it.
const PLACED: &str = "placed";

/// The links and copies skillpkg placed in agents' folders, as the last
/// install (or `verify --fix`) recorded them. The record lives in the
/// project's `.skillpkg/`, which a cloned repository could plant: it only
/// ever makes a symlink count as skillpkg's, and replacing a symlink loses
/// nothing it points to.
pub(crate) fn placed(project: &Project) -> std::collections::BTreeSet<PathBuf> {
    std::fs::read_to_string(project.state_dir().join(PLACED))
        .unwrap_or_default()
        .lines()
        .map(PathBuf::from)
        .filter(|path| path.is_absolute())
        .collect()
}

/// Records `entries` as placed by skillpkg: in place of the record, or
/// with `merge` beside what it holds.
pub(crate) fn record_placed(
    project: &Project,
    entries: std::collections::BTreeSet<PathBuf>,
    merge: bool,
) -> anyhow::Result<()> {
    let before = placed(project);
    let after = match merge {
        true => before.iter().cloned().chain(entries).collect(),
        false => entries,
    };
    if after == before {
        return Ok(());
    }
    let text: String = after
        .iter()
        .map(|entry| format!("{}\n", entry.display()))
        .collect();
    crate::fsutil::ignore_in_git(&project.state_dir())?;
    crate::fsutil::write_cache_file(&project.state_dir().join(PLACED), text.as_bytes())?;
    Ok(())
}

/// The file in `.skillpkg/` that lists the folders the last install
/// exposed skills in, one absolute path a line.
const EXPOSED_IN: &str = "exposed-in";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_out_of_the_target() {
        let p = relative_path(
            Path::new("/p/.claude/skills"),
            Path::new("/p/.agents/skills/x"),
        );
        assert_eq!(p, PathBuf::from("../../.agents/skills/x"));
    }
}
