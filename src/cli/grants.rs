//! `skillpkg grants list|approve|revoke`

use crate::ops::consent::grants::{Keeper, SkillGrants};
use crate::skill::tool_pattern::{needs_approval, strongest_last};

use super::{Context, ExitStatus};

/// List, approve or revoke the tools skills' allowed-tools pre-approve.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(subcommand)]
    action: Action,
    #[command(flatten)]
    mcp: super::mcp_skills::McpSkillsArgs,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// List the skills whose allowed-tools ask for tools, and what is approved.
    List {
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Approve every tool these skills' allowed-tools ask for.
    Approve {
        /// Skill names (or org/name of installed packages).
        #[arg(required = true)]
        names: Vec<String>,
    },
    /// Withdraw these skills' approved grants.
    Revoke {
        /// Skill names (or org/name of installed packages).
        #[arg(required = true)]
        names: Vec<String>,
    },
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let cwd = context.cwd.clone();
    let dirs = context.dirs()?.clone();
    let loaded = super::load_skills(context)?;
    let settings = crate::ops::skills::project_settings(&cwd, &dirs)?;
    let mut survey = crate::ops::consent::grants::survey(&loaded, &settings, &dirs)?;
    let local = loaded
        .set
        .resolved()
        .map(|e| (e.skill.meta.name.clone(), e.skill.dir.clone()))
        .collect();
    let served = super::mcp_skills::take(
        context,
        &args.mcp.servers,
        &settings.manifest.agent.mcp_skills,
        &settings.manifest.agent.env,
        &local,
    )?;
    survey.extend(super::mcp_skills::survey(&served, &dirs)?);
    match args.action {
        Action::List { json: true } => context.printer.json(&survey)?,
        Action::List { json: false } => list(context, &survey),
        Action::Approve { names } => {
            for name in names {
                let change = crate::ops::consent::grants::set(&survey, &name, true, &dirs)?;
                let what = match change.grants.is_empty() {
                    true => "as served now".to_string(),
                    false => format!("may pre-approve {}", change.grants.join(", ")),
                };
                context.printer.status(
                    "Approved",
                    format_args!(
                        "{} {what} (recorded in {})",
                        change.name,
                        change.recorded_in.display()
                    ),
                );
                if let Some(note) = change.note {
                    context.printer.warn(note);
                }
            }
        }
        Action::Revoke { names } => {
            for name in names {
                let change = crate::ops::consent::grants::set(&survey, &name, false, &dirs)?;
                context.printer.status(
                    "Revoked",
                    format_args!(
                        "the grants of {} (recorded in {})",
                        change.name,
                        change.recorded_in.display()
                    ),
                );
            }
        }
    }
    Ok(ExitStatus::Success)
}

/// One block per skill: where its approval is kept, then each pattern,
/// approved, not approved, or not needed (tools that only read run
/// without approval), in plain words, the strongest last. Every line is
/// escaped to stay one line.
fn list(context: &Context, survey: &[SkillGrants]) {
    if survey.is_empty() {
        context
            .printer
            .status("Grants", "no skill's allowed-tools asks for tools");
        return;
    }
    let show = |line: String| context.printer.data(super::printer::one_line_safe(&line));
    for skill in survey {
        let kept = match &skill.keeper {
            Keeper::Builtin => "built into skillpkg".to_string(),
            Keeper::Lock { lock, name } => format!("{name} in {}", lock.display()),
            Keeper::HandWritten => "hand-written; approvals in the user's config".to_string(),
            Keeper::Mcp { .. } => {
                "approvals in the user's config, bound to its digests".to_string()
            }
        };
        let from = match (&skill.root, &skill.keeper) {
            (Some(root), _) => format!("{root} root"),
            (None, Keeper::Mcp { origin, .. }) => format!("served by {origin}"),
            (None, _) => "no root".to_string(),
        };
        show(format!("{} ({from}, {kept})", skill.name));
        let mut asks: Vec<&str> = skill.asks.iter().map(String::as_str).collect();
        strongest_last(&mut asks);
        for pattern in asks {
            let state = match skill.approved.iter().any(|p| p == pattern) {
                _ if !needs_approval(pattern) => "not needed",
                true => "approved",
                false => "not approved",
            };
            show(format!(
                "  {pattern:<24} {state:<13} {}",
                crate::agent::tools::tool_policy::describe(pattern)
            ));
        }
        if let Some(note) = &skill.note {
            show(format!("  note: {note}"));
        }
    }
}

/// The lines a prompt shows for `patterns`: one each, with what it lets a
/// skill do in plain words, the strongest last (so it stands right before
/// the question).
pub(super) fn pattern_lines(patterns: &[String]) -> Vec<String> {
    let mut patterns: Vec<&str> = patterns.iter().map(String::as_str).collect();
    strongest_last(&mut patterns);
    patterns
        .into_iter()
        .map(|pattern| {
            format!(
                "  {pattern:<24} {}",
                crate::agent::tools::tool_policy::describe(pattern)
            )
        })
        .collect()
}
