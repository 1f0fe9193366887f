//! A static file server on loopback, serving an index folder the way any
//! HTTP server would (with `ETag` revalidation), with faults to order:
//! error answers, bodies that break off, and a request log.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::Response;

/// A fault the server injects into the next requests for one path.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Fault {
    /// Answer with this status.
    Status(u16),
    /// Send the headers and half the body, then close the connection.
    DropMidBody,
    /// Wait this many milliseconds before answering.
    Stall(u64),
}

#[derive(Default)]
struct Shared {
    root: PathBuf,
    /// Per path: faults still to inject, in order; `None` as the count means forever.
    faults: Mutex<HashMap<String, (Fault, Option<usize>)>>,
    /// `(path, status)` of every answered request, in order.
    log: Mutex<Vec<(String, u16)>>,
    /// The path of every request as it arrived, answered or not.
    arrivals: Mutex<Vec<String>>,
    /// The `Authorization` header every request must carry, if any.
    required_authorization: Mutex<Option<String>>,
    /// `(Host header, Authorization header)` of every request that carried
    /// credentials, in order.
    authorizations: Mutex<Vec<(String, String)>>,
}

/// A running server; stopped when dropped.
pub(crate) struct StaticServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    runtime: Option<tokio::runtime::Runtime>,
}

/// Serves `app` on 127.0.0.1 at a free port, from a runtime of its own
/// (the server stops when the runtime is dropped).
pub(crate) fn serve_on_loopback(app: axum::Router) -> (SocketAddr, tokio::runtime::Runtime) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    runtime.spawn(async move {
        let listener = tokio::net::TcpListener::from_std(listener).unwrap();
        axum::serve(listener, app).await.unwrap();
    });
    (addr, runtime)
}

impl StaticServer {
    /// Serves the files under `root` on 127.0.0.1 at a free port.
    pub(crate) fn start(root: &Path) -> StaticServer {
        let shared = Arc::new(Shared {
            root: root.to_path_buf(),
            ..Shared::default()
        });
        let (addr, runtime) = serve_on_loopback(
            axum::Router::new()
                .fallback(serve)
                .with_state(shared.clone()),
        );
        StaticServer {
            addr,
            shared,
            runtime: Some(runtime),
        }
    }

    /// The URL of the served folder, with a trailing slash.
    pub(crate) fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Replaces this server's address in `text` with `[SERVER]`, for snapshots.
    pub(crate) fn redact(&self, text: &str) -> String {
        let as_variable = self.addr.to_string().replace(['.', ':'], "_");
        text.replace(&format!("http://{}", self.addr), "[SERVER]")
            .replace(&as_variable, "[HOST]")
    }

    /// Injects `fault` into the next `times` requests for `path` (relative,
    /// no leading slash); `None` for every request from now on.
    pub(crate) fn fault(&self, path: &str, fault: Fault, times: Option<usize>) {
        self.shared
            .faults
            .lock()
            .unwrap()
            .insert(format!("/{path}"), (fault, times));
    }

    /// Every request so far as `(path, status)`.
    pub(crate) fn log(&self) -> Vec<(String, u16)> {
        self.shared.log.lock().unwrap().clone()
    }

    /// How many requests for `path` (relative) arrived, answered or not.
    pub(crate) fn arrivals(&self, path: &str) -> usize {
        let path = format!("/{path}");
        self.shared
            .arrivals
            .lock()
            .unwrap()
            .iter()
            .filter(|p| **p == path)
            .count()
    }

    /// Answers `401` to every request without this `Authorization` header.
    pub(crate) fn require_authorization(&self, value: &str) {
        *self.shared.required_authorization.lock().unwrap() = Some(value.to_string());
    }

    /// The `(Host, Authorization)` headers of every request so far that
    /// carried an `Authorization` header.
    pub(crate) fn authorizations(&self) -> Vec<(String, String)> {
        self.shared.authorizations.lock().unwrap().clone()
    }

    /// Forgets the requests so far, answered or not.
    pub(crate) fn clear_log(&self) {
        self.shared.log.lock().unwrap().clear();
        self.shared.arrivals.lock().unwrap().clear();
    }

    /// Stops serving: connections are refused from now on.
    pub(crate) fn stop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop();
    }
}

fn take_fault(shared: &Shared, path: &str) -> Option<Fault> {
    let mut faults = shared.faults.lock().unwrap();
    let (fault, remaining) = faults.get_mut(path)?;
    let fault = *fault;
    match remaining {
        None => Some(fault),
        Some(0) => None,
        Some(n) => {
            *n -= 1;
            Some(fault)
        }
    }
}

async fn serve(State(shared): State<Arc<Shared>>, uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().to_string();
    shared.arrivals.lock().unwrap().push(path.clone());
    if let Some(given) = headers.get(header::AUTHORIZATION) {
        let text =
            |value: &header::HeaderValue| String::from_utf8_lossy(value.as_bytes()).into_owned();
        let host = headers.get(header::HOST).map(text).unwrap_or_default();
        shared
            .authorizations
            .lock()
            .unwrap()
            .push((host, text(given)));
    }
    let required = shared.required_authorization.lock().unwrap().clone();
    if let Some(required) = required
        && headers
            .get(header::AUTHORIZATION)
            .is_none_or(|given| given.as_bytes() != required.as_bytes())
    {
        shared.log.lock().unwrap().push((path, 401));
        return Response::builder().status(401).body(Body::empty()).unwrap();
    }
    let fault = take_fault(&shared, &path);
    if let Some(Fault::Stall(millis)) = fault {
        tokio::time::sleep(std::time::Duration::from_millis(millis)).await;
    }
    let response = answer(&shared, &path, &headers, fault);
    shared
        .log
        .lock()
        .unwrap()
        .push((path, response.status().as_u16()));
    response
}

fn answer(shared: &Shared, path: &str, headers: &HeaderMap, fault: Option<Fault>) -> Response {
    let status = |code: u16| {
        Response::builder()
            .status(code)
            .body(Body::empty())
            .unwrap()
    };
    if let Some(Fault::Status(code)) = fault {
        return status(code);
    }
    let relative = path.trim_start_matches('/');
    if relative.split('/').any(|part| part == "..") {
        return status(400);
    }
    let Ok(bytes) = std::fs::read(shared.root.join(relative)) else {
        return status(404);
    };
    let etag = format!("\"{:x}-{}\"", fnv1a(&bytes), bytes.len());
    if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes())
    {
        return Response::builder()
            .status(StatusCode::NOT_MODIFIED)
            .header(header::ETAG, etag)
            .body(Body::empty())
            .unwrap();
    }
    let length = bytes.len();
    let body = match fault {
        Some(Fault::DropMidBody) => {
            let half = Bytes::from(bytes[..length / 2].to_vec());
            Body::from_stream(futures_util::stream::iter([
                Ok(half),
                Err(std::io::Error::other("connection dropped on purpose")),
            ]))
        }
        _ => Body::from(bytes),
    };
    Response::builder()
        .status(200)
        .header(header::ETAG, etag)
        .header(header::CONTENT_LENGTH, length)
        .body(body)
        .unwrap()
}

/// A cheap content hash for the ETag (FNV-1a).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x100000001b3)
    })
}
