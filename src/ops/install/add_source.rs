//! `add`, whatever the source: one entry point ([`add`]) over the request
//! [`super::add_request`] read, which adds the source's skills to
//! `skills.toml` and installs them, and says what it found there for the
//! command to report.

use std::path::Path;

use super::add_request::AddSource;
use super::repo::{RepoListing, RepoRequest};
use super::{AddedPlugin, Change, InstallOptions};
use crate::dirs::Dirs;
use crate::project::Project;

/// How `add` adds, besides where from.
pub(crate) struct AddOptions<'a> {
    /// Where the command runs (a `--path` is relative to it).
    pub cwd: &'a Path,
    /// `--skill`: the skills of a repository, a site or a collection to add.
    pub picks: &'a [String],
    /// `--replace`: names another source may take over.
    pub replace: &'a [String],
    /// `--registry`, for packages.
    pub registry: Option<&'a str>,
    /// `--signed-by`, read, for a repository.
    pub signed_by: &'a [String],
    /// `--trusted-root`, relative to the project, for a repository.
    pub trusted_root: Option<&'a str>,
    /// How to install.
    pub install: InstallOptions<'a>,
}

/// What the source turned out to hold, besides the skills added.
pub(crate) enum Found {
    /// Packages of an index.
    Packages,
    /// A repository at one commit, and what it holds.
    Repository(RepoListing),
    /// A folder: one skill, or a plugin's skills.
    Folder(Option<AddedPlugin>),
    /// An OCI artifact: one skill, a collection, or a plugin.
    Artifact(Option<crate::ops::plugin::Plugin>),
    /// A site's agent-skills index.
    Site(crate::index::well_known::Index),
}

/// What one `add` did.
pub(crate) struct Added {
    /// What changed in the root and the lock.
    pub changes: Vec<Change>,
    /// What the source held.
    pub found: Found,
}

/// Adds what `source` names to the project's `skills.toml`, then installs.
pub(crate) fn add(
    project: &Project,
    dirs: &Dirs,
    source: &AddSource,
    options: &AddOptions,
) -> anyhow::Result<Added> {
    let install = options.install;
    let (changes, found) = match source {
        AddSource::Packages(packages) => {
            let changes = super::add_packages(
                project,
                dirs,
                packages,
                options.registry,
                options.replace,
                install,
            )?;
            (changes, Found::Packages)
        }
        AddSource::Git {
            url,
            rev,
            subdir,
            name,
        } => {
            let request = RepoRequest {
                url,
                rev: rev.as_deref(),
                subdir: subdir.as_deref(),
                signed_by: options.signed_by,
                trusted_root: options.trusted_root,
            };
            let (listing, changes) = super::add_repo(
                project,
                dirs,
                request,
                options.picks,
                name.as_deref(),
                options.replace,
                install,
            )?;
            (changes, Found::Repository(listing))
        }
        AddSource::Path { path, name } => {
            let spec = crate::manifest::DetailedSpec {
                path: Some(crate::fsutil::slashed(path)),
                ..Default::default()
            };
            let (plugin, changes) = super::add_direct(
                project,
                options.cwd,
                dirs,
                name.as_deref(),
                spec,
                options.replace,
                install,
            )?;
            (changes, Found::Folder(plugin))
        }
        AddSource::Oci(reference) => {
            let (plugin, changes) = super::oci_source::add_oci(
                project,
                dirs,
                reference,
                options.picks,
                options.replace,
                install,
            )?;
            (changes, Found::Artifact(plugin))
        }
        AddSource::WellKnown(site) => {
            let (index, changes) = super::add_site::add_well_known(
                project,
                dirs,
                site,
                options.picks,
                options.replace,
                install,
            )?;
            (changes, Found::Site(index))
        }
    };
    Ok(Added { changes, found })
}
