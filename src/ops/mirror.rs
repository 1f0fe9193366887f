//! `skillpkg mirror SOURCE… --index INDEX --org ORG --key KEY`: curating
//! upstream skills into an org's own index.
//!
//! Each source is fetched and verified as `add` would (the user's signer
//! policies apply, on every transport) into a scratch project, then each
//! of its skills is scanned, and published to the org's index re-signed
//! with the org's key as a `draft`, with a signed record of where it came
//! from. Nothing upstream reaches the org's users before someone promotes
//! it. A skill the scanner blocks is left out, saying why; an upstream
//! commit already mirrored is left as it is.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::index::channel::Channel;
use crate::index::source::open_registry;
use crate::index::upstream::Upstream;
use crate::index::{IndexEntry, PackageName};
use crate::manifest::lock::Lockfile;
use crate::manifest::source_arg::{SourceArg, classify};
use crate::ops::install::InstallOptions;
use crate::ops::provenance::check::check;
use crate::ops::provenance::claim::{Claim, Pins};
use crate::project::Project;
use crate::scan::{Finding, Severity};
use crate::store::signing::SigningKey;

/// What `mirror` was asked to do.
pub struct MirrorRequest<'a> {
    /// Upstream sources, as the user gave them: git repositories in any
    /// form `add` takes, OCI artifacts (`oci://HOST/REPO:TAG`), or a
    /// package of another index (`INDEX#org/name[@req]`).
    pub sources: &'a [String],
    /// Also every source already mirrored into the index for `org`.
    pub update: bool,
    /// The org's index: a folder, a git repository or URL, an OCI
    /// namespace.
    pub index: &'a str,
    /// The org to publish under.
    pub org: &'a str,
    /// The org's minisign secret key file.
    pub key: &'a Path,
    /// The version to mirror skills without `metadata.version` at (a
    /// curator's date, say `2026.11.26`); `None` refuses them.
    pub version: Option<&'a str>,
}

/// What became of one upstream skill.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Outcome {
    /// Published to the index as a draft.
    Mirrored {
        /// `org/name@version`.
        package: String,
        /// The scanner's `warn` findings, for whoever promotes it to
        /// review first.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        review: Vec<String>,
    },
    /// The index has it from this commit or digest, or the same archive.
    Unchanged {
        /// `org/name@version`.
        package: String,
    },
    /// Not mirrored: why, and the scanner's findings when it blocked it.
    Refused {
        /// The skill's name upstream.
        skill: String,
        /// Why.
        reason: String,
        /// What to do about it.
        hint: String,
        /// The `block` findings, when the scanner refused it.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        findings: Vec<String>,
    },
}

/// What `mirror` did for one source.
#[derive(Debug, Clone, serde::Serialize)]
pub struct MirroredSource {
    /// The source as given.
    pub source: String,
    /// The commit or digest it was read at.
    pub revision: String,
    /// Each skill's outcome.
    pub skills: Vec<Outcome>,
}

/// One upstream skill, fetched and verified.
struct Fetched {
    name: String,
    dir: PathBuf,
    upstream: Upstream,
}

/// Mirrors every source of `request` into its index.
pub fn mirror(request: &MirrorRequest<'_>, dirs: &Dirs) -> anyhow::Result<Vec<MirroredSource>> {
    let key = SigningKey::load(request.key)?;
    if let Some(version) = request.version {
        semver::Version::parse(version).map_err(|e| {
            anyhow::anyhow!(
                "invalid --version '{version}': {e} (versions are semver, like 2026.11.26)"
            )
        })?;
    }
    if !crate::skill::name::is_valid_name(request.org) {
        bail!(
            "invalid org name '{}': orgs follow the skill name rules (lowercase letters, digits, hyphens)",
            request.org
        );
    }
    let mut sources: Vec<String> = request.sources.to_vec();
    if request.update {
        for source in mirrored_sources(request, &key, dirs)? {
            if !sources.contains(&source) {
                sources.push(source);
            }
        }
        if sources.is_empty() {
            bail!(
                Hinted::new(format!(
                    "nothing of org '{}' in {} was mirrored from upstream",
                    request.org, request.index
                ))
                .hint("mirror a source first: `skillpkg mirror SOURCE --index INDEX --org ORG`")
            );
        }
    }
    let mut done = Vec::new();
    for source in &sources {
        done.push(mirror_source(source, request, &key, dirs)?);
    }
    Ok(done)
}

/// Mirrors the skills of one upstream `source`.
fn mirror_source(
    source: &str,
    request: &MirrorRequest<'_>,
    key: &SigningKey,
    dirs: &Dirs,
) -> anyhow::Result<MirroredSource> {
    let source = recorded_source(source)?;
    let scratch = crate::fsutil::private_tempdir("skillpkg-mirror-", None)?;
    // A source that cannot be read, or one skill that cannot be published,
    // is said; the other sources and skills are mirrored all the same.
    let fetched = match fetch_upstream(&source, scratch.path(), dirs) {
        Ok(fetched) => fetched,
        Err(e) => {
            return Ok(MirroredSource {
                source: source.clone(),
                revision: String::new(),
                skills: vec![Outcome::Refused {
                    skill: "every skill".to_string(),
                    reason: format!("{e:#}"),
                    hint: "check the source; the other sources were mirrored".to_string(),
                    findings: Vec::new(),
                }],
            });
        }
    };
    let revision = fetched
        .first()
        .and_then(|f| f.upstream.at_revision())
        .unwrap_or_default()
        .to_string();
    // Each skill's SKILL.md, and what the org's index has of each package,
    // read once for the whole source (one open of the index, not one per
    // skill: a git index is fetched on every open).
    let loaded: Vec<anyhow::Result<crate::skill::Skill>> = fetched
        .iter()
        .map(|skill| Ok(crate::skill::load_skill(&skill.dir)?))
        .collect();
    let packages: Vec<PackageName> = loaded
        .iter()
        .filter_map(|skill| skill.as_ref().ok())
        .filter_map(|skill| package_of(request.org, skill).ok())
        .collect();
    let existing = entries_of(request.index, &packages, dirs)?;
    let skills = fetched
        .iter()
        .zip(loaded)
        .map(|(skill, loaded)| {
            let mirrored = loaded.and_then(|loaded| {
                let here = Here {
                    request,
                    key,
                    dirs,
                    existing: &existing,
                };
                mirror_skill(skill, &loaded, &here)
            });
            mirrored.unwrap_or_else(|e| Outcome::Refused {
                skill: skill.name.clone(),
                reason: format!("{e:#}"),
                hint: "the other skills of the source were mirrored".to_string(),
                findings: Vec::new(),
            })
        })
        .collect();
    Ok(MirroredSource {
        source,
        revision,
        skills,
    })
}

/// Fetches and verifies every skill `source` holds into a scratch project
/// in `scratch`, as `add` would (without its scanner gate: each skill is
/// scanned on its own below, so that one blocked skill does not hold the
/// others back).
fn fetch_upstream(source: &str, scratch: &Path, dirs: &Dirs) -> anyhow::Result<Vec<Fetched>> {
    let project_dir = scratch.join("project");
    crate::ops::init::init_project(&project_dir)?;
    let project = Project::at(&project_dir);
    let options = InstallOptions {
        scan: false,
        ..InstallOptions::default()
    };
    if let Some((index, package)) = index_source(source)? {
        crate::ops::registry::add_registry(&project, dirs, UPSTREAM_REGISTRY, &index, false)?;
        crate::ops::install::add_packages(
            &project,
            dirs,
            &[package],
            Some(UPSTREAM_REGISTRY),
            &[],
            options,
        )?;
        return fetched_skills(source, &project);
    }
    match classify(source) {
        SourceArg::Git(git) => {
            let request = crate::ops::install::repo::RepoRequest {
                url: &git.url,
                rev: git.rev.as_deref(),
                subdir: git.subdir.as_deref(),
                signed_by: &[],
                trusted_root: None,
            };
            crate::ops::install::add_repo(&project, dirs, request, &[], None, &[], options)?;
        }
        SourceArg::Probe(url) => {
            let request = crate::ops::install::repo::RepoRequest {
                url: &url,
                rev: None,
                subdir: None,
                signed_by: &[],
                trusted_root: None,
            };
            crate::ops::install::add_repo(&project, dirs, request, &[], None, &[], options)?;
        }
        SourceArg::Oci(reference) => {
            crate::ops::install::oci_source::add_oci(&project, dirs, &reference, &[], &[], options)?;
        }
        SourceArg::Package => bail!(
            Hinted::new(format!("{source} is a package name, not an upstream source"))
                .hint("mirror a git repository (github:owner/repo, https://….git, file://…) or an OCI artifact (oci://HOST/REPO:TAG)")
        ),
        SourceArg::Invalid(message) => bail!(message),
    }
    fetched_skills(source, &project)
}

/// The name the scratch project gives an upstream index.
const UPSTREAM_REGISTRY: &str = "upstream";

/// For `INDEX#org/name[@req]` (`INDEX` an index as `registry add` takes
/// it, `registry+` in front allowed), the index (a relative path made
/// absolute) and the package.
fn index_source(source: &str) -> anyhow::Result<Option<(String, String)>> {
    let Some((index, package)) = source.rsplit_once('#') else {
        return Ok(None);
    };
    if index.is_empty() || !crate::manifest::source_arg::is_index_request(package) {
        return Ok(None);
    }
    let index = index.strip_prefix("registry+").unwrap_or(index);
    let index = match index.contains("://") || index.starts_with("git+") {
        true => index.to_string(),
        false => crate::fsutil::slashed(&std::env::current_dir()?.join(index)),
    };
    Ok(Some((index, package.to_string())))
}

/// Every skill the scratch `project` installed from `source`, with what
/// its lock says of where it came from.
fn fetched_skills(source: &str, project: &Project) -> anyhow::Result<Vec<Fetched>> {
    let lock = Lockfile::load(&project.lock_path)?;
    let root = project.skill_root(None)?;
    let at = crate::time::utc_rfc3339(crate::time::now_or_source_date());
    Ok(lock
        .skills()
        .iter()
        .map(|locked| Fetched {
            name: locked.name.clone(),
            dir: root.join(locked.folder()),
            upstream: Upstream {
                source: source.to_string(),
                commit: locked.source.git_commit().map(str::to_string),
                // An OCI artifact's manifest, or an index's archive.
                digest: locked
                    .source
                    .oci_digest()
                    .map(str::to_string)
                    .or_else(|| locked.checksum.clone()),
                signer: locked.signer.clone(),
                by: String::new(),
                at: at.clone(),
                sig: String::new(),
            },
        })
        .collect())
}

/// Scans one fetched skill and, unless something refuses it, publishes
/// it to the org's index as a draft.
/// What mirroring one skill works with.
struct Here<'a> {
    request: &'a MirrorRequest<'a>,
    key: &'a SigningKey,
    dirs: &'a Dirs,
    /// What the org's index has of the source's packages.
    existing: &'a HashMap<PackageName, Vec<IndexEntry>>,
}

/// `org/<the skill's name>`.
fn package_of(org: &str, skill: &crate::skill::Skill) -> anyhow::Result<PackageName> {
    Ok(format!("{org}/{}", skill.meta.name).parse()?)
}

fn mirror_skill(
    skill: &Fetched,
    loaded: &crate::skill::Skill,
    here: &Here<'_>,
) -> anyhow::Result<Outcome> {
    let Here {
        request,
        key,
        dirs,
        existing,
    } = *here;
    let refused = |reason: String, hint: &str, findings: Vec<String>| Outcome::Refused {
        skill: skill.name.clone(),
        reason,
        hint: hint.to_string(),
        findings,
    };
    let (blocks, review) = findings(&skill.dir)?;
    if !blocks.is_empty() {
        return Ok(refused(
            format!(
                "the scanner blocks it ({} finding{})",
                blocks.len(),
                if blocks.len() == 1 { "" } else { "s" }
            ),
            "read what it found upstream; `skillpkg scan DIR` shows every finding",
            blocks,
        ));
    }
    let own = loaded
        .meta
        .metadata
        .get("version")
        .map(|v| v.trim().to_string());
    let Some(version) = own.or(request.version.map(str::to_string)) else {
        return Ok(refused(
            "it has no metadata.version, which the mirrored version is named by".into(),
            "ask upstream to set metadata.version in its SKILL.md (semver, like 1.0.0), or give the version to mirror skills without one at: --version 2026.11.26",
            Vec::new(),
        ));
    };
    let package = package_of(request.org, loaded)?;
    let existing = existing
        .get(&package)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let keys = [key.public_key()];
    let from_this_source = |e: &IndexEntry| {
        e.upstream
            .as_ref()
            .is_some_and(|u| u.source == skill.upstream.source && upstream_signed(u, &keys, e))
    };
    // Upstream chooses its skills' names: one must not slip a version
    // into a package of the org's own, or one mirrored from elsewhere.
    if !existing.is_empty() && !existing.iter().any(from_this_source) {
        return Ok(refused(
            format!(
                "{package} in {} was not mirrored from {} with this key",
                request.index, skill.upstream.source
            ),
            "upstream names its skills: mirror it under another org (--org), or rename the org's own package",
            Vec::new(),
        ));
    }
    if let Some(outcome) = already_there(skill, &package, &version, existing, request, key)? {
        return Ok(outcome);
    }
    let published = crate::ops::publish::publish(
        &crate::ops::publish::PublishRequest {
            skill_dir: &skill.dir,
            index: request.index,
            org: request.org,
            key: Some(request.key),
            sigstore_bundle: None,
            version: Some(&version),
            dependencies: None,
            allow_invalid: true,
            limits: crate::store::limits::Limits::default(),
            channel: Some(Channel::Draft),
            upstream: Some(&skill.upstream),
        },
        dirs,
    )?;
    Ok(Outcome::Mirrored {
        package: format!("{}@{}", published.package, published.version),
        review,
    })
}

/// The `block` and the `warn` findings of the tree at `dir`, each as
/// `file:line: message [rule]` and its excerpt.
fn findings(dir: &Path) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let report =
        crate::scan::scan_dir(dir).with_context(|| format!("could not scan {}", dir.display()))?;
    let of = |severity: Severity| {
        report
            .findings
            .iter()
            .filter(|f| f.severity == severity)
            .map(describe)
            .collect()
    };
    Ok((of(Severity::Block), of(Severity::Warn)))
}

fn describe(finding: &Finding) -> String {
    let place = match finding.line {
        Some(line) => format!("{}:{line}", finding.file),
        None => finding.file.clone(),
    };
    match finding.excerpt.is_empty() {
        true => format!("{place}: {} [{}]", finding.message, finding.rule),
        false => format!(
            "{place}: {} [{}]\n    {}",
            finding.message, finding.rule, finding.excerpt
        ),
    }
}

/// Every version of each of `packages` the index lists (none for a
/// package it does not have yet), read with one open of the index, which
/// is closed again before anything is published to it.
fn entries_of(
    index: &str,
    packages: &[PackageName],
    dirs: &Dirs,
) -> anyhow::Result<HashMap<PackageName, Vec<IndexEntry>>> {
    let cwd = std::env::current_dir()?;
    let registry = open_registry(Some(index), &cwd, dirs, false, &[])?;
    registry.prefetch(packages, &|_, _| false, &crate::progress::SILENT)?;
    // Any failure to read them is an error, not an empty package.
    packages
        .iter()
        .map(|package| Ok((package.clone(), registry.entries(package)?)))
        .collect()
}

/// `source` as it is recorded and read again by `--update`: a relative
/// path (of a repository, or of an index before `#`) made absolute.
fn recorded_source(source: &str) -> anyhow::Result<String> {
    if let Some((index, package)) = index_source(source)? {
        return Ok(format!("{index}#{package}"));
    }
    let is_path = !source.contains("://")
        && !source.contains(':')
        && (source.starts_with('.') || source.starts_with('/') || Path::new(source).exists());
    Ok(match is_path {
        true => crate::fsutil::slashed(&std::env::current_dir()?.join(source)),
        false => source.to_string(),
    })
}

/// `Unchanged` when the index has `package` from this very upstream
/// revision (by a record the org signed), or at `version` with the same
/// content; a refusal when it has `version` with other content (upstream
/// changed the skill without a new version); `None` to publish.
fn already_there(
    skill: &Fetched,
    package: &PackageName,
    version: &str,
    existing: &[IndexEntry],
    request: &MirrorRequest<'_>,
    key: &SigningKey,
) -> anyhow::Result<Option<Outcome>> {
    let keys = vec![key.public_key()];
    let revision = skill.upstream.at_revision();
    let from_here = existing.iter().find(|e| {
        e.upstream.as_ref().is_some_and(|u| {
            u.source == skill.upstream.source
                && revision.is_some()
                && u.at_revision() == revision
                && upstream_signed(u, &keys, e)
        })
    });
    let unchanged = |entry: &IndexEntry| Outcome::Unchanged {
        package: format!("{package}@{}", entry.vers),
    };
    if let Some(entry) = from_here {
        return Ok(Some(unchanged(entry)));
    }
    let Some(same_version) = existing.iter().find(|e| e.vers == version) else {
        return Ok(None);
    };
    if archive_sha256(&skill.dir, request.index)? == same_version.cksum {
        return Ok(Some(unchanged(same_version)));
    }
    Ok(Some(Outcome::Refused {
        skill: skill.name.clone(),
        reason: format!(
            "upstream changed it at {} but kept version {version}, which {} already has with other content",
            revision.unwrap_or("its newest revision"),
            request.index
        ),
        hint: "versions are immutable: ask upstream to bump metadata.version".to_string(),
        findings: Vec::new(),
    }))
}

/// The sha256 of the archive `publish` would make of the skill at `dir`
/// for the index `index` (a `.skill`, or an OCI layer).
fn archive_sha256(dir: &Path, index: &str) -> anyhow::Result<String> {
    let scratch = std::env::temp_dir();
    let packed = crate::ops::pack::pack_skill(
        dir,
        crate::ops::pack::Validity::Lenient,
        &crate::store::limits::Limits::default(),
        &scratch,
    )?
    .archive;
    Ok(match crate::index::oci::is_oci_index(index) {
        true => crate::store::layer::layer_beside(&packed)?.sha256,
        false => packed.sha256,
    })
}

/// Every upstream source the index's packages of `request.org` were
/// mirrored from, by records signed with `key` (the mirroring key: a
/// record the index's host wrote, or signed with a key it added to the
/// index's config, is not followed), in the order first seen.
fn mirrored_sources(
    request: &MirrorRequest<'_>,
    key: &SigningKey,
    dirs: &Dirs,
) -> anyhow::Result<Vec<String>> {
    let cwd = std::env::current_dir()?;
    let registry = open_registry(Some(request.index), &cwd, dirs, false, &[])?;
    let keys = [key.public_key()];
    let packages: Vec<PackageName> = registry
        .packages()?
        .into_iter()
        .filter(|p| p.org == request.org)
        .collect();
    registry.prefetch(&packages, &|_, _| false, &crate::progress::SILENT)?;
    let mut sources = Vec::new();
    for package in &packages {
        for entry in registry.entries(package)? {
            let Some(upstream) = &entry.upstream else {
                continue;
            };
            if upstream_signed(upstream, &keys, &entry) && !sources.contains(&upstream.source) {
                sources.push(upstream.source.clone());
            }
        }
    }
    Ok(sources)
}

/// Whether `upstream`, the upstream record of `entry`, is signed by one of
/// `keys` (the org's).
fn upstream_signed(upstream: &Upstream, keys: &[String], entry: &IndexEntry) -> bool {
    let claim = Claim::Upstream {
        upstream,
        package: &entry.name,
        version: &entry.vers,
        cksum: &entry.cksum,
    };
    check(claim, &Pins::of_keys(keys)).is_signed()
}
