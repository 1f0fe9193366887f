//! The OCI documents a skill is read from, and which layer of them holds
//! it: the Agent Skills artifact (`application/vnd.agentskills.skill.v1`),
//! ToolHive's (`dev.toolhive.skills.v1`, an image index of per-platform
//! images) and a plain single-layer image. docs/oci.md describes them.
//!
//! Everything here is read from bytes a registry sent, checked against
//! their digest before: descriptors are checked again (digest, size,
//! media type) before anything they name is fetched.

use anyhow::bail;
use serde::Deserialize;

use crate::hint::Hinted;
use crate::manifest::oci_ref::is_sha256_digest;
use crate::store::untar::Compression;

/// The Agent Skills artifact type.
pub(crate) const SKILL_ARTIFACT: &str = "application/vnd.agentskills.skill.v1";
/// The Agent Skills config blob's media type.
pub(crate) const SKILL_CONFIG: &str = "application/vnd.agentskills.skill.config.v1+json";
/// The Agent Skills content layer's media type.
pub(crate) const SKILL_CONTENT: &str = "application/vnd.agentskills.skill.content.v1.tar+gzip";
/// The Agent Skills collection (an image index of skills).
pub(crate) const COLLECTION_ARTIFACT: &str = "application/vnd.agentskills.collection.v1";
/// ToolHive's skill artifact type.
pub(crate) const TOOLHIVE_ARTIFACT: &str = "dev.toolhive.skills.v1";
/// The annotation naming an Agent Skills artifact's skill.
const NAME_ANNOTATION: &str = "io.agentskills.skill.name";

/// An OCI image manifest.
const OCI_MANIFEST: &str = "application/vnd.oci.image.manifest.v1+json";
/// An OCI image index.
const OCI_INDEX: &str = "application/vnd.oci.image.index.v1+json";
/// A Docker image manifest (schema 2).
const DOCKER_MANIFEST: &str = "application/vnd.docker.distribution.manifest.v2+json";
/// A Docker manifest list.
const DOCKER_LIST: &str = "application/vnd.docker.distribution.manifest.list.v2+json";

/// What a manifest request accepts.
pub(crate) const ACCEPT: &str = "application/vnd.oci.image.manifest.v1+json, application/vnd.oci.image.index.v1+json, application/vnd.docker.distribution.manifest.v2+json, application/vnd.docker.distribution.manifest.list.v2+json";

/// The largest manifest or index read (the distribution specification's
/// suggested limit).
pub(crate) const MAX_MANIFEST: u64 = 4 * 1024 * 1024;
/// The largest config blob read.
pub(crate) const MAX_CONFIG: u64 = 1024 * 1024;

/// A content descriptor: what a manifest says of a blob it names.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Descriptor {
    /// The blob's media type.
    #[serde(default)]
    pub media_type: String,
    /// `sha256:<hex>`.
    pub digest: String,
    /// Its size in bytes.
    pub size: u64,
    /// An image index entry's platform.
    #[serde(default)]
    pub platform: Option<Platform>,
    /// Annotations.
    #[serde(default)]
    pub annotations: std::collections::BTreeMap<String, String>,
}

/// A platform of an image index entry.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct Platform {
    /// `linux`, `unknown`, …
    #[serde(default)]
    pub os: String,
    /// `amd64`, `unknown`, …
    #[serde(default)]
    pub architecture: String,
}

/// A manifest or an index, as far as skills need it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Document {
    #[serde(default)]
    schema_version: Option<u32>,
    #[serde(default)]
    media_type: Option<String>,
    #[serde(default)]
    artifact_type: Option<String>,
    #[serde(default)]
    config: Option<Descriptor>,
    #[serde(default)]
    layers: Option<Vec<Descriptor>>,
    #[serde(default)]
    manifests: Option<Vec<Descriptor>>,
    #[serde(default)]
    annotations: std::collections::BTreeMap<String, String>,
}

/// A parsed top-level document.
#[derive(Debug)]
pub(crate) enum Parsed {
    /// An image manifest.
    Manifest(Manifest),
    /// An image index: the manifest to read next, and the index's
    /// artifact type.
    Index {
        /// The manifest.
        manifest: Descriptor,
        /// `artifactType`, if given.
        artifact: Option<String>,
    },
    /// An Agent Skills collection: its skills' manifests, by name.
    Collection(Vec<(String, Descriptor)>),
}

/// An image manifest, as far as skills need it.
#[derive(Debug, Clone)]
pub(crate) struct Manifest {
    artifact_type: Option<String>,
    config: Descriptor,
    layers: Vec<Descriptor>,
    annotations: std::collections::BTreeMap<String, String>,
}

/// Which layout an artifact has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The Agent Skills artifact.
    AgentSkills,
    /// ToolHive's skill artifact.
    ToolHive,
    /// A plain image of one layer.
    Image,
}

/// Where a skill is in an artifact.
#[derive(Debug, Clone)]
pub(crate) struct Content {
    /// The artifact's layout.
    pub kind: Kind,
    /// The layer holding the skill.
    pub layer: Descriptor,
    /// How the layer is compressed.
    pub compression: Compression,
    /// The skill's name, when the manifest says it (the layer's top
    /// folder must then be named so).
    pub name: Option<String>,
    /// The config blob to read the name and version from (Agent Skills).
    pub config: Option<Descriptor>,
}

/// What an Agent Skills config blob says, as far as installs need it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SkillConfig {
    /// The skill's name.
    #[serde(default)]
    pub name: Option<String>,
    /// Its version.
    #[serde(default)]
    pub version: Option<String>,
}

/// Parses a manifest or index that `what` names (for messages), fetched
/// with `content_type`.
pub(crate) fn parse(
    bytes: &[u8],
    content_type: Option<&str>,
    what: &str,
) -> anyhow::Result<Parsed> {
    let document: Document = serde_json::from_slice(bytes).map_err(|e| {
        Hinted::new(format!(
            "{what}: the registry sent no manifest JSON skillpkg reads: {e}"
        ))
        .hint("check that the reference names a skill artifact or image")
    })?;
    if document.schema_version != Some(2) {
        bail!("{what}: the manifest's schemaVersion is not 2");
    }
    let media_type = document
        .media_type
        .clone()
        .or_else(|| content_type.map(|c| c.split(';').next().unwrap_or(c).trim().to_string()));
    let is_index = match media_type.as_deref() {
        Some(OCI_INDEX | DOCKER_LIST) => true,
        Some(OCI_MANIFEST | DOCKER_MANIFEST) => false,
        _ => document.manifests.is_some() && document.layers.is_none(),
    };
    if is_index && document.artifact_type.as_deref() == Some(COLLECTION_ARTIFACT) {
        return collection(document, what).map(Parsed::Collection);
    }
    if is_index {
        let artifact = document.artifact_type.clone();
        return pick_from_index(document, what)
            .map(|manifest| Parsed::Index { manifest, artifact });
    }
    let (Some(config), Some(layers)) = (document.config, document.layers) else {
        bail!("{what}: the manifest has no config or no layers");
    };
    for descriptor in layers.iter().chain(Some(&config)) {
        check_descriptor(descriptor, what)?;
    }
    Ok(Parsed::Manifest(Manifest {
        artifact_type: document.artifact_type,
        config,
        layers,
        annotations: document.annotations,
    }))
}

/// The skills of a collection, each named by its
/// `io.agentskills.skill.name` annotation: no two alike.
fn collection(document: Document, what: &str) -> anyhow::Result<Vec<(String, Descriptor)>> {
    let mut skills: Vec<(String, Descriptor)> = Vec::new();
    for manifest in document.manifests.unwrap_or_default() {
        check_descriptor(&manifest, what)?;
        let Some(name) = manifest.annotations.get(NAME_ANNOTATION).cloned() else {
            bail!(
                "{what}: the collection lists {} without the {NAME_ANNOTATION} annotation that names its skill",
                manifest.digest
            );
        };
        if !crate::skill::name::is_safe_folder_name(&name) || skills.iter().any(|(n, _)| *n == name)
        {
            bail!("{what}: the collection names a skill {name:?} that is no skill name, or twice");
        }
        if manifest.size > MAX_MANIFEST {
            bail!(
                "{what}: the collection names a manifest of {} bytes, more than skillpkg reads",
                manifest.size
            );
        }
        skills.push((name, manifest));
    }
    if skills.is_empty() {
        bail!("{what}: the collection lists no skills");
    }
    Ok(skills)
}

/// The manifest of an index of per-platform images (ToolHive's) to read:
/// the first that is not an attestation, preferring `linux/amd64`.
fn pick_from_index(document: Document, what: &str) -> anyhow::Result<Descriptor> {
    let manifests = document.manifests.unwrap_or_default();
    let images: Vec<&Descriptor> = manifests
        .iter()
        .filter(|m| matches!(m.media_type.as_str(), OCI_MANIFEST | DOCKER_MANIFEST))
        .filter(|m| {
            m.platform
                .as_ref()
                .is_none_or(|p| p.os != "unknown" && p.architecture != "unknown")
        })
        .collect();
    let picked = images
        .iter()
        .find(|m| {
            m.platform
                .as_ref()
                .is_some_and(|p| p.os == "linux" && p.architecture == "amd64")
        })
        .or(images.first())
        .copied()
        .cloned();
    let Some(picked) = picked else {
        bail!("{what}: the image index lists no image manifest");
    };
    check_descriptor(&picked, what)?;
    if picked.size > MAX_MANIFEST {
        bail!(
            "{what}: the index names a manifest of {} bytes, more than skillpkg reads",
            picked.size
        );
    }
    Ok(picked)
}

/// A descriptor must name a sha256 digest.
fn check_descriptor(descriptor: &Descriptor, what: &str) -> anyhow::Result<()> {
    if !is_sha256_digest(&descriptor.digest) {
        bail!(
            "{what}: the manifest names the blob {:?}, which is no sha256 digest skillpkg reads",
            descriptor.digest
        );
    }
    Ok(())
}

impl Manifest {
    /// The layer that holds the skill, and how to read it.
    pub(crate) fn content(
        &self,
        index_artifact: Option<&str>,
        what: &str,
    ) -> anyhow::Result<Content> {
        let agent_skills = self.artifact_type.as_deref() == Some(SKILL_ARTIFACT)
            || self.config.media_type == SKILL_CONFIG;
        if agent_skills {
            let content: Vec<&Descriptor> = self
                .layers
                .iter()
                .filter(|l| l.media_type == SKILL_CONTENT)
                .collect();
            let [layer] = content.as_slice() else {
                bail!(
                    "{what}: an Agent Skills artifact has exactly one {SKILL_CONTENT} layer, and this one has {}",
                    content.len()
                );
            };
            return Ok(Content {
                kind: Kind::AgentSkills,
                layer: (*layer).clone(),
                compression: Compression::Gzip,
                name: self.annotations.get(NAME_ANNOTATION).cloned(),
                config: Some(self.config.clone()),
            });
        }
        let toolhive =
            [self.artifact_type.as_deref(), index_artifact].contains(&Some(TOOLHIVE_ARTIFACT));
        let [layer] = self.layers.as_slice() else {
            bail!(
                Hinted::new(format!(
                    "{what} is an image of {} layers, and skillpkg reads a skill from an image of one layer",
                    self.layers.len()
                ))
                .hint("publish the skill as an Agent Skills artifact (one tar+gzip layer rooted at <name>/)")
            );
        };
        Ok(Content {
            kind: if toolhive {
                Kind::ToolHive
            } else {
                Kind::Image
            },
            layer: layer.clone(),
            compression: compression_of(&layer.media_type, what)?,
            name: None,
            config: None,
        })
    }
}

/// How a layer of `media_type` is compressed: gzip or none; zstd and
/// others are refused.
fn compression_of(media_type: &str, what: &str) -> anyhow::Result<Compression> {
    match media_type {
        "application/vnd.oci.image.layer.v1.tar+gzip"
        | "application/vnd.docker.image.rootfs.diff.tar.gzip"
        | SKILL_CONTENT => Ok(Compression::Gzip),
        "application/vnd.oci.image.layer.v1.tar" => Ok(Compression::None),
        other => bail!(
            "{what}: its layer is {other:?}; skillpkg reads tar layers, plain or gzip-compressed"
        ),
    }
}

/// An Agent Skills config blob; `what` names it for messages.
pub(crate) fn parse_config(bytes: &[u8], what: &str) -> anyhow::Result<SkillConfig> {
    serde_json::from_slice(bytes).map_err(|e| {
        anyhow::anyhow!("{what}: the skill's config blob is no JSON object skillpkg reads: {e}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const D1: &str = "sha256:1111111111111111111111111111111111111111111111111111111111111111";
    const D2: &str = "sha256:2222222222222222222222222222222222222222222222222222222222222222";

    fn descriptor(media_type: &str, digest: &str) -> serde_json::Value {
        serde_json::json!({"mediaType": media_type, "digest": digest, "size": 10})
    }

    fn manifest(artifact: Option<&str>, config: &str, layers: &[&str]) -> Vec<u8> {
        let mut value = serde_json::json!({
            "schemaVersion": 2,
            "mediaType": OCI_MANIFEST,
            "config": descriptor(config, D1),
            "layers": layers.iter().map(|l| descriptor(l, D2)).collect::<Vec<_>>(),
            "annotations": {NAME_ANNOTATION: "pdf"},
        });
        if let Some(artifact) = artifact {
            value["artifactType"] = artifact.into();
        }
        serde_json::to_vec(&value).unwrap()
    }

    fn content_of(bytes: &[u8]) -> anyhow::Result<Content> {
        match parse(bytes, None, "x")? {
            Parsed::Manifest(m) => m.content(None, "x"),
            Parsed::Index { .. } | Parsed::Collection(_) => panic!("an index"),
        }
    }

    #[test]
    fn each_layout_names_its_layer() {
        let skill = content_of(&manifest(
            Some(SKILL_ARTIFACT),
            SKILL_CONFIG,
            &[SKILL_CONTENT],
        ))
        .unwrap();
        assert_eq!(skill.kind, Kind::AgentSkills);
        assert_eq!(skill.name.as_deref(), Some("pdf"));
        assert_eq!(skill.layer.digest, D2);
        assert_eq!(skill.config.unwrap().digest, D1);
        let image = content_of(&manifest(
            None,
            "application/vnd.oci.image.config.v1+json",
            &["application/vnd.oci.image.layer.v1.tar"],
        ))
        .unwrap();
        assert_eq!(
            (image.kind, image.compression),
            (Kind::Image, Compression::None)
        );
        let error = content_of(&manifest(
            Some(SKILL_ARTIFACT),
            SKILL_CONFIG,
            &[SKILL_CONTENT, SKILL_CONTENT],
        ));
        assert!(error.unwrap_err().to_string().contains("exactly one"));
        let error = content_of(&manifest(
            None,
            "x",
            &["application/vnd.oci.image.layer.v1.tar+zstd"],
        ));
        assert!(error.unwrap_err().to_string().contains("tar+zstd"));
        let error = content_of(&manifest(None, "x", &[]));
        assert!(error.unwrap_err().to_string().contains("0 layers"));
    }

    #[test]
    fn indexes_name_an_image_and_collections_their_skills() {
        let index = serde_json::json!({
            "schemaVersion": 2,
            "mediaType": OCI_INDEX,
            "artifactType": TOOLHIVE_ARTIFACT,
            "manifests": [
                {"mediaType": OCI_MANIFEST, "digest": D1, "size": 5, "platform": {"os": "linux", "architecture": "arm64"}},
                {"mediaType": OCI_MANIFEST, "digest": D2, "size": 5, "platform": {"os": "linux", "architecture": "amd64"}},
            ],
        });
        let Parsed::Index { manifest, artifact } =
            parse(&serde_json::to_vec(&index).unwrap(), None, "x").unwrap()
        else {
            panic!("not an index")
        };
        assert_eq!(manifest.digest, D2);
        assert_eq!(artifact.as_deref(), Some(TOOLHIVE_ARTIFACT));
        let collection = serde_json::json!({
            "schemaVersion": 2,
            "mediaType": OCI_INDEX,
            "artifactType": COLLECTION_ARTIFACT,
            "manifests": [
                {"mediaType": OCI_MANIFEST, "digest": D1, "size": 5, "annotations": {NAME_ANNOTATION: "pdf"}},
                {"mediaType": OCI_MANIFEST, "digest": D2, "size": 5, "annotations": {NAME_ANNOTATION: "docx"}},
            ],
        });
        let Parsed::Collection(skills) =
            parse(&serde_json::to_vec(&collection).unwrap(), None, "x").unwrap()
        else {
            panic!("not a collection")
        };
        let names: Vec<&str> = skills.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["pdf", "docx"]);
        let mut twice = collection.clone();
        twice["manifests"][1]["annotations"][NAME_ANNOTATION] = "pdf".into();
        assert!(parse(&serde_json::to_vec(&twice).unwrap(), None, "x").is_err());
        let mut unnamed = collection;
        unnamed["manifests"][0]["annotations"] = serde_json::json!({});
        assert!(parse(&serde_json::to_vec(&unnamed).unwrap(), None, "x").is_err());
    }

    #[test]
    fn digests_skillpkg_cannot_check_are_refused() {
        let bad = serde_json::json!({
            "schemaVersion": 2,
            "mediaType": OCI_MANIFEST,
            "config": descriptor(SKILL_CONFIG, D1),
            "layers": [descriptor(SKILL_CONTENT, "sha512:abcd")],
        });
        let error = parse(&serde_json::to_vec(&bad).unwrap(), None, "x").unwrap_err();
        assert!(error.to_string().contains("no sha256 digest"), "{error}");
        assert!(parse(b"{}", None, "x").is_err());
        assert!(parse(b"not json", None, "x").is_err());
    }
}
