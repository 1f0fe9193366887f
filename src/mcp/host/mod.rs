//! `exec --mcp-skills`: skillpkg as a host of MCP-served skills (SEP-2640's
//! host rules, DESIGN §8).
//!
//! Each server is asked for its skills once, at the start of a run. Every
//! file of every skill is read, checked against the size and digest the
//! listing gave, and written into a private store in the cache, keyed by
//! the skill's digest set: the agent reads skills only from there, and
//! checks each file against its digest again on every read. A skill whose
//! listing breaks a rule of the extension, whose files do not match their
//! digests, whose server answers a read with a file it did not list, or
//! whose listed frontmatter differs from its `SKILL.md` is refused, with
//! the reason. Nothing a server serves is run here: what the agent may do
//! with those skills is the caller's (their `allowed-tools` grant nothing
//! until the user approves them, bound to the digest set).

mod client;
mod store;
mod verify;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// An MCP server to take skills from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Server {
    /// A command started for the run, spoken to over stdio.
    Command {
        /// Its words: program, arguments.
        argv: Vec<String>,
    },
    /// A streamable HTTP endpoint.
    Url(String),
}

impl Server {
    /// What the user wrote, for messages, the catalog and approvals.
    pub(crate) fn label(&self) -> String {
        match self {
            Server::Command { argv } => argv.join(" "),
            Server::Url(url) => url.clone(),
        }
    }

    /// The origin skills it serves are shown with: `mcp:<label>`.
    pub(crate) fn origin(&self) -> String {
        format!("mcp:{}", self.label())
    }
}

/// How servers are reached.
pub(crate) struct HostOptions<'a> {
    /// The whole environment a started server gets.
    pub env: Vec<(OsString, OsString)>,
    /// Where a started server runs.
    pub cwd: &'a Path,
    /// The private store verified skills are written to.
    pub store: PathBuf,
    /// A bearer token for HTTP servers (`SKILLPKG_MCP_TOKEN`).
    pub token: Option<String>,
}

/// One file of a skill as its server listed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ListedFile {
    /// `sha256:<hex>`.
    pub digest: String,
    /// Bytes.
    pub size: u64,
}

/// A skill a server serves, verified and in the store.
#[derive(Debug, Clone)]
pub(crate) struct VerifiedSkill {
    /// The skill, loaded from its folder in the store, its origin set.
    pub skill: crate::skill::Skill,
    /// `mcp:<label>` of its server.
    pub origin: String,
    /// Its files by `/`-separated path relative to the skill.
    pub files: BTreeMap<String, ListedFile>,
    /// `sha256:<hex>` over its name and every listed path and digest:
    /// what an approval of it is bound to.
    pub digest_set: String,
}

/// A skill (or a whole server) left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// `mcp:<label>`.
    pub origin: String,
    /// The skill, when one skill is refused rather than the server.
    pub skill: Option<String>,
    /// Why.
    pub reason: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.skill {
            Some(skill) => write!(
                f,
                "{}: the skill '{skill}' is refused: {}",
                self.origin, self.reason
            ),
            None => write!(
                f,
                "{}: no skills taken from it: {}",
                self.origin, self.reason
            ),
        }
    }
}

/// What the servers serve: the skills that passed, and what did not.
#[derive(Debug, Default)]
pub(crate) struct Taken {
    /// Verified skills, in the servers' order, then each server's.
    pub skills: Vec<VerifiedSkill>,
    /// What was refused.
    pub refused: Vec<Refusal>,
}

/// Whether the folder `dir` holds exactly `files`, each matching its
/// digest: a local skill that is the very skill a server serves.
pub(crate) fn holds_exactly(dir: &Path, files: &BTreeMap<String, ListedFile>) -> bool {
    store::holds(dir, files)
}

/// Takes the skills every server in `servers` serves, verified into the
/// store. A server that cannot be reached is a refusal, not an error: the
/// run goes on with the skills that could be checked.
pub(crate) fn take(servers: &[Server], options: &HostOptions) -> anyhow::Result<Taken> {
    // Redirects within the endpoint's origin only: the bearer token goes
    // to no other server.
    let http = crate::net::client::Http::new(
        std::time::Duration::from_secs(30),
        std::time::Duration::from_secs(60),
        crate::net::client::Redirects::SameOrigin,
    )?;
    let mut taken = Taken::default();
    for server in servers {
        match http.block_on(client::take_from(server, options, http.client())) {
            Ok(outcome) => {
                taken.skills.extend(outcome.skills);
                taken.refused.extend(outcome.refused);
            }
            Err(e) => taken.refused.push(Refusal {
                origin: server.origin(),
                skill: None,
                reason: format!("{e:#}"),
            }),
        }
    }
    Ok(taken)
}
