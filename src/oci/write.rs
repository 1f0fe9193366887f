//! The requests of the OCI distribution protocol a publish makes: whether
//! a blob is there, a blob's upload (a `POST` opening the session and a
//! monolithic `PUT` closing it), a manifest's `PUT`, and, for reading
//! what was attached, the Referrers API and the catalog.
//!
//! Writes answer the registry's authentication challenge as reads do
//! (the challenge names the push scope) and follow no redirect: an upload
//! session the registry opens elsewhere than its own origin is refused,
//! so credentials and content go to the registry alone.

use anyhow::Context as _;
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, LOCATION};
use reqwest::{Method, StatusCode, Url};

use super::client::{Client, Fetched, fail};
use super::redirect::Asked;
use crate::hint::Hinted;
use crate::net::{Attempt, goes_to, within_deadline};

/// A manifest's `PUT`, answered.
pub(crate) struct PutManifest {
    /// Whether the registry took the manifest's `subject` as a referrer
    /// (its answer has the `OCI-Subject` header): where it did not, a
    /// signature is tagged by the fallback tag schema too.
    pub subject_indexed: bool,
}

impl Client {
    /// Whether the repository has the blob `digest`.
    pub(crate) fn has_blob(&self, digest: &str) -> anyhow::Result<bool> {
        let url = self.url(&format!("blobs/{digest}"))?;
        let shown = url.to_string();
        self.http.block_on(self.retry.run(&shown, || {
            within_deadline(self.deadline, &shown, async {
                let response = match self.write(Method::HEAD, &url, None, Vec::new()).await {
                    Ok(response) => response,
                    Err(attempt) => return attempt,
                };
                if response.status() == StatusCode::NOT_FOUND {
                    return Attempt::Done(false);
                }
                match self.check_status(&response, &shown) {
                    Ok(()) => Attempt::Done(true),
                    Err(attempt) => attempt,
                }
            })
        }))
    }

    /// Uploads `bytes` as the blob `digest` (`sha256:<hex>` of them),
    /// unless the repository has it already.
    pub(crate) fn push_blob(&self, bytes: &[u8], digest: &str) -> anyhow::Result<()> {
        if self.has_blob(digest)? {
            return Ok(());
        }
        let start = self.url("blobs/uploads/")?;
        let shown = start.to_string();
        self.http.block_on(self.retry.run(&shown, || {
            within_deadline(self.deadline, &shown, async {
                let response = match self.write(Method::POST, &start, None, Vec::new()).await {
                    Ok(response) => response,
                    Err(attempt) => return attempt,
                };
                if let Err(attempt) = self.check_status(&response, &shown) {
                    return attempt;
                }
                let Some(location) = response
                    .headers()
                    .get(LOCATION)
                    .and_then(|v| v.to_str().ok())
                else {
                    return fail(format!(
                        "{shown}: the registry opened no upload session (no Location)"
                    ));
                };
                let Ok(mut session) = start.join(location) else {
                    return fail(format!(
                        "{shown}: the registry's upload session {location:?} is no URL"
                    ));
                };
                if !goes_to(session.as_str(), &self.origin) {
                    return Attempt::Fail(
                        Hinted::new(format!(
                            "{shown}: the registry opens the upload at {session}, another origin; skillpkg uploads to the registry alone"
                        ))
                        .hint("the registry is misconfigured or hostile")
                        .into(),
                    );
                }
                session.query_pairs_mut().append_pair("digest", digest);
                let response = match self
                    .write(
                        Method::PUT,
                        &session,
                        Some("application/octet-stream"),
                        bytes.to_vec(),
                    )
                    .await
                {
                    Ok(response) => response,
                    Err(attempt) => return attempt,
                };
                match self.check_status(&response, &shown) {
                    Ok(()) => Attempt::Done(()),
                    Err(attempt) => attempt,
                }
            })
        }))
    }

    /// Puts the manifest `bytes` (of `media_type`) under `reference`, a
    /// tag or its digest.
    pub(crate) fn put_manifest(
        &self,
        reference: &str,
        media_type: &str,
        bytes: &[u8],
    ) -> anyhow::Result<PutManifest> {
        let url = self.url(&format!("manifests/{reference}"))?;
        let shown = url.to_string();
        self.http.block_on(self.retry.run(&shown, || {
            within_deadline(self.deadline, &shown, async {
                let response = match self
                    .write(Method::PUT, &url, Some(media_type), bytes.to_vec())
                    .await
                {
                    Ok(response) => response,
                    Err(attempt) => return attempt,
                };
                if let Err(attempt) = self.check_status(&response, &shown) {
                    return attempt;
                }
                Attempt::Done(PutManifest {
                    subject_indexed: response.headers().contains_key("oci-subject"),
                })
            })
        }))
    }

    /// The image index of the artifacts that refer to `digest` (of
    /// `artifact_type`, when given), by the Referrers API; `None` where
    /// the registry has no such API (it answers `404`).
    pub(crate) fn referrers(
        &self,
        digest: &str,
        artifact_type: Option<&str>,
    ) -> anyhow::Result<Option<Fetched>> {
        let mut url = self.url(&format!("referrers/{digest}"))?;
        if let Some(artifact_type) = artifact_type {
            url.query_pairs_mut()
                .append_pair("artifactType", artifact_type);
        }
        self.read(
            Asked::Manifest,
            url,
            Some("application/vnd.oci.image.index.v1+json"),
        )
    }

    /// The registry's repositories, from its catalog; `None` where the
    /// registry does not let it be read (most public ones).
    pub(crate) fn catalog(&self) -> anyhow::Result<Option<Vec<String>>> {
        #[derive(serde::Deserialize)]
        struct Catalog {
            #[serde(default)]
            repositories: Vec<String>,
        }
        // Pages of the most registries allow, each after the last
        // repository of the one before, up to a bound.
        const PAGE: usize = 1000;
        const MAX_PAGES: usize = 100;
        let mut repositories: Vec<String> = Vec::new();
        for _ in 0..MAX_PAGES {
            let mut url = Url::parse(&format!("{}/v2/_catalog", self.base))?;
            url.query_pairs_mut().append_pair("n", &PAGE.to_string());
            if let Some(last) = repositories.last() {
                url.query_pairs_mut().append_pair("last", last);
            }
            let fetched = match self.read(Asked::Tags, url.clone(), None) {
                Ok(Some(fetched)) => fetched,
                Ok(None) | Err(_) if repositories.is_empty() => return Ok(None),
                Ok(None) | Err(_) => break,
            };
            let page: Catalog = serde_json::from_slice(&fetched.bytes)
                .with_context(|| format!("{url}: no catalog"))?;
            let full = page.repositories.len() >= PAGE;
            repositories.extend(page.repositories);
            if !full {
                break;
            }
        }
        Ok(Some(repositories))
    }

    /// Sends a write (or `HEAD`) request, answering one authentication
    /// challenge; a redirect is not followed.
    async fn write<T>(
        &self,
        method: Method,
        url: &Url,
        content_type: Option<&str>,
        body: Vec<u8>,
    ) -> Result<reqwest::Response, Attempt<T>> {
        let mut answered = false;
        loop {
            let authorization = self.auth.lock().expect("auth lock").authorization.clone();
            let mut request = self
                .http
                .client()
                .request(method.clone(), url.clone())
                .body(body.clone());
            if let Some(content_type) = content_type {
                request = request.header(CONTENT_TYPE, content_type);
            }
            if let Some(authorization) = &authorization {
                request = request.header(AUTHORIZATION, authorization);
            }
            let response = crate::net::send(request).await?;
            if response.status().is_redirection() {
                return Err(fail(format!(
                    "{url}: the registry redirects a {method} request, which skillpkg does not follow"
                )));
            }
            if response.status() != StatusCode::UNAUTHORIZED {
                return Ok(response);
            }
            self.reauthorize(&response, url, &mut answered).await?;
        }
    }
}
