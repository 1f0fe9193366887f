//! `skillpkg mirror SOURCE… --index INDEX --org ORG --key KEY`

use super::{Context, ExitStatus};
use crate::ops::mirror::{MirrorRequest, MirroredSource, Outcome};

/// Copy upstream skills (git repositories, OCI artifacts) into an org's
/// index: verified and scanned, re-signed with the org's key, as drafts
/// that reach users once promoted.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Upstream sources: github:owner/repo[/path][@rev], a git URL
    /// (https://….git, file://…), oci://HOST/REPO:TAG, or a package of
    /// another index: INDEX#org/name[@req].
    #[arg(value_name = "SOURCE", required_unless_present = "update")]
    sources: Vec<String>,
    /// Also mirror anew every source the org's packages in the index were
    /// mirrored from (a new upstream commit lands as a new draft).
    #[arg(long)]
    update: bool,
    /// The org's index: a folder, a git repository path, a git URL, or an
    /// OCI registry namespace (oci://HOST/NAMESPACE).
    #[arg(long)]
    index: String,
    /// The org to publish under (org/name).
    #[arg(long)]
    org: String,
    /// The version to mirror skills that have no metadata.version at
    /// (semver, say a date: 2026.11.26); without it they are refused.
    /// Skills with a metadata.version keep theirs.
    #[arg(long, value_name = "VERSION")]
    version: Option<String>,
    /// The org's minisign secret key (default: the config directory's
    /// skillpkg.key).
    #[arg(long, value_name = "FILE")]
    key: Option<std::path::PathBuf>,
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let index = super::publish::resolve_index(&args.index, &context.cwd);
    let dirs = context.dirs()?.clone();
    let key = super::publish::secret_key(args.key.as_deref(), context)?;
    let mirrored = crate::ops::mirror::mirror(
        &MirrorRequest {
            sources: &args.sources,
            update: args.update,
            index: &index,
            org: &args.org,
            key: &key,
            version: args.version.as_deref(),
        },
        &dirs,
    )?;
    if args.json {
        context.printer.json(&mirrored)?;
    } else {
        for source in &mirrored {
            report(context, source);
        }
    }
    let refused = mirrored
        .iter()
        .flat_map(|s| &s.skills)
        .any(|o| matches!(o, Outcome::Refused { .. }));
    Ok(match refused {
        true => ExitStatus::Failure,
        false => ExitStatus::Success,
    })
}

/// What became of each skill of `source`, a line each.
fn report(context: &Context, source: &MirroredSource) {
    for outcome in &source.skills {
        match outcome {
            Outcome::Mirrored { package, review } => {
                context.printer.status(
                    "Mirrored",
                    format_args!(
                        "{package} (draft) from {} at {}",
                        source.source, source.revision
                    ),
                );
                if !review.is_empty() {
                    context.printer.warn(format_args!(
                        "review before promoting {package}: the scanner found\n  {}",
                        review.join("\n  ")
                    ));
                }
            }
            Outcome::Unchanged { package } => context.printer.status(
                "Unchanged",
                format_args!("{package}, mirrored from {} before", source.source),
            ),
            Outcome::Refused {
                skill,
                reason,
                hint,
                findings,
            } => {
                let mut text = format!("{skill} from {} was not mirrored: {reason}", source.source);
                for finding in findings {
                    text.push_str("\n  ");
                    text.push_str(finding);
                }
                context
                    .printer
                    .error(&anyhow::anyhow!(crate::hint::Hinted::new(text).hint(hint)));
            }
        }
    }
}
