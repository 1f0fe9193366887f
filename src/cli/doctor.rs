//! `skillpkg doctor [--json]`: what this machine and this build give
//! skillpkg, and what is missing.

use std::fmt::Write as _;

use crate::agent::model::select::choose_model;
use crate::credentials::Credentials;
use crate::ops::doctor::{Report, report};

use super::{Context, ExitStatus};

/// Print the platform, the sandbox and what it enforces, the agents
/// found, skillpkg's folders, and what is missing.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let project = crate::project::Project::find(&context.cwd).ok();
    // The project's `[agent] model` counts as exec counts it: only in a
    // project the user trusts.
    let settings = crate::ops::skills::project_settings(&context.cwd, &dirs).ok();
    let credentials = Credentials::new(Some(&dirs.config));
    let model = choose_model(
        None,
        settings
            .as_ref()
            .and_then(|s| s.manifest.agent.model.as_deref()),
        &credentials,
    )
    .ok();
    let report = report(
        &dirs,
        project.as_ref().map(|p| p.dir.as_path()),
        model.as_deref(),
    );
    if args.json {
        context.printer.json(&report)?;
    } else {
        context.printer.data(text(&report).trim_end());
    }
    Ok(ExitStatus::Success)
}

/// The report as the terminal shows it.
fn text(report: &Report) -> String {
    let mut out = String::new();
    let features = match report.features.is_empty() {
        true => "none".to_string(),
        false => report.features.join(", "),
    };
    let _ = writeln!(
        out,
        "skillpkg {} ({}; features: {features})",
        report.version, report.target
    );
    let _ = writeln!(
        out,
        "platform: {} {}",
        report.platform.os, report.platform.arch
    );
    let sandbox = &report.sandbox;
    match (&sandbox.mechanism, &sandbox.unavailable) {
        (Some(mechanism), None) => {
            let _ = writeln!(out, "sandbox: {mechanism}, set up");
            let _ = writeln!(out, "  enforces: {}", sandbox.enforces.join("; "));
        }
        (Some(mechanism), Some(why)) => {
            let _ = writeln!(out, "sandbox: {mechanism}, cannot be set up: {why}");
        }
        (None, why) => {
            let _ = writeln!(
                out,
                "sandbox: none: {}",
                why.as_deref().unwrap_or("no backend for this platform")
            );
        }
    }
    // Many agents read the same folder (`.agents/skills`): one line a
    // folder, naming them.
    let mut folders: Vec<(String, Vec<&str>)> = Vec::new();
    let users = report
        .agents
        .iter()
        .filter_map(|a| Some((a.user.as_ref()?, a.name)));
    let projects = report
        .agents
        .iter()
        .filter_map(|a| Some((a.project.as_ref()?, a.name)));
    for (folder, name) in users.chain(projects) {
        {
            let folder = folder.display().to_string();
            match folders.iter_mut().find(|(known, _)| *known == folder) {
                Some((_, names)) => names.push(name),
                None => folders.push((folder, vec![name])),
            }
        }
    }
    match folders.is_empty() {
        true => {
            let _ = writeln!(out, "agents: none found");
        }
        false => {
            let _ = writeln!(out, "agents:");
            for (folder, names) in folders {
                let _ = writeln!(out, "  {folder} ({})", names.join(", "));
            }
        }
    }
    let paths = &report.paths;
    let _ = writeln!(out, "paths:");
    let project = paths.project.as_ref().map(|p| p.display().to_string());
    for (name, path) in [
        ("config", Some(paths.config.display().to_string())),
        ("cache", Some(paths.cache.display().to_string())),
        ("data", Some(paths.data.display().to_string())),
        ("user skills", Some(paths.user_skills.display().to_string())),
        ("project", project),
    ] {
        let _ = writeln!(
            out,
            "  {name:<12} {}",
            path.as_deref().unwrap_or("(none here)")
        );
    }
    match report.missing.is_empty() {
        true => {
            let _ = writeln!(out, "missing: nothing");
        }
        false => {
            let _ = writeln!(out, "missing:");
            for missing in &report.missing {
                let _ = writeln!(out, "  - {missing}");
            }
        }
    }
    out
}
