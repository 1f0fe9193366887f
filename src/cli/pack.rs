//! `skillpkg pack <dir>`

use std::path::PathBuf;

use super::{Context, ExitStatus};

/// Validate a skill and write a deterministic `.skill` archive of it.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The skill directory.
    dir: PathBuf,
    /// Where to write the archive (default: `<name>-<version>.skill` here).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Write the layer an OCI index holds (`<name>-<version>.tar.gz`: the
    /// archive's files as a deterministic tar+gzip) instead, to make a
    /// Sigstore bundle over for `publish --index oci://…`.
    #[arg(long)]
    layer: bool,
    #[command(flatten)]
    limits: super::limits::SkillLimits,
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let packed = crate::ops::pack::pack_to_file(
        &args.dir,
        args.output.as_deref(),
        &context.cwd,
        args.layer,
        &args.limits.limits(),
    )?;
    if args.json {
        context.printer.json(&packed)?;
    } else {
        context.printer.status(
            "Packed",
            format_args!(
                "{} ({}, {} bytes) to {}",
                packed.name,
                super::printer::count(packed.files, "file"),
                packed.size,
                packed.path.display()
            ),
        );
        context
            .printer
            .data(format_args!("sha256:{}", packed.sha256));
    }
    Ok(ExitStatus::Success)
}
