//! Writing to an OCI index: its config, versions with their signatures,
//! collections, the search listing and the signed yank state.

use std::collections::BTreeMap;

use anyhow::bail;

use super::Namespace;
use super::artifact::*;
use crate::hint::Hinted;
use crate::index::listing::{Listing, listing_entry};
use crate::index::{IndexConfig, IndexEntry, PackageName};
use crate::oci::client::Client;
use crate::oci::layout::{COLLECTION_ARTIFACT, SKILL_ARTIFACT, SKILL_CONFIG, SKILL_CONTENT};
use crate::store::hash::sha256_hex;
use crate::store::signing;

impl Namespace {
    /// Puts `config` in the namespace, as `index init` and a first
    /// publish do.
    pub(crate) fn write_config(&self, config: &IndexConfig) -> anyhow::Result<()> {
        let client = self.writer(&self.index_repository())?;
        push_file_artifact(
            &client,
            CONFIG_TAG,
            CONFIG_TYPE,
            config.to_text().as_bytes(),
            "config.json",
            None,
        )?;
        crate::fsutil::write_cache_file(&self.cached("config.json"), config.to_text().as_bytes())?;
        Ok(())
    }

    /// Puts the org's signed policy in the namespace: its signature, then
    /// the policy (each an artifact of the index repository, tagged
    /// `policy-signature` and `policy`). `config.json` announces it after.
    pub(crate) fn write_policy(&self, text: &[u8], signature: &str) -> anyhow::Result<()> {
        let client = self.writer(&self.index_repository())?;
        push_file_artifact(
            &client,
            POLICY_SIGNATURE_TAG,
            MINISIGN_TYPE,
            signature.as_bytes(),
            "policy.toml.minisig",
            None,
        )?;
        push_file_artifact(&client, POLICY_TAG, POLICY_TYPE, text, "policy.toml", None)
    }

    /// Publishes `entry`, whose archive is the Agent Skills layer
    /// `layer`: the artifact under the version's tag (refused when the
    /// tag is there: versions are immutable), its signature as a referrer,
    /// and the search listing brought up to date.
    pub(crate) fn publish(
        &self,
        package: &PackageName,
        entry: &IndexEntry,
        layer: &[u8],
        config: &IndexConfig,
    ) -> anyhow::Result<()> {
        self.publish_version(package, entry, layer, config, false)
    }

    /// Publishes `entry` as [`Namespace::publish`] does, or, when the
    /// version is there already with exactly this content, leaves it:
    /// what a collection that names the version needs.
    pub(crate) fn publish_or_keep(
        &self,
        package: &PackageName,
        entry: &IndexEntry,
        layer: &[u8],
        config: &IndexConfig,
    ) -> anyhow::Result<()> {
        self.publish_version(package, entry, layer, config, true)
    }

    /// [`Namespace::publish`]; with `keep_same`, a version already there
    /// with exactly this manifest is kept rather than refused.
    fn publish_version(
        &self,
        package: &PackageName,
        entry: &IndexEntry,
        layer: &[u8],
        config: &IndexConfig,
        keep_same: bool,
    ) -> anyhow::Result<()> {
        let repository = self.repository_of(package);
        let client = self.writer(&repository)?;
        if client.tags()?.contains(&entry.vers) {
            let (manifest, _) = skill_manifest(package, entry, layer)?;
            let same = keep_same
                && client.manifest(&entry.vers)?.map(|f| f.bytes).as_deref()
                    == Some(manifest.as_slice());
            if same {
                return Ok(());
            }
            bail!(
                Hinted::new(format!(
                    "{package}@{} is already published to {}{}",
                    entry.vers,
                    self.label(),
                    if keep_same { " with other content" } else { "" }
                ))
                .hint("versions are immutable: bump metadata.version (or pass --version) and publish again")
            );
        }
        self.push_version(&client, package, entry, layer)?;
        let mut entries = self.entries(package, config)?;
        if !entries.iter().any(|e| e.vers == entry.vers) {
            entries.push(entry.clone());
        }
        self.update_listing(package, &entries)
    }

    /// Publishes the collection `name` of `org` at `version`: an image
    /// index (`application/vnd.agentskills.collection.v1`) of the
    /// artifacts of `members`, which are put in the collection's own
    /// repository too (an index names manifests of its repository).
    /// Returns the index's digest and size.
    pub(crate) fn publish_collection(
        &self,
        collection: &PackageName,
        version: &str,
        members: &[(&PackageName, &IndexEntry, &[u8])],
    ) -> anyhow::Result<(String, u64)> {
        let repository = self.repository_of(collection);
        let client = self.writer(&repository)?;
        if client.tags()?.iter().any(|t| t == version) {
            bail!(
                Hinted::new(format!(
                    "{collection}@{version} is already published to {}",
                    self.label()
                ))
                .hint("versions are immutable: publish the collection with another --version")
            );
        }
        let mut manifests = Vec::new();
        for (package, entry, layer) in members {
            let manifest = self.push_version(&client, package, entry, layer)?;
            let mut blob = Blob::of(OCI_MANIFEST, &manifest);
            blob.artifact_type = Some(SKILL_ARTIFACT.to_string());
            blob.annotations
                .insert(NAME_ANNOTATION.to_string(), package.name.clone());
            blob.annotations
                .insert(VERSION_ANNOTATION.to_string(), entry.vers.clone());
            manifests.push(blob);
        }
        let index = serde_json::json!({
            "schemaVersion": 2,
            "mediaType": OCI_INDEX,
            "artifactType": COLLECTION_ARTIFACT,
            "manifests": manifests,
            "annotations": {
                TITLE_ANNOTATION: collection.name,
                VERSION_ANNOTATION: version,
            },
        });
        let index = serde_json::to_vec(&index)?;
        client.put_manifest(version, OCI_INDEX, &index)?;
        Ok((format!("sha256:{}", sha256_hex(&index)), index.len() as u64))
    }

    /// Pushes the artifact of `entry` (its blobs, its manifest under the
    /// version's tag, its signature as a referrer) into the repository
    /// `client` writes to; returns the manifest.
    fn push_version(
        &self,
        client: &Client,
        package: &PackageName,
        entry: &IndexEntry,
        layer: &[u8],
    ) -> anyhow::Result<Vec<u8>> {
        let (manifest, skill_config) = skill_manifest(package, entry, layer)?;
        client.push_blob(layer, &format!("sha256:{}", entry.cksum))?;
        client.push_blob(&skill_config, &Blob::of(SKILL_CONFIG, &skill_config).digest)?;
        client.put_manifest(&entry.vers, OCI_MANIFEST, &manifest)?;
        let subject = Blob::of(OCI_MANIFEST, &manifest);
        if !entry.sig.trim().is_empty() {
            push_file_artifact(
                client,
                &attached_tag(&subject.digest, &MINISIGN),
                MINISIGN_TYPE,
                entry.sig.as_bytes(),
                &format!("{}-{}.tar.gz.minisig", package.name, entry.vers),
                Some(subject.clone()),
            )?;
        }
        if let Some(bundle) = &entry.sigstore {
            push_file_artifact(
                client,
                &attached_tag(&subject.digest, &SIGSTORE),
                SIGSTORE_TYPE,
                &serde_json::to_vec(bundle)?,
                &format!("{}-{}.tar.gz.sigstore.json", package.name, entry.vers),
                Some(subject),
            )?;
        }
        Ok(manifest)
    }

    /// Sets the listing's line of `package` from `entries`.
    fn update_listing(&self, package: &PackageName, entries: &[IndexEntry]) -> anyhow::Result<()> {
        let repository = self.index_repository();
        let mut listing = match self.read_file(&repository, LISTING_TAG, LISTING_TYPE)? {
            Some((_, bytes)) => Listing::parse(
                &String::from_utf8_lossy(&bytes),
                &format!("{repository}:{LISTING_TAG}"),
            )?,
            None => Listing::default(),
        };
        listing.set(&package.to_string(), listing_entry(entries));
        push_file_artifact(
            &self.writer(&repository)?,
            LISTING_TAG,
            LISTING_TYPE,
            listing.to_text().as_bytes(),
            crate::index::listing::LISTING_FILE,
            None,
        )
    }

    /// Yanks (or un-yanks) `package@version`: its state artifact is
    /// rewritten and signed with `key`, which must be one of the org's.
    /// Returns false when the version already had that state.
    pub(crate) fn set_yanked(
        &self,
        package: &PackageName,
        version: &str,
        yanked: bool,
        key: &signing::SigningKey,
        config: &IndexConfig,
    ) -> anyhow::Result<bool> {
        self.change_state(package, version, key, config, |entry, state| {
            if entry.yanked == yanked {
                return Ok(false);
            }
            entry.yanked = yanked;
            state.yanked.retain(|v| v != version);
            if yanked {
                state.yanked.push(version.to_string());
            }
            state.yanked.sort();
            Ok(true)
        })
    }

    /// Moves `package@version` to another channel: `change` (which gets
    /// its entry, as `crate::index::channel::promote` does) adds the
    /// signed record, kept in the state artifact, signed with `key`.
    /// Returns false when `change` changed nothing.
    pub(crate) fn set_channel(
        &self,
        package: &PackageName,
        version: &str,
        key: &signing::SigningKey,
        config: &IndexConfig,
        change: impl FnOnce(&mut IndexEntry) -> anyhow::Result<bool>,
    ) -> anyhow::Result<bool> {
        self.change_state(package, version, key, config, |entry, state| {
            if !change(entry)? {
                return Ok(false);
            }
            state
                .channels
                .insert(version.to_string(), entry.channels.clone());
            Ok(true)
        })
    }

    /// Changes `package@version` with `change`, which gets its entry and
    /// the package's state and says whether it changed them; the state
    /// artifact is then rewritten and signed with `key`, which must be
    /// one of the org's, and the search listing brought up to date.
    /// Returns what `change` said.
    fn change_state(
        &self,
        package: &PackageName,
        version: &str,
        key: &signing::SigningKey,
        config: &IndexConfig,
        change: impl FnOnce(&mut IndexEntry, &mut State) -> anyhow::Result<bool>,
    ) -> anyhow::Result<bool> {
        let org_keys = config.keys.get(&package.org).cloned().unwrap_or_default();
        if !org_keys.contains(&key.public_key()) {
            bail!(
                Hinted::new(format!(
                    "the key {} is not one of org '{}''s keys in {}",
                    key.public_key(),
                    package.org,
                    self.label()
                ))
                .hint(
                    "yank and channel state is signed by the org: pass one of its keys with --key"
                )
            );
        }
        let mut entries = self.entries(package, config)?;
        let Some(entry) = entries.iter_mut().find(|e| e.vers == version) else {
            bail!("{} has no {package}@{version}", self.label());
        };
        let repository = self.repository_of(package);
        let mut state = self
            .read_state(&repository, package, config)?
            .unwrap_or_else(|| State {
                package: package.to_string(),
                ..State::default()
            });
        if !change(entry, &mut state)? {
            return Ok(false);
        }
        let document = serde_json::to_vec_pretty(&state)?;
        let signature = key.sign(&document, &state_comment(package, &document))?;
        let client = self.writer(&repository)?;
        let empty = b"{}";
        client.push_blob(empty, &Blob::of(EMPTY_TYPE, empty).digest)?;
        let state_blob = Blob::of(STATE_DOCUMENT, &document);
        let signature_blob = Blob::of(MINISIGN_TYPE, signature.as_bytes());
        client.push_blob(&document, &state_blob.digest)?;
        client.push_blob(signature.as_bytes(), &signature_blob.digest)?;
        let manifest = Artifact {
            schema_version: 2,
            media_type: OCI_MANIFEST.to_string(),
            artifact_type: Some(STATE_TYPE.to_string()),
            config: Blob::of(EMPTY_TYPE, empty),
            layers: vec![state_blob, signature_blob],
            subject: None,
            annotations: BTreeMap::new(),
        };
        client.put_manifest(STATE_TAG, OCI_MANIFEST, &serde_json::to_vec(&manifest)?)?;
        self.read.lock().expect("read lock").remove(package);
        self.update_listing(package, &entries)?;
        Ok(true)
    }
}

/// The Agent Skills manifest of `entry`, whose layer is `layer`, and its
/// config blob: the same bytes for the same entry, every time.
fn skill_manifest(
    package: &PackageName,
    entry: &IndexEntry,
    layer: &[u8],
) -> anyhow::Result<(Vec<u8>, Vec<u8>)> {
    let skill_config = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 1,
        "name": package.name,
        "version": entry.vers,
        "description": entry.desc,
    }))?;
    let mut layer_blob = Blob::of(SKILL_CONTENT, layer);
    layer_blob.annotations.insert(
        TITLE_ANNOTATION.to_string(),
        format!("{}-{}.tar.gz", package.name, entry.vers),
    );
    let mut annotations = BTreeMap::from([
        (NAME_ANNOTATION.to_string(), package.name.clone()),
        (VERSION_ANNOTATION.to_string(), entry.vers.clone()),
        (TITLE_ANNOTATION.to_string(), package.name.clone()),
        (DESCRIPTION_ANNOTATION.to_string(), entry.desc.clone()),
    ]);
    if !entry.deps.is_empty() {
        annotations.insert(
            DEPENDENCIES_ANNOTATION.to_string(),
            serde_json::to_string(&entry.deps)?,
        );
    }
    if !entry.invalid.is_empty() {
        annotations.insert(INVALID_ANNOTATION.to_string(), entry.invalid.join(","));
    }
    if let Some(upstream) = &entry.upstream {
        annotations.insert(
            UPSTREAM_ANNOTATION.to_string(),
            serde_json::to_string(upstream)?,
        );
    }
    let manifest = Artifact {
        schema_version: 2,
        media_type: OCI_MANIFEST.to_string(),
        artifact_type: Some(SKILL_ARTIFACT.to_string()),
        config: Blob::of(SKILL_CONFIG, &skill_config),
        layers: vec![layer_blob],
        subject: None,
        annotations,
    };
    Ok((serde_json::to_vec(&manifest)?, skill_config))
}

/// Pushes `bytes` as an artifact of one layer (`artifact_type`, titled
/// `title`) under `tag`; with `subject`, the artifact refers to it, and
/// is put by its digest first so that a registry with the Referrers API
/// indexes it (the tag is kept either way, for registries without).
fn push_file_artifact(
    client: &Client,
    tag: &str,
    artifact_type: &str,
    bytes: &[u8],
    title: &str,
    subject: Option<Blob>,
) -> anyhow::Result<()> {
    let empty = b"{}";
    client.push_blob(empty, &Blob::of(EMPTY_TYPE, empty).digest)?;
    let mut layer = Blob::of(artifact_type, bytes);
    layer
        .annotations
        .insert(TITLE_ANNOTATION.to_string(), title.to_string());
    client.push_blob(bytes, &layer.digest)?;
    let has_subject = subject.is_some();
    let manifest = Artifact {
        schema_version: 2,
        media_type: OCI_MANIFEST.to_string(),
        artifact_type: Some(artifact_type.to_string()),
        config: Blob::of(EMPTY_TYPE, empty),
        layers: vec![layer],
        subject,
        annotations: BTreeMap::new(),
    };
    let manifest = serde_json::to_vec(&manifest)?;
    if has_subject {
        let digest = format!("sha256:{}", sha256_hex(&manifest));
        if client
            .put_manifest(&digest, OCI_MANIFEST, &manifest)?
            .subject_indexed
        {
            return Ok(());
        }
    }
    client.put_manifest(tag, OCI_MANIFEST, &manifest)?;
    Ok(())
}
