//! `anthropic:<model>`: the Messages API, with tool use and SSE streaming.

use anyhow::{Context as _, bail};
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::{Value, json};

use super::http::{Endpoint, emit_text};
use super::{Block, Message, Model, Request, Role, StopReason, Turn, Usage};

/// The API's default address.
pub(crate) const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
const API_VERSION: &str = "2023-06-01";

/// An Anthropic model.
pub(crate) struct Anthropic(pub Endpoint);

impl Anthropic {
    fn body(&self, request: &Request) -> Value {
        json!({
            "model": self.0.model,
            "max_tokens": request.max_tokens,
            "system": request.system,
            "messages": request.messages.iter().map(message).collect::<Vec<_>>(),
            "tools": wire_tools(request.tools),
            "stream": self.0.stream,
        })
    }
}

/// The tools as the Messages API takes them (`input_schema`): what a run
/// sends, and what `exec --dry-run --json` shows.
pub(crate) fn wire_tools(tools: &[super::ToolSpec]) -> Value {
    super::tools_as(
        tools,
        |t| json!({"name": t.name, "description": t.description, "input_schema": t.input_schema}),
    )
}

fn message(message: &Message) -> Value {
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    let content: Vec<Value> = message
        .blocks
        .iter()
        .map(|block| match block {
            Block::Text { text } => json!({"type": "text", "text": text}),
            Block::ToolUse { id, name, input } => {
                json!({"type": "tool_use", "id": id, "name": name, "input": input})
            }
            Block::ToolResult {
                id,
                content,
                is_error,
            } => json!({"type": "tool_result", "tool_use_id": id, "content": content, "is_error": is_error}),
        })
        .collect();
    json!({"role": role, "content": content})
}

/// What the Messages API answers, as far as the agent reads it.
mod wire {
    use serde::Deserialize;
    use serde_json::Value;

    /// A whole (non-streamed) response.
    #[derive(Debug, Deserialize)]
    pub(super) struct Response {
        pub content: Vec<ContentBlock>,
        #[serde(default)]
        pub stop_reason: Option<String>,
        #[serde(default)]
        pub usage: Usage,
    }

    /// One block of content.
    #[derive(Debug, Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub(super) enum ContentBlock {
        Text {
            #[serde(default)]
            text: String,
        },
        ToolUse {
            id: String,
            name: String,
            #[serde(default)]
            input: Value,
        },
        /// Thinking and other blocks are not the agent's to show.
        #[serde(other)]
        Other,
    }

    /// Token counts.
    #[derive(Debug, Default, Deserialize)]
    pub(super) struct Usage {
        #[serde(default)]
        pub input_tokens: u64,
        #[serde(default)]
        pub output_tokens: u64,
        #[serde(default)]
        pub cache_read_input_tokens: u64,
        #[serde(default)]
        pub cache_creation_input_tokens: u64,
    }

    /// One server-sent event of a streamed response.
    #[derive(Debug, Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub(super) enum Event {
        MessageStart {
            message: MessageStart,
        },
        ContentBlockStart {
            #[serde(default)]
            index: Option<usize>,
            content_block: ContentBlock,
        },
        ContentBlockDelta {
            #[serde(default)]
            index: Option<usize>,
            delta: Delta,
        },
        ContentBlockStop {
            #[serde(default)]
            index: Option<usize>,
        },
        MessageDelta {
            delta: MessageDelta,
            #[serde(default)]
            usage: Usage,
        },
        Error {
            error: ErrorBody,
        },
        /// Pings and events the agent does not need.
        #[serde(other)]
        Other,
    }

    #[derive(Debug, Deserialize)]
    pub(super) struct MessageStart {
        #[serde(default)]
        pub usage: Usage,
    }

    /// A piece of a block.
    #[derive(Debug, Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub(super) enum Delta {
        #[serde(rename = "text_delta")]
        Text { text: String },
        #[serde(rename = "input_json_delta")]
        InputJson { partial_json: String },
        #[serde(other)]
        Other,
    }

    #[derive(Debug, Deserialize)]
    pub(super) struct MessageDelta {
        #[serde(default)]
        pub stop_reason: Option<String>,
    }

    #[derive(Debug, Deserialize)]
    pub(super) struct ErrorBody {
        #[serde(default)]
        pub message: String,
    }
}

impl From<wire::Usage> for Usage {
    fn from(usage: wire::Usage) -> Usage {
        Usage {
            input_tokens: usage.input_tokens,
            output_tokens: usage.output_tokens,
            cache_read_tokens: usage.cache_read_input_tokens,
            cache_write_tokens: usage.cache_creation_input_tokens,
        }
    }
}

impl wire::ContentBlock {
    /// The block as the agent keeps it; `None` for blocks it does not show.
    fn into_block(self) -> Option<Block> {
        match self {
            wire::ContentBlock::Text { text } => Some(Block::Text { text }),
            wire::ContentBlock::ToolUse { id, name, input } => {
                Some(Block::ToolUse { id, name, input })
            }
            wire::ContentBlock::Other => None,
        }
    }
}

fn stop_reason(value: Option<&str>) -> StopReason {
    match value {
        Some("end_turn" | "stop_sequence") | None => StopReason::EndTurn,
        Some("tool_use") => StopReason::ToolUse,
        Some("max_tokens") => StopReason::MaxTokens,
        Some(other) => StopReason::Other(other.to_string()),
    }
}

/// A whole (non-streamed) response.
fn parse_message(body: Value) -> anyhow::Result<Turn> {
    let response: wire::Response = serde_json::from_value(body).map_err(|e| {
        anyhow::anyhow!(
            "the response is not a Messages API answer: {}",
            super::quoted(&e.to_string())
        )
    })?;
    Ok(Turn {
        blocks: response
            .content
            .into_iter()
            .filter_map(wire::ContentBlock::into_block)
            .collect(),
        stop: stop_reason(response.stop_reason.as_deref()),
        usage: response.usage.into(),
    })
}

/// The state of a streamed response: blocks by their index (`None` for
/// blocks the agent does not show), with tool inputs' partial JSON.
/// Public for the `model_stream` fuzz target, which feeds it events.
#[derive(Default)]
pub struct Stream {
    blocks: Vec<Option<Block>>,
    partial: Vec<String>,
    stop: Option<StopReason>,
    usage: Usage,
}

impl Stream {
    /// Takes one event (the JSON of a server-sent event's data), passing
    /// streamed text to `on_text`.
    pub fn event(&mut self, event: &Value, on_text: &mut dyn FnMut(&str)) -> anyhow::Result<()> {
        let event: wire::Event = serde_json::from_value(event.clone()).map_err(|e| {
            anyhow::anyhow!(
                "an event the Messages API does not send ({}): {}",
                super::quoted(&e.to_string()),
                super::quoted(&event.to_string())
            )
        })?;
        match event {
            wire::Event::MessageStart { message } => self.usage = message.usage.into(),
            wire::Event::ContentBlockStart {
                index,
                content_block,
            } => {
                let at = index.unwrap_or(self.blocks.len());
                if at >= super::MAX_BLOCKS {
                    bail!(
                        "the model streamed content block number {at}, more than the {} a turn may hold",
                        super::MAX_BLOCKS
                    );
                }
                if self.blocks.len() <= at {
                    self.blocks.resize_with(at + 1, || None);
                    self.partial.resize_with(at + 1, String::new);
                }
                self.blocks[at] = content_block.into_block();
            }
            wire::Event::ContentBlockDelta { index, delta } => {
                let at = self.at(index);
                match (delta, self.blocks.get_mut(at).and_then(Option::as_mut)) {
                    (wire::Delta::Text { text: piece }, Some(Block::Text { text })) => {
                        on_text(&piece);
                        text.push_str(&piece);
                    }
                    (wire::Delta::InputJson { partial_json }, Some(Block::ToolUse { .. })) => {
                        self.partial[at].push_str(&partial_json);
                    }
                    _ => {}
                }
            }
            wire::Event::ContentBlockStop { index } => {
                let at = self.at(index);
                if let (Some(Some(Block::ToolUse { input, .. })), Some(partial)) =
                    (self.blocks.get_mut(at), self.partial.get(at))
                    && !partial.is_empty()
                {
                    *input = serde_json::from_str(partial).map_err(|e| {
                        anyhow::anyhow!(
                            "a tool call's arguments are not JSON ({e}): {}",
                            super::quoted(partial)
                        )
                    })?;
                }
            }
            wire::Event::MessageDelta { delta, usage } => {
                self.stop = Some(stop_reason(delta.stop_reason.as_deref()));
                self.usage.output_tokens = usage.output_tokens.max(self.usage.output_tokens);
            }
            wire::Event::Error { error } => {
                bail!(
                    "the model stream reported an error: {}",
                    super::quoted(&error.message)
                )
            }
            wire::Event::Other => {}
        }
        Ok(())
    }

    /// The block an event names, else the latest.
    fn at(&self, index: Option<usize>) -> usize {
        index.unwrap_or(self.blocks.len().saturating_sub(1))
    }

    /// The turn the stream made.
    pub fn finish(self) -> Turn {
        Turn {
            blocks: self.blocks.into_iter().flatten().collect(),
            stop: self.stop.unwrap_or(StopReason::EndTurn),
            usage: self.usage,
        }
    }
}

impl Model for Anthropic {
    fn id(&self) -> String {
        format!("anthropic:{}", self.0.model)
    }

    fn context_window(&self) -> Option<usize> {
        super::windows::context_window("anthropic", &self.0.model)
    }

    fn complete(
        &mut self,
        request: &Request,
        on_text: &mut dyn FnMut(&str),
    ) -> anyhow::Result<Turn> {
        let mut headers = HeaderMap::new();
        headers.insert("anthropic-version", HeaderValue::from_static(API_VERSION));
        if let Some(key) = &self.0.api_key {
            let mut value = HeaderValue::from_str(key)
                .context("ANTHROPIC_API_KEY is not a valid header value")?;
            value.set_sensitive(true);
            headers.insert("x-api-key", value);
        }
        let url = format!("{}/v1/messages", self.0.base_url);
        let body = self.body(request);
        if self.0.stream {
            let mut stream = Stream::default();
            self.0
                .client
                .post_events(&url, headers, &body, &mut |event| {
                    stream.event(event, on_text)
                })?;
            Ok(stream.finish())
        } else {
            let turn = parse_message(self.0.client.post_json(&url, headers, &body)?)?;
            emit_text(&turn, on_text);
            Ok(turn)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_into_blocks_and_unknown_blocks_are_skipped() {
        let turn = parse_message(json!({
            "content": [
                {"type": "thinking", "thinking": "hm"},
                {"type": "text", "text": "Reading it."},
                {"type": "tool_use", "id": "t1", "name": "read_file", "input": {"path": "a"}}
            ],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 10, "output_tokens": 3, "cache_read_input_tokens": 4}
        }))
        .unwrap();
        assert_eq!(turn.blocks.len(), 2);
        assert!(matches!(&turn.blocks[1], Block::ToolUse { id, .. } if id == "t1"));
        assert_eq!(turn.stop, StopReason::ToolUse);
        assert_eq!(
            (turn.usage.input_tokens, turn.usage.cache_read_tokens),
            (10, 4)
        );
    }

    #[test]
    fn a_tool_call_without_an_id_is_an_error_not_an_empty_id() {
        let error = parse_message(json!({
            "content": [{"type": "tool_use", "name": "read_file", "input": {}}]
        }))
        .unwrap_err();
        assert!(
            format!("{error:#}").contains("missing field `id`"),
            "{error:#}"
        );
    }

    #[test]
    fn streamed_blocks_follow_their_index() {
        let mut stream = Stream::default();
        let mut shown = String::new();
        for event in [
            json!({"type": "message_start", "message": {"usage": {"input_tokens": 5}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking"}}),
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Hi"}}),
            json!({"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "t", "name": "grep"}}),
            json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "{\"pattern\":"}}),
            json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "\"x\"}"}}),
            json!({"type": "content_block_stop", "index": 2}),
            json!({"type": "ping"}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 7}}),
        ] {
            stream.event(&event, &mut |t| shown.push_str(t)).unwrap();
        }
        let turn = stream.finish();
        assert_eq!(shown, "Hi");
        assert_eq!(turn.blocks.len(), 2);
        assert!(matches!(&turn.blocks[1], Block::ToolUse { input, .. } if input["pattern"] == "x"));
        assert_eq!((turn.usage.input_tokens, turn.usage.output_tokens), (5, 7));
    }
}
