//! `serve --mcp --http ADDR`: the server over MCP's streamable HTTP
//! transport (rmcp's service, on axum), for hosts that connect to a URL.
//!
//! - It listens on a loopback address only, unless `--listen-any`.
//! - Every request must carry `Authorization: Bearer <token>`: the token
//!   comes from `SKILLPKG_MCP_TOKEN`, or is generated and printed on
//!   stderr; it is never taken from the command line, where `ps` shows it.
//! - `Host` must name this machine (rmcp's check against DNS rebinding,
//!   unless `--listen-any`), and a request with an `Origin` header (a
//!   browser's) is refused.

use std::net::SocketAddr;

use anyhow::{Context as _, bail};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::server::SkillServer;
use crate::hint::Hinted;

/// Where and how the HTTP server listens.
pub(crate) struct Listen {
    /// The address to bind.
    pub addr: SocketAddr,
    /// Whether a non-loopback address may be bound.
    pub any: bool,
    /// The bearer token every request must carry.
    pub token: String,
}

/// A token of 32 random bytes, hex.
pub(crate) fn generate_token() -> anyhow::Result<String> {
    use std::io::Read as _;
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut random| random.read_exact(&mut bytes))
        .context("could not read random bytes for the server's token")?;
    Ok(crate::store::hash::hex(&bytes))
}

/// Serves `server` at `http://ADDR/mcp` until interrupted, calling
/// `listening` with the address bound (the port the system picked, for
/// port 0).
pub(crate) async fn serve(
    server: SkillServer,
    listen: Listen,
    listening: impl FnOnce(SocketAddr),
) -> anyhow::Result<()> {
    if !listen.addr.ip().is_loopback() && !listen.any {
        bail!(
            Hinted::new(format!(
                "{} is not a loopback address, and the server serves this machine only",
                listen.addr
            ))
            .hint("listen on 127.0.0.1:PORT, or pass --listen-any to serve the network (every request still needs the token)")
        );
    }
    let mut config = StreamableHttpServerConfig::default().enforce_origin_validation();
    if listen.any {
        config = config.disable_allowed_hosts();
    }
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        LocalSessionManager::default().into(),
        config,
    );
    let app = axum::Router::new().nest_service("/mcp", service).layer(
        axum::middleware::from_fn_with_state(
            std::sync::Arc::new(listen.token.clone()),
            require_token,
        ),
    );
    let listener = tokio::net::TcpListener::bind(listen.addr)
        .await
        .with_context(|| format!("could not listen on {}", listen.addr))?;
    listening(listener.local_addr()?);
    axum::serve(listener, app)
        .await
        .context("the HTTP server stopped")
}

/// Refuses a request without the bearer token (compared in constant
/// time).
async fn require_token(
    State(token): State<std::sync::Arc<String>>,
    request: Request,
    next: Next,
) -> Result<Response, StatusCode> {
    let given = request
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    let expected = token.as_bytes();
    let matches = given.len() == expected.len()
        && given
            .bytes()
            .zip(expected)
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0;
    match matches {
        true => Ok(next.run(request).await),
        false => Err(StatusCode::UNAUTHORIZED),
    }
}
