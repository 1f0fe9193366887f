//! `skillpkg publish <skill-dir>`

use std::path::PathBuf;

use crate::ops::publish::{PublishRequest, publish, publish_collection};

use super::{Context, ExitStatus};

/// Pack, sign and add a skill to an index (a folder, a git repository or
/// an OCI registry namespace); with --collection, several skills and a
/// collection of them, to an OCI registry namespace.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The skill directory, or a `.skill` that `skillpkg pack` wrote
    /// (published byte for byte, as a Sigstore bundle made over it needs);
    /// with --collection, each skill of the collection.
    #[arg(required = true, value_name = "SKILL_DIR")]
    skill_dirs: Vec<PathBuf>,
    /// The index: a folder, a git repository path, a git URL (git+https://…,
    /// file://…), or an OCI registry namespace (oci://HOST/NAMESPACE).
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
    /// The version (default: the skill's metadata.version); with
    /// --collection, the collection's.
    #[arg(long)]
    version: Option<String>,
    /// Also publish the skills as the collection NAME (org/NAME, an OCI
    /// image index of their artifacts, at --version); each skill is
    /// published at its own metadata.version, or kept where that version
    /// is there with the same content.
    #[arg(long, value_name = "NAME")]
    collection: Option<String>,
    /// Dependencies, comma-separated org/name@req (default: metadata.dependencies).
    #[arg(long)]
    dependencies: Option<String>,
    /// Publish a skill the reference validator rejects, as long as agents
    /// load it; its entry records the rules it breaks.
    #[arg(long)]
    allow_invalid: bool,
    /// The channel the version starts in, signed with --key: draft and
    /// testing versions are seen only by projects that ask for them
    /// (`skillpkg promote` moves them on).
    #[arg(long, value_enum, value_name = "CHANNEL")]
    channel: Option<crate::index::channel::Channel>,
    #[command(flatten)]
    limits: super::limits::SkillLimits,
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let cwd = context.cwd.clone();
    let skill_dirs: Vec<PathBuf> = args.skill_dirs.iter().map(|dir| cwd.join(dir)).collect();
    if skill_dirs.len() > 1 && args.collection.is_none() {
        anyhow::bail!(
            crate::hint::Hinted::new(format!(
                "{} skills given, and publish takes one unless they form a collection",
                skill_dirs.len()
            ))
            .hint(
                "publish them one at a time, or as a collection with --collection NAME --version V"
            )
        );
    }
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
        skill_dir: &skill_dirs[0],
        index: &index,
        org: &args.org,
        key: key.as_deref(),
        sigstore_bundle: sigstore_bundle.as_deref(),
        version: args.version.as_deref(),
        dependencies: args.dependencies.as_deref(),
        allow_invalid: args.allow_invalid,
        limits: args.limits.limits(),
        channel: args.channel,
        upstream: None,
    };
    let dirs = context.dirs()?.clone();
    let Some(collection) = &args.collection else {
        let published = publish(&request, &dirs)?;
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
        return Ok(ExitStatus::Success);
    };
    let published = publish_collection(&request, &skill_dirs, collection, &dirs)?;
    if args.json {
        context.printer.json(&published)?;
        return Ok(ExitStatus::Success);
    }
    let (collection, skills) = published.split_last().expect("a collection is published");
    for skill in skills {
        context.printer.status(
            "Published",
            format_args!(
                "{}@{} (sha256:{})",
                skill.package, skill.version, skill.cksum
            ),
        );
    }
    context.printer.status(
        "Published",
        format_args!(
            "{}@{}, a collection of {} skills (sha256:{}), to {index}",
            collection.package,
            collection.version,
            skills.len(),
            collection.cksum
        ),
    );
    Ok(ExitStatus::Success)
}

/// The org's minisign secret key file: `given` (from the working
/// directory), else the config directory's `skillpkg.key`.
pub(super) fn secret_key(
    given: Option<&std::path::Path>,
    context: &mut Context,
) -> anyhow::Result<PathBuf> {
    Ok(match given {
        Some(key) => context.cwd.join(key),
        None => context
            .dirs()?
            .config
            .join(crate::store::signing::SECRET_KEY_FILE),
    })
}

/// Relative folder paths are taken from the working directory; URLs as they are.
pub(super) fn resolve_index(spec: &str, cwd: &std::path::Path) -> String {
    if spec.contains("://") || spec.starts_with("git+") {
        spec.to_string()
    } else {
        crate::fsutil::slashed(&cwd.join(spec))
    }
}
