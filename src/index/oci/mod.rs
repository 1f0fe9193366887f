//! An OCI registry namespace as an index (`oci://HOST/NAMESPACE`):
//! docs/oci.md describes the layout, which this reads and writes.
//!
//! - Package `org/name` is the repository `NAMESPACE/org/name`; its
//!   versions are its semver tags, each an Agent Skills artifact whose one
//!   layer is the package's archive (the checksum an entry gives is the
//!   layer's digest, and the minisign signature is over the layer's bytes).
//! - A version's minisign signature is an artifact referring to its
//!   manifest (`subject`), found by the Referrers API or, on registries
//!   without it, under the tag `sha256-<hex>.minisig`.
//! - Yank state is the artifact tagged `skillpkg-state` in the package's
//!   repository: a JSON document and its minisign signature by a key of
//!   the org, so a registry cannot un-yank a version or yank one. Content
//!   manifests never change: locks pin their layers.
//! - The index's `config.json` (the orgs' keys) and its search listing
//!   are artifacts tagged `config` and `search` in `NAMESPACE/skillpkg-index`,
//!   a repository of one segment, which no `org/name` can name.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context as _, bail};

use crate::hint::Hinted;
use crate::index::listing::{Listing, listing_entry};
use crate::index::policy_file::PolicyFiles;
use crate::index::{Dependency, IndexConfig, IndexEntry, PackageName};
use crate::manifest::oci_ref::{path_of, registry_of};
use crate::oci::client::Client;
use crate::oci::layout::{self, SKILL_CONTENT};
use crate::oci::{Registry, Settings, auth};
use crate::store::hash::sha256_hex;
use crate::store::limits::Limits;
use crate::store::signing;

mod artifact;
mod publish;

use artifact::*;

/// The most versions of one package read (the newest).
const MAX_VERSIONS: usize = 500;

/// What the reads of an index need of the machine, owned.
#[derive(Debug, Clone)]
pub(crate) struct Place {
    /// The cache directory.
    pub cache: PathBuf,
    /// The config directory (`credentials.toml`).
    pub config: PathBuf,
    /// The home directory (`~/.docker/config.json`).
    pub home: Option<PathBuf>,
    /// Read the cache only.
    pub offline: bool,
    /// Registries (`HOST` or `HOST:PORT`) spoken to over plain HTTP,
    /// besides those on this machine (`--insecure-registry`).
    pub insecure: Vec<String>,
}

impl Place {
    fn settings(&self) -> Settings<'_> {
        Settings {
            cache: &self.cache,
            config: &self.config,
            home: self.home.as_deref(),
            offline: self.offline,
            insecure: &self.insecure,
            // Layers are checked against the install's limits where they
            // are asked for ([`Namespace::layer`]).
            limits: Limits::default(),
        }
    }
}

/// An OCI namespace read as an index.
pub(crate) struct Namespace {
    /// `HOST/NAMESPACE`.
    root: String,
    place: Place,
    /// The layer of each version read, by `org/name@version`.
    layers: Mutex<HashMap<String, layout::Descriptor>>,
    /// The entries of each package read in this run: one view of the
    /// registry per run, asked once.
    read: Mutex<HashMap<PackageName, Vec<IndexEntry>>>,
}

/// Whether `spec` names an OCI namespace index (`oci://HOST/NAMESPACE`).
pub(crate) fn is_oci_index(spec: &str) -> bool {
    spec.starts_with("oci://")
}

impl Namespace {
    /// The namespace `spec` (`oci://HOST/NAMESPACE`) names.
    pub(crate) fn new(spec: &str, place: Place) -> anyhow::Result<Namespace> {
        let root = spec
            .strip_prefix("oci://")
            .unwrap_or(spec)
            .trim_end_matches('/');
        let namespace = path_of(root);
        let valid_segment = |segment: &str| {
            !segment.is_empty()
                && segment
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b))
                && segment
                    .bytes()
                    .next()
                    .is_some_and(|b| b.is_ascii_alphanumeric())
        };
        if registry_of(root).is_empty()
            || namespace.is_empty()
            || !namespace.split('/').all(valid_segment)
        {
            bail!(
                Hinted::new(format!("{spec} is no OCI namespace index")).hint(
                    "write it as oci://HOST/NAMESPACE, for example oci://ghcr.io/acme/skills"
                )
            );
        }
        Ok(Namespace {
            root: root.to_string(),
            place,
            layers: Mutex::new(HashMap::new()),
            read: Mutex::new(HashMap::new()),
        })
    }

    /// `oci://HOST/NAMESPACE`, as locks and messages name the index.
    pub(crate) fn label(&self) -> String {
        format!("oci://{}", self.root)
    }

    /// The repository of `package`.
    fn repository_of(&self, package: &PackageName) -> String {
        format!("{}/{}/{}", self.root, package.org, package.name)
    }

    /// The repository of the index's own artifacts.
    fn index_repository(&self) -> String {
        format!("{}/{INDEX_REPOSITORY}", self.root)
    }

    /// Where what was read of this namespace is kept for `--offline`.
    fn cached(&self, relative: &str) -> PathBuf {
        let key = sha256_hex(self.root.as_bytes());
        self.place
            .cache
            .join("oci/index")
            .join(&key[..16])
            .join(relative)
    }

    fn reader<'a>(&'a self, repository: &'a str, settings: &'a Settings<'a>) -> Registry<'a> {
        Registry {
            repository,
            settings,
            client: None,
        }
    }

    /// A client that may write to `repository`.
    fn writer(&self, repository: &str) -> anyhow::Result<Client> {
        Client::new(
            registry_of(repository),
            path_of(repository),
            &self.place.insecure,
            auth::Sources::new(&self.place.config, self.place.home.as_deref()),
        )
    }

    /// The artifact `tag` names in `repository` and the bytes of its
    /// first layer; `None` when there is no such tag.
    fn read_file(
        &self,
        repository: &str,
        tag: &str,
        media_type: &str,
    ) -> anyhow::Result<Option<(Artifact, Vec<u8>)>> {
        let settings = self.place.settings();
        let mut reader = self.reader(repository, &settings);
        let blobs = self.place.cache.join("oci/blobs/sha256");
        let Some((document, digest)) = reader.find_by_tag(tag, &blobs)? else {
            return Ok(None);
        };
        let artifact = parse_artifact(&document.bytes, &format!("{repository}@{digest}"))?;
        let bytes = read_layer(&mut reader, &artifact, media_type, &blobs, repository)?;
        Ok(Some((artifact, bytes)))
    }

    /// The index's `config.json`: its artifact's, or, for a namespace
    /// with none (skills pushed by other tools), one with no keys.
    /// Offline, the copy read last.
    pub(crate) fn config(&self) -> anyhow::Result<IndexConfig> {
        let cached = self.cached("config.json");
        let origin = format!("{}:{CONFIG_TAG}", self.index_repository());
        if self.place.offline {
            return match fs_err::read(&cached) {
                Ok(bytes) => IndexConfig::parse(&bytes, &origin),
                Err(_) => Ok(IndexConfig::default()),
            };
        }
        let Some((_, bytes)) = self.read_file(&self.index_repository(), CONFIG_TAG, CONFIG_TYPE)?
        else {
            return Ok(IndexConfig::default());
        };
        let config = IndexConfig::parse(&bytes, &origin)?;
        crate::fsutil::write_cache_file(&cached, &bytes)?;
        Ok(config)
    }

    /// Every version of `package`, with its yank state checked against
    /// the keys `config` lists for its org. Offline, the entries read
    /// last.
    pub(crate) fn entries(
        &self,
        package: &PackageName,
        config: &IndexConfig,
    ) -> anyhow::Result<Vec<IndexEntry>> {
        if let Some(entries) = self.read.lock().expect("read lock").get(package) {
            return Ok(entries.clone());
        }
        let entries = self.read_entries(package, config)?;
        self.read
            .lock()
            .expect("read lock")
            .insert(package.clone(), entries.clone());
        Ok(entries)
    }

    /// Reads the entries of `packages` ahead of [`Namespace::entries`],
    /// several packages at a time. A package whose entries as last read
    /// (kept in the cache) `settled` accepts (they hold what the lock
    /// pins) is taken from the cache, without a request, as an HTTP
    /// index's is.
    pub(crate) fn prefetch(
        &self,
        packages: &[PackageName],
        config: &IndexConfig,
        settled: &crate::index::http::Settled,
    ) -> anyhow::Result<()> {
        let wanted: Vec<&PackageName> = {
            let mut read = self.read.lock().expect("read lock");
            let mut wanted = Vec::new();
            for package in packages {
                if read.contains_key(package) {
                    continue;
                }
                match self.cached_entries(package) {
                    Some(entries) if settled(package, &entries) => {
                        self.remember_layers(&entries);
                        read.insert(package.clone(), entries);
                    }
                    _ => wanted.push(package),
                }
            }
            wanted
        };
        crate::parallel::map_on(crate::parallel::NETWORK_THREADS, wanted, |package| {
            self.entries(package, config).map(drop)
        })
        .into_iter()
        .collect()
    }

    /// Downloads the layers of `versions` into the blob cache ahead of
    /// [`Namespace::archive`], several at a time.
    pub(crate) fn prefetch_archives(
        &self,
        versions: &[(&PackageName, &IndexEntry)],
        limits: &Limits,
    ) -> anyhow::Result<()> {
        crate::parallel::map_on(
            crate::parallel::NETWORK_THREADS,
            versions.to_vec(),
            |(package, entry)| self.layer(package, &entry.vers, limits).map(drop),
        )
        .into_iter()
        .collect()
    }

    /// The entries of `package` as last read, from the cache.
    fn cached_entries(&self, package: &PackageName) -> Option<Vec<IndexEntry>> {
        let cached = self.cached(&format!("entries/{}/{}", package.org, package.name));
        let text = fs_err::read_to_string(&cached).ok()?;
        crate::index::parse_entries(&text, &cached.display().to_string()).ok()
    }

    /// Every version of `package`, asked of the registry (or, offline,
    /// of the cache).
    fn read_entries(
        &self,
        package: &PackageName,
        config: &IndexConfig,
    ) -> anyhow::Result<Vec<IndexEntry>> {
        let cached = self.cached(&format!("entries/{}/{}", package.org, package.name));
        if self.place.offline {
            let text = match fs_err::read_to_string(&cached) {
                Ok(text) => text,
                Err(_) => bail!(
                    Hinted::new(format!(
                        "{package} of {} is not in the cache and --offline forbids asking the registry",
                        self.label()
                    ))
                    .hint("run once without --offline (or --frozen) to fill the cache")
                ),
            };
            let entries = crate::index::parse_entries(&text, &cached.display().to_string())?;
            self.remember_layers(&entries);
            return Ok(entries);
        }
        let repository = self.repository_of(package);
        let settings = self.place.settings();
        let mut reader = self.reader(&repository, &settings);
        let blobs = self.place.cache.join("oci/blobs/sha256");
        let tags = reader.client()?.tags()?;
        let state = self.state(package, config, &tags)?;
        let mut versions: Vec<semver::Version> = tags
            .iter()
            .filter_map(|tag| semver::Version::parse(tag).ok())
            .filter(|version| version.build.is_empty())
            .collect();
        versions.sort();
        // Each version costs a request: a registry listing thousands of
        // tags is read for its newest versions only.
        let dropped = versions.len().saturating_sub(MAX_VERSIONS);
        versions.drain(..dropped);
        let mut entries = Vec::new();
        for version in versions {
            let tag = version.to_string();
            let Some((document, digest)) = reader.find_by_tag(&tag, &blobs)? else {
                continue;
            };
            let what = format!("{repository}:{tag}");
            let artifact = parse_artifact(&document.bytes, &what)?;
            // A tag of another kind of artifact is no version of the
            // package (another tool's image, say).
            let Some(layer) = content_layer(&artifact) else {
                continue;
            };
            let (signature, bundle) = self.attachments(&mut reader, &digest, &tags, &blobs)?;
            let records = state.channels.get(&tag).cloned().unwrap_or_default();
            let deps: Vec<Dependency> = match artifact.annotations.get(DEPENDENCIES_ANNOTATION) {
                Some(text) => serde_json::from_str(text)
                    .with_context(|| format!("{what}: its {DEPENDENCIES_ANNOTATION} annotation is no list of dependencies"))?,
                None => Vec::new(),
            };
            let invalid = artifact
                .annotations
                .get(INVALID_ANNOTATION)
                .map(|text| text.split(',').map(str::to_string).collect())
                .unwrap_or_default();
            entries.push(IndexEntry {
                name: package.to_string(),
                vers: tag.clone(),
                cksum: layer.digest.trim_start_matches("sha256:").to_string(),
                deps,
                desc: artifact
                    .annotations
                    .get(DESCRIPTION_ANNOTATION)
                    .cloned()
                    .unwrap_or_default(),
                sig: signature,
                sigstore: bundle,
                yanked: state.yanked.contains(&tag),
                size: layer.size,
                invalid,
                channels: records,
                // A record that does not parse is no record: the version
                // is then not known to be a mirror's.
                upstream: artifact
                    .annotations
                    .get(UPSTREAM_ANNOTATION)
                    .and_then(|text| serde_json::from_str(text).ok()),
                ..Default::default()
            });
            // The registry holds no entry line: the channel an entry
            // claims is its last record's, else its signature's.
            if let Some(entry) = entries.last_mut() {
                entry.channel = entry
                    .channels
                    .last()
                    .map(|r| r.channel)
                    .or_else(|| crate::index::channel::signature_channel(entry));
            }
        }
        let text: String = entries.iter().map(|e| e.to_line() + "\n").collect();
        crate::fsutil::write_cache_file(&cached, text.as_bytes())?;
        self.remember_layers(&entries);
        Ok(entries)
    }

    fn remember_layers(&self, entries: &[IndexEntry]) {
        let mut layers = self.layers.lock().expect("layers lock");
        for entry in entries {
            layers.insert(
                format!("{}@{}", entry.name, entry.vers),
                layout::Descriptor {
                    media_type: SKILL_CONTENT.to_string(),
                    digest: format!("sha256:{}", entry.cksum),
                    size: entry.size,
                    platform: None,
                    annotations: BTreeMap::new(),
                },
            );
        }
    }

    /// What is attached to the manifest `digest`: its minisign signature
    /// (blank when there is none) and its Sigstore bundle. Each is the
    /// artifact referring to the manifest, found by its fallback tag when
    /// `tags` has it, else by the Referrers API (asked once for both).
    fn attachments(
        &self,
        reader: &mut Registry,
        digest: &str,
        tags: &[String],
        blobs: &Path,
    ) -> anyhow::Result<(String, Option<serde_json::Value>)> {
        let repository = reader.repository.to_string();
        let mut referrers: Option<Referrers> = None;
        let mut found = Vec::new();
        for kind in [&MINISIGN, &SIGSTORE] {
            let tag = attached_tag(digest, kind);
            let document = if tags.contains(&tag) {
                reader
                    .find_by_tag(&tag, blobs)?
                    .map(|(document, _)| document)
            } else {
                if referrers.is_none() {
                    referrers = Some(self.referrers_of(reader, digest)?);
                }
                let listed = referrers.as_ref().and_then(|r| {
                    r.manifests
                        .iter()
                        .find(|m| m.artifact_type.as_deref() == Some(kind.artifact_type))
                        .cloned()
                });
                match listed {
                    Some(blob) => {
                        Some(reader.manifest_by_digest(&blob.digest, blobs, Some(blob.size))?)
                    }
                    None => None,
                }
            };
            let Some(document) = document else {
                found.push(None);
                continue;
            };
            let artifact = parse_artifact(&document.bytes, &format!("{repository}: {tag}"))?;
            // An artifact that refers to another manifest is about
            // something else: it is not taken at all.
            if artifact.subject.as_ref().map(|s| s.digest.as_str()) != Some(digest) {
                found.push(None);
                continue;
            }
            found.push(Some(read_layer(
                reader,
                &artifact,
                kind.artifact_type,
                blobs,
                &repository,
            )?));
        }
        let signature = match found[0].take() {
            Some(bytes) => String::from_utf8(bytes)
                .with_context(|| format!("{repository}: the signature of {digest} is no text"))?,
            None => String::new(),
        };
        let bundle = match found[1].take() {
            Some(bytes) => Some(serde_json::from_slice(&bytes).with_context(|| {
                format!("{repository}: the Sigstore bundle of {digest} is no JSON")
            })?),
            None => None,
        };
        Ok((signature, bundle))
    }

    /// The artifacts referring to `digest`, by the Referrers API; none
    /// where the registry has no such API.
    fn referrers_of(&self, reader: &mut Registry, digest: &str) -> anyhow::Result<Referrers> {
        let Some(index) = reader.client()?.referrers(digest, None)? else {
            return Ok(Referrers::default());
        };
        serde_json::from_slice(&index.bytes).with_context(|| {
            format!(
                "{}: the referrers of {digest} are no image index",
                reader.repository
            )
        })
    }

    /// The signed state of `package` (yanked versions, channel records);
    /// empty when it has none. A state whose signature no key of the org
    /// made is refused.
    fn state(
        &self,
        package: &PackageName,
        config: &IndexConfig,
        tags: &[String],
    ) -> anyhow::Result<State> {
        let empty = State {
            package: package.to_string(),
            ..State::default()
        };
        if !tags.iter().any(|t| t == STATE_TAG) {
            return Ok(empty);
        }
        let repository = self.repository_of(package);
        Ok(self
            .read_state(&repository, package, config)?
            .unwrap_or(empty))
    }

    /// The state artifact of `package`, its signature checked.
    fn read_state(
        &self,
        repository: &str,
        package: &PackageName,
        config: &IndexConfig,
    ) -> anyhow::Result<Option<State>> {
        let settings = self.place.settings();
        let mut reader = self.reader(repository, &settings);
        let blobs = self.place.cache.join("oci/blobs/sha256");
        let Some((document, digest)) = reader.find_by_tag(STATE_TAG, &blobs)? else {
            return Ok(None);
        };
        let what = format!("{repository}:{STATE_TAG}");
        let artifact = parse_artifact(&document.bytes, &format!("{repository}@{digest}"))?;
        let state_bytes = read_layer(&mut reader, &artifact, STATE_DOCUMENT, &blobs, repository)?;
        let keys = config.keys.get(&package.org).cloned().unwrap_or_default();
        if !keys.is_empty() {
            let signature = read_layer(&mut reader, &artifact, MINISIGN_TYPE, &blobs, repository)
                .and_then(|bytes| Ok(String::from_utf8(bytes)?))
                .unwrap_or_default();
            let comment = state_comment(package, &state_bytes);
            let signed = keys
                .iter()
                .any(|key| signing::verify_for(key, &state_bytes, &signature, &comment).is_ok());
            if !signed {
                bail!(
                    Hinted::new(format!(
                        "{what}: the yank state of {package} is not signed by a key of org '{}'",
                        package.org
                    ))
                    .hint("the registry's copy was altered, or written without the org's key: do not trust it, and tell the index's maintainers")
                );
            }
        }
        let state: State = serde_json::from_slice(&state_bytes)
            .with_context(|| format!("{what}: no yank state skillpkg reads"))?;
        if state.package != package.to_string() {
            bail!(
                "{what}: the yank state is {}'s, not {package}'s",
                state.package
            );
        }
        Ok(Some(state))
    }

    /// The archive (layer) of `package@version`, read by
    /// [`Namespace::entries`] before, in the blob cache: fetched unless it
    /// is there, and refused when its manifest gives it more bytes than an
    /// archive within `limits` can take.
    pub(crate) fn layer(
        &self,
        package: &PackageName,
        version: &str,
        limits: &Limits,
    ) -> anyhow::Result<PathBuf> {
        let key = format!("{package}@{version}");
        let Some(layer) = self.layers.lock().expect("layers lock").get(&key).cloned() else {
            bail!("{} lists no {key}", self.label());
        };
        // The manifest says the size, and the download stops there: a
        // registry claiming a huge layer is refused before it is asked.
        let limit = limits.max_archive_bytes();
        if layer.size > limit {
            bail!(
                Hinted::new(format!(
                    "{key} of {}: its layer is {} bytes, more than the {limit} skillpkg installs",
                    self.label(),
                    layer.size
                ))
                .hint("the package is broken or built to attack: do not install it, and tell its publisher")
                .hint(format!(
                    "if it is that large on purpose, raise the limit with {}",
                    crate::store::limits::SIZE_FLAG
                ))
            );
        }
        let repository = self.repository_of(package);
        let settings = self.place.settings();
        let mut reader = self.reader(&repository, &settings);
        reader.blob(&layer, &self.place.cache.join("oci/blobs/sha256"))
    }

    /// Every package of the namespace, as the registry's catalog lists
    /// its repositories; `None` where the registry has no catalog.
    pub(crate) fn packages(&self) -> anyhow::Result<Option<Vec<PackageName>>> {
        let Some(repositories) = self.writer(&self.index_repository())?.catalog()? else {
            return Ok(None);
        };
        let prefix = format!("{}/", path_of(&self.root));
        Ok(Some(
            repositories
                .iter()
                .filter_map(|repository| repository.strip_prefix(&prefix)?.parse().ok())
                .collect(),
        ))
    }

    /// The search listing: the artifact `publish` keeps, else one made
    /// from the registry's catalog (where it lets it be read).
    pub(crate) fn listing(&self, config: &IndexConfig) -> anyhow::Result<Option<Listing>> {
        if let Some((_, bytes)) =
            self.read_file(&self.index_repository(), LISTING_TAG, LISTING_TYPE)?
        {
            let text = String::from_utf8(bytes).context("the search listing is no text")?;
            return Listing::parse(&text, &format!("{}:{LISTING_TAG}", self.index_repository()))
                .map(Some);
        }
        let Some(packages) = self.packages()? else {
            return Ok(None);
        };
        let mut listing = Listing::default();
        for package in packages {
            listing.set(
                &package.to_string(),
                listing_entry(&self.entries(&package, config)?),
            );
        }
        Ok(Some(listing))
    }

    /// The index's `policy.toml` and its signature, with where they were
    /// read; `None` when the namespace holds no policy. Offline, the
    /// copies read last, and an error when there are none.
    pub(crate) fn policy_files(&self) -> anyhow::Result<Option<PolicyFiles>> {
        let repository = self.index_repository();
        let origin = format!("{repository}:{POLICY_TAG}");
        let (text_cache, signature_cache) = (
            self.cached("policy.toml"),
            self.cached("policy.toml.minisig"),
        );
        if self.place.offline {
            let Ok(text) = fs_err::read(&text_cache) else {
                bail!(
                    Hinted::new(format!(
                        "the policy of the index {} could not be fetched: skillpkg is offline, and the cache holds no copy of it",
                        self.label()
                    ))
                    .hint("run the command once online (without --offline or --frozen), so that the org's policy is fetched and kept in the cache")
                );
            };
            let signature = fs_err::read_to_string(&signature_cache).ok();
            return Ok(Some(PolicyFiles {
                text,
                signature,
                origin,
            }));
        }
        let Some((_, text)) = self.read_file(&repository, POLICY_TAG, POLICY_TYPE)? else {
            return Ok(None);
        };
        if text.len() as u64 > crate::index::policy_file::MAX_POLICY_BYTES {
            bail!("{origin} is larger than a policy may be");
        }
        let signature = self
            .read_file(&repository, POLICY_SIGNATURE_TAG, MINISIGN_TYPE)?
            .map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned());
        crate::fsutil::write_cache_file(&text_cache, &text)?;
        if let Some(signature) = &signature {
            crate::fsutil::write_cache_file(&signature_cache, signature.as_bytes())?;
        }
        Ok(Some(PolicyFiles {
            text,
            signature,
            origin,
        }))
    }

    /// The index's config as it is now in the registry, `None` when the
    /// namespace has none yet.
    pub(crate) fn existing_config(&self) -> anyhow::Result<Option<IndexConfig>> {
        let origin = format!("{}:{CONFIG_TAG}", self.index_repository());
        self.read_file(&self.index_repository(), CONFIG_TAG, CONFIG_TYPE)?
            .map(|(_, bytes)| IndexConfig::parse(&bytes, &origin))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place() -> Place {
        Place {
            cache: PathBuf::from("/nonexistent"),
            config: PathBuf::from("/nonexistent"),
            home: None,
            offline: true,
            insecure: Vec::new(),
        }
    }

    #[test]
    fn namespaces_need_a_host_and_a_path() {
        let ns = Namespace::new("oci://localhost:5000/corp/skills/", place()).unwrap();
        assert_eq!(ns.label(), "oci://localhost:5000/corp/skills");
        let package: PackageName = "acme/hello".parse().unwrap();
        assert_eq!(
            ns.repository_of(&package),
            "localhost:5000/corp/skills/acme/hello"
        );
        assert_eq!(
            ns.index_repository(),
            "localhost:5000/corp/skills/skillpkg-index"
        );
        for bad in ["oci://localhost:5000", "oci://host/Corp", "oci://host/a//b"] {
            assert!(Namespace::new(bad, place()).is_err(), "{bad}");
        }
    }
}
