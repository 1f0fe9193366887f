//! The HTTP client and its runtime, and the bounds of one request: its
//! deadline in all, its idle timeout, and the size of its body.

use std::future::Future;
use std::time::Duration;

use anyhow::Context as _;

use super::retry::{Attempt, error_chain, is_transient, retry_after, seconds_from_env};
use crate::env_vars;
use crate::hint::Hinted;

/// An HTTP client and the runtime its requests run on. Blocking callers
/// hand their async work to [`Http::block_on`].
pub struct Http {
    runtime: tokio::runtime::Runtime,
    client: reqwest::Client,
}

/// Which redirects a client follows (at most ten either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redirects {
    /// Any: for index files and archives, whose credentials go in the
    /// `Authorization` header, which is dropped on a move to another host.
    Any,
    /// Within the first request's origin only: for model APIs, whose keys
    /// travel in headers of their own that must never reach another server.
    SameOrigin,
    /// None: the caller follows them by hand, for OCI registries, whose
    /// rules depend on what is asked for (a blob may move to a CDN, a
    /// manifest may not).
    None,
}

impl Http {
    /// A client whose connections open within `connect_timeout` and whose
    /// requests give up after `read_timeout` without a byte, following
    /// `redirects`.
    pub fn new(
        connect_timeout: Duration,
        read_timeout: Duration,
        redirects: Redirects,
    ) -> anyhow::Result<Http> {
        let policy = match redirects {
            Redirects::Any => reqwest::redirect::Policy::limited(10),
            Redirects::None => reqwest::redirect::Policy::none(),
            Redirects::SameOrigin => reqwest::redirect::Policy::custom(|attempt| {
                let from = attempt.previous().first().map(reqwest::Url::origin);
                match (attempt.previous().len() < 10, from) {
                    (true, Some(from)) if from == attempt.url().origin() => attempt.follow(),
                    _ => attempt.stop(),
                }
            }),
        };
        Ok(Http {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .context("could not start the async runtime")?,
            client: reqwest::Client::builder()
                .tls_backend_preconfigured(super::tls::client_config()?)
                .user_agent(concat!("skillpkg/", env!("CARGO_PKG_VERSION")))
                .connect_timeout(connect_timeout)
                .read_timeout(read_timeout)
                .redirect(policy)
                .build()
                .context("could not set up the HTTP client")?,
        })
    }

    /// The client (cheap to clone: clones share connections).
    pub fn client(&self) -> &reqwest::Client {
        &self.client
    }

    /// Runs `work` to completion on this client's runtime.
    pub fn block_on<F: Future>(&self, work: F) -> F::Output {
        self.runtime.block_on(work)
    }
}

/// How long one request may take in all, connecting and reading included,
/// unless `SKILLPKG_HTTP_DEADLINE` says otherwise: a server that trickles
/// bytes never lets the idle timeout fire.
const DEFAULT_DEADLINE: Duration = Duration::from_secs(300);

/// `SKILLPKG_HTTP_DEADLINE` in seconds, else five minutes.
pub fn deadline_from_env() -> Duration {
    seconds_from_env(env_vars::SKILLPKG_HTTP_DEADLINE)
        .filter(|d| !d.is_zero())
        .unwrap_or(DEFAULT_DEADLINE)
}

/// Sends `request`: one attempt, the one way every request skillpkg makes
/// is sent. What breaks on the way (a connection refused or reset, a
/// timeout) may pass if asked again, and so may a transient answer (`429`,
/// `5xx`), after the `Retry-After` the server gives; both come back as
/// [`Attempt::Retry`] (an untrusted certificate fails for good, with its
/// hint). Any other answer is the caller's to read, its body within a cap
/// by [`read_body`] or [`read_body_into`].
pub async fn send<T>(request: reqwest::RequestBuilder) -> Result<reqwest::Response, Attempt<T>> {
    send_described(request, |response| async move {
        format!("the server answered {}", response.status())
    })
    .await
}

/// [`send`], with the cause of a retry told by `describe` from the
/// transient answer (a model API's error message is in its body).
pub async fn send_described<T, F, Fut>(
    request: reqwest::RequestBuilder,
    describe: F,
) -> Result<reqwest::Response, Attempt<T>>
where
    F: FnOnce(reqwest::Response) -> Fut,
    Fut: Future<Output = String>,
{
    let response = request.send().await.map_err(|e| Attempt::retry_error(&e))?;
    if is_transient(response.status()) {
        let retry_after = retry_after(response.headers());
        return Err(Attempt::Retry {
            cause: describe(response).await,
            retry_after,
        });
    }
    Ok(response)
}

/// Runs one attempt within `deadline`; past it, the attempt fails for
/// good (a server this slow would be as slow again).
pub async fn within_deadline<T>(
    deadline: Duration,
    url: &str,
    attempt: impl Future<Output = Attempt<T>>,
) -> Attempt<T> {
    match tokio::time::timeout(deadline, attempt).await {
        Ok(outcome) => outcome,
        Err(_) => Attempt::Fail(
            Hinted::new(format!(
                "{url}: no complete answer within {} s; abandoned",
                deadline.as_secs_f64()
            ))
            .hint(format!(
                "the server is too slow or holds the connection open; {} sets the limit in seconds",
                env_vars::SKILLPKG_HTTP_DEADLINE
            ))
            .into(),
        ),
    }
}

/// Reads a response's body, refusing more than `limit` bytes: by its
/// declared length before reading, else as soon as the bytes pass it.
/// A body that breaks off may pass if asked again; one too large won't.
pub async fn read_body<T>(
    response: reqwest::Response,
    limit: u64,
    url: &str,
) -> Result<Vec<u8>, Attempt<T>> {
    let mut body = Vec::new();
    stream_body(response, limit, url, |chunk| {
        body.extend_from_slice(chunk);
        Ok(())
    })
    .await?;
    Ok(body)
}

/// [`read_body`] into `file`, from its start (truncated first, so that a
/// retried download starts over), piece by piece: a body of any size
/// costs the same memory. Returns how many bytes were written.
pub async fn read_body_into<T>(
    response: reqwest::Response,
    limit: u64,
    url: &str,
    file: &std::fs::File,
) -> Result<u64, Attempt<T>> {
    use std::io::{Seek as _, Write as _};
    let mut out = file;
    if let Err(e) = file.set_len(0).and_then(|()| out.rewind()) {
        return Err(Attempt::Fail(
            anyhow::Error::new(e).context(format!("{url}: could not keep the answer")),
        ));
    }
    let mut written = 0;
    stream_body(response, limit, url, |chunk| {
        written += chunk.len() as u64;
        out.write_all(chunk)
    })
    .await?;
    Ok(written)
}

/// Hands each piece of a response's body to `sink`, refusing more than
/// `limit` bytes, as [`read_body`] says.
async fn stream_body<T>(
    mut response: reqwest::Response,
    limit: u64,
    url: &str,
    mut sink: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> Result<(), Attempt<T>> {
    let too_large = || {
        Attempt::Fail(
            Hinted::new(format!(
                "{url}: the answer is larger than {limit} bytes; refused"
            ))
            .hint("the server sends more than this file can hold; check the index's URL")
            .into(),
        )
    };
    if response
        .content_length()
        .is_some_and(|length| length > limit)
    {
        return Err(too_large());
    }
    let mut read: u64 = 0;
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                read += chunk.len() as u64;
                if read > limit {
                    return Err(too_large());
                }
                if let Err(e) = sink(&chunk) {
                    return Err(Attempt::Fail(
                        anyhow::Error::new(e).context(format!("{url}: could not keep the answer")),
                    ));
                }
            }
            Ok(None) => return Ok(()),
            Err(e) => {
                return Err(Attempt::Retry {
                    cause: format!("the body broke off: {}", error_chain(&e)),
                    retry_after: None,
                });
            }
        }
    }
}

/// `SKILLPKG_HTTP_TIMEOUT` in seconds, else `default`.
pub fn read_timeout_from_env(default: Duration) -> Duration {
    seconds_from_env(env_vars::SKILLPKG_HTTP_TIMEOUT)
        .filter(|d| !d.is_zero())
        .unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use std::io::{Read as _, Write as _};

    use super::*;

    /// A loopback server that answers each of `answers` to one request.
    fn serve(answers: Vec<&'static str>) -> String {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/f", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            for answer in answers {
                let (mut stream, _) = listener.accept().unwrap();
                let mut request = [0u8; 1024];
                let _ = stream.read(&mut request);
                stream.write_all(answer.as_bytes()).unwrap();
            }
        });
        url
    }

    #[test]
    fn a_transient_answer_is_retried_after_its_retry_after_and_any_other_is_the_callers() {
        let url = serve(vec![
            "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 2\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        ]);
        let http = Http::new(
            Duration::from_secs(5),
            Duration::from_secs(5),
            Redirects::Any,
        )
        .unwrap();
        let first = http.block_on(send::<()>(http.client().get(&url)));
        match first {
            Err(Attempt::Retry { cause, retry_after }) => {
                assert_eq!(cause, "the server answered 503 Service Unavailable");
                assert_eq!(retry_after, Some(Duration::from_secs(2)));
            }
            other => panic!("a 503 is retried, not {:?}", other.map(|r| r.status())),
        }
        let second = http.block_on(send::<()>(http.client().get(&url)));
        assert_eq!(second.ok().map(|r| r.status().as_u16()), Some(404));
    }
}
