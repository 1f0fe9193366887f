//! `--mcp-skills CMD_OR_URL`: the skills MCP servers serve, for `exec`
//! (added to the catalog) and `grants` (listed and approved), taken as
//! SEP-2640's host rules ask ([`crate::mcp::host`]).

use std::collections::{BTreeMap, BTreeSet};

use crate::agent::remote_skills::Served;
use crate::hint::Hinted;
use crate::mcp::host::{HostOptions, Server, VerifiedSkill};
use crate::ops::consent::grants::SkillGrants;
use crate::ops::consent::grants::remote_approvals::ServedRef;

use super::Context;

/// The servers to take skills from.
#[derive(Debug, Default, clap::Args)]
pub(super) struct McpSkillsArgs {
    /// Add the skills this MCP server serves: a command (started with the
    /// sandbox's environment only) or an http(s) URL (repeatable).
    #[arg(long = "mcp-skills", value_name = "CMD_OR_URL", global = true)]
    pub servers: Vec<String>,
}

/// The server `spec` names: an `http://` or `https://` URL, else one
/// plain command line (no pipes, redirections or substitutions).
pub(super) fn parse(spec: &str, named: &str) -> anyhow::Result<Server> {
    let trimmed = spec.trim();
    if trimmed.starts_with("http://") || trimmed.starts_with("https://") {
        return Ok(Server::Url(trimmed.to_string()));
    }
    let commands = crate::agent::tools::command_line::split(trimmed);
    match commands.as_slice() {
        [command] if command.opaque.is_none() && !command.words.is_empty() => Ok(Server::Command {
            argv: command.words.clone(),
        }),
        _ => anyhow::bail!(
            Hinted::new(format!(
                "{named} {spec:?} is not one plain command or an http(s) URL"
            ))
            .hint("give the server's command and arguments only; put anything more in a script")
        ),
    }
}

/// Takes the skills of the servers in `flags` and `configured` (a trusted
/// project's `[agent] mcp_skills`), verified into the store. Refusals are
/// warned about; a skill named like one of `local` (the roots' skills,
/// which win) or like one an earlier server serves is left out, with a
/// warning, unless the local skill holds the very files served (a server
/// over the same builtins, say).
pub(super) fn take(
    context: &mut Context,
    flags: &[String],
    configured: &[String],
    pass_env: &[String],
    local: &BTreeMap<String, std::path::PathBuf>,
) -> anyhow::Result<Vec<VerifiedSkill>> {
    let mut servers = Vec::new();
    for spec in flags {
        servers.push(parse(spec, "--mcp-skills")?);
    }
    for spec in configured {
        servers.push(parse(spec, "[agent] mcp_skills")?);
    }
    let mut seen = BTreeSet::new();
    servers.retain(|s| seen.insert(s.clone()));
    if servers.is_empty() {
        return Ok(Vec::new());
    }
    let dirs = context.dirs()?.clone();
    let options = HostOptions {
        env: crate::sandbox::allowed_environment(pass_env),
        cwd: &context.cwd,
        store: dirs.cache.join("mcp-skills"),
        token: crate::env_vars::non_blank(crate::env_vars::SKILLPKG_MCP_TOKEN),
    };
    let taken = crate::mcp::host::take(&servers, &options)?;
    for refusal in &taken.refused {
        context.printer.warn(refusal.to_string());
    }
    let mut names: BTreeSet<String> = local.keys().cloned().collect();
    let mut kept = Vec::new();
    for skill in taken.skills {
        let name = &skill.skill.meta.name;
        let same = local
            .get(name)
            .is_some_and(|dir| crate::mcp::host::holds_exactly(dir, &skill.files));
        if same {
            continue;
        }
        if !names.insert(name.clone()) {
            context.printer.warn(format!(
                "{}: the skill '{name}' is not used: a skill of that name is in a root or served first",
                skill.origin
            ));
            continue;
        }
        kept.push(skill);
    }
    Ok(kept)
}

/// The grants of `skills`, with what counts now.
pub(super) fn survey(
    skills: &[VerifiedSkill],
    dirs: &crate::dirs::Dirs,
) -> anyhow::Result<Vec<SkillGrants>> {
    let refs: Vec<ServedRef> = skills
        .iter()
        .map(|s| ServedRef {
            skill: &s.skill,
            origin: &s.origin,
            digest_set: &s.digest_set,
        })
        .collect();
    crate::ops::consent::grants::remote_approvals::survey(&refs, dirs)
}

/// What the agent holds of `skills`: origin, digests, and whether
/// `survey` finds each approved as served now.
pub(super) fn served(skills: &[VerifiedSkill], survey: &[SkillGrants]) -> BTreeMap<String, Served> {
    skills
        .iter()
        .map(|s| {
            let name = s.skill.meta.name.clone();
            let approved = survey.iter().any(|g| {
                g.name == name
                    && g.skill_approved
                    && matches!(&g.keeper, crate::ops::consent::grants::Keeper::Mcp { origin, .. } if *origin == s.origin)
            });
            let files = s
                .files
                .iter()
                .map(|(path, file)| (path.clone(), file.digest.clone()))
                .collect();
            let served = Served {
                origin: s.origin.clone(),
                files,
                approved,
            };
            (name, served)
        })
        .collect()
}
