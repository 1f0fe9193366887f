//! One `exec` conversation: the system prompt and catalog, the loop over
//! model turns, and the audit log it writes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::bail;
use serde::Serialize;
use serde_json::json;

use super::audit::Audit;
use super::catalog::{self, Catalog};
use super::model::{self, Message, Model, scripted};
use super::pins::Pin;
use super::run::{Approver, Budgets, Outcome, Run, report_withdrawn};
use super::tools::Toolbox;
use super::tools::tool_policy::Policy;
use crate::hint::Hinted;
use crate::sandbox::Sandbox;
use crate::skill::Skill;

/// How the agent starts.
const BASE_INSTRUCTIONS: &str = "You are an agent working in the directory {workspace}, with tools to read and write files, run commands and use skills.

Skills are folders of instructions, scripts and references. The catalog below lists the skills you can use. When a task matches a skill's description, call use_skill with its name before starting, then follow its instructions; read its resources with read_resource and run its scripts with run_script only when the instructions call for them. Answer in plain text when the task is done.";

/// The system prompt: instructions, then the catalog.
pub fn system_prompt(workspace: &Path, catalog: &Catalog) -> String {
    format!(
        "{}\n\n{}",
        BASE_INSTRUCTIONS.replace("{workspace}", &workspace.display().to_string()),
        catalog.text
    )
}

/// What `exec` is asked to do.
pub struct ExecOptions<'a> {
    /// The task, or `/name args`.
    pub task: &'a str,
    /// Where tools work (the current directory).
    pub workspace: &'a Path,
    /// Where the audit goes (`<project>/.skillpkg`).
    pub state_dir: &'a Path,
    /// What may run.
    pub policy: Policy,
    /// Limits.
    pub budgets: Budgets,
    /// The catalog's budget in characters, when given (default: from the
    /// context window, see [`catalog::resolve_budget`]).
    pub catalog_budget: Option<usize>,
    /// The context window the project configures (`[agent]
    /// context_window`), which wins over the model's.
    pub context_window: Option<usize>,
    /// How long a script or shell command may run.
    pub timeout: Duration,
    /// Names whose skill in a lower root is hidden by a higher one.
    pub shadowed: Vec<String>,
    /// The skill roots, which the agent may not write in.
    pub skill_roots: Vec<PathBuf>,
    /// By skill name, the patterns of its `allowed-tools` the user has
    /// approved (DESIGN §11 step 2): only these pre-approve calls.
    pub grants: BTreeMap<String, Vec<String>>,
    /// By skill name, the tree an installed skill's grants were approved
    /// for: a skill whose folder differs when it is activated runs without
    /// them.
    pub pins: BTreeMap<String, Pin>,
    /// By skill name, the skills MCP servers serve, with the digests
    /// every read of their files is checked against.
    pub served: BTreeMap<String, super::remote_skills::Served>,
    /// Where scripts and shell commands run.
    pub sandbox: Sandbox,
    /// Says something to the user: why grants were withdrawn.
    pub warn: &'a (dyn Fn(&str) + Sync),
}

/// What `--dry-run` shows.
#[derive(Debug, Serialize)]
pub struct DryRun {
    /// The system prompt.
    pub system: String,
    /// The tools, as the model's API takes them in a request body.
    pub tools: serde_json::Value,
    /// The catalog's entries and omissions.
    pub catalog: Catalog,
    /// A rough token count of prompt and tools.
    pub estimated_tokens: u64,
}

/// The skills the model may see in the catalog. Whether one may is read
/// from a file of its own (`agents/openai.yaml`), looked for on every core
/// when there are many.
fn listed<'s>(skills: &[&'s Skill]) -> Vec<&'s Skill> {
    let invocable = crate::parallel::map_slice(skills, 256, |s| s.model_invocable());
    skills
        .iter()
        .zip(invocable)
        .filter_map(|(skill, invocable)| invocable.then_some(*skill))
        .collect()
}

/// The prompt and tools a run would send, without calling a model: for a
/// model of `provider` (`anthropic`, `openai`; skillpkg's own form of the
/// tools for any other) with `context_window` tokens.
pub fn dry_run(
    skills: &[&Skill],
    options: &ExecOptions,
    context_window: Option<usize>,
    provider: Option<&str>,
) -> anyhow::Result<DryRun> {
    let budget = catalog::resolve_budget(
        options.catalog_budget,
        options.context_window,
        context_window,
    );
    let catalog = catalog::build(&listed(skills), options.task, budget);
    let toolbox = Toolbox::new(options.workspace, skills)?;
    let system = system_prompt(toolbox.workspace(), &catalog);
    let tools = model::wire_tools(provider, &toolbox.specs());
    let chars = system.len() + serde_json::to_string(&tools)?.len();
    Ok(DryRun {
        estimated_tokens: scripted::estimate_tokens(chars),
        system,
        tools,
        catalog,
    })
}

/// A finished run.
#[derive(Debug, Serialize)]
pub struct Finished {
    /// What happened.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// The audit log.
    pub audit: PathBuf,
}

/// Runs the agent on `options.task`: catalog, loop, audit.
pub fn exec(
    model: &mut dyn Model,
    skills: &[&Skill],
    options: ExecOptions,
    on_text: &mut dyn FnMut(&str),
    approve: &mut Approver,
) -> anyhow::Result<Finished> {
    let mut session = Session::start(model.id(), &options)?;
    let outcome = session.send(model, skills, options.task, on_text, approve)?;
    Ok(Finished {
        outcome,
        audit: session.audit_path().to_path_buf(),
    })
}

/// A conversation: one audit log, messages kept from one input to the
/// next (the REPL sends many).
pub struct Session<'o> {
    options: &'o ExecOptions<'o>,
    audit: Audit,
    messages: Vec<Message>,
    /// The approved grants, with those approved at a prompt meanwhile.
    grants: BTreeMap<String, Vec<String>>,
    /// The pins of those grants not withdrawn or approved afresh.
    pins: BTreeMap<String, Pin>,
    /// The MCP-served skills, with those approved at a prompt meanwhile.
    served: BTreeMap<String, super::remote_skills::Served>,
}

impl<'o> Session<'o> {
    /// Opens the audit log and records how the run was set up.
    pub fn start(model_id: String, options: &'o ExecOptions<'o>) -> anyhow::Result<Session<'o>> {
        let mut audit = Audit::create(options.state_dir).map_err(|e| {
            anyhow::anyhow!(
                "could not create the audit log under {}: {e}",
                options.state_dir.display()
            )
        })?;
        audit.record(
            "start",
            json!({
                "model": model_id,
                "task": options.task,
                "workspace": options.workspace,
                "budgets": {
                    "max_turns": options.budgets.max_turns,
                    "max_tool_calls": options.budgets.max_tool_calls,
                    "max_tokens": options.budgets.max_tokens,
                },
                "policy": {
                    "yes": options.policy.yes,
                    "allow": options.policy.allow,
                    "deny": options.policy.deny,
                    "restrict": options.policy.restrict,
                },
                "grants": options.grants,
                "mcp_skills": options
                    .served
                    .iter()
                    .map(|(name, served)| (name.clone(), json!({"origin": served.origin, "approved": served.approved})))
                    .collect::<serde_json::Map<_, _>>(),
                "sandbox": options.sandbox.audit(),
            }),
        );
        Ok(Session {
            options,
            audit,
            messages: Vec::new(),
            grants: options.grants.clone(),
            pins: options.pins.clone(),
            served: options.served.clone(),
        })
    }

    /// The audit log.
    pub fn audit_path(&self) -> &Path {
        self.audit.path()
    }

    /// The events recorded so far.
    pub fn events(&self) -> &[serde_json::Value] {
        self.audit.events()
    }

    /// A run that stopped between a tool call and its result (a budget,
    /// a refusal) leaves calls unanswered; APIs refuse a conversation like
    /// that, so each gets an error result before the next input.
    fn answer_dangling_calls(&mut self) {
        let Some(last) = self.messages.last() else {
            return;
        };
        if last.role != model::Role::Assistant {
            return;
        }
        let results: Vec<model::Block> = last
            .blocks
            .iter()
            .filter_map(|b| match b {
                model::Block::ToolUse { id, .. } => Some(model::Block::ToolResult {
                    id: id.clone(),
                    content: "not run: the previous run stopped first".into(),
                    is_error: true,
                }),
                _ => None,
            })
            .collect();
        if !results.is_empty() {
            self.messages.push(Message {
                role: model::Role::User,
                blocks: results,
            });
        }
    }

    /// Sends one input (a task, or `/name args`) over `skills` as they are
    /// now, and runs the loop until the model answers.
    pub fn send(
        &mut self,
        model: &mut dyn Model,
        skills: &[&Skill],
        input: &str,
        on_text: &mut dyn FnMut(&str),
        approve: &mut Approver,
    ) -> anyhow::Result<Outcome> {
        let options = self.options;
        let budget = catalog::resolve_budget(
            options.catalog_budget,
            options.context_window,
            model.context_window(),
        );
        let catalog = catalog::build(&listed(skills), input, budget);
        let mut toolbox = Toolbox::new(options.workspace, skills)?;
        toolbox.protect_roots(&options.skill_roots);
        toolbox.timeout = options.timeout;
        toolbox.grants = self.grants.clone();
        toolbox.pins = self.pins.clone();
        toolbox.served = self.served.clone();
        toolbox.sandbox = options.sandbox.clone();
        let system = system_prompt(toolbox.workspace(), &catalog);
        self.audit.record(
            "catalog",
            json!({
                "budget": catalog.budget,
                "chars": catalog.text.len(),
                "skills": catalog.entries,
                "omitted": catalog.omitted,
                "shadowed": options.shadowed,
            }),
        );
        let first = match parse_slash(input) {
            Some((name, args)) => {
                let skill = skills.iter().find(|s| s.meta.name == name).ok_or_else(|| {
                    let names = skills.iter().map(|s| s.meta.name.as_str());
                    let error = Hinted::new(format!("/{name}: there is no skill named '{name}'"));
                    anyhow::anyhow!(match crate::hint::did_you_mean(name, names) {
                        Some(meant) => error.hint(format!("did you mean /{meant}?")),
                        None => error.hint("`skillpkg list` shows the skills"),
                    })
                })?;
                if !skill.meta.user_invocable() {
                    bail!(
                        "/{name}: the skill '{name}' is not user-invocable (user-invocable: false)"
                    );
                }
                let output = toolbox.activate(name, args).map_err(anyhow::Error::msg)?;
                report_withdrawn(&mut toolbox, &mut self.audit, options.warn);
                if let Some(disclosure) = &output.disclosure {
                    self.audit.record(
                        "disclosure",
                        json!({"via": "slash", "disclosure": disclosure}),
                    );
                }
                output.content
            }
            None => input.to_string(),
        };
        self.answer_dangling_calls();
        // Roles alternate: a new input joins a trailing user message.
        match self.messages.last_mut() {
            Some(last) if last.role == model::Role::User => {
                last.blocks.push(model::Block::Text { text: first });
            }
            _ => self.messages.push(Message::user(first)),
        }
        let mut run = Run {
            toolbox: &mut toolbox,
            policy: &options.policy,
            budgets: options.budgets,
            system: &system,
            audit: &mut self.audit,
            max_output_tokens: 8_192,
            warn: options.warn,
        };
        let outcome = run.run(model, &mut self.messages, on_text, approve);
        let changes = toolbox.changes();
        if let Some(changes) = &changes {
            self.audit.record("changes", json!(changes));
        }
        let outcome = outcome.map(|outcome| Outcome { changes, ..outcome });
        self.grants = toolbox.grants;
        self.pins = toolbox.pins;
        self.served = toolbox.served;
        outcome
    }
}

/// `/name args` → `(name, args)`.
pub fn parse_slash(task: &str) -> Option<(&str, &str)> {
    let rest = task.trim_start().strip_prefix('/')?;
    let (name, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    (!name.is_empty() && !name.contains('/')).then_some((name, args.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tools_with_ten_and_with_ten_thousand_skills_are_the_same() {
        let workspace = tempfile::tempdir().unwrap();
        let skills: Vec<Skill> = (0..10_000)
            .map(|i| Skill::sample(&format!("skill-{i:05}"), "Bulk. Use when testing."))
            .collect();
        let refs: Vec<&Skill> = skills.iter().collect();
        let options = ExecOptions {
            task: "task",
            workspace: workspace.path(),
            state_dir: workspace.path(),
            policy: Policy::default(),
            budgets: Budgets::default(),
            catalog_budget: None,
            context_window: None,
            timeout: Duration::from_secs(1),
            shadowed: Vec::new(),
            skill_roots: Vec::new(),
            grants: BTreeMap::new(),
            pins: BTreeMap::new(),
            served: BTreeMap::new(),
            sandbox: Sandbox::off(),
            warn: &|_| {},
        };
        for provider in [None, Some("anthropic"), Some("openai")] {
            let tools = |count: usize| {
                let plan = dry_run(&refs[..count], &options, None, provider).unwrap();
                serde_json::to_string(&plan.tools).unwrap()
            };
            assert_eq!(tools(10), tools(10_000), "{provider:?}");
        }
    }
}
