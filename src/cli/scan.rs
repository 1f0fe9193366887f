//! `skillpkg scan [PATH|NAME…]`

use std::path::{Path, PathBuf};

use crate::hint::Hinted;
use crate::scan::{Report, Severity};

use super::{Context, ExitStatus};

/// Scan skills for what they should not do: remote code run, secrets sent,
/// hidden instructions, writes to agents' settings (DESIGN §12). Exits 1
/// when a `block` finding stands.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Skill folders, folders of skills (searched recursively), or names of
    /// skills in the roots [default: every skill the roots resolve].
    targets: Vec<String>,
    /// Print JSON on stdout.
    #[arg(long, conflicts_with = "sarif")]
    json: bool,
    /// Print SARIF 2.1.0 on stdout, for code-scanning dashboards.
    #[arg(long)]
    sarif: bool,
    /// Record in skills.lock that this rule's finding is accepted (with
    /// --skill, --file and --reason), instead of scanning.
    #[arg(long, value_name = "RULE", requires_all = ["skill", "file", "reason"])]
    waive: Option<String>,
    /// The skill a waiver is for: an installed skill, or a package to install.
    #[arg(long, value_name = "NAME", requires = "waive")]
    skill: Option<String>,
    /// The file a waiver is for, relative to the skill.
    #[arg(long, value_name = "PATH", requires = "waive")]
    file: Option<String>,
    /// Why the finding is accepted; reviewers read it in the lock's diff.
    #[arg(long, value_name = "TEXT", requires = "waive")]
    reason: Option<String>,
    /// The file's digest, for a package not installed yet (a refused
    /// install prints it).
    #[arg(long, value_name = "SHA256", requires = "waive")]
    digest: Option<String>,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    if let Some(rule) = &args.waive {
        return waive(&args, rule, context);
    }
    let dirs = skill_dirs(&args.targets, context)?;
    let waivers = Waivers::around(context)?;
    let mut reports = Vec::new();
    for dir in &dirs {
        let mut report = crate::scan::scan_dir(dir)
            .map_err(|e| anyhow::anyhow!("could not scan {}: {e}", dir.display()))?;
        if let Some(recorded) = waivers.for_skill(dir, context)? {
            crate::ops::waivers::apply(&mut report, &recorded);
        }
        reports.push(report);
    }
    let blocked = reports.iter().filter(|r| r.blocks()).count();
    if args.sarif {
        let base = common_base(&dirs, &context.cwd);
        context
            .printer
            .json(&crate::scan::sarif::log(&reports, &base))?;
    } else if args.json {
        context.printer.json(&serde_json::json!({
            "ruleset": crate::scan::RULESET_VERSION,
            "rules": crate::scan::RULES,
            "skills": reports,
        }))?;
    } else {
        print_text(context, &reports);
    }
    Ok(match blocked {
        0 => ExitStatus::Success,
        _ => ExitStatus::Failure,
    })
}

/// One line per finding (info only with `-v`), then a summary.
fn print_text(context: &Context, reports: &[Report]) {
    let verbose = context.printer.is_verbose();
    let mut counts = [0usize; 3];
    for report in reports {
        for f in &report.findings {
            counts[f.severity as usize] += 1;
            if f.severity == Severity::Info && !verbose {
                continue;
            }
            let place = match f.line {
                Some(line) => format!("{}/{}:{line}", report.dir.display(), f.file),
                None => format!("{}/{}", report.dir.display(), f.file),
            };
            let excerpt = match f.excerpt.is_empty() {
                true => String::new(),
                false => format!(": {}", f.excerpt),
            };
            let severity = match &f.waived {
                Some(_) => format!("{} (waived)", f.severity),
                None => f.severity.to_string(),
            };
            context.printer.data(super::printer::one_line_safe(&format!(
                "{place}: {severity}[{}]: {}{excerpt}",
                f.rule, f.message
            )));
        }
    }
    let files: usize = reports.iter().map(|r| r.files).sum();
    let noun = if reports.len() == 1 {
        "skill"
    } else {
        "skills"
    };
    context.printer.status(
        "Scanned",
        format_args!(
            "{} {noun} ({files} files): {} block, {} warn, {} info",
            reports.len(),
            counts[Severity::Block as usize],
            counts[Severity::Warn as usize],
            counts[Severity::Info as usize]
        ),
    );
}

/// Where waivers come from: the project's root and lock, and whether
/// the project is trusted.
struct Waivers {
    project: Option<(PathBuf, PathBuf, bool)>,
}

impl Waivers {
    fn around(context: &mut Context) -> anyhow::Result<Waivers> {
        let Ok(project) = context.project(false) else {
            return Ok(Waivers { project: None });
        };
        let manifest = crate::manifest::Manifest::load(&project.manifest_path)?;
        let root = project.skill_root(manifest.install_root())?;
        let dirs = context.dirs()?.clone();
        let trusted = crate::ops::skills::project_settings(&context.cwd, &dirs)?.trusted;
        let root = std::fs::canonicalize(&root).unwrap_or(root);
        Ok(Waivers {
            project: Some((root, project.lock_path.clone(), trusted)),
        })
    }

    /// The waivers recorded for the skill in `dir`, when it is installed.
    fn for_skill(
        &self,
        dir: &Path,
        context: &mut Context,
    ) -> anyhow::Result<Option<crate::ops::waivers::Recorded>> {
        let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        let project = self
            .project
            .as_ref()
            .map(|(root, lock, trusted)| (root.as_path(), lock.as_path(), *trusted));
        crate::ops::waivers::of_installed(&dir, project, context.dirs()?)
    }
}

/// `scan --waive`: records the waiver in the project's lock.
fn waive(args: &Args, rule: &str, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let project = context.project(false)?;
    let manifest = crate::manifest::Manifest::load(&project.manifest_path)?;
    let root = project.skill_root(manifest.install_root())?;
    let dirs = context.dirs()?.clone();
    let request = crate::ops::waivers::WaiveRequest {
        rule,
        skill: args.skill.as_deref().unwrap_or_default(),
        file: args.file.as_deref().unwrap_or_default(),
        reason: args.reason.as_deref().unwrap_or_default(),
        digest: args.digest.as_deref(),
    };
    let waived = crate::ops::waivers::record(&project, &root, &dirs, &request)?;
    let when = match waived.pending {
        true => ", adopted when it installs",
        false => "",
    };
    context.printer.status(
        "Waived",
        format_args!(
            "{rule} in {}/{} ({}) in {}{when}: review it in the lock's diff",
            waived.skill,
            request.file,
            waived.digest,
            project.shown(&waived.lock).display()
        ),
    );
    Ok(ExitStatus::Success)
}

/// The skill folders `targets` name; every resolved skill when none.
fn skill_dirs(targets: &[String], context: &mut Context) -> anyhow::Result<Vec<PathBuf>> {
    if targets.is_empty() {
        let loaded = super::load_skills(context)?;
        return Ok(loaded.set.resolved().map(|e| e.skill.dir.clone()).collect());
    }
    let mut dirs = Vec::new();
    for target in targets {
        let path = context.cwd.join(target);
        if path.is_dir() {
            let found = skills_under(&path);
            if found.is_empty() {
                anyhow::bail!(
                    Hinted::new(format!("{target}: no SKILL.md in it or below it"))
                        .hint("name a skill folder, a folder of skills, or a skill by name")
                );
            }
            dirs.extend(found);
            continue;
        }
        let loaded = super::load_skills(context)?;
        let folder = target.rsplit('/').next().unwrap_or(target);
        let named = loaded.set.resolved().find(|e| {
            e.skill.meta.name == *target || e.skill.dir.file_name().is_some_and(|n| n == folder)
        });
        match named {
            Some(entry) => dirs.push(entry.skill.dir.clone()),
            None => anyhow::bail!(
                Hinted::new(format!(
                    "{target}: no such folder, and no skill of that name"
                ))
                .hint("`skillpkg list` shows the skills by name")
            ),
        }
    }
    Ok(dirs)
}

/// The skill folders at or under `dir`: a folder with a SKILL.md is one
/// skill (not searched further); version-control folders are skipped.
fn skills_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut walk = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter();
    while let Some(entry) = walk.next() {
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_dir() {
            continue;
        }
        if entry.file_name() == ".git" || entry.file_name() == "node_modules" {
            walk.skip_current_dir();
            continue;
        }
        if crate::skill::document::find_skill_md(entry.path()).is_some() {
            found.push(entry.path().to_path_buf());
            walk.skip_current_dir();
        }
    }
    found
}

/// The folder the SARIF locations are relative to: the current folder
/// when every skill is under it, else the filesystem root.
fn common_base(dirs: &[PathBuf], cwd: &Path) -> PathBuf {
    match dirs.iter().all(|d| d.starts_with(cwd)) {
        true => cwd.to_path_buf(),
        false => PathBuf::from("/"),
    }
}
