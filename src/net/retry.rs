//! The one retry policy: which failures may pass if asked again, and how
//! long to wait before asking.

use std::hash::{BuildHasher as _, Hasher as _};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{HeaderMap, RETRY_AFTER};

use crate::env_vars;
use crate::hint::Hinted;

/// The longest wait between two attempts, whatever a server asks for.
pub const MAX_DELAY: Duration = Duration::from_secs(60);

/// Retries after the first attempt, unless `SKILLPKG_HTTP_RETRIES` says otherwise.
const DEFAULT_RETRIES: u32 = 3;

/// How long a publish may keep retrying pushes that others beat, unless
/// `SKILLPKG_PUBLISH_TIMEOUT` says otherwise.
const DEFAULT_PUBLISH_BUDGET: Duration = Duration::from_secs(60);

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

/// A variable's value in seconds (fractions allowed), if it holds one.
pub(super) fn seconds_from_env(name: &str) -> Option<Duration> {
    std::env::var(name)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
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
    fn error_chains_keep_every_cause_once() {
        let inner = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let outer = anyhow::Error::new(inner).context("error sending request");
        let chain: &dyn std::error::Error = outer.as_ref();
        assert_eq!(error_chain(chain), "error sending request: refused");
    }
}
