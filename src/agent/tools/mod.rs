//! The tools the model sees: `use_skill` (level 2), `read_resource` and
//! `run_script` (level 3), `search_skills`, and the general workspace tools
//! `read_file`, `list_dir`, `grep`, `write_file` and `shell`, all confined
//! to the workspace and the skill directories. Their schemas do not grow
//! with the number of skills.

pub mod approval;
pub mod command_line;
pub mod policy;
mod read;
pub mod script_line;

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
use read::for_each_line;

/// Files listed with an activated skill, at most.
const MAX_LISTED_FILES: usize = 50;

/// The tools the model sees; a skill of one of these names never answers
/// that tool's calls.
pub const TOOL_NAMES: [&str; 9] = [
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
/// Hits `grep` returns, at most.
const MAX_GREP_HITS: usize = 200;
/// Entries `list_dir` returns, at most.
const MAX_LIST: usize = 500;

/// Something the model was shown of a skill.
#[derive(Debug, Clone, Serialize)]
pub struct Disclosure {
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
pub struct ToolOutput {
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
    pub fn error(content: impl Into<String>) -> ToolOutput {
        ToolOutput {
            is_error: true,
            ..ToolOutput::ok(content)
        }
    }
}

/// The tools of one run and the state they keep (active skills).
pub struct Toolbox<'s> {
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
    pub fn new(workspace: &Path, skills: &[&'s Skill]) -> anyhow::Result<Toolbox<'s>> {
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
    pub fn protect_roots(&mut self, roots: &[PathBuf]) {
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
    pub fn workspace(&self) -> &Path {
        &self.workspace
    }

    /// Whether the model may activate `name`.
    pub fn is_invocable(&self, name: &str) -> bool {
        self.invocable.iter().any(|n| n == name)
    }

    /// The skills activated so far, with their `allowed-tools`.
    pub fn active(&self) -> Vec<policy::ActiveSkill<'_>> {
        self.active
            .iter()
            .filter_map(|name| self.skills.get(name))
            .map(|s| policy::ActiveSkill {
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
    pub fn grant_all(&mut self, name: &str) {
        // The user approved the skill as it is now.
        self.pins.remove(name);
        if let Some(skill) = self.skills.get(name) {
            self.grants
                .insert(name.to_string(), skill.grantable_tools().to_vec());
        }
    }

    /// The patterns of `name`'s `allowed-tools` the user has not approved.
    pub fn unapproved(&self, name: &str) -> Vec<String> {
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
    pub fn specs(&self) -> Vec<ToolSpec> {
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
    pub fn is_tool(name: &str) -> bool {
        TOOL_NAMES.contains(&name)
    }

    /// Runs a call. Unknown tools and bad arguments are errors for the model.
    pub fn call(&mut self, tool: &str, input: &Value) -> ToolOutput {
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

    /// Level 2: activates a skill (the model's `use_skill`, or `/name`).
    /// A second identical activation returns a short note.
    pub fn activate(&mut self, name: &str, args: &str) -> Result<ToolOutput, String> {
        let skill = *self
            .skills
            .get(name)
            .ok_or_else(|| format!("there is no skill named '{name}'"))?;
        self.check_pin(name);
        if !self.loaded.insert((name.to_string(), args.to_string())) {
            return Ok(ToolOutput::ok(format!(
                "The skill '{name}' is already loaded with these arguments; its instructions are above."
            )));
        }
        let body = skill.read_instructions().map_err(|e| e.to_string())?;
        let names: Vec<String> = match skill.meta.extra.get("arguments") {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            Some(Value::String(s)) => s.split_whitespace().map(str::to_string).collect(),
            _ => Vec::new(),
        };
        let body = substitute(&body, args, &names);
        let files = list_files(&skill.dir);
        let mut text = format!(
            "<skill name=\"{name}\">\n{}\n</skill>\nSkill directory: {}\n",
            body.trim_end(),
            skill.dir.display()
        );
        if !files.is_empty() {
            text.push_str("Files:\n");
            for file in files.iter().take(MAX_LISTED_FILES) {
                text.push_str(&format!("- {file}\n"));
            }
            if files.len() > MAX_LISTED_FILES {
                text.push_str(&format!(
                    "- … and {} more\n",
                    files.len() - MAX_LISTED_FILES
                ));
            }
        }
        if !self.active.iter().any(|n| n == name) {
            self.active.push(name.to_string());
        }
        Ok(ToolOutput {
            disclosure: Some(Disclosure {
                skill: name.to_string(),
                level: 2,
                path: None,
                bytes: text.len(),
            }),
            ..ToolOutput::ok(text)
        })
    }

    /// Withdraws `name`'s grants for the rest of the run when its folder
    /// no longer holds the tree they were approved for. Hashes the folder
    /// once per toolbox, and only for a skill with grants and a pin.
    fn check_pin(&mut self, name: &str) {
        if !self.grants.contains_key(name) || self.pins_held.contains(name) {
            return;
        }
        let Some(pin) = self.pins.get(name) else {
            return;
        };
        match pin.check() {
            Ok(()) => {
                self.pins_held.insert(name.to_string());
            }
            Err(reason) => {
                self.grants.remove(name);
                self.pins.remove(name);
                self.withdrawn.push(super::pins::Withdrawn {
                    skill: name.to_string(),
                    reason,
                });
            }
        }
    }

    /// The grants withdrawn since the last call, for the audit and a
    /// warning.
    pub fn take_withdrawn(&mut self) -> Vec<super::pins::Withdrawn> {
        std::mem::take(&mut self.withdrawn)
    }

    fn use_skill(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let name = str_arg(input, "name")?;
        if !self.is_invocable(name) {
            return Err(if self.skills.contains_key(name) {
                format!(
                    "the skill '{name}' can only be invoked by the user (disable-model-invocation)"
                )
            } else {
                let meant =
                    crate::hint::did_you_mean(name, self.invocable.iter().map(String::as_str));
                match meant {
                    Some(meant) => format!(
                        "there is no skill named '{name}'; did you mean '{meant}'? (search_skills finds skills by keyword)"
                    ),
                    None => format!(
                        "there is no skill named '{name}'; search_skills finds skills by keyword"
                    ),
                }
            });
        }
        let args = input["args"].as_str().unwrap_or("");
        self.activate(name, args)
    }

    fn skill_dir(&self, input: &Value) -> Result<(&'s Skill, PathBuf), String> {
        let name = str_arg(input, "skill")?;
        let skill = *self
            .skills
            .get(name)
            .ok_or_else(|| format!("there is no skill named '{name}'"))?;
        let dir = std::fs::canonicalize(&skill.dir).map_err(|e| e.to_string())?;
        Ok((skill, dir))
    }

    /// The file `{skill, path}` names, confined to that skill's directory.
    fn resource<'v>(&self, input: &'v Value) -> Result<Resource<'s, 'v>, String> {
        let (skill, dir) = self.skill_dir(input)?;
        let relative = str_arg(input, "path")?;
        let path = Confinement::new([dir.clone()])
            .existing(&dir, relative)
            .map_err(|e| e.to_string())?;
        Ok(Resource {
            skill,
            dir,
            relative,
            path,
        })
    }

    fn read_resource(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let resource = self.resource(input)?;
        Ok(resource.disclose(read_text(&resource.path)?))
    }

    fn run_script(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let resource = self.resource(input)?;
        let (dir, relative, path) = (&resource.dir, resource.relative, &resource.path);
        let args = script_args(input)?;
        let outcome = self
            .launch(path, &args, &[("SKILL_DIR", dir)])
            .map_err(|e| format!("could not run {relative}: {e}"))?;
        Ok(resource.disclose(ToolOutput {
            is_error: outcome.code != Some(0),
            truncated: outcome.truncated,
            ..ToolOutput::ok(outcome.report())
        }))
    }

    /// For a `run_script` call, the command line that runs the same
    /// thing, for the policy to match against the skill's shell grants;
    /// `None` for other tools and for calls that would fail anyway.
    pub fn script_line(&self, tool: &str, input: &Value) -> Option<policy::ScriptLine> {
        if tool != "run_script" {
            return None;
        }
        let resource = self.resource(input).ok()?;
        let args = script_args(input).ok()?;
        Some(policy::ScriptLine {
            skill: resource.skill.meta.name.clone(),
            words: script_line::words(&resource.dir, &resource.path, &args),
        })
    }

    /// Every skill whose name or description holds a word of `query`,
    /// best first (the model-invocable ones only).
    pub fn search_skills(&self, query: &str) -> ToolOutput {
        let invocable: Vec<&Skill> = self
            .invocable
            .iter()
            .filter_map(|name| self.skills.get(name).copied())
            .collect();
        let hits: Vec<(&Skill, f64)> = super::rank::Ranker::new(&invocable)
            .rank(query)
            .into_iter()
            .filter(|(_, score)| *score > 0.0)
            .collect();
        if hits.is_empty() {
            return ToolOutput::ok("No skill matches those words.");
        }
        let lines: Vec<String> = hits
            .iter()
            .take(10)
            .map(|(s, _)| format!("- {}: {}", s.meta.name, s.meta.catalog_description()))
            .collect();
        ToolOutput::ok(format!("{}\nLoad one with use_skill.", lines.join("\n")))
    }

    fn read_file(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let path = self
            .confinement()
            .existing(&self.workspace, str_arg(input, "path")?)
            .map_err(|e| e.to_string())?;
        read_text(&path)
    }

    fn list_dir(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let relative = input["path"].as_str().unwrap_or(".");
        let path = self
            .confinement()
            .existing(&self.workspace, relative)
            .map_err(|e| e.to_string())?;
        let mut names: Vec<String> = std::fs::read_dir(&path)
            .map_err(|e| format!("{relative}: {e}"))?
            .filter_map(Result::ok)
            .map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    format!("{name}/")
                } else {
                    name
                }
            })
            .collect();
        names.sort();
        let truncated = names.len() > MAX_LIST;
        names.truncate(MAX_LIST);
        Ok(ToolOutput {
            truncated,
            ..ToolOutput::ok(names.join("\n"))
        })
    }

    fn grep(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let pattern = regex::Regex::new(str_arg(input, "pattern")?)
            .map_err(|e| format!("invalid pattern: {e}"))?;
        let relative = input["path"].as_str().unwrap_or(".");
        let root = self
            .confinement()
            .existing(&self.workspace, relative)
            .map_err(|e| e.to_string())?;
        let mut hits = Vec::new();
        let walk = ignore::WalkBuilder::new(&root).hidden(true).build();
        'files: for entry in walk.filter_map(Result::ok) {
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let Ok(file) = std::fs::File::open(entry.path()) else {
                continue;
            };
            let shown = entry
                .path()
                .strip_prefix(&self.workspace)
                .unwrap_or(entry.path())
                .display()
                .to_string();
            let reader = std::io::BufReader::new(file);
            let _ = for_each_line(reader, |number, line| {
                if pattern.is_match(line) {
                    hits.push(format!("{shown}:{number}: {line}"));
                }
                hits.len() <= MAX_GREP_HITS
            });
            if hits.len() > MAX_GREP_HITS {
                break 'files;
            }
        }
        let truncated = hits.len() > MAX_GREP_HITS;
        hits.truncate(MAX_GREP_HITS);
        if hits.is_empty() {
            return Ok(ToolOutput::ok("No matches."));
        }
        Ok(ToolOutput {
            truncated,
            ..ToolOutput::ok(hits.join("\n"))
        })
    }

    fn write_file(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let relative = str_arg(input, "path")?;
        let content = str_arg(input, "content")?;
        if self.sandbox.mode == SandboxMode::ReadOnly {
            return Err(format!(
                "{relative} was not written: this run is read-only (--sandbox read-only)"
            ));
        }
        let path = Confinement::new([self.workspace.clone()])
            .writable(&self.workspace, relative)
            .map_err(|e| e.to_string())?;
        if let Some(why) = self.read_only(&path) {
            return Err(format!("{relative} is read-only for the agent: {why}"));
        }
        self.snapshot_once();
        // Written relative to the workspace, following no symlink: a folder
        // swapped for a link since the check above fails the write.
        let inside = path
            .strip_prefix(&self.workspace)
            .map_err(|_| format!("{relative} is outside the workspace"))?;
        write_beneath::write_beneath(&self.workspace, inside, content.as_bytes())
            .map_err(|e| format!("{relative}: {e}"))?;
        Ok(ToolOutput::ok(format!(
            "Wrote {} bytes to {relative}.",
            content.len()
        )))
    }

    /// Why the agent may not write `path` (resolved, in the workspace), if
    /// it may not: the sandbox's one rule ([`sandbox::protected`]), with
    /// the skills' folders and roots of this run.
    fn read_only(&self, path: &Path) -> Option<&'static str> {
        let skills: Vec<PathBuf> = self
            .skill_dirs()
            .iter()
            .chain(&self.protected_roots)
            .cloned()
            .collect();
        sandbox::ProtectedPaths {
            workspace: &self.workspace,
            skills: &skills,
            allow_write: &self.sandbox.allow_write,
        }
        .why(path)
    }

    /// Takes the snapshot of the workspace that [`Toolbox::changes`]
    /// compares with, before the run's first command or write.
    fn snapshot_once(&mut self) {
        if self.before.is_none() {
            let max = sandbox::changes::MAX_FILES;
            self.before = Some(sandbox::changes::Snapshot::take(&self.workspace, max));
        }
    }

    /// What the run's commands and writes changed in the workspace; `None`
    /// when nothing ran that could.
    pub fn changes(&self) -> Option<sandbox::changes::Changes> {
        let before = self.before.as_ref()?;
        Some(before.changes(sandbox::changes::MAX_FILES))
    }

    /// Runs `program args…` in the workspace, in the run's sandbox.
    fn launch(
        &mut self,
        program: &Path,
        args: &[String],
        extra_env: &[(&str, &Path)],
    ) -> Result<process::Outcome, String> {
        if self.sandbox.mode != SandboxMode::Off && self.tmpdir.is_none() {
            let made = crate::fsutil::private_tempdir("skillpkg-tmp-", None)
                .and_then(|dir| Ok((std::fs::canonicalize(dir.path())?, dir)))
                .map_err(|e| format!("could not create a private temporary folder: {e}"))?;
            self.tmpdir = Some((made.1, made.0));
        }
        self.snapshot_once();
        let tmpdir = self.tmpdir.as_ref().map(|(_, path)| path.as_path());
        self.sandbox.warn_if_unavailable();
        let skill_dirs: Vec<PathBuf> = self
            .skills
            .values()
            .filter_map(|skill| std::fs::canonicalize(&skill.dir).ok())
            .collect();
        let command = self
            .sandbox
            .command(
                program,
                args,
                &self.workspace,
                tmpdir,
                extra_env,
                &skill_dirs,
            )
            .map_err(|e| e.to_string())?;
        let outcome =
            process::run(command, self.timeout, self.max_output).map_err(|e| e.to_string())?;
        if let Some(why) = sandbox::setup_failure(outcome.code, &outcome.stderr) {
            return Err(format!(
                "the sandbox could not be set up, so nothing ran: {why}"
            ));
        }
        Ok(outcome)
    }

    fn shell(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let command = str_arg(input, "command")?;
        let outcome = self
            .launch(
                Path::new("/bin/sh"),
                &["-c".to_string(), command.to_string()],
                &[],
            )
            .map_err(|e| format!("could not run the shell: {e}"))?;
        Ok(ToolOutput {
            is_error: outcome.code != Some(0),
            truncated: outcome.truncated,
            ..ToolOutput::ok(outcome.report())
        })
    }
}

/// A file of a skill's directory, resolved.
struct Resource<'s, 'v> {
    skill: &'s Skill,
    dir: PathBuf,
    relative: &'v str,
    path: PathBuf,
}

impl Resource<'_, '_> {
    /// `output`, recorded as a level-3 disclosure of this resource.
    fn disclose(&self, output: ToolOutput) -> ToolOutput {
        ToolOutput {
            disclosure: Some(Disclosure {
                skill: self.skill.meta.name.clone(),
                level: 3,
                path: Some(self.relative.to_string()),
                bytes: output.content.len(),
            }),
            ..output
        }
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

/// A file as `read_file` shows it (see [`read::read_text`]).
fn read_text(path: &Path) -> Result<ToolOutput, String> {
    let (shown, truncated) = read::read_text(path)?;
    Ok(ToolOutput {
        truncated,
        ..ToolOutput::ok(shown)
    })
}

/// The files of a skill directory, relative, sorted.
fn list_files(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            e.path()
                .strip_prefix(dir)
                .ok()
                .map(|p| p.display().to_string())
        })
        .filter(|p| p != "SKILL.md" && p != "skill.md")
        .collect();
    files.sort();
    files
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
