//! The artifacts an OCI index is made of: the media types, tags and
//! annotations skillpkg writes, and the manifests it reads back.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context as _, bail};
use serde::{Deserialize, Serialize};

use crate::index::PackageName;
use crate::oci::Registry;
use crate::oci::layout::{self, SKILL_ARTIFACT, SKILL_CONFIG, SKILL_CONTENT};
use crate::store::hash::sha256_hex;

/// The repository (one segment below the namespace) of the index's own
/// artifacts.
pub(crate) const INDEX_REPOSITORY: &str = "skillpkg-index";
/// The tag of the index's `config.json`.
pub(super) const CONFIG_TAG: &str = "config";
/// The tag of the index's search listing.
pub(super) const LISTING_TAG: &str = "search";
/// The tag of the index's signed `policy.toml`.
pub(super) const POLICY_TAG: &str = "policy";
/// The tag of its minisign signature.
pub(super) const POLICY_SIGNATURE_TAG: &str = "policy-signature";
/// The artifact type (and layer media type) of the policy.
pub(super) const POLICY_TYPE: &str = "application/vnd.skillpkg.index.policy.v1+toml";
/// The tag of a package's yank state.
pub(super) const STATE_TAG: &str = "skillpkg-state";

/// The artifact type (and layer media type) of a minisign signature.
pub(crate) const MINISIGN_TYPE: &str = "application/vnd.skillpkg.minisign.v1";
/// The artifact type (and layer media type) of a Sigstore bundle.
pub(super) const SIGSTORE_TYPE: &str = "application/vnd.dev.sigstore.bundle.v0.3+json";
/// The artifact type (and layer media type) of the index's config.
pub(super) const CONFIG_TYPE: &str = "application/vnd.skillpkg.index.config.v1+json";
/// The artifact type (and layer media type) of the search listing.
pub(super) const LISTING_TYPE: &str = "application/vnd.skillpkg.index.listing.v1+jsonl";
/// The artifact type of a package's yank state.
pub(super) const STATE_TYPE: &str = "application/vnd.skillpkg.state.v1";
/// The media type of the state document.
pub(super) const STATE_DOCUMENT: &str = "application/vnd.skillpkg.state.v1+json";
/// The empty config blob of artifacts that need none.
pub(super) const EMPTY_TYPE: &str = "application/vnd.oci.empty.v1+json";
/// An OCI image manifest.
pub(super) const OCI_MANIFEST: &str = "application/vnd.oci.image.manifest.v1+json";
/// An OCI image index.
pub(super) const OCI_INDEX: &str = "application/vnd.oci.image.index.v1+json";

/// Annotations an artifact skillpkg publishes carries.
pub(super) const VERSION_ANNOTATION: &str = "org.opencontainers.image.version";
pub(super) const DESCRIPTION_ANNOTATION: &str = "org.opencontainers.image.description";
pub(super) const TITLE_ANNOTATION: &str = "org.opencontainers.image.title";
pub(super) const NAME_ANNOTATION: &str = "io.agentskills.skill.name";
pub(super) const DEPENDENCIES_ANNOTATION: &str = "dev.skillpkg.dependencies";
pub(super) const INVALID_ANNOTATION: &str = "dev.skillpkg.invalid";
/// The annotation a mirrored version's signed upstream record is in
/// (`crate::index::upstream`, as JSON).
pub(super) const UPSTREAM_ANNOTATION: &str = "dev.skillpkg.upstream";

/// The largest signature, state, config or listing blob read.
pub(super) const MAX_SMALL_BLOB: u64 = 4 * 1024 * 1024;

/// An artifact manifest, as skillpkg writes and reads its own.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Artifact {
    pub(super) schema_version: u32,
    #[serde(default)]
    pub(super) media_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) artifact_type: Option<String>,
    pub(super) config: Blob,
    #[serde(default)]
    pub(super) layers: Vec<Blob>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) subject: Option<Blob>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) annotations: BTreeMap<String, String>,
}

/// A descriptor, as skillpkg writes and reads its own.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Blob {
    pub(super) media_type: String,
    pub(super) digest: String,
    pub(super) size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) artifact_type: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) annotations: BTreeMap<String, String>,
}

impl Blob {
    pub(super) fn of(media_type: &str, bytes: &[u8]) -> Blob {
        Blob {
            media_type: media_type.to_string(),
            digest: format!("sha256:{}", sha256_hex(bytes)),
            size: bytes.len() as u64,
            artifact_type: None,
            annotations: BTreeMap::new(),
        }
    }

    pub(super) fn descriptor(&self) -> layout::Descriptor {
        layout::Descriptor {
            media_type: self.media_type.clone(),
            digest: self.digest.clone(),
            size: self.size,
            platform: None,
            annotations: BTreeMap::new(),
        }
    }
}

/// An image index, as far as the Referrers API answers one.
#[derive(Debug, Default, Deserialize)]
pub(super) struct Referrers {
    #[serde(default)]
    pub(super) manifests: Vec<Blob>,
}

/// A package's yank and channel state, as its state artifact holds it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct State {
    /// `org/name`.
    pub(super) package: String,
    /// The versions yanked.
    #[serde(default)]
    pub(super) yanked: Vec<String>,
    /// Each version's channel records since it was published
    /// (`crate::index::channel`), by version.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) channels: BTreeMap<String, Vec<crate::index::channel::ChannelRecord>>,
}

/// The trusted comment of a signature over a package's state document.
pub(super) fn state_comment(package: &PackageName, document: &[u8]) -> String {
    format!("skillpkg-state {package} sha256:{}", sha256_hex(document))
}

/// The tag an artifact of `kind` attached to the manifest `digest` gets
/// on registries without the Referrers API.
pub(super) fn attached_tag(digest: &str, kind: &Attached) -> String {
    format!("{}.{}", digest.replacen(':', "-", 1), kind.suffix)
}

/// A kind of artifact attached to a version's manifest as a referrer.
pub(super) struct Attached {
    /// Its artifact type (and its layer's media type).
    pub(super) artifact_type: &'static str,
    /// The suffix of its fallback tag, `sha256-<hex>.<suffix>`.
    pub(super) suffix: &'static str,
}

/// A minisign signature over the version's layer.
pub(super) const MINISIGN: Attached = Attached {
    artifact_type: MINISIGN_TYPE,
    suffix: "minisig",
};

/// A Sigstore bundle over the version's layer.
pub(super) const SIGSTORE: Attached = Attached {
    artifact_type: SIGSTORE_TYPE,
    suffix: "sigstore",
};

/// The one Agent Skills content layer of `artifact`, if it is one.
pub(super) fn content_layer(artifact: &Artifact) -> Option<&Blob> {
    let agent_skills = artifact.artifact_type.as_deref() == Some(SKILL_ARTIFACT)
        || artifact.config.media_type == SKILL_CONFIG;
    match artifact
        .layers
        .iter()
        .filter(|l| l.media_type == SKILL_CONTENT)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [layer] if agent_skills => Some(layer),
        _ => None,
    }
}

pub(super) fn parse_artifact(bytes: &[u8], what: &str) -> anyhow::Result<Artifact> {
    let artifact: Artifact = serde_json::from_slice(bytes)
        .with_context(|| format!("{what}: no OCI manifest skillpkg reads"))?;
    for blob in artifact.layers.iter().chain([&artifact.config]) {
        if !crate::manifest::oci_ref::is_sha256_digest(&blob.digest) {
            bail!(
                "{what}: names the blob {:?}, which is no sha256 digest",
                blob.digest
            );
        }
    }
    Ok(artifact)
}

/// The bytes of the first layer of `artifact` of `media_type`, checked
/// against its digest.
pub(super) fn read_layer(
    reader: &mut Registry,
    artifact: &Artifact,
    media_type: &str,
    blobs: &Path,
    repository: &str,
) -> anyhow::Result<Vec<u8>> {
    let Some(layer) = artifact.layers.iter().find(|l| l.media_type == media_type) else {
        bail!("{repository}: the artifact has no {media_type} layer");
    };
    if layer.size > MAX_SMALL_BLOB {
        bail!(
            "{repository}: its {media_type} layer of {} bytes is larger than skillpkg reads",
            layer.size
        );
    }
    let path = reader.blob(&layer.descriptor(), blobs)?;
    Ok(fs_err::read(path)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_fall_back_to_a_tag_named_after_the_digest() {
        assert_eq!(
            attached_tag("sha256:abcd", &MINISIGN),
            "sha256-abcd.minisig"
        );
        assert_eq!(
            attached_tag("sha256:abcd", &SIGSTORE),
            "sha256-abcd.sigstore"
        );
    }

    #[test]
    fn state_signatures_name_the_package_and_the_document() {
        let package: PackageName = "acme/hello".parse().unwrap();
        assert_eq!(
            state_comment(&package, b"{}"),
            format!("skillpkg-state acme/hello sha256:{}", sha256_hex(b"{}"))
        );
    }
}
