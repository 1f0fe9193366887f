//! Opening the registry a dependency names: the embedded sample index (the
//! default), a folder, a git repository, or a static HTTP index.

use std::path::Path;

use anyhow::{Context as _, bail};

use super::builtin::BuiltinIndex;
use super::git::{GitIndex, is_git_index};
use super::http::{HttpIndex, Settled, is_http_index};
use super::listing::{Listing, listing_entry};
use super::local::IndexDir;
use super::oci::{Namespace, Place, is_oci_index};
use super::{IndexConfig, IndexEntry, PackageName};
use crate::credentials::{Credentials, index_token_variable};
use crate::dirs::Dirs;
use crate::fsutil::FileLock;
use crate::hint::Hinted;
use crate::net::split_credentials;
use crate::progress::Progress;
use crate::store::limits::Limits;

/// The source label of the embedded index, as `skills.lock` records it.
pub(crate) const BUILTIN_REGISTRY: &str = "builtin";

/// An index ready to read.
pub(crate) struct Registry {
    /// How `skills.lock` names it (after `registry+`).
    pub label: String,
    /// Where its files come from.
    backend: Backend,
    /// Its `config.json`, read once when it was opened.
    pub config: IndexConfig,
    /// Whether it came over a network transport (unsigned packages are
    /// refused from those unless the user opts in).
    pub remote: bool,
    /// For a git index: the lock on its shared checkout, held while the
    /// registry is read.
    _lock: Option<FileLock>,
}

pub(crate) use super::policy_file::PolicyFiles;

/// Where an index's files come from.
enum Backend {
    /// The sample index built into the binary.
    Builtin(BuiltinIndex),
    /// A folder (a local index, the embedded one, a git checkout).
    Files(IndexDir),
    /// A static HTTP index, fetched sparsely.
    Http(HttpIndex),
    /// An OCI registry namespace.
    Oci(Namespace),
}

/// Opens the registry at `spec`, or the embedded sample index for `None`.
/// With `offline`, a git index is read from its checkout in the cache
/// without fetching (an error says so when there is none yet).
///
/// `insecure` names OCI registries spoken to over plain HTTP besides
/// those on this machine (`--insecure-registry`).
pub(crate) fn open_registry(
    spec: Option<&str>,
    cwd: &Path,
    dirs: &Dirs,
    offline: bool,
    insecure: &[String],
) -> anyhow::Result<Registry> {
    let cache = dirs.cache.as_path();
    let Some(spec) = spec else {
        let index = BuiltinIndex::default();
        return Ok(Registry {
            label: BUILTIN_REGISTRY.to_string(),
            config: index.config()?,
            backend: Backend::Builtin(index),
            remote: false,
            _lock: None,
        });
    };
    // The lock, messages and cache folders name the index without the
    // credentials its URL may carry.
    let (label, _) = split_credentials(spec)?;
    if is_oci_index(spec) {
        let namespace = Namespace::new(
            spec,
            Place {
                cache: dirs.cache.clone(),
                config: dirs.config.clone(),
                home: dirs.home.clone(),
                offline,
                insecure: insecure.to_vec(),
            },
        )?;
        return Ok(Registry {
            label: namespace.label(),
            config: namespace.config()?,
            backend: Backend::Oci(namespace),
            remote: true,
            _lock: None,
        });
    }
    if is_http_index(spec) {
        // A token for the index's host, from the environment or the
        // private credentials file.
        let token = match crate::net::Origin::of(&label) {
            Some(origin) => {
                Credentials::new(Some(&dirs.config)).get(&index_token_variable(&origin))?
            }
            None => None,
        };
        let (index, config) = HttpIndex::open(spec, cache, offline, token)?;
        return Ok(Registry {
            label,
            backend: Backend::Http(index),
            config,
            remote: true,
            _lock: None,
        });
    }
    let git = GitIndex::new(spec, cache)?;
    // A git index already checked out is one even when its URL is out of
    // reach (a `file://` repository that moved, a network that is down).
    if is_git_index(spec) || git.checkout().join(".git").is_dir() {
        let lock = git.lock(cache)?;
        if offline {
            if !git.checkout().join(".git").is_dir() {
                bail!(
                    Hinted::new(format!(
                        "the index {label} is not in the cache and --offline forbids fetching it"
                    ))
                    .hint("run once without --offline (or --frozen) to fetch it")
                );
            }
        } else {
            git.sync()?;
        }
        let remote = !spec.starts_with("file://")
            && !spec.starts_with("git+file://")
            && !Path::new(spec).exists();
        return Ok(Registry {
            _lock: Some(lock),
            ..Registry::new(label, git.open_checkout()?, remote)?
        });
    }
    let path = cwd.join(spec.strip_prefix("file://").unwrap_or(spec));
    Registry::new(spec.to_string(), IndexDir::open(&path)?, false)
}

impl Registry {
    fn new(label: impl Into<String>, dir: IndexDir, remote: bool) -> anyhow::Result<Registry> {
        let config = dir.config()?;
        Ok(Registry {
            label: label.into(),
            backend: Backend::Files(dir),
            config,
            remote,
            _lock: None,
        })
    }

    /// Fetches the entry files of `packages` ahead of [`Registry::entries`],
    /// concurrently where the transport allows it. Over HTTP, a package
    /// whose cached entries `settled` accepts is not asked for again.
    pub(crate) fn prefetch(
        &self,
        packages: &[PackageName],
        settled: &Settled,
        progress: &dyn Progress,
    ) -> anyhow::Result<()> {
        match &self.backend {
            Backend::Builtin(_) | Backend::Files(_) => Ok(()),
            Backend::Oci(namespace) => namespace.prefetch(packages, &self.config, settled),
            Backend::Http(index) => index.prefetch(packages, settled, progress),
        }
    }

    /// Forgets what [`Registry::prefetch`] read of `packages`, so that
    /// they are asked for again.
    pub(crate) fn forget(&self, packages: &[PackageName]) {
        if let Backend::Http(index) = &self.backend {
            index.forget(packages);
        }
    }

    /// Every version of `package`.
    pub(crate) fn entries(&self, package: &PackageName) -> anyhow::Result<Vec<IndexEntry>> {
        match &self.backend {
            Backend::Builtin(index) => index.entries(package),
            Backend::Files(dir) => dir.entries(package),
            Backend::Http(index) => index.entries(package),
            Backend::Oci(namespace) => namespace.entries(package, &self.config),
        }
    }

    /// Every package the index lists, for search: from its search
    /// listing when it has one (one conditional request on HTTP), else
    /// from its entry files where they can be listed (folders, git
    /// checkouts, the built-in index). An HTTP index without a listing
    /// cannot be listed: `None`.
    pub(crate) fn listing(&self) -> anyhow::Result<Option<Listing>> {
        let dir = match &self.backend {
            Backend::Builtin(index) => {
                return self.listing_of(index.packages()).map(Some);
            }
            Backend::Files(dir) => dir,
            Backend::Http(index) => return index.listing(),
            Backend::Oci(namespace) => return namespace.listing(&self.config),
        };
        match dir.listing()? {
            Some(listing) => Ok(Some(listing)),
            None => self.listing_of(dir.packages()?).map(Some),
        }
    }

    /// Every package the index holds, whatever channel its versions are
    /// in: from its entry files where they can be listed, the registry's
    /// catalog for an OCI namespace, else its search listing (which shows
    /// only packages with a released version).
    pub(crate) fn packages(&self) -> anyhow::Result<Vec<PackageName>> {
        let listed = match &self.backend {
            Backend::Builtin(index) => return Ok(index.packages()),
            Backend::Files(dir) => return dir.packages(),
            Backend::Oci(namespace) => match namespace.packages()? {
                Some(packages) => return Ok(packages),
                None => self.listing()?,
            },
            Backend::Http(index) => index.listing()?,
        };
        Ok(listed
            .iter()
            .flat_map(|listing| listing.entries())
            .filter_map(|entry| entry.name.parse().ok())
            .collect())
    }

    /// The index's `policy.toml` and its signature (see
    /// [`super::policy_file`]), unchecked, with where they were read; `None`
    /// when it has no policy. The built-in index and OCI namespaces have
    /// none.
    pub(crate) fn policy_files(&self) -> anyhow::Result<Option<PolicyFiles>> {
        use super::policy_file::{MAX_POLICY_BYTES, POLICY_FILE, POLICY_SIGNATURE_FILE};
        let (text, signature, origin) = match &self.backend {
            Backend::Builtin(_) => return Ok(None),
            Backend::Oci(namespace) => return namespace.policy_files(),
            Backend::Files(dir) => {
                let path = dir.root().join(POLICY_FILE);
                let read = |path: &Path| -> anyhow::Result<Option<Vec<u8>>> {
                    match fs_err::metadata(path) {
                        Ok(meta) if meta.len() > MAX_POLICY_BYTES => {
                            bail!("{} is larger than a policy may be", path.display())
                        }
                        Ok(_) => Ok(Some(fs_err::read(path)?)),
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                        Err(e) => Err(e.into()),
                    }
                };
                let signature = read(&dir.root().join(POLICY_SIGNATURE_FILE))?;
                (read(&path)?, signature, path.display().to_string())
            }
            Backend::Http(index) => {
                if index.unreachable_offline(POLICY_FILE) {
                    bail!(
                        Hinted::new(format!(
                            "the policy of the index {} could not be fetched: skillpkg is offline, and the cache holds no copy of it",
                            self.label
                        ))
                        .hint("run the command once online (without --offline or --frozen), so that the org's policy is fetched and kept in the cache")
                    );
                }
                let (text, origin) = index.optional_file(POLICY_FILE, MAX_POLICY_BYTES)?;
                let (signature, _) =
                    index.optional_file(POLICY_SIGNATURE_FILE, MAX_POLICY_BYTES)?;
                (text, signature, origin)
            }
        };
        Ok(text.map(|text| PolicyFiles {
            text,
            signature: signature.map(|s| String::from_utf8_lossy(&s).into_owned()),
            origin,
        }))
    }

    /// A listing made by reading the entry files of `packages`.
    fn listing_of(&self, packages: Vec<PackageName>) -> anyhow::Result<Listing> {
        let mut listing = Listing::default();
        for package in packages {
            listing.set(
                &package.to_string(),
                listing_entry(&self.entries(&package)?),
            );
        }
        Ok(listing)
    }

    /// Downloads the archives of `versions` into the archive cache `dir`
    /// (as `<sha256>.skill`), concurrently where the transport allows it,
    /// each refused past what an archive within `limits` can take. Only
    /// archives whose checksum matches their entry are kept.
    pub(crate) fn prefetch_archives(
        &self,
        versions: &[(&PackageName, &IndexEntry)],
        dir: &Path,
        limits: &Limits,
        progress: &dyn Progress,
    ) -> anyhow::Result<()> {
        let missing = versions
            .iter()
            .filter(|(_, entry)| !dir.join(format!("{}.skill", entry.cksum)).is_file());
        match &self.backend {
            Backend::Builtin(_) | Backend::Files(_) => Ok(()),
            Backend::Oci(namespace) => {
                namespace.prefetch_archives(&missing.copied().collect::<Vec<_>>(), limits)
            }
            Backend::Http(index) => index.download_archives(
                missing
                    .map(|(package, entry)| {
                        (
                            index.archive_url(&self.config, package, &entry.vers),
                            entry.cksum.clone(),
                            entry.size,
                        )
                    })
                    .collect(),
                dir,
                limits,
                progress,
            ),
        }
    }

    /// Writes the archive of one version, whose entry gives its `size`,
    /// into `into` (a new, empty file), streamed: refused past what an
    /// archive within `limits` can take.
    pub(crate) fn archive_into(
        &self,
        package: &PackageName,
        version: &str,
        size: u64,
        limits: &Limits,
        into: &std::fs::File,
    ) -> anyhow::Result<()> {
        let missing = || format!("the index lists {package}@{version} but has no archive for it");
        let copied = match &self.backend {
            Backend::Builtin(index) => {
                let bytes = index.archive(package, version).with_context(|| {
                    format!(
                        "the built-in index lists {package}@{version} but has no archive for it"
                    )
                })?;
                copy_within(bytes.as_slice(), into, limits)
            }
            Backend::Files(dir) => {
                let path = dir.root().join(package.archive_path(version));
                copy_within(
                    fs_err::File::open(&path).with_context(missing)?,
                    into,
                    limits,
                )
            }
            Backend::Http(index) => {
                let url = index.archive_url(&self.config, package, version);
                return index
                    .archive(&url, size, limits, into)
                    .with_context(|| format!("could not download {package}@{version}"));
            }
            Backend::Oci(namespace) => {
                let layer = namespace
                    .layer(package, version, limits)
                    .with_context(|| format!("could not download {package}@{version}"))?;
                copy_within(fs_err::File::open(&layer)?, into, limits)
            }
        };
        copied.with_context(|| format!("could not read the archive of {package}@{version}"))
    }
}

/// Copies `from` into `into`, refusing more than an archive within
/// `limits` can take.
fn copy_within(
    from: impl std::io::Read,
    into: &std::fs::File,
    limits: &Limits,
) -> anyhow::Result<()> {
    let limit = limits.max_archive_bytes();
    let mut out = into;
    let copied = std::io::copy(&mut from.take(limit + 1), &mut out)?;
    if copied > limit {
        bail!(
            Hinted::new(format!(
                "the archive is larger than the {limit} bytes an archive of a skill within the limits can take"
            ))
            .hint(format!(
                "if the skill is that large on purpose, raise the limit with {}",
                crate::store::limits::SIZE_FLAG
            ))
        );
    }
    Ok(())
}
