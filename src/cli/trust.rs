//! `skillpkg trust SOURCE (--key KEY | --oms-root CERT | --sigstore-identity
//! ID --sigstore-issuer URL) [--replace]`, `trust SOURCE --remove`,
//! `trust --list` and `trust --project [--revoke]`

use super::{Context, ExitStatus};
use crate::ops::keys::signer_policy;

/// Say who may sign a source's skills: a minisign key for an org (pinned
/// in skills.lock), OMS root certificates or Sigstore identities for an org
/// or any source `add` takes (kept in your config, checked on every
/// install); list those policies; or trust this project's own settings on
/// this machine.
#[derive(Debug, clap::Args)]
#[command(group(
    clap::ArgGroup::new("signer")
        .args(["key", "oms_root", "sigstore_identity", "sigstore_identity_regexp", "revoke_source"])
))]
pub(super) struct Args {
    /// An org (`nvidia`), or a source as `add` takes it: a repository URL,
    /// `github:owner/repo`, `git+…`, `oci://…` or a folder.
    #[arg(
        value_name = "SOURCE",
        required_unless_present_any = ["project", "list"],
        conflicts_with_all = ["project", "list"],
        requires = "signer"
    )]
    source: Option<String>,
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
    #[arg(long, requires = "source")]
    replace: bool,
    /// With SOURCE: remove its signer policy.
    #[arg(long = "remove", id = "revoke_source")]
    revoke_source: bool,
    /// List the signer policies: yours, and the keys skills.lock pins.
    #[arg(long, conflicts_with = "project")]
    list: bool,
    /// With --list: print JSON on stdout.
    #[arg(long, requires = "list")]
    json: bool,
    /// Trust this project's own settings that run code on this machine: its
    /// `[agent]` table, the grants its skills.lock records, and the sources
    /// its skills.toml names outside the project.
    #[arg(long)]
    project: bool,
    /// With --project: stop trusting it.
    #[arg(long, requires = "project")]
    revoke: bool,
    /// The user's global skills instead of the project's.
    #[arg(long, short = 'g')]
    global: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
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
    if let Some(key) = &args.key {
        let project = context.project(args.global)?;
        return trust_key(context, &project, &source, key, args.replace);
    }
    let dirs = context.dirs()?.clone();
    if args.revoke_source {
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
    let accept = match (&args.oms_root, &args.sigstore_issuer) {
        (Some(path), _) => {
            signer_policy::Accept::OmsRoots(read_text(path, "OMS root certificate")?)
        }
        (None, Some(issuer)) => signer_policy::Accept::Sigstore {
            identity: signer_policy::SigstoreIdentity {
                identity: args
                    .sigstore_identity
                    .clone()
                    .or(args.sigstore_identity_regexp.clone())
                    .unwrap_or_default(),
                regexp: args.sigstore_identity_regexp.is_some(),
                issuer: issuer.clone(),
            },
            root: match &args.trusted_root {
                Some(path) => Some(read_text(path, "trusted root")?),
                None => None,
            },
        },
        (None, None) => unreachable!("clap requires a signer with SOURCE"),
    };
    let accepted = signer_policy::accept(&dirs, &source, &context.cwd, accept, args.replace)?;
    // Policies are the user's; a project's lock, when there is one here,
    // forgets the signers the replaced policy pinned.
    if let (true, Ok(project)) = (args.replace, context.project(args.global)) {
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
fn list(args: &Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
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
