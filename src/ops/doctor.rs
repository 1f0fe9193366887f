//! `doctor`: what this machine and this build give skillpkg. The
//! platform, the sandbox backend and what it enforces (or why there is
//! none), the agents whose folders are here, skillpkg's own folders, and
//! what is missing for `exec`.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::dirs::Dirs;
use crate::roots::agents::{AGENTS, UserFolder, config_home};
use crate::sandbox::Backend;

/// What `doctor` found.
#[derive(Debug, Serialize)]
pub(crate) struct Report {
    /// skillpkg's version.
    pub version: &'static str,
    /// The target it was built for (`x86_64-unknown-linux-gnu`).
    pub target: &'static str,
    /// The cargo features it was built with.
    pub features: Vec<&'static str>,
    /// The operating system and the processor, as Rust names them.
    pub platform: Platform,
    /// The sandbox of scripts and shell commands.
    pub sandbox: SandboxReport,
    /// The agents whose folders are on this machine or in this project.
    pub agents: Vec<AgentFound>,
    /// skillpkg's own folders.
    pub paths: Paths,
    /// What `exec` would miss, each with what to do.
    pub missing: Vec<String>,
}

/// The operating system and processor.
#[derive(Debug, Serialize)]
pub(crate) struct Platform {
    /// `linux`, `macos`, `windows`, …
    pub os: &'static str,
    /// `x86_64`, `aarch64`, …
    pub arch: &'static str,
}

/// The sandbox here.
#[derive(Debug, Serialize)]
pub(crate) struct SandboxReport {
    /// The platform's backend, if this build has one.
    pub backend: Option<Backend>,
    /// What the backend is.
    pub mechanism: Option<&'static str>,
    /// Whether it could be set up just now.
    pub set_up: bool,
    /// Why not, when it could not.
    pub unavailable: Option<String>,
    /// The rules it enforces (docs/sandbox.md), when it is set up.
    pub enforces: Vec<&'static str>,
}

/// An agent whose folder exists.
#[derive(Debug, Serialize)]
pub(crate) struct AgentFound {
    /// Its name in `[install] targets`.
    pub name: &'static str,
    /// Its user skills folder, when the agent's own folder is there
    /// (the skills folder itself may not exist yet).
    pub user: Option<PathBuf>,
    /// Its project skills folder, when it exists in the project.
    pub project: Option<PathBuf>,
}

/// skillpkg's folders.
#[derive(Debug, Serialize)]
pub(crate) struct Paths {
    /// Configuration.
    pub config: PathBuf,
    /// The cache.
    pub cache: PathBuf,
    /// State worth keeping.
    pub data: PathBuf,
    /// The user skill root.
    pub user_skills: PathBuf,
    /// The project around the working directory, if there is one.
    pub project: Option<PathBuf>,
}

/// The cargo features this build has.
pub(crate) fn features() -> Vec<&'static str> {
    let mut features = Vec::new();
    if cfg!(feature = "linux-sandbox") {
        features.push("linux-sandbox");
    }
    features
}

/// The report for `dirs`, the project at `project` (if any), and the
/// model `exec` would use (`None`: none is configured).
pub(crate) fn report(dirs: &Dirs, project: Option<&Path>, model: Option<&str>) -> Report {
    let available = crate::sandbox::availability();
    let sandbox = SandboxReport {
        backend: Backend::of_platform(),
        mechanism: Backend::of_platform().map(Backend::describe),
        set_up: available.is_ok(),
        enforces: match available {
            Ok(()) => crate::sandbox::spec::RULES.to_vec(),
            Err(_) => Vec::new(),
        },
        unavailable: available.err(),
    };
    let mut missing = Vec::new();
    if let Some(why) = &sandbox.unavailable {
        missing.push(format!(
            "the sandbox cannot be set up here ({why}), so exec refuses scripts and shell commands; {}",
            crate::sandbox::unsandboxed_choices()
        ));
    }
    if model.is_none() {
        missing.push(
            "no model is configured for exec: pass --model, set SKILLPKG_MODEL, or export ANTHROPIC_API_KEY or OPENAI_API_KEY"
                .into(),
        );
    }
    Report {
        version: env!("CARGO_PKG_VERSION"),
        target: env!("SKILLPKG_TARGET"),
        features: features(),
        platform: Platform {
            os: std::env::consts::OS,
            arch: std::env::consts::ARCH,
        },
        sandbox,
        agents: agents_found(dirs.home.as_deref(), project),
        paths: Paths {
            config: dirs.config.clone(),
            cache: dirs.cache.clone(),
            data: dirs.data.clone(),
            user_skills: dirs.user_root.clone(),
            project: project.map(Path::to_path_buf),
        },
        missing,
    }
}

/// The agents whose own folder is in `home` (`~/.claude` for
/// `~/.claude/skills`) or whose skills folder is in `project`.
fn agents_found(home: Option<&Path>, project: Option<&Path>) -> Vec<AgentFound> {
    AGENTS
        .iter()
        .filter_map(|agent| {
            let user = home.and_then(|home| {
                let (base, relative) = match agent.user {
                    UserFolder::Home(relative) => (home.to_path_buf(), relative),
                    UserFolder::Config(relative) => (config_home(home), relative),
                };
                let own = relative.split('/').next().unwrap_or(relative);
                base.join(own)
                    .is_dir()
                    .then(|| agent.user_folder(home, &config_home(home)))
            });
            let project = project
                .map(|dir| agent.project_folder(dir))
                .filter(|folder| folder.is_dir());
            (user.is_some() || project.is_some()).then_some(AgentFound {
                name: agent.name,
                user,
                project,
            })
        })
        .collect()
}
