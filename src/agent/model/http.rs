//! Sending a model request through the network layer ([`crate::net`]:
//! one client and runtime, retries on 429 and 5xx honouring
//! `retry-after`), and the body read whole or as a stream.

use std::time::Duration;

use anyhow::Context as _;
use reqwest::header::{CONTENT_TYPE, HeaderMap};

use crate::hint::Hinted;
use crate::net::{Attempt, Http, Redirects, RetryPolicy};

/// How long one model turn may take in all, retries included, unless
/// `SKILLPKG_MODEL_DEADLINE` says otherwise.
const DEFAULT_TURN_DEADLINE: Duration = Duration::from_secs(600);

fn turn_deadline() -> Duration {
    std::env::var(crate::env_vars::SKILLPKG_MODEL_DEADLINE)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(DEFAULT_TURN_DEADLINE, Duration::from_secs_f64)
}

/// How long a connection to a model API may take to open.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// A client for one model API.
pub(crate) struct Client {
    http: Http,
    retry: RetryPolicy,
}

impl Client {
    /// A client whose requests give up after `timeout` without a byte.
    pub(crate) fn new(timeout: Duration) -> anyhow::Result<Client> {
        Ok(Client {
            http: Http::new(CONNECT_TIMEOUT, timeout, Redirects::SameOrigin)?,
            retry: RetryPolicy::for_models(),
        })
    }

    /// POSTs `body` as JSON to `url` with `headers`, retrying what may
    /// pass; hands each chunk of a successful body to `on_chunk`.
    pub(crate) fn post(
        &self,
        url: &str,
        headers: HeaderMap,
        body: &serde_json::Value,
        on_chunk: &mut dyn FnMut(&[u8]) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let body = serde_json::to_vec(body).context("could not encode the request")?;
        let deadline = turn_deadline();
        let turn = async {
            let mut response = self
                .retry
                .run(url, || self.post_once(url, &headers, &body))
                .await?;
            while let Some(chunk) = response
                .chunk()
                .await
                .with_context(|| format!("{url}: the response broke off"))?
            {
                on_chunk(&chunk)?;
            }
            Ok(())
        };
        let interrupted = || anyhow::anyhow!("{url}: interrupted");
        self.http
            .block_on(async {
                tokio::select! {
                    finished = tokio::time::timeout(deadline, turn) => finished,
                    () = crate::agent::interrupt::requested_soon() => Ok(Err(interrupted())),
                }
            })
            .unwrap_or_else(|_| {
                Err(Hinted::new(format!(
                    "{url}: the model's answer took longer than {} s; abandoned",
                    deadline.as_secs_f64()
                ))
                .hint(format!(
                    "a server that only sends keepalives holds a run forever; {} sets the limit in seconds",
                    crate::env_vars::SKILLPKG_MODEL_DEADLINE
                ))
                .into())
            })
    }

    /// One attempt at a POST: the response when it succeeded.
    async fn post_once(
        &self,
        url: &str,
        headers: &HeaderMap,
        body: &[u8],
    ) -> Attempt<reqwest::Response> {
        let request = self
            .http
            .client()
            .post(url)
            .headers(headers.clone())
            .header(CONTENT_TYPE, "application/json")
            .body(body.to_vec());
        let sent = crate::net::send_described(request, |response| async move {
            let status = response.status();
            format!("{status}: {}", error_text(response, url).await)
        });
        let response = match sent.await {
            Ok(response) => response,
            Err(retry) => return retry,
        };
        let status = response.status();
        if status.is_success() {
            return Attempt::Done(response);
        }
        let message = error_text(response, url).await;
        Attempt::Fail(anyhow::anyhow!(
            "{url}: the server answered {status}: {message}"
        ))
    }
}

impl Client {
    /// POSTs `body` and returns the JSON answer, read whole.
    pub(crate) fn post_json(
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
    pub(crate) fn post_events(
        &self,
        url: &str,
        headers: HeaderMap,
        body: &serde_json::Value,
        on_event: &mut dyn FnMut(&serde_json::Value) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let mut parser = super::sse::Parser::default();
        self.post(url, headers, body, &mut |chunk| {
            for event in parser.feed(chunk)? {
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
pub(crate) struct Endpoint {
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
    pub(crate) fn new(
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
pub(crate) fn emit_text(turn: &super::Turn, on_text: &mut dyn FnMut(&str)) {
    let text = super::text_of(&turn.blocks);
    if !text.is_empty() {
        on_text(&text);
    }
}

/// The most of an error answer's body that is read: a server that sends
/// more is not heard out (nor kept in memory).
const MAX_ERROR_BODY: u64 = 64 * 1024;

/// What an error answer says ([`error_message`]), its body read within
/// [`MAX_ERROR_BODY`].
async fn error_text(response: reqwest::Response, url: &str) -> String {
    match crate::net::read_body::<()>(response, MAX_ERROR_BODY, url).await {
        Ok(body) => error_message(&String::from_utf8_lossy(&body)),
        Err(_) => format!("(an answer over {MAX_ERROR_BODY} bytes, or broken off, not shown)"),
    }
}

/// The `error.message` of a JSON error body, else the body itself, as an
/// error may quote it ([`super::quoted`]).
fn error_message(body: &str) -> String {
    let message = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(str::to_string));
    super::quoted(message.as_deref().unwrap_or(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_answer_that_claims_gigabytes_is_not_waited_for() {
        use std::io::{Read as _, Write as _};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/v1/messages", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            // A body it never finishes sending.
            let _ = stream.write_all(
                b"HTTP/1.1 400 Bad Request\r\nContent-Length: 10000000000\r\n\r\n{\"error\"",
            );
            std::thread::sleep(Duration::from_secs(60));
        });
        let client = Client::new(Duration::from_secs(60)).unwrap();
        let started = std::time::Instant::now();
        let error = client
            .post(&url, HeaderMap::new(), &serde_json::json!({}), &mut |_| {
                Ok(())
            })
            .unwrap_err();
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "it waited for the body"
        );
        let text = format!("{error:#}");
        assert!(text.contains("400 Bad Request"), "{text}");
        assert!(text.contains("not shown"), "{text}");
    }

    #[test]
    fn error_messages_are_read() {
        assert_eq!(
            error_message(r#"{"error": {"message": "rate limited"}}"#),
            "rate limited"
        );
        assert_eq!(error_message("Bad Gateway"), "Bad Gateway");
    }
}
