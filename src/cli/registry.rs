//! `skillpkg registry add NAME URL [--git] [--default]`

use crate::ops::registry::{DEFAULT_REGISTRY, RegistryAdded, add_registry};

use super::{Context, ExitStatus};

/// Name indexes in skills.toml's [registries].
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(subcommand)]
    command: RegistryCommand,
}

#[derive(Debug, clap::Subcommand)]
enum RegistryCommand {
    /// Add an index to skills.toml's [registries] under NAME, for
    /// `skillpkg add org/name --registry NAME`; with --default (and no
    /// NAME), the index packages come from when no registry is named.
    Add(AddArgs),
}

#[derive(Debug, clap::Args)]
struct AddArgs {
    /// The registry's name; with --default, it may be left out.
    #[arg(value_name = "NAME")]
    name: String,
    /// The index: https://… (static files), git+https://… or git+ssh://…
    /// (a git repository; see --git), or a folder.
    #[arg(value_name = "URL")]
    url: Option<String>,
    /// The index is a git repository: record https://… and ssh://… URLs
    /// as git+https://… and git+ssh://….
    #[arg(long)]
    git: bool,
    /// Also make it the default registry (`default` under [registries]).
    #[arg(long)]
    default: bool,
    /// The user's global manifest instead of the project's.
    #[arg(long, short = 'g')]
    global: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let RegistryCommand::Add(args) = args.command;
    let (names, url) = match (&args.url, args.default) {
        (Some(url), false) => (vec![args.name.as_str()], url),
        (Some(url), true) => (vec![args.name.as_str(), DEFAULT_REGISTRY], url),
        (None, true) => (vec![DEFAULT_REGISTRY], &args.name),
        (None, false) => {
            context.printer.error(&anyhow::anyhow!(crate::hint::Hinted::new(format!(
                "`registry add {}` names no index",
                args.name
            ))
            .hint("give the index after the name: `skillpkg registry add NAME URL` (or `skillpkg registry add --default URL`)")));
            return Ok(ExitStatus::Usage);
        }
    };
    let project = context.project(args.global)?;
    let dirs = context.dirs()?.clone();
    let shown = project.shown(&project.manifest_path).display().to_string();
    for name in names {
        match add_registry(&project, &dirs, name, url, args.git)? {
            RegistryAdded::Added { name, index } => context.printer.status(
                "Added",
                format_args!("registry '{name}' ({index}) to {shown}"),
            ),
            RegistryAdded::Unchanged { name, index } => context.printer.status(
                "Unchanged",
                format_args!("registry '{name}' is {index} already in {shown}"),
            ),
        }
    }
    if url.starts_with("https://") && url.ends_with(".git") && !args.git {
        context.printer.warn(format_args!(
            "{url} ends in .git: if it is a git repository rather than static files, record it with --git"
        ));
    }
    Ok(ExitStatus::Success)
}
