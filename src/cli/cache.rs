//! `skillpkg cache dir | clean`

use super::{Context, ExitStatus};

/// Show or empty the cache (downloaded archives, index checkouts, the
/// materialised builtin skills and sample index).
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(subcommand)]
    command: CacheCommand,
}

#[derive(Debug, clap::Subcommand)]
enum CacheCommand {
    /// Print the cache directory.
    Dir,
    /// Delete everything in the cache; it is rebuilt on demand.
    Clean,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let cache = context.dirs()?.cache.clone();
    match args.command {
        CacheCommand::Dir => context.printer.data(cache.display()),
        CacheCommand::Clean => {
            let mut removed = 0u64;
            if cache.exists() {
                for entry in walkdir::WalkDir::new(&cache)
                    .into_iter()
                    .filter_map(Result::ok)
                {
                    if entry.file_type().is_file() {
                        removed += entry.metadata().map(|m| m.len()).unwrap_or(0);
                    }
                }
                fs_err::remove_dir_all(&cache)?;
            }
            context.printer.status(
                "Removed",
                format_args!("{} ({removed} bytes)", cache.display()),
            );
        }
    }
    Ok(ExitStatus::Success)
}
