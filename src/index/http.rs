//! Static HTTP indexes, fetched sparsely: `config.json` and only the entry
//! files and archives an operation asks for, many at a time, each cached
//! on disk and revalidated with `ETag` / `Last-Modified`.
//!
//! Transient failures (connection errors, a body cut short, timeouts, 5xx
//! and 429 answers) are retried by the policy of [`crate::net`]; what
//! still fails is reported with the URL.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context as _, bail};
use reqwest::StatusCode;
use reqwest::header::{ETAG, HeaderMap, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED};
use serde::{Deserialize, Serialize};

use super::listing::{LISTING_FILE, Listing};
use super::{IndexConfig, IndexEntry, PackageName, parse_entries};
use crate::hint::Hinted;
use crate::net::{
    Attempt, Http, Origin, Redirects, RetryPolicy, UrlCredentials, goes_to, read_body,
    read_body_into, split_credentials, within_deadline,
};
use crate::progress::{Progress, SILENT};
use crate::store::hash::sha256_hex;
use crate::store::limits::Limits;

/// Requests in flight at once, per index.
const CONCURRENCY: usize = 16;
/// How long a connection may take to open.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a request may wait for the next bytes, unless
/// `SKILLPKG_HTTP_TIMEOUT` says otherwise.
const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// The most bytes `config.json` may have.
const MAX_INDEX_FILE: u64 = 4 * 1024 * 1024;
/// The most bytes an entry file may have: a package of 100,000 versions
/// whose lines average 2.6 KiB (a signature, a description of 1,024
/// characters, dependencies), which a folder or git index holds as well.
const MAX_ENTRY_FILE: u64 = 256 * 1024 * 1024;
/// The most bytes the search listing may have: about 200,000 packages
/// with descriptions of average length when it is compacted, with room
/// for the half more that publishes append before it is compacted again.
const MAX_LISTING: u64 = 96 * 1024 * 1024;

/// The most bytes an archive whose entry gives `size` may have: that size
/// when the entry gives one (0 means it does not), never more than an
/// archive within `limits` can take.
fn archive_limit(size: u64, limits: &Limits) -> u64 {
    match size {
        0 => limits.max_archive_bytes(),
        size => size.min(limits.max_archive_bytes()),
    }
}

/// Whether `spec` names an HTTP index.
pub(crate) fn is_http_index(spec: &str) -> bool {
    spec.starts_with("http://") || spec.starts_with("https://")
}

/// A static HTTP index and its on-disk cache.
pub(crate) struct HttpIndex {
    /// Shared with every request task.
    fetcher: Arc<Fetcher>,
    http: Http,
    /// Entry files fetched so far (`None`: the index does not list it).
    entries: Mutex<HashMap<PackageName, Option<Vec<IndexEntry>>>>,
}

/// Whether a package's entries, read from the cache, settle what is
/// asked of it (they hold the version and checksum the lock pins), so
/// that the server need not be asked.
pub(crate) type Settled<'a> = dyn Fn(&PackageName, &[IndexEntry]) -> bool + 'a;

/// A cached response's validators (and, in the cache file, the body's
/// sha256, which a read checks).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Validators {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sha256: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    etag: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_modified: Option<String>,
}

/// An answer that will not change if asked again.
#[derive(Debug, thiserror::Error)]
#[error("{url}: the server answered {status}")]
struct StatusError {
    url: String,
    status: StatusCode,
}

impl HttpIndex {
    /// Opens the index at `url`, caching under `cache`; fetches (or, with
    /// `offline`, reads from the cache) its `config.json`.
    pub(crate) fn open(
        url: &str,
        cache: &Path,
        offline: bool,
        token: Option<String>,
    ) -> anyhow::Result<(HttpIndex, IndexConfig)> {
        // Credentials in the URL are sent as a header, to the index's own
        // host only; every URL shown, cached or locked goes without them.
        let (shown, credentials) = split_credentials(url)?;
        let url = shown.as_str();
        let base = url.trim_end_matches('/').to_string();
        let read_timeout = crate::net::read_timeout_from_env(DEFAULT_READ_TIMEOUT);
        let http = Http::new(CONNECT_TIMEOUT, read_timeout, Redirects::Any)?;
        let fetcher = Arc::new(Fetcher {
            cache_dir: cache.join("http").join(cache_slug(&base)),
            origin: Origin::of(&base),
            credentials,
            token,
            base,
            offline,
            client: http.client().clone(),
            retry: RetryPolicy::for_indexes(),
            deadline: crate::net::deadline_from_env(),
        });
        let bytes = http
            .block_on(fetcher.fetch_cached("config.json", MAX_INDEX_FILE))?
            .ok_or_else(|| {
                anyhow::anyhow!(
                    Hinted::new(format!(
                        "{} was not found: {url} is not a skillpkg index",
                        fetcher.url("config.json")
                    ))
                    .hint("an index has config.json at its root (see `skillpkg index init`)")
                )
            })?;
        let config = IndexConfig::parse(&bytes, &fetcher.url("config.json"))?;
        let index = HttpIndex {
            fetcher,
            http,
            entries: Mutex::new(HashMap::new()),
        };
        Ok((index, config))
    }

    /// Fetches the entry files of `packages` that are not fetched yet, all
    /// at once. A package whose cached entry file `settled` accepts (it
    /// holds what the lock pins) is read from the cache, without a request.
    pub(crate) fn prefetch(
        &self,
        packages: &[PackageName],
        settled: &Settled,
        progress: &dyn Progress,
    ) -> anyhow::Result<()> {
        let wanted: Vec<PackageName> = {
            let mut known = self.entries.lock().expect("entries lock");
            let mut wanted: Vec<PackageName> = packages
                .iter()
                .filter(|p| !known.contains_key(*p))
                .cloned()
                .collect();
            wanted.sort();
            wanted.dedup();
            wanted.retain(|package| match self.cached_entries(package) {
                Some(entries) if settled(package, &entries) => {
                    known.insert(package.clone(), Some(entries));
                    false
                }
                _ => true,
            });
            wanted
        };
        if wanted.is_empty() {
            return Ok(());
        }
        let paths: Vec<String> = wanted.iter().map(PackageName::entry_path).collect();
        let fetcher = &self.fetcher;
        progress.start("Fetching", paths.len() as u64);
        let fetched = self.http.block_on(concurrently(
            paths.clone(),
            |path| {
                let fetcher = fetcher.clone();
                async move { fetcher.fetch_cached(&path, MAX_ENTRY_FILE).await }
            },
            &|| progress.advance(),
        ));
        progress.finish();
        let fetched = fetched?;
        let mut known = self.entries.lock().expect("entries lock");
        for ((package, path), body) in wanted.into_iter().zip(paths).zip(fetched) {
            let url = self.fetcher.url(&path);
            let entries = match body {
                Some(bytes) => {
                    let text =
                        String::from_utf8(bytes).with_context(|| format!("{url} is not UTF-8"))?;
                    Some(parse_entries(&text, &url)?)
                }
                None => None,
            };
            known.insert(package, entries);
        }
        Ok(())
    }

    /// The search listing: revalidated against the cache (one conditional
    /// request), or `None` when the index has none.
    pub(crate) fn listing(&self) -> anyhow::Result<Option<Listing>> {
        let Some(bytes) = self
            .http
            .block_on(self.fetcher.fetch_cached(LISTING_FILE, MAX_LISTING))?
        else {
            return Ok(None);
        };
        let url = self.fetcher.url(LISTING_FILE);
        let text = String::from_utf8(bytes).with_context(|| format!("{url} is not UTF-8"))?;
        Listing::parse(&text, &url).map(Some)
    }

    /// One more file of the index (its `policy.toml`, say): revalidated
    /// against the cache; `None` when the server has none, or, offline,
    /// when the cache has none. Returns the file and its URL.
    /// Whether `relative` cannot be had: offline, with no copy in the
    /// cache.
    pub(crate) fn unreachable_offline(&self, relative: &str) -> bool {
        self.fetcher.offline && read_cache(&self.fetcher.cache_dir.join(relative)).is_none()
    }

    pub(crate) fn optional_file(
        &self,
        relative: &str,
        limit: u64,
    ) -> anyhow::Result<(Option<Vec<u8>>, String)> {
        let url = self.fetcher.url(relative);
        if self.fetcher.offline && read_cache(&self.fetcher.cache_dir.join(relative)).is_none() {
            return Ok((None, url));
        }
        let bytes = self
            .http
            .block_on(self.fetcher.fetch_cached(relative, limit))?;
        Ok((bytes, url))
    }

    /// The entries of `package` as the cache holds them, unrevalidated;
    /// `None` when they are not cached or do not parse.
    fn cached_entries(&self, package: &PackageName) -> Option<Vec<IndexEntry>> {
        let path = package.entry_path();
        let (_, body) = read_cache(&self.fetcher.cache_dir.join(&path))?;
        let text = String::from_utf8(body).ok()?;
        parse_entries(&text, &self.fetcher.url(&path)).ok()
    }

    /// Forgets the entries of `packages` read so far, so the next read
    /// asks the server.
    pub(crate) fn forget(&self, packages: &[PackageName]) {
        let mut known = self.entries.lock().expect("entries lock");
        for package in packages {
            known.remove(package);
        }
    }

    /// Every version of `package` (empty if the index does not list it).
    pub(crate) fn entries(&self, package: &PackageName) -> anyhow::Result<Vec<IndexEntry>> {
        self.prefetch(std::slice::from_ref(package), &|_, _| false, &SILENT)?;
        let known = self.entries.lock().expect("entries lock");
        Ok(known.get(package).cloned().flatten().unwrap_or_default())
    }

    /// The URL of an archive, from the index's `dl` template.
    pub(crate) fn archive_url(
        &self,
        config: &IndexConfig,
        package: &PackageName,
        version: &str,
    ) -> String {
        let url = config
            .dl
            .replace("{index}", &self.fetcher.base)
            .replace("{org}", &package.org)
            .replace("{name}", &package.name)
            .replace("{version}", version);
        if is_http_index(&url) {
            url
        } else {
            self.fetcher.url(url.trim_start_matches('/'))
        }
    }

    /// Downloads one archive, whose entry gives its `size` (0: unknown),
    /// into `into`, piece by piece; refused past what an archive within
    /// `limits` can take.
    pub(crate) fn archive(
        &self,
        url: &str,
        size: u64,
        limits: &Limits,
        into: &std::fs::File,
    ) -> anyhow::Result<()> {
        if self.fetcher.offline {
            bail!("{url} is not in the cache and --offline forbids downloading it");
        }
        let limit = archive_limit(size, limits);
        match self
            .http
            .block_on(self.fetcher.download(url.to_string(), limit, into))?
        {
            true => Ok(()),
            false => bail!("{url}: not found (404), though the index lists it"),
        }
    }

    /// Downloads the archives `(url, sha256, size)` into `dir` as
    /// `<sha256>.skill`, all at once, each streamed into a temporary file
    /// there and renamed into place once its checksum matches. A download
    /// whose checksum does not match is not kept (the caller reports it
    /// when it asks again).
    pub(crate) fn download_archives(
        &self,
        jobs: Vec<(String, String, u64)>,
        dir: &Path,
        limits: &Limits,
        progress: &dyn Progress,
    ) -> anyhow::Result<()> {
        if self.fetcher.offline || jobs.is_empty() {
            return Ok(());
        }
        fs_err::create_dir_all(dir)?;
        let fetcher = &self.fetcher;
        progress.start("Downloading", jobs.len() as u64);
        let downloaded = self.http.block_on(concurrently(
            jobs,
            |(url, cksum, size)| {
                let fetcher = fetcher.clone();
                let path = dir.join(format!("{cksum}.skill"));
                let limit = archive_limit(size, limits);
                async move {
                    let temp = crate::fsutil::temp_file_beside(&path)?;
                    if !fetcher.download(url, limit, temp.as_file()).await? {
                        return Ok(());
                    }
                    tokio::task::spawn_blocking(move || -> anyhow::Result<()> {
                        if crate::store::hash::sha256_file(temp.path())? == cksum {
                            temp.persist(&path)
                                .with_context(|| format!("could not write {}", path.display()))?;
                        }
                        Ok(())
                    })
                    .await?
                }
            },
            &|| progress.advance(),
        ));
        progress.finish();
        downloaded.map(drop)
    }
}

/// Runs `job` on every item, `CONCURRENCY` at a time, calling `done` as
/// each finishes, and returns the results in the order of `items`; the
/// first error wins.
async fn concurrently<T, R, F, Fut>(
    items: Vec<T>,
    job: F,
    done: &dyn Fn(),
) -> anyhow::Result<Vec<R>>
where
    F: Fn(T) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<R>> + Send + 'static,
    R: Send + 'static,
{
    let limit = Arc::new(tokio::sync::Semaphore::new(CONCURRENCY));
    let mut tasks = tokio::task::JoinSet::new();
    let count = items.len();
    for (i, item) in items.into_iter().enumerate() {
        let limit = limit.clone();
        let work = job(item);
        tasks.spawn(async move {
            let _permit = limit.acquire_owned().await.expect("semaphore open");
            (i, work.await)
        });
    }
    let mut results: Vec<Option<R>> = (0..count).map(|_| None).collect();
    while let Some(joined) = tasks.join_next().await {
        let (i, result) = joined?;
        results[i] = Some(result?);
        done();
    }
    Ok(results
        .into_iter()
        .map(|r| r.expect("every task ran"))
        .collect())
}

/// What a request task needs: where the index is, where its cache is,
/// and the client.
struct Fetcher {
    /// The index URL without a trailing slash (what `{index}` expands to).
    base: String,
    /// Where responses are cached.
    cache_dir: PathBuf,
    /// Read the cache only; never touch the network.
    offline: bool,
    client: reqwest::Client,
    /// When to try a request again.
    retry: RetryPolicy,
    /// How long one attempt may take in all.
    deadline: Duration,
    /// The index's origin (scheme, host and port, as the client parses
    /// them), the only one its credentials go to.
    origin: Option<Origin>,
    /// Credentials the index's URL carried.
    credentials: Option<UrlCredentials>,
    /// A bearer token for the index's host, from the environment or the
    /// credentials file.
    token: Option<String>,
}

impl Fetcher {
    /// The URL of `relative` inside the index.
    fn url(&self, relative: &str) -> String {
        format!("{}/{relative}", self.base)
    }

    /// Whether a request for `url` may carry the index's credentials (its
    /// URL's user and password, or its token): only when the client will
    /// send it to the index's own origin. An archive URL from the `dl`
    /// template may lead elsewhere (a CDN, or a host a hostile
    /// `config.json` names), so the origins are compared as the client
    /// parses them, never as strings split by hand.
    fn may_authenticate(&self, url: &str) -> bool {
        self.origin
            .as_ref()
            .is_some_and(|origin| goes_to(url, origin))
    }

    /// One file of the index: revalidated against the cache, or from the
    /// cache alone when offline. `None` when the server says 404/410.
    async fn fetch_cached(&self, relative: &str, limit: u64) -> anyhow::Result<Option<Vec<u8>>> {
        let url = self.url(relative);
        let cache_path = self.cache_dir.join(relative);
        let cached = read_cache(&cache_path);
        if self.offline {
            return match cached {
                Some((_, body)) => Ok(Some(body)),
                None => bail!(
                    Hinted::new(format!(
                        "{url} is not in the cache and --offline forbids fetching it"
                    ))
                    .hint("run once without --offline (or --frozen) to fill the cache")
                ),
            };
        }
        let validators = cached.as_ref().map(|(v, _)| v.clone()).unwrap_or_default();
        match self.get(url.clone(), validators, limit).await? {
            Response::Body(body, validators) => {
                write_cache(cache_path, validators, body.clone()).await?;
                Ok(Some(body))
            }
            Response::NotModified => match cached {
                Some((_, body)) => Ok(Some(body)),
                None => bail!("{url}: the server answered 304 Not Modified to a plain request"),
            },
            Response::NotFound => {
                let _ = tokio::fs::remove_file(&cache_path).await;
                Ok(None)
            }
        }
    }
}

/// A usable answer.
enum Response {
    Body(Vec<u8>, Validators),
    NotModified,
    NotFound,
}

/// An answer with a body to read, or none to read.
enum Answer {
    Body(Box<reqwest::Response>, Validators),
    NotModified,
    NotFound,
}

impl Fetcher {
    /// GETs `url` (conditionally, given validators), retrying what may
    /// pass; a body over `limit` bytes, or an attempt past the deadline,
    /// fails for good.
    async fn get(
        &self,
        url: String,
        validators: Validators,
        limit: u64,
    ) -> anyhow::Result<Response> {
        self.retry
            .run(&url, || {
                within_deadline(self.deadline, &url, self.get_once(&url, &validators, limit))
            })
            .await
    }

    /// One attempt at a GET.
    async fn get_once(&self, url: &str, validators: &Validators, limit: u64) -> Attempt<Response> {
        match self.answer(url, validators).await {
            Ok(Answer::Body(response, validators)) => {
                match read_body(*response, limit, url).await {
                    Ok(body) => Attempt::Done(Response::Body(body, validators)),
                    Err(failed) => failed,
                }
            }
            Ok(Answer::NotModified) => Attempt::Done(Response::NotModified),
            Ok(Answer::NotFound) => Attempt::Done(Response::NotFound),
            Err(failed) => failed,
        }
    }

    /// GETs `url` into `file`, piece by piece, retrying what may pass (the
    /// file starts over each time); false when the server says 404/410.
    async fn download(
        &self,
        url: String,
        limit: u64,
        file: &std::fs::File,
    ) -> anyhow::Result<bool> {
        self.retry
            .run(&url, || {
                within_deadline(self.deadline, &url, async {
                    match self.answer(&url, &Validators::default()).await {
                        Ok(Answer::Body(response, _)) => {
                            match read_body_into(*response, limit, &url, file).await {
                                Ok(_) => Attempt::Done(true),
                                Err(failed) => failed,
                            }
                        }
                        Ok(Answer::NotFound) => Attempt::Done(false),
                        Ok(Answer::NotModified) => Attempt::Fail(anyhow::anyhow!(
                            "{url}: the server answered 304 Not Modified to a plain request"
                        )),
                        Err(failed) => failed,
                    }
                })
            })
            .await
    }

    /// One request, up to its status and headers.
    async fn answer<T>(&self, url: &str, validators: &Validators) -> Result<Answer, Attempt<T>> {
        let mut request = self.client.get(url);
        if self.may_authenticate(url) {
            if let Some(credentials) = &self.credentials {
                request = request.basic_auth(&credentials.user, credentials.password.as_deref());
            } else if let Some(token) = &self.token {
                request = request.bearer_auth(token);
            }
        }
        if let Some(etag) = &validators.etag {
            request = request.header(IF_NONE_MATCH, etag);
        }
        if let Some(date) = &validators.last_modified {
            request = request.header(IF_MODIFIED_SINCE, date);
        }
        let response = crate::net::send(request).await?;
        let status = response.status();
        if status == StatusCode::NOT_MODIFIED {
            return Ok(Answer::NotModified);
        }
        if status == StatusCode::NOT_FOUND || status == StatusCode::GONE {
            return Ok(Answer::NotFound);
        }
        if (status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN)
            && let Some(origin) = Origin::of(url)
        {
            return Err(Attempt::Fail(
                refused_credentials_error(url, status, &origin).into(),
            ));
        }
        if !status.is_success() {
            let url = url.to_string();
            return Err(Attempt::Fail(StatusError { url, status }.into()));
        }
        let validators = validators_of(response.headers());
        Ok(Answer::Body(Box::new(response), validators))
    }
}

/// What a `401` or `403` from `url`, of the index at `origin`, says: the
/// variable its token is read from, and the one earlier versions read
/// when that is set and now is not read for this host.
fn refused_credentials_error(url: &str, status: StatusCode, origin: &Origin) -> Hinted {
    let variable = crate::credentials::index_token_variable(origin);
    let mut error = Hinted::new(format!("{url}: the server answered {status}")).hint(format!(
        "if the index needs a token, set {variable} in the environment or in credentials.toml in the config directory"
    ));
    if let Some(retired) = crate::credentials::retired_index_token_variable(origin)
        && std::env::var_os(&retired).is_some()
    {
        error = error.hint(format!(
            "{retired} is not read for {}: other hosts share that name; it is the token of the host spelt that way only",
            origin.authority()
        ));
    }
    error
}

fn validators_of(headers: &HeaderMap) -> Validators {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok())
            .map(str::to_string)
    };
    Validators {
        sha256: None,
        etag: text(ETAG),
        last_modified: text(LAST_MODIFIED),
    }
}

/// A cache folder name for an index URL: readable, and unique by a hash.
fn cache_slug(base: &str) -> String {
    let readable: String = base
        .split_once("://")
        .map_or(base, |(_, rest)| rest)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    format!("{readable}-{}", &sha256_hex(base.as_bytes())[..12])
}

/// A cache file holds one JSON line of validators, then the body. A file
/// whose body does not match its recorded hash is treated as absent.
/// A cached index file and its validators; `None` when it is missing or
/// does not match its recorded sha256. Read on the calling thread: index
/// files are small, and a hop to tokio's blocking pool per file cost more
/// than the read (10 ms for 200 entry files).
fn read_cache(path: &Path) -> Option<(Validators, Vec<u8>)> {
    let bytes = std::fs::read(path).ok()?;
    let newline = bytes.iter().position(|b| *b == b'\n')?;
    let validators: Validators = serde_json::from_slice(&bytes[..newline]).ok()?;
    let body = bytes[newline + 1..].to_vec();
    (validators.sha256.as_deref() == Some(sha256_hex(&body).as_str())).then_some((validators, body))
}

async fn write_cache(
    path: PathBuf,
    mut validators: Validators,
    body: Vec<u8>,
) -> anyhow::Result<()> {
    validators.sha256 = Some(sha256_hex(&body));
    let mut bytes = serde_json::to_vec(&validators).expect("validators serialise");
    bytes.push(b'\n');
    bytes.extend_from_slice(&body);
    tokio::task::spawn_blocking(move || {
        crate::fsutil::write_cache_file(&path, &bytes)
            .with_context(|| format!("could not write the cache file {}", path.display()))
    })
    .await?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_slugs_are_readable_and_distinct() {
        let a = cache_slug("http://127.0.0.1:8080/index");
        let b = cache_slug("http://127.0.0.1:8080/index2");
        assert!(a.starts_with("127.0.0.1_8080_index-"), "{a}");
        assert_ne!(a, b);
    }

    #[tokio::test]
    async fn cache_files_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("index/acme/pdf");
        let validators = Validators {
            etag: Some("\"abc\"".into()),
            ..Validators::default()
        };
        write_cache(path.clone(), validators, b"line 1\nline 2\n".to_vec())
            .await
            .unwrap();
        let (validators, body) = read_cache(&path).unwrap();
        assert_eq!(validators.etag.as_deref(), Some("\"abc\""));
        assert_eq!(body, b"line 1\nline 2\n");
        // A torn file (body cut short) reads as absent.
        let text = std::fs::read(&path).unwrap();
        std::fs::write(&path, &text[..text.len() - 3]).unwrap();
        assert!(read_cache(&path).is_none());
    }
}
