//! Sites that publish skills as the Agent Skills discovery RFC says: an
//! index at `/.well-known/agent-skills/index.json` (or, older,
//! `/.well-known/skills/index.json`) listing each skill with the URL of
//! its `SKILL.md` or archive and that artifact's sha256. docs/well-known.md
//! describes the forms read and the rules kept.
//!
//! The site is untrusted: every answer is size-capped, redirects are
//! followed within the site's origin only, and an entry whose URL leads
//! elsewhere is set aside ([`policy`]). Artifacts are kept in the cache
//! under their sha256, so a locked install needs the site only to check
//! that its index still names them.

pub(crate) mod format;
mod same_origin;

use std::path::Path;
use std::time::Duration;

use anyhow::bail;
use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, LOCATION};

pub(crate) use format::{Artifact, Entry, Index};

use crate::hint::Hinted;
use crate::net::{Attempt, Http, Redirects, RetryPolicy, read_body, within_deadline};
use crate::store::hash::sha256_hex;

/// Where a site's index is, under the site.
pub(crate) const INDEX_PATH: &str = ".well-known/agent-skills/index.json";
/// Where v0.1.0 of the RFC put it: read when the other is not there.
pub(crate) const LEGACY_INDEX_PATH: &str = ".well-known/skills/index.json";

/// The most bytes an index may have.
const MAX_INDEX: u64 = 4 * 1024 * 1024;
/// The most bytes a `SKILL.md`, or one file of an older entry, may have.
pub(crate) const MAX_FILE: u64 = 4 * 1024 * 1024;

/// How long a connection may take to open.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a request may wait for the next bytes, unless
/// `SKILLPKG_HTTP_TIMEOUT` says otherwise.
const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// The index URLs to ask for `site` (as
/// [`crate::manifest::well_known_ref::parse_site`] writes it), in order:
/// the URL itself when it names a `.json` file; else the index under the
/// site's path, then the older one there, then both at the site's root
/// when the site has a path (as `npx skills` looks).
pub(crate) fn index_urls(site: &str) -> Vec<String> {
    let Ok(url) = reqwest::Url::parse(site) else {
        return Vec::new();
    };
    if url.path().ends_with(".json") {
        return vec![site.to_string()];
    }
    let base = site.trim_end_matches('/');
    let mut urls = vec![
        format!("{base}/{INDEX_PATH}"),
        format!("{base}/{LEGACY_INDEX_PATH}"),
    ];
    let root = url.origin().ascii_serialization();
    if root != base {
        urls.push(format!("{root}/{INDEX_PATH}"));
        urls.push(format!("{root}/{LEGACY_INDEX_PATH}"));
    }
    urls
}

/// One request of a discovery, and what came back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tried {
    /// The URL asked.
    pub url: String,
    /// What came back (`404 Not Found`, `200 OK, text/html: no index`),
    /// or why nothing did.
    pub answer: String,
}

/// What asking a site found.
#[derive(Debug)]
pub(crate) enum Discovered {
    /// An index.
    Found(Index),
    /// None: each request, and what came back.
    NotFound(Vec<Tried>),
}

/// One answer.
enum Got {
    /// `200`, its body and content type.
    Body(Vec<u8>, Option<String>),
    /// A redirect to another origin, not followed, and where to.
    Redirect(StatusCode, Option<String>),
    /// Any other status.
    Status(StatusCode),
}

/// The HTTP client sites are read with.
pub(crate) struct Client {
    http: Http,
    retry: RetryPolicy,
    deadline: Duration,
}

impl Client {
    /// A client with the timeouts, retries and deadline of index requests,
    /// following redirects within one origin only.
    pub(crate) fn new() -> anyhow::Result<Client> {
        let read_timeout = crate::net::read_timeout_from_env(DEFAULT_READ_TIMEOUT);
        Ok(Client {
            http: Http::new(CONNECT_TIMEOUT, read_timeout, Redirects::SameOrigin)?,
            retry: RetryPolicy::for_indexes(),
            deadline: crate::net::deadline_from_env(),
        })
    }

    /// The index of `site`: each of [`index_urls`] in turn, until one
    /// answers with an index. An answer that is no index at all (a page,
    /// a `404`) moves on to the next; an index that is broken is an
    /// error; a request that gets no answer ends the search (the next
    /// would go to the same server).
    pub(crate) fn discover(&self, site: &str) -> anyhow::Result<Discovered> {
        let mut tried = Vec::new();
        for url in index_urls(site) {
            let answer = match self.http.block_on(self.get(&url, MAX_INDEX)) {
                Ok(Got::Body(bytes, content_type)) => {
                    if format::looks_like_an_index(&bytes) {
                        return Ok(Discovered::Found(format::parse(&bytes, &url)?));
                    }
                    format!(
                        "200 OK, {}: no agent-skills index",
                        content_type.as_deref().unwrap_or("no content type")
                    )
                }
                Ok(Got::Redirect(status, to)) => format!(
                    "{status}, to {}: another origin, not followed",
                    to.as_deref().unwrap_or("nowhere")
                ),
                Ok(Got::Status(status)) => status.to_string(),
                Err(e) => {
                    let cause = e.to_string();
                    let cause = cause
                        .strip_prefix(&format!("{url}: "))
                        .unwrap_or(&cause)
                        .to_string();
                    tried.push(Tried { url, answer: cause });
                    break;
                }
            };
            tried.push(Tried { url, answer });
        }
        Ok(Discovered::NotFound(tried))
    }

    /// The bytes at `url`, an artifact an index lists: at most `limit` of
    /// them; any answer but `200` is an error naming `index`.
    pub(crate) fn fetch(&self, url: &str, limit: u64, index: &str) -> anyhow::Result<Vec<u8>> {
        let answer = match self.http.block_on(self.get(url, limit))? {
            Got::Body(bytes, _) => return Ok(bytes),
            Got::Redirect(status, to) => format!(
                "answered {status}, to {}, on another origin",
                to.as_deref().unwrap_or("nowhere")
            ),
            Got::Status(status) => format!("answered {status}"),
        };
        bail!(
            Hinted::new(format!(
                "{url}: the server {answer}, though {index} lists it"
            ))
            .hint("the site's index names a file it does not serve; tell the site's owner")
        )
    }

    /// GETs `url`, retrying what may pass; a body over `limit` bytes, or
    /// an attempt past the deadline, fails for good.
    async fn get(&self, url: &str, limit: u64) -> anyhow::Result<Got> {
        self.retry
            .run(url, || {
                within_deadline(self.deadline, url, self.get_once(url, limit))
            })
            .await
    }

    async fn get_once(&self, url: &str, limit: u64) -> Attempt<Got> {
        let response = match crate::net::send(self.http.client().get(url)).await {
            Ok(response) => response,
            Err(retry) => return retry,
        };
        let status = response.status();
        let header = |name| {
            response
                .headers()
                .get(name)
                .and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok())
                .map(str::to_string)
        };
        if status.is_redirection() {
            return Attempt::Done(Got::Redirect(status, header(LOCATION)));
        }
        if status != StatusCode::OK {
            return Attempt::Done(Got::Status(status));
        }
        let content_type = header(CONTENT_TYPE);
        match read_body(response, limit, url).await {
            Ok(body) => Attempt::Done(Got::Body(body, content_type)),
            Err(failed) => failed,
        }
    }
}

/// The folder of `cache` that keeps artifacts by their sha256.
fn artifacts(cache: &Path) -> std::path::PathBuf {
    cache.join("well-known").join("sha256")
}

/// The artifact whose digest is `digest` (`sha256:<hex>`), from the
/// cache; `None` when it is not there or its bytes no longer match.
pub(crate) fn cached(cache: &Path, digest: &str) -> Option<Vec<u8>> {
    let hex = digest.strip_prefix("sha256:")?;
    let bytes = std::fs::read(artifacts(cache).join(hex)).ok()?;
    (sha256_hex(&bytes) == hex).then_some(bytes)
}

/// Keeps `bytes` in the cache under their sha256, returned as
/// `sha256:<hex>`.
pub(crate) fn keep(cache: &Path, bytes: &[u8]) -> anyhow::Result<String> {
    let hex = sha256_hex(bytes);
    let path = artifacts(cache).join(&hex);
    crate::fsutil::write_cache_file(&path, bytes)
        .map_err(|e| anyhow::anyhow!("could not write {}: {e}", path.display()))?;
    Ok(format!("sha256:{hex}"))
}

/// The indexes one run has read, by site: every skill of a site is taken
/// from one reading of its index, and the site is asked once per run
/// (each run owns its memo, as it owns its git resolver).
#[derive(Debug, Default)]
pub(crate) struct Sites {
    read: std::sync::Mutex<std::collections::HashMap<String, Index>>,
}

impl Sites {
    /// The index of `site`, as this run first read it (see
    /// [`Client::discover`]).
    pub(crate) fn discover(&self, site: &str) -> anyhow::Result<Discovered> {
        if let Some(index) = self.read.lock().expect("indexes lock").get(site) {
            return Ok(Discovered::Found(index.clone()));
        }
        let discovered = Client::new()?.discover(site)?;
        if let Discovered::Found(index) = &discovered {
            self.read
                .lock()
                .expect("indexes lock")
                .insert(site.to_string(), index.clone());
        }
        Ok(discovered)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_is_asked_under_the_site_then_at_its_root() {
        assert_eq!(
            index_urls("https://example.com"),
            [
                "https://example.com/.well-known/agent-skills/index.json",
                "https://example.com/.well-known/skills/index.json"
            ]
        );
        assert_eq!(
            index_urls("https://example.com/docs"),
            [
                "https://example.com/docs/.well-known/agent-skills/index.json",
                "https://example.com/docs/.well-known/skills/index.json",
                "https://example.com/.well-known/agent-skills/index.json",
                "https://example.com/.well-known/skills/index.json"
            ]
        );
        assert_eq!(
            index_urls("http://127.0.0.1:9/skills/index.json"),
            ["http://127.0.0.1:9/skills/index.json"]
        );
    }

    #[test]
    fn artifacts_are_cached_by_digest() {
        let dir = tempfile::tempdir().unwrap();
        let digest = keep(dir.path(), b"---\nname: x\n---\n").unwrap();
        assert_eq!(cached(dir.path(), &digest).unwrap(), b"---\nname: x\n---\n");
        let path = artifacts(dir.path()).join(digest.strip_prefix("sha256:").unwrap());
        std::fs::write(path, b"tampered").unwrap();
        assert!(cached(dir.path(), &digest).is_none());
    }
}
