//! Whether a folder is a plugin, and which skills it holds.
//!
//! `plugin.json` makes it an Agent Plugin, whose skills are the immediate
//! folders of `skills/` holding a `SKILL.md` (§6.1, §7.1): no other file
//! names them, and no other manifest is read beside it (§5.1). Without
//! one, `.claude-plugin/plugin.json` (Claude Code) and
//! `.codex-plugin/plugin.json` (Codex) make it a plugin of those agents:
//! their skills are in `skills/` and in the folders their `skills` field
//! names (each a skill, or a folder of skills), which supplement it.
//!
//! Nothing leads outside the plugin: a path named in a manifest must be
//! plugin-relative (`./…`), and one that is absolute or climbs out with
//! `..` refuses the plugin; links are never followed, and one whose
//! target lies outside the plugin refuses it too (§4.1), while one that
//! stays inside is skipped with a warning.

use serde::Serialize;

use super::manifest::{self, MAX_MANIFEST, Refusal};
use super::tree::{Entry, PluginTree};
use crate::hint::Hinted;

/// The agents whose plugins skillpkg reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Kind {
    /// Agent Plugins 1.0.0 (`plugin.json`).
    AgentPlugin,
    /// Claude Code (`.claude-plugin/plugin.json`).
    ClaudeCode,
    /// Codex (`.codex-plugin/plugin.json`).
    Codex,
}

impl Kind {
    /// The manifest's path in the plugin.
    pub(crate) fn manifest(self) -> &'static str {
        match self {
            Kind::AgentPlugin => "plugin.json",
            Kind::ClaudeCode => ".claude-plugin/plugin.json",
            Kind::Codex => ".codex-plugin/plugin.json",
        }
    }

    /// What the plugin is called, for messages.
    pub(crate) fn shown(self) -> &'static str {
        match self {
            Kind::AgentPlugin => "an Agent Plugin",
            Kind::ClaudeCode => "a Claude Code plugin",
            Kind::Codex => "a Codex plugin",
        }
    }
}

/// A plugin, as read.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Plugin {
    /// Its kinds, by the manifests it has (one for an Agent Plugin).
    pub kinds: Vec<Kind>,
    /// Its name, from the first manifest naming one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The folders of its skills, relative to the plugin, sorted.
    pub skills: Vec<String>,
    /// What is reported: unknown fields, paths skipped, MCP servers that
    /// skillpkg does not run.
    pub warnings: Vec<String>,
}

impl Plugin {
    /// `name version`, or what it is when it has no name.
    pub(crate) fn title(&self) -> String {
        match (&self.name, &self.version) {
            (Some(name), Some(version)) => format!("{name} {version}"),
            (Some(name), None) => name.clone(),
            (None, _) => "a plugin".to_string(),
        }
    }

    /// The error for a plugin (at `origin`) of which agents can load no
    /// skill, with why for each skipped (`skipped`, then its warnings).
    pub(crate) fn holds_no_skill(&self, origin: &str, skipped: &[String]) -> Hinted {
        let mut error = Hinted::new(format!(
            "{origin}: the plugin {} holds no skill agents can load",
            self.title()
        ));
        for why in skipped.iter().chain(&self.warnings) {
            error = error.hint(why.clone());
        }
        error.hint("a plugin's skills are folders with a SKILL.md in its skills/ folder")
    }
}

/// The plugin in `tree` (from `origin`, as shown), or `None` when it has
/// no plugin manifest.
pub(crate) fn find(tree: &dyn PluginTree, origin: &str) -> anyhow::Result<Option<Plugin>> {
    let mut plugin = Plugin {
        kinds: Vec::new(),
        name: None,
        version: None,
        skills: Vec::new(),
        warnings: Vec::new(),
    };
    let mut roots = Vec::new();
    let mut mcp = Vec::new();
    for kind in [Kind::AgentPlugin, Kind::ClaudeCode, Kind::Codex] {
        let Some(bytes) = read_manifest(tree, kind, origin)? else {
            continue;
        };
        let read = match kind {
            Kind::AgentPlugin => manifest::agent_plugin(&bytes),
            _ => manifest::client_plugin(&bytes),
        }
        .map_err(|refusal| refused(kind, refusal, origin))?;
        plugin.kinds.push(kind);
        plugin.name = plugin.name.or(read.name);
        plugin.version = plugin.version.or(read.version);
        let file = kind.manifest();
        for warning in read.warnings {
            plugin.warnings.push(format!("{file} {warning}"));
        }
        roots.push(Root::Fixed("skills"));
        for path in &read.skills {
            match plugin_relative(path) {
                Ok(Some(folder)) => roots.push(Root::Named(folder, file)),
                Ok(None) => plugin.warnings.push(format!(
                    "{file}: the skills path {path:?} is not plugin-relative (./…), and is skipped"
                )),
                Err(()) => bail_outside(
                    origin,
                    &format!("the skills path {path:?} that {file} names"),
                )?,
            }
        }
        if read.mcp_servers {
            mcp.push(format!("mcpServers in {file}"));
        }
        let mcp_file = match kind {
            Kind::AgentPlugin => "mcp.json",
            _ => ".mcp.json",
        };
        if tree.entry(mcp_file)? != Entry::Missing && !mcp.iter().any(|m| m == mcp_file) {
            mcp.push(mcp_file.to_string());
        }
        if kind == Kind::AgentPlugin {
            // The one portable manifest: nothing supplements it (§5.1).
            break;
        }
    }
    if plugin.kinds.is_empty() {
        return Ok(None);
    }
    for root in &roots {
        skills_in(tree, root, origin, &mut plugin)?;
    }
    plugin.skills.sort();
    plugin.skills.dedup();
    if !mcp.is_empty() {
        plugin.warnings.push(format!(
            "its MCP servers ({}) are left out: skillpkg installs the plugin's skills, and does not run or register MCP servers",
            mcp.join(" and ")
        ));
    }
    Ok(Some(plugin))
}

/// Where skills are looked for.
enum Root {
    /// `skills/`: its folders holding a `SKILL.md`.
    Fixed(&'static str),
    /// A folder a manifest names (itself a skill, or a folder of skills).
    Named(String, &'static str),
}

/// The manifest of `kind`, when there is one.
fn read_manifest(
    tree: &dyn PluginTree,
    kind: Kind,
    origin: &str,
) -> anyhow::Result<Option<Vec<u8>>> {
    let file = kind.manifest();
    match tree.entry(file)? {
        Entry::Missing => Ok(None),
        Entry::File => match tree.read(file, MAX_MANIFEST)? {
            Some(bytes) => Ok(Some(bytes)),
            None => anyhow::bail!(
                Hinted::new(format!(
                    "{origin}: {file} is larger than {MAX_MANIFEST} bytes, which no plugin manifest needs"
                ))
                .hint("check the source: a manifest this large is broken or hostile")
            ),
        },
        Entry::Link { at, target } => {
            link_outside(&at, &target, origin)?;
            anyhow::bail!(
                Hinted::new(format!(
                    "{origin}: {file} is reached through the symbolic link {at}, which skillpkg does not follow"
                ))
                .hint("a plugin's manifest must be a file in the plugin itself")
            )
        }
        Entry::Folder | Entry::Other => anyhow::bail!(
            Hinted::new(format!("{origin}: {file} is not a file"))
                .hint("a plugin's manifest is a JSON file")
        ),
    }
}

/// The error refusing a manifest of `kind`.
fn refused(kind: Kind, refusal: Refusal, origin: &str) -> anyhow::Error {
    let file = kind.manifest();
    let skip = "to take one of its skills without the plugin, name its folder with --subdir";
    match refusal {
        Refusal::UnknownSchema(schema) => Hinted::new(format!(
            "{origin}: {file} declares \"$schema\": {schema:?}, a version of Agent Plugins that skillpkg does not read"
        ))
        .hint(format!(
            "skillpkg reads Agent Plugins 1.0.0 manifests (\"$schema\": \"{}\"); a newer skillpkg may read this one",
            manifest::SCHEMA_1_0_0
        ))
        .hint(skip),
        Refusal::Invalid(why) => {
            let error = Hinted::new(format!(
                "{origin}: {file} is not a valid {} manifest: {why}",
                match kind {
                    Kind::AgentPlugin => "Agent Plugins 1.0.0",
                    Kind::ClaudeCode => "Claude Code plugin",
                    Kind::Codex => "Codex plugin",
                }
            ));
            match kind {
                Kind::AgentPlugin => error.hint(
                    "the fields and their types are in the Agent Plugins specification, §5 (https://agent-plugins.org)",
                ),
                _ => error,
            }
            .hint(skip)
        }
    }
    .into()
}

/// A path a manifest gives, made relative to the plugin: `./a/b` is
/// `a/b`. `Ok(None)` when it is not plugin-relative (`a/b`, `~/x`);
/// `Err` when it leads outside (absolute, or climbing out with `..`).
fn plugin_relative(path: &str) -> Result<Option<String>, ()> {
    if path.starts_with('/') || path.contains('\0') {
        return Err(());
    }
    let Some(rest) = path.strip_prefix("./") else {
        return Ok(None);
    };
    Ok(Some(normal(&[], rest)?.join("/")))
}

/// The parts of `path` taken from the folder `base`, `.` and empty parts
/// dropped and `..` applied; `Err` when it climbs above the top.
fn normal<'p>(base: &[&'p str], path: &'p str) -> Result<Vec<&'p str>, ()> {
    let mut parts: Vec<&str> = base.to_vec();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop().ok_or(())?;
            }
            part => parts.push(part),
        }
    }
    Ok(parts)
}

/// Refuses the plugin when the link at `at` points outside it.
fn link_outside(at: &str, target: &str, origin: &str) -> anyhow::Result<()> {
    let parent: Vec<&str> = at.split('/').collect();
    let parent = &parent[..parent.len().saturating_sub(1)];
    if target.starts_with('/') || normal(parent, target).is_err() {
        bail_outside(origin, &format!("the symbolic link {at} (to {target:?})"))?;
    }
    Ok(())
}

fn bail_outside(origin: &str, what: &str) -> anyhow::Result<()> {
    anyhow::bail!(
        Hinted::new(format!(
            "{origin}: {what} leads outside the plugin, so the plugin is refused"
        ))
        .hint("a plugin may use only its own files; check where this source comes from")
    )
}

/// Adds the skill folders of `root` to `plugin`.
fn skills_in(
    tree: &dyn PluginTree,
    root: &Root,
    origin: &str,
    plugin: &mut Plugin,
) -> anyhow::Result<()> {
    let (folder, named_by) = match root {
        Root::Fixed(folder) => (folder.to_string(), None),
        Root::Named(folder, file) => (folder.clone(), Some(*file)),
    };
    let shown = if folder.is_empty() { "." } else { &folder };
    match tree.entry(&folder)? {
        Entry::Folder => {}
        Entry::Missing if named_by.is_none() => return Ok(()),
        Entry::Link { at, target } => {
            link_outside(&at, &target, origin)?;
            plugin.warnings.push(format!(
                "{shown} is reached through the symbolic link {at}, which skillpkg does not follow: its skills are skipped"
            ));
            return Ok(());
        }
        _ => {
            plugin.warnings.push(match named_by {
                Some(file) => format!("{file} names the skills folder {shown}, which is not a folder here, and is skipped"),
                None => format!("{shown} is not a folder: its skills are skipped"),
            });
            return Ok(());
        }
    }
    let join = |name: &str| match folder.as_str() {
        "" => name.to_string(),
        folder => format!("{folder}/{name}"),
    };
    // A folder a manifest names may be a skill itself.
    if named_by.is_some() && skill_md(tree, &folder, origin, plugin)? {
        plugin.skills.push(folder.clone());
        return Ok(());
    }
    let Some(children) = tree.children(&folder)? else {
        anyhow::bail!(
            Hinted::new(format!(
                "{origin}: {shown} holds more than {} entries",
                super::tree::MAX_CHILDREN
            ))
            .hint("name the skill's folder with --subdir")
        );
    };
    for (name, entry) in children {
        match entry {
            Entry::Folder if skill_md(tree, &join(&name), origin, plugin)? => {
                plugin.skills.push(join(&name));
            }
            Entry::Link { at, target } => {
                link_outside(&at, &target, origin)?;
                plugin.warnings.push(format!(
                    "{at} is a symbolic link, which skillpkg does not follow, and is skipped"
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether the folder holds a `SKILL.md` that is a file.
fn skill_md(
    tree: &dyn PluginTree,
    folder: &str,
    origin: &str,
    plugin: &mut Plugin,
) -> anyhow::Result<bool> {
    let path = match folder {
        "" => "SKILL.md".to_string(),
        folder => format!("{folder}/SKILL.md"),
    };
    match tree.entry(&path)? {
        Entry::File => Ok(true),
        Entry::Link { at, target } => {
            link_outside(&at, &target, origin)?;
            plugin.warnings.push(format!(
                "{at} is a symbolic link, which skillpkg does not follow, and is skipped"
            ));
            Ok(false)
        }
        _ => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_paths_stay_inside_the_plugin() {
        assert_eq!(plugin_relative("./skills/a"), Ok(Some("skills/a".into())));
        assert_eq!(plugin_relative("./a/../b/./c/"), Ok(Some("b/c".into())));
        assert_eq!(plugin_relative("./"), Ok(Some(String::new())));
        assert_eq!(plugin_relative("skills"), Ok(None));
        assert_eq!(plugin_relative("~/skills"), Ok(None));
        assert_eq!(plugin_relative("./../x"), Err(()));
        assert_eq!(plugin_relative("./a/../../x"), Err(()));
        assert_eq!(plugin_relative("/etc"), Err(()));
        assert!(link_outside("skills/a", "../b", "o").is_ok());
        assert!(link_outside("skills/a/b", "../../c", "o").is_ok());
        assert!(link_outside("skills/a", "../../b", "o").is_err());
        assert!(link_outside("skills/a", "/etc", "o").is_err());
        assert!(link_outside("a", "..", "o").is_err());
    }
}
