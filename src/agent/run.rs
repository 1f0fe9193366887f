//! The tool-calling loop: the model answers, its tool calls go through the
//! policy and the toolbox, results go back, until it answers without a
//! tool call, a budget ends the run, or the user interrupts.

use serde::Serialize;
use serde_json::{Value, json};

use super::audit::Audit;
use super::model::{Block, Message, Model, Request, Role, ToolSpec, Usage, text_of};
use super::tools::tool_policy::{Call, Decision, Policy};
use super::tools::{ToolOutput, Toolbox};

/// Limits of one run.
#[derive(Debug, Clone, Copy)]
pub struct Budgets {
    /// Model turns.
    pub max_turns: u32,
    /// Tool calls.
    pub max_tool_calls: u32,
    /// Tokens, all kinds counted.
    pub max_tokens: u64,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets {
            max_turns: 25,
            max_tool_calls: 50,
            max_tokens: 500_000,
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Ending {
    /// The model answered.
    Answered,
    /// A budget ran out.
    Budget {
        /// Which one.
        budget: String,
        /// Its limit.
        limit: u64,
        /// The flag that raises it.
        flag: String,
    },
    /// A call needs approval and there was no one to ask.
    NeedsApproval {
        /// The tool.
        tool: String,
        /// The active skill whose unapproved `allowed-tools` ask for it.
        #[serde(skip_serializing_if = "Option::is_none")]
        skill: Option<String>,
        /// The `--allow-tool` patterns that would approve just this call
        /// ([`super::tools::tool_policy::exact_patterns`]); none when no
        /// pattern short of the whole tool would.
        allow: Vec<String>,
        /// Why no pattern short of the whole tool would approve it.
        #[serde(skip_serializing_if = "Option::is_none")]
        not_exact: Option<String>,
    },
    /// The user refused a call at the prompt.
    Refused {
        /// The tool.
        tool: String,
    },
    /// Ctrl-C.
    Interrupted,
}

/// What a run did.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// The model's last text.
    pub answer: String,
    /// How it ended.
    pub ending: Ending,
    /// Model turns taken.
    pub turns: u32,
    /// Tool calls made.
    pub tool_calls: u32,
    /// Tokens used.
    pub usage: Usage,
    /// What the run's commands and writes changed in the workspace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<crate::sandbox::changes::Changes>,
}

/// A call that needs the user's word.
#[derive(Debug, Clone, Copy)]
pub struct ApprovalRequest<'a> {
    /// The tool.
    pub tool: &'a str,
    /// Its input.
    pub input: &'a Value,
    /// The active skill whose `allowed-tools` ask for this call, with the
    /// patterns of them the user has not approved.
    pub skill: Option<(&'a str, &'a [String])>,
    /// Where that skill was taken from, when an MCP server serves it
    /// (`mcp:<server>`): answering 'a' approves it, scripts included.
    pub origin: Option<&'a str>,
}

/// What the user said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Run this call.
    Yes,
    /// Do not; the run stops.
    No,
    /// Approve the asking skill's grants (the approver records them), and
    /// run this call.
    ApproveSkill,
}

/// Asks the user about a call; `None` when no one can be asked.
pub(crate) type Approver<'a> = dyn FnMut(&ApprovalRequest) -> Option<Answer> + 'a;

/// Everything a run needs besides the model.
pub(crate) struct Run<'a, 's> {
    /// The tools.
    pub toolbox: &'a mut Toolbox<'s>,
    /// What may run.
    pub policy: &'a Policy,
    /// Limits.
    pub budgets: Budgets,
    /// The system prompt.
    pub system: &'a str,
    /// The audit log.
    pub audit: &'a mut Audit,
    /// Most output tokens per turn.
    pub max_output_tokens: u32,
    /// Says something to the user: why grants were withdrawn.
    pub warn: &'a (dyn Fn(&str) + Sync),
}

impl Run<'_, '_> {
    /// Runs the loop from `messages` (the task, or an injected skill).
    pub(crate) fn run(
        &mut self,
        model: &mut dyn Model,
        messages: &mut Vec<Message>,
        on_text: &mut dyn FnMut(&str),
        approve: &mut Approver,
    ) -> anyhow::Result<Outcome> {
        let specs: Vec<ToolSpec> = self.toolbox.specs();
        let mut outcome = Outcome {
            answer: String::new(),
            ending: Ending::Answered,
            turns: 0,
            tool_calls: 0,
            usage: Usage::default(),
            changes: None,
        };
        let budget = |budget: &str, limit: u64, flag: &str| Ending::Budget {
            budget: budget.into(),
            limit,
            flag: flag.into(),
        };
        'run: loop {
            if super::interrupt::requested() {
                outcome.ending = Ending::Interrupted;
                break;
            }
            if outcome.turns >= self.budgets.max_turns {
                outcome.ending = budget("turns", self.budgets.max_turns.into(), "--max-turns");
                break;
            }
            let request = Request {
                system: self.system,
                messages,
                tools: &specs,
                max_tokens: self.max_output_tokens,
            };
            let started = std::time::Instant::now();
            let turn = match model.complete(&request, on_text) {
                Ok(turn) => turn,
                // Ctrl-C during the request: the run ends as interrupted.
                Err(_) if super::interrupt::requested() => {
                    outcome.ending = Ending::Interrupted;
                    break;
                }
                Err(e) => return Err(e),
            };
            outcome.turns += 1;
            outcome.usage += turn.usage;
            self.audit.record(
                "model_turn",
                json!({
                    "turn": outcome.turns,
                    "stop": turn.stop,
                    "usage": turn.usage,
                    "elapsed_ms": started.elapsed().as_millis() as u64,
                }),
            );
            let text = text_of(&turn.blocks);
            let spoke = !text.is_empty();
            if spoke {
                outcome.answer = text;
            }
            let calls: Vec<(String, String, Value)> = turn
                .blocks
                .iter()
                .filter_map(|b| match b {
                    Block::ToolUse { id, name, input } => {
                        Some((id.clone(), name.clone(), input.clone()))
                    }
                    _ => None,
                })
                .collect();
            messages.push(Message {
                role: Role::Assistant,
                blocks: turn.blocks,
            });
            if outcome.usage.total() > self.budgets.max_tokens {
                outcome.ending = budget("tokens", self.budgets.max_tokens, "--max-tokens");
                break;
            }
            if calls.is_empty() {
                break;
            }
            // Text before tool calls ends its line, so the next turn's starts afresh.
            if spoke && !outcome.answer.ends_with('\n') {
                on_text("\n");
            }
            let mut results = Vec::new();
            for (id, name, input) in calls {
                if super::interrupt::requested() {
                    outcome.ending = Ending::Interrupted;
                    break 'run;
                }
                if outcome.tool_calls >= self.budgets.max_tool_calls {
                    outcome.ending = budget(
                        "tool calls",
                        self.budgets.max_tool_calls.into(),
                        "--max-tool-calls",
                    );
                    break 'run;
                }
                outcome.tool_calls += 1;
                let output = match self.call(&name, input, approve) {
                    Ok(output) => output,
                    Err(ending) => {
                        outcome.ending = ending;
                        break 'run;
                    }
                };
                results.push(Block::ToolResult {
                    id,
                    content: output.content,
                    is_error: output.is_error,
                });
            }
            messages.push(Message {
                role: Role::User,
                blocks: results,
            });
        }
        self.audit.record(
            "end",
            json!({
                "ending": outcome.ending,
                "turns": outcome.turns,
                "tool_calls": outcome.tool_calls,
                "usage": outcome.usage,
            }),
        );
        Ok(outcome)
    }

    /// One tool call through routing, policy and the toolbox.
    fn call(
        &mut self,
        name: &str,
        mut input: Value,
        approve: &mut Approver,
    ) -> Result<ToolOutput, Ending> {
        // Models call skills by name; that means use_skill. A skill named
        // like a tool never answers that tool's calls.
        let mut tool = name.to_string();
        let mut routed_from = None;
        if !Toolbox::is_tool(name) && self.toolbox.is_invocable(name) {
            routed_from = Some(name.to_string());
            let args = input["args"].as_str().unwrap_or("").to_string();
            input = json!({"name": name, "args": args});
            tool = "use_skill".into();
        }
        self.audit.record(
            "tool_call",
            json!({"tool": tool, "input": input, "routed_from": routed_from}),
        );
        // A tool the model invents is the model's error, not the user's
        // question: it never reaches an approval prompt or a hint.
        if !Toolbox::is_tool(&tool) {
            let named: String = tool.chars().take(64).collect();
            let error = format!("there is no tool named {named:?}");
            return Ok(self.record_result(&tool, ToolOutput::error(error)));
        }
        let script = self.toolbox.script_line(&tool, &input);
        let call = Call {
            tool: &tool,
            input: &input,
            script: script.as_ref(),
        };
        let mut decision = self.policy.decide_call(call, &self.toolbox.active());
        // An MCP-served skill's scripts run only once the user approves it:
        // no flag or grant stands in for that.
        if let Some(line) = &script
            && self.toolbox.needs_execution_approval(&line.skill)
            && !matches!(decision, Decision::Refuse { .. })
        {
            decision = Decision::Ask {
                asked_by: Some(line.skill.clone()),
            };
        }
        let approved_by = match decision {
            Decision::Run { by } => by,
            Decision::Refuse { reason } => {
                self.audit.record(
                    "approval",
                    json!({"tool": tool, "decision": "refused", "reason": reason}),
                );
                return Ok(
                    self.record_result(&tool, ToolOutput::error(format!("refused: {reason}")))
                );
            }
            Decision::Ask { asked_by } => self.ask(&tool, &input, asked_by, approve)?,
        };
        self.audit.record(
            "approval",
            json!({"tool": tool, "decision": "run", "by": approved_by}),
        );
        let mut output = self.toolbox.call(&tool, &input);
        report_withdrawn(self.toolbox, self.audit, self.warn);
        if output.is_error {
            // Tool errors quote the model's arguments back to it.
            output.content = super::model::quoted_within(&output.content, 2_000);
        }
        Ok(self.record_result(&tool, output))
    }

    /// Asks the user about a call the policy left to them; returns who
    /// approved it, or how the run ends.
    fn ask(
        &mut self,
        tool: &str,
        input: &Value,
        asked_by: Option<String>,
        approve: &mut Approver,
    ) -> Result<String, Ending> {
        let unapproved = asked_by
            .as_deref()
            .map(|name| self.toolbox.unapproved(name))
            .unwrap_or_default();
        let request = ApprovalRequest {
            tool,
            input,
            skill: asked_by
                .as_deref()
                .map(|name| (name, unapproved.as_slice())),
            origin: asked_by
                .as_deref()
                .and_then(|name| self.toolbox.origin(name)),
        };
        let answer = approve(&request);
        let tool = tool.to_string();
        match (answer, asked_by) {
            (Some(Answer::ApproveSkill), Some(name)) => {
                self.toolbox.grant_all(&name);
                self.audit.record(
                    "grants_approved",
                    json!({"skill": name, "grants": unapproved}),
                );
                Ok(format!(
                    "the grants of skill '{name}', approved by the user"
                ))
            }
            (Some(Answer::Yes | Answer::ApproveSkill), _) => Ok("the user".to_string()),
            (Some(Answer::No), _) => {
                self.audit.record(
                    "approval",
                    json!({"tool": tool, "decision": "refused by the user"}),
                );
                Err(Ending::Refused { tool })
            }
            (None, skill) => {
                self.audit.record(
                    "approval",
                    json!({"tool": tool, "decision": "needs approval, and there is no terminal to ask"}),
                );
                let (allow, not_exact) =
                    match super::tools::tool_policy::exact_patterns(&tool, input) {
                        Ok(patterns) => (patterns, None),
                        Err(why) => (Vec::new(), Some(why)),
                    };
                Err(Ending::NeedsApproval {
                    tool,
                    skill,
                    allow,
                    not_exact,
                })
            }
        }
    }

    fn record_result(&mut self, tool: &str, output: ToolOutput) -> ToolOutput {
        if let Some(disclosure) = &output.disclosure {
            self.audit.record("disclosure", json!(disclosure));
        }
        self.audit.record(
            "tool_result",
            json!({
                "tool": tool,
                "bytes": output.content.len(),
                "is_error": output.is_error,
                "truncated": output.truncated,
                "output": truncate(&output.content, 2_000),
            }),
        );
        output
    }
}

/// Records in `audit`, and tells the user through `warn`, whose grants
/// `toolbox` withdrew since it was last asked: an activated skill whose
/// files are no longer those its grants were approved for.
pub(crate) fn report_withdrawn(toolbox: &mut Toolbox, audit: &mut Audit, warn: &dyn Fn(&str)) {
    for withdrawn in toolbox.take_withdrawn() {
        audit.record("grants_withdrawn", json!(withdrawn));
        warn(&withdrawn.warning());
    }
}

/// At most `max` bytes of `text`, cut at a character boundary.
fn truncate(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}
