//! Project trust: a project's own settings that run code apply only once
//! the user has trusted that project on this machine. Those settings are
//! the `[agent]` table of `skills.toml` and the `grants` recorded in
//! `skills.lock`, and with them the sources `skills.toml` names outside
//! the project ([`super::outside`]), which installs read only once the
//! project is trusted. Trust is kept in the user's config directory (see
//! [`super::trust_file`]), keyed by the project's canonical path, with a
//! hash of those settings: when they change other than through skillpkg,
//! the project is no longer trusted until the user says so again
//! (`skillpkg trust --project`).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use super::outside::{OutsideSource, outside_sources};
use super::trust_file::TrustFile;
use crate::dirs::Dirs;
use crate::manifest::lock::Lockfile;
use crate::manifest::{AgentSection, Manifest};
use crate::project::Project;

/// What a project's trust covers.
#[derive(Debug, Clone)]
pub struct TrustedSettings<'a> {
    /// The `[agent]` table of `skills.toml`.
    pub agent: &'a AgentSection,
    /// `skills.lock`, for the grants it records.
    pub lock: &'a Lockfile,
    /// The sources `skills.toml` names outside the project.
    pub outside: Vec<OutsideSource>,
}

#[derive(Serialize)]
struct Hashed<'a> {
    agent: &'a AgentSection,
    grants: BTreeMap<&'a str, &'a [String]>,
    /// Left out when there are none, so that the records of projects
    /// without them keep their hashes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    outside: Vec<String>,
}

impl<'a> TrustedSettings<'a> {
    /// The settings of the project in `project_dir`, from its `manifest`
    /// and `lock`.
    pub fn of(
        project_dir: &Path,
        manifest: &'a Manifest,
        lock: &'a Lockfile,
    ) -> TrustedSettings<'a> {
        TrustedSettings {
            agent: &manifest.agent,
            lock,
            outside: outside_sources(project_dir, manifest),
        }
    }

    /// Whether the settings that run code (`[agent]`, the lock's grants)
    /// are all unset: an untrusted project then loses nothing in `exec`.
    pub fn runs_nothing(&self) -> bool {
        *self.agent == AgentSection::default() && self.grants().is_empty()
    }

    /// The grants the lock records, by skill.
    fn grants(&self) -> BTreeMap<&'a str, &'a [String]> {
        self.lock
            .skills
            .iter()
            .filter(|s| !s.grants.is_empty())
            .map(|s| (s.name.as_str(), s.grants.as_slice()))
            .collect()
    }

    /// Whether there is anything that needs trust.
    fn is_empty(&self) -> bool {
        self.runs_nothing() && self.outside.is_empty()
    }

    fn hash(&self) -> String {
        let hashed = Hashed {
            agent: self.agent,
            grants: self.grants(),
            outside: self.outside.iter().map(OutsideSource::describe).collect(),
        };
        let text = serde_json::to_string(&hashed).expect("the settings serialise");
        format!("sha256:{}", crate::store::hash::sha256_hex(text.as_bytes()))
    }

    /// What an untrusted project in `dir` has ignored, in words:
    /// `[agent] model, tools in <dir>/skills.toml and the grants in
    /// <dir>/skills.lock`.
    pub fn describe_ignored(&self, dir: &Path) -> String {
        let mut parts = Vec::new();
        let keys = self.agent.keys_set();
        if !keys.is_empty() {
            parts.push(format!(
                "[agent] {} in {}",
                keys.join(", "),
                dir.join(crate::project::MANIFEST_FILE).display()
            ));
        }
        if !self.grants().is_empty() {
            parts.push(format!(
                "the grants in {}",
                dir.join(crate::project::LOCK_FILE).display()
            ));
        }
        parts.join(" and ")
    }
}

fn key(project_dir: &Path) -> anyhow::Result<String> {
    let canonical = fs_err::canonicalize(project_dir)?;
    Ok(canonical.display().to_string())
}

/// Whether the project in `project_dir` is trusted with `settings`. A
/// project without settings that run code needs no trust.
pub fn is_trusted(
    dirs: &Dirs,
    project_dir: &Path,
    settings: &TrustedSettings,
) -> anyhow::Result<bool> {
    if settings.is_empty() {
        return Ok(true);
    }
    let file = TrustFile::load(dirs)?;
    Ok(file.projects.get(&key(project_dir)?) == Some(&settings.hash()))
}

/// Trusts the project in `project_dir` with `settings`.
pub fn trust(dirs: &Dirs, project_dir: &Path, settings: &TrustedSettings) -> anyhow::Result<()> {
    let key = key(project_dir)?;
    let hash = settings.hash();
    TrustFile::update(dirs, |file| {
        file.projects.insert(key, hash);
    })
}

/// Stops trusting the project in `project_dir`. Returns whether it was.
pub fn revoke(dirs: &Dirs, project_dir: &Path) -> anyhow::Result<bool> {
    let key = key(project_dir)?;
    TrustFile::update(dirs, |file| file.projects.remove(&key).is_some())
}

/// Whether a project was trusted before a change made through skillpkg
/// (`add`, `install`, `grants approve`, …), so that it stays trusted with
/// the settings the change leaves. The global project needs no trust.
#[derive(Debug, Clone, Copy)]
pub struct KeptTrust {
    was_trusted: bool,
    global: bool,
}

impl KeptTrust {
    /// Notes whether `project`, with `manifest` and its lock as they are
    /// now, is trusted.
    pub fn before(
        dirs: &Dirs,
        project: &Project,
        manifest: &Manifest,
    ) -> anyhow::Result<KeptTrust> {
        if project.is_global() {
            return Ok(KeptTrust {
                was_trusted: false,
                global: true,
            });
        }
        let lock = Lockfile::load(&project.lock_path)?;
        let settings = TrustedSettings::of(&project.dir, manifest, &lock);
        Ok(KeptTrust {
            was_trusted: is_trusted(dirs, &project.dir, &settings)?,
            global: false,
        })
    }

    /// Refuses to install from `manifest` (as the change leaves it) while
    /// it names sources outside the project that the user has not
    /// consented to: by trusting the project before the change, or by
    /// naming them (their keys in `named`) on this command line. The
    /// global project is the user's own.
    pub fn check_outside(
        &self,
        project: &Project,
        manifest: &Manifest,
        named: &[String],
    ) -> anyhow::Result<()> {
        if self.global {
            return Ok(());
        }
        super::outside::check_consented(
            &project.manifest_path,
            &outside_sources(&project.dir, manifest),
            self.was_trusted,
            named,
        )
    }

    /// Re-records the trust of a project that was trusted, with the
    /// settings `manifest` and `lock` hold after the change.
    pub fn after(
        self,
        dirs: &Dirs,
        project: &Project,
        manifest: &Manifest,
        lock: &Lockfile,
    ) -> anyhow::Result<()> {
        let settings = TrustedSettings::of(&project.dir, manifest, lock);
        if !self.was_trusted || is_trusted(dirs, &project.dir, &settings)? {
            // Nothing to record: no settings that need trust, or the same
            // ones as recorded.
            return Ok(());
        }
        trust(dirs, &project.dir, &settings)
    }
}
