//! The model seam: neutral message types every adapter maps to and from,
//! and the [`Model`] trait the loop drives.

pub mod anthropic;
pub(crate) mod http;
pub mod openai;
pub(crate) mod scripted;
pub(crate) mod select;
pub mod sse;
pub(crate) mod windows;

/// The most content blocks (text, tool calls) one model turn may hold: a
/// streamed index beyond it is refused before anything is allocated for it.
pub const MAX_BLOCKS: usize = 256;

use serde::{Deserialize, Serialize};

/// Characters of a model's output an error message quotes, at most.
pub(crate) const QUOTED_CHARS: usize = 300;

/// What an error message may quote of `text`, which a model (or its
/// server) sent: all of it when it is short, else its first
/// [`QUOTED_CHARS`] characters and a note of its full size. Every error
/// that echoes model output goes through here, so a model cannot fill the
/// terminal, a log or an eval report with one bad answer.
pub fn quoted(text: &str) -> String {
    quoted_within(text, QUOTED_CHARS)
}

/// [`quoted`] with room for `chars` characters: for a tool's error, which
/// goes back to the model and may explain more than it quotes.
pub(crate) fn quoted_within(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} bytes in all)", &text[..cut], text.len()),
    }
}

/// Who said a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user, and tool results sent back to the model.
    User,
    /// The model.
    Assistant,
}

/// One part of a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// The model asks for a tool call.
    ToolUse {
        /// The call's id, echoed by its result.
        id: String,
        /// The tool.
        name: String,
        /// Its arguments.
        input: serde_json::Value,
    },
    /// The result of a tool call.
    ToolResult {
        /// The id of the call.
        id: String,
        /// What the tool returned.
        content: String,
        /// Whether the call failed.
        is_error: bool,
    },
}

/// A message of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Who said it.
    pub role: Role,
    /// Its parts.
    pub blocks: Vec<Block>,
}

impl Message {
    /// A user message of plain text.
    pub fn user(text: impl Into<String>) -> Message {
        Message {
            role: Role::User,
            blocks: vec![Block::Text { text: text.into() }],
        }
    }

    /// The text parts, joined.
    pub fn text(&self) -> String {
        text_of(&self.blocks)
    }
}

/// The text parts of `blocks`, joined.
pub(crate) fn text_of(blocks: &[Block]) -> String {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// A tool the model may call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolSpec {
    /// Its name.
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// A JSON Schema of its arguments.
    pub input_schema: serde_json::Value,
}

/// `tools` as a JSON array, each in the form `form` gives it.
fn tools_as(
    tools: &[ToolSpec],
    form: impl Fn(&ToolSpec) -> serde_json::Value,
) -> serde_json::Value {
    serde_json::Value::Array(tools.iter().map(form).collect())
}

/// `tools` as the API of `provider` (`anthropic`, `openai`) takes them in
/// a request body; skillpkg's own form for any other.
pub(crate) fn wire_tools(provider: Option<&str>, tools: &[ToolSpec]) -> serde_json::Value {
    match provider {
        Some("anthropic") => anthropic::wire_tools(tools),
        Some("openai") => openai::wire_tools(tools),
        _ => serde_json::to_value(tools).unwrap_or_default(),
    }
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// It finished its answer.
    EndTurn,
    /// It wants tool results.
    ToolUse,
    /// It ran out of output tokens.
    MaxTokens,
    /// Something else the provider said.
    Other(String),
}

/// Tokens used, cache fields included.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Input tokens billed at the full rate.
    #[serde(default)]
    pub input_tokens: u64,
    /// Output tokens.
    #[serde(default)]
    pub output_tokens: u64,
    /// Input tokens read from the provider's prompt cache.
    #[serde(default)]
    pub cache_read_tokens: u64,
    /// Input tokens written to the provider's prompt cache.
    #[serde(default)]
    pub cache_write_tokens: u64,
}

impl Usage {
    /// Every token counted.
    pub fn total(&self) -> u64 {
        self.input_tokens + self.output_tokens + self.cache_read_tokens + self.cache_write_tokens
    }
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.cache_read_tokens += other.cache_read_tokens;
        self.cache_write_tokens += other.cache_write_tokens;
    }
}

/// One answer of the model.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// Its text and tool calls, in order.
    pub blocks: Vec<Block>,
    /// Why it stopped.
    pub stop: StopReason,
    /// What it cost.
    pub usage: Usage,
}

/// What the loop sends.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The system prompt.
    pub system: &'a str,
    /// The conversation so far.
    pub messages: &'a [Message],
    /// The tools offered.
    pub tools: &'a [ToolSpec],
    /// The most output tokens for this turn.
    pub max_tokens: u32,
}

/// A language model behind some API.
pub trait Model {
    /// How the run names it (`anthropic:claude-…`).
    fn id(&self) -> String;
    /// Its context window in tokens, when known.
    fn context_window(&self) -> Option<usize>;
    /// One turn. Text is passed to `on_text` as it arrives.
    fn complete(
        &mut self,
        request: &Request,
        on_text: &mut dyn FnMut(&str),
    ) -> anyhow::Result<Turn>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_keeps_short_text_and_cuts_long_text_with_its_size() {
        assert_eq!(quoted("not json"), "not json");
        let long = "é".repeat(10 << 20);
        let cut = quoted(&long);
        assert!(cut.len() < 1_000, "{} bytes", cut.len());
        assert!(cut.starts_with(&"é".repeat(QUOTED_CHARS)));
        assert!(cut.ends_with(&format!("… ({} bytes in all)", long.len())));
        assert_eq!(quoted_within("abcdef", 3), "abc… (6 bytes in all)");
    }
}
