//! `skills.toml` (what a project wants) and `skills.lock` (what it got).

pub mod channel;
pub mod edit;
mod host_pages;
pub mod lock;
pub(crate) mod misplaced;
pub mod oci_ref;
pub mod shorthand;
pub(crate) mod source_arg;
pub mod source_id;
pub(crate) mod source_match;
pub(crate) mod unknown;
pub mod well_known_ref;

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context as _, bail};
use serde::{Deserialize, Serialize};

/// One entry of `[skills]` as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
// A manifest holds a few entries: their size does not matter, and a box
// would cost every match on them a dereference.
#[allow(clippy::large_enum_variant)]
pub enum DependencySpec {
    /// `"acme/x" = "^1.2"`.
    Version(String),
    /// `"acme/x" = { version = "2", registry = "internal" }` and the path and git forms.
    Detailed(DetailedSpec),
}

/// The table form of a dependency.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DetailedSpec {
    /// A version requirement (registry packages).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The registry's name in `[registries]` (default registry when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registry: Option<String>,
    /// The lowest channel to take versions from (registry packages;
    /// `published` when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<channel::Channel>,
    /// A local skill directory, relative to the manifest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// A git repository URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git: Option<String>,
    /// A branch, tag or commit of `git`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rev: Option<String>,
    /// The skill's directory inside the `git` repository.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subdir: Option<String>,
    /// Who must have signed the `git` commit: an OpenSSH public key or
    /// `gpg:FINGERPRINT`, or a list of them.
    #[serde(rename = "signed-by", skip_serializing_if = "Option::is_none")]
    pub signed_by: Option<SignedBy>,
    /// The `trusted_root.json` (a file inside the project) that `signed-by`'s
    /// Sigstore signers' certificates must chain to (default: Sigstore's
    /// public-good root).
    #[serde(rename = "trusted-root", skip_serializing_if = "Option::is_none")]
    pub trusted_root: Option<String>,
    /// An OCI repository, `HOST/REPO`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oci: Option<String>,
    /// A tag of the `oci` repository.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// A manifest digest (`sha256:…`) of the `oci` repository.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// The skill of an `oci` collection (an image index of skills), or of
    /// a `well-known` index, to install.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    /// A site publishing an Agent Skills discovery index
    /// (`/.well-known/agent-skills/index.json`), or that index's URL.
    #[serde(rename = "well-known", skip_serializing_if = "Option::is_none")]
    pub well_known: Option<String>,
}

/// The `signed-by` of a git dependency: one signer, or several.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SignedBy {
    /// `signed-by = "ssh-ed25519 AAAA…"`.
    One(String),
    /// `signed-by = ["ssh-ed25519 AAAA…", "gpg:…"]`.
    Many(Vec<String>),
}

impl SignedBy {
    /// The signers, as written; `None` for none.
    pub fn of(signers: Vec<String>) -> Option<SignedBy> {
        match signers.len() {
            0 => None,
            1 => signers.into_iter().next().map(SignedBy::One),
            _ => Some(SignedBy::Many(signers)),
        }
    }

    /// Every signer, as written.
    pub fn all(&self) -> Vec<String> {
        match self {
            SignedBy::One(one) => vec![one.clone()],
            SignedBy::Many(many) => many.clone(),
        }
    }
}

/// Where a dependency comes from, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A registry package with a version requirement.
    Registry {
        /// The requirement.
        req: semver::VersionReq,
        /// The registry's name, `None` for the default.
        registry: Option<String>,
        /// The lowest channel it takes versions from, when it names one.
        channel: Option<channel::Channel>,
    },
    /// A skill taken straight from a folder, a git repository or an OCI
    /// registry.
    Direct(DirectSource),
}

/// Where a path, git or OCI dependency comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirectSource {
    /// A local directory, relative to the manifest.
    Path(String),
    /// A git repository.
    Git {
        /// The URL.
        url: String,
        /// Branch, tag or commit.
        rev: Option<String>,
        /// Skill directory inside the repository.
        subdir: Option<String>,
        /// Who must have signed the commit (`signed-by`); empty: anyone
        /// or no one.
        signed_by: Vec<String>,
        /// The `trusted_root.json` gitsign signatures are checked against,
        /// relative to the manifest (`trusted-root`).
        trusted_root: Option<String>,
    },
    /// An artifact in an OCI registry.
    Oci {
        /// `HOST[:PORT]/REPO`.
        repository: String,
        /// The tag or digest.
        pin: oci_ref::OciPin,
        /// The skill to take from a collection, by its name.
        skill: Option<String>,
    },
    /// A skill a site's Agent Skills discovery index lists.
    WellKnown {
        /// The site (or the index's URL), as [`well_known_ref::parse_site`]
        /// writes it.
        site: String,
        /// The skill's name in the index.
        skill: String,
    },
}

impl DependencySpec {
    /// Checks the spec and says where it comes from. `name` is its key.
    pub fn source(&self, name: &str) -> anyhow::Result<Source> {
        let parse_req = |text: &str| {
            semver::VersionReq::parse(text)
                .map_err(|e| anyhow::anyhow!("'{name}': invalid version requirement '{text}': {e}"))
        };
        match self {
            DependencySpec::Version(req) => Ok(Source::Registry {
                req: parse_req(req)?,
                registry: None,
                channel: None,
            }),
            DependencySpec::Detailed(spec) => {
                if spec.channel.is_some()
                    && (spec.oci.is_some()
                        || spec.well_known.is_some()
                        || spec.path.is_some()
                        || spec.git.is_some())
                {
                    bail!(
                        "'{name}': `channel` goes with registry packages (a `version`), which an index serves in channels"
                    );
                }
                match &spec.signed_by {
                    Some(_) if spec.git.is_none() => bail!(
                        "'{name}': `signed-by` goes with `git` (it names who must have signed the commit)"
                    ),
                    Some(SignedBy::Many(none)) if none.is_empty() => {
                        bail!("'{name}': `signed-by` names no signer")
                    }
                    _ => {}
                }
                if spec.trusted_root.is_some() && spec.signed_by.is_none() {
                    bail!(
                        "'{name}': `trusted-root` goes with `signed-by` (it is what a gitsign signer's certificate must chain to)"
                    );
                }
                if spec.oci.is_some() {
                    return spec.oci_source(name);
                }
                if spec.well_known.is_some() {
                    return spec.well_known_source(name);
                }
                if spec.tag.is_some() || spec.digest.is_some() || spec.skill.is_some() {
                    bail!(
                        "'{name}': `tag` and `digest` go with `oci`, `skill` with `oci` or `well-known`"
                    );
                }
                match (&spec.path, &spec.git) {
                    (Some(_), Some(_)) => bail!("'{name}': give either `path` or `git`, not both"),
                    (Some(path), None) => {
                        if spec.version.is_some()
                            || spec.registry.is_some()
                            || spec.rev.is_some()
                            || spec.subdir.is_some()
                        {
                            bail!(
                                "'{name}': a `path` dependency takes no `version`, `registry`, `rev` or `subdir`"
                            );
                        }
                        if path.contains('\\') {
                            bail!(
                                "'{name}': the path '{path}' is written with '\\': skills.toml writes paths with '/' on every platform (Windows reads them too): write path = \"{}\" (a folder whose own name holds '\\' must be renamed)",
                                path.replace('\\', "/")
                            );
                        }
                        Ok(Source::Direct(DirectSource::Path(path.clone())))
                    }
                    (None, Some(url)) => {
                        if spec.version.is_some() || spec.registry.is_some() {
                            bail!(
                                "'{name}': a `git` dependency takes no `version` or `registry` (pin it with `rev`)"
                            );
                        }
                        Ok(Source::Direct(DirectSource::Git {
                            url: url.clone(),
                            rev: spec.rev.clone(),
                            subdir: spec.subdir.clone(),
                            signed_by: spec
                                .signed_by
                                .as_ref()
                                .map(SignedBy::all)
                                .unwrap_or_default(),
                            trusted_root: spec.trusted_root.clone(),
                        }))
                    }
                    (None, None) => {
                        if spec.rev.is_some() || spec.subdir.is_some() {
                            bail!("'{name}': `rev` and `subdir` go with `git`");
                        }
                        Ok(Source::Registry {
                            req: parse_req(spec.version.as_deref().unwrap_or("*"))?,
                            registry: spec.registry.clone(),
                            channel: spec.channel,
                        })
                    }
                }
            }
        }
    }
}

impl DetailedSpec {
    /// An `oci` dependency: a repository and exactly one of `tag` and
    /// `digest`, nothing else.
    fn oci_source(&self, name: &str) -> anyhow::Result<Source> {
        let repository = self.oci.clone().unwrap_or_default();
        let others = [
            ("version", &self.version),
            ("registry", &self.registry),
            ("path", &self.path),
            ("git", &self.git),
            ("rev", &self.rev),
            ("subdir", &self.subdir),
            ("well-known", &self.well_known),
        ];
        if let Some((key, _)) = others.iter().find(|(_, value)| value.is_some()) {
            bail!("'{name}': an `oci` dependency takes no `{key}` (pin it with `tag` or `digest`)");
        }
        let pin = match (&self.tag, &self.digest) {
            (Some(tag), None) => oci_ref::OciPin::Tag(tag.clone()),
            (None, Some(digest)) => oci_ref::OciPin::Digest(digest.clone()),
            _ => bail!("'{name}': an `oci` dependency takes one of `tag` and `digest`"),
        };
        oci_ref::check_repository(&repository)
            .and_then(|()| oci_ref::check_pin(&pin))
            .map_err(|problem| anyhow::anyhow!("'{name}': {problem}"))?;
        if let Some(skill) = &self.skill
            && !crate::skill::name::is_safe_folder_name(skill)
        {
            bail!("'{name}': `skill = {skill:?}` is no skill name");
        }
        Ok(Source::Direct(DirectSource::Oci {
            repository,
            pin,
            skill: self.skill.clone(),
        }))
    }
}

impl DetailedSpec {
    /// A `well-known` dependency: a site and the skill its index lists
    /// (by default the key's name), nothing else. The lock pins what the
    /// index served, so there is no `tag` or `digest` to give.
    fn well_known_source(&self, name: &str) -> anyhow::Result<Source> {
        let others = [
            ("version", &self.version),
            ("registry", &self.registry),
            ("path", &self.path),
            ("git", &self.git),
            ("rev", &self.rev),
            ("subdir", &self.subdir),
            ("oci", &self.oci),
            ("tag", &self.tag),
            ("digest", &self.digest),
        ];
        if let Some((key, _)) = others.iter().find(|(_, value)| value.is_some()) {
            bail!(
                "'{name}': a `well-known` dependency takes no `{key}` (skills.lock pins what the site served)"
            );
        }
        let given = self.well_known.as_deref().unwrap_or_default();
        let site = well_known_ref::parse_site(given)
            .map_err(|problem| anyhow::anyhow!("'{name}': {problem}"))?;
        let skill = match &self.skill {
            Some(skill) => skill.clone(),
            None => name.rsplit('/').next().unwrap_or(name).to_string(),
        };
        if !crate::skill::name::is_valid_name(&skill) {
            bail!(
                "'{name}': {skill:?} is no skill name an agent-skills index may list (lower-case letters, digits and single '-')"
            );
        }
        Ok(Source::Direct(DirectSource::WellKnown { site, skill }))
    }
}

/// A `[registries]` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistrySpec {
    /// The index URL or path.
    pub index: String,
}

/// What a project requires of a source's signer (`[signers]`): an OMS
/// root certificate, or a Sigstore identity and issuer. These only add to
/// the user's policies, never relax or replace them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct SignerRequirement {
    /// A PEM file of OMS root certificates, inside the project.
    #[serde(default)]
    pub oms_root: Option<String>,
    /// The Sigstore identity, exactly.
    #[serde(default)]
    pub sigstore_identity: Option<String>,
    /// A regex the whole Sigstore identity must match.
    #[serde(default)]
    pub sigstore_identity_regexp: Option<String>,
    /// The OIDC issuer vouching for the Sigstore identity.
    #[serde(default)]
    pub sigstore_issuer: Option<String>,
    /// A `trusted_root.json` inside the project (default: Sigstore's
    /// public-good root).
    #[serde(default)]
    pub trusted_root: Option<String>,
}

/// `[install]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstallSection {
    /// The project root, relative to the manifest (default `.agents/skills`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    /// Other agents' folders to expose installed skills in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    /// Skills installed and locked but turned off: left out of `exec`,
    /// `serve` and the agents' folders (`skillpkg disable`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disabled: Vec<String>,
}

impl InstallSection {
    /// Whether the skill named `name` (a skill's name, or a package's
    /// `org/name`) is disabled: `[install] disabled` names it either way.
    pub(crate) fn is_disabled(&self, name: &str) -> bool {
        let short = skill_name(name);
        self.disabled.iter().any(|d| skill_name(d) == short)
    }
}

/// The skill's own name in `name`: a package's `org/name` without its
/// org (the folder it installs to), a plain name as it is.
pub(crate) fn skill_name(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// `[agent]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentSection {
    /// The model, e.g. `anthropic:claude-sonnet-4-5`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// `"restrict"` makes allowed-tools a whitelist.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<String>,
    /// The sandbox of scripts and shell commands: `"workspace-write"`,
    /// `"read-only"` or `"off"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
    /// Whether scripts and shell commands may use the network.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<bool>,
    /// The model's context window in tokens, for a model skillpkg does not
    /// know (the catalog's budget is 2% of it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_window: Option<usize>,
    /// Environment variables passed to scripts and shell commands.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<String>,
    /// Folders scripts and shell commands may read besides the workspace
    /// and the toolchains (`~/` is the home folder; others are relative
    /// to the manifest).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sandbox_read: Vec<String>,
    /// MCP servers whose skills `exec` adds to the catalog, as
    /// `--mcp-skills` takes them: a command or an http(s) URL.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mcp_skills: Vec<String>,
}

impl AgentSection {
    /// The names of the keys set, in the table's order.
    pub(crate) fn keys_set(&self) -> Vec<String> {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(keys)) => keys.keys().cloned().collect(),
            _ => Vec::new(),
        }
    }
}

/// `skills.toml`, parsed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The skills the project wants, by `org/name` (or plain name for path skills).
    #[serde(default)]
    pub skills: BTreeMap<String, DependencySpec>,
    /// Named registries.
    #[serde(default)]
    pub registries: BTreeMap<String, RegistrySpec>,
    /// Install settings.
    #[serde(default)]
    pub install: InstallSection,
    /// Agent settings.
    #[serde(default)]
    pub agent: AgentSection,
    /// Signers the project requires, by org or source.
    #[serde(default)]
    pub signers: BTreeMap<String, SignerRequirement>,
}

impl Manifest {
    /// Parses manifest text; errors name `path` and the line.
    pub fn parse(text: &str, path: &Path) -> anyhow::Result<Manifest> {
        let invalid = |e: &dyn std::fmt::Display| {
            anyhow::anyhow!(
                "{}: invalid manifest: {}",
                path.display(),
                e.to_string().trim()
            )
        };
        // The editor's parser first: unlike serde's, it checks the values of
        // keys skillpkg ignores too (an integer out of range), so whatever
        // `install` reads, `add` and `remove` can edit.
        text.parse::<toml_edit::DocumentMut>()
            .map_err(|e| invalid(&e))?;
        if let Some(misplaced) = misplaced::skill_under_registries(text, path) {
            bail!(misplaced);
        }
        let manifest: Manifest = toml::from_str(text).map_err(|e| invalid(&e))?;
        for (name, spec) in &manifest.skills {
            spec.source(name)
                .with_context(|| format!("{}: invalid [skills] entry", path.display()))?;
        }
        Ok(manifest)
    }

    /// Reads and parses `path`.
    pub fn load(path: &Path) -> anyhow::Result<Manifest> {
        let text = fs_err::read_to_string(path)?;
        Manifest::parse(&text, path)
    }

    /// `[install] root`: the project root's directory relative to the
    /// manifest, when the manifest sets one.
    pub(crate) fn install_root(&self) -> Option<&str> {
        self.install.root.as_deref()
    }
}

/// The text `skillpkg init` writes.
pub(crate) const MANIFEST_TEMPLATE: &str = "# The skills this project uses. `skillpkg add org/name` adds them here;\n# skills.lock records exactly what was installed. Commit both files.\n\n[skills]\n";

#[cfg(test)]
mod tests {
    use super::*;

    /// A manifest with every form of the design and every key skillpkg reads.
    pub(crate) const EVERY_KEY: &str = r#"
[skills]
"acme/pdf-processing" = "^1.2"
"acme/report-writer"  = { version = "2", registry = "internal" }
"local-helper"        = { path = "tools/local-helper" }
"team/lint"           = { git = "https://example.com/team/skills.git", rev = "v1.0.0", subdir = "lint" }

[registries]
internal = { index = "https://skills.example.com/index/" }

[install]
root = ".agents/skills"
targets = ["claude"]

[agent]
model = "anthropic:claude-sonnet-4-5"
tools = "Read"
sandbox = "on"
network = false
context_window = 200000
env = ["LANG"]
"#;

    #[test]
    fn parses_every_form_of_the_design() {
        let text = EVERY_KEY;
        let m = Manifest::parse(text, Path::new("skills.toml")).unwrap();
        assert_eq!(m.skills.len(), 4);
        assert!(matches!(
            m.skills["local-helper"].source("local-helper").unwrap(),
            Source::Direct(DirectSource::Path(_))
        ));
        assert!(matches!(
            m.skills["acme/report-writer"].source("x").unwrap(),
            Source::Registry {
                registry: Some(_),
                ..
            }
        ));
        assert_eq!(m.install.targets, ["claude"]);
        assert_eq!(
            m.agent.model.as_deref(),
            Some("anthropic:claude-sonnet-4-5")
        );
    }

    /// Found by the `manifest` fuzz target: serde's reader skipped the
    /// unknown key without checking its integer, which the editor's parser
    /// refuses, so `install` read a manifest that `add` could not edit.
    #[test]
    fn an_integer_out_of_range_is_refused_even_under_an_unknown_key() {
        let text = b"p = 666666666666666666666666666 \n";
        let text = std::str::from_utf8(text).unwrap();
        let err = Manifest::parse(text, Path::new("skills.toml")).unwrap_err();
        assert!(
            err.to_string().starts_with("skills.toml: invalid manifest")
                && err.to_string().contains("integer number overflowed"),
            "{err}"
        );
        assert!(edit::ManifestDocument::parse(text, Path::new("skills.toml")).is_err());
    }

    #[test]
    fn errors_name_the_file_and_problem() {
        let err = Manifest::parse(
            "[skills]\n\"a/b\" = \"not a req\"\n",
            Path::new("skills.toml"),
        )
        .unwrap_err();
        assert!(
            format!("{err:#}").contains("invalid version requirement 'not a req'"),
            "{err:#}"
        );
        let err = Manifest::parse("[skills\n", Path::new("x/skills.toml")).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("x/skills.toml: invalid manifest"),
            "{err}"
        );
        let err = Manifest::parse(
            "[skills]\n\"a/b\" = { path = \"p\", git = \"g\" }\n",
            Path::new("s"),
        )
        .unwrap_err();
        assert!(format!("{err:#}").contains("either `path` or `git`"));
    }
}
