//! `skillpkg new <name>`

use std::path::PathBuf;

use super::{Context, ExitStatus};

/// Create a new skill that validates, from a template.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The skill's name: lowercase letters, digits and hyphens.
    name: String,
    /// The directory to create it in (default: the current directory).
    #[arg(long)]
    path: Option<PathBuf>,
    /// The description (what it does and when to use it).
    #[arg(long, short)]
    description: Option<String>,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let parent = args.path.unwrap_or_else(|| context.cwd.clone());
    let dir = crate::ops::new_skill::new_skill(&parent, &args.name, args.description.as_deref())?;
    context.printer.status(
        "Created",
        format_args!("skill `{}` at {}", args.name, dir.display()),
    );
    context.printer.status(
        "Next",
        format_args!(
            "edit {} then run `skillpkg validate --strict {}`, which points at the placeholder text left",
            dir.join("SKILL.md").display(),
            crate::hint::shell_path(&dir)
        ),
    );
    Ok(ExitStatus::Success)
}
