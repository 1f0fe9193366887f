//! Where a mirrored version came from (`skillpkg mirror`): the upstream
//! source as the user gave it, the commit or digest it was taken at, who
//! signed it there, and who mirrored it when. Signed with the mirroring
//! key together with the archive's checksum, so that an index host can
//! neither rewrite a version's origin nor move it to another archive.

use serde::{Deserialize, Serialize};

use crate::manifest::lock::LockedSigner;
use crate::store::hash::sha256_hex;
use crate::store::signing::{SigningError, SigningKey};

/// An entry's `upstream`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upstream {
    /// The source as the user gave it (`https://…`, `file://…`,
    /// `github:owner/repo`, `oci://…`).
    pub source: String,
    /// The git commit it was taken at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The OCI manifest digest it was taken at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// What verified it upstream, as `skills.lock` records a signer; absent
    /// when the upstream signs nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signer: Option<LockedSigner>,
    /// The minisign public key that mirrored it.
    pub by: String,
    /// When (RFC 3339, UTC).
    pub at: String,
    /// The minisign signature of the fields above and the archive's
    /// checksum (see [`Upstream::statement`]).
    #[serde(default)]
    pub sig: String,
}

impl Upstream {
    /// The bytes the signature covers: the fields but `sig`, as JSON.
    pub fn signed_bytes(&self) -> Vec<u8> {
        let unsigned = Upstream {
            sig: String::new(),
            ..self.clone()
        };
        serde_json::to_vec(&unsigned).expect("upstream serialises")
    }

    /// The trusted comment of its signature, for the version
    /// `package@version` whose archive has the sha256 `cksum`.
    pub fn statement(&self, package: &str, version: &str, cksum: &str) -> String {
        format!(
            "skillpkg-upstream {package}@{version} sha256:{cksum} sha256:{}",
            sha256_hex(&self.signed_bytes())
        )
    }

    /// Signs it with `key` for that version, setting `by` and `sig`.
    pub fn sign(
        &mut self,
        key: &SigningKey,
        package: &str,
        version: &str,
        cksum: &str,
    ) -> Result<(), SigningError> {
        self.by = key.public_key();
        self.sig = String::new();
        let comment = self.statement(package, version, cksum);
        self.sig = key.sign(&self.signed_bytes(), &comment)?;
        Ok(())
    }

    /// Where it was taken: the commit or the digest.
    pub(crate) fn at_revision(&self) -> Option<&str> {
        self.commit.as_deref().or(self.digest.as_deref())
    }
}
