//! `openai:<model>`: Chat Completions with tool calls and streaming, for
//! OpenAI and every compatible server (Ollama, vLLM, llama.cpp).

use anyhow::{Context as _, bail};
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use serde_json::{Value, json};

use super::http::{Endpoint, emit_text};
use super::{Block, Message, Model, Request, Role, StopReason, Turn, Usage};

/// The API's default address.
pub(crate) const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

/// A Chat Completions model.
pub(crate) struct OpenAi(pub Endpoint);

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
            "tools": wire_tools(request.tools),
            "stream": self.0.stream,
        });
        if self.0.stream {
            body["stream_options"] = json!({"include_usage": true});
        }
        body
    }
}

/// The tools as Chat Completions takes them (`function` tools): what a
/// run sends, and what `exec --dry-run --json` shows.
pub(crate) fn wire_tools(tools: &[super::ToolSpec]) -> Value {
    super::tools_as(tools, |t| {
        json!({
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.input_schema},
        })
    })
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

/// What Chat Completions answers, as far as the agent reads it.
mod wire {
    use serde::{Deserialize, Deserializer};

    /// A field some servers send as `null` where others leave it out.
    fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
    where
        D: Deserializer<'de>,
        T: Default + Deserialize<'de>,
    {
        Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
    }

    /// A whole (non-streamed) response.
    #[derive(Debug, Deserialize)]
    pub(super) struct Completion {
        pub choices: Vec<Choice>,
        #[serde(default)]
        pub usage: Option<Usage>,
    }

    #[derive(Debug, Deserialize)]
    pub(super) struct Choice {
        pub message: Message,
        #[serde(default)]
        pub finish_reason: Option<String>,
    }

    #[derive(Debug, Deserialize)]
    pub(super) struct Message {
        #[serde(default)]
        pub content: Option<String>,
        #[serde(default, deserialize_with = "null_as_default")]
        pub tool_calls: Vec<ToolCall>,
    }

    #[derive(Debug, Deserialize)]
    pub(super) struct ToolCall {
        pub id: String,
        pub function: Function,
    }

    #[derive(Debug, Deserialize)]
    pub(super) struct Function {
        pub name: String,
        #[serde(default, deserialize_with = "null_as_default")]
        pub arguments: String,
    }

    /// Token counts.
    #[derive(Debug, Default, Deserialize)]
    pub(super) struct Usage {
        #[serde(default)]
        pub prompt_tokens: u64,
        #[serde(default)]
        pub completion_tokens: u64,
        #[serde(default)]
        pub prompt_tokens_details: Option<PromptDetails>,
    }

    #[derive(Debug, Default, Deserialize)]
    pub(super) struct PromptDetails {
        #[serde(default)]
        pub cached_tokens: u64,
    }

    /// One chunk of a streamed response.
    #[derive(Debug, Deserialize)]
    pub(super) struct Chunk {
        #[serde(default, deserialize_with = "null_as_default")]
        pub choices: Vec<ChunkChoice>,
        #[serde(default)]
        pub usage: Option<Usage>,
        #[serde(default)]
        pub error: Option<ErrorBody>,
    }

    #[derive(Debug, Deserialize)]
    pub(super) struct ChunkChoice {
        #[serde(default, deserialize_with = "null_as_default")]
        pub delta: Delta,
        #[serde(default)]
        pub finish_reason: Option<String>,
    }

    #[derive(Debug, Default, Deserialize)]
    pub(super) struct Delta {
        #[serde(default)]
        pub content: Option<String>,
        #[serde(default, deserialize_with = "null_as_default")]
        pub tool_calls: Vec<CallDelta>,
    }

    /// A piece of a tool call: its position, and parts of its id, name
    /// and arguments.
    #[derive(Debug, Deserialize)]
    pub(super) struct CallDelta {
        #[serde(default)]
        pub index: usize,
        #[serde(default)]
        pub id: Option<String>,
        #[serde(default, deserialize_with = "null_as_default")]
        pub function: FunctionDelta,
    }

    #[derive(Debug, Default, Deserialize)]
    pub(super) struct FunctionDelta {
        #[serde(default)]
        pub name: Option<String>,
        #[serde(default, deserialize_with = "null_as_default")]
        pub arguments: Option<String>,
    }

    #[derive(Debug, Deserialize)]
    pub(super) struct ErrorBody {
        #[serde(default)]
        pub message: String,
    }
}

impl From<wire::Usage> for Usage {
    fn from(usage: wire::Usage) -> Usage {
        let cached = usage
            .prompt_tokens_details
            .map_or(0, |details| details.cached_tokens);
        Usage {
            input_tokens: usage.prompt_tokens.saturating_sub(cached),
            output_tokens: usage.completion_tokens,
            cache_read_tokens: cached,
            cache_write_tokens: 0,
        }
    }
}

fn stop_reason(value: Option<&str>) -> StopReason {
    match value {
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
    serde_json::from_str(text).map_err(|e| {
        anyhow::anyhow!(
            "a tool call's arguments are not JSON ({e}): {}",
            super::quoted(text)
        )
    })
}

fn parse_completion(body: Value) -> anyhow::Result<Turn> {
    let completion: wire::Completion = serde_json::from_value(body).map_err(|e| {
        anyhow::anyhow!(
            "the response is not a chat completion: {}",
            super::quoted(&e.to_string())
        )
    })?;
    let Some(choice) = completion.choices.into_iter().next() else {
        bail!("no choices in the response");
    };
    let mut blocks = Vec::new();
    if let Some(text) = choice.message.content.filter(|t| !t.is_empty()) {
        blocks.push(Block::Text { text });
    }
    for call in choice.message.tool_calls {
        blocks.push(Block::ToolUse {
            id: call.id,
            name: call.function.name,
            input: arguments(&call.function.arguments)?,
        });
    }
    Ok(Turn {
        blocks,
        stop: stop_reason(choice.finish_reason.as_deref()),
        usage: completion.usage.unwrap_or_default().into(),
    })
}

/// A tool call being streamed.
#[derive(Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
}

/// The state of a streamed response: its text and tool calls so far.
/// Public for the `model_stream` fuzz target, which feeds it chunks.
#[derive(Default)]
pub struct Stream {
    text: String,
    calls: Vec<PartialCall>,
    stop: Option<StopReason>,
    usage: Usage,
}

impl Stream {
    /// Takes one chunk (the JSON of a server-sent event's data), passing
    /// streamed text to `on_text`.
    pub fn chunk(&mut self, chunk: &Value, on_text: &mut dyn FnMut(&str)) -> anyhow::Result<()> {
        let chunk: wire::Chunk = serde_json::from_value(chunk.clone()).map_err(|e| {
            anyhow::anyhow!(
                "a chunk that is not a chat completion chunk ({}): {}",
                super::quoted(&e.to_string()),
                super::quoted(&chunk.to_string())
            )
        })?;
        if let Some(error) = chunk.error {
            bail!(
                "the model stream reported an error: {}",
                super::quoted(&error.message)
            );
        }
        if let Some(usage) = chunk.usage {
            self.usage = usage.into();
        }
        let Some(choice) = chunk.choices.into_iter().next() else {
            return Ok(());
        };
        if let Some(piece) = choice.delta.content {
            on_text(&piece);
            self.text.push_str(&piece);
        }
        for call in choice.delta.tool_calls {
            if call.index >= super::MAX_BLOCKS {
                bail!(
                    "the model streamed tool call number {}, more than the {} a turn may hold",
                    call.index,
                    super::MAX_BLOCKS
                );
            }
            if self.calls.len() <= call.index {
                self.calls.resize_with(call.index + 1, PartialCall::default);
            }
            let partial = &mut self.calls[call.index];
            if let Some(id) = call.id {
                partial.id = id;
            }
            if let Some(name) = call.function.name {
                partial.name.push_str(&name);
            }
            if let Some(arguments) = call.function.arguments {
                partial.arguments.push_str(&arguments);
            }
        }
        if choice.finish_reason.is_some() {
            self.stop = Some(stop_reason(choice.finish_reason.as_deref()));
        }
        Ok(())
    }

    /// The turn the stream made; an error when a tool call lacks its id
    /// or name or its arguments are not JSON.
    pub fn finish(self) -> anyhow::Result<Turn> {
        let mut blocks = Vec::new();
        if !self.text.is_empty() {
            blocks.push(Block::Text { text: self.text });
        }
        for call in self.calls {
            if call.id.is_empty() || call.name.is_empty() {
                bail!("the model streamed a tool call without an id or a name");
            }
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
        super::windows::context_window("openai", &self.0.model)
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
                    stream.chunk(chunk, on_text)
                })?;
            stream.finish()
        } else {
            let turn = parse_completion(self.0.client.post_json(&url, headers, &body)?)?;
            emit_text(&turn, on_text);
            Ok(turn)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completions_with_null_fields_are_read() {
        let turn = parse_completion(json!({
            "choices": [{
                "message": {"content": null, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "grep", "arguments": "{\"pattern\":\"x\"}"}}
                ]},
                "finish_reason": "tool_calls"
            }],
            "usage": {"prompt_tokens": 10, "completion_tokens": 2, "prompt_tokens_details": {"cached_tokens": 4}}
        }))
        .unwrap();
        assert!(matches!(&turn.blocks[0], Block::ToolUse { input, .. } if input["pattern"] == "x"));
        assert_eq!(
            (turn.usage.input_tokens, turn.usage.cache_read_tokens),
            (6, 4)
        );

        let turn = parse_completion(json!({
            "choices": [{"message": {"content": "done", "tool_calls": null}, "finish_reason": "stop"}]
        }))
        .unwrap();
        assert!(matches!(&turn.blocks[..], [Block::Text { text }] if text == "done"));
    }

    #[test]
    fn a_tool_call_without_a_name_is_an_error() {
        let error = parse_completion(json!({
            "choices": [{"message": {"tool_calls": [{"id": "c1", "function": {"arguments": "{}"}}]}}]
        }))
        .unwrap_err();
        assert!(
            format!("{error:#}").contains("missing field `name`"),
            "{error:#}"
        );

        let mut stream = Stream::default();
        let chunk = json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}}]});
        stream.chunk(&chunk, &mut |_| {}).unwrap();
        let error = stream.finish().unwrap_err();
        assert!(
            error.to_string().contains("without an id or a name"),
            "{error}"
        );
    }

    #[test]
    fn stream_errors_are_reported() {
        let mut stream = Stream::default();
        let error = stream
            .chunk(&json!({"error": {"message": "overloaded"}}), &mut |_| {})
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "the model stream reported an error: overloaded"
        );
    }
}
