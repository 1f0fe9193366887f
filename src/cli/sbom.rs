//! `skillpkg sbom`

use super::{Context, ExitStatus};
use crate::ops::sbom::Format;

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    /// CycloneDX 1.6 JSON.
    Cyclonedx,
    /// SPDX 2.3 JSON.
    Spdx,
}

/// Print a software bill of materials of the installed skills, from
/// skills.lock: each skill's source, version, hashes, signer and
/// dependencies. SOURCE_DATE_EPOCH fixes the time SPDX records.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The document format.
    #[arg(long, value_enum, default_value = "cyclonedx")]
    format: FormatArg,
    /// The user's global skills instead of the project's.
    #[arg(long, short = 'g')]
    global: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let project = context.project(args.global)?;
    let lock = crate::manifest::lock::Lockfile::load(&project.lock_path)?;
    let name = project.dir.file_name().map_or_else(
        || "project".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let format = match args.format {
        FormatArg::Cyclonedx => Format::CycloneDx,
        FormatArg::Spdx => Format::Spdx,
    };
    let document = crate::ops::sbom::sbom(&name, &lock, format, crate::time::now_or_source_date());
    context.printer.json(&document)?;
    Ok(ExitStatus::Success)
}
