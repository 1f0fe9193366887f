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

/// What a line of [`TrustedSettings::lines`] speaks of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustKind {
    /// A key of the `[agent]` table.
    Setting,
    /// A pattern the lock grants a skill.
    Grant,
    /// A source outside the project that installs may read.
    Outside,
}

impl TrustKind {
    /// The word shown before such a line.
    pub fn label(self) -> &'static str {
        match self {
            TrustKind::Setting => "Setting",
            TrustKind::Grant => "Grants",
            TrustKind::Outside => "Outside",
        }
    }
}

/// One thing trusting a project lets apply, in words, as both
/// `trust --project` and exec's trust prompt show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustLine {
    /// What it speaks of.
    pub kind: TrustKind,
    /// `[agent] sandbox = "off"`, `acme/runner: Bash(git:*)` or
    /// `helper: path = "../helper" (/home/me/helper)`.
    pub text: String,
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

    /// Everything trusting the project lets apply, one item a line: each
    /// key of `[agent]` as `[agent] key = value` (so `sandbox = "off"`,
    /// `network = true` and the variables `env` passes on each stand on a
    /// line of their own), then each pattern the lock grants a skill, the
    /// strongest last, then each source outside the project that installs
    /// may then read.
    pub fn lines(&self) -> Vec<TrustLine> {
        let line = |kind, text| TrustLine { kind, text };
        let mut lines: Vec<TrustLine> = self
            .setting_lines()
            .into_iter()
            .map(|text| line(TrustKind::Setting, text))
            .collect();
        let mut grants: Vec<(&str, &str)> = self
            .grants()
            .into_iter()
            .flat_map(|(skill, patterns)| patterns.iter().map(move |p| (skill, p.as_str())))
            .collect();
        grants.sort_by_key(|(_, pattern)| crate::skill::tool_pattern::strength(pattern));
        lines.extend(
            grants
                .into_iter()
                .map(|(skill, pattern)| line(TrustKind::Grant, format!("{skill}: {pattern}"))),
        );
        lines.extend(
            self.outside
                .iter()
                .map(|source| line(TrustKind::Outside, source.describe())),
        );
        lines
    }

    /// `[agent] key = value` for each key set, values in TOML's spelling.
    fn setting_lines(&self) -> Vec<String> {
        match toml::Value::try_from(self.agent) {
            Ok(toml::Value::Table(agent)) => agent
                .iter()
                .map(|(key, value)| format!("[agent] {key} = {value}"))
                .collect(),
            _ => Vec::new(),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::lock::LockedSkill;
    use crate::manifest::source_id::SourceId;

    fn locked(name: &str, grants: &[&str]) -> LockedSkill {
        LockedSkill {
            name: name.into(),
            version: "1.0.0".into(),
            source: SourceId::registry("https://skills.example.com/index/"),
            checksum: None,
            tree: "h1:x".into(),
            signer: None,
            dependencies: Vec::new(),
            grants: grants.iter().map(|g| g.to_string()).collect(),
        }
    }

    #[test]
    fn every_setting_stands_on_a_line_with_its_value_and_the_strongest_grant_is_last() {
        let manifest = Manifest {
            agent: AgentSection {
                model: Some("scripted:repo-model.json".into()),
                sandbox: Some("off".into()),
                network: Some(true),
                env: vec!["AWS_SECRET_ACCESS_KEY".into(), "GITHUB_TOKEN".into()],
                ..AgentSection::default()
            },
            ..Manifest::default()
        };
        let mut lock = Lockfile::default();
        lock.skills.push(locked("acme/ops", &["Bash", "Read"]));
        lock.skills.push(locked("acme/git", &["Bash(git:*)"]));
        let dir = tempfile::tempdir().unwrap();
        let settings = TrustedSettings::of(dir.path(), &manifest, &lock);
        let shown: Vec<String> = settings
            .lines()
            .iter()
            .map(|line| format!("{} {}", line.kind.label(), line.text))
            .collect();
        insta::assert_snapshot!(shown.join("\n"), @r#"
        Setting [agent] env = ["AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN"]
        Setting [agent] model = "scripted:repo-model.json"
        Setting [agent] network = true
        Setting [agent] sandbox = "off"
        Grants acme/ops: Read
        Grants acme/git: Bash(git:*)
        Grants acme/ops: Bash
        "#);
    }
}
