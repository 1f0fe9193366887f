//! minisign signatures: a detached `.minisig` (prehashed, as the
//! `minisign` CLI and `skillpkg publish` make them) checked with the
//! public keys a policy allows.

use super::{Proof, Subject, Verifier};
use crate::hint::Hinted;
use crate::manifest::lock::LockedSigner;
use crate::store::signing;

/// A minisign signature and the keys that may have made it.
#[derive(Debug, Clone)]
pub(crate) struct Minisign {
    /// The allowed public keys (base64 lines).
    pub keys: Vec<String>,
    /// The signature file's text.
    pub signature: String,
    /// The trusted comment the signature must carry, when one is required
    /// (packages: `skillpkg org/name@version sha256:…`).
    pub comment: Option<String>,
}

impl Verifier for Minisign {
    fn family(&self) -> &'static str {
        "minisign"
    }

    fn verify(&self, subject: Subject<'_>) -> anyhow::Result<Proof> {
        let bytes = match subject {
            Subject::Bytes(bytes) => bytes,
            Subject::Sha256(_) => anyhow::bail!(
                Hinted::new("a minisign signature is checked against the file, not its digest")
                    .hint("give the signed file's path")
            ),
            Subject::Folder(_) => anyhow::bail!(
                Hinted::new("a minisign signature signs files, not folders")
                    .hint("give the signed file's path")
            ),
        };
        let named = signing::signature_key_id(&self.signature).ok_or_else(|| {
            Hinted::new("the minisign signature cannot be read")
                .hint("give the .minisig file the minisign CLI or `skillpkg publish` wrote")
        })?;
        // Only the key whose id the signature names can have made it.
        let Some(key) = self
            .keys
            .iter()
            .find(|key| signing::public_key_id(key) == Some(named))
        else {
            anyhow::bail!(
                Hinted::new(format!(
                    "the signature was made by key id {}, which is not among the {} key(s) given",
                    hex(&named),
                    self.keys.len()
                ))
                .hint("check which key signed it, or that the file is the one that was signed")
            );
        };
        let comment = match &self.comment {
            Some(expected) => {
                signing::verify_for(key, bytes, &self.signature, expected)?;
                expected.clone()
            }
            None => signing::verify(key, bytes, &self.signature)?,
        };
        Ok(Proof {
            signer: LockedSigner::Minisign(key.clone()),
            signature: super::sha256(self.signature.as_bytes()),
            statement: Some(comment),
            vouched: None,
            root: None,
        })
    }
}

/// A key id as minisign prints it: 16 hex digits, most significant first.
fn hex(id: &[u8; 8]) -> String {
    let mut reversed = *id;
    reversed.reverse();
    crate::store::hash::hex(&reversed).to_uppercase()
}
