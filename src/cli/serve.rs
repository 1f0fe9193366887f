//! `skillpkg serve --mcp`

use std::path::PathBuf;

use super::{Context, ExitStatus};

/// Serve the project's resolved skills (the three roots, precedence
/// applied, managed skills as skills.lock verified them) over the Model
/// Context Protocol, per its Skills extension: every file a skill://
/// resource with its sha256, plus the tools list_skills, use_skill and
/// read_skill_file for clients without the extension. Scripts are never
/// run and nothing is written.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Serve over MCP on stdin and stdout (what agents' MCP configurations
    /// start).
    #[arg(long, required = true)]
    mcp: bool,
    /// The project to serve (default: the one around the current
    /// directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Serve over MCP's streamable HTTP transport at http://ADDR/mcp
    /// instead (a loopback address, such as 127.0.0.1:8765). Every request
    /// needs the bearer token: SKILLPKG_MCP_TOKEN, or one generated and
    /// printed.
    #[arg(long, value_name = "ADDR")]
    http: Option<std::net::SocketAddr>,
    /// With --http, allow an address beyond this machine (the token is
    /// still required of every request).
    #[arg(long, requires = "http")]
    listen_any: bool,
    /// Print the entry this agent's MCP configuration needs to start the
    /// server for the project (claude, cursor, vscode, codex), and serve
    /// nothing.
    #[arg(long, value_name = "AGENT", value_parser = clap::builder::PossibleValuesParser::new(crate::mcp::config::AGENTS))]
    print_config: Option<String>,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let _ = args.mcp;
    let cwd = match &args.project {
        Some(dir) => {
            let dir = context.cwd.join(dir);
            anyhow::ensure!(dir.is_dir(), "--project {}: no such folder", dir.display());
            dir
        }
        None => context.cwd.clone(),
    };
    if let Some(agent) = &args.print_config {
        let project = crate::ops::skills::project_manifest(&cwd)?.0;
        let project = std::fs::canonicalize(&project).unwrap_or(project);
        let program = std::env::current_exe()?;
        let (file, text) = crate::mcp::config::snippet(agent, &program, &project)
            .expect("clap allows only known agents");
        context
            .printer
            .status("Add", format_args!("this to {file}"));
        context.printer.data(text.trim_end());
        return Ok(ExitStatus::Success);
    }
    let dirs = context.dirs()?.clone();
    let loader: crate::mcp::Loader = {
        let dirs = dirs.clone();
        std::sync::Arc::new(move || {
            let loaded = crate::ops::skills::load_skills(&cwd, &dirs)?;
            Ok(crate::mcp::Loaded {
                set: loaded.set,
                manifest_dir: loaded.manifest_dir,
            })
        })
    };
    let Some(addr) = args.http else {
        crate::mcp::serve_stdio(loader, dirs)?;
        return Ok(ExitStatus::Success);
    };
    let (token, shown) = match crate::env_vars::non_blank(crate::env_vars::SKILLPKG_MCP_TOKEN) {
        Some(token) => (
            token,
            format!("bearer token from {}", crate::env_vars::SKILLPKG_MCP_TOKEN),
        ),
        None => {
            let token = crate::mcp::generate_token()?;
            let shown = format!("bearer token {token}");
            (token, shown)
        }
    };
    let printer = &context.printer;
    crate::mcp::serve_http(
        loader,
        dirs,
        crate::mcp::Listen {
            addr,
            any: args.listen_any,
            token,
        },
        |bound| {
            printer.status(
                "Serving",
                format_args!("skills over MCP at http://{bound}/mcp ({shown})"),
            )
        },
    )?;
    Ok(ExitStatus::Success)
}
