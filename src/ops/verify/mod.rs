//! `skillpkg verify`: re-hash installed skills against `skills.lock`, and
//! re-check their signatures offline against the signers it pins.

pub(crate) mod targets;

use anyhow::Context as _;
use serde::Serialize;

use crate::dirs::Dirs;
use crate::manifest::Manifest;
use crate::manifest::lock::Lockfile;
use crate::ops::provenance::check::check;
use crate::ops::provenance::claim::{Claim, OfflineIndexes, Pins, Verdict};
use crate::project::Project;
use crate::store::diff::{FileChange, diff_against_archive};
use crate::store::hash;

/// The state of one locked skill.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Verified {
    /// `org/name`.
    pub name: String,
    /// The locked version.
    pub version: String,
    /// The version as reports show it: `v1.2.0`, or for a path or git
    /// skill without `metadata.version`, its short commit or tree hash.
    #[serde(skip)]
    pub shown_version: String,
    /// `ok`, `modified`, `missing`, `untrusted-signer` or `bad-signature`.
    pub status: &'static str,
    /// Why its signature does not verify, or could not be re-checked
    /// offline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Files that differ from the installed archive (when it is cached).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<(String, FileChange)>,
    /// Its places in agents' folders (`[install] targets`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<targets::Entry>,
}

impl Verified {
    /// Whether the skill is as the lock says.
    pub(crate) fn is_ok(&self) -> bool {
        self.status == "ok"
    }

    /// Its places in agents' folders that differ from what skillpkg put
    /// there.
    pub(crate) fn drifted_targets(&self) -> impl Iterator<Item = &targets::Entry> {
        self.targets.iter().filter(|t| t.state.is_drift())
    }
}

/// The agents' folders the project's `[install] targets` name, checked
/// against its lock; with `everything`, what else is in them too.
pub(crate) fn survey_targets(
    project: &Project,
    dirs: &Dirs,
    everything: bool,
) -> anyhow::Result<targets::Survey> {
    let manifest = Manifest::load(&project.manifest_path)?;
    let lock = exposed_skills(&manifest, Lockfile::load(&project.lock_path)?);
    let root = project.skill_root(manifest.install_root())?;
    let wanted = crate::ops::install::targets_of(project, dirs)?;
    targets::survey(project, &root, &lock, wanted, everything)
}

/// `lock` without the skills `[install] disabled` takes out of the
/// agents' folders.
fn exposed_skills(manifest: &Manifest, mut lock: Lockfile) -> Lockfile {
    lock.skills_mut()
        .retain(|s| !manifest.install.is_disabled(&s.name));
    lock
}

/// `verify --fix`: puts back the links and copies in agents' folders that
/// drifted, from installed skills that match the lock. Returns the
/// entries it restored.
pub(crate) fn fix_targets(project: &Project, dirs: &Dirs) -> anyhow::Result<Vec<String>> {
    let manifest = Manifest::load(&project.manifest_path)?;
    let lock = exposed_skills(&manifest, Lockfile::load(&project.lock_path)?);
    let root = project.skill_root(manifest.install_root())?;
    let wanted = crate::ops::install::targets_of(project, dirs)?;
    let survey = targets::survey(project, &root, &lock, wanted, false)?;
    targets::fix(project, &root, &lock, &survey)
}

/// Checks every skill in the project's lock.
pub(crate) fn verify(project: &Project, dirs: &Dirs) -> anyhow::Result<Vec<Verified>> {
    let manifest = Manifest::load(&project.manifest_path)?;
    let lock = Lockfile::load(&project.lock_path)?;
    let root = project.skill_root(manifest.install_root())?;
    let scratch = crate::fsutil::private_tempdir("skillpkg-verify-", None)
        .context("could not make a scratch folder for the comparison")?;
    let mut results = Vec::new();
    let mut indexes = OfflineIndexes::of(&manifest);
    // Offline, the lock's pins alone: a signer policy guards what comes in.
    let pins = Pins::of_project(&lock, &project.dir, &[]);
    let mut recheck = |skill, dir: &std::path::Path| {
        let installed = Claim::Installed {
            skill,
            dir,
            dirs,
            indexes: &mut indexes,
        };
        check(installed, &pins)
    };
    let placed = targets::survey(
        project,
        &root,
        &exposed_skills(&manifest, lock.clone()),
        crate::ops::install::targets_of(project, dirs)?,
        false,
    )?;
    for skill in lock.skills() {
        let skill_name = skill.name.rsplit('/').next().unwrap_or(&skill.name);
        let dir = root.join(skill_name);
        let org = skill.name.split('/').next().unwrap_or_default();
        let mut result = Verified {
            name: skill.name.clone(),
            version: skill.version.clone(),
            shown_version: skill.shown_version(),
            status: "ok",
            signature: None,
            files: Vec::new(),
            targets: placed
                .entries()
                .filter(|e| e.skill.as_ref() == Some(&skill.name))
                .cloned()
                .collect(),
        };
        if !dir.is_dir() {
            result.status = "missing";
        } else if hash::tree_hash(&dir)? != skill.tree {
            result.status = "modified";
            let cached = skill
                .checksum
                .as_deref()
                .and_then(|c| c.strip_prefix("sha256:"))
                .map(|c| dirs.cache.join("archives").join(format!("{c}.skill")));
            if let Some(archive) = cached.filter(|a| a.is_file()) {
                result.files = diff_against_archive(&dir, &archive, skill_name, scratch.path())?;
            }
            // A folder signature says which files it does not vouch for.
            if result.files.is_empty()
                && let Verdict::Refused(why) = recheck(skill, &dir)
            {
                result.signature = Some(format!("{why:#}"));
            }
        } else if let Some(signer) = skill.signer.as_ref().and_then(|s| s.minisign_key())
            && !lock
                .keys
                .get(org)
                .is_some_and(|keys| keys.iter().any(|key| key == signer))
        {
            result.status = "untrusted-signer";
        } else {
            match recheck(skill, &dir) {
                Verdict::Refused(why) => {
                    result.status = "bad-signature";
                    result.signature = Some(format!("{why:#}"));
                }
                Verdict::Unavailable(why) => {
                    result.signature = Some(format!("not re-checked: {why}"));
                }
                Verdict::Signed(_) | Verdict::Unasked | Verdict::Pending(_) => {}
            }
        }
        results.push(result);
    }
    Ok(results)
}
