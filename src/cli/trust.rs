//! `skillpkg trust key SOURCE (--key KEY | --oms-root CERT |
//! --sigstore-identity ID --sigstore-issuer URL) [--replace]`, `trust key
//! SOURCE --remove`, `trust list` and `trust project [--revoke]`; the
//! spellings before the subcommands (`trust SOURCE --key …`, `trust
//! --list`, `trust --project`) still work.

use super::{Context, ExitStatus};
use crate::ops::provenance::signer_policy;

/// Say who may sign a source's skills (`trust key`), or trust this
/// project's own settings on this machine (`trust project`); `trust list`
/// lists the signer policies.
#[derive(Debug, clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    mut_arg("key", |a| a.hide(true)),
    mut_arg("oms_root", |a| a.hide(true)),
    mut_arg("sigstore_identity", |a| a.hide(true)),
    mut_arg("sigstore_identity_regexp", |a| a.hide(true)),
    mut_arg("sigstore_issuer", |a| a.hide(true)),
    mut_arg("trusted_root", |a| a.hide(true)),
    mut_arg("replace", |a| a.hide(true)),
    mut_arg("revoke_source", |a| a.hide(true))
)]
pub(super) struct Args {
    #[command(subcommand)]
    spelled: Option<Spelled>,
    /// Today's spellings, kept: `trust SOURCE --key …`, `trust --project`,
    /// `trust --list`.
    #[command(flatten)]
    flat: Flat,
}

/// The two meanings of `trust`, and its listing.
#[derive(Debug, clap::Subcommand)]
enum Spelled {
    /// Say who may sign a source's skills: a minisign key for an org
    /// (pinned in skills.lock), OMS root certificates or Sigstore
    /// identities for an org or any source `add` takes (kept in your
    /// config, checked on every install). Also spelt `trust SOURCE --key …`.
    Key(KeyArgs),
    /// Trust this project's own settings that run code on this machine: its
    /// `[agent]` table, the grants its skills.lock records, and the sources
    /// its skills.toml names outside the project. Also spelt `trust
    /// --project`.
    Project(ProjectArgs),
    /// List the signer policies: yours, and the keys skills.lock pins. Also
    /// spelt `trust --list`.
    List(ListArgs),
}

/// `trust key SOURCE (--key KEY | --oms-root CERT | --sigstore-identity …)`.
#[derive(Debug, clap::Args)]
#[command(group(
    clap::ArgGroup::new("signer")
        .required(true)
        .args(["key", "oms_root", "sigstore_identity", "sigstore_identity_regexp", "revoke_source"])
))]
struct KeyArgs {
    /// An org (`nvidia`), or a source as `add` takes it: a repository URL,
    /// `github:owner/repo`, `git+…`, `oci://…` or a folder.
    #[arg(value_name = "SOURCE")]
    source: String,
    #[command(flatten)]
    signer: SignerArgs,
    /// The user's global skills instead of the project's.
    #[arg(long, short = 'g')]
    global: bool,
}

/// `trust project [--revoke]`.
#[derive(Debug, clap::Args)]
struct ProjectArgs {
    /// Stop trusting it.
    #[arg(long)]
    revoke: bool,
    /// The user's global skills instead of the project's.
    #[arg(long, short = 'g')]
    global: bool,
}

/// `trust list [--json]`.
#[derive(Debug, clap::Args)]
struct ListArgs {
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
    /// The user's global skills instead of the project's.
    #[arg(long, short = 'g')]
    global: bool,
}

/// Who may sign SOURCE's skills.
#[derive(Debug, Default, clap::Args)]
struct SignerArgs {
    /// A minisign public key of the org (a `.pub` file or its base64 line),
    /// added to the keys skills.lock pins for it.
    #[arg(long)]
    key: Option<String>,
    /// A PEM file of OMS root certificates: skills from SOURCE must carry a
    /// `skill.oms.sig` whose certificate chains to one of them.
    #[arg(long = "oms-root", value_name = "CERT")]
    oms_root: Option<std::path::PathBuf>,
    /// The Sigstore identity (certificate email or workflow URI, exactly)
    /// that must sign SOURCE's packages.
    #[arg(
        long = "sigstore-identity",
        value_name = "ID",
        requires = "sigstore_issuer"
    )]
    sigstore_identity: Option<String>,
    /// A regex the whole Sigstore identity must match, instead of
    /// --sigstore-identity.
    #[arg(
        long = "sigstore-identity-regexp",
        value_name = "REGEX",
        requires = "sigstore_issuer",
        conflicts_with = "sigstore_identity"
    )]
    sigstore_identity_regexp: Option<String>,
    /// The OIDC issuer that must vouch for the Sigstore identity.
    #[arg(long = "sigstore-issuer", value_name = "URL")]
    sigstore_issuer: Option<String>,
    /// The trusted_root.json Sigstore signatures are checked against
    /// (default: Sigstore's public-good root).
    #[arg(
        long = "trusted-root",
        value_name = "FILE",
        requires = "sigstore_issuer"
    )]
    trusted_root: Option<std::path::PathBuf>,
    /// Make this the only signer SOURCE accepts, and drop what skills.lock
    /// pinned for its skills, so that the next install records the new
    /// signer (the source changed who signs).
    #[arg(long)]
    replace: bool,
    /// Remove SOURCE's signer policy.
    #[arg(long = "remove", id = "revoke_source")]
    revoke_source: bool,
}

/// `trust SOURCE --key …`, `trust --list` and `trust --project`, as they
/// were spelt before the subcommands; hidden from the help, which shows
/// the subcommands.
#[derive(Debug, Default, clap::Args)]
#[command(group(
    clap::ArgGroup::new("old_signer")
        .args(["key", "oms_root", "sigstore_identity", "sigstore_identity_regexp", "revoke_source"])
))]
struct Flat {
    #[arg(
        value_name = "SOURCE",
        hide = true,
        required_unless_present_any = ["project", "list"],
        conflicts_with_all = ["project", "list"],
        requires = "old_signer"
    )]
    source: Option<String>,
    #[command(flatten)]
    signer: SignerArgs,
    #[arg(long, hide = true, conflicts_with = "project")]
    list: bool,
    #[arg(long, hide = true, requires = "list")]
    json: bool,
    #[arg(long, hide = true)]
    project: bool,
    #[arg(long, hide = true, requires = "project")]
    revoke: bool,
    /// The user's global skills instead of the project's.
    #[arg(long, short = 'g')]
    global: bool,
}

impl Args {
    /// Today's spelling of what was asked, whichever way it was spelt.
    fn flat(self) -> Flat {
        match self.spelled {
            None => self.flat,
            Some(Spelled::Key(key)) => Flat {
                source: Some(key.source),
                signer: key.signer,
                global: key.global,
                ..Flat::default()
            },
            Some(Spelled::Project(project)) => Flat {
                project: true,
                revoke: project.revoke,
                global: project.global,
                ..Flat::default()
            },
            Some(Spelled::List(list)) => Flat {
                list: true,
                json: list.json,
                global: list.global,
                ..Flat::default()
            },
        }
    }
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let args = args.flat();
    if args.list {
        return list(&args, context);
    }
    if args.project {
        let project = context.project(args.global)?;
        let dirs = context.dirs()?.clone();
        let manifest = crate::manifest::Manifest::load(&project.manifest_path)?;
        if args.revoke {
            let was = crate::ops::consent::project::revoke(&dirs, &project.dir)?;
            let verb = if was { "Revoked" } else { "Untrusted" };
            context.printer.status(
                verb,
                format_args!("{} is not trusted", project.dir.display()),
            );
        } else {
            let lock = crate::manifest::lock::Lockfile::load(&project.lock_path)?;
            let settings =
                crate::ops::consent::project::TrustedSettings::of(&project.dir, &manifest, &lock);
            crate::ops::consent::project::trust(&dirs, &project.dir, &settings)?;
            describe_trusted(context, &settings);
            context
                .printer
                .status("Trusted", format_args!("{}", project.dir.display()));
        }
        return Ok(ExitStatus::Success);
    }
    let source = args.source.clone().unwrap_or_default();
    if let Some(key) = &args.signer.key {
        let project = context.project(args.global)?;
        return trust_key(context, &project, &source, key, args.signer.replace);
    }
    let dirs = context.dirs()?.clone();
    if args.signer.revoke_source {
        let was = signer_policy::revoke(&dirs, &source, &context.cwd)?;
        match was {
            true => context
                .printer
                .status("Removed", format_args!("the signer policy of {source}")),
            false => context
                .printer
                .status("Unchanged", format_args!("{source} had no signer policy")),
        }
        return Ok(ExitStatus::Success);
    }
    let accept = match (&args.signer.oms_root, &args.signer.sigstore_issuer) {
        (Some(path), _) => {
            signer_policy::Accept::OmsRoots(read_text(path, "OMS root certificate")?)
        }
        (None, Some(issuer)) => signer_policy::Accept::Sigstore {
            identity: signer_policy::SigstoreIdentity {
                identity: args
                    .signer
                    .sigstore_identity
                    .clone()
                    .or(args.signer.sigstore_identity_regexp.clone())
                    .unwrap_or_default(),
                regexp: args.signer.sigstore_identity_regexp.is_some(),
                issuer: issuer.clone(),
            },
            root: match &args.signer.trusted_root {
                Some(path) => Some(read_text(path, "trusted root")?),
                None => None,
            },
        },
        (None, None) => unreachable!("clap requires a signer with SOURCE"),
    };
    let accepted =
        signer_policy::accept(&dirs, &source, &context.cwd, accept, args.signer.replace)?;
    // Policies are the user's; a project's lock, when there is one here,
    // forgets the signers the replaced policy pinned.
    if let (true, Ok(project)) = (args.signer.replace, context.project(args.global)) {
        let dropped = crate::ops::keys::forget_pins(&project, &dirs, &accepted)?;
        for name in dropped {
            context.printer.status(
                "Unpinned",
                format_args!("the signer of {name}: the next install records the new one"),
            );
        }
    }
    context.printer.status(
        "Trusted",
        format_args!(
            "{} for {}",
            describe_signers(&accepted).join(" or "),
            accepted.source
        ),
    );
    Ok(ExitStatus::Success)
}

/// `trust ORG --key KEY`: a minisign key pinned in the project's lock.
fn trust_key(
    context: &mut Context,
    project: &crate::project::Project,
    org: &str,
    key: &str,
    replace: bool,
) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let trusted = crate::ops::keys::trust(project, &dirs, org, key, replace)?;
    for old in &trusted.removed {
        context
            .printer
            .status("Removed", format_args!("key {old} of org '{org}'"));
    }
    let already = match trusted.already {
        true => ", already pinned",
        false => "",
    };
    let count = match trusted.pinned.len() {
        1 => "its only pinned key".to_string(),
        n => format!("one of {n} pinned keys"),
    };
    context.printer.status(
        "Trusted",
        format_args!("key {} of org '{org}'{already} ({count})", trusted.key),
    );
    Ok(ExitStatus::Success)
}

fn read_text(path: &std::path::Path, what: &str) -> anyhow::Result<String> {
    fs_err::read_to_string(path).map_err(|e| {
        crate::hint::Hinted::new(format!("could not read the {what} {}: {e}", path.display()))
            .hint("give the file's path")
            .into()
    })
}

/// Each signer a policy accepts, as one phrase.
fn describe_signers(policy: &signer_policy::Policy) -> Vec<String> {
    let mut signers: Vec<String> = policy
        .oms_roots
        .iter()
        .flat_map(|pem| signer_policy::root_certificates(pem).unwrap_or_default())
        .map(|root| {
            format!(
                "OMS certificates of root {} ({})",
                root.subject, root.fingerprint
            )
        })
        .collect();
    let root = match &policy.sigstore_root {
        Some(json) => format!(
            ", trusted root sha256:{}",
            crate::store::hash::sha256_hex(json.as_bytes())
        ),
        None => String::new(),
    };
    signers.extend(
        policy
            .sigstore
            .iter()
            .map(|identity| format!("Sigstore {identity}{root}")),
    );
    signers
}

/// `trust --list`: the user's policies, then the keys the lock pins.
fn list(args: &Flat, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let policies = signer_policy::Policies::load(&dirs)?;
    let (keys, required) = match context.project(args.global) {
        Ok(project) => {
            let manifest = crate::manifest::Manifest::load(&project.manifest_path)?;
            (
                crate::manifest::lock::Lockfile::load(&project.lock_path)?.keys,
                signer_policy::project_policies(&project, &manifest)?,
            )
        }
        Err(_) => Default::default(),
    };
    if args.json {
        let described = |policies: &[signer_policy::Policy]| -> Vec<serde_json::Value> {
            policies
                .iter()
                .map(|policy| {
                    serde_json::json!({
                        "source": policy.source,
                        "signers": describe_signers(policy),
                    })
                })
                .collect()
        };
        context.printer.json(&serde_json::json!({
            "policies": described(&policies.policies),
            "project": described(&required),
            "keys": keys,
        }))?;
        return Ok(ExitStatus::Success);
    }
    if policies.policies.is_empty() && required.is_empty() && keys.is_empty() {
        context.printer.status(
            "Empty",
            "no signer policies and no pinned keys (see `skillpkg trust --help`)",
        );
    }
    let yours = policies
        .policies
        .iter()
        .map(|policy| (policy, "your policy"));
    let project = required
        .iter()
        .map(|policy| (policy, "skills.toml requires"));
    for (policy, whose) in yours.chain(project) {
        context
            .printer
            .data(format!("{} ({whose}):", policy.source));
        for signer in describe_signers(policy) {
            context.printer.data(format!("  {signer}"));
        }
    }
    for (org, keys) in &keys {
        context
            .printer
            .data(format!("{org} (keys skills.lock pins):"));
        for key in keys {
            context.printer.data(format!("  minisign key {key}"));
        }
    }
    Ok(ExitStatus::Success)
}

/// Lists what trusting a project lets run: its `[agent]` settings, the
/// grants its lock records, and the sources outside it that installs may
/// then read, one status line each.
fn describe_trusted(context: &Context, settings: &crate::ops::consent::project::TrustedSettings) {
    for line in settings.lines() {
        context
            .printer
            .status(line.kind.label(), super::printer::one_line_safe(&line.text));
    }
}
