//! `skillpkg init`

use std::path::PathBuf;

use super::{Context, ExitStatus};

/// Create a skills.toml for a project.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The project directory (default: the current directory).
    dir: Option<PathBuf>,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dir = match args.dir {
        Some(dir) => context.cwd.join(dir),
        None => context.cwd.clone(),
    };
    let hidden = crate::ops::init::hidden_by_nested_project(&dir);
    let path = crate::ops::init::init_project(&dir)?;
    if let Some(warning) = hidden {
        context.printer.warn(warning);
    }
    // A project the user made is trusted from the start.
    let manifest = crate::manifest::Manifest::load(&path)?;
    let lock = crate::manifest::lock::Lockfile::load(&dir.join(crate::project::LOCK_FILE))?;
    crate::ops::consent::project::trust(
        context.dirs()?,
        &dir,
        &crate::ops::consent::project::TrustedSettings::of(&dir, &manifest, &lock),
    )?;
    context.printer.status("Created", path.display());
    Ok(ExitStatus::Success)
}
