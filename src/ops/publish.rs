//! `skillpkg index init`, `publish` and `yank`: writing to an index.

use std::path::Path;

use anyhow::{Context as _, bail};

use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::index::channel::{Channel, signed_comment};
use crate::index::git::{GitIndex, init_repository, is_git_index};
use crate::index::local::{IndexDir, Naming};
use crate::index::oci::{Namespace, Place, is_oci_index};
use crate::index::{IndexEntry, PackageName, parse_dependencies};
use crate::ops::pack::{PackedSkill, Validity};
use crate::store::archive::ArchiveFile;
use crate::store::hash;
use crate::store::limits::Limits;
use crate::store::signing::{SigningKey, read_public_key};

/// What `index init` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Initialised {
    /// Made a new index (a folder, or a new git repository).
    Created,
    /// Pushed the first commit of an index to an empty git repository.
    Pushed,
    /// The index was there: its config (and search listing) was brought
    /// up to date.
    Updated,
}

/// Creates an index at `spec`, optionally registering `org`'s signing
/// key. Without `git`, `spec` is a folder: created, or on an existing
/// index only the key is added. With `git`, `spec` is a repository: a
/// path that does not exist or is an empty folder becomes a new one (bare
/// when it ends in `.git`); an existing bare repository or a URL is
/// cloned into `cache`, and an empty one (what a git host gives you) gets
/// the first commit, pushed, while an index gets the key.
pub fn init_index(
    spec: &str,
    git: bool,
    org_key: Option<(&str, &str)>,
    identity: Option<&str>,
    dirs: &Dirs,
) -> anyhow::Result<Initialised> {
    let naming = match identity {
        Some(identity) => Naming::Given(identity),
        None => Naming::Default(default_identity(spec)),
    };
    let cache = dirs.cache.as_path();
    let key = org_key.map(|(org, key)| -> anyhow::Result<(String, String)> {
        if !crate::skill::name::is_valid_name(org) {
            bail!("invalid org name '{org}': orgs follow the skill name rules (lowercase letters, digits, hyphens)");
        }
        Ok((org.to_string(), read_public_key(key)?))
    });
    let key = key.transpose()?;
    let org_key = key.as_ref().map(|(o, k)| (o.as_str(), k.as_str()));
    if is_oci_index(spec) {
        return init_namespace(&Namespace::new(spec, place(dirs))?, org_key, &naming);
    }
    let path = Path::new(spec.strip_prefix("file://").unwrap_or(spec));
    let is_url = spec.contains("://") || spec.starts_with("git+");
    let is_bare_repository = path.join("HEAD").is_file() && path.join("objects").is_dir();
    if !git {
        if (is_url && !spec.starts_with("file://")) || is_bare_repository {
            bail!(
                Hinted::new(format!(
                    "{spec} is a bare git repository or a URL; without --git, an index is a folder"
                ))
                .hint(format!(
                    "for a git index, run `skillpkg index init {} --git`",
                    crate::hint::shell_quote(spec)
                ))
            );
        }
        let existed = path.join("config.json").is_file();
        IndexDir::init(path, org_key)?.name_as(&naming)?;
        return Ok(if existed {
            Initialised::Updated
        } else {
            Initialised::Created
        });
    }
    if (is_url && !spec.starts_with("file://")) || is_bare_repository {
        let created = GitIndex::new(spec, cache)?
            .init(cache, org_key, &naming)
            .with_context(|| format!("could not make {spec} a skill index"))?;
        return Ok(if created {
            Initialised::Pushed
        } else {
            Initialised::Updated
        });
    }
    if path.exists() && fs_err::read_dir(path)?.next().is_some() {
        bail!(
            Hinted::new(format!(
                "{} already exists and is not empty",
                path.display()
            ))
            .hint("a new git index needs a new directory, or an empty bare repository (`git init --bare`)")
        );
    }
    init_repository(path, org_key, &naming)
        .with_context(|| format!("could not create a git index at {}", path.display()))?;
    Ok(Initialised::Created)
}

/// The identity of an index its org names none for: as `spec` reaches it
/// (a URL or `oci://HOST/NAMESPACE` as given, a folder as a `file://` URL
/// of its absolute path).
fn default_identity(spec: &str) -> String {
    if spec.contains("://") && !spec.starts_with("file://") || spec.starts_with("git+") {
        return spec.trim_end_matches('/').to_string();
    }
    let path = Path::new(spec.strip_prefix("file://").unwrap_or(spec));
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    format!(
        "file://{}",
        crate::fsutil::lexically_normal(&path).display()
    )
}

/// Sets up the OCI namespace `namespace` as an index (its config
/// artifact), registering `org_key` when given.
fn init_namespace(
    namespace: &Namespace,
    org_key: Option<(&str, &str)>,
    naming: &Naming<'_>,
) -> anyhow::Result<Initialised> {
    let existing = namespace.existing_config()?;
    let done = match existing {
        Some(_) => Initialised::Updated,
        None => Initialised::Created,
    };
    let mut config = existing.unwrap_or_default();
    if let Some((org, key)) = org_key {
        let keys = config.keys.entry(org.to_string()).or_default();
        if !keys.iter().any(|k| k == key) {
            keys.push(key.to_string());
        }
    }
    match (&config.identity, naming) {
        (Some(old), Naming::Given(new)) if old != new => bail!(
            Hinted::new(format!("the index is named {old} already, not {new}"))
                .hint("an index keeps its identity, which its channel records and policy are signed for: make a new index for a new name")
        ),
        (Some(_), _) => {}
        (None, Naming::Given(identity)) => config.identity = Some(identity.to_string()),
        (None, Naming::Default(identity)) => config.identity = Some(identity.clone()),
    }
    if let Some(identity) = &config.identity {
        crate::index::check_identity(identity)
            .map_err(|why| anyhow::anyhow!("--identity: {why}"))?;
    }
    namespace.write_config(&config)?;
    Ok(done)
}

/// How an OCI index is reached from this machine.
pub(super) fn place(dirs: &Dirs) -> Place {
    Place {
        cache: dirs.cache.clone(),
        config: dirs.config.clone(),
        home: dirs.home.clone(),
        offline: false,
        insecure: Vec::new(),
    }
}

/// Applies `change` to the index named by `spec` (a folder, or a git
/// repository or URL), committing and pushing for git.
pub(crate) fn change_index(
    spec: &str,
    cache: &Path,
    mut change: impl FnMut(&IndexDir) -> anyhow::Result<String>,
) -> anyhow::Result<()> {
    if is_git_index(spec) {
        return GitIndex::new(spec, cache)?.publish(cache, change);
    }
    let root = Path::new(spec.strip_prefix("file://").unwrap_or(spec));
    if spec.starts_with("http://") || spec.starts_with("https://") {
        bail!(
            Hinted::new(format!(
                "cannot publish to {spec}: HTTP indexes are read-only"
            ))
            .hint("publish to the git repository or folder that the server serves")
        );
    }
    let index = IndexDir::open(root)?;
    let key = hash::sha256_hex(root.canonicalize()?.to_string_lossy().as_bytes());
    let _lock =
        crate::fsutil::lock_exclusive(&cache.join("locks").join(format!("{}.lock", &key[..16])))?;
    change(&index)?;
    Ok(())
}

/// What `publish` was asked to do.
#[derive(Clone, Copy)]
pub struct PublishRequest<'a> {
    /// The skill directory.
    pub skill_dir: &'a Path,
    /// The index: a folder, a git repository path or a git URL.
    pub index: &'a str,
    /// The organisation to publish under.
    pub org: &'a str,
    /// The minisign secret key file; `None` publishes with a Sigstore
    /// bundle alone.
    pub key: Option<&'a Path>,
    /// A Sigstore bundle (JSON) over the archive, made in CI over the
    /// `.skill` that `pack` wrote: recorded in the entry beside or
    /// instead of the minisign signature.
    pub sigstore_bundle: Option<&'a str>,
    /// Overrides `metadata.version`.
    pub version: Option<&'a str>,
    /// Overrides `metadata.dependencies` (comma-separated `org/name@req`).
    pub dependencies: Option<&'a str>,
    /// Publish a skill the reference validator rejects, as long as agents
    /// load it, recording the rules it breaks in its entry.
    pub allow_invalid: bool,
    /// What the skill may hold: what installs accept (`--max-skill-size`).
    pub limits: Limits,
    /// The channel the version starts in (signed with `key`); `None` is
    /// `published`.
    pub channel: Option<Channel>,
    /// For a mirrored skill: where it came from, signed with `key` into
    /// the entry.
    pub upstream: Option<&'a crate::index::upstream::Upstream>,
}

/// What `publish` did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Published {
    /// `org/name`.
    pub package: String,
    /// The version.
    pub version: String,
    /// sha256 of the archive.
    pub cksum: String,
    /// The archive's size.
    pub size: u64,
}

/// Packs, signs and adds a skill to an index. `skill_dir` may also be a
/// `.skill` that `pack` wrote (the archive a Sigstore bundle was made
/// over), published byte for byte once it is checked to be exactly what
/// `pack` makes of its files.
pub fn publish(request: &PublishRequest<'_>, dirs: &Dirs) -> anyhow::Result<Published> {
    let prepared = prepare(request)?;
    deliver(request.index, &prepared, dirs)?;
    Ok(prepared.published())
}

/// Publishes each skill of `skill_dirs` (at its own `metadata.version`,
/// kept where that version is published already with the same content)
/// and the collection `collection` of them at `request.version`, into
/// the OCI index `request.index`. Returns what was published: the
/// skills, then the collection (whose checksum is its index's digest).
pub(crate) fn publish_collection(
    request: &PublishRequest<'_>,
    skill_dirs: &[std::path::PathBuf],
    collection: &str,
    dirs: &Dirs,
) -> anyhow::Result<Vec<Published>> {
    if !is_oci_index(request.index) {
        bail!(
            Hinted::new(format!(
                "{} is no OCI index, and collections are published to OCI registries",
                request.index
            ))
            .hint("publish each skill on its own, or give --index oci://HOST/NAMESPACE")
        );
    }
    let Some(version) = request.version else {
        bail!(
            Hinted::new(format!("the collection {collection} needs a version"))
                .hint("pass --version (the skills keep their own metadata.version)")
        );
    };
    semver::Version::parse(version).map_err(|e| {
        anyhow::anyhow!("invalid version '{version}' for the collection {collection}: {e}")
    })?;
    if request.dependencies.is_some() {
        bail!(
            "--dependencies names one skill's dependencies; set metadata.dependencies in each skill of the collection"
        );
    }
    let name: PackageName = format!("{}/{collection}", request.org).parse()?;
    let prepared = skill_dirs
        .iter()
        .map(|dir| {
            prepare(&PublishRequest {
                skill_dir: dir,
                version: None,
                ..*request
            })
        })
        .collect::<anyhow::Result<Vec<Prepared>>>()?;
    let mut seen = std::collections::BTreeSet::new();
    if let Some(twice) = prepared
        .iter()
        .find(|p| !seen.insert(p.package.name.clone()))
    {
        bail!(
            "the collection names the skill {} twice",
            twice.package.name
        );
    }
    let namespace = Namespace::new(request.index, place(dirs))?;
    let public_key = prepared.first().and_then(|p| p.public_key.clone());
    let config = namespace_config(&namespace, request.org, public_key.as_ref())?;
    for member in &prepared {
        check_publisher_key(
            &config,
            &member.package,
            member.public_key.as_ref(),
            request.index,
        )?;
    }
    // The OCI client uploads a layer from memory.
    let layers = prepared
        .iter()
        .map(|member| fs_err::read(member.archive.path()))
        .collect::<std::io::Result<Vec<Vec<u8>>>>()?;
    for (member, layer) in prepared.iter().zip(&layers) {
        namespace.publish_or_keep(&member.package, &member.entry, layer, &config)?;
    }
    let members: Vec<(&PackageName, &IndexEntry, &[u8])> = prepared
        .iter()
        .zip(&layers)
        .map(|(p, layer)| (&p.package, &p.entry, layer.as_slice()))
        .collect();
    let (digest, size) = namespace.publish_collection(&name, version, &members)?;
    let mut published: Vec<Published> = prepared.iter().map(Prepared::published).collect();
    published.push(Published {
        package: name.to_string(),
        version: version.to_string(),
        cksum: digest.trim_start_matches("sha256:").to_string(),
        size,
    });
    Ok(published)
}

/// A version packed and signed, ready to add to an index.
struct Prepared {
    package: PackageName,
    entry: IndexEntry,
    /// The archive: a `.skill`, or for an OCI index its layer, in a
    /// temporary file.
    archive: ArchiveFile,
    /// The minisign public key it is signed with, if any.
    public_key: Option<String>,
}

impl Prepared {
    fn published(&self) -> Published {
        Published {
            package: self.package.to_string(),
            version: self.entry.vers.clone(),
            size: self.archive.size,
            cksum: self.entry.cksum.clone(),
        }
    }
}

/// Packs, checks and signs the skill `request` names.
fn prepare(request: &PublishRequest<'_>) -> anyhow::Result<Prepared> {
    let oci = is_oci_index(request.index);
    let validity = match request.allow_invalid {
        true => Validity::Lenient,
        false => Validity::Reference,
    };
    let unpacked = match request.skill_dir.is_file() {
        true => Some(unpack_for_publishing(request.skill_dir, &request.limits)?),
        false => None,
    };
    let skill_dir = unpacked
        .as_ref()
        .map(|(_, dir)| dir.clone())
        .unwrap_or(request.skill_dir.to_path_buf());
    let scratch = std::env::temp_dir();
    let PackedSkill {
        skill,
        archive: packed,
        broken_rules,
        ..
    } = crate::ops::pack::pack_skill(&skill_dir, validity, &request.limits, &scratch).map_err(
        |e| {
            // A package name follows the naming rules whatever else is allowed.
            let name_is_valid = crate::skill::load_skill(&skill_dir)
                .is_ok_and(|s| crate::skill::name::is_valid_name(&s.meta.name));
            match validity == Validity::Reference && name_is_valid && !is_over_limits(&e) {
                true => e.context(
                    Hinted::new(format!("{} cannot be published", request.skill_dir.display()))
                        .hint("--allow-invalid publishes it as agents load it, with the broken rules recorded in its entry"),
                ),
                false => e,
            }
        },
    )?;
    let package: PackageName = format!("{}/{}", request.org, skill.meta.name).parse()?;
    let version = match request
        .version
        .or(skill.meta.metadata.get("version").map(String::as_str))
    {
        Some(v) => v.trim().to_string(),
        None => bail!(
            Hinted::new(format!("{package} has no version")).hint(format!(
                "set metadata.version in {} or pass --version",
                skill.skill_md.display()
            ))
        ),
    };
    semver::Version::parse(&version).map_err(|e| {
        anyhow::anyhow!(
            "invalid version '{version}' for {package}: {e} (versions are semver, like 1.2.3)"
        )
    })?;
    let deps =
        match request
            .dependencies
            .or(skill.meta.metadata.get("dependencies").map(String::as_str))
        {
            Some(text) => parse_dependencies(text)
                .with_context(|| format!("invalid dependencies for {package}"))?,
            None => Vec::new(),
        };
    // An OCI index holds the archive's files as an Agent Skills layer,
    // which is what is checksummed and signed there.
    let packed_sha256 = packed.sha256.clone();
    let archive = match oci {
        true => crate::store::layer::layer_beside(&packed)?,
        false => packed,
    };
    if unpacked.is_some() {
        check_given(request, &packed_sha256, &archive.sha256)?;
    }
    let cksum = archive.sha256.clone();
    let sigstore = match request.sigstore_bundle {
        Some(text) => Some(sigstore_bundle_over(text, &cksum, request.skill_dir, oci)?),
        None => None,
    };
    let key = request.key.map(SigningKey::load).transpose()?;
    let channel = starting_channel(request, &package, key.is_some())?;
    let sig = match &key {
        Some(key) => key.sign_reader(
            archive.open()?,
            &signed_comment(&package.to_string(), &version, &cksum, channel),
        )?,
        None => String::new(),
    };
    let entry = IndexEntry {
        name: package.to_string(),
        vers: version.clone(),
        cksum: cksum.clone(),
        deps,
        desc: skill.meta.description.clone(),
        sig,
        sigstore,
        yanked: false,
        size: archive.size,
        invalid: broken_rules,
        channel: key.is_some().then_some(channel),
        upstream: signed_upstream(request, key.as_ref(), &package, &version, &cksum)?,
        ..Default::default()
    };
    Ok(Prepared {
        package,
        entry,
        archive,
        public_key: key.as_ref().map(SigningKey::public_key),
    })
}

/// The upstream record of a mirrored skill, signed with `key` for this
/// version and archive; `None` for a skill published from its source.
fn signed_upstream(
    request: &PublishRequest<'_>,
    key: Option<&SigningKey>,
    package: &PackageName,
    version: &str,
    cksum: &str,
) -> anyhow::Result<Option<crate::index::upstream::Upstream>> {
    let Some(upstream) = request.upstream else {
        return Ok(None);
    };
    let Some(key) = key else {
        bail!(
            "{package}: a mirrored skill's origin is signed with the org's minisign key, and none was given"
        );
    };
    let mut upstream = upstream.clone();
    upstream.sign(key, &package.to_string(), version, cksum)?;
    Ok(Some(upstream))
}

/// The channel `request` starts its version in: `published` unless it
/// asks for another, which only a minisign key can sign.
fn starting_channel(
    request: &PublishRequest<'_>,
    package: &PackageName,
    signed: bool,
) -> anyhow::Result<Channel> {
    let channel = request.channel.unwrap_or(Channel::Published);
    if channel == Channel::Deprecated {
        bail!(
            Hinted::new(format!("{package} cannot be published as deprecated"))
                .hint("publish it, then `skillpkg promote ORG/NAME@VERSION --to deprecated`")
        );
    }
    if channel != Channel::Published && !signed {
        bail!(
            Hinted::new(format!(
                "{package} would go to the {channel} channel, but channels are signed with a minisign key and none was given"
            ))
            .hint("pass --key (a Sigstore bundle may go beside it)")
        );
    }
    Ok(channel)
}

/// Adds the `prepared` version to the index `index`.
fn deliver(index: &str, prepared: &Prepared, dirs: &Dirs) -> anyhow::Result<()> {
    let Prepared {
        package,
        entry,
        archive,
        public_key,
    } = prepared;
    if is_oci_index(index) {
        let namespace = Namespace::new(index, place(dirs))?;
        let config = namespace_config(&namespace, &package.org, public_key.as_ref())?;
        check_publisher_key(&config, package, public_key.as_ref(), index)?;
        // The OCI client uploads a layer from memory.
        namespace.publish(package, entry, &fs_err::read(archive.path())?, &config)?;
        return Ok(());
    }
    change_index(index, &dirs.cache, |dir| {
        let config = dir.config()?;
        check_publisher_key(&config, package, public_key.as_ref(), index)?;
        dir.add_version(package, entry, archive.path())?;
        Ok(format!("Publish {package}@{}", entry.vers))
    })
}

/// The config of the OCI index `namespace`; an empty namespace is set up
/// first, with `public_key` for `org`, as `index init` would.
fn namespace_config(
    namespace: &Namespace,
    org: &str,
    public_key: Option<&String>,
) -> anyhow::Result<crate::index::IndexConfig> {
    if let Some(config) = namespace.existing_config()? {
        return Ok(config);
    }
    let mut config = crate::index::IndexConfig::default();
    if let Some(public_key) = public_key {
        config
            .keys
            .insert(org.to_string(), vec![public_key.clone()]);
    }
    namespace.write_config(&config)?;
    Ok(config)
}

/// Refuses to publish `package` signed by `public_key` (`None`: not
/// signed with minisign) unless the index's `config` lets that key sign
/// for the org (or the org has no keys and the package is unsigned).
fn check_publisher_key(
    config: &crate::index::IndexConfig,
    package: &PackageName,
    public_key: Option<&String>,
    index: &str,
) -> anyhow::Result<()> {
    let org_keys = config.keys.get(&package.org);
    let keys_file = match is_oci_index(index) {
        true => format!("the config of {index}"),
        false => format!("{index}/config.json"),
    };
    let Some(public_key) = public_key else {
        if org_keys.is_some_and(|keys| !keys.is_empty()) {
            bail!(
                Hinted::new(format!(
                    "org '{}' signs its packages with minisign keys in {keys_file}, so {package} needs a minisign signature too",
                    package.org
                ))
                .hint("pass --key (a Sigstore bundle may go beside it)")
            );
        }
        return Ok(());
    };
    if !org_keys.is_some_and(|keys| keys.contains(public_key)) {
        bail!(
            Hinted::new(format!(
                "the signing key {public_key} is not one of org '{}''s keys in {keys_file}",
                package.org
            ))
            .hint(format!(
                "if it is a key of org '{}', add it with `skillpkg index init {}{} --org {} --key {public_key}`",
                package.org,
                crate::hint::shell_quote(index),
                if is_git_index(index) { " --git" } else { "" },
                package.org
            ))
        );
    }
    Ok(())
}

/// Refuses the file given to publish (`request.skill_dir`) unless it is
/// what `pack` makes of its own files: the `.skill` (whose sha256 is
/// `packed`), or, for an OCI index, the layer (`layer`) that
/// `pack --layer` writes.
fn check_given(request: &PublishRequest<'_>, packed: &str, layer: &str) -> anyhow::Result<()> {
    let oci = is_oci_index(request.index);
    let given = request.skill_dir;
    let mut magic = [0u8; 2];
    let is_layer = fs_err::File::open(given)
        .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut magic))
        .is_ok()
        && crate::store::archive::is_gzip(&magic);
    if is_layer && !oci {
        bail!(
            Hinted::new(format!(
                "{} is an OCI layer, which only an OCI index holds",
                given.display()
            ))
            .hint("publish the .skill that `skillpkg pack` wrote, or the skill's folder")
        );
    }
    let given_sha256 = hash::sha256_file(given)?;
    if given_sha256 == packed || (oci && given_sha256 == layer) {
        return Ok(());
    }
    bail!(
        Hinted::new(format!(
            "{} is not the archive `skillpkg pack` makes of its own files",
            given.display()
        ))
        .hint(match oci {
            true => "publish the layer that `skillpkg pack --layer` wrote (or the .skill), unchanged, or the skill's folder",
            false => "publish the .skill that `skillpkg pack` wrote, unchanged, or the skill's folder",
        })
    )
}

/// Whether `error` says a skill is over the limits every install holds
/// it to: no validator rule, so `--allow-invalid` is no way out.
fn is_over_limits(error: &anyhow::Error) -> bool {
    use crate::store::pack::PackError;
    error.chain().any(|cause| {
        cause.is::<crate::ops::pack::RefusedOnInstall>()
            || matches!(
                cause.downcast_ref::<PackError>(),
                Some(PackError::TooManyFiles { .. } | PackError::TooLarge { .. })
            )
    })
}

/// The files of a `.skill` unpacked (with every check an install within
/// `limits` makes) into a folder named after the skill, in a scratch
/// folder that lives as long as the returned guard.
fn unpack_for_publishing(
    path: &Path,
    limits: &Limits,
) -> anyhow::Result<(tempfile::TempDir, std::path::PathBuf)> {
    let refused = |e: &dyn std::fmt::Display| {
        anyhow::anyhow!(
            Hinted::new(format!("{} cannot be published: {e}", path.display()))
                .hint("publish a skill's folder, or the .skill that `skillpkg pack` wrote")
        )
    };
    let scratch = crate::fsutil::private_tempdir("skillpkg-publish-", None)?;
    let staged = crate::store::archive::extract(path, None, scratch.path(), limits)
        .map_err(|e| refused(&e))?;
    let skill = crate::skill::load_skill(&staged.path()).map_err(|e| refused(&e))?;
    if !crate::skill::name::is_safe_folder_name(&skill.meta.name) {
        return Err(refused(&format!(
            "its skill name {:?} is no folder name",
            skill.meta.name
        )));
    }
    let dir = scratch.path().join(&skill.meta.name);
    staged.persist(&dir)?;
    Ok((scratch, dir))
}

/// The Sigstore bundle `text`, checked to be a bundle over the archive
/// whose sha256 is `cksum` (a message signature's digest, or a DSSE
/// statement's subject). Who signed it is checked at install time,
/// against the policy for the org.
fn sigstore_bundle_over(
    text: &str,
    cksum: &str,
    archive: &Path,
    oci: bool,
) -> anyhow::Result<serde_json::Value> {
    use base64::Engine as _;
    let bundle: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| anyhow::anyhow!("the Sigstore bundle is not JSON: {e}"))?;
    let media_type = bundle["mediaType"].as_str().unwrap_or_default();
    if !media_type.starts_with("application/vnd.dev.sigstore.bundle") {
        bail!("the Sigstore bundle has no Sigstore bundle media type (it has {media_type:?})");
    }
    let message_digest = bundle["messageSignature"]["messageDigest"]["digest"]
        .as_str()
        .and_then(|b64| base64::engine::general_purpose::STANDARD.decode(b64).ok())
        .map(|bytes| hash::hex(&bytes));
    let statement_digests: Vec<String> = bundle["dsseEnvelope"]["payload"]
        .as_str()
        .and_then(|b64| base64::engine::general_purpose::STANDARD.decode(b64).ok())
        .and_then(|payload| serde_json::from_slice::<serde_json::Value>(&payload).ok())
        .and_then(|statement| statement["subject"].as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|subject| subject["digest"]["sha256"].as_str().map(str::to_string))
        .collect();
    if message_digest.as_deref() != Some(cksum) && !statement_digests.iter().any(|d| d == cksum) {
        bail!(
            Hinted::new(format!(
                "the Sigstore bundle does not sign {} (sha256:{cksum})",
                archive.display()
            ))
            .hint(match oci {
                true => "an OCI index signs the layer: make the bundle over the .tar.gz that `skillpkg pack --layer` wrote, and publish that file",
                false => "make the bundle over the .skill that `skillpkg pack` wrote, and publish that file",
            })
        );
    }
    Ok(bundle)
}

/// Sets or clears the `yanked` flag of `org/name@version`. Returns false
/// when it already had that value.
/// On an OCI index, the yank state is signed with `key` (the minisign
/// secret key file), which must be one of the org's.
pub fn yank(
    spec: &str,
    index: &str,
    undo: bool,
    key: Option<&Path>,
    dirs: &Dirs,
) -> anyhow::Result<bool> {
    let cache = dirs.cache.as_path();
    let (name, version) = spec
        .split_once('@')
        .ok_or_else(|| anyhow::anyhow!("expected org/name@version, got '{spec}'"))?;
    let package: PackageName = name.parse()?;
    semver::Version::parse(version)
        .map_err(|e| anyhow::anyhow!("invalid version '{version}': {e}"))?;
    if is_oci_index(index) {
        let Some(key) = key else {
            bail!(
                Hinted::new(format!(
                    "{index} is an OCI index, whose yank state is signed by the org"
                ))
                .hint("pass --key with one of the org's minisign secret keys")
            );
        };
        let key = SigningKey::load(key)?;
        let namespace = Namespace::new(index, place(dirs))?;
        let config = namespace.config()?;
        return namespace.set_yanked(&package, version, !undo, &key, &config);
    }
    let mut changed = false;
    change_index(index, cache, |dir| {
        changed = dir.set_yanked(&package, version, !undo)?;
        Ok(format!(
            "{} {package}@{version}",
            if undo { "Unyank" } else { "Yank" }
        ))
    })?;
    Ok(changed)
}
