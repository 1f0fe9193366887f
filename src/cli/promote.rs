//! `skillpkg promote org/name@version --to CHANNEL`

use super::{Context, ExitStatus};
use crate::index::channel::Channel;

/// Move a published version to another channel (draft, testing,
/// published, deprecated), signed anew with the org's key.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The version to move: org/name@version.
    package: String,
    /// The channel to move it to.
    #[arg(long, value_enum, value_name = "CHANNEL")]
    to: Channel,
    /// The index: a folder, a git repository path, a git URL, or an OCI
    /// registry namespace (oci://HOST/NAMESPACE).
    #[arg(long)]
    index: String,
    /// The org's minisign secret key (default: the config directory's
    /// skillpkg.key).
    #[arg(long, value_name = "FILE")]
    key: Option<std::path::PathBuf>,
    /// With --to deprecated: what to use instead (org/name or
    /// org/name@requirement), named in the warning installs print.
    #[arg(long, value_name = "PACKAGE")]
    replacement: Option<String>,
    /// Until when the record counts for new installs: an RFC 3339 time
    /// (2027-01-31T00:00:00Z) or a span from now (30d, 12h). Past it,
    /// projects take no new version of the package from the index until
    /// the org promotes it anew; what skills.lock pins still installs.
    #[arg(long, value_name = "WHEN")]
    expires: Option<String>,
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let index = super::publish::resolve_index(&args.index, &context.cwd);
    let dirs = context.dirs()?.clone();
    let key = super::publish::secret_key(args.key.as_deref(), context)?;
    let promoted = crate::ops::promote::promote(
        &crate::ops::promote::PromoteRequest {
            spec: &args.package,
            index: &index,
            to: args.to,
            replacement: args.replacement.as_deref(),
            key: &key,
            expires: args.expires.as_deref(),
        },
        &dirs,
    )?;
    if args.json {
        context.printer.json(&promoted)?;
        return Ok(ExitStatus::Success);
    }
    if let Some(upstream) = &promoted.upstream {
        let at = upstream
            .revision
            .as_deref()
            .map(|r| format!(" at {r}"))
            .unwrap_or_default();
        match upstream.signed {
            true => context.printer.status(
                "Mirrored",
                format_args!("from {}{at}, by the org's record", upstream.source),
            ),
            false => context.printer.warn(format_args!(
                "{}@{} says it was mirrored from {}{at}, but no key of the org signed that record: it may have been rewritten",
                promoted.package, promoted.version, upstream.source
            )),
        }
    }
    if promoted.changed {
        context.printer.status(
            "Promoted",
            format_args!(
                "{}@{} from {} to {}",
                promoted.package, promoted.version, promoted.from, promoted.to
            ),
        );
    } else {
        context.printer.warn(format_args!(
            "{}@{} is {} already; nothing changed",
            promoted.package, promoted.version, promoted.to
        ));
    }
    Ok(ExitStatus::Success)
}
