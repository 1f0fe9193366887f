//! `anthropic:<model>`: the Messages API, with tool use and SSE streaming.

use anyhow::{Context as _, bail};
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::{Value, json};

use super::http::{Endpoint, emit_text};
use super::{Block, Message, Model, Request, Role, StopReason, Turn, Usage};

/// The API's default address.
pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
const API_VERSION: &str = "2023-06-01";

/// An Anthropic model.
pub struct Anthropic(pub Endpoint);

impl Anthropic {
    fn body(&self, request: &Request) -> Value {
        json!({
            "model": self.0.model,
            "max_tokens": request.max_tokens,
            "system": request.system,
            "messages": request.messages.iter().map(message).collect::<Vec<_>>(),
            "tools": request.tools.iter().map(|t| json!({
                "name": t.name,
                "description": t.description,
                "input_schema": t.input_schema,
            })).collect::<Vec<_>>(),
            "stream": self.0.stream,
        })
    }
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

fn usage(value: &Value) -> Usage {
    let n = |key: &str| value[key].as_u64().unwrap_or(0);
    Usage {
        input_tokens: n("input_tokens"),
        output_tokens: n("output_tokens"),
        cache_read_tokens: n("cache_read_input_tokens"),
        cache_write_tokens: n("cache_creation_input_tokens"),
    }
}

fn stop_reason(value: &Value) -> StopReason {
    match value.as_str() {
        Some("end_turn" | "stop_sequence") | None => StopReason::EndTurn,
        Some("tool_use") => StopReason::ToolUse,
        Some("max_tokens") => StopReason::MaxTokens,
        Some(other) => StopReason::Other(other.to_string()),
    }
}

/// A whole (non-streamed) response.
fn parse_message(body: &Value) -> anyhow::Result<Turn> {
    let mut blocks = Vec::new();
    for block in body["content"]
        .as_array()
        .context("no content in the response")?
    {
        match block["type"].as_str() {
            Some("text") => blocks.push(Block::Text {
                text: block["text"].as_str().unwrap_or("").to_string(),
            }),
            Some("tool_use") => blocks.push(Block::ToolUse {
                id: block["id"].as_str().unwrap_or("").to_string(),
                name: block["name"].as_str().unwrap_or("").to_string(),
                input: block["input"].clone(),
            }),
            _ => {} // thinking and other blocks are not ours to show
        }
    }
    Ok(Turn {
        blocks,
        stop: stop_reason(&body["stop_reason"]),
        usage: usage(&body["usage"]),
    })
}

/// The state of a streamed response.
#[derive(Default)]
struct Stream {
    blocks: Vec<Block>,
    /// Partial JSON of tool inputs, by block position.
    partial: Vec<String>,
    stop: Option<StopReason>,
    usage: Usage,
}

impl Stream {
    fn event(&mut self, event: &Value, on_text: &mut dyn FnMut(&str)) -> anyhow::Result<()> {
        match event["type"].as_str() {
            Some("message_start") => self.usage = usage(&event["message"]["usage"]),
            Some("content_block_start") => {
                let block = &event["content_block"];
                self.blocks.push(match block["type"].as_str() {
                    Some("tool_use") => Block::ToolUse {
                        id: block["id"].as_str().unwrap_or("").to_string(),
                        name: block["name"].as_str().unwrap_or("").to_string(),
                        input: json!({}),
                    },
                    _ => Block::Text {
                        text: block["text"].as_str().unwrap_or("").to_string(),
                    },
                });
                self.partial.push(String::new());
            }
            Some("content_block_delta") => {
                let delta = &event["delta"];
                match (delta["type"].as_str(), self.blocks.last_mut()) {
                    (Some("text_delta"), Some(Block::Text { text })) => {
                        let piece = delta["text"].as_str().unwrap_or("");
                        on_text(piece);
                        text.push_str(piece);
                    }
                    (Some("input_json_delta"), Some(Block::ToolUse { .. })) => {
                        if let Some(partial) = self.partial.last_mut() {
                            partial.push_str(delta["partial_json"].as_str().unwrap_or(""));
                        }
                    }
                    _ => {}
                }
            }
            Some("content_block_stop") => {
                if let (Some(Block::ToolUse { input, .. }), Some(partial)) =
                    (self.blocks.last_mut(), self.partial.last())
                    && !partial.is_empty()
                {
                    *input = serde_json::from_str(partial).with_context(|| {
                        format!("a tool call's arguments are not JSON: {partial}")
                    })?;
                }
            }
            Some("message_delta") => {
                self.stop = Some(stop_reason(&event["delta"]["stop_reason"]));
                let more = usage(&event["usage"]);
                self.usage.output_tokens = more.output_tokens.max(self.usage.output_tokens);
            }
            Some("error") => bail!(
                "the model stream reported an error: {}",
                event["error"]["message"].as_str().unwrap_or("unknown")
            ),
            _ => {}
        }
        Ok(())
    }
}

impl Model for Anthropic {
    fn id(&self) -> String {
        format!("anthropic:{}", self.0.model)
    }

    fn context_window(&self) -> Option<usize> {
        self.0.model.starts_with("claude").then_some(200_000)
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
            Ok(Turn {
                blocks: stream.blocks,
                stop: stream.stop.unwrap_or(StopReason::EndTurn),
                usage: stream.usage,
            })
        } else {
            let turn = parse_message(&self.0.client.post_json(&url, headers, &body)?)?;
            emit_text(&turn, on_text);
            Ok(turn)
        }
    }
}
