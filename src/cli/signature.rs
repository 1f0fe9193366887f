//! `skillpkg signature verify`

use super::{Context, ExitStatus};
use crate::hint::Hinted;
use crate::store::provenance::{Subject, Verifier, minisign::Minisign};

/// Check signatures by hand.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(subcommand)]
    command: SignatureCommand,
}

#[derive(Debug, clap::Subcommand)]
enum SignatureCommand {
    /// Verify a file's signature; exit 0 only when it verifies.
    Verify(VerifyArgs),
}

/// Verify a file's detached signature with the keys given. Exits 0 only
/// when it verifies; otherwise says which file or check failed.
#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// The signed file.
    path: std::path::PathBuf,
    /// A minisign public key (its base64 line, or a .pub file) that may
    /// have signed it (repeatable).
    #[arg(long = "minisign-key", value_name = "KEY", required = true)]
    minisign_keys: Vec<String>,
    /// The minisign signature (default: PATH.minisig).
    #[arg(long, value_name = "FILE")]
    signature: Option<std::path::PathBuf>,
    /// Print the verdict as JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let SignatureCommand::Verify(args) = args.command;
    let bytes = fs_err::read(&args.path).map_err(|e| {
        Hinted::new(format!("could not read {}: {e}", args.path.display()))
            .hint("give the file that was signed")
    })?;
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
    let verified = verifier.verify(Subject::Bytes(&bytes)).map_err(|e| {
        e.context(format!(
            "{}: the {} signature {} does not verify",
            args.path.display(),
            verifier.family(),
            signature_path.display()
        ))
    })?;
    if args.json {
        context.printer.json(&serde_json::json!({
            "path": args.path,
            "verified": true,
            "signer": verified.signer,
            "signature": verified.signature,
            "statement": verified.statement,
        }))?;
    } else {
        context.printer.status(
            "Verified",
            format_args!("{}: signed by {}", args.path.display(), verified.signer),
        );
    }
    Ok(ExitStatus::Success)
}
