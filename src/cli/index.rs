//! `skillpkg index init`

use anyhow::bail;

use crate::ops::publish::Initialised;

use super::{Context, ExitStatus};

/// Manage an index.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(subcommand)]
    command: IndexCommand,
}

#[derive(Debug, clap::Subcommand)]
enum IndexCommand {
    /// Create an index (a folder, or a git repository with --git); with
    /// --org and --key, also allow that key to sign the org's packages.
    /// With --git, an empty bare repository or its URL (what a git host
    /// gives you) gets the index's first commit, pushed. Run on an
    /// existing folder or git index, it also compacts its search listing
    /// (or builds it when there is none).
    Init(InitArgs),
    /// Sign an org's policy.toml with one of its keys and put it, with its
    /// signature, at the index's root: projects whose default registry is
    /// the index then follow it (allowed sources, required signers, the
    /// lowest channel, required channel signatures, unwaivable scanner
    /// rules), pinned on first use.
    Policy(PolicyArgs),
}

#[derive(Debug, clap::Args)]
struct PolicyArgs {
    /// The index: a folder, a git repository path, a git URL or an OCI
    /// registry namespace (oci://HOST/NAMESPACE).
    index: String,
    /// The policy.toml to sign.
    file: std::path::PathBuf,
    /// The org's minisign secret key (default: the config directory's
    /// skillpkg.key).
    #[arg(long, value_name = "FILE")]
    key: Option<std::path::PathBuf>,
}

#[derive(Debug, clap::Args)]
struct InitArgs {
    /// The index directory; with --git, the repository: a new path (bare
    /// if it ends in `.git`), an empty bare repository, or a URL
    /// (file://…, git+https://…, ssh://…); or an OCI registry namespace,
    /// oci://HOST/NAMESPACE.
    dir: String,
    /// Create a git repository holding the index.
    #[arg(long)]
    git: bool,
    /// An organisation whose signing key to register.
    #[arg(long, requires = "key")]
    org: Option<String>,
    /// The org's minisign public key: a `.pub` file or its base64 line.
    #[arg(long, requires = "org")]
    key: Option<String>,
    /// The index's identity, which its channel records and policy are
    /// signed for: its canonical URL as projects reach it (default: the
    /// URL or namespace given, or a folder's file:// URL). Set once; an
    /// index keeps it.
    #[arg(long, value_name = "URL")]
    identity: Option<String>,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let args = match args.command {
        IndexCommand::Init(args) => args,
        IndexCommand::Policy(args) => return policy(args, context),
    };
    let dir = super::publish::resolve_index(&args.dir, &context.cwd);
    let org_key = match (&args.org, &args.key) {
        (Some(org), Some(key)) => Some((org.as_str(), key.as_str())),
        (None, None) => None,
        _ => bail!("--org and --key go together"),
    };
    let dirs = context.dirs()?.clone();
    let done =
        crate::ops::publish::init_index(&dir, args.git, org_key, args.identity.as_deref(), &dirs)?;
    let kind = match (args.git, dir.starts_with("oci://")) {
        (true, _) => "git index",
        (false, true) => "OCI index",
        (false, false) => "index",
    };
    match done {
        Initialised::Created => context
            .printer
            .status("Created", format_args!("{kind} at {dir}")),
        Initialised::Pushed => context.printer.status(
            "Created",
            format_args!("{kind} in {dir} (its first commit is pushed)"),
        ),
        Initialised::Updated => context
            .printer
            .status("Updated", format_args!("the {kind} at {dir}")),
    }
    if let Some(org) = &args.org {
        context
            .printer
            .status("Trusted", format_args!("the given key for org '{org}'"));
    }
    Ok(ExitStatus::Success)
}

/// `index policy INDEX FILE`.
fn policy(args: PolicyArgs, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let index = super::publish::resolve_index(&args.index, &context.cwd);
    let key = super::publish::secret_key(args.key.as_deref(), context)?;
    let dirs = context.dirs()?.clone();
    let signed =
        crate::ops::index_policy::sign_policy(&index, &context.cwd.join(&args.file), &key, &dirs)?;
    context.printer.status(
        "Signed",
        format_args!(
            "the policy of org '{}' ({}) in {index}",
            signed.org, signed.digest
        ),
    );
    Ok(ExitStatus::Success)
}
