//! Project trust: a project's own settings that run code (the `[agent]`
//! table of `skills.toml`) apply only once the user has trusted that
//! project on this machine. Trust is kept in the user's config directory
//! (`trusted-projects.toml`, private to the user), keyed by the project's
//! canonical path, with a hash of those settings: when they change other
//! than through skillpkg, the project is no longer trusted until the user
//! says so again (`skillpkg trust --project`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use crate::dirs::Dirs;
use crate::manifest::{AgentSection, Manifest};

/// The file in the config directory that records trusted projects.
pub const TRUSTED_PROJECTS_FILE: &str = "trusted-projects.toml";

/// The trusted projects, by canonical path, with the hash of the settings
/// each was trusted with.
#[derive(Debug, Default, Serialize, Deserialize)]
struct TrustedProjects {
    #[serde(default)]
    projects: BTreeMap<String, String>,
}

/// What a project's trust covers: the hash of its `[agent]` table.
fn settings_hash(agent: &AgentSection) -> String {
    let text = serde_json::to_string(agent).expect("the agent table serialises");
    format!("sha256:{}", crate::store::hash::sha256_hex(text.as_bytes()))
}

fn file(dirs: &Dirs) -> PathBuf {
    dirs.config.join(TRUSTED_PROJECTS_FILE)
}

fn key(project_dir: &Path) -> anyhow::Result<String> {
    let canonical = fs_err::canonicalize(project_dir)?;
    Ok(canonical.display().to_string())
}

fn load(dirs: &Dirs) -> anyhow::Result<TrustedProjects> {
    let path = file(dirs);
    match std::fs::read_to_string(&path) {
        Ok(text) => toml::from_str(&text)
            .with_context(|| format!("{} is not a list of trusted projects", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(TrustedProjects::default()),
        Err(e) => Err(e).with_context(|| format!("could not read {}", path.display())),
    }
}

fn save(dirs: &Dirs, trusted: &TrustedProjects) -> anyhow::Result<()> {
    let path = file(dirs);
    let text = toml::to_string(trusted)?;
    crate::fsutil::write_atomically(&path, text.as_bytes())
        .with_context(|| format!("could not write {}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

/// Whether the project in `project_dir` is trusted with the settings
/// `manifest` holds now. A project without settings that run code needs
/// no trust.
pub fn is_trusted(dirs: &Dirs, project_dir: &Path, manifest: &Manifest) -> anyhow::Result<bool> {
    if manifest.agent == AgentSection::default() {
        return Ok(true);
    }
    let trusted = load(dirs)?;
    Ok(trusted.projects.get(&key(project_dir)?) == Some(&settings_hash(&manifest.agent)))
}

/// Trusts the project in `project_dir` with the settings `manifest` holds.
pub fn trust(dirs: &Dirs, project_dir: &Path, manifest: &Manifest) -> anyhow::Result<()> {
    let mut trusted = load(dirs)?;
    trusted
        .projects
        .insert(key(project_dir)?, settings_hash(&manifest.agent));
    save(dirs, &trusted)
}

/// Stops trusting the project in `project_dir`. Returns whether it was.
pub fn revoke(dirs: &Dirs, project_dir: &Path) -> anyhow::Result<bool> {
    let mut trusted = load(dirs)?;
    let was = trusted.projects.remove(&key(project_dir)?).is_some();
    save(dirs, &trusted)?;
    Ok(was)
}

/// The names of the settings an untrusted project's `[agent]` table sets,
/// which are ignored.
pub fn ignored_settings(agent: &AgentSection) -> Vec<&'static str> {
    let mut ignored = Vec::new();
    if agent.model.is_some() {
        ignored.push("model");
    }
    if agent.tools.is_some() {
        ignored.push("tools");
    }
    if agent.sandbox.is_some() {
        ignored.push("sandbox");
    }
    if agent.network.is_some() {
        ignored.push("network");
    }
    if !agent.env.is_empty() {
        ignored.push("env");
    }
    ignored
}
