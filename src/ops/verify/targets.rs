//! Agents' folders (`[install] targets`) checked against `skills.lock`:
//! each link and copy skillpkg placed there, and what else is there.
//! `verify --fix` puts back what drifted, from the installed skill in the
//! project root once that matches the lock, and never touches what
//! skillpkg did not place.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::bail;
use serde::Serialize;

use crate::hint::Hinted;
use crate::manifest::lock::{LockedSkill, Lockfile};
use crate::ops::install::targets::{self as placing, Targets};
use crate::project::Project;
use crate::roots::COPY_MARKER;
use crate::store::diff::{FileChange, diff_digests};
use crate::store::hash;

/// What an entry of an agent's folder is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Kind {
    /// A symbolic link.
    Link,
    /// A folder carrying skillpkg's copy marker.
    Copy,
    /// A folder without the marker.
    Folder,
    /// Anything else.
    File,
    /// Nothing: the entry is missing.
    Nothing,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Link => "link",
            Kind::Copy => "copy",
            Kind::Folder => "folder",
            Kind::File => "file",
            Kind::Nothing => "nothing",
        })
    }
}

/// How an entry compares with what skillpkg placed there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum State {
    /// The link leads to the installed skill, or the copy holds the
    /// locked files.
    Ok,
    /// Nothing where a locked skill belongs.
    Missing,
    /// A copy whose files no longer hash to the lock's tree.
    Modified,
    /// A link skillpkg placed that now points elsewhere.
    Redirected,
    /// skillpkg's link, to an installed skill that is not there.
    Dangling,
    /// What skillpkg placed was replaced by something it did not make.
    Replaced,
    /// The folder resolves outside the project.
    Outside,
    /// Not skillpkg's: left alone.
    Foreign,
}

impl State {
    /// Whether the entry differs from what skillpkg placed.
    pub(crate) fn is_drift(self) -> bool {
        !matches!(self, State::Ok | State::Foreign)
    }

    /// Whether `verify --fix` may put it back: it is missing, or it is a
    /// link or a marked copy skillpkg made.
    fn is_fixable(self) -> bool {
        matches!(
            self,
            State::Missing | State::Modified | State::Redirected | State::Dangling
        )
    }
}

impl std::fmt::Display for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            State::Ok => "in sync",
            State::Missing => "missing",
            State::Modified => "modified",
            State::Redirected => "redirected",
            State::Dangling => "dangling",
            State::Replaced => "replaced by something skillpkg did not make, left alone",
            State::Outside => "not checked: the folder resolves outside the project",
            State::Foreign => "not skillpkg's, left alone",
        })
    }
}

/// One entry of an agent's folder.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Entry {
    /// Its path, relative to the project when in it.
    pub path: String,
    /// The locked skill whose place it is, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    /// What it is.
    pub kind: Kind,
    /// How it compares with what skillpkg placed.
    pub state: State,
    /// Where a link points, when that matters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The files of a modified copy that differ from the installed skill.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<(String, FileChange)>,
    #[serde(skip)]
    absolute: PathBuf,
}

/// One agent's folder that installs place skills into.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Folder {
    /// Its path, relative to the project when in it.
    pub folder: String,
    /// The agents that read it.
    pub agents: Vec<&'static str>,
    /// Its entries, sorted by path.
    pub entries: Vec<Entry>,
    #[serde(skip)]
    absolute: PathBuf,
}

/// Every agent's folder of a project, and the targets that need none.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Survey {
    /// The folders skills are placed in.
    pub folders: Vec<Folder>,
    /// Targets that need no folder of their own: the agent reads the
    /// install root.
    pub notes: Vec<String>,
}

impl Survey {
    /// Every entry of every folder.
    pub(crate) fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.folders.iter().flat_map(|f| &f.entries)
    }
}

/// Checks the agents' folders `targets` against `lock`, whose skills are
/// installed in `root`. With `everything`, entries that are no locked
/// skill's place are listed too (as not skillpkg's).
pub(crate) fn survey(
    project: &Project,
    root: &Path,
    lock: &Lockfile,
    targets: Targets,
    everything: bool,
) -> anyhow::Result<Survey> {
    let recorded = placing::placed(project);
    let mut folders = Vec::new();
    for (absolute, (shown, agents)) in targets.folders.into_iter().zip(targets.linked) {
        let outside = project
            .check_inside(&absolute, "an agent's folder")
            .is_err();
        let mut entries = Vec::new();
        for skill in lock.skills() {
            let entry = match outside {
                true => Entry {
                    path: project
                        .shown(&absolute.join(skill.folder()))
                        .display()
                        .to_string(),
                    skill: Some(skill.name.clone()),
                    kind: Kind::Nothing,
                    state: State::Outside,
                    detail: None,
                    files: Vec::new(),
                    absolute: absolute.join(skill.folder()),
                },
                false => check(project, &absolute, root, skill, &recorded)?,
            };
            entries.push(entry);
        }
        if everything && !outside {
            entries.extend(others(project, &absolute, lock));
        }
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        folders.push(Folder {
            folder: shown,
            agents,
            entries,
            absolute,
        });
    }
    Ok(Survey {
        folders,
        notes: targets.notes,
    })
}

/// The entries of `folder` that are no locked skill's place.
fn others(project: &Project, folder: &Path, lock: &Lockfile) -> Vec<Entry> {
    let Ok(read) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let locked: BTreeSet<&str> = lock.skills().iter().map(|s| s.folder()).collect();
    read.flatten()
        .filter(|e| !locked.contains(e.file_name().to_string_lossy().as_ref()))
        .map(|e| {
            let absolute = e.path();
            Entry {
                path: project.shown(&absolute).display().to_string(),
                skill: None,
                kind: kind_of(&absolute),
                state: State::Foreign,
                detail: None,
                files: Vec::new(),
                absolute,
            }
        })
        .collect()
}

fn kind_of(path: &Path) -> Kind {
    match std::fs::symlink_metadata(path) {
        Err(_) => Kind::Nothing,
        Ok(meta) if meta.file_type().is_symlink() => Kind::Link,
        Ok(meta) if meta.is_dir() && path.join(COPY_MARKER).is_file() => Kind::Copy,
        Ok(meta) if meta.is_dir() => Kind::Folder,
        Ok(_) => Kind::File,
    }
}

/// The place of `skill` in `folder`, against the lock.
fn check(
    project: &Project,
    folder: &Path,
    root: &Path,
    skill: &LockedSkill,
    recorded: &BTreeSet<PathBuf>,
) -> anyhow::Result<Entry> {
    let absolute = folder.join(skill.folder());
    let installed = root.join(skill.folder());
    let kind = kind_of(&absolute);
    let mut entry = Entry {
        path: project.shown(&absolute).display().to_string(),
        skill: Some(skill.name.clone()),
        kind,
        state: State::Ok,
        detail: None,
        files: Vec::new(),
        absolute: absolute.clone(),
    };
    let ours = recorded.contains(&absolute);
    entry.state = match kind {
        Kind::Nothing => State::Missing,
        Kind::Link => {
            let points_to = fs_err::read_link(&absolute)?;
            let expected = placing::relative_path(folder, &installed);
            let leads = absolute.exists();
            entry.detail = Some(format!(
                "points to {}{}",
                points_to.display(),
                if leads { "" } else { ", which does not exist" }
            ));
            match (points_to == expected, leads) {
                (true, true) => {
                    entry.detail = None;
                    State::Ok
                }
                (true, false) => State::Dangling,
                (false, _) if ours => State::Redirected,
                (false, _) => State::Foreign,
            }
        }
        Kind::Copy => {
            let mut copied = hash::file_digests(&absolute)?;
            copied.remove(COPY_MARKER);
            if hash::tree_hash_of(&copied) == skill.tree {
                State::Ok
            } else {
                // Which files: against the installed skill, when that is
                // as the lock says.
                let pristine = hash::file_digests(&installed)?;
                if hash::tree_hash_of(&pristine) == skill.tree {
                    entry.files = diff_digests(&pristine, &copied);
                }
                State::Modified
            }
        }
        Kind::Folder | Kind::File if ours => State::Replaced,
        Kind::Folder | Kind::File => State::Foreign,
    };
    Ok(entry)
}

/// Puts back every drifted link and copy of `survey` from the installed
/// skills in `root`, each with a temporary entry renamed into place; a
/// link in the way is replaced, never written through. Refuses, writing
/// nothing, when an installed skill it would copy or link no longer
/// matches the lock. Returns the entries it restored.
pub(crate) fn fix(
    project: &Project,
    root: &Path,
    lock: &Lockfile,
    survey: &Survey,
) -> anyhow::Result<Vec<String>> {
    let skill_of = |entry: &Entry| lock.get(entry.skill.as_deref()?);
    let mut work = Vec::new();
    for folder in &survey.folders {
        for entry in folder.entries.iter().filter(|e| e.state.is_fixable()) {
            if let Some(skill) = skill_of(entry) {
                work.push((folder, entry, skill));
            }
        }
    }
    let mut drifted: Vec<String> = Vec::new();
    for (_, _, skill) in &work {
        let installed = root.join(skill.folder());
        let shown = project.shown(&installed).display().to_string();
        if !drifted.contains(&shown) && hash::tree_hash(&installed)? != skill.tree {
            drifted.push(shown);
        }
    }
    if !drifted.is_empty() {
        bail!(
            Hinted::new(format!(
                "not restoring agents' folders from {}: {} files no longer match skills.lock",
                drifted.join(", "),
                if drifted.len() == 1 { "its" } else { "their" }
            ))
            .hint("`skillpkg verify` names the changed files; `skillpkg install --force` puts the locked files back (edits there are lost), then run `skillpkg verify --fix` again")
        );
    }
    let mut restored = Vec::new();
    let mut placed = BTreeSet::new();
    for (folder, entry, skill) in work {
        project.check_inside(&folder.absolute, "an agent's folder")?;
        let installed = root.join(skill.folder());
        restore(
            &folder.absolute,
            &entry.absolute,
            &installed,
            entry.kind == Kind::Copy,
        )?;
        placed.insert(entry.absolute.clone());
        restored.push(entry.path.clone());
    }
    placing::record_placed(project, placed, true)?;
    Ok(restored)
}

/// Replaces `entry` in `folder` (missing, skillpkg's link, or its marked
/// copy) with a link to `installed`, or with a marked copy where `copy`
/// asks or links fail.
fn restore(folder: &Path, entry: &Path, installed: &Path, copy: bool) -> anyhow::Result<()> {
    let name = entry.file_name().expect("entries have names");
    let temp = |what: &str| {
        let mut file = std::ffi::OsString::from(format!(".skillpkg-{what}-"));
        file.push(name);
        folder.join(file)
    };
    let (fresh, old) = (temp("new"), temp("old"));
    fs_err::create_dir_all(folder)?;
    for leftover in [&fresh, &old] {
        remove_placed(leftover)?;
    }
    #[cfg(unix)]
    let linked = !copy
        && std::os::unix::fs::symlink(placing::relative_path(folder, installed), &fresh).is_ok();
    #[cfg(windows)]
    let linked = !copy
        && std::os::windows::fs::symlink_dir(placing::relative_path(folder, installed), &fresh)
            .is_ok();
    #[cfg(not(any(unix, windows)))]
    let linked = false;
    if !linked {
        copy_regular_files(installed, &fresh)?;
        fs_err::write(
            fresh.join(COPY_MARKER),
            "copied by skillpkg: edit the skill in the project root\n",
        )?;
    }
    match std::fs::symlink_metadata(entry) {
        // A link onto a link: one rename replaces it.
        Ok(meta) if meta.file_type().is_symlink() && linked => {}
        Ok(meta) if meta.file_type().is_symlink() => fs_err::remove_file(entry)?,
        Ok(_) => fs_err::rename(entry, &old)?,
        Err(_) => {}
    }
    fs_err::rename(&fresh, entry)?;
    remove_placed(&old)?;
    Ok(())
}

/// Removes `path` if it exists: a link itself, never what it points to.
fn remove_placed(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => fs_err::remove_dir_all(path),
        Ok(_) => fs_err::remove_file(path),
        Err(_) => Ok(()),
    }
}

/// Copies the folders and regular files of `from` to `to`; anything else
/// (a link) is an error, as no installed skill that matches its lock
/// holds one to follow.
fn copy_regular_files(from: &Path, to: &Path) -> anyhow::Result<()> {
    for entry in walkdir::WalkDir::new(from).follow_links(false) {
        let entry = entry?;
        let target = to.join(entry.path().strip_prefix(from).expect("under from"));
        let kind = entry.file_type();
        if kind.is_dir() {
            fs_err::create_dir_all(&target)?;
        } else if kind.is_file() {
            fs_err::copy(entry.path(), &target)?;
        } else {
            bail!(
                "{} is not a regular file; not copying it into an agent's folder",
                entry.path().display()
            );
        }
    }
    Ok(())
}
