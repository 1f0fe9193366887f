//! Sending a model request: one client and runtime, retries on 429 and
//! 5xx honouring `retry-after`, and the body read whole or as a stream.

use std::time::Duration;

use anyhow::{Context as _, bail};
use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, HeaderMap, RETRY_AFTER};

/// Attempts per request, the first included.
const ATTEMPTS: u32 = 4;
/// The wait before the first retry; it doubles with each one.
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
/// The longest `retry-after` honoured.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// A client for one model API.
pub struct Client {
    runtime: tokio::runtime::Runtime,
    client: reqwest::Client,
}

impl Client {
    /// A client whose requests give up after `timeout` without a byte.
    pub fn new(timeout: Duration) -> anyhow::Result<Client> {
        Ok(Client {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .context("could not start the async runtime")?,
            client: reqwest::Client::builder()
                .user_agent(concat!("skillpkg/", env!("CARGO_PKG_VERSION")))
                .connect_timeout(Duration::from_secs(30))
                .read_timeout(timeout)
                .build()
                .context("could not set up the HTTP client")?,
        })
    }

    /// POSTs `body` as JSON to `url` with `headers`, retrying what may
    /// pass; hands each chunk of a successful body to `on_chunk`.
    pub fn post(
        &self,
        url: &str,
        headers: HeaderMap,
        body: &serde_json::Value,
        on_chunk: &mut dyn FnMut(&[u8]) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        self.runtime.block_on(async {
            let body = serde_json::to_vec(body).context("could not encode the request")?;
            let mut last = String::new();
            for attempt in 0..ATTEMPTS {
                let mut wait = FIRST_BACKOFF * 2u32.pow(attempt);
                match self
                    .client
                    .post(url)
                    .headers(headers.clone())
                    .header(CONTENT_TYPE, "application/json")
                    .body(body.clone())
                    .send()
                    .await
                {
                    Ok(mut response) => {
                        let status = response.status();
                        if status.is_success() {
                            while let Some(chunk) = response
                                .chunk()
                                .await
                                .with_context(|| format!("{url}: the response broke off"))?
                            {
                                on_chunk(&chunk)?;
                            }
                            return Ok(());
                        }
                        let retry_after = retry_after(response.headers());
                        let text = response.text().await.unwrap_or_default();
                        let message = error_message(&text);
                        if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
                            wait = retry_after.map_or(wait, |after| after.min(MAX_RETRY_AFTER));
                            last = format!("{status}: {message}");
                        } else {
                            bail!("{url}: the server answered {status}: {message}");
                        }
                    }
                    Err(e) => last = e.to_string(),
                }
                if attempt + 1 < ATTEMPTS {
                    tokio::time::sleep(wait).await;
                }
            }
            bail!("{url}: {ATTEMPTS} attempts failed; the last: {last}")
        })
    }
}

impl Client {
    /// POSTs `body` and returns the JSON answer, read whole.
    pub fn post_json(
        &self,
        url: &str,
        headers: HeaderMap,
        body: &serde_json::Value,
    ) -> anyhow::Result<serde_json::Value> {
        let mut bytes = Vec::new();
        self.post(url, headers, body, &mut |chunk| {
            bytes.extend_from_slice(chunk);
            Ok(())
        })?;
        serde_json::from_slice(&bytes).with_context(|| format!("{url}: the response is not JSON"))
    }

    /// POSTs `body` and hands the JSON of each server-sent event to
    /// `on_event` as it arrives (`[DONE]` markers skipped).
    pub fn post_events(
        &self,
        url: &str,
        headers: HeaderMap,
        body: &serde_json::Value,
        on_event: &mut dyn FnMut(&serde_json::Value) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let mut parser = super::sse::Parser::default();
        self.post(url, headers, body, &mut |chunk| {
            for event in parser.feed(chunk) {
                if event.data.trim() == "[DONE]" {
                    continue;
                }
                let value = serde_json::from_str(&event.data)
                    .with_context(|| format!("{url}: an event that is not JSON"))?;
                on_event(&value)?;
            }
            Ok(())
        })
    }
}

/// A model at a server: what both API adapters hold.
pub struct Endpoint {
    /// The model's name at the server.
    pub model: String,
    /// The API's base URL, without a trailing slash.
    pub base_url: String,
    /// The API key, when the server needs one.
    pub api_key: Option<String>,
    /// Whether to stream answers.
    pub stream: bool,
    /// The client.
    pub client: Client,
}

impl Endpoint {
    /// `model` at `base_url`.
    pub fn new(
        model: &str,
        base_url: &str,
        api_key: Option<String>,
        stream: bool,
        client: Client,
    ) -> Endpoint {
        Endpoint {
            model: model.to_string(),
            base_url: base_url.trim_end_matches('/').to_string(),
            api_key,
            stream,
            client,
        }
    }
}

/// Passes the text of a turn read whole to `on_text`, as a stream would.
pub fn emit_text(turn: &super::Turn, on_text: &mut dyn FnMut(&str)) {
    let text = super::text_of(&turn.blocks);
    if !text.is_empty() {
        on_text(&text);
    }
}

fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let text = headers.get(RETRY_AFTER)?.to_str().ok()?;
    text.trim().parse::<f64>().ok().map(Duration::from_secs_f64)
}

/// The `error.message` of a JSON error body, else the body itself (cut).
fn error_message(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(str::to_string))
        .unwrap_or_else(|| body.chars().take(500).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_and_error_messages_are_read() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "2.5".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_millis(2500)));
        assert_eq!(
            error_message(r#"{"error": {"message": "rate limited"}}"#),
            "rate limited"
        );
        assert_eq!(error_message("Bad Gateway"), "Bad Gateway");
    }
}
