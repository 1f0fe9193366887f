//! The traits every kind of source implements, and what they are handed
//! and give back.

use std::path::{Path, PathBuf};

use crate::manifest::DirectSource;
use crate::manifest::lock::{CommitSigner, LockedSkill};
use crate::manifest::source_id::SourceId;
use crate::ops::pack::Validity;
use crate::store::limits::Limits;

/// A kind of source, as the lock records its pins.
pub(crate) trait SourceKind: Sync {
    /// Its name: `outdated`'s kind column, messages.
    fn name(&self) -> &'static str;

    /// Whether the lock's `source` is a pin of this kind.
    fn pins(&self, source: &SourceId) -> bool;

    /// Where `source` is, as policies name sources: the index, the
    /// repository, `oci://REPO`, the site; `None` for a folder.
    fn place(&self, source: &SourceId) -> Option<String>;

    /// Who `source` belongs to: a repository's host and owner, an OCI
    /// repository's namespace, an index, a site; `None` for a folder.
    fn owner(&self, source: &SourceId) -> Option<String>;

    /// A URL naming the pin `source` itself, with the CycloneDX type of
    /// that reference (`vcs`, `distribution`), for an SBOM.
    fn reference(&self, source: &SourceId) -> Option<(String, &'static str)>;

    /// What a skill at `version` from `source` is at, for messages: the
    /// version, and where from when that is not the version alone.
    fn at(&self, version: &str, source: &SourceId) -> String {
        format!("{version} ({source})")
    }

    /// SPDX's download location of `source`, when SPDX can name it (its
    /// VCS form for a repository on a server).
    fn spdx_location(&self, source: &SourceId) -> Option<String> {
        let _ = source;
        None
    }
}

/// A kind whose dependency names its pin itself, without an index.
pub(crate) trait DirectKind: SourceKind {
    /// The `skills.toml` key that points a dependency of this kind at
    /// the skill's own folder, for the error about a tree without a
    /// `SKILL.md`.
    fn folder_key(&self) -> &'static str;

    /// Whether `request` is a dependency of this kind.
    fn asks(&self, request: &DirectSource) -> bool;

    /// Whether `locked` still pins what `request` asks for: then the skill
    /// is kept as it is in the root, without fetching, when its files
    /// there hash to the lock's tree.
    fn keeps(
        &self,
        name: &str,
        request: &DirectSource,
        locked: &LockedSkill,
    ) -> anyhow::Result<bool>;

    /// Resolves the job's request to a pin (the one its lock entry has,
    /// while that still answers it) and fetches the pin's tree into
    /// `scratch` (a path skill is read where it is).
    fn fetch(&self, job: &Job, scratch: &Path) -> anyhow::Result<Fetched>;

    /// Where the tree fetched into `dir` is, for the error saying it holds
    /// no `SKILL.md` (`shown`: how messages name the pin): by default, the
    /// pin as messages name it.
    fn place_of_tree(
        &self,
        request: &DirectSource,
        dir: &Path,
        shown: Option<&str>,
    ) -> anyhow::Result<String> {
        let _ = (request, dir);
        Ok(shown.unwrap_or_default().to_string())
    }

    /// Whether `a` and `b`, both of this kind, name the same place (the
    /// same repository whatever the revision, the same folder…), relative
    /// to the project `project_dir`.
    fn same_place(&self, a: &DirectSource, b: &DirectSource, project_dir: &Path) -> bool;

    /// Refuses a tree staged now (`tree`) for the skill `name` from
    /// `source` that the lock entry `locked` pins otherwise, for a kind
    /// whose pin is its tree. Most kinds' pins name their tree already.
    fn check_tree(
        &self,
        name: &str,
        source: &SourceId,
        locked: Option<&LockedSkill>,
        tree: &str,
    ) -> anyhow::Result<()> {
        let _ = (name, source, locked, tree);
        Ok(())
    }

    /// Which of `skills` (locked skills of this kind) their sources now
    /// name another pin for, each source asked once.
    fn moved(&self, skills: &[&LockedSkill], asking: &Asking) -> anyhow::Result<Vec<Moved>>;
}

/// Where and how direct skills are fetched: what one run holds.
pub(crate) struct Fetching<'a> {
    /// The project, which path skills are relative to.
    pub project_dir: &'a Path,
    /// The cache, for git repositories and OCI layers.
    pub cache: &'a Path,
    /// Fetch nothing over the network.
    pub offline: bool,
    /// Where checkouts and archives are made.
    pub staging: &'a Path,
    /// How strictly skills are checked.
    pub validity: Validity,
    /// The root skills are installed into.
    pub root: &'a Path,
    /// The commits this run resolved.
    pub git: &'a crate::git::Resolver,
    /// The sites' indexes this run read.
    pub sites: &'a crate::index::well_known::Sites,
    /// How OCI registries are read.
    pub registries: crate::oci::Settings<'a>,
    /// What a skill may hold.
    pub limits: Limits,
    /// A git skill's commit may be signed by another of its `signed-by`
    /// signers than the locked one (`--allow-signer-change`).
    pub allow_signer_change: bool,
}

/// One dependency to fetch.
pub(crate) struct Job<'a> {
    /// Its key in `skills.toml`.
    pub name: &'a str,
    /// What `skills.toml` asks for.
    pub request: &'a DirectSource,
    /// Its lock entry, when resolution may keep it.
    pub locked: Option<&'a LockedSkill>,
    /// Its lock entry whatever may move (for a signer change).
    pub before: Option<&'a LockedSkill>,
    /// What the run holds.
    pub fetching: &'a Fetching<'a>,
}

/// A pin, resolved and its tree fetched.
pub(crate) struct Fetched {
    /// Where the skill's files are: in the scratch folder, or (a path
    /// skill) where they are.
    pub dir: PathBuf,
    /// The lock's source: the kind, where, and the pin.
    pub source: SourceId,
    /// How messages name the pin (`None`: by its folder).
    pub shown: Option<String>,
    /// The version the source gives, when the skill's metadata gives none.
    pub version: Option<String>,
    /// Who signed its commit, for a git skill whose entry says `signed-by`.
    pub commit_signer: Option<CommitSigner>,
}

/// What `outdated` asks sources with.
pub(crate) struct Asking<'a> {
    /// The cache, config and home.
    pub dirs: &'a crate::dirs::Dirs,
}

/// A locked skill whose source names another pin now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Moved {
    /// Its key in `skills.lock`.
    pub name: String,
    /// The pin locked, shortened.
    pub from: String,
    /// The pin the source names now, shortened.
    pub to: String,
    /// Where, as `outdated` names it.
    pub place: String,
}
