//! `import`: takes over the skills another installer put in place.
//!
//! `npx skills` records what it installed in `skills-lock.json` (a
//! project's) or `~/.agents/.skill-lock.json` (the user's; under
//! `$XDG_STATE_HOME/skills/` when that is set). Each entry
//! becomes a `skills.toml` dependency — a git dependency for `github`,
//! `gitlab` and `git` sources, a path dependency for `local` ones — and
//! one install locks them all. A skill already in the install root is
//! taken over only when its files are exactly what its source holds now,
//! as `npx skills` copies a source (without the files it never copies:
//! [`NPX_SKIPPED_FILES`], [`NPX_SKIPPED_FOLDERS`]); the install then puts
//! the source's files in place. Any other is left out, untouched, with
//! what the user can do: for a git source, install it from there; else
//! the command that adopts the copy. A hint never makes a skill that
//! comes from a git repository a path dependency.
//!
//! Folders placed by hand have no lock to read. `--from DIR --adopt`
//! makes each the source of a path dependency: the folder moves to the
//! project's `skills/<name>`, is installed from there into the install
//! root byte for byte, and a link takes its old place, pointing at the
//! installed skill. Its files stay the project's own (a path dependency,
//! which `remove` never deletes), and the lock pins them as they are.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use serde::Deserialize;

use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::manifest::lock::Lockfile;
use crate::manifest::{DependencySpec, DetailedSpec, Manifest};
use crate::ops::consent::outside::outside_dependency;
use crate::ops::install::repo::{RepoRequest, list_repo};
use crate::ops::install::{Change, InstallOptions, add_dependencies, source_files};
use crate::project::Project;

/// The file `npx skills` writes in a project.
pub const PROJECT_LOCK: &str = "skills-lock.json";

/// Where `npx skills` (1.7.4, `getSkillLockPath`) keeps the lock of the
/// user's skills: `$XDG_STATE_HOME/skills/.skill-lock.json` when that
/// variable is set, else `~/.agents/.skill-lock.json`. None without
/// either.
pub fn global_lock(home: Option<&Path>) -> Option<PathBuf> {
    let state = std::env::var_os(crate::env_vars::XDG_STATE_HOME).filter(|v| !v.is_empty());
    match state {
        Some(state) => Some(PathBuf::from(state).join("skills").join(GLOBAL_LOCK)),
        None => home.map(|home| home.join(".agents").join(GLOBAL_LOCK)),
    }
}

/// The name of the lock `npx skills` keeps of the user's skills.
const GLOBAL_LOCK: &str = ".skill-lock.json";

/// `skills-lock.json` (version 1) and `.skill-lock.json` (version 3): the
/// fields both share, and the ones import reads.
#[derive(Debug, Deserialize)]
pub struct NpxLock {
    /// The skills, by name.
    #[serde(default)]
    pub skills: BTreeMap<String, NpxEntry>,
}

/// One skill of an `npx skills` lock.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NpxEntry {
    /// `owner/repo` for GitHub, a URL, or a local path.
    pub source: String,
    /// The URL, for git and GitLab sources (and every source in the
    /// global lock).
    pub source_url: Option<String>,
    /// The branch or tag asked for.
    #[serde(rename = "ref")]
    pub git_ref: Option<String>,
    /// `github`, `gitlab`, `git`, `local`, `well-known`, …
    pub source_type: String,
    /// The skill's `SKILL.md` inside the source.
    pub skill_path: Option<String>,
}

/// Reads the text of an `npx skills` lock (either version), as `import`
/// reads it; public for the `npx_lock` fuzz target.
pub fn parse_npx_lock(text: &str) -> serde_json::Result<NpxLock> {
    serde_json::from_str(text)
}

/// The files `npx skills` (1.7.4: `EXCLUDE_FILES` of `copyDirectory`)
/// never copies from a source into an install, at any depth.
pub const NPX_SKIPPED_FILES: &[&str] = &["metadata.json"];

/// The folders `npx skills` (1.7.4: `EXCLUDE_DIRS` of `copyDirectory`)
/// never copies from a source into an install, at any depth.
pub const NPX_SKIPPED_FOLDERS: &[&str] = &[".git", "__pycache__", "__pypackages__"];

/// A skill left out of the manifest.
#[derive(Debug, Clone)]
pub struct LeftOut {
    /// Its name.
    pub name: String,
    /// Why.
    pub reason: String,
    /// What the user can do about it (empty: nothing to say).
    pub hint: String,
}

/// What an import did.
#[derive(Debug, Default)]
pub struct Imported {
    /// The skills now in `skills.toml`, with where they come from.
    pub added: Vec<(String, String)>,
    /// The skills `skills.toml` named already, left as they were.
    pub already: Vec<String>,
    /// The skills left out, untouched.
    pub left_out: Vec<LeftOut>,
    /// What the install changed.
    pub changes: Vec<Change>,
    /// Copies in agents' folders now linked to the installed skills.
    pub relinked: Vec<PathBuf>,
}

/// Reads the `npx skills` lock at `lock_file`, adds a dependency for each
/// skill it can take over, and installs them in one run. A source outside
/// the project is read only with `allow_outside`: the lock may be a cloned
/// repository's (DESIGN §11).
pub fn import_lock(
    project: &Project,
    dirs: &Dirs,
    lock_file: &Path,
    allow_outside: bool,
    options: InstallOptions,
) -> anyhow::Result<Imported> {
    let text = match fs_err::read_to_string(lock_file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            Hinted::new(format!("there is no {}", lock_file.display()))
                .hint("`npx skills add` writes it; for folders without a lock, `skillpkg import --from DIR` lists what --adopt would take over")
        ),
        Err(e) => return Err(e.into()),
    };
    let lock = parse_npx_lock(&text)
        .with_context(|| format!("{} is not a lock `npx skills` writes", lock_file.display()))?;
    let lock_dir = lock_file.parent().unwrap_or(Path::new("."));
    let manifest = Manifest::load(&project.manifest_path)?;
    let root = project.skill_root(manifest.install_root())?;
    let managed = Lockfile::load(&project.lock_path)?;
    let mut imported = Imported::default();
    let mut specs = Vec::new();
    let mut local = LocalSkills::default();
    let mut outside = Vec::new();
    let mut npx_copies_in_root = Vec::new();
    for (name, entry) in &lock.skills {
        if manifest.skills.contains_key(name) {
            imported.already.push(name.clone());
            continue;
        }
        let folder = root.join(name);
        // Where npx put its copy: the install root, or (`--agent
        // claude-code` alone) the agent's own folder.
        let copy = copy_of(project, &root, name);
        let global = if project.is_global() { " --global" } else { "" };
        // Only a folder in place can be adopted as it is, and never one
        // whose source is a git repository: that would make it a path
        // dependency, cut off from its repository.
        let from_git = matches!(entry.source_type.as_str(), "github" | "gitlab" | "git");
        let takeover = match &copy {
            Some(copy) if !from_git => format!(
                "`skillpkg import{global} --from {} --adopt {}` takes it over as it is",
                crate::hint::shell_path(project.shown(copy.parent().unwrap_or(&root))),
                crate::hint::shell_quote(name)
            ),
            _ => String::new(),
        };
        let spec = match spec_of(project, dirs, name, entry, lock_dir, options, &mut local)? {
            Ok(spec) => spec,
            Err(reason) => {
                imported.left_out.push(LeftOut {
                    name: name.clone(),
                    reason,
                    hint: takeover,
                });
                continue;
            }
        };
        // A lock in the project may not make skillpkg read the user's other
        // folders (DESIGN §11) unless the user says so.
        if !project.is_global()
            && let Some(source) = outside_dependency(&project.dir, name, &spec)
        {
            if !allow_outside {
                imported.left_out.push(LeftOut {
                    name: name.clone(),
                    reason: format!(
                        "its source {} is outside the project, which import reads only with --allow-outside",
                        source.leads_to(),
                    ),
                    hint: takeover,
                });
                continue;
            }
            outside.push(name.clone());
        }
        // Fetched (and checked) now, so that one source out of reach or
        // broken leaves that skill out rather than failing the rest.
        let source = match source_files(project, dirs, name, &spec, options) {
            Ok(source) => source,
            Err(e) => {
                let hint = match from_git {
                    true => format!(
                        "`skillpkg import{global}` takes it over once its source can be installed"
                    ),
                    false => takeover,
                };
                imported.left_out.push(LeftOut {
                    name: name.clone(),
                    reason: format!("its source {} cannot be installed ({e:#})", describe(&spec)),
                    hint,
                });
                continue;
            }
        };
        let managed_here = managed.skills.iter().any(|s| s.folder() == name);
        let foreign = copy
            .as_ref()
            .filter(|copy| !(managed_here && **copy == folder));
        if let Some(copy) = foreign {
            let compared = compare_copy(copy, &source)?;
            if compared == CopyOfSource::Different {
                let shown = project.shown(copy);
                let hint = match from_git {
                    true => format!(
                        "to install what {} holds now instead, move {} aside (it keeps your changes) and run `skillpkg import{global}` again",
                        describe(&spec),
                        shown.display()
                    ),
                    false => takeover,
                };
                imported.left_out.push(LeftOut {
                    name: name.clone(),
                    reason: format!("{} differs from what its source holds now", shown.display()),
                    hint,
                });
                continue;
            }
            if *copy != folder {
                imported.relinked.push(copy.clone());
            } else if compared == CopyOfSource::AsNpxCopies {
                // Not what the install puts there: out of its way.
                npx_copies_in_root.push(copy.clone());
            }
        }
        imported.added.push((name.clone(), describe(&spec)));
        specs.push((name.clone(), spec));
    }
    if !specs.is_empty() {
        imported.changes = install_over(&root, &npx_copies_in_root, || {
            add_dependencies(project, dirs, &specs, &outside, options)
        })?;
    }
    // The copies in agents' folders, the same files as installed now,
    // become links to the installed skills: one skill, in one place.
    imported
        .relinked
        .retain(|copy| relink(copy, &root).unwrap_or(false));
    Ok(imported)
}

/// Runs `install` with the folders `copies` (npx's copies in the install
/// root `root`, which lack only what npx never copies) moved out of its
/// way, into a private folder of `root`; deletes them once it succeeded
/// (the install put their files, and the rest of their source's, in
/// their place), and puts them back if it failed.
fn install_over(
    root: &Path,
    copies: &[PathBuf],
    install: impl FnOnce() -> anyhow::Result<Vec<Change>>,
) -> anyhow::Result<Vec<Change>> {
    if copies.is_empty() {
        return install();
    }
    let aside = crate::fsutil::private_tempdir(".import-", Some(root))
        .with_context(|| format!("could not make a folder in {}", root.display()))?;
    let put_back = |moved: &[&PathBuf]| {
        for copy in moved {
            if let Some(name) = copy.file_name() {
                let _ = fs_err::rename(aside.path().join(name), copy);
            }
        }
    };
    let mut moved = Vec::new();
    for copy in copies {
        let name = copy.file_name().expect("a skill's folder in the root");
        if let Err(e) = fs_err::rename(copy, aside.path().join(name)) {
            put_back(&moved);
            return Err(e.into());
        }
        moved.push(copy);
    }
    match install() {
        Ok(changes) => Ok(changes),
        Err(e) => {
            put_back(&moved);
            Err(e)
        }
    }
}

/// How a copy `npx skills` installed compares with its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CopyOfSource {
    /// The same files, every one of them.
    Exact,
    /// The same files but those `npx skills` never copies
    /// ([`NPX_SKIPPED_FILES`], [`NPX_SKIPPED_FOLDERS`]), which the source
    /// holds and the copy does not.
    AsNpxCopies,
    /// Anything else: edited since, or from another version.
    Different,
}

/// How the folder `copy` compares with the files `source` (path →
/// sha256) holds.
fn compare_copy(copy: &Path, source: &BTreeMap<String, String>) -> std::io::Result<CopyOfSource> {
    let copied = crate::store::hash::file_digests(copy)?;
    if copied == *source {
        return Ok(CopyOfSource::Exact);
    }
    let npx_copies = source.iter().filter(|(path, _)| npx_copies(path));
    match copied.iter().eq(npx_copies) {
        true => Ok(CopyOfSource::AsNpxCopies),
        false => Ok(CopyOfSource::Different),
    }
}

/// Whether `npx skills` copies the file at `relative` (`/`-separated,
/// relative to the skill) into an install.
fn npx_copies(relative: &str) -> bool {
    let parts: Vec<&str> = relative.split('/').collect();
    let (file, folders) = parts.split_last().expect("split yields one part at least");
    !NPX_SKIPPED_FILES.contains(file)
        && !folders
            .iter()
            .any(|f| NPX_SKIPPED_FILES.contains(f) || NPX_SKIPPED_FOLDERS.contains(f))
}

/// The folder (not a link) where a copy of the skill `name` sits: in the
/// install root `root`, else in an agent's folder of the project.
fn copy_of(project: &Project, root: &Path, name: &str) -> Option<PathBuf> {
    let agent_folders = match project.is_global() {
        true => Vec::new(),
        // An agent's folder that leads outside the project (a link a
        // cloned repository planted) is not looked in: relinking would
        // delete there.
        false => crate::roots::AGENT_FOLDERS
            .iter()
            .map(|folder| project.dir.join(folder))
            .filter(|folder| project.check_inside(folder, "an agent's folder").is_ok())
            .map(|folder| folder.join(name))
            .collect(),
    };
    std::iter::once(root.join(name))
        .chain(agent_folders)
        .find(|path| path.symlink_metadata().is_ok_and(|m| m.is_dir()))
}

/// Replaces the folder `copy` with a link to the installed skill of the
/// same name in `root`, when both hold the same files (but those `npx
/// skills` never copies). Whether it did.
fn relink(copy: &Path, root: &Path) -> anyhow::Result<bool> {
    let Some(name) = copy.file_name() else {
        return Ok(false);
    };
    let installed = root.join(name);
    let installed_files = crate::store::hash::file_digests(&installed)?;
    if compare_copy(copy, &installed_files)? == CopyOfSource::Different {
        return Ok(false);
    }
    fs_err::remove_dir_all(copy)?;
    let parent = copy.parent().expect("a folder in an agent's folder");
    Ok(crate::ops::install::targets::expose(parent, &installed)?.is_none())
}

/// Where a dependency comes from, in a few words.
fn describe(spec: &DependencySpec) -> String {
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
fn spec_of(
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
            };
            let listing = match list_repo(request, &dirs.cache, options.offline, scratch.path()) {
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
fn local_spec(
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
    let path = match dir.strip_prefix(&project_dir) {
        Ok(relative) => relative.display().to_string(),
        Err(_) => dir.display().to_string(),
    };
    Ok(DependencySpec::Detailed(DetailedSpec {
        path: Some(path),
        ..Default::default()
    }))
}

/// The skills of local sources, found once per source: a lock usually
/// takes many skills from one folder.
#[derive(Default)]
struct LocalSkills {
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
fn skills_below(source: &Path) -> Vec<(Option<String>, PathBuf)> {
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

/// A folder `--from` found.
#[derive(Debug, Clone)]
pub struct Found {
    /// The skill's name.
    pub name: String,
    /// Its folder.
    pub folder: PathBuf,
    /// Where `--adopt` moves it: its source from then on.
    pub source: PathBuf,
}

/// What `--from` found, and with `--adopt`, did.
#[derive(Debug, Default)]
pub struct Adopted {
    /// The folders taken over (or, without `--adopt`, that would be).
    pub found: Vec<Found>,
    /// The folders left as they are.
    pub left_out: Vec<LeftOut>,
    /// What the install changed.
    pub changes: Vec<Change>,
}

/// The skill folders in `from` that no lock manages (of `names`, when
/// given); with `adopt`, moves each to `skills/<name>` in the project,
/// installs it from there, and links it back where it was.
pub fn adopt_folders(
    project: &Project,
    dirs: &Dirs,
    from: &Path,
    names: &[String],
    adopt: bool,
    options: InstallOptions,
) -> anyhow::Result<Adopted> {
    let manifest = Manifest::load(&project.manifest_path)?;
    let root = project.skill_root(manifest.install_root())?;
    let managed = Lockfile::load(&project.lock_path)?;
    let canonical = |p: &Path| fs_err::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let from_is_root = canonical(from) == canonical(&root);
    let mut adopted = Adopted::default();
    let mut entries: Vec<_> = fs_err::read_dir(from)
        .with_context(|| format!("could not read {}", from.display()))?
        .collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let folder = entry.path();
        // Links are some other folder's skill (the install root's, often).
        if !entry.file_type()?.is_dir() {
            continue;
        }
        let Ok(skill) = crate::skill::load_skill(&folder) else {
            continue;
        };
        let name = skill.meta.name;
        if !names.is_empty() && !names.contains(&name) {
            continue;
        }
        let leave = |reason: String| LeftOut {
            name: name.clone(),
            reason,
            hint: String::new(),
        };
        if manifest.skills.contains_key(&name) || managed.skills.iter().any(|s| s.folder() == name)
        {
            adopted
                .left_out
                .push(leave("skillpkg manages it already".to_string()));
            continue;
        }
        if !crate::skill::name::is_safe_folder_name(&name) {
            adopted
                .left_out
                .push(leave(format!("its name {name:?} cannot name a folder")));
            continue;
        }
        let source = project.dir.join("skills").join(&name);
        if source.symlink_metadata().is_ok() {
            adopted.left_out.push(leave(format!(
                "{} exists already",
                project.shown(&source).display()
            )));
            continue;
        }
        if !from_is_root && root.join(&name).symlink_metadata().is_ok() {
            adopted.left_out.push(leave(format!(
                "the install root holds another {name} in {}",
                project.shown(&root.join(&name)).display()
            )));
            continue;
        }
        adopted.found.push(Found {
            name,
            folder,
            source,
        });
    }
    for name in names {
        if !adopted.found.iter().any(|f| &f.name == name)
            && !adopted.left_out.iter().any(|l| &l.name == name)
        {
            bail!(
                Hinted::new(format!(
                    "{} holds no skill folder named '{name}'",
                    from.display()
                ))
                .hint("leave out the names to list every folder it holds")
            );
        }
    }
    if !adopt || adopted.found.is_empty() {
        return Ok(adopted);
    }
    adopted.changes = move_and_install(project, dirs, &adopted.found, options)?;
    if !from_is_root {
        for found in &adopted.found {
            let parent = found.folder.parent().unwrap_or(from);
            if let Some(warning) =
                crate::ops::install::targets::expose(parent, &root.join(&found.name))?
            {
                bail!(warning);
            }
        }
    }
    Ok(adopted)
}

/// Moves each found folder to its source, then installs them all; puts
/// the folders back if the install fails.
fn move_and_install(
    project: &Project,
    dirs: &Dirs,
    found: &[Found],
    options: InstallOptions,
) -> anyhow::Result<Vec<Change>> {
    let put_back = |moved: &[&Found]| {
        for f in moved {
            let _ = fs_err::rename(&f.source, &f.folder);
        }
    };
    let mut moved = Vec::new();
    let mut specs = Vec::new();
    for f in found {
        let parent = f.source.parent().expect("a folder in skills/");
        if let Err(e) =
            fs_err::create_dir_all(parent).and_then(|()| fs_err::rename(&f.folder, &f.source))
        {
            put_back(&moved);
            return Err(e.into());
        }
        moved.push(f);
        let path = format!("skills/{}", f.name);
        specs.push((
            f.name.clone(),
            DependencySpec::Detailed(DetailedSpec {
                path: Some(path),
                ..Default::default()
            }),
        ));
    }
    match add_dependencies(project, dirs, &specs, &[], options) {
        Ok(changes) => Ok(changes),
        Err(e) => {
            put_back(&moved);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::npx_copies;

    #[test]
    fn npx_skips_metadata_json_and_cache_folders_at_any_depth() {
        for skipped in [
            "metadata.json",
            "rules/metadata.json",
            "__pycache__/x.pyc",
            "scripts/__pypackages__/a/b.py",
            ".git/HEAD",
            "metadata.json/inside.md",
        ] {
            assert!(!npx_copies(skipped), "{skipped}");
        }
        for copied in ["SKILL.md", "rules/check.md", "metadata.jsonc", ".gitignore"] {
            assert!(npx_copies(copied), "{copied}");
        }
    }
}
