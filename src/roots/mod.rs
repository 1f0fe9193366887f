//! Layered discovery: project > user > builtin.
//!
//! A root is a directory of skills, one sub-directory each. Every root is
//! scanned, every skill in it loaded (frontmatter only); a skill name found
//! in several roots resolves to the highest-precedence one, and the others
//! are kept, marked as shadowed, so `list` and `show` can say so.
//!
//! Agents' own folders (`.claude/skills` of the project, `~/.claude/skills`
//! of the user) are read too, below the install root of their layer, so
//! skills other installers put there are visible. A skill there that is
//! the install root's skill (a link resolving to it, or a copy skillpkg
//! made and marked) is listed once; any other of the same name is shadowed.

pub(crate) mod agents;
pub(crate) mod builtin;
mod copies;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::dirs::Dirs;
use crate::skill::Skill;
use crate::skill::cache::FrontmatterCache;
use crate::skill::load::load_skill_in;
use crate::skill::stat::FileStat;

/// Which layer a root is. Ordered by precedence: `Project` wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RootKind {
    /// `<project>/.agents/skills`.
    Project,
    /// `~/.agents/skills` or `SKILLPKG_USER_ROOT`.
    User,
    /// The skills shipped inside the binary.
    Builtin,
}

impl std::fmt::Display for RootKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RootKind::Project => "project",
            RootKind::User => "user",
            RootKind::Builtin => "builtin",
        })
    }
}

/// One root directory.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Root {
    /// Its layer.
    pub kind: RootKind,
    /// Its directory (which may not exist yet).
    pub dir: PathBuf,
    /// For an agent's folder read as a root: the folder, as users know it
    /// (`.claude/skills`); `None` for the layer's install root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_folder: Option<&'static str>,
}

/// The agents' folders read as roots, relative to the project (or, for
/// the user layer, the home directory), below the layer's install root.
pub(crate) const AGENT_FOLDERS: [&str; 1] = [".claude/skills"];

/// What marks a copy skillpkg made of an installed skill in an agent's
/// folder (where a link could not be made): it is that skill.
pub(crate) const COPY_MARKER: &str = ".skillpkg-copy";

/// The roots, highest precedence first: the project's install root and
/// agents' folders (when there is a project, in `project_dir`), the user
/// root and the user's agents' folders, and the builtin root (materialised
/// under the cache on first use).
pub(crate) fn discover_roots(
    project: Option<(PathBuf, &std::path::Path)>,
    dirs: &Dirs,
) -> std::io::Result<Vec<Root>> {
    let mut roots = Vec::new();
    let mut layer = |kind: RootKind, install: PathBuf, base: Option<&std::path::Path>| {
        roots.push(Root {
            kind,
            dir: install.clone(),
            agent_folder: None,
        });
        let canonical = |dir: &std::path::Path| std::fs::canonicalize(dir).ok();
        for (folder, dir) in base
            .into_iter()
            .flat_map(|b| AGENT_FOLDERS.map(|f| (f, b.join(f))))
        {
            // The install root itself, or a link to it, is read once.
            let same =
                dir == install || canonical(&dir).is_some_and(|d| Some(d) == canonical(&install));
            if !same {
                roots.push(Root {
                    kind,
                    dir,
                    agent_folder: Some(folder),
                });
            }
        }
    };
    if let Some((install, project_dir)) = project {
        layer(RootKind::Project, install, Some(project_dir));
    }
    layer(RootKind::User, dirs.user_root.clone(), dirs.home.as_deref());
    roots.push(Root {
        kind: RootKind::Builtin,
        dir: builtin::materialize_builtin(&dirs.cache)?,
        agent_folder: None,
    });
    Ok(roots)
}

/// A skill that could not be loaded, skipped with this warning.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SkippedSkill {
    /// The directory that was skipped.
    pub dir: PathBuf,
    /// The broken rule's identifier.
    pub rule: &'static str,
    /// What is wrong, naming the file.
    pub message: String,
}

impl SkippedSkill {
    /// What was skipped and why, on one line: the message (which names the
    /// file, and the line and column where it can) after the folder when
    /// it does not name one of its files, then the rule.
    pub(crate) fn describe(&self) -> String {
        let dir = self.dir.display().to_string();
        match self.message.starts_with(&dir) {
            true => format!("{} [{}]", self.message, self.rule),
            false => format!("{dir}: {} [{}]", self.message, self.rule),
        }
    }
}

/// `skipped` with each folder once: a link to a folder skipped already
/// (an agent's folder linking to the install root's copy, as `npx skills`
/// makes them) says nothing new.
fn once_each(skipped: Vec<SkippedSkill>) -> Vec<SkippedSkill> {
    let mut seen: Vec<PathBuf> = Vec::with_capacity(skipped.len());
    skipped
        .into_iter()
        .filter(|s| {
            let canonical = std::fs::canonicalize(&s.dir).unwrap_or_else(|_| s.dir.clone());
            let new = !seen.contains(&canonical);
            seen.push(canonical);
            new
        })
        .collect()
}

/// A skill in the set, with where it came from.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Entry {
    /// The skill.
    #[serde(flatten)]
    pub skill: Box<Skill>,
    /// The root it was found in.
    pub root: RootKind,
    /// The agent's folder it was found in, when not the install root
    /// (`.claude/skills`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_folder: Option<&'static str>,
    /// The root whose skill of the same name wins over this one, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shadowed_by: Option<RootKind>,
    /// Turned off by `[install] disabled` (`skillpkg disable`): listed,
    /// but left out of `exec`, `serve` and prompts.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disabled: bool,
}

/// Every skill of every root, precedence applied.
#[derive(Debug, Clone, Default)]
pub(crate) struct SkillSet {
    entries: Vec<Entry>,
    /// Skills that failed to load.
    pub skipped: Vec<SkippedSkill>,
}

impl SkillSet {
    /// The folders of each root, read before anything is loaded (so that
    /// a caller can open the cache meanwhile): one [`Listing`] a root.
    pub(crate) fn list(roots: &[Root]) -> Vec<Listing> {
        roots.iter().map(list_root).collect()
    }

    /// Every skill of `roots` (given highest precedence first) from what
    /// [`SkillSet::list`] read, taking frontmatter from `cache` where it
    /// holds the file as it is, and adding what it parsed to it.
    pub(crate) fn load_listed(
        roots: &[Root],
        listings: Vec<Listing>,
        cache: Option<&FrontmatterCache>,
    ) -> SkillSet {
        let mut set = SkillSet::default();
        for (root, listing) in roots.iter().zip(listings) {
            match listing.0 {
                Ok(dirs) => set.load_root(root, dirs, cache),
                Err(skipped) => set.skipped.extend(skipped),
            }
        }
        set.skipped = once_each(std::mem::take(&mut set.skipped));
        set.entries.sort_by(|a, b| {
            a.skill
                .meta
                .name
                .cmp(&b.skill.meta.name)
                .then(a.root.cmp(&b.root))
        });
        for i in 1..set.entries.len() {
            let (before, after) = set.entries.split_at_mut(i);
            let previous = &before[i - 1];
            if previous.skill.meta.name == after[0].skill.meta.name {
                after[0].shadowed_by = Some(previous.shadowed_by.unwrap_or(previous.root));
            }
        }
        set
    }

    fn load_root(&mut self, root: &Root, names: Vec<OsString>, cache: Option<&FrontmatterCache>) {
        // The folders are the root's children: stat them relative to it.
        let opened = std::fs::File::open(&root.dir).ok();
        let loaded = load_all(&root.dir, &names, cache, opened.as_ref());
        let taken_by = self.first_of_each_name(root, &loaded);
        self.entries.reserve(names.len());
        for ((name, result), taken_by) in names.into_iter().zip(loaded).zip(taken_by) {
            let Some(result) = result else {
                continue; // not a folder
            };
            match (result, taken_by) {
                (Ok(skill), Taken::By(first)) => self.skipped.push(SkippedSkill {
                    message: format!(
                        "{} is also named '{}', like {}; names must be unique within a root",
                        skill.skill_md.display(),
                        skill.meta.name,
                        first.display()
                    ),
                    dir: root.dir.join(&name),
                    rule: "duplicate-name",
                }),
                (Ok(_), Taken::InstalledCopy) => {}
                (Ok(skill), Taken::Takes) => self.entries.push(Entry {
                    skill,
                    root: root.kind,
                    agent_folder: root.agent_folder,
                    shadowed_by: None,
                    disabled: false,
                }),
                (Err(crate::skill::SkillError::MissingSkillMd { .. }), _) => {}
                (Err(e), _) => self.skipped.push(SkippedSkill {
                    dir: root.dir.join(&name),
                    rule: e.rule(),
                    message: e.to_string(),
                }),
            }
        }
    }

    /// Names are unique within a root: of the skills `loaded` (in folder
    /// order) that share a name, the first that is not a copy of an
    /// installed skill takes it and those after it are refused; copies
    /// before it are left out. Found by a stable sort on the names, which
    /// costs less than hashing ten thousand of them.
    fn first_of_each_name(
        &self,
        root: &Root,
        loaded: &[Option<Result<Box<Skill>, crate::skill::SkillError>>],
    ) -> Vec<Taken> {
        let skill = |i: usize| match &loaded[i] {
            Some(Ok(skill)) => skill,
            _ => unreachable!("only loaded skills are sorted"),
        };
        let mut by_name: Vec<usize> = (0..loaded.len())
            .filter(|&i| matches!(loaded[i], Some(Ok(_))))
            .collect();
        by_name.sort_by(|&a, &b| skill(a).meta.name.cmp(&skill(b).meta.name));
        let mut taken = Vec::with_capacity(loaded.len());
        taken.resize_with(loaded.len(), || Taken::Takes);
        for group in by_name.chunk_by(|&a, &b| skill(a).meta.name == skill(b).meta.name) {
            let mut first: Option<usize> = None;
            for &i in group {
                taken[i] = match first {
                    Some(first) => Taken::By(skill(first).skill_md.clone()),
                    None if root.agent_folder.is_some()
                        && self.is_installed_skill(root, skill(i)) =>
                    {
                        Taken::InstalledCopy
                    }
                    None => {
                        first = Some(i);
                        Taken::Takes
                    }
                };
            }
        }
        taken
    }

    /// Whether `skill`, found in the agent's folder `root`, is a skill of
    /// its layer's install root: a link resolving to one, or a copy
    /// skillpkg made and marked that still holds that skill's files (a
    /// marker alone proves nothing: a cloned repository can plant one).
    fn is_installed_skill(&self, root: &Root, skill: &Skill) -> bool {
        if skill.dir.join(COPY_MARKER).is_file() {
            return self.entries.iter().any(|e| {
                e.root == root.kind
                    && e.agent_folder.is_none()
                    && skill.dir.file_name() == e.skill.dir.file_name()
                    && copies::is_copy_of(&skill.dir, &e.skill.dir, COPY_MARKER)
            });
        }
        // Only a link can resolve to an installed skill.
        if !std::fs::symlink_metadata(&skill.dir).is_ok_and(|m| m.file_type().is_symlink()) {
            return false;
        }
        let Ok(canonical) = std::fs::canonicalize(&skill.dir) else {
            return false;
        };
        self.entries.iter().any(|e| {
            e.root == root.kind
                && e.agent_folder.is_none()
                && canonical.file_name() == e.skill.dir.file_name()
                && std::fs::canonicalize(&e.skill.dir).is_ok_and(|dir| dir == canonical)
        })
    }

    /// Every entry, sorted by name then precedence, shadowed ones included.
    pub(crate) fn all(&self) -> &[Entry] {
        &self.entries
    }

    /// The winning entry of each name, sorted by name.
    pub(crate) fn resolved(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.shadowed_by.is_none())
    }

    /// The winning entry of each name that is not disabled, sorted by
    /// name: the skills an agent is given.
    pub(crate) fn active(&self) -> impl Iterator<Item = &Entry> {
        self.resolved().filter(|e| !e.disabled)
    }

    /// Marks disabled every entry whose skill's name `is_disabled` holds for.
    pub(crate) fn disable(&mut self, is_disabled: impl Fn(&str) -> bool) {
        for entry in &mut self.entries {
            entry.disabled = is_disabled(&entry.skill.meta.name);
        }
    }

    /// Every entry with this name, winner first.
    pub(crate) fn named(&self, name: &str) -> Vec<&Entry> {
        self.entries
            .iter()
            .filter(|e| e.skill.meta.name == name)
            .collect()
    }
}

/// What a loaded skill's name means for it within its root.
enum Taken {
    /// It is the first with that name: it is listed.
    Takes,
    /// An earlier skill of the root (whose SKILL.md this is) has the name.
    By(PathBuf),
    /// A copy or link of an installed skill, left out.
    InstalledCopy,
}

/// The names of the folders in one root, sorted, or why it is not read
/// (`None` inside when there is no such folder).
#[derive(Debug)]
pub(crate) struct Listing(Result<Vec<OsString>, Option<SkippedSkill>>);

fn list_root(root: &Root) -> Listing {
    if root.kind != RootKind::Builtin && crate::fsutil::owned_by_someone_else(&root.dir) {
        return Listing(Err(Some(SkippedSkill {
            dir: root.dir.clone(),
            rule: "foreign-owner",
            message: format!(
                "another user owns the {} root {}; its skills are not loaded",
                root.kind,
                root.dir.display()
            ),
        })));
    }
    let mut names = match child_names(&root.dir) {
        Ok(names) => names,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Listing(Err(None)),
        Err(e) => {
            return Listing(Err(Some(SkippedSkill {
                dir: root.dir.clone(),
                rule: "io",
                message: format!(
                    "could not read the {} root {}: {e}",
                    root.kind,
                    root.dir.display()
                ),
            })));
        }
    };
    // Siblings: their names decide the order. Paths are made by the
    // threads that load them.
    names.sort_unstable();
    Listing(Ok(names))
}

/// The names in the folder `dir` that do not start with a dot, in the
/// order the file system gives them: read straight from the directory
/// stream, without the `DirEntry` and path the standard library makes for
/// each of ten thousand entries.
#[cfg(unix)]
fn child_names(dir: &Path) -> std::io::Result<Vec<OsString>> {
    use rustix::fs::{Mode, OFlags};
    use std::os::unix::ffi::OsStringExt as _;
    let fd = rustix::fs::open(
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let mut stream = rustix::fs::Dir::read_from(&fd)?;
    let mut names = Vec::new();
    while let Some(entry) = stream.read() {
        let entry = entry?;
        let name = entry.file_name().to_bytes();
        if !name.starts_with(b".") {
            names.push(OsString::from_vec(name.to_vec()));
        }
    }
    Ok(names)
}

#[cfg(not(unix))]
fn child_names(dir: &Path) -> std::io::Result<Vec<OsString>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name();
        if !name.to_string_lossy().starts_with('.') {
            names.push(name);
        }
    }
    Ok(names)
}

/// The skill in the folder `name` of `root_dir`, or `None` when that is
/// not a folder (symlinks followed).
fn load_folder(
    root_dir: &Path,
    name: &OsString,
    cache: Option<&FrontmatterCache>,
    root: Option<&std::fs::File>,
) -> Option<Result<Box<Skill>, crate::skill::SkillError>> {
    let path = root_dir.join(name);
    // Relative to the open root: a look-up of two names, not the path.
    let stat = match root {
        #[cfg(unix)]
        Some(root) => FileStat::at(root, Path::new(name)),
        _ => FileStat::of_path(&path),
    };
    let stat = stat.ok().filter(|s| s.is_dir)?;
    // Boxed: ten thousand skills are moved several times before they
    // are listed, and a box moves as a pointer.
    Some(load_skill_in(&path, Some(&stat), cache, root).map(Box::new))
}

/// Loads skills from many directories, spread over the available cores:
/// discovery is dominated by opening files and parsing small YAML documents.
fn load_all(
    root_dir: &Path,
    dirs: &[OsString],
    cache: Option<&FrontmatterCache>,
    root: Option<&std::fs::File>,
) -> Vec<Option<Result<Box<Skill>, crate::skill::SkillError>>> {
    crate::parallel::map_slice(dirs, 64, |d| load_folder(root_dir, d, cache, root))
}
