//! Where a mirrored version came from (`skillpkg mirror`): the upstream
//! source as the user gave it, the commit or digest it was taken at, who
//! signed it there, and who mirrored it when. Signed with the mirroring
//! key together with the archive's checksum, so that an index host can
//! neither rewrite a version's origin nor move it to another archive.

use serde::{Deserialize, Serialize};

use crate::manifest::lock::LockedSigner;
use crate::store::hash::sha256_hex;
use crate::store::signing::{self, SigningError, SigningKey};

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
    fn signed_bytes(&self) -> Vec<u8> {
        let unsigned = Upstream {
            sig: String::new(),
            ..self.clone()
        };
        serde_json::to_vec(&unsigned).expect("upstream serialises")
    }

    /// The trusted comment of its signature, for the version
    /// `package@version` whose archive has the sha256 `cksum`.
    pub(crate) fn statement(&self, package: &str, version: &str, cksum: &str) -> String {
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

    /// Whether `keys` (the org's) made its signature, for that version.
    pub fn is_signed_by(&self, keys: &[String], package: &str, version: &str, cksum: &str) -> bool {
        let comment = self.statement(package, version, cksum);
        let bytes = self.signed_bytes();
        keys.iter()
            .any(|key| signing::verify_for(key, &bytes, &self.sig, &comment).is_ok())
    }

    /// Where it was taken: the commit or the digest.
    pub(crate) fn at_revision(&self) -> Option<&str> {
        self.commit.as_deref().or(self.digest.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_upstream_record_signs_its_origin_and_archive() {
        let (_dir, key) = signing::throwaway_key();
        let keys = vec![key.public_key()];
        let mut upstream = Upstream {
            source: "https://example.com/skills.git".into(),
            commit: Some("a".repeat(40)),
            digest: None,
            signer: None,
            by: String::new(),
            at: "2026-11-26T23:00:00Z".into(),
            sig: String::new(),
        };
        upstream.sign(&key, "corp/x", "1.0.0", "ab").unwrap();
        assert_eq!(upstream.by, key.public_key());
        assert!(upstream.is_signed_by(&keys, "corp/x", "1.0.0", "ab"));
        assert!(!upstream.is_signed_by(&keys, "corp/x", "1.0.0", "cd"));
        let mut moved = upstream.clone();
        moved.source = "https://evil.example/skills.git".into();
        assert!(!moved.is_signed_by(&keys, "corp/x", "1.0.0", "ab"));
    }
}
