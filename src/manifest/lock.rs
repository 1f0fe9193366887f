//! `skills.lock`: exactly what a project got, written deterministically
//! (sorted, stable) and atomically.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context as _, bail};
use serde::{Deserialize, Serialize};

use super::source_id::SourceId;
use crate::hint::Hinted;

/// The lockfile format version this skillpkg reads and writes.
pub(crate) const LOCK_VERSION: u32 = 1;

const HEADER: &str = "# This file is written by skillpkg: do not edit it by hand. Commit it.\n";

/// One installed skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockedSkill {
    /// `org/name` (or the plain name of a path skill).
    pub name: String,
    /// The exact version.
    pub version: String,
    /// Where it came from: `registry+<index>`, `path+<dir>`, `git+<url>#<commit>`.
    pub source: SourceId,
    /// `sha256:<hex>` of the archive (registry packages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checksum: Option<String>,
    /// `h1:<base64>` of the installed tree.
    pub tree: String,
    /// What verified it: a minisign public key, or a Sigstore or OMS
    /// signer (DESIGN §5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signer: Option<LockedSigner>,
    /// `sha256:<hex>` of the Sigstore bundle or OMS signature that
    /// verified it (not recorded for minisign).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Who signed the pinned commit of a git skill whose `skills.toml`
    /// entry says `signed-by` (checked again by every install of it).
    #[serde(
        default,
        rename = "commit-signer",
        skip_serializing_if = "Option::is_none"
    )]
    pub commit_signer: Option<CommitSigner>,
    /// `org/name` of each dependency.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<String>,
    /// The patterns of the skill's `allowed-tools` the user approved: they
    /// pre-approve tools once the project is trusted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grants: Vec<String>,
    /// Scanner findings the team accepted (DESIGN §12): each counts while
    /// the file it names holds the bytes it was waived for, and only once
    /// the project is trusted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waivers: Vec<Waiver>,
    /// `skipped` when the tree was put in place without the scanner
    /// (`--no-scan`), for reviewers to see.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scan: Option<ScanMark>,
}

/// What a lock entry says of the scan of its tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScanMark {
    /// Put in place with `--no-scan`.
    Skipped,
}

/// A scanner finding accepted for one file's bytes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Waiver {
    /// The rule's id.
    pub rule: String,
    /// The file, relative to the skill, `/`-separated.
    pub file: String,
    /// `sha256:<hex>` of the file's bytes when waived: an edit ends it.
    pub digest: String,
    /// Why the team accepts it.
    pub reason: String,
}

/// What verified a locked skill, as `skills.lock` spells it: a minisign
/// key as a string, any other family as a one-key table
/// (`{ sigstore = { identity = "…", issuer = "…" } }`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LockedSigner {
    /// A minisign public key (its base64 line).
    Minisign(String),
    /// A Sigstore or OMS signer.
    Other(SignerTable),
}

/// A signer of a family other than minisign.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum SignerTable {
    /// A keyless Sigstore signature.
    Sigstore {
        /// The certificate's identity (an email or a workflow URI).
        identity: String,
        /// The OIDC issuer that vouched for it.
        issuer: String,
        /// `sha256:<hex>` of the trusted root it was verified against,
        /// kept in the lock's `[roots]`; absent: Sigstore's public-good
        /// root.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        root: Option<String>,
    },
    /// A keyed Sigstore signature: `sha256:<hex>` of the key's DER.
    SigstoreKey {
        /// The key's fingerprint.
        key: String,
    },
    /// An OpenSSF Model Signing certificate.
    Oms {
        /// The signing certificate's subject.
        subject: String,
        /// `sha256:<hex>` of the root certificate it chains to, kept in
        /// the lock's `[roots]`.
        chain: String,
    },
    /// An OpenSSF Model Signing key: `sha256:<hex>` of the key's DER.
    OmsKey {
        /// The key's fingerprint.
        key: String,
    },
}

/// Who signed a git commit, as `skills.lock` records it:
/// `commit-signer = { ssh = "ssh-ed25519 AAAA…" }` (the OpenSSH public
/// key, without its comment), `{ gpg = "FINGERPRINT" }` (the primary
/// key's, upper-case hex) or `{ sigstore = { identity = "…", issuer =
/// "…" } }` (a gitsign certificate's).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum CommitSigner {
    /// An SSH key (`gpg.format = ssh`).
    Ssh(String),
    /// An OpenPGP key, by its primary key's fingerprint.
    Gpg(String),
    /// A Sigstore certificate (gitsign), by its identity and OIDC issuer.
    Sigstore {
        /// The certificate's email or URI.
        identity: String,
        /// The OIDC issuer that vouched for it.
        issuer: String,
    },
}

impl std::fmt::Display for CommitSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommitSigner::Ssh(key) => match ssh_key::PublicKey::from_openssh(key) {
                Ok(parsed) => write!(
                    f,
                    "SSH key {} ({})",
                    parsed.fingerprint(ssh_key::HashAlg::Sha256),
                    parsed.algorithm()
                ),
                Err(_) => write!(f, "SSH key {key}"),
            },
            CommitSigner::Gpg(fingerprint) => write!(f, "GPG key {fingerprint}"),
            CommitSigner::Sigstore { identity, issuer } => {
                write!(f, "{identity} (issuer {issuer}, gitsign)")
            }
        }
    }
}

impl LockedSigner {
    /// The minisign key, when a minisign signature verified it.
    pub(crate) fn minisign_key(&self) -> Option<&str> {
        match self {
            LockedSigner::Minisign(key) => Some(key),
            LockedSigner::Other(_) => None,
        }
    }

    /// The `[roots]` entry its re-verification needs, if any.
    pub fn root(&self) -> Option<&str> {
        match self {
            LockedSigner::Other(SignerTable::Oms { chain, .. }) => Some(chain),
            LockedSigner::Other(SignerTable::Sigstore { root, .. }) => root.as_deref(),
            _ => None,
        }
    }
}

impl std::fmt::Display for LockedSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LockedSigner::Minisign(key) => write!(f, "minisign key {key}"),
            LockedSigner::Other(SignerTable::Sigstore {
                identity, issuer, ..
            }) => write!(f, "{identity} (issuer {issuer})"),
            LockedSigner::Other(SignerTable::SigstoreKey { key }) => {
                write!(f, "Sigstore key {key}")
            }
            LockedSigner::Other(SignerTable::Oms { subject, chain }) => {
                write!(f, "{subject} (OMS root {chain})")
            }
            LockedSigner::Other(SignerTable::OmsKey { key }) => write!(f, "OMS key {key}"),
        }
    }
}

#[cfg(test)]
impl LockedSkill {
    /// An entry for tests: `name` at `version` from `source`, with tree
    /// `h1:x` and nothing else set.
    pub(crate) fn example(name: &str, version: &str, source: SourceId) -> LockedSkill {
        LockedSkill {
            name: name.into(),
            version: version.into(),
            source,
            checksum: None,
            tree: "h1:x".into(),
            signer: None,
            signature: None,
            commit_signer: None,
            dependencies: Vec::new(),
            grants: Vec::new(),
            waivers: Vec::new(),
            scan: None,
        }
    }
}

impl LockedSkill {
    /// Its folder in the root: the last part of its name.
    pub fn folder(&self) -> &str {
        super::skill_name(&self.name)
    }

    /// Its version as reports show it: see [`shown_version`].
    pub(crate) fn shown_version(&self) -> String {
        shown_version(&self.version, &self.source, Some(&self.tree))
    }
}

/// The version the lock records for a path or git skill whose SKILL.md
/// gives no `metadata.version`: a placeholder, never shown.
pub(crate) const UNVERSIONED: &str = "0.0.0";

/// How reports show a skill's version: `v1.2.0` for a package, and for a
/// path or git skill with a `metadata.version`; else, instead of the
/// [`UNVERSIONED`] placeholder, the git commit (short), the OCI manifest
/// digest (short `sha256:`) or the tree hash (short `h1:`) that pins it.
pub(crate) fn shown_version(version: &str, source: &SourceId, tree: Option<&str>) -> String {
    match (version == UNVERSIONED, source, tree) {
        (true, SourceId::Git { commit, .. }, _) => short_commit(commit),
        (true, SourceId::Oci { digest, .. }, _) => short_digest(digest),
        (
            true,
            SourceId::WellKnown {
                digest: Some(digest),
                ..
            },
            _,
        ) => short_digest(digest),
        (true, SourceId::WellKnown { digest: None, .. }, Some(tree)) => short_tree(tree),
        (true, SourceId::Path { .. }, Some(tree)) => short_tree(tree),
        _ => format!("v{version}"),
    }
}

/// The first 12 hex digits of a git commit, as reports show it.
pub(crate) fn short_commit(commit: &str) -> String {
    commit.chars().take(12).collect()
}

/// A `sha256:` digest cut to 12 hex digits, as reports show an OCI
/// skill's manifest digest.
pub(crate) fn short_digest(digest: &str) -> String {
    let hex = digest.strip_prefix("sha256:").unwrap_or(digest);
    format!("sha256:{}", short_commit(hex))
}

/// An `h1:` tree hash cut to 8 characters after `h1:`, as reports show it.
pub(crate) fn short_tree(tree: &str) -> String {
    let hash = tree.strip_prefix("h1:").unwrap_or(tree);
    format!("h1:{}", hash.chars().take(8).collect::<String>())
}

/// An org policy as `skills.lock` pins it: whose it is, which file, and
/// its serial (a later policy must have a higher one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinnedPolicy {
    /// The org that signs it.
    pub org: String,
    /// `sha256:<hex>` of the file.
    pub digest: String,
    /// Its `serial`.
    #[serde(default)]
    pub serial: u64,
    /// The index it names (its `index`), when it names one: a later
    /// policy must name it too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
}

/// The whole lockfile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lockfile {
    /// Format version.
    pub version: u32,
    /// Installed skills ([`Lockfile::skills`]).
    #[serde(default, rename = "skill")]
    entries: Vec<LockedSkill>,
    /// Each org's pinned signing keys (trust on first use).
    #[serde(default)]
    pub keys: BTreeMap<String, Vec<String>>,
    /// What re-verifying its signers needs, by `sha256:<hex>`: OMS root
    /// certificates (PEM) and Sigstore trusted roots other than the
    /// public-good one (JSON), so that a teammate re-verifies offline.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub roots: BTreeMap<String, String>,
    /// Waivers recorded for packages not installed yet, by package name:
    /// adopted into the entry when it installs.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pending_waivers: BTreeMap<String, Vec<Waiver>>,
    /// The org policy (`policy.toml`) of the project's default index,
    /// pinned on first use, by the index's label.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub policies: BTreeMap<String, PinnedPolicy>,
    /// `entries` by name and by folder, built on the first lookup (and
    /// dropped whenever they may change), so that looking up every skill
    /// of a large lock costs O(L), not O(L²).
    #[serde(skip)]
    index: NameIndex,
}

/// Where each skill of a lock is, by name and by folder: the lookups'
/// index.
#[derive(Debug, Clone, Default)]
struct NameIndex(std::sync::OnceLock<BuiltIndex>);

#[derive(Debug, Clone)]
struct BuiltIndex {
    by_name: std::collections::HashMap<String, usize>,
    by_folder: std::collections::HashMap<String, usize>,
}

// An index is derived data: two locks with the same entries are equal
// whether or not either has been looked up in.
impl PartialEq for NameIndex {
    fn eq(&self, _: &NameIndex) -> bool {
        true
    }
}

impl Eq for NameIndex {}

impl Default for Lockfile {
    fn default() -> Lockfile {
        Lockfile {
            version: LOCK_VERSION,
            entries: Vec::new(),
            keys: BTreeMap::new(),
            roots: BTreeMap::new(),
            pending_waivers: BTreeMap::new(),
            policies: BTreeMap::new(),
            index: NameIndex::default(),
        }
    }
}

impl Lockfile {
    /// A lock of these entries, keys and roots, in this format's version.
    pub fn new(
        skills: Vec<LockedSkill>,
        keys: BTreeMap<String, Vec<String>>,
        roots: BTreeMap<String, String>,
    ) -> Lockfile {
        Lockfile {
            entries: skills,
            keys,
            roots,
            ..Lockfile::default()
        }
    }

    /// Parses lockfile text; errors name `path`.
    pub fn parse(text: &str, path: &Path) -> anyhow::Result<Lockfile> {
        let lock: Lockfile = toml::from_str(text).map_err(|e| {
            anyhow::anyhow!(
                Hinted::new(format!(
                    "{}: invalid lockfile: {}",
                    path.display(),
                    e.to_string().trim()
                ))
                .hint("restore it from version control, or delete it and run `skillpkg install`")
            )
        })?;
        lock.check_names().map_err(|problem| {
            Hinted::new(format!("{}: {problem}", path.display()))
                .hint("restore it from version control, or delete it and run `skillpkg install`")
        })?;
        if lock.version != LOCK_VERSION {
            bail!(Hinted::new(format!("{}: lockfile version {} is not supported (this skillpkg writes version {LOCK_VERSION})", path.display(), lock.version)).hint("upgrade skillpkg"));
        }
        Ok(lock)
    }

    /// Every name is one safe path component (`org/name` for packages),
    /// and no two are equal after case folding: names become folders.
    fn check_names(&self) -> Result<(), String> {
        let mut folded = std::collections::BTreeMap::new();
        for skill in self.skills() {
            let name = &skill.name;
            let parts: Vec<&str> = name.split('/').collect();
            if parts.len() > 2
                || !parts
                    .iter()
                    .all(|part| crate::skill::name::is_safe_folder_name(part))
            {
                return Err(format!(
                    "{name:?} is not a skill name (one folder name, or org/name, with no leading '.', '\\' or control characters)"
                ));
            }
            if let Some(other) = folded.insert(name.to_lowercase(), name) {
                return Err(format!(
                    "{other:?} and {name:?} name the same folder on a case-insensitive file system"
                ));
            }
        }
        Ok(())
    }

    /// Reads `path`; a missing file is an empty lock.
    pub fn load(path: &Path) -> anyhow::Result<Lockfile> {
        match fs_err::read_to_string(path) {
            Ok(text) => Lockfile::parse(&text, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Lockfile::default()),
            Err(e) => Err(e.into()),
        }
    }

    /// The text: sorted skills, sorted dependencies and keys, one layout.
    pub fn to_text(&self) -> String {
        let mut sorted = self.clone();
        sorted
            .skills_mut()
            .sort_by(|a, b| a.name.cmp(&b.name).then(a.version.cmp(&b.version)));
        for skill in sorted.skills_mut() {
            skill.dependencies.sort();
            skill.dependencies.dedup();
            skill.grants.sort();
            skill.grants.dedup();
            skill.waivers.sort();
            skill.waivers.dedup();
        }
        for waivers in sorted.pending_waivers.values_mut() {
            waivers.sort();
            waivers.dedup();
        }
        for keys in sorted.keys.values_mut() {
            keys.sort();
            keys.dedup();
        }
        // Only the roots some signer needs.
        let needed: std::collections::BTreeSet<&str> = self
            .skills()
            .iter()
            .filter_map(|skill| skill.signer.as_ref()?.root())
            .collect();
        sorted
            .roots
            .retain(|root, _| needed.contains(root.as_str()));
        let body = toml::to_string(&sorted).expect("lockfile serialises");
        format!("{HEADER}{}", inline_signers(&body))
    }

    /// Writes the lockfile atomically (temp file + rename).
    /// A file that already holds the same text is left as it is.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let text = self.to_text();
        if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
            return Ok(());
        }
        crate::fsutil::write_atomically(path, text.as_bytes())
            .with_context(|| format!("could not write {}", path.display()))
    }

    /// Installed skills.
    pub fn skills(&self) -> &[LockedSkill] {
        &self.entries
    }

    /// Installed skills, to change (the lookups' index is rebuilt).
    pub(crate) fn skills_mut(&mut self) -> &mut Vec<LockedSkill> {
        self.index = NameIndex::default();
        &mut self.entries
    }

    /// The locked entry for `name`.
    pub fn get(&self, name: &str) -> Option<&LockedSkill> {
        self.lookup(name, |index| &index.by_name, |s| s.name == name)
    }

    /// The locked entry installed in the folder `folder` (its name's last
    /// segment).
    pub(crate) fn by_folder(&self, folder: &str) -> Option<&LockedSkill> {
        self.lookup(folder, |index| &index.by_folder, |s| s.folder() == folder)
    }

    /// The first entry `is` holds for, through the index (`map` picks its
    /// map, keyed by `key`).
    fn lookup(
        &self,
        key: &str,
        map: impl Fn(&BuiltIndex) -> &std::collections::HashMap<String, usize>,
        is: impl Fn(&LockedSkill) -> bool,
    ) -> Option<&LockedSkill> {
        let index = self.index.0.get_or_init(|| {
            let mut built = BuiltIndex {
                by_name: Default::default(),
                by_folder: Default::default(),
            };
            for (at, skill) in self.entries.iter().enumerate() {
                built.by_name.entry(skill.name.clone()).or_insert(at);
                built
                    .by_folder
                    .entry(skill.folder().to_string())
                    .or_insert(at);
            }
            built
        });
        let skill = self.entries.get(*map(index).get(key)?)?;
        debug_assert!(is(skill), "the lock's index is out of date");
        Some(skill)
    }
}

/// Where a key of a `[[skill]]` entry goes: the order of [`LockedSkill`]'s
/// fields.
fn field_order(key: &toml_edit::Key) -> usize {
    const ORDER: [&str; 12] = [
        "name",
        "version",
        "source",
        "checksum",
        "tree",
        "signer",
        "signature",
        "commit-signer",
        "dependencies",
        "grants",
        "waivers",
        "scan",
    ];
    ORDER
        .iter()
        .position(|known| *known == key.get())
        .unwrap_or(ORDER.len())
}

/// `body` with each skill's `signer` table written inline on its entry's
/// `signer =` line, as DESIGN §5 spells it, rather than as sub-tables
/// after the entry: one line per signer reads and diffs as one fact.
fn inline_signers(body: &str) -> String {
    if !body.contains("[skill.signer")
        && !body.contains("[skill.commit-signer")
        && !body.contains("[[skill.waivers]]")
        && !body.contains("[[pending_waivers.")
    {
        return body.to_string();
    }
    let mut document: toml_edit::DocumentMut =
        body.parse().expect("the lockfile just written parses");
    if let Some(skills) = document
        .get_mut("skill")
        .and_then(toml_edit::Item::as_array_of_tables_mut)
    {
        for skill in skills.iter_mut() {
            if let Some(waivers) = skill.get_mut("waivers") {
                inline_waivers(waivers);
            }
            if let Some(mut key) = skill.key_mut("waivers") {
                key.leaf_decor_mut().set_suffix(" ");
            }
            for key in ["signer", "commit-signer"] {
                if let Some(table) = skill.get_mut(key).and_then(toml_edit::Item::as_table_mut) {
                    let mut inline = std::mem::take(table).into_inline_table();
                    for (_, value) in inline.iter_mut() {
                        if let Some(nested) = value.as_inline_table_mut() {
                            nested.fmt();
                        }
                    }
                    inline.fmt();
                    skill[key] = toml_edit::value(inline);
                    if let Some(mut key) = skill.key_mut(key) {
                        key.leaf_decor_mut().set_suffix(" ");
                    }
                }
            }
            // Back in the entry's order, which the sub-table had left.
            skill.sort_values_by(|a, _, b, _| field_order(a).cmp(&field_order(b)));
        }
    }
    if let Some(pending) = document
        .get_mut("pending_waivers")
        .and_then(toml_edit::Item::as_table_mut)
    {
        for (mut key, waivers) in pending.iter_mut() {
            inline_waivers(waivers);
            key.leaf_decor_mut().set_suffix(" ");
        }
    }
    document.to_string()
}

/// A list of waivers as DESIGN §5 spells it: `[{ rule = …, … }]`, one
/// waiver a line, rather than sub-tables after the entry.
fn inline_waivers(item: &mut toml_edit::Item) {
    let Some(tables) = item.as_array_of_tables_mut() else {
        return;
    };
    let mut array = toml_edit::Array::new();
    for table in std::mem::take(tables).into_iter() {
        let mut inline = table.into_inline_table();
        inline.fmt();
        array.push(inline);
    }
    let many = array.len() > 1;
    for value in array.iter_mut() {
        value
            .decor_mut()
            .set_prefix(if many { "\n    " } else { "" });
    }
    array.set_trailing(if many { "\n" } else { "" });
    array.set_trailing_comma(many);
    *item = toml_edit::value(array);
}

#[cfg(test)]
mod tests {
    #[test]
    fn shown_version_examples() {
        use crate::manifest::lock::shown_version;
        use crate::manifest::source_id::SourceId;
        let git: SourceId =
            "git+https://example.com/r.git#0123456789abcdef0123456789abcdef01234567"
                .parse()
                .unwrap();
        let path: SourceId = "path+skills/x".parse().unwrap();
        assert_eq!(shown_version("0.0.0", &git, None), "0123456789ab");
        assert_eq!(
            shown_version("0.0.0", &path, Some("h1:Qm9vYmFyYmF6cXV4")),
            "h1:Qm9vYmFy"
        );
        assert_eq!(shown_version("1.2.0", &git, None), "v1.2.0");
        assert_eq!(
            shown_version("0.0.0", &SourceId::registry("builtin"), None),
            "v0.0.0"
        );
    }

    use super::*;

    #[test]
    fn entries_are_looked_up_by_name_and_folder_as_the_lock_is_now() {
        let mut lock = Lockfile::default();
        lock.skills_mut()
            .extend([skill("acme/zeta"), skill("beta/alpha"), skill("plain")]);
        assert_eq!(lock.get("beta/alpha").unwrap().name, "beta/alpha");
        assert_eq!(lock.by_folder("zeta").unwrap().name, "acme/zeta");
        assert_eq!(lock.by_folder("plain").unwrap().name, "plain");
        assert!(lock.get("alpha").is_none() && lock.by_folder("acme").is_none());
        // Entries added or removed after a lookup are seen.
        lock.skills_mut().push(skill("acme/later"));
        assert_eq!(lock.by_folder("later").unwrap().name, "acme/later");
        lock.skills_mut().retain(|s| s.name != "acme/zeta");
        assert!(lock.get("acme/zeta").is_none());
        assert_eq!(lock.get("plain").unwrap().name, "plain");
        // A clone looks up its own entries; looking up changes no equality.
        let copy = lock.clone();
        assert_eq!(copy.get("acme/later").unwrap().name, "acme/later");
        assert_eq!(copy, lock);
    }

    fn skill(name: &str) -> LockedSkill {
        LockedSkill {
            name: name.into(),
            version: "1.2.3".into(),
            source: SourceId::registry("https://skills.example.com/index/"),
            checksum: Some("sha256:9f2c".into()),
            tree: "h1:Qm9v".into(),
            signer: Some(LockedSigner::Minisign("RWQf".into())),
            signature: None,
            commit_signer: None,
            dependencies: vec!["acme/z".into(), "acme/base".into()],
            grants: vec!["Read".into(), "Bash(pdftotext:*)".into()],
            waivers: Vec::new(),
            scan: None,
        }
    }

    #[test]
    fn text_is_sorted_stable_and_round_trips() {
        let mut lock = Lockfile::default();
        lock.skills_mut().push(skill("acme/zeta"));
        lock.skills_mut().push(skill("acme/alpha"));
        lock.keys
            .insert("acme".into(), vec!["K2".into(), "K1".into()]);
        let text = lock.to_text();
        let mut shuffled = lock.clone();
        shuffled.skills_mut().reverse();
        assert_eq!(
            shuffled.to_text(),
            text,
            "order of insertion does not matter"
        );
        assert!(text.starts_with(HEADER));
        assert!(text.find("acme/alpha").unwrap() < text.find("acme/zeta").unwrap());
        assert!(
            text.contains("dependencies = [\"acme/base\", \"acme/z\"]"),
            "{text}"
        );
        assert!(
            text.contains("grants = [\"Bash(pdftotext:*)\", \"Read\"]"),
            "{text}"
        );
        let parsed = Lockfile::parse(&text, Path::new("skills.lock")).unwrap();
        assert_eq!(parsed.to_text(), text);
    }

    #[test]
    fn signers_of_every_family_round_trip_with_the_roots_they_need() {
        let mut lock = Lockfile::default();
        let mut oms = skill("nv-skill");
        oms.signer = Some(LockedSigner::Other(SignerTable::Oms {
            subject: "CN=Signing 001".into(),
            chain: "sha256:aa".into(),
        }));
        oms.signature = Some("sha256:bb".into());
        let mut sigstore = skill("acme/sigstore");
        sigstore.signer = Some(LockedSigner::Other(SignerTable::Sigstore {
            identity:
                "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main"
                    .into(),
            issuer: "https://token.actions.githubusercontent.com".into(),
            root: None,
        }));
        lock.skills_mut()
            .extend([oms, sigstore, skill("acme/minisign")]);
        lock.roots.insert("sha256:aa".into(), "PEM".into());
        lock.roots.insert("sha256:unused".into(), "PEM".into());
        let text = lock.to_text();
        assert!(
            text.contains(
                "signer = { oms = { subject = \"CN=Signing 001\", chain = \"sha256:aa\" } }"
            ),
            "{text}"
        );
        assert!(text.contains("signer = \"RWQf\""), "{text}");
        assert!(!text.contains("sha256:unused"), "unneeded roots go: {text}");
        let parsed = Lockfile::parse(&text, Path::new("skills.lock")).unwrap();
        assert_eq!(parsed.to_text(), text);
        assert_eq!(
            parsed
                .get("nv-skill")
                .unwrap()
                .signer
                .as_ref()
                .unwrap()
                .root(),
            Some("sha256:aa")
        );
    }

    #[test]
    fn bad_lockfiles_say_what_to_do() {
        let hints = |err: anyhow::Error| err.downcast::<Hinted>().unwrap().hints().to_vec();
        let err = Lockfile::parse("version = 9\n", Path::new("skills.lock")).unwrap_err();
        assert_eq!(hints(err), ["upgrade skillpkg"]);
        let err = Lockfile::parse("[[skill]\n", Path::new("skills.lock")).unwrap_err();
        assert_eq!(
            hints(err),
            ["restore it from version control, or delete it and run `skillpkg install`"]
        );
        let text = "version = 1\n[[skill]]\nname = \"acme/x\"\nversion = \"1.0.0\"\nsource = \"ftp+example.com\"\ntree = \"h1:x\"\n";
        let err = Lockfile::parse(text, Path::new("skills.lock")).unwrap_err();
        let message = err.to_string();
        assert!(
            message.starts_with("skills.lock: invalid lockfile")
                && message.contains("unknown source 'ftp+example.com'"),
            "{message}"
        );
    }
}
