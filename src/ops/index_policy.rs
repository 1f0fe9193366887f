//! `skillpkg index policy INDEX FILE`: putting an org's signed
//! `policy.toml` in its index.

use std::path::Path;

use anyhow::{Context as _, bail};

use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::index::oci::is_oci_index;
use crate::index::policy_file::{
    MAX_POLICY_BYTES, POLICY_FILE, POLICY_SIGNATURE_FILE, parse, sign,
};
use crate::store::signing::SigningKey;

/// What `index policy` put in place.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SignedPolicy {
    /// The org the policy names.
    pub org: String,
    /// `sha256:<hex>` of the file, as projects pin it.
    pub digest: String,
}

/// Checks the policy `file`, signs it with `key` (which must be one of
/// the keys the index lists for the org the policy names) and writes it
/// with its signature at the root of the folder or git index `index`.
pub fn sign_policy(
    index: &str,
    file: &Path,
    key: &Path,
    dirs: &Dirs,
) -> anyhow::Result<SignedPolicy> {
    let size = fs_err::metadata(file)?.len();
    if size > MAX_POLICY_BYTES {
        bail!(
            "{} is larger than a policy may be ({MAX_POLICY_BYTES} bytes)",
            file.display()
        );
    }
    let text = fs_err::read(file)?;
    let policy = parse(&text, &file.display().to_string())?;
    let key = SigningKey::load(key)?;
    let signature = sign(&key, &policy.org, &text)?;
    let digest = format!("sha256:{}", crate::store::hash::sha256_hex(&text));
    let check = |config: &crate::index::IndexConfig| -> anyhow::Result<()> {
        let keys = config.keys.get(&policy.org).cloned().unwrap_or_default();
        if !keys.contains(&key.public_key()) {
            bail!(
                Hinted::new(format!(
                    "the key {} is not one of org '{}''s keys in {index}, so it cannot sign the org's policy",
                    key.public_key(),
                    policy.org
                ))
                .hint("pass one of the org's secret keys with --key")
            );
        }
        if let (Some(named), Some(identity)) = (&policy.index, &config.identity)
            && named != identity
        {
            bail!(
                Hinted::new(format!(
                    "{} names the index {named}, but {index} is {identity}",
                    file.display()
                ))
                .hint(format!(
                    "a policy is signed for one index: write `index = \"{identity}\"` in it"
                ))
            );
        }
        Ok(())
    };
    if is_oci_index(index) {
        let namespace = crate::index::oci::Namespace::new(index, super::publish::place(dirs))?;
        let mut config = namespace.config()?;
        check(&config)?;
        namespace.write_policy(&text, &signature)?;
        config.policy = Some(digest.clone());
        namespace.write_config(&config)?;
        return Ok(SignedPolicy {
            org: policy.org,
            digest,
        });
    }
    super::publish::change_index(index, &dirs.cache, |dir| {
        let config = dir.config()?;
        check(&config)?;
        for (name, bytes) in [
            (POLICY_FILE, text.as_slice()),
            (POLICY_SIGNATURE_FILE, signature.as_bytes()),
        ] {
            let path = dir.root().join(name);
            crate::fsutil::write_atomically(&path, bytes)
                .with_context(|| format!("could not write {}", path.display()))?;
        }
        // Announced in config.json last: a reader that sees it finds
        // the files.
        let mut config = config;
        config.policy = Some(digest.clone());
        dir.write_config(&config)?;
        Ok(format!("Sign the policy of org {}", policy.org))
    })?;
    Ok(SignedPolicy {
        org: policy.org,
        digest,
    })
}
