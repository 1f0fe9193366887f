//! What [`super::check::check`] is asked: a [`Claim`] made at one
//! moment, the [`Pins`] it is held to, and the [`Verdict`] it gets.

use std::collections::HashMap;
use std::path::Path;

use crate::dirs::Dirs;
use crate::index::IndexEntry;
use crate::index::channel::ChannelRecord;
use crate::index::policy_file::IndexPolicy;
use crate::index::source::{Registry, open_registry};
use crate::index::upstream::Upstream;
use crate::manifest::lock::{LockedSkill, Lockfile};
use crate::manifest::source_id::SourceId;
use crate::ops::provenance::Proof;
use crate::ops::provenance::given::Given;
use crate::ops::provenance::keys::{Release, SignatureClaim};
use crate::ops::provenance::signer_policy::Policy;

/// What is claimed signed, at the moment it is checked.
pub(crate) enum Claim<'a> {
    /// A registry release's minisign signature over its cached archive,
    /// by one of the keys its index lists for the org. Whether the lock
    /// lets that key sign is the lock's `[keys]`' to say
    /// (`keys::settle_signer`).
    Package {
        /// The release.
        release: &'a Release<'a>,
        /// What its entry claims of its signature.
        claim: &'a SignatureClaim,
        /// Its archive, read in pieces.
        archive: &'a Path,
    },
    /// A registry release's Sigstore bundle over its archive's digest,
    /// against the policies covering it and the signer the lock pins.
    Archive {
        /// The package's name.
        name: &'a str,
        /// Its version, as messages give it (`v1.2.0`).
        version: &'a str,
        /// Where it comes from.
        source: &'a SourceId,
        /// The archive's sha256, in hex.
        checksum: &'a str,
        /// The entry's Sigstore bundle.
        bundle: Option<&'a str>,
    },
    /// A path, git or site skill, before its tree is read.
    Direct {
        /// Its key in `skills.toml`.
        name: &'a str,
        /// Where it comes from.
        source: &'a SourceId,
    },
    /// The tree about to be put in place: its `skill.oms.sig`, against
    /// what the archive's (or direct skill's) check left pending.
    Tree {
        /// The skill's name.
        name: &'a str,
        /// Its version, as messages give it.
        version: &'a str,
        /// The tree.
        tree: &'a Path,
        /// What its earlier check found.
        stage: &'a ArchiveStage,
    },
    /// An installed skill, re-checked offline against the signer its lock
    /// entry pins.
    Installed {
        /// Its lock entry.
        skill: &'a LockedSkill,
        /// Where it is installed.
        dir: &'a Path,
        /// The cache, which holds its archive and index entry.
        dirs: &'a Dirs,
        /// The indexes read so far.
        indexes: &'a mut OfflineIndexes,
    },
    /// A channel move of `entry`, by one of the pins' keys.
    ChannelRecord {
        /// The version's entry.
        entry: &'a IndexEntry,
        /// The record.
        record: &'a ChannelRecord,
    },
    /// An org's policy, signed over its exact bytes by one of the pins'
    /// keys.
    Policy {
        /// The policy, read.
        policy: &'a IndexPolicy,
        /// Its bytes.
        text: &'a [u8],
        /// Its signature, if the index serves one.
        signature: Option<&'a str>,
    },
    /// The upstream record beside a re-signed version, by one of the
    /// pins' keys.
    Upstream {
        /// The record.
        upstream: &'a Upstream,
        /// The package, `org/name`.
        package: &'a str,
        /// The version.
        version: &'a str,
        /// The archive's sha256, in hex.
        cksum: &'a str,
    },
    /// A signature `signature verify` was given, with what to check it
    /// against.
    Given(&'a Given),
}

/// Who may sign: what a claim is held to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pins<'a> {
    /// The signer policies in force: the user's and those a trusted
    /// project adds.
    pub policies: &'a [Policy],
    /// The lock: the signers it pins and its `[roots]` (for `install`,
    /// the lock before it).
    pub lock: &'a Lockfile,
    /// The project, which path sources are relative to.
    pub project_dir: &'a Path,
    /// The minisign keys that may sign a record: its org's.
    pub keys: &'a [String],
}

impl<'a> Pins<'a> {
    /// A project's pins: its lock and the signer policies in force.
    pub(crate) fn of_project(
        lock: &'a Lockfile,
        project_dir: &'a Path,
        policies: &'a [Policy],
    ) -> Pins<'a> {
        Pins {
            policies,
            lock,
            project_dir,
            keys: &[],
        }
    }

    /// An org's keys, for the records it signs.
    pub(crate) fn of_keys(keys: &'a [String]) -> Pins<'a> {
        Pins {
            keys,
            ..Pins::none()
        }
    }

    /// No pins: a claim that carries what it is checked against (a
    /// signature given by hand).
    pub(crate) fn none() -> Pins<'static> {
        static EMPTY: std::sync::LazyLock<Lockfile> = std::sync::LazyLock::new(Lockfile::default);
        Pins {
            policies: &[],
            lock: &EMPTY,
            project_dir: Path::new(""),
            keys: &[],
        }
    }
}

/// What checking a claim found.
#[derive(Debug)]
pub(crate) enum Verdict {
    /// Signed as the pins require: what proves it.
    Signed(Proof),
    /// What holds so far, with the tree's `skill.oms.sig` still to check
    /// ([`Claim::Tree`]).
    Pending(ArchiveStage),
    /// Nothing asks for a signature here, and none was checked.
    Unasked,
    /// It could not be checked with what is at hand (offline): why.
    Unavailable(String),
    /// It is not signed as the pins require: why, with what to do.
    Refused(anyhow::Error),
}

impl Verdict {
    /// The verdict on an archive or direct skill whose earlier checks
    /// left `stage`.
    pub(super) fn staged(stage: ArchiveStage) -> Verdict {
        match (stage.needs_tree, stage.proven) {
            (true, proven) => Verdict::Pending(ArchiveStage { proven, ..stage }),
            (false, Some(proof)) => Verdict::Signed(proof),
            (false, None) => Verdict::Unasked,
        }
    }

    /// Whether it is signed as the pins require.
    pub(crate) fn is_signed(&self) -> bool {
        matches!(self, Verdict::Signed(_))
    }

    /// What proved it (`None`: nothing asked), or the refusal. A verdict
    /// that waits for a tree, or could not be reached, is an error here:
    /// the moments that can give one read it whole.
    pub(crate) fn proof(self) -> anyhow::Result<Option<Proof>> {
        match self {
            Verdict::Signed(proof) => Ok(Some(proof)),
            Verdict::Unasked => Ok(None),
            Verdict::Refused(error) => Err(error),
            Verdict::Unavailable(why) => Err(anyhow::anyhow!(why)),
            Verdict::Pending(_) => Err(anyhow::anyhow!(
                "the signature of the tree is still to be checked"
            )),
        }
    }

    /// Where an archive or direct skill stands before its tree is
    /// checked, or the refusal.
    pub(crate) fn into_stage(self) -> anyhow::Result<ArchiveStage> {
        match self {
            Verdict::Pending(stage) => Ok(stage),
            verdict => Ok(ArchiveStage {
                proven: verdict.proof()?,
                ..ArchiveStage::default()
            }),
        }
    }
}

impl<T: Into<anyhow::Error>> From<Result<Option<Proof>, T>> for Verdict {
    fn from(result: Result<Option<Proof>, T>) -> Verdict {
        match result {
            Ok(Some(proof)) => Verdict::Signed(proof),
            Ok(None) => Verdict::Unasked,
            Err(error) => Verdict::Refused(error.into()),
        }
    }
}

/// Where a skill stands after its archive's signatures were checked.
#[derive(Debug, Clone, Default)]
pub(crate) struct ArchiveStage {
    /// What its Sigstore bundle proved.
    pub proven: Option<Proof>,
    /// Whether a policy or pin still needs its tree's `skill.oms.sig`.
    pub needs_tree: bool,
    /// The policies (by index) that its tree's `skill.oms.sig` must meet.
    pub pending: Vec<usize>,
}

/// The indexes opened so far, by label, read from the cache only: the
/// built-in one and those `skills.toml` names, never a place only the
/// lock names (a cloned lock may not make skillpkg read outside the
/// project, DESIGN §11).
pub(crate) struct OfflineIndexes {
    /// The labels of the indexes the manifest names.
    named: Vec<String>,
    opened: HashMap<String, Option<Registry>>,
}

impl OfflineIndexes {
    /// The indexes `manifest` names, none opened yet.
    pub(crate) fn of(manifest: &crate::manifest::Manifest) -> OfflineIndexes {
        let named = manifest
            .registries
            .values()
            .filter_map(|registry| crate::net::split_credentials(&registry.index).ok())
            .map(|(label, _)| label)
            .chain([crate::index::source::BUILTIN_REGISTRY.to_string()])
            .collect();
        OfflineIndexes {
            named,
            opened: HashMap::new(),
        }
    }

    pub(super) fn get(
        &mut self,
        label: &str,
        project_dir: &Path,
        dirs: &Dirs,
    ) -> Result<&Registry, &'static str> {
        if !self.named.iter().any(|named| named == label) {
            return Err("skills.toml names no index it came from");
        }
        self.opened
            .entry(label.to_string())
            .or_insert_with(|| {
                let spec = (label != crate::index::source::BUILTIN_REGISTRY).then_some(label);
                open_registry(spec, project_dir, dirs, true, &[]).ok()
            })
            .as_ref()
            .ok_or("its index is not in the cache")
    }
}
