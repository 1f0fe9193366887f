//! OCI registries as a source of skills: one artifact, by tag or by
//! manifest digest, pulled into the cache and checked against the
//! digests that name it. docs/oci.md describes the layouts read and the
//! rules kept.
//!
//! The distribution protocol is spoken by the small client in
//! [`client`], on the project's own reqwest client, rather than by the
//! `oci-client` crate (0.18), which was weighed and lacks what this
//! needs: it builds its own reqwest client (no way to hand it ours, with
//! rustls on ring and the platform verifier loaded lazily), with
//! reqwest's default redirect policy (ten redirects to any host, plain
//! HTTP included), so it cannot refuse a manifest or token redirect to
//! another host or a redirect to HTTP or to a private address; it reads a
//! manifest with no size limit and streams blobs with none but the
//! caller's writer; and it would add 32 crates to the build (a second
//! `sha2`/`digest` stack, `chrono`, and `oci-spec` with four proc-macro
//! crates: `derive_builder`, `darling`, `getset`, `strum_macros`). The
//! four requests an install makes (a manifest, a blob, a tag list, a
//! token) are a few hundred lines here.

pub(crate) mod auth;
pub(crate) mod client;
pub(crate) mod layout;
mod redirect;
mod write;

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::hint::Hinted;
use crate::manifest::oci_ref::{OciPin, path_of, registry_of};
use crate::store::hash::sha256_hex;
pub(crate) use crate::store::untar::{Compression, Rooted};

/// Where an install reads registries from, and how.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Settings<'a> {
    /// The cache directory (blobs are kept under `oci/blobs/sha256/`).
    pub cache: &'a Path,
    /// The config directory (`credentials.toml`).
    pub config: &'a Path,
    /// The home directory (`~/.docker/config.json`).
    pub home: Option<&'a Path>,
    /// Read the cache only.
    pub offline: bool,
    /// Registries (`HOST` or `HOST:PORT`) spoken to over plain HTTP,
    /// besides those on this machine.
    pub insecure: &'a [String],
    /// What a skill may hold: a layer larger than an archive within
    /// them can take is not downloaded.
    pub limits: crate::store::limits::Limits,
}

/// An artifact pulled: its layer in the cache, checked.
#[derive(Debug)]
pub(crate) struct Pulled {
    /// `sha256:<hex>` of the manifest (or image index) the reference
    /// named: what the lock pins.
    pub digest: String,
    /// The layer, in the cache, checked against its digest.
    pub layer: PathBuf,
    /// Its size.
    pub layer_size: u64,
    /// How it is compressed.
    pub compression: Compression,
    /// The skill's name, when the artifact says it: the layer's top
    /// folder must be named so.
    pub name: Option<String>,
    /// Whether the skill must be in the layer's one top folder (the
    /// Agent Skills layout), rather than anywhere.
    pub in_folder: bool,
    /// The version the artifact's config gives, if any.
    pub version: Option<String>,
}

impl Pulled {
    /// Where in the layer the skill is.
    pub(crate) fn rooted(&self) -> Rooted<'_> {
        match self.in_folder {
            true => Rooted::InFolder(self.name.as_deref()),
            false => Rooted::Anywhere,
        }
    }
}

/// `sha256:<hex>` of the manifest (or image index) `tag` names in
/// `repository` now: what `update` would lock. Nothing else is pulled.
pub(crate) fn tag_digest(
    repository: &str,
    tag: &str,
    settings: &Settings,
) -> anyhow::Result<String> {
    let blobs = settings.cache.join("oci/blobs/sha256");
    let mut registry = Registry {
        repository,
        settings,
        client: None,
    };
    let (_, digest) = registry.top(&OciPin::Tag(tag.to_string()), &blobs)?;
    Ok(digest)
}

/// Pulls the artifact `pin` names in `repository` (`HOST/REPO`): its
/// manifest (through an image index, for ToolHive's per-platform images,
/// or a collection's, for its `skill`), and the layer holding the skill,
/// each checked against the digest that names it. What the cache holds is
/// not fetched again; a tag is always asked of the registry (tags move),
/// unless `offline`, which refuses it.
pub(crate) fn pull(
    repository: &str,
    pin: &OciPin,
    skill: Option<&str>,
    settings: &Settings,
) -> anyhow::Result<Pulled> {
    let blobs = settings.cache.join("oci/blobs/sha256");
    let mut registry = Registry {
        repository,
        settings,
        client: None,
    };
    let (parsed, digest) = registry.top(pin, &blobs)?;
    let what = format!("{repository}@{digest}");
    // A skill named of an artifact that is no collection is a skill of
    // the plugin its layer holds: the caller picks it from the layer.
    let next = match (parsed, skill) {
        (layout::Parsed::Manifest(manifest), _) => Err(manifest),
        (layout::Parsed::Index { manifest, artifact }, _) => Ok((manifest, artifact)),
        (layout::Parsed::Collection(skills), Some(skill)) => {
            let Some((_, manifest)) = skills.into_iter().find(|(name, _)| name == skill) else {
                bail!("{what}: the collection has no skill '{skill}'");
            };
            Ok((manifest, None))
        }
        (layout::Parsed::Collection(skills), None) => {
            let names: Vec<String> = skills.into_iter().map(|(name, _)| name).collect();
            bail!(
                "{what} is a collection of skills ({}); skills.toml names one of them with `skill = \"NAME\"`",
                names.join(", ")
            );
        }
    };
    let (manifest, index_artifact) = match next {
        Err(manifest) => (manifest, None),
        Ok((descriptor, artifact)) => {
            let fetched =
                registry.manifest_by_digest(&descriptor.digest, &blobs, Some(descriptor.size))?;
            match layout::parse(&fetched.bytes, fetched.content_type.as_deref(), &what)? {
                layout::Parsed::Manifest(manifest) => (manifest, artifact),
                _ => bail!("{what}: an image index inside an image index is not read"),
            }
        }
    };
    let content = manifest.content(index_artifact.as_deref(), &what)?;
    let mut name = content.name.clone();
    let mut version = None;
    if let Some(config) = &content.config {
        if config.size > layout::MAX_CONFIG {
            bail!(
                "{what}: its config blob of {} bytes is larger than skillpkg reads",
                config.size
            );
        }
        let path = registry.blob(config, &blobs)?;
        let parsed = layout::parse_config(&fs_err::read(&path)?, &what)?;
        if let (Some(said), Some(named)) = (&parsed.name, &name)
            && said != named
        {
            bail!("{what}: its config names the skill '{said}', and its annotation '{named}'");
        }
        name = name.or(parsed.name);
        // A version that is no semver (a hostile or careless config) is not taken.
        version = parsed.version.filter(|v| semver::Version::parse(v).is_ok());
    }
    if content.layer.size > settings.limits.max_archive_bytes() {
        bail!(
            Hinted::new(format!(
                "{what}: its layer of {} bytes is larger than an archive of a skill within the limits",
                content.layer.size
            ))
            .hint(format!(
                "if it is that large on purpose, raise the limit with {}",
                crate::store::limits::SIZE_FLAG
            ))
        );
    }
    let layer = registry.blob(&content.layer, &blobs)?;
    Ok(Pulled {
        digest,
        layer,
        layer_size: content.layer.size,
        compression: content.compression,
        name,
        in_folder: content.kind == layout::Kind::AgentSkills,
        version,
    })
}

/// The names of the skills of the collection `pin` names in
/// `repository`; `None` when it names no collection.
pub(crate) fn collection(
    repository: &str,
    pin: &OciPin,
    settings: &Settings,
) -> anyhow::Result<Option<Vec<String>>> {
    let mut registry = Registry {
        repository,
        settings,
        client: None,
    };
    let (parsed, _) = registry.top(pin, &settings.cache.join("oci/blobs/sha256"))?;
    Ok(match parsed {
        layout::Parsed::Collection(skills) => {
            Some(skills.into_iter().map(|(name, _)| name).collect())
        }
        _ => None,
    })
}

/// A repository being pulled from: the cache first, the registry (a
/// client made on first need) for what the cache lacks.
pub(crate) struct Registry<'a> {
    /// `HOST/REPO`.
    pub(crate) repository: &'a str,
    /// Where the cache is, and how to reach the registry.
    pub(crate) settings: &'a Settings<'a>,
    /// The client, made on first need.
    pub(crate) client: Option<client::Client>,
}

/// A manifest's bytes and the media type it was served as.
pub(crate) struct Document {
    /// The bytes, checked against the digest that named them.
    pub(crate) bytes: Vec<u8>,
    /// The `Content-Type` the registry served them as.
    pub(crate) content_type: Option<String>,
}

impl Registry<'_> {
    /// The document `pin` names, parsed, and its digest.
    fn top(&mut self, pin: &OciPin, blobs: &Path) -> anyhow::Result<(layout::Parsed, String)> {
        let (top, digest) = match pin {
            OciPin::Digest(digest) => (
                self.manifest_by_digest(digest, blobs, None)?,
                digest.clone(),
            ),
            OciPin::Tag(tag) => self.manifest_by_tag(tag, blobs)?,
        };
        let what = format!("{}@{digest}", self.repository);
        let parsed = layout::parse(&top.bytes, top.content_type.as_deref(), &what)?;
        Ok((parsed, digest))
    }

    pub(crate) fn client(&mut self) -> anyhow::Result<&client::Client> {
        if self.client.is_none() {
            let sources = auth::Sources::new(self.settings.config, self.settings.home);
            self.client = Some(client::Client::new(
                registry_of(self.repository),
                path_of(self.repository),
                self.settings.insecure,
                sources,
            )?);
        }
        Ok(self.client.as_ref().expect("made above"))
    }

    /// The manifest `digest`: from the cache, else from the registry;
    /// checked against the digest (and `size`, when an index gives it).
    pub(crate) fn manifest_by_digest(
        &mut self,
        digest: &str,
        blobs: &Path,
        size: Option<u64>,
    ) -> anyhow::Result<Document> {
        let cached = blobs.join(digest.trim_start_matches("sha256:"));
        if let Some(bytes) = read_checked(&cached, digest) {
            return Ok(Document {
                bytes,
                content_type: None,
            });
        }
        let repository = self.repository;
        self.refuse_offline(&format!("the manifest {digest}"))?;
        let Some(fetched) = self.client()?.manifest(digest)? else {
            bail!(
                Hinted::new(format!("{repository} has no manifest {digest}"))
                    .hint("the artifact was deleted from the registry, or the digest is wrong")
            );
        };
        let got = format!("sha256:{}", sha256_hex(&fetched.bytes));
        if got != digest || size.is_some_and(|size| size != fetched.bytes.len() as u64) {
            bail!(
                Hinted::new(format!(
                    "{repository}@{digest}: the registry sent a manifest of {} bytes hashing to {got}; refused",
                    fetched.bytes.len()
                ))
                .hint("the registry, or something between it and you, is broken or hostile")
            );
        }
        crate::fsutil::write_cache_file(&cached, &fetched.bytes)?;
        Ok(Document {
            bytes: fetched.bytes,
            content_type: fetched.content_type,
        })
    }

    /// The manifest `tag` names now, and its digest; `None` when the
    /// repository has no such tag.
    pub(crate) fn find_by_tag(
        &mut self,
        tag: &str,
        blobs: &Path,
    ) -> anyhow::Result<Option<(Document, String)>> {
        self.refuse_offline(&format!("which artifact the tag {tag} names"))?;
        let Some(fetched) = self.client()?.manifest(tag)? else {
            return Ok(None);
        };
        self.checked_tag(tag, fetched, blobs).map(Some)
    }

    /// The manifest `tag` names now, and its digest.
    fn manifest_by_tag(&mut self, tag: &str, blobs: &Path) -> anyhow::Result<(Document, String)> {
        let repository = self.repository;
        self.refuse_offline(&format!("which artifact the tag {tag} names"))?;
        let client = self.client()?;
        let Some(fetched) = client.manifest(tag)? else {
            let mut error = Hinted::new(format!("{repository} has no tag {tag}"));
            if let Ok(tags) = client.tags()
                && !tags.is_empty()
            {
                let mut shown: Vec<&str> = tags.iter().map(String::as_str).rev().take(10).collect();
                shown.reverse();
                error = error.hint(format!("its tags: {}", shown.join(", ")));
            }
            bail!(error);
        };
        self.checked_tag(tag, fetched, blobs)
    }

    /// The manifest `fetched` for `tag`, checked against the digest the
    /// registry gave it and kept in the cache by its digest.
    fn checked_tag(
        &self,
        tag: &str,
        fetched: client::Fetched,
        blobs: &Path,
    ) -> anyhow::Result<(Document, String)> {
        let repository = self.repository;
        let digest = format!("sha256:{}", sha256_hex(&fetched.bytes));
        if let Some(said) = &fetched.digest
            && said.starts_with("sha256:")
            && *said != digest
        {
            bail!(
                Hinted::new(format!(
                    "{repository}:{tag}: the registry says the manifest is {said}, and its bytes hash to {digest}; refused"
                ))
                .hint("the registry, or something between it and you, is broken or hostile")
            );
        }
        crate::fsutil::write_cache_file(&blobs.join(&digest["sha256:".len()..]), &fetched.bytes)?;
        Ok((
            Document {
                bytes: fetched.bytes,
                content_type: fetched.content_type,
            },
            digest,
        ))
    }

    /// The blob `descriptor` names, in the cache: kept there when it
    /// hashes to its digest, else fetched.
    pub(crate) fn blob(
        &mut self,
        descriptor: &layout::Descriptor,
        blobs: &Path,
    ) -> anyhow::Result<PathBuf> {
        let path = blobs.join(descriptor.digest.trim_start_matches("sha256:"));
        let cached = std::fs::metadata(&path).is_ok_and(|m| m.len() == descriptor.size)
            && file_digest(&path).is_some_and(|d| d == descriptor.digest);
        if !cached {
            self.refuse_offline(&format!("the blob {}", descriptor.digest))?;
            self.client()?.blob(descriptor, &path)?;
        }
        Ok(path)
    }

    /// With `--offline`, an error saying that `what` must be asked of the
    /// registry.
    fn refuse_offline(&self, what: &str) -> anyhow::Result<()> {
        if !self.settings.offline {
            return Ok(());
        }
        bail!(
            Hinted::new(format!(
                "{what} must be asked of {}, and --offline forbids that",
                registry_of(self.repository)
            ))
            .hint("run once without --offline (or --frozen) to fill the cache")
        )
    }
}

/// The file at `path` if it hashes to `digest`.
fn read_checked(path: &Path, digest: &str) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    (format!("sha256:{}", sha256_hex(&bytes)) == digest).then_some(bytes)
}

/// `sha256:<hex>` of the file at `path`, read in pieces.
fn file_digest(path: &Path) -> Option<String> {
    crate::store::hash::sha256_file_digest(path).ok()
}
