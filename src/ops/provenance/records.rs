//! Records an index serves that its orgs sign: an org's policy
//! (`policy.toml` and its signature) and the upstream record `mirror`
//! writes beside each version it re-signs. Their formats are the index's
//! (`index::policy_file`, `index::upstream`); whether the org signed them
//! is decided here.

use crate::hint::Hinted;
use crate::index::policy_file::{IndexPolicy, POLICY_SIGNATURE_FILE, comment, parse};
use crate::index::upstream::Upstream;
use crate::store::signing;

/// The policy `text` with its `signature`, checked: it must parse, and
/// one of `keys_of(org)` (the org it names) must have signed exactly
/// these bytes. Anything else refuses the policy as a whole.
pub(crate) fn verified_policy(
    text: &[u8],
    signature: Option<&str>,
    origin: &str,
    keys_of: impl Fn(&str) -> Vec<String>,
) -> anyhow::Result<IndexPolicy> {
    let policy = parse(text, origin)?;
    let digest = format!("sha256:{}", crate::store::hash::sha256_hex(text));
    let keys = keys_of(&policy.org);
    let expected = comment(&policy.org, &digest);
    let signed = signature.is_some_and(|signature| {
        keys.iter()
            .any(|key| signing::verify_for(key, text, signature, &expected).is_ok())
    });
    if !signed {
        let why = match signature {
            None => format!("it has no signature ({POLICY_SIGNATURE_FILE})"),
            Some(_) => format!("its signature is not by a key of org '{}'", policy.org),
        };
        anyhow::bail!(
            Hinted::new(format!("the policy {origin} is refused as a whole: {why}"))
                .hint("the index's copy was altered, or written without the org's key: do not use the index until its maintainers sign it (`skillpkg index policy`)")
        );
    }
    Ok(IndexPolicy {
        policy,
        digest,
        origin: origin.to_string(),
    })
}

/// Whether `keys` (the org's) made `upstream`'s signature, for that
/// version of `package` with archive `cksum`.
pub(crate) fn upstream_is_signed_by(
    upstream: &Upstream,
    keys: &[String],
    package: &str,
    version: &str,
    cksum: &str,
) -> bool {
    let comment = upstream.statement(package, version, cksum);
    let bytes = upstream.signed_bytes();
    keys.iter()
        .any(|key| signing::verify_for(key, &bytes, &upstream.sig, &comment).is_ok())
}

#[cfg(test)]
mod tests;
