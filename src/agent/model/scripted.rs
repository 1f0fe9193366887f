//! `scripted:<file>`: a deterministic model that replays turns from a JSON
//! file, for tests and evals.
//!
//! ```json
//! {"turns": [
//!   {"tool_calls": [{"name": "use_skill", "input": {"name": "pdf-processing"}}]},
//!   {"text": "The report says: {{last_tool_result}}"}
//! ], "repeat_last": false, "context_window": 200000}
//! ```
//!
//! A bare list of turns (`[{"text": "…"}, …]`) is the same as
//! `{"turns": [...]}` with the other fields left out. A turn has `text`
//! and/or `tool_calls` (each `{"name": …, "input": {…}}`), and may report
//! `usage`. `{{last_tool_result}}` in a turn's text is replaced by the
//! content of the most recent tool result in the conversation. With
//! `repeat_last`, the last turn is replayed forever (a model that never
//! stops); `context_window` is what the model reports as its window.

use std::path::{Path, PathBuf};

use anyhow::bail;
use serde::Deserialize;

use super::{Block, Model, Request, StopReason, Turn, Usage};
use crate::hint::Hinted;

/// The script file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Script {
    /// The turns, in order.
    pub turns: Vec<ScriptedTurn>,
    /// Replay the last turn forever once the others are used.
    #[serde(default)]
    pub repeat_last: bool,
    /// The context window to report.
    #[serde(default)]
    pub context_window: Option<usize>,
}

/// One scripted turn.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ScriptedTurn {
    /// Text of the answer.
    #[serde(default)]
    pub text: Option<String>,
    /// Tool calls, in order.
    #[serde(default)]
    pub tool_calls: Vec<ScriptedCall>,
    /// Usage to report (default: a rough count of the request and answer).
    #[serde(default)]
    pub usage: Option<Usage>,
}

/// One scripted tool call.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ScriptedCall {
    /// The tool.
    pub name: String,
    /// Its arguments.
    #[serde(default = "empty_object")]
    pub input: serde_json::Value,
}

fn empty_object() -> serde_json::Value {
    serde_json::Value::Object(Default::default())
}

/// The replaying model.
pub(crate) struct Scripted {
    path: PathBuf,
    script: Script,
    next: usize,
    calls: usize,
    /// The conversation's size as counted so far, for the usage estimate.
    sent: SentChars,
}

/// The serialised size of a conversation, counted incrementally: a run
/// only appends messages or extends the last one, so each turn measures
/// the messages it has not measured, and the last one again. A session of
/// T turns costs O(T) to estimate, not O(T²).
#[derive(Default)]
struct SentChars {
    /// The size of each message measured, in order.
    each: Vec<usize>,
    /// Their sum.
    total: usize,
}

impl SentChars {
    /// The serialised size of `messages`.
    fn of(&mut self, messages: &[super::Message]) -> usize {
        // Everything but the last message measured stays as it was; a
        // shorter conversation (never made by a run) is measured afresh.
        let keep = match messages.len() < self.each.len() {
            true => 0,
            false => self.each.len().saturating_sub(1),
        };
        for size in self.each.drain(keep..) {
            self.total -= size;
        }
        for message in &messages[keep..] {
            let size = serde_json::to_string(message).map_or(0, |s| s.len());
            self.each.push(size);
            self.total += size;
        }
        self.total
    }
}

impl Scripted {
    /// Reads the script at `path`.
    pub(crate) fn load(path: &Path) -> anyhow::Result<Scripted> {
        let text = fs_err::read_to_string(path)?;
        let invalid = || {
            Hinted::new(format!("{} is not a valid model script", path.display())).hint(
                "write {\"turns\": [{\"text\": \"…\"}, {\"tool_calls\": [{\"name\": \"…\", \"input\": {…}}]}]} (a bare list of turns works too), with optional \"repeat_last\": true and \"context_window\": N",
            )
        };
        let script: Script = match text.trim_start().starts_with('[') {
            true => serde_json::from_str::<Vec<ScriptedTurn>>(&text).map(|turns| Script {
                turns,
                repeat_last: false,
                context_window: None,
            }),
            false => serde_json::from_str(&text),
        }
        .map_err(|e| anyhow::Error::new(e).context(invalid()))?;
        if script.turns.is_empty() {
            bail!("{} has no turns", path.display());
        }
        Ok(Scripted {
            path: path.to_path_buf(),
            script,
            next: 0,
            calls: 0,
            sent: SentChars::default(),
        })
    }
}

/// A rough token count: four characters a token.
pub(crate) fn estimate_tokens(chars: usize) -> u64 {
    chars.div_ceil(4) as u64
}

impl Model for Scripted {
    fn id(&self) -> String {
        format!("scripted:{}", self.path.display())
    }

    fn context_window(&self) -> Option<usize> {
        self.script.context_window
    }

    fn complete(
        &mut self,
        request: &Request,
        on_text: &mut dyn FnMut(&str),
    ) -> anyhow::Result<Turn> {
        let index = if self.next < self.script.turns.len() {
            self.next
        } else if self.script.repeat_last {
            self.script.turns.len() - 1
        } else {
            bail!(
                Hinted::new(format!(
                    "the model script {} has {} turns and the run asked for turn {}",
                    self.path.display(),
                    self.script.turns.len(),
                    self.next + 1
                ))
                .hint("add a final turn with only text to end the run")
            );
        };
        self.next += 1;
        let turn = &self.script.turns[index];
        let mut blocks = Vec::new();
        if let Some(text) = &turn.text {
            let last_result = request
                .messages
                .iter()
                .flat_map(|m| &m.blocks)
                .filter_map(|b| match b {
                    Block::ToolResult { content, .. } => Some(content.as_str()),
                    _ => None,
                })
                .next_back()
                .unwrap_or("");
            let text = text.replace("{{last_tool_result}}", last_result);
            on_text(&text);
            blocks.push(Block::Text { text });
        }
        for call in &turn.tool_calls {
            self.calls += 1;
            blocks.push(Block::ToolUse {
                id: format!("call_{}", self.calls),
                name: call.name.clone(),
                input: call.input.clone(),
            });
        }
        let stop = if turn.tool_calls.is_empty() {
            StopReason::EndTurn
        } else {
            StopReason::ToolUse
        };
        let usage = turn.usage.unwrap_or_else(|| {
            let sent = request.system.len() + self.sent.of(request.messages);
            let answered = serde_json::to_string(&blocks).map_or(0, |s| s.len());
            Usage {
                input_tokens: estimate_tokens(sent),
                output_tokens: estimate_tokens(answered),
                ..Usage::default()
            }
        });
        Ok(Turn {
            blocks,
            stop,
            usage,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Block, Message};
    use super::SentChars;

    fn recounted(messages: &[Message]) -> usize {
        messages
            .iter()
            .map(|m| serde_json::to_string(m).unwrap().len())
            .sum()
    }

    #[test]
    fn the_conversation_is_measured_as_a_whole_recount_would_measure_it() {
        let mut sent = SentChars::default();
        let mut messages = vec![Message::user("task")];
        assert_eq!(sent.of(&messages), recounted(&messages));
        for turn in 0..5 {
            messages.push(Message::user(format!("answer {turn}")));
            assert_eq!(sent.of(&messages), recounted(&messages));
            // The last message grows (a new input joins it).
            messages.last_mut().unwrap().blocks.push(Block::Text {
                text: "more".repeat(turn + 1),
            });
            assert_eq!(sent.of(&messages), recounted(&messages));
        }
        messages.truncate(2);
        assert_eq!(sent.of(&messages), recounted(&messages));
    }
}
