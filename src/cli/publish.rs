//! `skillpkg publish <skill-dir>`

use std::path::PathBuf;

use crate::ops::publish::{PublishRequest, publish};

use super::{Context, ExitStatus};

/// Pack, sign and add a skill to an index (a folder or a git repository).
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The skill directory, or a `.skill` that `skillpkg pack` wrote
    /// (published byte for byte, as a Sigstore bundle made over it needs).
    skill_dir: PathBuf,
    /// The index: a folder, a git repository path, or a git URL (git+https://…, file://…).
    #[arg(long)]
    index: String,
    /// The organisation to publish under (org/name).
    #[arg(long)]
    org: String,
    /// The minisign secret key file that signs the archive (default: the
    /// config directory's skillpkg.key, which `skillpkg keygen` writes).
    #[arg(long)]
    key: Option<PathBuf>,
    /// A Sigstore bundle over the archive, made in CI over the `.skill`
    /// that `pack` wrote (cosign sign-blob writes one): recorded in the index
    /// entry beside the minisign signature, or instead of it when no
    /// --key is given and there is no default key.
    #[arg(long = "sigstore-bundle", value_name = "FILE")]
    sigstore_bundle: Option<PathBuf>,
    /// The version (default: the skill's metadata.version).
    #[arg(long)]
    version: Option<String>,
    /// Dependencies, comma-separated org/name@req (default: metadata.dependencies).
    #[arg(long)]
    dependencies: Option<String>,
    /// Publish a skill the reference validator rejects, as long as agents
    /// load it; its entry records the rules it breaks.
    #[arg(long)]
    allow_invalid: bool,
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let cwd = context.cwd.clone();
    let skill_dir = cwd.join(&args.skill_dir);
    let key = match &args.key {
        Some(key) => Some(cwd.join(key)),
        None => {
            let default = context.dirs()?.config.join("skillpkg.key");
            match (default.is_file(), &args.sigstore_bundle) {
                (true, _) => Some(default),
                (false, Some(_)) => None,
                (false, None) => anyhow::bail!(
                    crate::hint::Hinted::new(format!(
                        "no --key given, and there is no {}",
                        default.display()
                    ))
                    .hint("make a key pair with `skillpkg keygen`, or pass --key <secret key file> (or --sigstore-bundle FILE)")
                ),
            }
        }
    };
    let sigstore_bundle = match &args.sigstore_bundle {
        Some(path) => Some(fs_err::read_to_string(cwd.join(path)).map_err(|e| {
            crate::hint::Hinted::new(format!("could not read the Sigstore bundle: {e}"))
                .hint("give the bundle's JSON file")
        })?),
        None => None,
    };
    let index = resolve_index(&args.index, &cwd);
    let request = PublishRequest {
        skill_dir: &skill_dir,
        index: &index,
        org: &args.org,
        key: key.as_deref(),
        sigstore_bundle: sigstore_bundle.as_deref(),
        version: args.version.as_deref(),
        dependencies: args.dependencies.as_deref(),
        allow_invalid: args.allow_invalid,
    };
    let cache = context.dirs()?.cache.clone();
    let published = publish(&request, &cache)?;
    if args.json {
        context.printer.json(&published)?;
    } else {
        context.printer.status(
            "Published",
            format_args!(
                "{}@{} ({} bytes, sha256:{}) to {index}",
                published.package, published.version, published.size, published.cksum
            ),
        );
    }
    Ok(ExitStatus::Success)
}

/// Relative folder paths are taken from the working directory; URLs as they are.
pub(super) fn resolve_index(spec: &str, cwd: &std::path::Path) -> String {
    if spec.contains("://") || spec.starts_with("git+") {
        spec.to_string()
    } else {
        cwd.join(spec).display().to_string()
    }
}
