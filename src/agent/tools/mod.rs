//! The tools the model sees: `use_skill` (level 2), `read_resource` and
//! `run_script` (level 3), `search_skills`, and the general workspace tools
//! `read_file`, `list_dir`, `grep`, `write_file` and `shell`, all confined
//! to the workspace and the skill directories. Their schemas do not grow
//! with the number of skills.

pub(crate) mod approval;
pub mod command_line;
mod commands;
mod files;
mod read;
pub(crate) mod script_line;
mod skills;
pub(crate) mod tool_policy;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use serde_json::{Value, json};

use super::model::ToolSpec;
use super::slash::substitute;
use crate::sandbox::confine::Confinement;
use crate::sandbox::{self, Sandbox, SandboxMode, process, write_beneath};
use crate::skill::Skill;

/// The tools the model sees; a skill of one of these names never answers
/// that tool's calls.
pub(crate) const TOOL_NAMES: [&str; 9] = [
    "use_skill",
    "read_resource",
    "run_script",
    "search_skills",
    "read_file",
    "list_dir",
    "grep",
    "write_file",
    "shell",
];

/// Something the model was shown of a skill.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Disclosure {
    /// The skill.
    pub skill: String,
    /// 2: its body; 3: one of its resources.
    pub level: u8,
    /// The resource, for level 3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Bytes sent to the model.
    pub bytes: usize,
}

/// What a tool call gave back.
#[derive(Debug, Clone)]
pub(crate) struct ToolOutput {
    /// The text for the model.
    pub content: String,
    /// Whether the call failed.
    pub is_error: bool,
    /// What it disclosed of a skill.
    pub disclosure: Option<Disclosure>,
    /// Whether output was cut.
    pub truncated: bool,
}

impl ToolOutput {
    fn ok(content: impl Into<String>) -> ToolOutput {
        ToolOutput {
            content: content.into(),
            is_error: false,
            disclosure: None,
            truncated: false,
        }
    }

    /// A failed call, explained to the model.
    pub(crate) fn error(content: impl Into<String>) -> ToolOutput {
        ToolOutput {
            is_error: true,
            ..ToolOutput::ok(content)
        }
    }
}

/// The tools of one run and the state they keep (active skills).
pub(crate) struct Toolbox<'s> {
    workspace: PathBuf,
    skills: BTreeMap<String, &'s Skill>,
    invocable: Vec<String>,
    active: Vec<String>,
    loaded: BTreeSet<(String, String)>,
    /// In the order given, for the confinement's message.
    in_order: Vec<&'s Skill>,
    /// The skills' folders, canonical, found on first use: listing the
    /// tools (a dry run) needs none of them.
    skill_dirs: std::sync::OnceLock<Vec<PathBuf>>,
    /// The workspace and the skills' folders.
    confinement: std::sync::OnceLock<Confinement>,
    /// The roots the skills are in, canonical: never written by the agent,
    /// nor are the skills' folders.
    protected_roots: Vec<PathBuf>,
    /// By skill name, the patterns of its `allowed-tools` the user
    /// approved: only these pre-approve calls while it is active.
    pub grants: BTreeMap<String, Vec<String>>,
    /// By skill name, the tree an installed skill's grants were approved
    /// for: checked when the skill is activated ([`super::pins`]).
    pub pins: BTreeMap<String, super::pins::Pin>,
    /// The skills whose pin held when they were activated.
    pins_held: BTreeSet<String>,
    /// By skill name, the skills an MCP server serves: each read of their
    /// files is checked against the digests listed ([`super::remote_skills`]).
    pub served: BTreeMap<String, super::remote_skills::Served>,
    /// Grants withdrawn since [`Toolbox::take_withdrawn`] last ran.
    withdrawn: Vec<super::pins::Withdrawn>,
    /// How long a script or shell command may run.
    pub timeout: Duration,
    /// Bytes of each output stream kept.
    pub max_output: usize,
    /// Where scripts and shell commands run (default: no sandbox).
    pub sandbox: Sandbox,
    /// The commands' private `TMPDIR` (canonical), made on first use.
    tmpdir: Option<(tempfile::TempDir, PathBuf)>,
    /// The workspace before the first command or write of the run.
    before: Option<sandbox::changes::Snapshot>,
}

impl<'s> Toolbox<'s> {
    /// Tools over `skills` (the resolved set) in `workspace`.
    pub(crate) fn new(workspace: &Path, skills: &[&'s Skill]) -> anyhow::Result<Toolbox<'s>> {
        let workspace = std::fs::canonicalize(workspace)?;
        Ok(Toolbox {
            invocable: skills
                .iter()
                .filter(|s| s.model_invocable())
                .map(|s| s.meta.name.clone())
                .collect(),
            skills: skills.iter().map(|s| (s.meta.name.clone(), *s)).collect(),
            in_order: skills.to_vec(),
            active: Vec::new(),
            loaded: BTreeSet::new(),
            skill_dirs: Default::default(),
            confinement: Default::default(),
            protected_roots: Vec::new(),
            workspace,
            grants: BTreeMap::new(),
            pins: BTreeMap::new(),
            pins_held: BTreeSet::new(),
            served: BTreeMap::new(),
            withdrawn: Vec::new(),
            timeout: Duration::from_secs(120),
            max_output: 30_000,
            sandbox: Sandbox::off(),
            tmpdir: None,
            before: None,
        })
    }

    /// Protects the skill roots in `roots` too: the agent may not plant a
    /// new skill in one.
    pub(crate) fn protect_roots(&mut self, roots: &[PathBuf]) {
        self.protected_roots
            .extend(roots.iter().filter_map(|r| std::fs::canonicalize(r).ok()));
    }

    /// The skills' folders, canonical (those that resolve).
    fn skill_dirs(&self) -> &[PathBuf] {
        self.skill_dirs.get_or_init(|| {
            self.in_order
                .iter()
                .filter_map(|s| std::fs::canonicalize(&s.dir).ok())
                .collect()
        })
    }

    /// Where tools may read and write: the workspace and the skills'
    /// folders.
    fn confinement(&self) -> &Confinement {
        self.confinement.get_or_init(|| {
            Confinement::canonical(
                std::iter::once(self.workspace.clone())
                    .chain(self.skill_dirs().iter().cloned())
                    .collect(),
            )
        })
    }

    /// The workspace (canonical).
    pub(crate) fn workspace(&self) -> &Path {
        &self.workspace
    }

    /// Whether the model may activate `name`.
    pub(crate) fn is_invocable(&self, name: &str) -> bool {
        self.invocable.iter().any(|n| n == name)
    }

    /// The skills activated so far, with their `allowed-tools`.
    pub(crate) fn active(&self) -> Vec<tool_policy::ActiveSkill<'_>> {
        self.active
            .iter()
            .filter_map(|name| self.skills.get(name))
            .map(|s| tool_policy::ActiveSkill {
                name: s.meta.name.as_str(),
                allowed_tools: s.grantable_tools(),
                granted: match s.grantable_tools().is_empty() {
                    true => &[],
                    false => self.grants.get(&s.meta.name).map_or(&[], Vec::as_slice),
                },
            })
            .collect()
    }

    /// Approves every pattern of `name`'s `allowed-tools` for the rest of
    /// the run (the user said so at a prompt).
    pub(crate) fn grant_all(&mut self, name: &str) {
        // The user approved the skill as it is now.
        self.pins.remove(name);
        if let Some(served) = self.served.get_mut(name) {
            served.approved = true;
        }
        if let Some(skill) = self.skills.get(name) {
            self.grants
                .insert(name.to_string(), skill.grantable_tools().to_vec());
        }
    }

    /// Whether `name` is an MCP-served skill the user has not approved:
    /// its scripts run only once the user says so.
    pub(crate) fn needs_execution_approval(&self, name: &str) -> bool {
        self.served.get(name).is_some_and(|s| !s.approved)
    }

    /// Where the skill `name` was taken from, when an MCP server serves it.
    pub(crate) fn origin(&self, name: &str) -> Option<&str> {
        self.served.get(name).map(|s| s.origin.as_str())
    }

    /// Checks a file `path` (canonical) that lies in an MCP-served skill's
    /// folder against the digest its server listed; other files pass.
    fn check_served_path(&self, path: &Path) -> Result<(), String> {
        for (name, served) in &self.served {
            let Some(skill) = self.skills.get(name) else {
                continue;
            };
            let Ok(dir) = std::fs::canonicalize(&skill.dir) else {
                continue;
            };
            if let Ok(relative) = path.strip_prefix(&dir) {
                let relative = relative.to_string_lossy();
                return served
                    .check(&dir, &relative)
                    .map_err(|e| format!("refused: {e}"));
            }
        }
        Ok(())
    }

    /// The patterns of `name`'s `allowed-tools` the user has not approved.
    pub(crate) fn unapproved(&self, name: &str) -> Vec<String> {
        let Some(skill) = self.skills.get(name) else {
            return Vec::new();
        };
        let granted = self.grants.get(name).map_or(&[][..], Vec::as_slice);
        skill
            .grantable_tools()
            .iter()
            .filter(|p| !granted.contains(p))
            .cloned()
            .collect()
    }

    /// The tool schemas.
    pub(crate) fn specs(&self) -> Vec<ToolSpec> {
        let spec = |name: &str, description: &str, schema: Value| ToolSpec {
            name: name.into(),
            description: description.into(),
            input_schema: schema,
        };
        let path = json!({"type": "string"});
        vec![
            spec(
                "use_skill",
                "Load a skill's instructions (the body of its SKILL.md) before doing a task it describes. Returns the instructions, the skill's directory and its files.",
                // A plain string, checked when called: an enum of every
                // skill would grow the schema with the skill set.
                json!({"type": "object", "properties": {
                    "name": {"type": "string", "description": "The skill's name, as the catalog lists it."},
                    "args": {"type": "string", "description": "Arguments for the skill, as a user would type them after /name."}
                }, "required": ["name"]}),
            ),
            spec(
                "read_resource",
                "Read a file inside an activated skill's directory (references, assets, scripts).",
                json!({"type": "object", "properties": {"skill": {"type": "string"}, "path": path}, "required": ["skill", "path"]}),
            ),
            spec(
                "run_script",
                "Run a script from a skill's directory, with the workspace as working directory.",
                json!({"type": "object", "properties": {"skill": {"type": "string"}, "path": path, "args": {"type": "array", "items": {"type": "string"}}}, "required": ["skill", "path"]}),
            ),
            spec(
                "search_skills",
                "Search every available skill by keywords, including ones not listed in the catalog.",
                json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
            ),
            spec(
                "read_file",
                "Read a text file in the workspace.",
                json!({"type": "object", "properties": {"path": path}, "required": ["path"]}),
            ),
            spec(
                "list_dir",
                "List a directory in the workspace.",
                json!({"type": "object", "properties": {"path": path}, "required": ["path"]}),
            ),
            spec(
                "grep",
                "Find lines matching a regular expression in a file or under a directory of the workspace.",
                json!({"type": "object", "properties": {"pattern": {"type": "string"}, "path": path}, "required": ["pattern"]}),
            ),
            spec(
                "write_file",
                "Write a text file in the workspace (needs approval).",
                json!({"type": "object", "properties": {"path": path, "content": {"type": "string"}}, "required": ["path", "content"]}),
            ),
            spec(
                "shell",
                "Run a shell command in the workspace (needs approval).",
                json!({"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}),
            ),
        ]
    }

    /// Whether `name` is one of the tools the model sees.
    pub(crate) fn is_tool(name: &str) -> bool {
        TOOL_NAMES.contains(&name)
    }

    /// Runs a call. Unknown tools and bad arguments are errors for the model.
    pub(crate) fn call(&mut self, tool: &str, input: &Value) -> ToolOutput {
        let result = match tool {
            "use_skill" => self.use_skill(input),
            "read_resource" => self.read_resource(input),
            "run_script" => self.run_script(input),
            "search_skills" => str_arg(input, "query").map(|q| self.search_skills(q)),
            "read_file" => self.read_file(input),
            "list_dir" => self.list_dir(input),
            "grep" => self.grep(input),
            "write_file" => self.write_file(input),
            "shell" => self.shell(input),
            other => Err(format!("there is no tool named '{other}'")),
        };
        result.unwrap_or_else(ToolOutput::error)
    }
}

/// The arguments of a `run_script` call: a list of strings, or one
/// string split as a shell would.
fn script_args(input: &Value) -> Result<Vec<String>, String> {
    match &input["args"] {
        Value::Array(items) => Ok(items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| v.to_string())
            })
            .collect()),
        Value::Null => Ok(Vec::new()),
        Value::String(s) => Ok(super::slash::split_args(s)),
        other => Err(format!("args must be a list of strings, not {other}")),
    }
}

fn str_arg<'v>(input: &'v Value, key: &str) -> Result<&'v str, String> {
    input[key]
        .as_str()
        .ok_or_else(|| format!("missing string argument '{key}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tool_names_are_the_tools_the_model_is_shown() {
        let dir = tempfile::tempdir().unwrap();
        let toolbox = Toolbox::new(dir.path(), &[]).unwrap();
        let mut shown: Vec<String> = toolbox.specs().into_iter().map(|s| s.name).collect();
        let mut named: Vec<String> = TOOL_NAMES.iter().map(|n| n.to_string()).collect();
        shown.sort();
        named.sort();
        assert_eq!(shown, named);
    }
}
