//! Whether an http(s) URL is a git repository, asked the way git asks:
//! `GET <url>/info/refs?service=git-upload-pack`, and, for a URL whose
//! path does not end in `.git`, the same under `<url>.git`. A repository
//! served over git's smart HTTP answers `200` with the content type
//! `application/x-git-upload-pack-advertisement`; anything else (a web
//! page, `404`, a dumb-HTTP `text/plain` listing, `401`) is no answer a
//! fetch could go on from.
//!
//! The requests go through [`Http`] (its timeouts, proxy settings, TLS
//! roots and user agent) with the retry policy and deadline of index
//! requests. Credentials the URL carries go as basic auth to its own
//! origin (a redirect elsewhere drops them, as for indexes); no index
//! token is sent: this is no index. Nothing of the body is read.

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::CONTENT_TYPE;

use super::{
    Attempt, Http, Origin, Redirects, RetryPolicy, goes_to, split_credentials, within_deadline,
};

/// The content type of a smart-HTTP ref advertisement for fetching.
pub(crate) const ADVERTISEMENT: &str = "application/x-git-upload-pack-advertisement";

/// How long a connection may take to open.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a request may wait for the next bytes, unless
/// `SKILLPKG_HTTP_TIMEOUT` says otherwise.
const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// One request of a probe and what came back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tried {
    /// The URL asked, without credentials.
    pub url: String,
    /// What came back: `404 Not Found`, `200 OK, text/html`, or why no
    /// answer came.
    pub answer: String,
    /// Whether the server asked for credentials (`401`, `403`).
    pub wants_credentials: bool,
}

/// What a probe found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Probed {
    /// A repository, at this URL (the one given, or with `.git` added;
    /// with the credentials the given one carried).
    Repository(String),
    /// No repository: each request, and what came back.
    NotARepository(Vec<Tried>),
}

/// The repository URLs to ask, in order, each as `(with credentials,
/// without)`: `url` without its query, fragment and final `/`, then the
/// same with `.git` added when its path has a last segment without it.
/// `None` when `url` is no http(s) URL with a host.
pub(crate) fn candidates(url: &str) -> Option<Vec<(String, String)>> {
    let (shown, _) = split_credentials(url).ok()?;
    let parsed = reqwest::Url::parse(&shown).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return None;
    }
    let base = |text: &str| {
        let end = text.find(['?', '#']).unwrap_or(text.len());
        text[..end].trim_end_matches('/').to_string()
    };
    let (given, shown) = (base(url), base(&shown));
    let path = parsed.path().trim_matches('/');
    let mut candidates = vec![(given.clone(), shown.clone())];
    if !path.is_empty() && !path.ends_with(".git") {
        candidates.push((format!("{given}.git"), format!("{shown}.git")));
    }
    Some(candidates)
}

/// The URL a probe of the repository at `repository` asks.
pub(crate) fn info_refs(repository: &str) -> String {
    format!("{repository}/info/refs?service=git-upload-pack")
}

/// Whether an answer with `status` and `content_type` advertises a git
/// repository (parameters of the type ignored, its case too).
pub(crate) fn is_advertisement(status: StatusCode, content_type: Option<&str>) -> bool {
    status == StatusCode::OK
        && content_type.is_some_and(|value| {
            let essence = value.split(';').next().unwrap_or("").trim();
            essence.eq_ignore_ascii_case(ADVERTISEMENT)
        })
}

/// One answer, as far as a probe reads it.
struct Answer {
    status: StatusCode,
    content_type: Option<String>,
    /// Where the request ended after redirects, when elsewhere.
    redirected_to: Option<String>,
}

impl Answer {
    fn describe(&self) -> String {
        let mut text = self.status.to_string();
        if self.status.is_success() {
            text.push_str(", ");
            text.push_str(self.content_type.as_deref().unwrap_or("no content type"));
        }
        if let Some(to) = &self.redirected_to {
            text.push_str(&format!(" (redirected to {to})"));
        }
        text
    }
}

/// Asks whether `url` (http or https) is a git repository: each of
/// [`candidates`] in turn, until one answers as a repository. A request
/// that gets no answer at all (every retry failed, or the certificate is
/// not trusted) ends the probe: the next would go to the same server.
pub(crate) fn probe(url: &str) -> anyhow::Result<Probed> {
    let Some(candidates) = candidates(url) else {
        anyhow::bail!("'{url}' is no http(s) URL with a host");
    };
    let (_, credentials) = split_credentials(url)?;
    let read_timeout = super::read_timeout_from_env(DEFAULT_READ_TIMEOUT);
    let http = Http::new(CONNECT_TIMEOUT, read_timeout, Redirects::Any)?;
    let retry = RetryPolicy {
        hint: "the server may be down or out of reach; try again later".into(),
        ..RetryPolicy::for_indexes()
    };
    let deadline = super::deadline_from_env();
    let origin = Origin::of(&candidates[0].1);
    let mut tried = Vec::new();
    for (given, shown) in candidates {
        let asked = info_refs(&shown);
        let attempt = || async {
            let mut request = http.client().get(&asked);
            if let Some(credentials) = &credentials
                && origin
                    .as_ref()
                    .is_some_and(|origin| goes_to(&asked, origin))
            {
                request = request.basic_auth(&credentials.user, credentials.password.as_deref());
            }
            let response = match super::send(request).await {
                Ok(response) => response,
                Err(retry) => return retry,
            };
            let status = response.status();
            let final_url = response.url().as_str();
            let redirected_to = (final_url != asked).then(|| {
                split_credentials(final_url)
                    .map(|(shown, _)| shown)
                    .unwrap_or_else(|_| "another URL".into())
            });
            Attempt::Done(Answer {
                status,
                content_type: response
                    .headers()
                    .get(CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string),
                redirected_to,
            })
        };
        let answered =
            http.block_on(retry.run(&asked, || within_deadline(deadline, &asked, attempt())));
        match answered {
            Ok(answer) if is_advertisement(answer.status, answer.content_type.as_deref()) => {
                return Ok(Probed::Repository(given));
            }
            Ok(answer) => tried.push(Tried {
                url: asked,
                answer: answer.describe(),
                wants_credentials: matches!(
                    answer.status,
                    StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
                ),
            }),
            Err(e) => {
                // The URL is in the message already.
                let cause = e.to_string();
                let cause = cause
                    .strip_prefix(&format!("{asked}: "))
                    .unwrap_or(&cause)
                    .to_string();
                tried.push(Tried {
                    url: asked,
                    answer: cause,
                    wants_credentials: false,
                });
                break;
            }
        }
    }
    Ok(Probed::NotARepository(tried))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_given_url_is_asked_then_with_dot_git() {
        let pairs = |url: &str| candidates(url).unwrap();
        assert_eq!(
            pairs("https://example.com/team/skills/?tab=x#y"),
            [
                (
                    "https://example.com/team/skills".to_string(),
                    "https://example.com/team/skills".to_string()
                ),
                (
                    "https://example.com/team/skills.git".to_string(),
                    "https://example.com/team/skills.git".to_string()
                ),
            ]
        );
        assert_eq!(
            pairs("https://alice:pw@example.com/r"),
            [
                (
                    "https://alice:pw@example.com/r".to_string(),
                    "https://example.com/r".to_string()
                ),
                (
                    "https://alice:pw@example.com/r.git".to_string(),
                    "https://example.com/r.git".to_string()
                ),
            ]
        );
        // No path to add `.git` to, or one that has it.
        assert_eq!(pairs("http://127.0.0.1:9/").len(), 1);
        assert_eq!(pairs("https://example.com/r.git").len(), 1);
        assert!(candidates("ftp://example.com/r").is_none());
        assert!(candidates("not a url").is_none());
        assert_eq!(
            info_refs("https://example.com/r.git"),
            "https://example.com/r.git/info/refs?service=git-upload-pack"
        );
    }

    #[test]
    fn only_a_smart_http_advertisement_is_a_repository() {
        let ok = StatusCode::OK;
        assert!(is_advertisement(ok, Some(ADVERTISEMENT)));
        assert!(is_advertisement(
            ok,
            Some("Application/X-Git-Upload-Pack-Advertisement; charset=utf-8")
        ));
        assert!(!is_advertisement(ok, Some("text/html; charset=utf-8")));
        assert!(!is_advertisement(ok, Some("text/plain")), "dumb HTTP");
        assert!(!is_advertisement(ok, None));
        assert!(!is_advertisement(
            StatusCode::NOT_FOUND,
            Some(ADVERTISEMENT)
        ));
        assert!(!is_advertisement(
            StatusCode::UNAUTHORIZED,
            Some(ADVERTISEMENT)
        ));
    }
}
