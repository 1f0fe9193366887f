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

//!
//! [`client`] builds the client and bounds each request, [`retry`] is the
//! policy, and [`url`] takes URLs apart (credentials, percent escapes).

pub(crate) mod client;
pub(crate) mod git_probe;
mod origin;
pub(crate) mod retry;
mod tls;
pub(crate) mod url;

pub use client::{
    Http, Redirects, deadline_from_env, read_body, read_body_into, read_timeout_from_env, send,
    send_described, within_deadline,
};
pub use origin::{Origin, goes_to, is_loopback, is_private};
pub use retry::{Attempt, Clock, MAX_DELAY, RetryPolicy, error_chain, is_transient, retry_after};
pub use url::{UrlCredentials, percent_decode_bytes, split_credentials};
