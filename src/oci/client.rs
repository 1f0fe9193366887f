//! The few requests of the OCI distribution protocol an install makes:
//! a manifest by tag or digest, a blob, a repository's tags, and the
//! token a registry's `401` challenge asks for; on the project's HTTP
//! client (rustls with ring, the platform's roots), its retry policy and
//! its deadline.
//!
//! Credentials go to the registry's own origin (and its token realm)
//! only; redirects are followed by hand, each judged by
//! [`super::redirect::check`]; a manifest or tag list is read up to
//! [`super::layout::MAX_MANIFEST`] bytes, and a blob is streamed to a
//! file, never past the size its descriptor gives, then checked against
//! its digest.

use std::io::Write as _;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::Context as _;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, LOCATION, WWW_AUTHENTICATE};
use reqwest::{StatusCode, Url};
use sha2::{Digest as _, Sha256};

use super::auth::{Challenge, Credential, Secret, Sources, parse_challenge};
use super::layout::{Descriptor, MAX_MANIFEST};
use super::redirect::{Asked, check};
use crate::hint::Hinted;
use crate::net::{
    Attempt, Http, Origin, Redirects, RetryPolicy, goes_to, is_loopback, read_body, within_deadline,
};

/// How long a connection may take to open.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a request may wait for the next bytes, unless
/// `SKILLPKG_HTTP_TIMEOUT` says otherwise.
const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// The most redirects one request follows.
const MAX_REDIRECTS: usize = 5;
/// The most bytes a token answer may have.
const MAX_TOKEN: u64 = 1024 * 1024;

/// A registry's repository, spoken to over HTTP(S).
pub(crate) struct Client {
    pub(super) http: Http,
    /// `HOST[:PORT]`.
    pub(super) registry: String,
    /// The repository's path in the registry.
    pub(super) path: String,
    /// `scheme://HOST[:PORT]`.
    pub(super) base: String,
    /// The registry's origin, the only one its credentials go to.
    pub(super) origin: Origin,
    pub(super) retry: RetryPolicy,
    pub(super) deadline: Duration,
    sources: Sources,
    pub(super) auth: Mutex<AuthState>,
}

/// What has been learnt of the registry's authentication.
#[derive(Default)]
pub(super) struct AuthState {
    /// The credential, once looked up (`Some(None)`: there is none).
    credential: Option<Option<Credential>>,
    /// The header the next requests carry.
    pub(super) authorization: Option<String>,
}

/// A manifest or tag list as the registry sent it.
pub(crate) struct Fetched {
    /// The body.
    pub bytes: Vec<u8>,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
    /// The `Docker-Content-Digest` header.
    pub digest: Option<String>,
}

impl Client {
    /// A client for the repository `path` of `registry` (`HOST[:PORT]`):
    /// over plain HTTP when the registry is on this machine or in
    /// `insecure`, else over HTTPS.
    pub(crate) fn new(
        registry: &str,
        path: &str,
        insecure: &[String],
        sources: Sources,
    ) -> anyhow::Result<Client> {
        let base = format!("{}://{registry}", scheme_for(registry, insecure));
        let origin =
            Origin::of(&base).with_context(|| format!("'{registry}' is no registry host"))?;
        let read_timeout = crate::net::read_timeout_from_env(DEFAULT_READ_TIMEOUT);
        Ok(Client {
            http: Http::new(CONNECT_TIMEOUT, read_timeout, Redirects::None)?,
            registry: registry.to_string(),
            path: path.to_string(),
            base,
            origin,
            retry: RetryPolicy::for_indexes(),
            deadline: crate::net::deadline_from_env(),
            sources,
            auth: Mutex::new(AuthState::default()),
        })
    }

    /// The manifest (or index) `reference` (a tag or digest); `None` when
    /// the registry has none by that name.
    pub(crate) fn manifest(&self, reference: &str) -> anyhow::Result<Option<Fetched>> {
        let url = self.url(&format!("manifests/{reference}"))?;
        self.read(Asked::Manifest, url, Some(super::layout::ACCEPT))
    }

    /// The repository's tags (the first page the registry gives).
    pub(crate) fn tags(&self) -> anyhow::Result<Vec<String>> {
        #[derive(serde::Deserialize)]
        struct TagList {
            #[serde(default)]
            tags: Option<Vec<String>>,
        }
        let url = self.url("tags/list")?;
        let Some(fetched) = self.read(Asked::Tags, url.clone(), None)? else {
            return Ok(Vec::new());
        };
        let list: TagList = serde_json::from_slice(&fetched.bytes)
            .with_context(|| format!("{url}: no tag list"))?;
        Ok(list.tags.unwrap_or_default())
    }

    /// Streams the blob `descriptor` names into `dest`, which it creates
    /// once the bytes are checked: the descriptor's size, no more, no
    /// less, hashing to its digest.
    pub(crate) fn blob(&self, descriptor: &Descriptor, dest: &Path) -> anyhow::Result<()> {
        let url = self.url(&format!("blobs/{}", descriptor.digest))?;
        let shown = url.to_string();
        self.http.block_on(self.retry.run(&shown, || {
            within_deadline(self.deadline, &shown, self.download(&url, descriptor, dest))
        }))
    }

    pub(super) fn url(&self, rest: &str) -> anyhow::Result<Url> {
        Url::parse(&format!("{}/v2/{}/{rest}", self.base, self.path))
            .with_context(|| format!("{}/{}: no URL", self.registry, self.path))
    }

    /// GETs `url` and reads the body (up to [`MAX_MANIFEST`] bytes).
    pub(super) fn read(
        &self,
        asked: Asked,
        url: Url,
        accept: Option<&str>,
    ) -> anyhow::Result<Option<Fetched>> {
        let shown = url.to_string();
        self.http.block_on(self.retry.run(&shown, || {
            within_deadline(self.deadline, &shown, async {
                let response = match self.send(asked, &url, accept).await {
                    Ok(response) => response,
                    Err(attempt) => return attempt,
                };
                if matches!(response.status(), StatusCode::NOT_FOUND) {
                    return Attempt::Done(None);
                }
                if let Err(attempt) = self.check_status(&response, &shown) {
                    return attempt;
                }
                let header = |name| {
                    response
                        .headers()
                        .get(name)
                        .and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok())
                        .map(str::to_string)
                };
                let content_type = header(CONTENT_TYPE.as_str());
                let digest = header("docker-content-digest");
                match read_body(response, MAX_MANIFEST, &shown).await {
                    Ok(bytes) => Attempt::Done(Some(Fetched {
                        bytes,
                        content_type,
                        digest,
                    })),
                    Err(failed) => failed,
                }
            })
        }))
    }

    /// One attempt at streaming a blob into `dest`.
    async fn download(&self, url: &Url, descriptor: &Descriptor, dest: &Path) -> Attempt<()> {
        let mut response = match self.send(Asked::Blob, url, None).await {
            Ok(response) => response,
            Err(attempt) => return attempt,
        };
        // Where the bytes come from, after redirects.
        let shown = response.url().to_string();
        if response.status() == StatusCode::NOT_FOUND {
            return fail(format!(
                "{shown}: the registry does not have the blob its manifest names"
            ));
        }
        if let Err(attempt) = self.check_status(&response, &shown) {
            return attempt;
        }
        let size = descriptor.size;
        let too_large = || {
            fail(format!(
                "{shown}: the registry sends more than the {size} bytes the manifest gives the blob; refused"
            ))
        };
        if response
            .content_length()
            .is_some_and(|length| length > size)
        {
            return too_large();
        }
        let parent = dest.parent().unwrap_or(Path::new("."));
        let mut file = match fs_err::create_dir_all(parent)
            .and_then(|()| tempfile::NamedTempFile::new_in(parent))
        {
            Ok(file) => file,
            Err(e) => return Attempt::Fail(e.into()),
        };
        let mut hasher = Sha256::new();
        let mut written: u64 = 0;
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    written += chunk.len() as u64;
                    if written > size {
                        return too_large();
                    }
                    hasher.update(&chunk);
                    if let Err(e) = file.write_all(&chunk) {
                        return Attempt::Fail(e.into());
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    return Attempt::Retry {
                        cause: format!("the body broke off: {}", crate::net::error_chain(&e)),
                        retry_after: None,
                    };
                }
            }
        }
        if written != size {
            return fail(format!(
                "{shown}: the registry sent {written} bytes, and the manifest gives the blob {size}; refused"
            ));
        }
        let digest = format!("sha256:{}", crate::store::hash::hex(&hasher.finalize()));
        if digest != descriptor.digest {
            return fail(format!(
                "{shown}: the blob's bytes hash to {digest}, not to the {} its manifest gives; refused",
                descriptor.digest
            ));
        }
        match file.persist(dest) {
            Ok(_) => Attempt::Done(()),
            Err(e) => Attempt::Fail(e.error.into()),
        }
    }

    /// What an answer other than a success or a `404` means (a transient
    /// one was retried by [`crate::net::send`] already).
    pub(super) fn check_status<T>(
        &self,
        response: &reqwest::Response,
        url: &str,
    ) -> Result<(), Attempt<T>> {
        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        let error = match status {
            StatusCode::FORBIDDEN => Hinted::new(format!(
                "{url}: the registry answered {status}: the credentials skillpkg sent do not give access to {}/{}",
                self.registry, self.path
            ))
            .hint(self.how_to_log_in()),
            _ => Hinted::new(format!("{url}: the registry answered {status}")),
        };
        Err(Attempt::Fail(error.into()))
    }

    /// Sends a GET for `url`, answering one authentication challenge and
    /// following the redirects [`check`] allows.
    async fn send<T>(
        &self,
        asked: Asked,
        url: &Url,
        accept: Option<&str>,
    ) -> Result<reqwest::Response, Attempt<T>> {
        let mut answered = false;
        loop {
            let authorization = self.auth.lock().expect("auth lock").authorization.clone();
            let response = self
                .follow(asked, url, accept, authorization.as_deref(), &self.origin)
                .await?;
            if response.status() != StatusCode::UNAUTHORIZED {
                return Ok(response);
            }
            self.reauthorize(&response, url, &mut answered).await?;
        }
    }

    /// Answers the challenge of the `401` `response` to `url` and keeps
    /// the header for the next requests; an error when there is no
    /// challenge or one was `answered` already for this request.
    pub(super) async fn reauthorize<T>(
        &self,
        response: &reqwest::Response,
        url: &Url,
        answered: &mut bool,
    ) -> Result<(), Attempt<T>> {
        let challenge = response
            .headers()
            .get(WWW_AUTHENTICATE)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_challenge);
        let Some(challenge) = challenge.filter(|_| !*answered) else {
            return Err(Attempt::Fail(self.unauthorized(url).into()));
        };
        *answered = true;
        let header = self.answer(challenge, url).await?;
        self.auth.lock().expect("auth lock").authorization = Some(header);
        Ok(())
    }

    /// The `Authorization` header that answers `challenge`: a token from
    /// its realm (asked with the credential, if there is one), or the
    /// credential itself.
    async fn answer<T>(&self, challenge: Challenge, url: &Url) -> Result<String, Attempt<T>> {
        let credential = self.credential().map_err(Attempt::Fail)?;
        match (challenge, credential) {
            (
                _,
                Some(Credential {
                    secret: Secret::Bearer(token),
                    ..
                }),
            ) => Ok(format!("Bearer {token}")),
            (
                Challenge::Basic,
                Some(Credential {
                    secret: Secret::Basic { user, password },
                    ..
                }),
            ) => Ok(basic(&user, &password)),
            (Challenge::Basic, None) => Err(Attempt::Fail(self.unauthorized(url).into())),
            (
                Challenge::Bearer {
                    realm,
                    service,
                    scope,
                },
                credential,
            ) => {
                let scope = scope.unwrap_or_else(|| format!("repository:{}:pull", self.path));
                self.token(&realm, service.as_deref(), &scope, credential.as_ref())
                    .await
                    .map(|token| format!("Bearer {token}"))
            }
        }
    }

    /// The registry's credential, looked up once.
    fn credential(&self) -> anyhow::Result<Option<Credential>> {
        let mut state = self.auth.lock().expect("auth lock");
        if state.credential.is_none() {
            state.credential = Some(self.sources.lookup(&self.registry)?);
        }
        Ok(state.credential.clone().flatten())
    }

    /// A token from `realm` for `scope`, asked with `credential`.
    async fn token<T>(
        &self,
        realm: &str,
        service: Option<&str>,
        scope: &str,
        credential: Option<&Credential>,
    ) -> Result<String, Attempt<T>> {
        #[derive(serde::Deserialize)]
        struct Token {
            #[serde(default)]
            token: Option<String>,
            #[serde(default)]
            access_token: Option<String>,
        }
        let params = service
            .map(|service| ("service", service))
            .into_iter()
            .chain([("scope", scope)]);
        let url = Url::parse_with_params(realm, params).map_err(|_| {
            fail(format!(
                "{}: the registry names the token realm {realm:?}, which is no URL",
                self.registry
            ))
        })?;
        let registry_url = Url::parse(&self.base).map_err(|e| Attempt::Fail(e.into()))?;
        // The realm is judged as a move of the registry's: over HTTPS to
        // any public host.
        check(Asked::Blob, &self.origin, &self.origin, &registry_url, &url).map_err(|why| {
            fail(format!("{}: the registry asks skillpkg for a token at {url}, and skillpkg does not go there: {why}", self.registry))
        })?;
        let realm_origin = Origin::of(url.as_str()).expect("checked above");
        let authorization = match credential.map(|c| &c.secret) {
            Some(Secret::Basic { user, password }) => Some(basic(user, password)),
            _ => None,
        };
        let response = self
            .follow(
                Asked::Token,
                &url,
                None,
                authorization.as_deref(),
                &realm_origin,
            )
            .await?;
        let shown = format!("{}{}", realm_origin.authority(), url.path());
        if matches!(
            response.status(),
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
        ) {
            return Err(Attempt::Fail(
                self.refused(&shown, response.status(), credential).into(),
            ));
        }
        self.check_status(&response, &shown)?;
        let bytes = read_body(response, MAX_TOKEN, &shown).await?;
        let token: Token = serde_json::from_slice(&bytes)
            .map_err(|e| fail(format!("{shown}: the token realm answered no token: {e}")))?;
        token
            .token
            .or(token.access_token)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| fail(format!("{shown}: the token realm answered no token")))
    }

    /// Sends a GET for `url` with `authorization` (to `home`'s origin
    /// only), following the redirects [`check`] allows.
    async fn follow<T>(
        &self,
        asked: Asked,
        url: &Url,
        accept: Option<&str>,
        authorization: Option<&str>,
        home: &Origin,
    ) -> Result<reqwest::Response, Attempt<T>> {
        let mut current = url.clone();
        for _ in 0..=MAX_REDIRECTS {
            let mut request = self.http.client().get(current.clone());
            if let Some(accept) = accept {
                request = request.header(ACCEPT, accept);
            }
            if let Some(authorization) = authorization
                && goes_to(current.as_str(), home)
            {
                request = request.header(AUTHORIZATION, authorization);
            }
            let response = crate::net::send(request).await?;
            let location = response
                .headers()
                .get(LOCATION)
                .and_then(|v| v.to_str().ok())
                .filter(|_| response.status().is_redirection());
            let Some(location) = location else {
                return Ok(response);
            };
            let next = current.join(location).map_err(|_| {
                fail(format!(
                    "{current}: the registry redirects to {location:?}, which is no URL"
                ))
            })?;
            check(asked, &self.origin, home, &current, &next).map_err(|why| {
                Attempt::Fail(
                    Hinted::new(format!(
                        "{current}: the registry redirects to {next}, and skillpkg does not follow: {why}"
                    ))
                    .hint("the registry, or something between it and you, is misconfigured or hostile")
                    .into(),
                )
            })?;
            current = next;
        }
        Err(fail(format!("{url}: more than {MAX_REDIRECTS} redirects")))
    }

    /// A `401` that no credential answered.
    fn unauthorized(&self, url: &Url) -> Hinted {
        let credential = self
            .auth
            .lock()
            .expect("auth lock")
            .credential
            .clone()
            .flatten();
        match credential {
            Some(credential) => {
                self.refused(url.as_str(), StatusCode::UNAUTHORIZED, Some(&credential))
            }
            None => Hinted::new(format!(
                "{}/{} asks for credentials (401 Unauthorized), and none are set for {}",
                self.registry, self.path, self.registry
            ))
            .hint(self.how_to_log_in()),
        }
    }

    /// The registry (or its token realm, at `url`) refused `credential`.
    fn refused(&self, url: &str, status: StatusCode, credential: Option<&Credential>) -> Hinted {
        let whose = match credential {
            Some(credential) => credential.described(),
            None => "no credentials".to_string(),
        };
        Hinted::new(format!(
            "{url}: {} refused {whose} ({status})",
            self.registry
        ))
        .hint(self.how_to_log_in())
    }

    /// How to give the registry credentials.
    fn how_to_log_in(&self) -> String {
        let origin = Origin::of(&format!("https://{}", self.registry))
            .unwrap_or_else(|| self.origin.clone());
        format!(
            "log in with `docker login {}` (skillpkg reads ~/.docker/config.json and its credential helpers), or set {} to a token in the environment or in credentials.toml",
            self.registry,
            crate::credentials::registry_token_variable(&origin)
        )
    }
}

/// An HTTP Basic `Authorization` header.
fn basic(user: &str, password: &str) -> String {
    use base64::Engine as _;
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
    )
}

/// The scheme a registry is spoken to in: `http` on this machine or when
/// `insecure` names it (as `HOST` or `HOST:PORT`), else `https`.
fn scheme_for(registry: &str, insecure: &[String]) -> &'static str {
    let host = match registry.strip_prefix('[') {
        Some(v6) => format!("[{}]", v6.split(']').next().unwrap_or(v6)),
        None => registry.split(':').next().unwrap_or(registry).to_string(),
    };
    let named = insecure
        .iter()
        .any(|given| given.eq_ignore_ascii_case(registry) || given.eq_ignore_ascii_case(&host));
    match is_loopback(&host) || named {
        true => "http",
        false => "https",
    }
}

/// A failure for good, saying `message`.
pub(super) fn fail<T>(message: String) -> Attempt<T> {
    Attempt::Fail(anyhow::anyhow!(message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registries_here_or_named_insecure_are_spoken_to_over_http() {
        let insecure = ["registry.internal".to_string(), "10.0.0.5:5000".to_string()];
        for (registry, scheme) in [
            ("127.0.0.1:5000", "http"),
            ("localhost:5000", "http"),
            ("[::1]:5000", "http"),
            ("registry.internal:5000", "http"),
            ("REGISTRY.internal", "http"),
            ("10.0.0.5:5000", "http"),
            ("10.0.0.5:6000", "https"),
            ("ghcr.io", "https"),
            ("registry.internal.example.com", "https"),
        ] {
            assert_eq!(scheme_for(registry, &insecure), scheme, "{registry}");
        }
    }
}
