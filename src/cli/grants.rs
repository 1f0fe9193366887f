//! `skillpkg grants list|approve|revoke`

use crate::ops::grants::{Keeper, SkillGrants};

use super::{Context, ExitStatus};

/// List, approve or revoke the tools skills' allowed-tools pre-approve.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(subcommand)]
    action: Action,
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
    let survey = crate::ops::grants::survey(&loaded, &settings, &dirs)?;
    match args.action {
        Action::List { json: true } => context.printer.json(&survey)?,
        Action::List { json: false } => list(context, &survey),
        Action::Approve { names } => {
            for name in names {
                let change = crate::ops::grants::set(&survey, &name, true, &dirs)?;
                context.printer.status(
                    "Approved",
                    format_args!(
                        "{} may pre-approve {} (recorded in {})",
                        change.name,
                        change.grants.join(", "),
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
                let change = crate::ops::grants::set(&survey, &name, false, &dirs)?;
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
/// approved or not, in plain words.
fn list(context: &Context, survey: &[SkillGrants]) {
    if survey.is_empty() {
        context
            .printer
            .status("Grants", "no skill's allowed-tools asks for tools");
        return;
    }
    for skill in survey {
        let kept = match &skill.keeper {
            Keeper::Builtin => "built into skillpkg".to_string(),
            Keeper::Lock { lock, name } => format!("{name} in {}", lock.display()),
            Keeper::HandWritten => "hand-written; approvals in the user's config".to_string(),
        };
        context
            .printer
            .data(format_args!("{} ({} root, {kept})", skill.name, skill.root));
        for pattern in &skill.asks {
            let state = match skill.approved.contains(pattern) {
                true => "approved",
                false => "not approved",
            };
            context.printer.data(format_args!(
                "  {pattern:<24} {state:<13} {}",
                crate::agent::tools::policy::describe(pattern)
            ));
        }
        if let Some(note) = &skill.note {
            context.printer.data(format_args!("  note: {note}"));
        }
    }
}
