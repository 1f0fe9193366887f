//! A registry with the OCI 1.1 Referrers API, for the tests: a loopback
//! proxy in front of a real `docker-registry` (whose 2.x line has no such
//! API) that answers `GET /v2/<name>/referrers/<digest>` itself from the
//! manifests with a `subject` put through it, says `OCI-Subject` when it
//! takes one, and passes every other request on unchanged (upload
//! locations rewritten to point at the proxy).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;

use crate::server::serve_on_loopback;

/// Referrers recorded: by `(repository, subject digest)`, descriptors.
type Referrers = Mutex<HashMap<(String, String), Vec<serde_json::Value>>>;

struct Shared {
    upstream: String,
    addr: Mutex<Option<SocketAddr>>,
    referrers: Referrers,
    client: reqwest::Client,
}

/// The proxy; stopped when dropped.
pub(crate) struct ReferrersProxy {
    addr: SocketAddr,
    _runtime: tokio::runtime::Runtime,
}

impl ReferrersProxy {
    /// A proxy in front of the registry at `upstream` (`HOST:PORT`).
    pub(crate) fn start(upstream: &str) -> ReferrersProxy {
        let shared = Arc::new(Shared {
            upstream: upstream.to_string(),
            addr: Mutex::new(None),
            referrers: Mutex::new(HashMap::new()),
            // Plain HTTP to a registry on this machine: TLS is set up only
            // because reqwest is built without a provider of its own.
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .tls_backend_preconfigured(
                    rustls::ClientConfig::builder_with_provider(Arc::new(
                        rustls::crypto::ring::default_provider(),
                    ))
                    .with_safe_default_protocol_versions()
                    .unwrap()
                    .with_root_certificates(rustls::RootCertStore::empty())
                    .with_no_client_auth(),
                )
                .build()
                .unwrap(),
        });
        let app = axum::Router::new()
            .fallback(handle)
            .with_state(shared.clone());
        let (addr, runtime) = serve_on_loopback(app);
        *shared.addr.lock().unwrap() = Some(addr);
        ReferrersProxy {
            addr,
            _runtime: runtime,
        }
    }

    /// `127.0.0.1:PORT`.
    pub(crate) fn host(&self) -> String {
        self.addr.to_string()
    }
}

async fn handle(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().to_string();
    if method == Method::GET
        && let Some((name, digest)) = path
            .strip_prefix("/v2/")
            .and_then(|rest| rest.split_once("/referrers/"))
    {
        let wanted = uri.query().and_then(|q| {
            q.split('&')
                .find_map(|pair| pair.strip_prefix("artifactType="))
                .map(|t| t.replace("%2F", "/").replace("%2B", "+"))
        });
        let manifests: Vec<serde_json::Value> = shared
            .referrers
            .lock()
            .unwrap()
            .get(&(name.to_string(), digest.to_string()))
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .filter(|d| wanted.as_ref().is_none_or(|t| d["artifactType"] == *t))
            .collect();
        let index = serde_json::json!({
            "schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.index.v1+json",
            "manifests": manifests,
        });
        return Response::builder()
            .status(StatusCode::OK)
            .header("content-type", "application/vnd.oci.image.index.v1+json")
            .body(Body::from(serde_json::to_vec(&index).unwrap()))
            .unwrap();
    }
    let mut subject = None;
    if method == Method::PUT
        && let Some((name, _)) = path
            .strip_prefix("/v2/")
            .and_then(|rest| rest.rsplit_once("/manifests/"))
        && let Ok(manifest) = serde_json::from_slice::<serde_json::Value>(&body)
        && let Some(of) = manifest["subject"]["digest"].as_str()
    {
        use sha2::Digest as _;
        let digest: String = sha2::Sha256::digest(&body)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let descriptor = serde_json::json!({
            "mediaType": manifest["mediaType"],
            "digest": format!("sha256:{digest}"),
            "size": body.len(),
            "artifactType": manifest["artifactType"],
        });
        let mut referrers = shared.referrers.lock().unwrap();
        let list = referrers
            .entry((name.to_string(), of.to_string()))
            .or_default();
        if !list.contains(&descriptor) {
            list.push(descriptor);
        }
        subject = Some(of.to_string());
    }
    let target = format!(
        "http://{}{}",
        shared.upstream,
        uri.path_and_query().map_or("/", |p| p.as_str())
    );
    let mut request = shared.client.request(method, target).body(body);
    for (name, value) in &headers {
        if name != "host" {
            request = request.header(name, value);
        }
    }
    let answer = request.send().await.unwrap();
    let mut response = Response::builder().status(answer.status().as_u16());
    let proxy = shared.addr.lock().unwrap().unwrap();
    for (name, value) in answer.headers() {
        let value = value
            .to_str()
            .unwrap_or_default()
            .replace(&shared.upstream, &proxy.to_string());
        response = response.header(name.as_str(), value);
    }
    if let Some(subject) = subject {
        response = response.header("OCI-Subject", subject);
    }
    let bytes = answer.bytes().await.unwrap();
    response.body(Body::from(bytes)).unwrap()
}
