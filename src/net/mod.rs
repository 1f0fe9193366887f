//! The network layer: one way to build an HTTP client and its runtime, and
//! one retry policy, shared by the index transports and the model
//! adapters.
//!
//! A request that fails in a way that may pass (a connection error, a body
//! cut short, a read timeout, a 5xx or 429 answer) is tried again after an
//! exponential backoff with jitter; a server's `Retry-After` is taken as
//! the delay when it is longer; no delay exceeds [`MAX_DELAY`]. How many
//! times comes from `SKILLPKG_HTTP_RETRIES`; the first delay from
//! `SKILLPKG_HTTP_RETRY_DELAY`. What still fails keeps its cause.

use std::future::Future;
use std::hash::{BuildHasher as _, Hasher as _};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use reqwest::StatusCode;
use reqwest::header::{HeaderMap, RETRY_AFTER};

use crate::env_vars;
use crate::hint::Hinted;

pub mod git_probe;
mod origin;
mod tls;

pub use origin::{Origin, goes_to};

/// The longest wait between two attempts, whatever a server asks for.
pub const MAX_DELAY: Duration = Duration::from_secs(60);

/// Retries after the first attempt, unless `SKILLPKG_HTTP_RETRIES` says otherwise.
const DEFAULT_RETRIES: u32 = 3;

/// How long a publish may keep retrying pushes that others beat, unless
/// `SKILLPKG_PUBLISH_TIMEOUT` says otherwise.
const DEFAULT_PUBLISH_BUDGET: Duration = Duration::from_secs(60);

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
                .tls_backend_preconfigured(tls::client_config()?)
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
    mut response: reqwest::Response,
    limit: u64,
    url: &str,
) -> Result<Vec<u8>, Attempt<T>> {
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
    let mut body = Vec::new();
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                if body.len() as u64 + chunk.len() as u64 > limit {
                    return Err(too_large());
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(body),
            Err(e) => {
                return Err(Attempt::Retry {
                    cause: format!("the body broke off: {}", error_chain(&e)),
                    retry_after: None,
                });
            }
        }
    }
}

/// Credentials written into a URL (`https://user:secret@host/…`).
#[derive(Clone, PartialEq, Eq)]
pub struct UrlCredentials {
    /// The user name, percent-decoded.
    pub user: String,
    /// The password, percent-decoded, if one was given.
    pub password: Option<String>,
}

impl std::fmt::Debug for UrlCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UrlCredentials(…)")
    }
}

/// `url` without the credentials written into it, and those credentials.
/// What is shown, logged, locked or used to name a cache folder is the
/// URL without them. A user name or password that holds control
/// characters once percent-decoded is refused: it could inject lines into
/// a credential helper's protocol (git's CVE-2020-5260).
pub fn split_credentials(url: &str) -> anyhow::Result<(String, Option<UrlCredentials>)> {
    let Some((scheme, rest)) = url.split_once("://") else {
        return Ok((url.to_string(), None));
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    let Some((userinfo, host)) = authority.rsplit_once('@') else {
        return Ok((url.to_string(), None));
    };
    let decode = |part: &str| -> anyhow::Result<String> {
        let decoded = percent_decode(part);
        if decoded.chars().any(char::is_control) {
            anyhow::bail!(
                Hinted::new(format!(
                    "{scheme}://…@{host}{path}: the user name or password in the URL holds control characters; refused"
                ))
                .hint("such a URL can make git send your credentials to another host; check where it came from")
            );
        }
        Ok(decoded)
    };
    let (user, password) = match userinfo.split_once(':') {
        Some((user, password)) => (decode(user)?, Some(decode(password)?)),
        None => (decode(userinfo)?, None),
    };
    Ok((
        format!("{scheme}://{host}{path}"),
        Some(UrlCredentials { user, password }),
    ))
}

/// `text` with `%XX` escapes decoded (invalid ones kept as written), as
/// bytes: URL user info here, `file:` paths for git sources in `ops`.
pub fn percent_decode_bytes(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (byte, ..) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

/// [`percent_decode_bytes`], with bytes that are not UTF-8 replaced.
fn percent_decode(text: &str) -> String {
    String::from_utf8_lossy(&percent_decode_bytes(text)).into_owned()
}

/// `SKILLPKG_HTTP_TIMEOUT` in seconds, else `default`.
pub fn read_timeout_from_env(default: Duration) -> Duration {
    seconds_from_env(env_vars::SKILLPKG_HTTP_TIMEOUT)
        .filter(|d| !d.is_zero())
        .unwrap_or(default)
}

fn seconds_from_env(name: &str) -> Option<Duration> {
    std::env::var(name)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
}

/// When and how often to try a request again.
#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Attempts after the first.
    pub retries: u32,
    /// The delay before the first retry; it doubles with each one.
    pub first_delay: Duration,
    /// The longest wait between two attempts.
    pub max_delay: Duration,
    /// How long all attempts together may take: no retry starts whose
    /// wait would end past it. `None`: only `retries` limits them.
    pub budget: Option<Duration>,
    /// How waiting is done.
    pub clock: Clock,
    /// What to tell the user when every attempt failed.
    pub hint: String,
}

impl RetryPolicy {
    /// The policy for index files and archives: a short first delay.
    pub fn for_indexes() -> RetryPolicy {
        RetryPolicy {
            hint: "the server may be down or out of reach; try again later, or pass --offline to use what is cached".into(),
            ..RetryPolicy::from_env(Duration::from_millis(200))
        }
    }

    /// The policy for pushes to a git index that others push to at the
    /// same time: short waits (50 ms, doubling to at most 2 s, with
    /// jitter) for as long as `SKILLPKG_PUBLISH_TIMEOUT` allows (60 s by
    /// default), however many attempts that takes.
    pub fn for_pushes() -> RetryPolicy {
        let budget =
            seconds_from_env(env_vars::SKILLPKG_PUBLISH_TIMEOUT).unwrap_or(DEFAULT_PUBLISH_BUDGET);
        RetryPolicy {
            retries: u32::MAX,
            first_delay: Duration::from_millis(50),
            max_delay: Duration::from_secs(2),
            budget: Some(budget),
            clock: Clock::Real,
            hint: format!(
                "others kept pushing to the index first; publish again when it is quieter, or allow more time with {}=<seconds> (now {})",
                env_vars::SKILLPKG_PUBLISH_TIMEOUT,
                budget.as_secs_f64()
            ),
        }
    }

    /// The policy for model APIs, which rate-limit: a longer first delay.
    pub fn for_models() -> RetryPolicy {
        RetryPolicy::from_env(Duration::from_millis(500))
    }

    /// `first_delay` unless `SKILLPKG_HTTP_RETRY_DELAY` says otherwise, and
    /// the retries `SKILLPKG_HTTP_RETRIES` asks for.
    fn from_env(first_delay: Duration) -> RetryPolicy {
        RetryPolicy {
            retries: std::env::var(env_vars::SKILLPKG_HTTP_RETRIES)
                .ok()
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(DEFAULT_RETRIES),
            first_delay: seconds_from_env(env_vars::SKILLPKG_HTTP_RETRY_DELAY)
                .unwrap_or(first_delay),
            max_delay: MAX_DELAY,
            budget: None,
            clock: Clock::Real,
            hint: "the server may be down or out of reach; try again later".into(),
        }
    }

    /// The wait before retry number `retry` (0 for the first): the
    /// backoff, scaled by `jitter` (between 0.5 and 1), or what the server
    /// asked for when that is longer; never over the policy's `max_delay`.
    pub fn delay(&self, retry: u32, retry_after: Option<Duration>, jitter: f64) -> Duration {
        let backoff = self
            .first_delay
            .saturating_mul(2u32.saturating_pow(retry.min(31)))
            .min(self.max_delay)
            .mul_f64(jitter.clamp(0.5, 1.0));
        backoff
            .max(retry_after.unwrap_or_default())
            .min(self.max_delay)
    }

    /// The wait before retry number `retry`, or `None` when the retries
    /// or the time budget (of which `spent` is gone) are used up.
    fn next_delay(
        &self,
        retry: u32,
        retry_after: Option<Duration>,
        spent: Duration,
    ) -> Option<Duration> {
        if retry >= self.retries {
            return None;
        }
        let delay = self.delay(retry, retry_after, jitter());
        match self.budget {
            Some(budget) if spent + delay > budget => None,
            _ => Some(delay),
        }
    }

    /// The error when every attempt failed: what, how many attempts over
    /// how long, the last cause, and the policy's hint.
    fn exhausted(&self, what: &str, attempts: u32, spent: Duration, cause: &str) -> anyhow::Error {
        let over = match self.budget {
            Some(_) => format!(" over {:.1} s", spent.as_secs_f64()),
            None => String::new(),
        };
        Hinted::new(format!(
            "{what}: {attempts} attempts failed{over}; the last: {cause}"
        ))
        .hint(&self.hint)
        .into()
    }

    /// Runs the blocking `attempt` until it succeeds, fails for good, or
    /// the retries or the time budget run out; then the error names
    /// `what`, the attempts and the last cause.
    pub fn run_blocking<T>(
        &self,
        what: &str,
        mut attempt: impl FnMut() -> Attempt<T>,
    ) -> anyhow::Result<T> {
        let mut spent = Spent::start(&self.clock);
        let mut attempts = 0;
        loop {
            attempts += 1;
            match attempt() {
                Attempt::Done(value) => return Ok(value),
                Attempt::Fail(error) => return Err(error),
                Attempt::Retry { cause, retry_after } => {
                    match self.next_delay(attempts - 1, retry_after, spent.get()) {
                        Some(delay) => {
                            self.clock.sleep_blocking(delay);
                            spent.waited += delay;
                        }
                        None => return Err(self.exhausted(what, attempts, spent.get(), &cause)),
                    }
                }
            }
        }
    }

    /// Runs `attempt` until it succeeds, fails for good, or the retries
    /// run out; then the error names `url`, the attempts and the last cause.
    pub async fn run<T, F, Fut>(&self, url: &str, mut attempt: F) -> anyhow::Result<T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Attempt<T>>,
    {
        let mut spent = Spent::start(&self.clock);
        let mut attempts = 0;
        loop {
            attempts += 1;
            match attempt().await {
                Attempt::Done(value) => return Ok(value),
                Attempt::Fail(error) => return Err(error),
                Attempt::Retry { cause, retry_after } => {
                    match self.next_delay(attempts - 1, retry_after, spent.get()) {
                        Some(delay) => {
                            self.clock.sleep(delay).await;
                            spent.waited += delay;
                        }
                        None => return Err(self.exhausted(url, attempts, spent.get(), &cause)),
                    }
                }
            }
        }
    }
}

/// The time a run of attempts has taken: by the real clock, or what a
/// recorded clock was asked to wait (tests).
struct Spent {
    started: std::time::Instant,
    waited: Duration,
    real: bool,
}

impl Spent {
    fn start(clock: &Clock) -> Spent {
        Spent {
            started: std::time::Instant::now(),
            waited: Duration::ZERO,
            real: matches!(clock, Clock::Real),
        }
    }

    fn get(&self) -> Duration {
        match self.real {
            true => self.started.elapsed(),
            false => self.waited,
        }
    }
}

/// How one attempt ended.
#[derive(Debug)]
pub enum Attempt<T> {
    /// It worked.
    Done(T),
    /// It may pass if tried again.
    Retry {
        /// Why it failed, with its causes, on one line.
        cause: String,
        /// How long the server asked to wait.
        retry_after: Option<Duration>,
    },
    /// It will not pass: no more attempts.
    Fail(anyhow::Error),
}

impl<T> Attempt<T> {
    /// A retry for a request that never got an answer; a failure for good
    /// when the server's certificate is not trusted, which no retry mends.
    pub fn retry_error(error: &reqwest::Error) -> Attempt<T> {
        if let Some(problem) = untrusted_certificate(error) {
            return Attempt::Fail(
                Hinted::new(error_chain(error))
                    .hint(format!(
                        "the server's TLS certificate is not one this machine trusts ({problem}); if it comes from your own certificate authority, point SSL_CERT_FILE at that authority's certificate"
                    ))
                    .into(),
            );
        }
        Attempt::Retry {
            cause: error_chain(error),
            retry_after: None,
        }
    }
}

/// What is wrong with the server's certificate, when `error` is a TLS
/// certificate failure. rustls's error travels inside I/O errors (one in
/// another), whose `source` skips their payload, so each I/O error's
/// payload is followed too.
fn untrusted_certificate(error: &(dyn std::error::Error + 'static)) -> Option<String> {
    let mut next = Some(error);
    while let Some(error) = next {
        if let Some(rustls::Error::InvalidCertificate(problem)) =
            error.downcast_ref::<rustls::Error>()
        {
            return Some(format!("{problem:?}"));
        }
        next = match error
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            Some(payload) => Some(payload as &(dyn std::error::Error + 'static)),
            None => error.source(),
        };
    }
    None
}

/// How waiting between attempts is done.
#[derive(Debug, Clone, Default)]
pub enum Clock {
    /// Sleep for real.
    #[default]
    Real,
    /// Don't wait; record each delay asked for (tests).
    Recorded(Arc<Mutex<Vec<Duration>>>),
}

impl Clock {
    async fn sleep(&self, delay: Duration) {
        match self {
            Clock::Real => tokio::time::sleep(delay).await,
            Clock::Recorded(delays) => delays.lock().expect("delays lock").push(delay),
        }
    }

    fn sleep_blocking(&self, delay: Duration) {
        match self {
            Clock::Real => std::thread::sleep(delay),
            Clock::Recorded(delays) => delays.lock().expect("delays lock").push(delay),
        }
    }
}

/// Whether an answer with `status` may pass if asked again.
pub fn is_transient(status: StatusCode) -> bool {
    status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS
}

/// The delay a server asks for in `Retry-After`, in seconds (whole or
/// decimal). A date, or anything else, is ignored: the backoff applies.
pub fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let text = headers.get(RETRY_AFTER)?.to_str().ok()?;
    let seconds: f64 = text.trim().parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds.min(1e6)))
}

/// An error with its sources, on one line (`a: b: c`).
pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// A factor between 0.5 and 1 that spreads retries of many clients apart.
fn jitter() -> f64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or_default(),
    );
    0.5 + (hasher.finish() % 1_000_000) as f64 / 2_000_000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorded(retries: u32) -> (RetryPolicy, Arc<Mutex<Vec<Duration>>>) {
        let delays = Arc::new(Mutex::new(Vec::new()));
        let policy = RetryPolicy {
            retries,
            first_delay: Duration::from_millis(200),
            max_delay: MAX_DELAY,
            budget: None,
            clock: Clock::Recorded(delays.clone()),
            hint: "try again".into(),
        };
        (policy, delays)
    }

    fn run<T>(policy: &RetryPolicy, mut outcomes: Vec<Attempt<T>>) -> (anyhow::Result<T>, usize) {
        outcomes.reverse();
        let mut calls = 0;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let result = runtime.block_on(policy.run("http://x/f", || {
            calls += 1;
            let next = outcomes.pop().expect("no more attempts planned");
            async move { next }
        }));
        (result, calls)
    }

    fn transient(retry_after: Option<u64>) -> Attempt<&'static str> {
        Attempt::Retry {
            cause: "the server answered 503".into(),
            retry_after: retry_after.map(Duration::from_secs),
        }
    }

    #[test]
    fn backoff_doubles_and_jitter_shortens_it_by_at_most_half() {
        let (policy, _) = recorded(3);
        assert_eq!(policy.delay(0, None, 1.0), Duration::from_millis(200));
        assert_eq!(policy.delay(1, None, 1.0), Duration::from_millis(400));
        assert_eq!(policy.delay(2, None, 0.5), Duration::from_millis(400));
        assert_eq!(policy.delay(2, None, 0.0), Duration::from_millis(400));
        for _ in 0..100 {
            assert!((0.5..=1.0).contains(&jitter()));
        }
    }

    #[test]
    fn retry_after_is_the_delay_when_longer_and_everything_is_capped() {
        let (policy, _) = recorded(3);
        let five = Some(Duration::from_secs(5));
        assert_eq!(policy.delay(0, five, 1.0), Duration::from_secs(5));
        let tiny = Some(Duration::from_millis(1));
        assert_eq!(policy.delay(1, tiny, 1.0), Duration::from_millis(400));
        let hour = Some(Duration::from_secs(3600));
        assert_eq!(policy.delay(0, hour, 1.0), MAX_DELAY);
        assert_eq!(policy.delay(40, None, 1.0), MAX_DELAY);
    }

    #[test]
    fn transient_failures_are_retried_until_one_passes() {
        let (policy, delays) = recorded(3);
        let (result, calls) = run(
            &policy,
            vec![transient(None), transient(Some(2)), Attempt::Done("ok")],
        );
        assert_eq!(result.unwrap(), "ok");
        assert_eq!(calls, 3);
        let delays = delays.lock().unwrap().clone();
        assert_eq!(delays.len(), 2);
        assert!(delays[0] >= Duration::from_millis(100) && delays[0] <= Duration::from_millis(200));
        assert_eq!(delays[1], Duration::from_secs(2));
    }

    #[test]
    fn giving_up_names_the_url_attempts_and_last_cause() {
        let (policy, delays) = recorded(2);
        let (result, calls) = run(
            &policy,
            vec![transient(None), transient(None), transient(None)],
        );
        let message = result.unwrap_err().to_string();
        assert_eq!(calls, 3);
        assert_eq!(
            delays.lock().unwrap().len(),
            2,
            "no wait after the last attempt"
        );
        assert!(
            message.starts_with("http://x/f: 3 attempts failed; the last: the server answered 503"),
            "{message}"
        );
    }

    #[test]
    fn a_time_budget_ends_retries_however_many_are_left() {
        let delays = Arc::new(Mutex::new(Vec::new()));
        let policy = RetryPolicy {
            retries: u32::MAX,
            first_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(1),
            budget: Some(Duration::from_secs(5)),
            clock: Clock::Recorded(delays.clone()),
            hint: "try later".into(),
        };
        let mut calls = 0;
        let error = policy
            .run_blocking("pushing", || {
                calls += 1;
                Attempt::<()>::Retry {
                    cause: "rejected".into(),
                    retry_after: None,
                }
            })
            .unwrap_err();
        let delays = delays.lock().unwrap().clone();
        let waited: Duration = delays.iter().sum();
        assert!(waited <= Duration::from_secs(5), "{waited:?}");
        assert!(waited >= Duration::from_secs(4), "{waited:?}");
        assert!(delays.iter().all(|d| *d <= Duration::from_secs(1)));
        assert_eq!(calls, delays.len() + 1);
        let message = error.to_string();
        assert!(
            message.starts_with(&format!("pushing: {calls} attempts failed over ")),
            "{message}"
        );
        assert!(message.ends_with("; the last: rejected"), "{message}");
        let hinted = error.downcast_ref::<Hinted>().unwrap();
        assert_eq!(hinted.hints(), ["try later"]);
    }

    #[test]
    fn a_failure_that_cannot_pass_is_not_retried() {
        let (policy, delays) = recorded(3);
        let (result, calls) = run(
            &policy,
            vec![Attempt::<()>::Fail(anyhow::anyhow!("403 Forbidden"))],
        );
        assert_eq!(result.unwrap_err().to_string(), "403 Forbidden");
        assert_eq!(calls, 1);
        assert!(delays.lock().unwrap().is_empty());
    }

    #[test]
    fn retry_after_is_read_in_seconds() {
        let mut headers = HeaderMap::new();
        assert_eq!(retry_after(&headers), None);
        headers.insert(RETRY_AFTER, "2.5".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_millis(2500)));
        headers.insert(RETRY_AFTER, "7".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(7)));
        headers.insert(
            RETRY_AFTER,
            "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&headers), None);
        headers.insert(RETRY_AFTER, "-1".parse().unwrap());
        assert_eq!(retry_after(&headers), None);
    }

    #[test]
    fn credentials_are_split_off_urls_and_control_characters_refused() {
        let (url, credentials) =
            split_credentials("https://alice:s%3Acret@Host:8443/index/?q#f").unwrap();
        assert_eq!(url, "https://Host:8443/index/?q#f");
        let credentials = credentials.unwrap();
        assert_eq!(credentials.user, "alice");
        assert_eq!(credentials.password.as_deref(), Some("s:cret"));
        let (url, credentials) = split_credentials("file:///tmp/a@b/index").unwrap();
        assert_eq!(url, "file:///tmp/a@b/index");
        assert!(credentials.is_none());
        let attack = "http://x%0aurl=https%3a%2f%2fgithub.com@evil/r.git";
        let error = split_credentials(attack).unwrap_err().to_string();
        assert!(
            error.starts_with("http://…@evil/r.git: the user name"),
            "{error}"
        );
        assert!(!error.contains("github"), "{error}");
    }

    #[test]
    fn error_chains_keep_every_cause_once() {
        let inner = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let outer = anyhow::Error::new(inner).context("error sending request");
        let chain: &dyn std::error::Error = outer.as_ref();
        assert_eq!(error_chain(chain), "error sending request: refused");
    }
}
