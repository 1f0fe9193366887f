//! `openai:<model>`: Chat Completions with tool calls and streaming, for
//! OpenAI and every compatible server (Ollama, vLLM, llama.cpp).

use anyhow::{Context as _, bail};
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use serde_json::{Value, json};

use super::http::{Endpoint, emit_text};
use super::{Block, Message, Model, Request, Role, StopReason, Turn, Usage};

/// The API's default address.
pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

/// A Chat Completions model.
pub struct OpenAi(pub Endpoint);

impl OpenAi {
    fn body(&self, request: &Request) -> Value {
        let mut messages = vec![json!({"role": "system", "content": request.system})];
        for message in request.messages {
            messages.extend(to_messages(message));
        }
        let mut body = json!({
            "model": self.0.model,
            "max_tokens": request.max_tokens,
            "messages": messages,
            "tools": request.tools.iter().map(|t| json!({
                "type": "function",
                "function": {"name": t.name, "description": t.description, "parameters": t.input_schema},
            })).collect::<Vec<_>>(),
            "stream": self.0.stream,
        });
        if self.0.stream {
            body["stream_options"] = json!({"include_usage": true});
        }
        body
    }
}

/// One neutral message as Chat Completions messages: tool results become
/// `tool` messages.
fn to_messages(message: &Message) -> Vec<Value> {
    let text = message.text();
    match message.role {
        Role::Assistant => {
            let calls: Vec<Value> = message
                .blocks
                .iter()
                .filter_map(|b| match b {
                    Block::ToolUse { id, name, input } => Some(json!({
                        "id": id,
                        "type": "function",
                        "function": {"name": name, "arguments": input.to_string()},
                    })),
                    _ => None,
                })
                .collect();
            let mut value = json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { text.into() }});
            if !calls.is_empty() {
                value["tool_calls"] = calls.into();
            }
            vec![value]
        }
        Role::User => {
            let mut out: Vec<Value> = message
                .blocks
                .iter()
                .filter_map(|b| match b {
                    Block::ToolResult { id, content, is_error } => Some(json!({
                        "role": "tool",
                        "tool_call_id": id,
                        "content": if *is_error { format!("error: {content}") } else { content.clone() },
                    })),
                    _ => None,
                })
                .collect();
            if !text.is_empty() {
                out.push(json!({"role": "user", "content": text}));
            }
            out
        }
    }
}

fn usage(value: &Value) -> Usage {
    let prompt = value["prompt_tokens"].as_u64().unwrap_or(0);
    let cached = value["prompt_tokens_details"]["cached_tokens"]
        .as_u64()
        .unwrap_or(0);
    Usage {
        input_tokens: prompt.saturating_sub(cached),
        output_tokens: value["completion_tokens"].as_u64().unwrap_or(0),
        cache_read_tokens: cached,
        cache_write_tokens: 0,
    }
}

fn stop_reason(value: &Value) -> StopReason {
    match value.as_str() {
        Some("stop") | None => StopReason::EndTurn,
        Some("tool_calls" | "function_call") => StopReason::ToolUse,
        Some("length") => StopReason::MaxTokens,
        Some(other) => StopReason::Other(other.to_string()),
    }
}

fn arguments(text: &str) -> anyhow::Result<Value> {
    if text.trim().is_empty() {
        return Ok(json!({}));
    }
    serde_json::from_str(text)
        .with_context(|| format!("a tool call's arguments are not JSON: {text}"))
}

fn parse_completion(body: &Value) -> anyhow::Result<Turn> {
    let choice = &body["choices"][0];
    let message = &choice["message"];
    if message.is_null() {
        bail!("no choices in the response");
    }
    let mut blocks = Vec::new();
    if let Some(text) = message["content"].as_str().filter(|t| !t.is_empty()) {
        blocks.push(Block::Text {
            text: text.to_string(),
        });
    }
    for call in message["tool_calls"].as_array().into_iter().flatten() {
        blocks.push(Block::ToolUse {
            id: call["id"].as_str().unwrap_or("").to_string(),
            name: call["function"]["name"].as_str().unwrap_or("").to_string(),
            input: arguments(call["function"]["arguments"].as_str().unwrap_or(""))?,
        });
    }
    Ok(Turn {
        blocks,
        stop: stop_reason(&choice["finish_reason"]),
        usage: usage(&body["usage"]),
    })
}

/// A tool call being streamed.
#[derive(Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
}

#[derive(Default)]
struct Stream {
    text: String,
    calls: Vec<PartialCall>,
    stop: Option<StopReason>,
    usage: Usage,
}

impl Stream {
    fn chunk(&mut self, chunk: &Value, on_text: &mut dyn FnMut(&str)) {
        if chunk["usage"].is_object() {
            self.usage = usage(&chunk["usage"]);
        }
        let Some(choice) = chunk["choices"].get(0) else {
            return;
        };
        let delta = &choice["delta"];
        if let Some(piece) = delta["content"].as_str() {
            on_text(piece);
            self.text.push_str(piece);
        }
        for call in delta["tool_calls"].as_array().into_iter().flatten() {
            let index = call["index"].as_u64().unwrap_or(0) as usize;
            while self.calls.len() <= index {
                self.calls.push(PartialCall::default());
            }
            let partial = &mut self.calls[index];
            if let Some(id) = call["id"].as_str() {
                partial.id = id.to_string();
            }
            if let Some(name) = call["function"]["name"].as_str() {
                partial.name.push_str(name);
            }
            if let Some(arguments) = call["function"]["arguments"].as_str() {
                partial.arguments.push_str(arguments);
            }
        }
        if !choice["finish_reason"].is_null() {
            self.stop = Some(stop_reason(&choice["finish_reason"]));
        }
    }

    fn finish(self) -> anyhow::Result<Turn> {
        let mut blocks = Vec::new();
        if !self.text.is_empty() {
            blocks.push(Block::Text { text: self.text });
        }
        for call in self.calls {
            blocks.push(Block::ToolUse {
                id: call.id,
                name: call.name,
                input: arguments(&call.arguments)?,
            });
        }
        Ok(Turn {
            blocks,
            stop: self.stop.unwrap_or(StopReason::EndTurn),
            usage: self.usage,
        })
    }
}

impl Model for OpenAi {
    fn id(&self) -> String {
        format!("openai:{}", self.0.model)
    }

    fn context_window(&self) -> Option<usize> {
        (self.0.model.starts_with("gpt-4o") || self.0.model.starts_with("gpt-4.1"))
            .then_some(128_000)
    }

    fn complete(
        &mut self,
        request: &Request,
        on_text: &mut dyn FnMut(&str),
    ) -> anyhow::Result<Turn> {
        let mut headers = HeaderMap::new();
        if let Some(key) = &self.0.api_key {
            let mut value = HeaderValue::from_str(&format!("Bearer {key}"))
                .context("OPENAI_API_KEY is not a valid header value")?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        let url = format!("{}/chat/completions", self.0.base_url);
        let body = self.body(request);
        if self.0.stream {
            let mut stream = Stream::default();
            self.0
                .client
                .post_events(&url, headers, &body, &mut |chunk| {
                    if chunk["error"].is_object() {
                        bail!(
                            "the model stream reported an error: {}",
                            chunk["error"]["message"]
                        );
                    }
                    stream.chunk(chunk, on_text);
                    Ok(())
                })?;
            stream.finish()
        } else {
            let turn = parse_completion(&self.0.client.post_json(&url, headers, &body)?)?;
            emit_text(&turn, on_text);
            Ok(turn)
        }
    }
}
