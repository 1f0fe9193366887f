//! Scanner waivers in `skills.lock` (DESIGN §12): recording one, and
//! applying those that count to a scan. A waiver names a rule, a file and
//! that file's digest: it accepts the rule's findings in that file while
//! the file holds those bytes. Waivers are consent, like grants: a
//! project's count only once the user trusts the project (so a cloned
//! repository cannot pre-waive its own skill); the user's global lock's
//! always count.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::manifest::lock::{Lockfile, Waiver};
use crate::project::Project;
use crate::scan::{Report, Severity};

/// The waivers recorded for one installed skill, and whether they count.
#[derive(Debug, Clone)]
pub(crate) struct Recorded {
    pub waivers: Vec<Waiver>,
    /// Whether they count (a trusted project, or the user's lock).
    pub counts: bool,
}

/// The waivers of the skill installed in `dir`: the project's lock when
/// `dir` is in the project root (`trusted`: whether the user trusts the
/// project), the user's lock when it is in the user root.
pub(crate) fn of_installed(
    dir: &Path,
    project: Option<(&Path, &Path, bool)>,
    dirs: &Dirs,
) -> anyhow::Result<Option<Recorded>> {
    let folder = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let parent = dir.parent();
    let (lock_path, counts) = match project {
        Some((root, lock, trusted)) if parent == Some(root) => (lock.to_path_buf(), trusted),
        _ if parent == Some(dirs.user_root.as_path()) => (Project::global_lock_path(dirs), true),
        _ => return Ok(None),
    };
    let lock = Lockfile::load(&lock_path)?;
    Ok(lock.by_folder(folder).map(|entry| Recorded {
        waivers: entry.waivers.clone(),
        counts,
    }))
}

/// Marks each finding of `report` that a waiver of `recorded` accepts:
/// same rule, same file, and the file's bytes still those waived. Waivers
/// that do not count are said on the finding.
pub(crate) fn apply(report: &mut Report, recorded: &Recorded) {
    let dir = report.dir.clone();
    apply_to(&mut report.findings, recorded, |file| {
        digest_of(&dir.join(file))
    });
}

/// Marks each of `findings` that a waiver of `recorded` accepts, the
/// digest of each file (`sha256:<hex>`) given by `digest_of`.
pub(crate) fn apply_to(
    findings: &mut [crate::scan::Finding],
    recorded: &Recorded,
    digest_of: impl Fn(&str) -> Option<String>,
) {
    for finding in findings {
        if finding.severity != Severity::Block {
            continue;
        }
        let Some(waiver) = recorded
            .waivers
            .iter()
            .find(|w| w.rule == finding.rule && w.file == finding.file)
        else {
            continue;
        };
        let now = digest_of(&finding.file);
        if now.as_deref() != Some(waiver.digest.as_str()) {
            finding.message.push_str(&format!(
                " (the waiver in skills.lock was for other bytes of {}: review it again)",
                finding.file
            ));
            continue;
        }
        match recorded.counts {
            true => finding.waived = Some(waiver.reason.clone()),
            false => finding.message.push_str(
                " (waived in skills.lock, which counts once you trust this project: `skillpkg trust --project`)",
            ),
        }
    }
}

/// `sha256:<hex>` of the file at `path`.
pub(crate) fn digest_of(path: &Path) -> Option<String> {
    crate::store::hash::sha256_file_digest(path).ok()
}

/// Whether `digest` is `sha256:` and 64 lowercase hex digits.
fn is_sha256_digest(digest: &str) -> bool {
    digest.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
}

/// What `scan --waive` asks for.
pub(crate) struct WaiveRequest<'a> {
    pub rule: &'a str,
    /// The skill: an installed entry's name or folder, or a package name
    /// not installed yet.
    pub skill: &'a str,
    pub file: &'a str,
    pub reason: &'a str,
    /// The file's digest, for a skill not installed yet.
    pub digest: Option<&'a str>,
}

/// What was recorded, where.
pub(crate) struct Waived {
    pub skill: String,
    pub digest: String,
    pub lock: PathBuf,
    /// Whether it waits for the package to install.
    pub pending: bool,
}

/// Records the waiver `request` asks for in the lock of `project`,
/// whose skills are installed in `root`.
pub(crate) fn record(
    project: &Project,
    root: &Path,
    dirs: &Dirs,
    request: &WaiveRequest,
) -> anyhow::Result<Waived> {
    if !crate::scan::RULES.iter().any(|r| r.id == request.rule) {
        let known: Vec<&str> = crate::scan::RULES.iter().map(|r| r.id).collect();
        bail!(
            Hinted::new(format!("{} is not a scanner rule", request.rule))
                .hint(format!("the rules are {}", known.join(", ")))
        );
    }
    let file = request.file.trim_start_matches("./");
    if file.is_empty()
        || file.starts_with('/')
        || file.split('/').any(|part| matches!(part, "" | "." | ".."))
    {
        bail!(
            "{}: name a file inside the skill, relative to its folder",
            request.file
        );
    }
    if request.reason.trim().is_empty() {
        bail!("a waiver needs a --reason, which reviewers read in the diff of skills.lock");
    }
    let mut edit = crate::ops::edit::Edit::open(project, dirs)?;
    let name = edit
        .lock
        .get(request.skill)
        .or_else(|| edit.lock.by_folder(request.skill))
        .map(|entry| entry.name.clone());
    let digest = match (&name, request.digest) {
        (Some(name), None) => {
            let folder = name.rsplit('/').next().unwrap_or(name);
            let path = root.join(folder).join(file);
            digest_of(&path).with_context(|| format!("could not read {}", path.display()))?
        }
        (_, Some(digest)) if is_sha256_digest(digest) => digest.to_string(),
        (_, Some(digest)) => bail!(
            "--digest {digest:?} is not a file digest: write sha256: and 64 lowercase hex digits"
        ),
        (None, None) => bail!(
            Hinted::new(format!(
                "{} is not installed here, so its file's digest cannot be read",
                request.skill
            ))
            .hint("give the digest the refused install printed: --digest sha256:…")
        ),
    };
    let waiver = Waiver {
        rule: request.rule.to_string(),
        file: file.to_string(),
        digest: digest.clone(),
        reason: request.reason.trim().to_string(),
    };
    let waivers = match &name {
        Some(name) => {
            let entry = edit
                .lock
                .skills_mut()
                .iter_mut()
                .find(|s| s.name == *name)
                .expect("found above");
            &mut entry.waivers
        }
        None => edit
            .lock
            .pending_waivers
            .entry(request.skill.to_string())
            .or_default(),
    };
    waivers.retain(|w| !(w.rule == waiver.rule && w.file == waiver.file));
    waivers.push(waiver);
    edit.commit()?;
    Ok(Waived {
        skill: name.clone().unwrap_or_else(|| request.skill.to_string()),
        digest,
        lock: project.lock_path.clone(),
        pending: name.is_none(),
    })
}
