//! `skillpkg signature verify`

use super::{Context, ExitStatus};
use crate::hint::Hinted;
use crate::manifest::lock::{LockedSigner, SignerTable};
use crate::ops::provenance::oms::{Oms, OmsTrust, SIGNATURE_FILE};
use crate::ops::provenance::sigstore::{Policy, Root, Sigstore};
use crate::ops::provenance::{Subject, Verified, Verifier, minisign::Minisign};
use std::path::{Path, PathBuf};

/// Check signatures by hand.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(subcommand)]
    command: SignatureCommand,
}

#[derive(Debug, clap::Subcommand)]
enum SignatureCommand {
    /// Verify a file's or a skill folder's signature; exit 0 only when it
    /// verifies.
    Verify(VerifyArgs),
}

/// Verify a file's detached signature (a minisign signature with the keys
/// given, or a Sigstore bundle against an identity and issuer, or a key,
/// and a trusted root), or a skill folder's OpenSSF Model Signing
/// signature (its `skill.oms.sig`, against root certificates or a key).
/// Exits 0 only when it verifies; otherwise says which file or check
/// failed.
#[derive(Debug, clap::Args)]
#[command(group(
    clap::ArgGroup::new("sigstore_policy")
        .args(["identity", "identity_regexp", "key"])
))]
#[command(group(clap::ArgGroup::new("oms_policy").args(["oms_root", "key"])))]
struct VerifyArgs {
    /// The signed file, or `sha256:<64 hex>` (its digest) for a Sigstore
    /// bundle when no such file exists, or a skill folder for its OMS
    /// signature.
    path: PathBuf,
    /// A minisign public key (its base64 line, or a .pub file) that may
    /// have signed it (repeatable).
    #[arg(
        long = "minisign-key",
        value_name = "KEY",
        conflicts_with_all = ["bundle", "oms_root", "key"]
    )]
    minisign_keys: Vec<String>,
    /// The minisign signature (default: PATH.minisig), or a folder's OMS
    /// signature (default: PATH/skill.oms.sig).
    #[arg(long, value_name = "FILE", conflicts_with = "bundle")]
    signature: Option<PathBuf>,
    /// A Sigstore bundle (JSON) to verify instead of a minisign signature.
    #[arg(long, value_name = "FILE", requires = "sigstore_policy")]
    bundle: Option<PathBuf>,
    /// The identity that must have signed the bundle: the certificate's
    /// email or workflow URI, exactly.
    #[arg(long, value_name = "ID", requires = "issuer")]
    identity: Option<String>,
    /// A regex that must match the whole signing identity, instead of
    /// --identity.
    #[arg(long = "identity-regexp", value_name = "REGEX", requires = "issuer")]
    identity_regexp: Option<String>,
    /// The OIDC issuer that must have vouched for the identity.
    #[arg(long, value_name = "URL", conflicts_with = "key")]
    issuer: Option<String>,
    /// The public key (PEM) of a keyed Sigstore bundle, instead of an
    /// identity, or of a folder's OMS signature made with a bare key.
    #[arg(long, value_name = "PEM")]
    key: Option<PathBuf>,
    /// The trusted_root.json to verify the bundle (or a folder's keyless
    /// OMS signature) against (default: the public-good Sigstore root
    /// embedded in skillpkg).
    #[arg(
        long = "trusted-root",
        value_name = "FILE",
        requires = "sigstore_policy"
    )]
    trusted_root: Option<PathBuf>,
    /// Verify against Sigstore's staging instance instead.
    #[arg(long, requires = "sigstore_policy", conflicts_with = "trusted_root")]
    staging: bool,
    /// The root certificates (PEM, one or more) a folder's OMS signature
    /// must chain to.
    #[arg(
        long = "oms-root",
        value_name = "CERT",
        conflicts_with_all = ["bundle", "key", "trusted_root", "staging"]
    )]
    oms_root: Option<PathBuf>,
    /// Check only the files a folder's OMS signature lists: a file it
    /// does not list is let be (a listed one must still be there).
    #[arg(
        long = "ignore-unsigned-files",
        requires = "oms_policy",
        conflicts_with = "bundle"
    )]
    ignore_unsigned_files: bool,
    /// Print the verdict as JSON on stdout.
    #[arg(long)]
    json: bool,
}

/// `sha256:<64 hex>` as a digest.
fn parse_digest(text: &str) -> Option<[u8; 32]> {
    crate::store::hash::unhex(text.strip_prefix("sha256:")?)?
        .try_into()
        .ok()
}

fn read_text(path: &Path, what: &str, hint: &str) -> anyhow::Result<String> {
    fs_err::read_to_string(path).map_err(|e| {
        Hinted::new(format!("could not read the {what} {}: {e}", path.display()))
            .hint(hint)
            .into()
    })
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let SignatureCommand::Verify(args) = args.command;
    let folder = args.path.is_dir();
    let digest = match args.path.to_str().and_then(parse_digest) {
        Some(digest) if !args.path.exists() => Some(digest),
        _ => None,
    };
    let identity = args.identity.is_some() || args.identity_regexp.is_some();
    if identity && args.bundle.is_none() && !folder {
        anyhow::bail!(
            Hinted::new(format!(
                "{}: an identity is checked in a Sigstore bundle, and none was given",
                args.path.display()
            ))
            .hint("give --bundle FILE, or a skill folder for its keyless OMS signature")
        );
    }
    let oms = args.bundle.is_none()
        && (args.oms_root.is_some() || args.key.is_some() || (identity && folder));
    if oms && !folder {
        anyhow::bail!(
            Hinted::new(format!(
                "{}: an OMS signature covers a skill folder, and this is not one",
                args.path.display()
            ))
            .hint("give the signed skill folder, or --bundle FILE with --key for a Sigstore bundle over a file")
        );
    }
    if args.bundle.is_none() && !oms && args.minisign_keys.is_empty() {
        anyhow::bail!(match folder {
            true => Hinted::new(format!(
                "{}: a folder's OMS signature needs what its signer must chain to",
                args.path.display()
            ))
            .hint("give --oms-root CERT (the root certificates, PEM), --key PEM (the signer's public key), or --identity ID --issuer URL (a keyless signature)"),
            false => Hinted::new(format!(
                "{}: nothing to check the signature against",
                args.path.display()
            ))
            .hint("give --minisign-key KEY, or --bundle FILE with --identity ID --issuer URL or --key PEM"),
        });
    }
    if folder && !args.minisign_keys.is_empty() {
        anyhow::bail!(
            Hinted::new(format!(
                "{}: a minisign signature signs files, not folders",
                args.path.display()
            ))
            .hint("give --oms-root CERT or --key PEM for the folder's OMS signature")
        );
    }
    if digest.is_some() && args.bundle.is_none() {
        anyhow::bail!(
            Hinted::new(format!(
                "{}: a minisign signature is checked against the file, not its digest",
                args.path.display()
            ))
            .hint("give the signed file's path")
        );
    }
    let bytes = match digest {
        Some(_) => Vec::new(),
        None if folder => Vec::new(),
        None => fs_err::read(&args.path).map_err(|e| {
            Hinted::new(format!("could not read {}: {e}", args.path.display()))
                .hint("give the file that was signed")
        })?,
    };
    let subject = match digest {
        Some(digest) => Subject::Sha256(digest),
        None if folder => Subject::Folder(&args.path),
        None => Subject::Bytes(&bytes),
    };
    let (verifier, signature_path): (Box<dyn Verifier>, PathBuf) = match &args.bundle {
        Some(bundle_path) => (sigstore(&args, bundle_path)?, bundle_path.clone()),
        None if oms => oms_verifier(&args)?,
        None => minisign(&args)?,
    };
    let verified = verifier.verify(subject).map_err(|e| {
        e.context(format!(
            "{}: the {} signature {} does not verify",
            args.path.display(),
            verifier.family(),
            signature_path.display()
        ))
    })?;
    print_verdict(&args, &verified, context)?;
    Ok(ExitStatus::Success)
}

/// Prints what verified `args.path`: the signer, and with `--json` the
/// signature's digest and statement too.
fn print_verdict(
    args: &VerifyArgs,
    verified: &Verified,
    context: &mut Context,
) -> anyhow::Result<()> {
    if args.json {
        context.printer.json(&serde_json::json!({
            "path": args.path,
            "verified": true,
            "signer": reported(&verified.signer),
            "signature": verified.signature,
            "statement": verified.statement,
        }))?;
    } else {
        let signer = shown(&verified.signer);
        let path = args.path.display();
        context
            .printer
            .status("Verified", format_args!("{path}: signed by {signer}"));
    }
    Ok(())
}

/// The signer as `--json` reports it: its family, and what names it in
/// that family.
fn reported(signer: &LockedSigner) -> serde_json::Value {
    use serde_json::json;
    match signer {
        LockedSigner::Minisign(key) => json!({ "family": "minisign", "key": key }),
        LockedSigner::Other(SignerTable::Sigstore {
            identity, issuer, ..
        }) => json!({ "family": "sigstore", "identity": identity, "issuer": issuer }),
        LockedSigner::Other(SignerTable::SigstoreKey { key }) => {
            json!({ "family": "sigstore-key", "key": key })
        }
        LockedSigner::Other(SignerTable::Oms { subject, chain }) => {
            json!({ "family": "oms", "subject": subject, "chain": chain })
        }
        LockedSigner::Other(SignerTable::OmsKey { key }) => {
            json!({ "family": "oms-key", "key": key })
        }
    }
}

/// The signer as the verdict names it: an OMS certificate by its subject
/// and the root it chains to.
fn shown(signer: &LockedSigner) -> String {
    match signer {
        LockedSigner::Other(SignerTable::Oms { subject, chain }) => {
            format!("{subject} (root {chain})")
        }
        other => other.to_string(),
    }
}

/// The Sigstore verifier for `--bundle`.
fn sigstore(args: &VerifyArgs, bundle_path: &Path) -> anyhow::Result<Box<dyn Verifier>> {
    let bundle = read_text(
        bundle_path,
        "bundle",
        "give the Sigstore bundle's JSON file",
    )?;
    Ok(Box::new(Sigstore {
        bundle,
        policy: sigstore_policy(args)?,
        root: sigstore_root(args)?,
    }))
}

/// The signer a Sigstore signature must be by: `--key`, or `--identity`
/// (`--identity-regexp`) with `--issuer`.
fn sigstore_policy(args: &VerifyArgs) -> anyhow::Result<Policy> {
    Ok(
        match (
            &args.key,
            &args.identity,
            &args.identity_regexp,
            &args.issuer,
        ) {
            (Some(key), ..) => Policy::Key(read_text(
                key,
                "public key",
                "give the signer's public key as a PEM file",
            )?),
            (None, Some(identity), _, Some(issuer)) => Policy::Identity {
                identity: identity.clone(),
                issuer: issuer.clone(),
            },
            (None, None, Some(pattern), Some(issuer)) => Policy::IdentityPattern {
                pattern: pattern.clone(),
                issuer: issuer.clone(),
            },
            _ => unreachable!("clap requires --identity/--identity-regexp with --issuer, or --key"),
        },
    )
}

/// The trusted root a Sigstore signature is checked against.
fn sigstore_root(args: &VerifyArgs) -> anyhow::Result<Root> {
    Ok(match &args.trusted_root {
        Some(path) => Root::Json(read_text(
            path,
            "trusted root",
            "give a trusted_root.json, or leave --trusted-root out for Sigstore's public-good root",
        )?),
        None if args.staging => Root::Staging,
        None => Root::Production,
    })
}

/// The OMS verifier for a folder, with `--oms-root` or `--key`, and the
/// signature's path.
fn oms_verifier(args: &VerifyArgs) -> anyhow::Result<(Box<dyn Verifier>, PathBuf)> {
    let signature_path = args
        .signature
        .clone()
        .unwrap_or_else(|| args.path.join(SIGNATURE_FILE));
    let bundle = read_text(
        &signature_path,
        "signature",
        "give the folder's OMS signature with --signature FILE",
    )?;
    let trust = match (&args.oms_root, &args.key) {
        (Some(roots), _) => OmsTrust::Roots(read_text(
            roots,
            "root certificates",
            "give the root certificates the signer chains to, as a PEM file",
        )?),
        (None, Some(key)) => OmsTrust::Key(read_text(
            key,
            "public key",
            "give the signer's public key as a PEM file",
        )?),
        (None, None) => OmsTrust::Sigstore(sigstore_policy(args)?, sigstore_root(args)?),
    };
    let verifier = Oms {
        bundle,
        trust,
        ignore_unsigned_files: args.ignore_unsigned_files,
    };
    Ok((Box::new(verifier), signature_path))
}

/// The minisign verifier for `--minisign-key`, and the signature's path.
fn minisign(args: &VerifyArgs) -> anyhow::Result<(Box<dyn Verifier>, PathBuf)> {
    let signature_path = args.signature.clone().unwrap_or_else(|| {
        let mut name = args.path.clone().into_os_string();
        name.push(".minisig");
        name.into()
    });
    let signature = fs_err::read_to_string(&signature_path).map_err(|e| {
        Hinted::new(format!(
            "could not read the signature {}: {e}",
            signature_path.display()
        ))
        .hint("give it with --signature FILE")
    })?;
    let keys = args
        .minisign_keys
        .iter()
        .map(|key| crate::store::signing::read_public_key(key))
        .collect::<Result<Vec<_>, _>>()?;
    let verifier = Minisign {
        keys,
        signature,
        comment: None,
    };
    Ok((Box::new(verifier), signature_path))
}
