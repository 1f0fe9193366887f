//! Project trust: a project's own settings that run code apply only once
//! the user has trusted that project on this machine. Those settings are
//! the `[agent]` table of `skills.toml` and the `grants` recorded in
//! `skills.lock`, and with them the sources `skills.toml` names outside
//! the project ([`super::outside`]), which installs read only once the
//! project is trusted. Trust is kept in the user's config directory (see
//! [`super::record`]), keyed by the project's canonical path, with a
//! hash of those settings: when they change other than through skillpkg,
//! the project is no longer trusted until the user says so again
//! (`skillpkg trust --project`). The hash covers, for each lock entry with
//! grants, the version, source and tree the grants were approved for, so
//! a lock edited to point a granted name at other content needs trust
//! again too. Each skill's granted patterns enter the hash sorted and
//! without repeats ([`TrustedSettings::grants`]), so the order a skill
//! declares them in, which a lock written to disk does not keep, never
//! changes it.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use super::outside::{OutsideSource, outside_sources};
use super::record::TrustFile;
use crate::dirs::Dirs;
use crate::manifest::lock::Lockfile;
use crate::manifest::source_id::SourceId;
use crate::manifest::{AgentSection, Manifest};
use crate::project::Project;

/// What a project's trust covers.
#[derive(Debug, Clone)]
pub(crate) struct TrustedSettings<'a> {
    /// The `[agent]` table of `skills.toml`.
    pub agent: &'a AgentSection,
    /// `skills.lock`, for the grants it records.
    pub lock: &'a Lockfile,
    /// The sources `skills.toml` names outside the project.
    pub outside: Vec<OutsideSource>,
}

/// What a line of [`TrustedSettings::lines`] speaks of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TrustKind {
    /// A key of the `[agent]` table.
    Setting,
    /// A pattern the lock grants a skill.
    Grant,
    /// A source outside the project that installs may read.
    Outside,
    /// A scanner finding the lock waives.
    Waiver,
}

impl TrustKind {
    /// The word shown before such a line.
    pub(crate) fn label(self) -> &'static str {
        match self {
            TrustKind::Setting => "Setting",
            TrustKind::Grant => "Grants",
            TrustKind::Outside => "Outside",
            TrustKind::Waiver => "Waives",
        }
    }
}

/// One thing trusting a project lets apply, in words, as both
/// `trust --project` and exec's trust prompt show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TrustLine {
    /// What it speaks of.
    pub kind: TrustKind,
    /// `[agent] sandbox = "off"`, `acme/runner: Bash(git:*)` or
    /// `helper: path = "../helper" (/home/me/helper)`.
    pub text: String,
}

#[derive(Serialize)]
struct Hashed<'a> {
    agent: &'a AgentSection,
    grants: BTreeMap<&'a str, Vec<&'a str>>,
    /// Left out when there are none, so that the records of projects
    /// without them keep their hashes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    outside: Vec<String>,
    /// What each entry with grants holds; left out when there are none,
    /// so that the records of projects without grants keep their hashes.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    granted: BTreeMap<&'a str, Granted<'a>>,
    /// The scanner findings the lock waives, by skill (installed or
    /// pending); left out when there are none, for the same reason.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    waivers: BTreeMap<&'a str, Vec<&'a crate::manifest::lock::Waiver>>,
}

/// What a lock entry's grants were approved for.
#[derive(Serialize)]
struct Granted<'a> {
    version: &'a str,
    source: &'a SourceId,
    tree: &'a str,
}

impl<'a> TrustedSettings<'a> {
    /// What the question whether to trust the project in `dir` shows, one
    /// line each, as `trust --project` lists them: every `[agent]` key
    /// with its value and every grant of the lock that trusting it lets
    /// apply, then the sources outside it installs may then read (the same
    /// answer records them).
    pub(crate) fn question(&self, dir: &Path) -> Vec<String> {
        let shown = |line: &TrustLine| format!("  {} {}", line.kind.label(), line.text);
        let (outside, applied): (Vec<_>, Vec<_>) = self
            .lines()
            .into_iter()
            .partition(|line| line.kind == TrustKind::Outside);
        let mut lines = vec![format!(
            "{} is not trusted on this machine. Trusting it lets {} apply:",
            dir.display(),
            self.describe_ignored(dir)
        )];
        lines.extend(applied.iter().map(shown));
        if !outside.is_empty() {
            lines.push("It also lets installs read these sources outside it:".to_string());
            lines.extend(outside.iter().map(shown));
        }
        lines
    }

    /// The settings of the project in `project_dir`, from its `manifest`
    /// and `lock`.
    pub(crate) fn of(
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
    pub(crate) fn runs_nothing(&self) -> bool {
        *self.agent == AgentSection::default()
            && self.grants().is_empty()
            && self.waivers().is_empty()
    }

    /// The waivers the lock records, by skill: its entries' and those
    /// pending for packages not installed yet, sorted.
    fn waivers(&self) -> BTreeMap<&'a str, Vec<&'a crate::manifest::lock::Waiver>> {
        let entries = self
            .lock
            .skills()
            .iter()
            .map(|s| (s.name.as_str(), &s.waivers));
        let pending = self
            .lock
            .pending_waivers
            .iter()
            .map(|(name, waivers)| (name.as_str(), waivers));
        let mut all: BTreeMap<&'a str, Vec<&'a crate::manifest::lock::Waiver>> = BTreeMap::new();
        for (name, waivers) in entries.chain(pending) {
            all.entry(name).or_default().extend(waivers.iter());
        }
        all.retain(|_, waivers| !waivers.is_empty());
        for waivers in all.values_mut() {
            waivers.sort();
            waivers.dedup();
        }
        all
    }

    /// The grants the lock records, by skill, each skill's patterns
    /// sorted and without repeats. Everything trust is computed over or
    /// shows of the grants comes from here: a lock in memory holds a
    /// skill's patterns in the order its `allowed-tools` declares them, the
    /// lock on disk sorted, and both must give one hash.
    fn grants(&self) -> BTreeMap<&'a str, Vec<&'a str>> {
        self.lock
            .skills()
            .iter()
            .filter(|s| !s.grants.is_empty())
            .map(|s| (s.name.as_str(), normalised(&s.grants)))
            .collect()
    }

    /// Whether there is anything that needs trust.
    fn is_empty(&self) -> bool {
        self.runs_nothing() && self.outside.is_empty()
    }

    /// The version, source and tree of each entry with grants.
    fn granted(&self) -> BTreeMap<&'a str, Granted<'a>> {
        self.lock
            .skills()
            .iter()
            .filter(|s| !s.grants.is_empty())
            .map(|s| {
                let granted = Granted {
                    version: &s.version,
                    source: &s.source,
                    tree: &s.tree,
                };
                (s.name.as_str(), granted)
            })
            .collect()
    }

    /// The hash a trust record holds.
    fn hash(&self) -> String {
        self.hash_of(self.granted())
    }

    /// The hash records written before trust covered what granted entries
    /// hold were made with: the same, without it.
    fn earlier_hash(&self) -> String {
        self.hash_of(BTreeMap::new())
    }

    fn hash_of(&self, granted: BTreeMap<&'a str, Granted<'a>>) -> String {
        let hashed = Hashed {
            agent: self.agent,
            grants: self.grants(),
            outside: self.outside.iter().map(OutsideSource::describe).collect(),
            granted,
            waivers: self.waivers(),
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
    pub(crate) fn lines(&self) -> Vec<TrustLine> {
        let line = |kind, text| TrustLine { kind, text };
        let mut lines: Vec<TrustLine> = self
            .setting_lines()
            .into_iter()
            .map(|text| line(TrustKind::Setting, text))
            .collect();
        let mut grants: Vec<(&str, &str)> = self
            .grants()
            .into_iter()
            .flat_map(|(skill, patterns)| patterns.into_iter().map(move |p| (skill, p)))
            .collect();
        grants.sort_by_key(|(_, pattern)| crate::skill::tool_pattern::strength(pattern));
        lines.extend(
            grants
                .into_iter()
                .map(|(skill, pattern)| line(TrustKind::Grant, format!("{skill}: {pattern}"))),
        );
        for (skill, waivers) in self.waivers() {
            lines.extend(waivers.into_iter().map(|w| {
                let text = format!("{skill}: {} in {} ({})", w.rule, w.file, w.reason);
                line(TrustKind::Waiver, text)
            }));
        }
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
    pub(crate) fn describe_ignored(&self, dir: &Path) -> String {
        let mut parts = Vec::new();
        let keys = self.agent.keys_set();
        if !keys.is_empty() {
            parts.push(format!(
                "[agent] {} in {}",
                keys.join(", "),
                dir.join(crate::project::MANIFEST_FILE).display()
            ));
        }
        if !self.waivers().is_empty() {
            parts.push(format!(
                "the scanner waivers in {}",
                dir.join(crate::project::LOCK_FILE).display()
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

/// `patterns` sorted, each once.
fn normalised(patterns: &[String]) -> Vec<&str> {
    let mut sorted: Vec<&str> = patterns.iter().map(String::as_str).collect();
    sorted.sort_unstable();
    sorted.dedup();
    sorted
}

fn key(project_dir: &Path) -> anyhow::Result<String> {
    let canonical = fs_err::canonicalize(project_dir)?;
    Ok(canonical.display().to_string())
}

/// Whether the project in `project_dir` is trusted with `settings`. A
/// project without settings that run code needs no trust.
pub(crate) fn is_trusted(
    dirs: &Dirs,
    project_dir: &Path,
    settings: &TrustedSettings,
) -> anyhow::Result<bool> {
    if settings.is_empty() {
        return Ok(true);
    }
    let file = TrustFile::load(dirs)?;
    let recorded = file.projects.get(&key(project_dir)?);
    if recorded == Some(&settings.hash()) {
        return Ok(true);
    }
    // A record an earlier skillpkg wrote, before trust covered what each
    // granted entry holds: taken this once, and written again covering
    // it, so that from now on a lock edited to swap an entry needs trust.
    // (A record without granted entries hashes the same either way.)
    let earlier = !settings.granted().is_empty() && recorded == Some(&settings.earlier_hash());
    if earlier {
        // Not written (a read-only config dir): the record is taken all
        // the same, and rewritten next time.
        let _ = trust(dirs, project_dir, settings);
    }
    Ok(earlier)
}

/// Trusts the project in `project_dir` with `settings`.
pub(crate) fn trust(
    dirs: &Dirs,
    project_dir: &Path,
    settings: &TrustedSettings,
) -> anyhow::Result<()> {
    let key = key(project_dir)?;
    let hash = settings.hash();
    TrustFile::update(dirs, |file| {
        file.projects.insert(key, hash);
    })
}

/// The skills whose grants `project`'s lock records but which do not
/// count on this machine, because the project is not trusted (with the
/// settings it has now): none for a trusted or the global project.
pub(crate) fn inactive_lock_grants(dirs: &Dirs, project: &Project) -> anyhow::Result<Vec<String>> {
    if project.is_global() || !project.manifest_path.is_file() {
        return Ok(Vec::new());
    }
    let manifest = Manifest::load(&project.manifest_path)?;
    let lock = Lockfile::load(&project.lock_path)?;
    let settings = TrustedSettings::of(&project.dir, &manifest, &lock);
    let granted: Vec<String> = settings.grants().into_keys().map(str::to_string).collect();
    if granted.is_empty() || is_trusted(dirs, &project.dir, &settings)? {
        return Ok(Vec::new());
    }
    Ok(granted)
}

/// The question a command that runs code asks before trusting a project,
/// with the project's settings as its files hold them now: what a yes
/// trusts is exactly what the question showed.
#[derive(Debug, Clone)]
pub(crate) struct Question {
    /// The project directory.
    pub dir: std::path::PathBuf,
    manifest: Manifest,
    lock: Lockfile,
}

/// The [`Question`] for the project in `dir`.
pub(crate) fn question(dir: &Path) -> anyhow::Result<Question> {
    let manifest_path = dir.join(crate::project::MANIFEST_FILE);
    let manifest = match manifest_path.is_file() {
        true => Manifest::load(&manifest_path)?,
        false => Manifest::default(),
    };
    Ok(Question {
        dir: dir.to_path_buf(),
        manifest,
        lock: Lockfile::load(&dir.join(crate::project::LOCK_FILE))?,
    })
}

impl Question {
    /// The question's lines: what trusting the project lets apply.
    pub(crate) fn lines(&self) -> Vec<String> {
        TrustedSettings::of(&self.dir, &self.manifest, &self.lock).question(&self.dir)
    }

    /// Trusts the project with the settings the question showed.
    pub(crate) fn trust(&self, dirs: &Dirs) -> anyhow::Result<()> {
        trust(
            dirs,
            &self.dir,
            &TrustedSettings::of(&self.dir, &self.manifest, &self.lock),
        )
    }
}

/// Stops trusting the project in `project_dir`. Returns whether it was.
pub(crate) fn revoke(dirs: &Dirs, project_dir: &Path) -> anyhow::Result<bool> {
    let key = key(project_dir)?;
    TrustFile::update(dirs, |file| file.projects.remove(&key).is_some())
}

/// Whether a project was trusted before a change made through skillpkg
/// (`add`, `install`, `grants approve`, …), so that it stays trusted with
/// the settings the change leaves. The global project needs no trust.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeptTrust {
    was_trusted: bool,
    global: bool,
}

impl KeptTrust {
    /// Notes whether `project`, with `manifest` and its lock as they are
    /// now, is trusted.
    pub(crate) fn before(
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

    /// Whether what the project's files held before the change is the
    /// user's consent: the project was trusted, or it is the user's own.
    /// The lock's waivers count only then (DESIGN §11, §12).
    pub(crate) fn consented(&self) -> bool {
        self.global || self.was_trusted
    }

    /// Refuses to install from `manifest` (as the change leaves it) while
    /// it names sources outside the project that the user has not
    /// consented to: by trusting the project before the change, or by
    /// naming them (their keys in `named`) on this command line. The
    /// global project is the user's own.
    pub(crate) fn check_outside(
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
    pub(crate) fn after(
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

    fn dirs(root: &Path) -> Dirs {
        Dirs {
            config: root.join("config"),
            cache: root.join("cache"),
            data: root.join("data"),
            user_root: root.join("user-skills"),
            home: None,
        }
    }

    /// A lock with a granted entry of `version` from `source` with `tree`,
    /// and an entry without grants of `other_version`.
    fn lock(version: &str, source: &str, tree: &str, other_version: &str) -> Lockfile {
        let text = format!(
            "version = 1\n\n[[skill]]\nname = \"acme/runner\"\nversion = \"{version}\"\nsource = \"{source}\"\ntree = \"{tree}\"\ngrants = [\"Bash(echo:*)\"]\n\n[[skill]]\nname = \"acme/plain\"\nversion = \"{other_version}\"\nsource = \"registry+https://a.example/index/\"\ntree = \"h1:p\"\n"
        );
        Lockfile::parse(&text, Path::new("skills.lock")).unwrap()
    }

    const SOURCE: &str = "registry+https://a.example/index/";

    fn settings<'a>(agent: &'a AgentSection, lock: &'a Lockfile) -> TrustedSettings<'a> {
        TrustedSettings {
            agent,
            lock,
            outside: Vec::new(),
        }
    }

    use crate::manifest::lock::LockedSkill;
    use crate::manifest::source_id::SourceId;

    fn locked(name: &str, grants: &[&str]) -> LockedSkill {
        let source = SourceId::registry("https://skills.example.com/index/");
        LockedSkill {
            grants: grants.iter().map(|g| g.to_string()).collect(),
            ..LockedSkill::example(name, "1.0.0", source)
        }
    }

    #[test]
    fn trust_covers_the_version_source_and_tree_of_each_granted_entry() {
        let root = tempfile::tempdir().unwrap();
        let dirs = dirs(root.path());
        let agent = AgentSection::default();
        let trusted = lock("1.0.0", SOURCE, "h1:a", "1.0.0");
        trust(&dirs, root.path(), &settings(&agent, &trusted)).unwrap();
        let is = |lock: Lockfile| is_trusted(&dirs, root.path(), &settings(&agent, &lock)).unwrap();
        assert!(is(lock("1.0.0", SOURCE, "h1:a", "1.0.0")));
        // An entry without grants is not covered.
        assert!(is(lock("1.0.0", SOURCE, "h1:a", "2.0.0")));
        assert!(!is(lock("1.1.0", SOURCE, "h1:a", "1.0.0")));
        let elsewhere = "registry+https://b.example/index/";
        assert!(!is(lock("1.0.0", elsewhere, "h1:a", "1.0.0")));
        assert!(!is(lock("1.0.0", SOURCE, "h1:b", "1.0.0")));
    }

    #[test]
    fn the_order_and_repeats_of_a_skills_grants_leave_trust_as_it_is() {
        let root = tempfile::tempdir().unwrap();
        let dirs = dirs(root.path());
        let agent = AgentSection::default();
        let with = |grants: &[&str]| {
            let mut lock = Lockfile::default();
            lock.skills_mut().push(locked("acme/scanner", grants));
            lock
        };
        let declared = with(&["Read", "Bash(semgrep:*)", "Grep", "Read"]);
        let on_disk = with(&["Bash(semgrep:*)", "Grep", "Read"]);
        assert_eq!(
            settings(&agent, &declared).hash(),
            settings(&agent, &on_disk).hash()
        );
        trust(&dirs, root.path(), &settings(&agent, &declared)).unwrap();
        assert!(is_trusted(&dirs, root.path(), &settings(&agent, &on_disk)).unwrap());
        // A pattern more is another setting.
        let more = with(&["Bash(semgrep:*)", "Grep", "Read", "Write"]);
        assert!(!is_trusted(&dirs, root.path(), &settings(&agent, &more)).unwrap());
    }

    #[test]
    fn a_record_made_before_versions_were_covered_is_taken_once_and_rewritten() {
        let root = tempfile::tempdir().unwrap();
        let dirs = dirs(root.path());
        let agent = AgentSection::default();
        let lock = lock("1.0.0", SOURCE, "h1:a", "1.0.0");
        let settings = settings(&agent, &lock);
        let project = key(root.path()).unwrap();
        let earlier = settings.earlier_hash();
        assert_ne!(earlier, settings.hash());
        TrustFile::update(&dirs, |file| {
            file.projects.insert(project.clone(), earlier);
        })
        .unwrap();
        assert!(is_trusted(&dirs, root.path(), &settings).unwrap());
        let recorded = TrustFile::load(&dirs).unwrap().projects[&project].clone();
        assert_eq!(recorded, settings.hash());
        // From then on, a swapped version needs trust again.
        let swapped = super::tests::lock("1.1.0", SOURCE, "h1:a", "1.0.0");
        let swapped = super::tests::settings(&agent, &swapped);
        assert!(!is_trusted(&dirs, root.path(), &swapped).unwrap());
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
        lock.skills_mut()
            .push(locked("acme/ops", &["Bash", "Read"]));
        lock.skills_mut().push(locked("acme/git", &["Bash(git:*)"]));
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
