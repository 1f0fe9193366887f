//! Records an index serves that its orgs sign: an org's policy
//! (`policy.toml` and its signature) and the upstream record `mirror`
//! writes beside each version it re-signs. Their formats are the index's
//! (`index::policy_file`, `index::upstream`); whether the org signed them
//! is decided here.

use crate::hint::Hinted;
use crate::index::policy_file::{IndexPolicy, POLICY_SIGNATURE_FILE, comment};
use crate::index::upstream::Upstream;
use crate::manifest::lock::LockedSigner;
use crate::ops::provenance::Proof;
use crate::store::signing;

/// The key among `keys` whose minisign `signature` of `bytes` carries the
/// trusted comment `statement`, as the proof of it.
pub(super) fn minisign_proof(
    bytes: &[u8],
    signature: &str,
    statement: &str,
    keys: &[String],
) -> Option<Proof> {
    let key = keys
        .iter()
        .find(|key| signing::verify_for(key, bytes, signature, statement).is_ok())?;
    Some(Proof {
        signer: LockedSigner::Minisign(key.clone()),
        signature: super::sha256(signature.as_bytes()),
        statement: Some(statement.to_string()),
        vouched: None,
        root: None,
    })
}

/// The proof that one of `keys` (its org's) signed exactly the bytes
/// `text` of `policy` with `signature`; anything else refuses the policy
/// as a whole.
pub(super) fn policy_proof(
    policy: &IndexPolicy,
    text: &[u8],
    signature: Option<&str>,
    keys: &[String],
) -> anyhow::Result<Proof> {
    let org = &policy.policy.org;
    let expected = comment(org, &policy.digest);
    let why = match signature {
        None => format!("it has no signature ({POLICY_SIGNATURE_FILE})"),
        Some(signature) => match minisign_proof(text, signature, &expected, keys) {
            Some(proof) => return Ok(proof),
            None => format!("its signature is not by a key of org '{org}'"),
        },
    };
    anyhow::bail!(
        Hinted::new(format!(
            "the policy {} is refused as a whole: {why}",
            policy.origin
        ))
        .hint("the index's copy was altered, or written without the org's key: do not use the index until its maintainers sign it (`skillpkg index policy`)")
    )
}

/// The proof that one of `keys` (the org's) made `upstream`'s signature,
/// for that version of `package` with archive `cksum`.
pub(super) fn upstream_proof(
    upstream: &Upstream,
    keys: &[String],
    package: &str,
    version: &str,
    cksum: &str,
) -> anyhow::Result<Proof> {
    let statement = upstream.statement(package, version, cksum);
    minisign_proof(&upstream.signed_bytes(), &upstream.sig, &statement, keys).ok_or_else(|| {
        anyhow::anyhow!(
            "the upstream record of {package}@{version} is not signed by a key of its org"
        )
    })
}

#[cfg(test)]
mod tests;
