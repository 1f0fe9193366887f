//! Skill grants (DESIGN §11 step 2): which patterns of each skill's
//! `allowed-tools` the user approved, where that approval is kept, and
//! approving or revoking them.
//!
//! Who keeps an approval depends on who keeps the skill. A skill skillpkg
//! installed has it in the `grants` of its entry in `skills.lock`: the
//! project's (counted once the project is trusted, so a cloned repository
//! cannot pre-approve anything) or the user's global lock. A hand-written
//! skill has it in the user's trust file, keyed by its folder and the hash
//! of its files, so any edit withdraws it. A builtin skill ships inside
//! skillpkg, and its grants are skillpkg's own. Only patterns the skill
//! asks for count: a record granting more grants nothing extra.

pub(crate) mod install;
pub(crate) mod remote_approvals;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use serde::Serialize;

use super::record::{SkillApproval, TrustFile};
use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::manifest::lock::Lockfile;
use crate::ops::skills::{LoadedSkills, ProjectSettings};
use crate::project::Project;
use crate::roots::{Entry, RootKind};
use crate::skill::tool_pattern::needs_approval;

/// Who keeps a skill's approval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kept_by", rename_all = "snake_case")]
pub(crate) enum Keeper {
    /// Shipped inside skillpkg.
    Builtin,
    /// Installed by skillpkg: the `grants` of this lock entry.
    Lock {
        /// The lockfile.
        lock: PathBuf,
        /// The entry's name.
        name: String,
    },
    /// Written by hand: the user's trust file.
    HandWritten,
    /// Served by an MCP server: the user's trust file, bound to the
    /// skill's digest set.
    Mcp {
        /// `mcp:<server>`.
        origin: String,
        /// The digest set it is served with now.
        digest_set: String,
    },
}

/// One skill's grants.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SkillGrants {
    /// The skill's name.
    pub name: String,
    /// Its folder.
    pub dir: PathBuf,
    /// Its root (none for a skill an MCP server serves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<RootKind>,
    /// Who keeps its approval.
    #[serde(flatten)]
    pub keeper: Keeper,
    /// What its `allowed-tools` asks to pre-approve.
    pub asks: Vec<String>,
    /// Of those, what the user approved and counts now.
    pub approved: Vec<String>,
    /// Why an approval does not count, when it does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// For an installed skill, the tree its lock entry records: its
    /// grants count while its folder holds it (`exec` checks when the
    /// skill is activated; nothing here hashes it).
    #[serde(skip)]
    pub pinned_tree: Option<String>,
    /// For an MCP-served skill, whether the user approved it as served
    /// now (its digest set): only then do its scripts run.
    #[serde(skip)]
    pub skill_approved: bool,
}

impl SkillGrants {
    /// What it asks for that needs approval and does not count now
    /// (tools that only read never need it).
    pub(crate) fn unapproved(&self) -> Vec<&str> {
        self.asks
            .iter()
            .filter(|p| !self.approved.contains(p) && needs_approval(p))
            .map(String::as_str)
            .collect()
    }
}

/// `asks` ∩ `recorded`, in the order the skill asks.
fn counted(asks: &[String], recorded: &[String]) -> Vec<String> {
    asks.iter()
        .filter(|p| recorded.contains(p))
        .cloned()
        .collect()
}

fn canonical_key(dir: &Path) -> String {
    std::fs::canonicalize(dir)
        .unwrap_or_else(|_| dir.to_path_buf())
        .display()
        .to_string()
}

/// What the survey needs to know of the locks around.
struct Locks<'a> {
    project: &'a ProjectSettings,
    project_lock_path: Option<PathBuf>,
    project_root: Option<&'a Path>,
    global: Lockfile,
    global_path: PathBuf,
    user_root: &'a Path,
    file: TrustFile,
}

impl Locks<'_> {
    /// The grants of one skill of the resolved set.
    fn grants_of(&self, entry: &Entry) -> SkillGrants {
        let skill = &entry.skill;
        let asks = skill.meta.allowed_tools.clone();
        let mut grants = SkillGrants {
            name: skill.meta.name.clone(),
            dir: skill.dir.clone(),
            root: Some(entry.root),
            keeper: Keeper::HandWritten,
            approved: Vec::new(),
            asks,
            note: None,
            pinned_tree: None,
            skill_approved: false,
        };
        if skill.world_writable {
            grants.note = Some("anyone on this machine can change it".into());
            return grants;
        }
        let folder = skill.dir.file_name().map(|n| n.to_string_lossy());
        let in_root = |root: &Path| skill.dir.parent() == Some(root);
        let locked = |lock: &Lockfile, path: &Path| {
            let entry = lock.by_folder(folder.as_deref()?)?;
            Some((
                Keeper::Lock {
                    lock: path.to_path_buf(),
                    name: entry.name.clone(),
                },
                entry.grants.clone(),
                entry.tree.clone(),
            ))
        };
        let managed = match entry.root {
            RootKind::Builtin => {
                grants.keeper = Keeper::Builtin;
                grants.approved = grants.asks.clone();
                return grants;
            }
            RootKind::Project if self.project_root.is_some_and(in_root) => self
                .project_lock_path
                .as_deref()
                .and_then(|path| locked(&self.project.lock, path)),
            RootKind::User if in_root(self.user_root) => locked(&self.global, &self.global_path),
            _ => None,
        };
        match managed {
            Some((keeper, recorded, tree)) => {
                grants.keeper = keeper;
                grants.approved = counted(&grants.asks, &recorded);
                grants.pinned_tree = Some(tree);
                if entry.root == RootKind::Project && !self.project.trusted {
                    grants.note = Some(
                        "the project is not trusted on this machine (`skillpkg trust --project`)"
                            .into(),
                    );
                }
            }
            None => self.hand_written(&mut grants),
        }
        grants
    }

    /// A hand-written skill's approval counts while its files are the ones
    /// approved.
    fn hand_written(&self, grants: &mut SkillGrants) {
        let Some(approval) = self.file.skills.get(&canonical_key(&grants.dir)) else {
            return;
        };
        match crate::store::hash::tree_hash(&grants.dir) {
            Ok(tree) if tree == approval.tree => {
                grants.approved = counted(&grants.asks, &approval.grants);
            }
            _ => {
                grants.note = Some(
                    "its files changed since its grants were approved: approve them again".into(),
                )
            }
        }
    }
}

/// The grants of every resolved skill that asks for any, with what counts
/// now.
pub(crate) fn survey(
    loaded: &LoadedSkills,
    project: &ProjectSettings,
    dirs: &Dirs,
) -> anyhow::Result<Vec<SkillGrants>> {
    let global_path = Project::global_lock_path(dirs);
    let manifest_dir = crate::project::Discovery::from(&project.dir).manifest_dir;
    let locks = Locks {
        project,
        project_lock_path: manifest_dir.map(|dir| Project::at(&dir).lock_path),
        project_root: loaded
            .roots
            .iter()
            .find(|r| r.kind == RootKind::Project)
            .map(|r| r.dir.as_path()),
        global: Lockfile::load(&global_path)?,
        global_path,
        user_root: &dirs.user_root,
        file: TrustFile::load(dirs)?,
    };
    Ok(loaded
        .set
        .resolved()
        .filter(|e| !e.skill.meta.allowed_tools.is_empty())
        .map(|e| locks.grants_of(e))
        .collect())
}

/// The approved grants that count now, by skill name: what `exec` gives
/// the agent.
pub(crate) fn approved(survey: &[SkillGrants]) -> BTreeMap<String, Vec<String>> {
    survey
        .iter()
        .filter(|g| !g.approved.is_empty())
        .map(|g| (g.name.clone(), g.approved.clone()))
        .collect()
}

/// The skill of `survey` that `name` names: a skill name, or a lock name.
fn find<'s>(survey: &'s [SkillGrants], name: &str) -> anyhow::Result<&'s SkillGrants> {
    survey
        .iter()
        .find(|g| g.name == name || matches!(&g.keeper, Keeper::Lock { name: n, .. } if n == name))
        .ok_or_else(|| {
            anyhow::anyhow!(
                Hinted::new(format!("no skill named '{name}' asks for tools"))
                    .hint("`skillpkg grants list` shows the skills that do")
            )
        })
}

/// What approving or revoking did.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct GrantChange {
    /// The skill.
    pub name: String,
    /// The patterns it concerns.
    pub grants: Vec<String>,
    /// Where it was recorded.
    pub recorded_in: PathBuf,
    /// Why it does not count yet, when it does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Approves (`approve`) or withdraws every grant of the skill `name`.
pub(crate) fn set(
    survey: &[SkillGrants],
    name: &str,
    approve: bool,
    dirs: &Dirs,
) -> anyhow::Result<GrantChange> {
    let skill = find(survey, name)?;
    let grants = match approve {
        true => skill.asks.clone(),
        false => Vec::new(),
    };
    let (recorded_in, note) = match &skill.keeper {
        Keeper::Builtin => bail!(
            "{} is built into skillpkg; its grants are always approved",
            skill.name
        ),
        Keeper::Lock { lock, name } => set_in_lock(lock, name, &grants, dirs)?,
        Keeper::HandWritten => {
            let key = canonical_key(&skill.dir);
            let tree = crate::store::hash::tree_hash(&skill.dir)
                .with_context(|| format!("could not read {}", skill.dir.display()))?;
            TrustFile::update(dirs, |file| match approve {
                true => file.skills.insert(
                    key,
                    SkillApproval {
                        tree,
                        grants: grants.clone(),
                    },
                ),
                false => file.skills.remove(&key),
            })?;
            (dirs.config.join(super::record::TRUST_FILE), None)
        }
        Keeper::Mcp { origin, digest_set } => {
            remote_approvals::record(
                dirs,
                origin,
                &skill.name,
                digest_set,
                approve.then_some(&grants),
            )?;
            (dirs.config.join(super::record::TRUST_FILE), None)
        }
    };
    Ok(GrantChange {
        name: skill.name.clone(),
        grants: skill.asks.clone(),
        recorded_in,
        note: note.filter(|_| approve),
    })
}

/// Records `grants` for the entry `name` of the lock at `lock_path`, under
/// the project's lock; a project trusted before stays trusted. Returns the
/// lock's path and, for a project that is not trusted, why the grants do
/// not count yet.
fn set_in_lock(
    lock_path: &Path,
    name: &str,
    grants: &[String],
    dirs: &Dirs,
) -> anyhow::Result<(PathBuf, Option<String>)> {
    let dir = lock_path.parent().expect("a lock is in a folder");
    let project = match lock_path == Project::global_lock_path(dirs) {
        true => Project::global(dirs)?,
        false => Project::at(dir),
    };
    let mut edit = crate::ops::edit::Edit::open(&project, dirs)?;
    let entry = edit
        .lock
        .skills_mut()
        .iter_mut()
        .find(|s| s.name == name)
        .ok_or_else(|| anyhow::anyhow!("{name} is no longer in {}", lock_path.display()))?;
    entry.grants = grants.to_vec();
    let (manifest, lock) = (edit.manifest.clone(), edit.lock.clone());
    edit.commit()?;
    let trusted = project.is_global()
        || crate::ops::consent::project::is_trusted(
            dirs,
            &project.dir,
            &crate::ops::consent::project::TrustedSettings::of(&project.dir, &manifest, &lock),
        )?;
    let note = (!trusted).then(|| {
        "this project is not trusted on this machine, so the grants in its skills.lock count once you run `skillpkg trust --project`".to_string()
    });
    Ok((lock_path.to_path_buf(), note))
}
