//! The skill set `serve --mcp` serves: every skill of the three roots,
//! precedence applied, each file with the sha256 it is served under.
//!
//! - A managed skill (one the project's or the user's `skills.lock` pins)
//!   is served only while its files hash to the lock's tree: the digests
//!   are those the lock verified. One edited since install is left out,
//!   with a warning saying why.
//! - A hand-written skill (and a builtin one) is hashed as it is served.
//! - Only regular files whose canonical path lies inside the skill's
//!   folder are listed; a link leading out (a cloned repository's
//!   `notes -> ~/.ssh/id_ed25519`) is skipped with a warning, as are
//!   devices, FIFOs and sockets. Version-control folders are not served.
//! - The frontmatter is the `SKILL.md`'s own, rendered as JSON verbatim.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::dirs::Dirs;
use crate::manifest::lock::{LockedSkill, Lockfile};
use crate::project::Project;
use crate::roots::RootKind;
use crate::store::hash;

/// The URI scheme skills are served under.
pub(crate) const SCHEME: &str = "skill://";
/// The prefix of the `_meta` keys saying where a skill came from.
pub(crate) const META_PREFIX: &str = "io.modelcontextprotocol.skills/";
/// The most files one skill may have to be served.
const MAX_FILES: usize = 2_000;
/// The most bytes one skill may hold to be served.
const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// One file of a served skill.
#[derive(Debug, Clone)]
pub(crate) struct ServedFile {
    /// `skill://<name>/<path>`.
    pub uri: String,
    /// Its path relative to the skill, `/`-separated.
    pub relative: String,
    /// The file on disk (a link's target, inside the skill).
    pub path: PathBuf,
    /// `sha256:<hex>` of its bytes.
    pub digest: String,
    /// Its size in bytes.
    pub size: u64,
    /// Whether it is a link (to a file inside the skill).
    pub linked: bool,
}

/// One served skill.
#[derive(Debug, Clone)]
pub(crate) struct ServedSkill {
    /// Its name (the URI's last segment before `SKILL.md`).
    pub name: String,
    /// `skill://<name>/SKILL.md`.
    pub uri: String,
    /// Its `SKILL.md` frontmatter, verbatim, as JSON.
    pub frontmatter: serde_json::Map<String, serde_json::Value>,
    /// Its files, `SKILL.md` first, then by path.
    pub files: Vec<ServedFile>,
    /// Where it came from (`_meta`).
    pub meta: serde_json::Map<String, serde_json::Value>,
}

impl ServedSkill {
    /// `skill://<name>`: the skill's root directory resource.
    pub(crate) fn root_uri(&self) -> String {
        format!("{SCHEME}{}", self.name)
    }

    /// The file served at `uri`.
    pub(crate) fn file(&self, uri: &str) -> Option<&ServedFile> {
        self.files.iter().find(|f| f.uri == uri)
    }
}

/// The served set, and what was left out and why.
#[derive(Debug, Clone, Default)]
pub(crate) struct Served {
    /// The skills, by name.
    pub skills: Vec<ServedSkill>,
    /// One line per skill or file left out.
    pub warnings: Vec<String>,
}

impl Served {
    /// The file served at `uri`, of whichever skill.
    pub(crate) fn file(&self, uri: &str) -> Option<&ServedFile> {
        let name = uri.strip_prefix(SCHEME)?.split('/').next()?;
        self.skills
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| s.file(uri))
    }
}

/// The resolved skill set of a project, and the folder of its
/// `skills.toml` (`None` outside any project): what [`Loader`] reads.
pub(crate) struct Loaded {
    /// Every skill of the three roots, precedence applied.
    pub set: crate::roots::SkillSet,
    /// The folder of the project's `skills.toml`.
    pub manifest_dir: Option<PathBuf>,
}

/// Reads the skill set as it is now (the caller's discovery of roots).
pub(crate) type Loader = std::sync::Arc<dyn Fn() -> anyhow::Result<Loaded> + Send + Sync>;

/// The served set of what `loader` reads now; with `only`, just the skill
/// of that name (its files walked and hashed, no other's).
pub(crate) fn load(loader: &Loader, dirs: &Dirs, only: Option<&str>) -> anyhow::Result<Served> {
    let loaded = loader()?;
    let project_lock = match &loaded.manifest_dir {
        Some(dir) => Lockfile::load(&Project::at(dir).lock_path)?,
        None => Lockfile::default(),
    };
    let user_lock = Lockfile::load(&Project::global_lock_path(dirs)).unwrap_or_default();
    let mut served = Served::default();
    if only.is_none() {
        for skipped in &loaded.set.skipped {
            served.warnings.push(skipped.describe());
        }
    }
    for entry in loaded.set.active() {
        let skill = &entry.skill;
        if only.is_some_and(|name| skill.meta.name != name) {
            continue;
        }
        // Only a layer's install root holds what its lock pins; agents'
        // folders and the builtin root are served as they are.
        let lock = match (entry.root, entry.agent_folder) {
            (RootKind::Project, None) => Some(&project_lock),
            (RootKind::User, None) => Some(&user_lock),
            _ => None,
        };
        let locked = lock.and_then(|lock| locked_for(lock, &skill.dir));
        match serve_one(skill, entry.root, locked) {
            Ok((one, warnings)) => {
                served.warnings.extend(warnings);
                served.skills.push(one);
            }
            Err(why) => served.warnings.push(why),
        }
    }
    served.skills.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(served)
}

/// The lock entry of the skill installed in `dir` (its folder is the
/// package name's last segment).
fn locked_for<'l>(lock: &'l Lockfile, dir: &Path) -> Option<&'l LockedSkill> {
    lock.by_folder(dir.file_name()?.to_str()?)
}

/// The skill `skill` as served, with warnings for files left out; an
/// error (the warning) when the skill itself is left out.
fn serve_one(
    skill: &crate::skill::Skill,
    root: RootKind,
    locked: Option<&LockedSkill>,
) -> Result<(ServedSkill, Vec<String>), String> {
    let dir = &skill.dir;
    let shown = dir.display();
    let name = skill.meta.name.clone();
    if !crate::skill::name::is_valid_name(&name) {
        return Err(format!(
            "{shown}: not served: its name {name:?} cannot be a skill:// path segment"
        ));
    }
    let (files, warnings) =
        walk(dir, &name).map_err(|why| format!("{shown}: not served: {why}"))?;
    if let Some(locked) = locked {
        // The tree of what was just read, as `hash::tree_hash` takes it:
        // regular files only, so a link or special file (which no archive
        // installs) makes the skill differ from its lock.
        let plain = warnings.is_empty() && files.iter().all(|f| !f.linked);
        let digests: BTreeMap<String, String> = files
            .iter()
            .map(|f| (f.relative.clone(), f.digest["sha256:".len()..].to_string()))
            .collect();
        let tree = match plain {
            true => hash::tree_hash_of(&digests),
            false => "a tree with links or special files".to_string(),
        };
        if tree != locked.tree {
            return Err(format!(
                "{shown}: not served: {} is pinned by skills.lock to tree {}, and its files now hash to {tree} (edited since install); `skillpkg verify` shows what changed, `skillpkg install` restores it",
                locked.name, locked.tree
            ));
        }
    }
    let skill_md = files
        .iter()
        .find(|f| f.relative == "SKILL.md")
        .ok_or_else(|| format!("{shown}: not served: it has no SKILL.md of its own"))?;
    let frontmatter = frontmatter_of(&skill_md.path)
        .map_err(|why| format!("{shown}: not served: its frontmatter {why}"))?;
    conforms(&frontmatter).map_err(|why| {
        format!(
            "{shown}: not served: {why}, and MCP's Skills extension serves only skills the Agent Skills specification allows (`skillpkg validate {shown}` shows every rule)"
        )
    })?;
    let mut meta = serde_json::Map::new();
    meta.insert(format!("{META_PREFIX}root"), root.to_string().into());
    if let Some(locked) = locked {
        meta.insert(format!("{META_PREFIX}package"), locked.name.clone().into());
        meta.insert(
            format!("{META_PREFIX}version"),
            locked.version.clone().into(),
        );
        meta.insert(
            format!("{META_PREFIX}source"),
            locked.source.to_string().into(),
        );
        meta.insert(format!("{META_PREFIX}tree"), locked.tree.clone().into());
        if let Some(signer) = &locked.signer {
            meta.insert(
                format!("{META_PREFIX}signer"),
                serde_json::to_value(signer).unwrap_or_default(),
            );
        }
    }
    Ok((
        ServedSkill {
            uri: format!("{SCHEME}{name}/SKILL.md"),
            name,
            frontmatter,
            files,
            meta,
        },
        warnings,
    ))
}

/// Whether `frontmatter` keeps the Agent Skills specification's rules on
/// its fields, as the Skills extension requires of a served skill and its
/// clients check of every entry (one broken entry can fail a whole
/// listing for them).
fn conforms(frontmatter: &serde_json::Map<String, serde_json::Value>) -> Result<(), String> {
    use serde_json::Value;
    let chars = |text: &str| text.chars().count();
    match frontmatter.get("name") {
        Some(Value::String(name))
            if chars(name) <= 64 && crate::skill::name::is_valid_name(name) => {}
        _ => return Err("its name is no valid skill name".to_string()),
    }
    match frontmatter.get("description") {
        Some(Value::String(description))
            if !description.trim().is_empty() && chars(description) <= 1024 => {}
        Some(Value::String(description)) => {
            return Err(format!(
                "its description is {} characters, outside 1-1024",
                chars(description)
            ));
        }
        _ => return Err("it has no description".to_string()),
    }
    let string = |key: &str| match frontmatter.get(key) {
        None | Some(Value::String(_)) => Ok(()),
        Some(_) => Err(format!("its {key} is no string")),
    };
    string("license")?;
    string("compatibility")?;
    if let Some(Value::String(compatibility)) = frontmatter.get("compatibility")
        && !(1..=500).contains(&chars(compatibility))
    {
        return Err("its compatibility is outside 1-500 characters".to_string());
    }
    match frontmatter.get("allowed-tools") {
        None | Some(Value::String(_)) => {}
        Some(Value::Array(tools)) if tools.iter().all(Value::is_string) => {}
        Some(_) => return Err("its allowed-tools is no string or list of strings".to_string()),
    }
    match frontmatter.get("metadata") {
        None | Some(Value::Object(_)) => Ok(()),
        Some(_) => Err("its metadata is no mapping".to_string()),
    }
}

/// The frontmatter of the `SKILL.md` at `path`, as JSON.
pub(super) fn frontmatter_of(
    path: &Path,
) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot be read: {e}"))?;
    let frontmatter = crate::skill::document::read_frontmatter_from(file, path)
        .map_err(|e| format!("cannot be read: {e}"))?;
    match crate::skill::yaml::parse_yaml(&frontmatter.yaml) {
        Ok(serde_json::Value::Object(map)) => Ok(map),
        Ok(_) => Err("is no mapping".to_string()),
        Err(e) => Err(format!("is no YAML: {}", e.message)),
    }
}

/// The files of the skill `name` in `dir`: regular files, and links whose
/// canonical target is a regular file inside the skill; what else is
/// there is skipped with a warning.
fn walk(dir: &Path, name: &str) -> Result<(Vec<ServedFile>, Vec<String>), String> {
    let canonical_dir = dir.canonicalize().map_err(|e| e.to_string())?;
    let mut files = Vec::new();
    let mut warnings = Vec::new();
    let mut total: u64 = 0;
    let walk = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !crate::store::names::is_vcs_dir(&e.file_name().to_string_lossy()));
    for entry in walk {
        let entry = entry.map_err(|e| e.to_string())?;
        let kind = entry.file_type();
        if kind.is_dir() {
            continue;
        }
        let relative = crate::fsutil::relative_slashed(entry.path(), dir);
        let path = match kind.is_symlink() {
            false if kind.is_file() => entry.path().to_path_buf(),
            false => {
                warnings.push(format!(
                    "{}: {relative} is not served: it is no regular file",
                    dir.display()
                ));
                continue;
            }
            true => match entry.path().canonicalize() {
                Ok(target) if target.starts_with(&canonical_dir) && target.is_file() => target,
                _ => {
                    warnings.push(format!(
                        "{}: {relative} is not served: it is a link leading out of the skill's folder",
                        dir.display()
                    ));
                    continue;
                }
            },
        };
        let bytes = std::fs::read(&path).map_err(|e| format!("{relative}: {e}"))?;
        total += bytes.len() as u64;
        if files.len() >= MAX_FILES || total > MAX_BYTES {
            return Err(format!(
                "it holds more than {MAX_FILES} files or {MAX_BYTES} bytes"
            ));
        }
        files.push(ServedFile {
            uri: format!("{SCHEME}{name}/{relative}"),
            digest: format!("sha256:{}", hash::sha256_hex(&bytes)),
            size: bytes.len() as u64,
            relative,
            path,
            linked: kind.is_symlink(),
        });
    }
    // SKILL.md first, as listings show it.
    files.sort_by_key(|f| (f.relative != "SKILL.md", f.relative.clone()));
    Ok((files, warnings))
}
