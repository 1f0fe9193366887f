//! Speaking to one server: starting it (or reaching it over HTTP),
//! listing its skills a bounded number of pages at a time, and reading
//! each skill's files for [`super::verify`].

use std::time::Duration;

use anyhow::{Context as _, bail};
use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, PaginatedRequestParams,
    ReadResourceRequestParams, ResourceContents, SKILLS_EXTENSION_ID,
};
use rmcp::service::{RoleClient, RunningService};

use super::{HostOptions, Refusal, Server, VerifiedSkill};

/// Pages of `skills/list` read from one server, at most.
const MAX_PAGES: usize = 100;
/// Skills taken from one server, at most.
const MAX_SKILLS: usize = 1_000;
/// How long the server may take to start, and to answer one request.
const WAIT: Duration = Duration::from_secs(60);

type Client = RunningService<RoleClient, ClientConfig>;

/// What one server gave.
pub(super) struct Outcome {
    pub skills: Vec<VerifiedSkill>,
    pub refused: Vec<Refusal>,
}

/// Whom skillpkg says it is, declaring the Skills extension.
fn client_info() -> ClientConfig {
    let mut capabilities = ClientCapabilities::default();
    capabilities.extensions = Some(
        [(SKILLS_EXTENSION_ID.to_string(), Default::default())]
            .into_iter()
            .collect(),
    );
    ClientConfig::new(
        capabilities,
        Implementation::new("skillpkg", env!("CARGO_PKG_VERSION")),
    )
}

/// Starts the session: MCP's current lifecycle (`server/discover`, protocol
/// 2026-07-28, which servers such as FastMCP serve the Skills extension
/// on), falling back to `initialize` for a server that predates it.
async fn start<T, E, A>(
    client: ClientConfig,
    transport: T,
) -> Result<Client, rmcp::service::ClientInitializeError>
where
    T: rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    use rmcp::ClientServiceExt as _;
    client
        .serve_with_lifecycle(
            transport,
            rmcp::ClientLifecycleMode::Auto {
                preferred_versions: vec![rmcp::model::ProtocolVersion::V_2026_07_28],
                legacy_version: None,
            },
        )
        .await
}

/// The longest message read from a started server: a file of the most
/// bytes one may hold, base64-encoded, with room for its envelope.
const MAX_MESSAGE: usize = 24 * 1024 * 1024;

/// The stdio transport over a started server's pipes, reading messages of
/// at most [`MAX_MESSAGE`] bytes.
fn stdio_transport(
    stdout: tokio::process::ChildStdout,
    stdin: tokio::process::ChildStdin,
) -> rmcp::transport::async_rw::AsyncRwTransport<
    RoleClient,
    tokio::process::ChildStdout,
    tokio::process::ChildStdin,
> {
    rmcp::transport::async_rw::AsyncRwTransport::new_client(stdout, stdin)
        .with_max_line_length(MAX_MESSAGE)
}

/// Waits for `future`, at most [`WAIT`].
async fn within<T>(what: &str, future: impl Future<Output = T>) -> anyhow::Result<T> {
    tokio::time::timeout(WAIT, future)
        .await
        .map_err(|_| anyhow::anyhow!("{what} took longer than {} s", WAIT.as_secs()))
}

/// A started server's process, stopped (its whole group) when dropped.
type Started = crate::process::AsyncGroup;

/// Connects to `server`: starts a command with `options.env` only, or
/// opens the HTTP endpoint.
async fn connect(
    server: &Server,
    options: &HostOptions<'_>,
    http: &reqwest::Client,
) -> anyhow::Result<(Client, Option<Started>)> {
    match server {
        Server::Command { argv } => {
            let (program, args) = argv.split_first().context("the command is empty")?;
            let mut command = tokio::process::Command::new(program);
            command
                .args(args)
                .env_clear()
                .envs(options.env.iter().cloned())
                .current_dir(options.cwd)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::inherit());
            let mut started = crate::process::spawn_async(&mut command)
                .with_context(|| format!("could not start {program}"))?;
            let stdout = started.child.stdout.take().context("no stdout")?;
            let stdin = started.child.stdin.take().context("no stdin")?;
            let client = within(
                "starting the MCP session",
                start(client_info(), stdio_transport(stdout, stdin)),
            )
            .await?
            .map_err(|e| anyhow::anyhow!("the MCP session did not start: {e}"))?;
            Ok((client, Some(started)))
        }
        Server::Url(url) => {
            use rmcp::transport::StreamableHttpClientTransport;
            use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
            let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
            config.auth_header = options.token.clone();
            let transport = StreamableHttpClientTransport::with_client(http.clone(), config);
            let client = within("starting the MCP session", start(client_info(), transport))
                .await?
                .map_err(|e| anyhow::anyhow!("the MCP session did not start: {e}"))?;
            Ok((client, None))
        }
    }
}

/// Takes every skill `server` serves, each verified into the store or
/// refused.
pub(super) async fn take_from(
    server: &Server,
    options: &HostOptions<'_>,
    http: &reqwest::Client,
) -> anyhow::Result<Outcome> {
    let (client, started) = connect(server, options, http).await?;
    let outcome = take_listed(&client, server, options).await;
    let _ = within("closing the MCP session", client.cancel()).await;
    drop(started);
    outcome
}

async fn take_listed(
    client: &Client,
    server: &Server,
    options: &HostOptions<'_>,
) -> anyhow::Result<Outcome> {
    if !client
        .peer_info()
        .is_some_and(|info| info.capabilities.supports_skills())
    {
        bail!("it does not declare MCP's Skills extension ({SKILLS_EXTENSION_ID})");
    }
    let entries = list(client).await?;
    let origin = server.origin();
    let mut outcome = Outcome {
        skills: Vec::new(),
        refused: Vec::new(),
    };
    let mut names = std::collections::BTreeSet::new();
    for entry in entries {
        let name = entry.frontmatter.name.clone();
        if !names.insert(name.clone()) {
            outcome.refused.push(Refusal {
                origin: origin.clone(),
                skill: Some(name),
                reason: "the server lists two skills of this name".into(),
            });
            continue;
        }
        let read = |uri: String| read(client, uri);
        match super::verify::take(&entry, &origin, read, &options.store).await {
            Ok(skill) => outcome.skills.push(skill),
            Err(reason) => outcome.refused.push(Refusal {
                origin: origin.clone(),
                skill: Some(name),
                reason,
            }),
        }
    }
    Ok(outcome)
}

/// Every page of `skills/list`, at most [`MAX_PAGES`] pages and
/// [`MAX_SKILLS`] skills.
async fn list(client: &Client) -> anyhow::Result<Vec<rmcp::model::Skill>> {
    let mut skills = Vec::new();
    let mut cursor = None;
    for _ in 0..MAX_PAGES {
        let params = PaginatedRequestParams::default().with_cursor(cursor);
        let page = within("skills/list", client.list_skills(Some(params)))
            .await?
            .map_err(|e| anyhow::anyhow!("skills/list failed: {e}"))?;
        skills.extend(page.skills);
        if skills.len() > MAX_SKILLS {
            bail!("it lists more than {MAX_SKILLS} skills");
        }
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return Ok(skills),
        }
    }
    bail!("its skills/list goes on for more than {MAX_PAGES} pages")
}

/// The bytes of the resource `uri`: the one content the server returns,
/// which must be for `uri` itself.
async fn read(client: &Client, uri: String) -> Result<Vec<u8>, String> {
    use base64::Engine as _;
    let result = within(
        "resources/read",
        client.read_resource(ReadResourceRequestParams::new(uri.clone())),
    )
    .await
    .map_err(|e| format!("{e:#}"))?
    .map_err(|e| format!("reading {uri} failed: {e}"))?;
    if let Some(other) = result
        .contents
        .iter()
        .filter_map(content_uri)
        .find(|u| *u != uri)
    {
        return Err(format!(
            "asked for {uri}, the server answered with {other}, a file it did not list"
        ));
    }
    let mut contents = result.contents.into_iter();
    let (Some(content), None) = (contents.next(), contents.next()) else {
        return Err(format!("reading {uri} did not return exactly one file"));
    };
    let bytes = match content {
        ResourceContents::TextResourceContents { text, .. } => text.into_bytes(),
        ResourceContents::BlobResourceContents { blob, .. } => {
            base64::engine::general_purpose::STANDARD
                .decode(blob.as_bytes())
                .map_err(|e| format!("{uri}: its blob is no base64: {e}"))?
        }
        _ => {
            return Err(format!(
                "reading {uri} returned contents of a kind skillpkg does not know"
            ));
        }
    };
    Ok(bytes)
}

/// The URI a content of a `resources/read` answer is for.
fn content_uri(content: &ResourceContents) -> Option<&str> {
    match content {
        ResourceContents::TextResourceContents { uri, .. }
        | ResourceContents::BlobResourceContents { uri, .. } => Some(uri),
        _ => None,
    }
}
