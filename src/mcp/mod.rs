//! `skillpkg serve --mcp`: the project's resolved skill set served over
//! the Model Context Protocol, per its Skills extension (SEP-2640,
//! `io.modelcontextprotocol/skills`), so that agents which speak MCP read
//! exactly what skillpkg verified. docs/mcp.md describes what is served.

pub(crate) mod config;
pub(crate) mod host;
mod http;
mod log;
mod server;
mod skill_set;

pub(crate) use http::{Listen, generate_token};
pub(crate) use skill_set::{Loaded, Loader};

use crate::dirs::Dirs;

/// Serves the skill set `loader` reads (again on every listing) over
/// stdio until the client closes it. What is left out of the set is said
/// on stderr.
pub(crate) fn serve_stdio(loader: Loader, dirs: Dirs) -> anyhow::Result<()> {
    use rmcp::ServiceExt as _;
    let (server, warnings) = server::SkillServer::new(loader, dirs)?;
    log::warnings(&warnings);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| anyhow::anyhow!("the MCP session did not start: {e}"))?;
        running
            .waiting()
            .await
            .map_err(|e| anyhow::anyhow!("the MCP session ended abnormally: {e}"))?;
        anyhow::Ok(())
    })
}

/// Serves the skill set `loader` reads over streamable HTTP at
/// `http://ADDR/mcp`, as `listen` says, until interrupted.
/// `listening` is called with the address bound.
pub(crate) fn serve_http(
    loader: Loader,
    dirs: Dirs,
    listen: Listen,
    listening: impl FnOnce(std::net::SocketAddr),
) -> anyhow::Result<()> {
    let (server, warnings) = server::SkillServer::new(loader, dirs)?;
    log::warnings(&warnings);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(http::serve(server, listen, listening))
}
