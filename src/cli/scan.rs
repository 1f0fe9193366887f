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
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = skill_dirs(&args.targets, context)?;
    let mut reports = Vec::new();
    for dir in &dirs {
        let report = crate::scan::scan_dir(dir)
            .map_err(|e| anyhow::anyhow!("could not scan {}: {e}", dir.display()))?;
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
            context.printer.data(super::printer::one_line_safe(&format!(
                "{place}: {}[{}]: {}{excerpt}",
                f.severity, f.rule, f.message
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
