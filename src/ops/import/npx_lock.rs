//! The locks `npx skills` writes: where they are, and what they hold.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

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
pub(super) const GLOBAL_LOCK: &str = ".skill-lock.json";

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
