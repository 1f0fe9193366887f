//! `skillpkg keygen`

use std::path::PathBuf;

use super::{Context, ExitStatus};

/// Create a minisign key pair for signing packages.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Directory for `skillpkg.pub` and `skillpkg.key` (default: the config directory).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Do not encrypt the secret key with a password.
    #[arg(long)]
    no_password: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dir = match args.out {
        Some(dir) => context.cwd.join(dir),
        None => context.dirs()?.config.clone(),
    };
    let keys = crate::store::signing::generate_keys(&dir, !args.no_password)?;
    context.printer.status(
        "Created",
        format_args!(
            "secret key {} (keep it private)",
            keys.secret_key_file.display()
        ),
    );
    context.printer.status(
        "Created",
        format_args!("public key {}", keys.public_key_file.display()),
    );
    context.printer.data(&keys.public_key);
    Ok(ExitStatus::Success)
}
