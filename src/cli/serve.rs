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
    crate::mcp::serve_stdio(loader, dirs)?;
    Ok(ExitStatus::Success)
}
