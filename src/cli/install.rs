//! `skillpkg add`, `remove` and `install`.

use crate::ops::install::{Action, Change, InstallOptions};

use super::{Context, ExitStatus};

/// Flags shared by the commands that install.
#[derive(Debug, clap::Args)]
pub(super) struct InstallFlags {
    /// Replace managed skills even if they were edited locally.
    #[arg(long)]
    force: bool,
    /// Accept unsigned packages from remote indexes.
    #[arg(long)]
    allow_unsigned: bool,
    /// Use only the cache and local indexes: fetch nothing.
    #[arg(long)]
    offline: bool,
    /// Work on the user's global skills (a manifest and lock under the data
    /// directory, installing into the user root) instead of the project's.
    #[arg(long, short = 'g')]
    pub(super) global: bool,
}

impl InstallFlags {
    pub(super) fn options<'p>(&self, locked: bool, context: &'p Context) -> InstallOptions<'p> {
        InstallOptions {
            progress: &context.progress,
            locked,
            force: self.force,
            allow_unsigned: self.allow_unsigned,
            offline: self.offline,
        }
    }
}

/// Add packages to skills.toml and install them.
#[derive(Debug, clap::Args)]
pub(super) struct AddArgs {
    /// Packages: org/name or org/name@requirement. With --path or --git, the
    /// name to record the skill under (default: the skill's own name).
    #[arg(required_unless_present_any = ["path", "git"])]
    packages: Vec<String>,
    /// The registry (a name under [registries]) to take them from.
    #[arg(long, conflicts_with_all = ["path", "git"])]
    registry: Option<String>,
    /// Install the skill in this folder (pinned by content hash).
    #[arg(long, value_name = "DIR", conflicts_with = "git")]
    path: Option<std::path::PathBuf>,
    /// Install the skill from this git repository (pinned by commit).
    #[arg(long, value_name = "URL")]
    git: Option<String>,
    /// With --git: the branch, tag or commit (default: the remote's HEAD).
    #[arg(long, requires = "git")]
    rev: Option<String>,
    /// With --git: the skill's folder inside the repository.
    #[arg(long, requires = "git")]
    subdir: Option<String>,
    #[command(flatten)]
    flags: InstallFlags,
}

/// Remove packages from skills.toml and their skills from the root.
#[derive(Debug, clap::Args)]
pub(super) struct RemoveArgs {
    /// Packages: org/name.
    #[arg(required = true)]
    packages: Vec<String>,
    #[command(flatten)]
    flags: InstallFlags,
}

/// Install what skills.toml asks for, as skills.lock pins it.
#[derive(Debug, clap::Args)]
pub(super) struct InstallArgs {
    /// Fail if skills.lock would change.
    #[arg(long)]
    locked: bool,
    /// --locked and --offline together: exactly the lock, from this machine alone.
    #[arg(long)]
    frozen: bool,
    #[command(flatten)]
    flags: InstallFlags,
}

pub(super) fn report(context: &Context, changes: &[Change]) {
    for change in changes {
        for warning in &change.warnings {
            context.printer.warn(warning);
        }
        let verb = match change.action {
            Action::Installed => "Installed",
            Action::Updated => "Updated",
            Action::Removed => "Removed",
            Action::Unchanged => continue,
        };
        context
            .printer
            .status(verb, format_args!("{} v{}", change.name, change.version));
    }
    let unchanged = changes
        .iter()
        .filter(|c| c.action == Action::Unchanged)
        .count();
    if unchanged > 0 {
        context
            .printer
            .verbose(format_args!("{unchanged} skills already up to date"));
    }
}

pub(super) fn add(args: AddArgs, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let cwd = context.cwd.clone();
    let dirs = context.dirs()?.clone();
    if args.path.is_some() || args.git.is_some() {
        if args.packages.len() > 1 {
            anyhow::bail!("--path and --git add one skill at a time");
        }
        let spec = crate::manifest::DetailedSpec {
            path: args.path.map(|p| p.display().to_string()),
            git: args.git,
            rev: args.rev,
            subdir: args.subdir,
            ..Default::default()
        };
        let project = context.project(args.flags.global)?;
        let changes = crate::ops::install::add_direct(
            &project,
            &cwd,
            &dirs,
            args.packages.first().map(String::as_str),
            spec,
            args.flags.options(false, context),
        )?;
        report(context, &changes);
        return Ok(ExitStatus::Success);
    }
    let project = context.project(args.flags.global)?;
    let changes = crate::ops::install::add(
        &project,
        &dirs,
        &args.packages,
        args.registry.as_deref(),
        args.flags.options(false, context),
    )?;
    report(context, &changes);
    Ok(ExitStatus::Success)
}

pub(super) fn remove(args: RemoveArgs, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let project = context.project(args.flags.global)?;
    let changes = crate::ops::install::remove(
        &project,
        &dirs,
        &args.packages,
        args.flags.options(false, context),
    )?;
    report(context, &changes);
    Ok(ExitStatus::Success)
}

pub(super) fn install(args: InstallArgs, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let project = context.project(args.flags.global)?;
    let mut options = args.flags.options(args.locked || args.frozen, context);
    options.offline |= args.frozen;
    let changes = crate::ops::install::install(&project, &dirs, options)?;
    report(context, &changes);
    Ok(ExitStatus::Success)
}
