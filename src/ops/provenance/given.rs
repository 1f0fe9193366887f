//! A signature given by hand (`signature verify`): a file's minisign
//! signature or Sigstore bundle, or a skill folder's OMS signature,
//! checked against the keys, identity, roots or trusted root given.

use std::path::{Path, PathBuf};

use super::minisign::Minisign;
use super::oms::{Oms, OmsTrust, SIGNATURE_FILE};
use super::sigstore::{Policy, Root, Sigstore};
use super::{Proof, Subject, Verifier};
use crate::hint::Hinted;

/// What `signature verify` was given.
#[derive(Debug, Clone, Default)]
pub(crate) struct Given {
    /// The signed file, `sha256:<hex>` (its digest, for a bundle), or a
    /// skill folder.
    pub path: PathBuf,
    /// Minisign public keys (base64 lines or .pub files).
    pub minisign_keys: Vec<String>,
    /// The minisign or OMS signature's file.
    pub signature: Option<PathBuf>,
    /// A Sigstore bundle.
    pub bundle: Option<PathBuf>,
    /// The identity that must have signed.
    pub identity: Option<String>,
    /// A regex the identity must match.
    pub identity_regexp: Option<String>,
    /// The OIDC issuer.
    pub issuer: Option<String>,
    /// A public key (PEM).
    pub key: Option<PathBuf>,
    /// A Sigstore trusted_root.json.
    pub trusted_root: Option<PathBuf>,
    /// Sigstore's staging instance.
    pub staging: bool,
    /// Root certificates an OMS signature must chain to.
    pub oms_root: Option<PathBuf>,
    /// Check only the files an OMS signature lists.
    pub ignore_unsigned_files: bool,
}

/// `sha256:<64 hex>` as a digest.
fn parse_digest(text: &str) -> Option<[u8; 32]> {
    crate::store::hash::unhex(text.strip_prefix("sha256:")?)?
        .try_into()
        .ok()
}

/// The text of `path` (a `what` given), or an error with `hint`.
fn read_text(path: &Path, what: &str, hint: &str) -> anyhow::Result<String> {
    fs_err::read_to_string(path).map_err(|e| {
        Hinted::new(format!("could not read the {what} {}: {e}", path.display()))
            .hint(hint)
            .into()
    })
}

/// Checks the signature `given` names over its path: which family and
/// what it must be checked against follow from what is given.
pub(super) fn check(given: &Given) -> anyhow::Result<Proof> {
    let folder = given.path.is_dir();
    let digest = match given.path.to_str().and_then(parse_digest) {
        Some(digest) if !given.path.exists() => Some(digest),
        _ => None,
    };
    let identity = given.identity.is_some() || given.identity_regexp.is_some();
    if identity && given.bundle.is_none() && !folder {
        anyhow::bail!(
            Hinted::new(format!(
                "{}: an identity is checked in a Sigstore bundle, and none was given",
                given.path.display()
            ))
            .hint("give --bundle FILE, or a skill folder for its keyless OMS signature")
        );
    }
    let oms = given.bundle.is_none()
        && (given.oms_root.is_some() || given.key.is_some() || (identity && folder));
    if oms && !folder {
        anyhow::bail!(
            Hinted::new(format!(
                "{}: an OMS signature covers a skill folder, and this is not one",
                given.path.display()
            ))
            .hint("give the signed skill folder, or --bundle FILE with --key for a Sigstore bundle over a file")
        );
    }
    if given.bundle.is_none() && !oms && given.minisign_keys.is_empty() {
        anyhow::bail!(match folder {
            true => Hinted::new(format!(
                "{}: a folder's OMS signature needs what its signer must chain to",
                given.path.display()
            ))
            .hint("give --oms-root CERT (the root certificates, PEM), --key PEM (the signer's public key), or --identity ID --issuer URL (a keyless signature)"),
            false => Hinted::new(format!(
                "{}: nothing to check the signature against",
                given.path.display()
            ))
            .hint("give --minisign-key KEY, or --bundle FILE with --identity ID --issuer URL or --key PEM"),
        });
    }
    if folder && !given.minisign_keys.is_empty() {
        anyhow::bail!(
            Hinted::new(format!(
                "{}: a minisign signature signs files, not folders",
                given.path.display()
            ))
            .hint("give --oms-root CERT or --key PEM for the folder's OMS signature")
        );
    }
    if digest.is_some() && given.bundle.is_none() {
        anyhow::bail!(
            Hinted::new(format!(
                "{}: a minisign signature is checked against the file, not its digest",
                given.path.display()
            ))
            .hint("give the signed file's path")
        );
    }
    let bytes = match digest {
        Some(_) => Vec::new(),
        None if folder => Vec::new(),
        None => fs_err::read(&given.path).map_err(|e| {
            Hinted::new(format!("could not read {}: {e}", given.path.display()))
                .hint("give the file that was signed")
        })?,
    };
    let subject = match digest {
        Some(digest) => Subject::Sha256(digest),
        None if folder => Subject::Folder(&given.path),
        None => Subject::Bytes(&bytes),
    };
    let (verifier, signature_path): (Box<dyn Verifier>, PathBuf) = match &given.bundle {
        Some(bundle_path) => (sigstore(given, bundle_path)?, bundle_path.clone()),
        None if oms => oms_verifier(given)?,
        None => minisign(given)?,
    };
    let verified = verifier.verify(subject).map_err(|e| {
        e.context(format!(
            "{}: the {} signature {} does not verify",
            given.path.display(),
            verifier.family(),
            signature_path.display()
        ))
    })?;
    Ok(verified)
}

/// The Sigstore verifier for `--bundle`.
fn sigstore(given: &Given, bundle_path: &Path) -> anyhow::Result<Box<dyn Verifier>> {
    let bundle = read_text(
        bundle_path,
        "bundle",
        "give the Sigstore bundle's JSON file",
    )?;
    Ok(Box::new(Sigstore {
        bundle,
        policy: sigstore_policy(given)?,
        root: sigstore_root(given)?,
    }))
}

/// The signer a Sigstore signature must be by: `--key`, or `--identity`
/// (`--identity-regexp`) with `--issuer`.
fn sigstore_policy(given: &Given) -> anyhow::Result<Policy> {
    Ok(
        match (
            &given.key,
            &given.identity,
            &given.identity_regexp,
            &given.issuer,
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
fn sigstore_root(given: &Given) -> anyhow::Result<Root> {
    Ok(match &given.trusted_root {
        Some(path) => Root::Json(read_text(
            path,
            "trusted root",
            "give a trusted_root.json, or leave --trusted-root out for Sigstore's public-good root",
        )?),
        None if given.staging => Root::Staging,
        None => Root::Production,
    })
}

/// The OMS verifier for a folder, with `--oms-root` or `--key`, and the
/// signature's path.
fn oms_verifier(given: &Given) -> anyhow::Result<(Box<dyn Verifier>, PathBuf)> {
    let signature_path = given
        .signature
        .clone()
        .unwrap_or_else(|| given.path.join(SIGNATURE_FILE));
    let bundle = read_text(
        &signature_path,
        "signature",
        "give the folder's OMS signature with --signature FILE",
    )?;
    let trust = match (&given.oms_root, &given.key) {
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
        (None, None) => OmsTrust::Sigstore(sigstore_policy(given)?, sigstore_root(given)?),
    };
    let verifier = Oms {
        bundle,
        trust,
        ignore_unsigned_files: given.ignore_unsigned_files,
    };
    Ok((Box::new(verifier), signature_path))
}

/// The minisign verifier for `--minisign-key`, and the signature's path.
fn minisign(given: &Given) -> anyhow::Result<(Box<dyn Verifier>, PathBuf)> {
    let signature_path = given.signature.clone().unwrap_or_else(|| {
        let mut name = given.path.clone().into_os_string();
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
    let keys = given
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
