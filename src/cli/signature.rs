//! `skillpkg signature verify`

use super::{Context, ExitStatus};
use crate::manifest::lock::{LockedSigner, SignerTable};
use crate::ops::provenance::Proof;
use crate::ops::provenance::check::check;
use crate::ops::provenance::claim::{Claim, Pins};
use crate::ops::provenance::given::Given;
use std::path::PathBuf;

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

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let SignatureCommand::Verify(args) = args.command;
    let given = args.given();
    let verified = check(Claim::Given(&given), &Pins::none())
        .proof()?
        .expect("a given signature is checked or refused");
    print_verdict(&args, &verified, context)?;
    Ok(ExitStatus::Success)
}

impl VerifyArgs {
    /// What was given, for ops to check.
    fn given(&self) -> Given {
        Given {
            path: self.path.clone(),
            minisign_keys: self.minisign_keys.clone(),
            signature: self.signature.clone(),
            bundle: self.bundle.clone(),
            identity: self.identity.clone(),
            identity_regexp: self.identity_regexp.clone(),
            issuer: self.issuer.clone(),
            key: self.key.clone(),
            trusted_root: self.trusted_root.clone(),
            staging: self.staging,
            oms_root: self.oms_root.clone(),
            ignore_unsigned_files: self.ignore_unsigned_files,
        }
    }
}

/// Prints what verified `args.path`: the signer, and with `--json` the
/// signature's digest and statement too.
fn print_verdict(args: &VerifyArgs, verified: &Proof, context: &mut Context) -> anyhow::Result<()> {
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
