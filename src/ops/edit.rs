//! One transaction for every change to a project's `skills.toml` and
//! `skills.lock`: take the project's lock, read both, note whether the
//! project is trusted, let the caller change them, then write each that
//! changed atomically (temp file + rename) and re-record trust, so that a
//! project trusted before the change stays trusted with what the change
//! leaves (DESIGN §11: the user's own commands never make a project ask
//! for trust again).
//!
//! It lives in `ops`, beside consent, because keeping trust is consent's
//! to do; `project` (layer 2) only finds and locks the project.

use anyhow::Context as _;

use crate::dirs::Dirs;
use crate::fsutil::FileLock;
use crate::manifest::Manifest;
use crate::manifest::edit::ManifestDocument;
use crate::manifest::lock::Lockfile;
use crate::ops::consent::project::KeptTrust;
use crate::project::Project;

/// A project's manifest and lock opened for a change, the project locked
/// against other runs until the edit is committed or dropped (dropped,
/// nothing is written).
pub(crate) struct Edit<'a> {
    /// The project.
    pub project: &'a Project,
    /// Where the user's config (trust records) lives.
    dirs: &'a Dirs,
    _lock: FileLock,
    /// The manifest's text as read, to write it only when it changed.
    read: String,
    /// The manifest as data.
    pub manifest: Manifest,
    /// The manifest as a document, for edits that keep its comments.
    pub doc: ManifestDocument,
    /// The lock, to change in place.
    pub lock: Lockfile,
    /// Whether the project was trusted before the change.
    trust: KeptTrust,
    /// What this run has read of the sources: one view of each.
    pub views: Views,
}

/// What one run has read of the world, so that it sees one state of
/// each source however often it asks: the commits its git repositories'
/// revisions resolved to, and the agent-skills indexes of sites.
#[derive(Debug, Default)]
pub(crate) struct Views {
    /// The git commits resolved.
    pub git: crate::git::Resolver,
    /// The sites' indexes read.
    pub sites: crate::index::well_known::Sites,
}

impl<'a> Edit<'a> {
    /// Locks `project` and reads its manifest and lock.
    pub(crate) fn open(project: &'a Project, dirs: &'a Dirs) -> anyhow::Result<Edit<'a>> {
        let lock = project.lock()?;
        let read = fs_err::read_to_string(&project.manifest_path)?;
        let manifest = Manifest::parse(&read, &project.manifest_path)?;
        Ok(Edit {
            trust: KeptTrust::before(dirs, project, &manifest)?,
            doc: ManifestDocument::parse(&read, &project.manifest_path)?,
            lock: Lockfile::load(&project.lock_path)?,
            manifest,
            read,
            project,
            dirs,
            _lock: lock,
            views: Views::default(),
        })
    }

    /// Whether the project's files, as they were before the change, are
    /// the user's consent: it was trusted, or it is the user's own.
    pub(crate) fn consented(&self) -> bool {
        self.trust.consented()
    }

    /// Refuses to install from the manifest (as the change leaves it)
    /// while it names sources outside the project the user has not
    /// consented to: by trusting the project before the change, or by
    /// naming them (their keys in `named`) on this command line.
    pub(crate) fn check_outside(&self, named: &[String]) -> anyhow::Result<()> {
        self.trust
            .check_outside(self.project, &self.manifest, named)
    }

    /// Writes the lock, then the manifest if its document changed, each
    /// atomically; a project trusted before stays trusted, with the
    /// settings as written.
    pub(crate) fn commit(self) -> anyhow::Result<()> {
        let project = self.project;
        self.lock.write(&project.lock_path)?;
        let text = self.doc.to_text();
        let manifest = match text == self.read {
            true => self.manifest,
            false => {
                crate::fsutil::write_atomically(&project.manifest_path, text.as_bytes())
                    .with_context(|| {
                        format!("could not write {}", project.manifest_path.display())
                    })?;
                Manifest::parse(&text, &project.manifest_path)?
            }
        };
        self.trust.after(self.dirs, project, &manifest, &self.lock)
    }
}
