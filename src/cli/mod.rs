//! Argument parsing and output. One file per command; each parses its
//! arguments, calls into `ops` (or the library) and renders the result.

mod ask;
mod cache;
mod completions;
mod doctor;
mod enable;
mod eval;
mod exec;
mod export;
mod grants;
mod import;
mod index;
mod init;
mod install;
mod install_warnings;
mod keygen;
mod limits;
mod list;
mod mcp_skills;
mod mirror;
mod new;
mod outdated;
mod pack;
mod printer;
mod progress;
mod promote;
mod prompt;
mod publish;
mod registry;
mod sandbox;
mod sbom;
mod scan;
mod search;
mod serve;
mod show;
mod signature;
mod targets;
mod trust;
mod update;
mod validate;
mod verify;
mod yank;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use printer::{Printer, Verbosity};
pub use progress::Bars;

use crate::progress::Progress as _;

use crate::dirs::Dirs;
use crate::hint::Hinted;

/// skillpkg: a package manager for Agent Skills, with the agent built in.
#[derive(Debug, Parser)]
#[command(name = "skillpkg", version, about, arg_required_else_help = true)]
pub(crate) struct Cli {
    /// Print only errors.
    #[arg(
        short,
        long,
        global = true,
        conflicts_with = "verbose",
        display_order = 1000
    )]
    quiet: bool,
    /// Print more detail.
    #[arg(short, long, global = true, display_order = 1001)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Create a skills.toml for a project.
    Init(init::Args),
    /// Add packages to skills.toml and install them.
    Add(install::AddArgs),
    /// Remove packages from skills.toml and the project root.
    Remove(install::RemoveArgs),
    /// Install what skills.toml asks for, as skills.lock pins it.
    Install(install::InstallArgs),
    /// Take over skills `npx skills` installed, or folders placed by hand.
    Import(import::ImportArgs),
    /// Move locked versions to the newest that skills.toml allows.
    Update(update::Args),
    /// List locked packages that have newer versions.
    Outdated(outdated::Args),
    /// Turn skills off without uninstalling them: left out of exec, serve and agents' folders.
    Disable(enable::Args),
    /// Turn disabled skills back on.
    Enable(enable::Args),
    /// Trust another signing key for an org (or swap its keys), or this project's settings.
    Trust(trust::Args),
    /// List, approve or revoke the tools skills' allowed-tools pre-approve.
    Grants(grants::Args),
    /// Check installed skills against skills.lock.
    Verify(verify::Args),
    /// List agents' folders skills are placed in, and what is in them.
    Targets(targets::Args),
    /// Write the locked skills out for other tools: `export plugin OUT`.
    Export(export::Args),
    /// Print a software bill of materials of the installed skills (CycloneDX or SPDX JSON).
    Sbom(sbom::Args),
    /// Check signatures by hand: `signature verify PATH`.
    Signature(signature::Args),
    /// Search an index's packages by name and description.
    Search(search::Args),
    /// Name indexes in skills.toml's [registries].
    Registry(registry::Args),
    /// Show or empty the cache.
    Cache(cache::Args),
    /// List every skill of every root, marking shadowed ones.
    List(list::Args),
    /// Show one skill: metadata, location, files and which root won.
    Show(show::Args),
    /// Print the level-1 catalog an agent sees.
    Prompt(prompt::Args),
    /// Check skills against the Agent Skills specification.
    Validate(validate::Args),
    /// Scan skills for remote code run, secrets sent, hidden instructions.
    Scan(scan::Args),
    /// Create a new skill from a template.
    New(new::Args),
    /// Validate a skill and write a deterministic `.skill` archive.
    Pack(pack::Args),
    /// Create a minisign key pair for signing packages.
    Keygen(keygen::Args),
    /// Pack, sign and add a skill to an index.
    Publish(publish::Args),
    /// Mark a published version as yanked, or not.
    Yank(yank::Args),
    /// Move a published version to another channel, signed by the org.
    Promote(promote::Args),
    /// Copy upstream skills into an org's index, as drafts.
    Mirror(mirror::Args),
    /// Manage an index.
    Index(index::Args),
    /// Run an agent over the resolved skills.
    Exec(exec::Args),
    /// Serve the project's verified skills to agents over MCP.
    Serve(serve::Args),
    /// Run eval cases: do the skills trigger and behave as intended?
    Eval(eval::Args),
    /// Print a shell completion script.
    Completions(completions::Args),
    /// Show the platform, the sandbox, the agents found, skillpkg's folders and what is missing.
    Doctor(doctor::Args),
}

/// The outcome of a command, as a process exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExitStatus {
    /// 0: it worked.
    Success,
    /// 1: it ran and found a failure (an invalid skill, a missing package).
    Failure,
    /// 2: the command line was wrong.
    Usage,
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> ExitCode {
        ExitCode::from(match status {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Usage => 2,
        })
    }
}

/// What every command gets: the printer and the resolved directories.
pub(crate) struct Context {
    /// Where output goes.
    pub printer: Printer,
    /// Where long steps report their progress.
    pub progress: Bars,
    /// The working directory.
    pub cwd: std::path::PathBuf,
    dirs: Option<Dirs>,
    /// Whether the project's manifest was checked for unknown keys.
    manifest_checked: bool,
    /// What loading skills warned about already: said once a run, however
    /// often the skills are loaded again (the REPL reloads them each input).
    load_warnings: std::collections::HashSet<String>,
    /// The install's questions about grants, asked on a terminal.
    grant_questions: ask::GrantQuestions,
}

/// `--json` and `--global`, for the commands that report on a project's lock.
#[derive(Debug, clap::Args)]
pub(crate) struct ReportFlags {
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// The user's global skills instead of the project's.
    #[arg(long, short = 'g')]
    pub global: bool,
}

impl Context {
    /// The config, cache, data and user-root directories.
    pub(crate) fn dirs(&mut self) -> anyhow::Result<&Dirs> {
        if self.dirs.is_none() {
            let dirs = Dirs::from_env().map_err(|e| Hinted::new(&e).hint(e.hint()))?;
            self.dirs = Some(dirs);
        }
        Ok(self.dirs.as_ref().expect("set above"))
    }

    /// The directories, when they were set up already.
    pub(crate) fn dirs_if_known(&self) -> Option<&Dirs> {
        self.dirs.as_ref()
    }

    /// Warns, once a run, about the keys of `project`'s `skills.toml` that
    /// skillpkg ignores.
    fn check_manifest(&mut self, project: &crate::project::Project) {
        if self.manifest_checked {
            return;
        }
        self.manifest_checked = true;
        let text = std::fs::read_to_string(&project.manifest_path).unwrap_or_default();
        let shown = project.shown(&project.manifest_path).display().to_string();
        for key in crate::manifest::unknown::unknown_keys(&text) {
            match key.closest {
                Some(closest) => self.printer.warn(format_args!(
                    "{shown}: unknown key `{}`, ignored; did you mean `{closest}`?",
                    key.path
                )),
                None => self
                    .printer
                    .warn(format_args!("{shown}: unknown key `{}`, ignored", key.path)),
            }
        }
    }

    /// The project a command works on: the global one with `global`,
    /// else the one around the working directory. Warns once about keys
    /// of its `skills.toml` that skillpkg ignores.
    pub(crate) fn project(&mut self, global: bool) -> anyhow::Result<crate::project::Project> {
        let cwd = self.cwd.clone();
        let project = crate::project::Project::locate(&cwd, self.dirs()?, global)?;
        self.check_manifest(&project);
        Ok(project)
    }
}

/// The clap command, for completions and documentation.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// Runs skillpkg with the process's arguments.
pub fn main() -> ExitCode {
    // Started as its own sandbox helper: nothing else runs, and this
    // process must still have a single thread.
    #[cfg(linux_sandbox)]
    if let Some(code) = crate::sandbox::helper::main_if_requested() {
        return ExitCode::from(code as u8);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayVersion && asks_verbose() => {
            println!("{}", long_version());
            return ExitStatus::Success.into();
        }
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitStatus::Usage
            } else {
                ExitStatus::Success
            }
            .into();
        }
    };
    let verbosity = if cli.quiet {
        Verbosity::Quiet
    } else if cli.verbose {
        Verbosity::Verbose
    } else {
        Verbosity::Normal
    };
    let printer = Printer::new(verbosity);
    let cwd = match std::env::current_dir() {
        Ok(cwd) => cwd,
        Err(e) => {
            printer.error(&anyhow::Error::new(e).context("could not read the current directory"));
            return ExitStatus::Failure.into();
        }
    };
    crate::fsutil::on_lock_wait(move |path| {
        printer.status(
            "Blocking",
            format_args!(
                "waiting for the lock on {} (another skillpkg run holds it)",
                path.display()
            ),
        );
    });
    let mut context = Context {
        printer,
        progress: Bars::new(verbosity >= Verbosity::Normal),
        cwd,
        dirs: None,
        manifest_checked: false,
        load_warnings: std::collections::HashSet::new(),
        grant_questions: ask::GrantQuestions::default(),
    };
    let status = match run(cli.command, &mut context) {
        Ok(status) => status,
        Err(e) => {
            context.progress.finish(); // no half-drawn bar above the error
            printer.error(&e);
            ExitStatus::Failure
        }
    };
    if let Some(e) = printer::stdout_failure() {
        printer.error(&anyhow::anyhow!(
            "could not write the output to stdout: {e}"
        ));
        return ExitStatus::Failure.into();
    }
    status.into()
}

fn run(command: Command, context: &mut Context) -> anyhow::Result<ExitStatus> {
    match command {
        Command::Init(args) => init::run(args, context),
        Command::Add(args) => install::add(args, context),
        Command::Remove(args) => install::remove(args, context),
        Command::Install(args) => install::install(args, context),
        Command::Import(args) => import::run(args, context),
        Command::Update(args) => update::run(args, context),
        Command::Outdated(args) => outdated::run(args, context),
        Command::Disable(args) => enable::run(args, false, context),
        Command::Enable(args) => enable::run(args, true, context),
        Command::Trust(args) => trust::run(args, context),
        Command::Grants(args) => grants::run(args, context),
        Command::Verify(args) => verify::run(args, context),
        Command::Targets(args) => targets::run(args, context),
        Command::Export(args) => export::run(args, context),
        Command::Sbom(args) => sbom::run(args, context),
        Command::Signature(args) => signature::run(args, context),
        Command::Search(args) => search::run(args, context),
        Command::Registry(args) => registry::run(args, context),
        Command::Cache(args) => cache::run(args, context),
        Command::List(args) => list::run(args, context),
        Command::Show(args) => show::run(args, context),
        Command::Prompt(args) => prompt::run(args, context),
        Command::Validate(args) => validate::run(args, context),
        Command::Scan(args) => scan::run(args, context),
        Command::New(args) => new::run(args, context),
        Command::Pack(args) => pack::run(args, context),
        Command::Keygen(args) => keygen::run(args, context),
        Command::Publish(args) => publish::run(args, context),
        Command::Yank(args) => yank::run(args, context),
        Command::Promote(args) => promote::run(args, context),
        Command::Mirror(args) => mirror::run(args, context),
        Command::Index(args) => index::run(args, context),
        Command::Exec(args) => exec::run(args, context),
        Command::Eval(args) => eval::run(args, context),
        Command::Serve(args) => serve::run(args, context),
        Command::Completions(args) => completions::run(args),
        Command::Doctor(args) => doctor::run(args, context),
    }
}

/// Whether the command line asks for more detail (`--verbose`, `-v`).
fn asks_verbose() -> bool {
    std::env::args_os()
        .skip(1)
        .any(|arg| arg == "--verbose" || arg == "-v")
}

/// `--version --verbose`: the version, the target it was built for and
/// its features.
fn long_version() -> String {
    let features = crate::ops::doctor::features();
    format!(
        "skillpkg {}\ntarget: {}\nfeatures: {}",
        env!("CARGO_PKG_VERSION"),
        env!("SKILLPKG_TARGET"),
        match features.is_empty() {
            true => "none".to_string(),
            false => features.join(", "),
        }
    )
}

/// Loads the skill set and reports every skipped skill as a warning.
fn load_skills(context: &mut Context) -> anyhow::Result<crate::ops::skills::LoadedSkills> {
    load_skills_but_for(context, None)
}

/// [`load_skills`], saying nothing of a skipped folder named `quiet`: the
/// caller reports it (`show` of that name). Each warning is said once a
/// run.
fn load_skills_but_for(
    context: &mut Context,
    quiet: Option<&str>,
) -> anyhow::Result<crate::ops::skills::LoadedSkills> {
    let cwd = context.cwd.clone();
    let loaded = crate::ops::skills::load_skills(&cwd, context.dirs()?)?;
    if let Some(found) = &loaded.manifest_dir {
        context.check_manifest(&crate::project::Project::at(found));
    }
    let mut warnings: Vec<String> = loaded.warnings.clone();
    warnings.extend(
        loaded
            .set
            .skipped
            .iter()
            .filter(|s| quiet.is_none() || s.dir.file_name() != quiet.map(std::ffi::OsStr::new))
            .map(|skipped| format!("skipped {}", skipped.describe())),
    );
    // What speaks of the user's safety (a skill anyone on the machine
    // could have changed, a grant dropped as unsafe) is always said.
    let security = |warning: &String| crate::skill::load::is_security_warning(warning);
    for entry in loaded.set.all() {
        for warning in entry.skill.warnings.iter().filter(|w| security(w)) {
            warnings.push(format!("{}: {warning}", entry.skill.skill_md.display()));
        }
    }
    // Skills that load in spite of breaking the specification's rules:
    // each warning with -v, else one line for them all.
    let with_warnings: Vec<_> = loaded
        .set
        .all()
        .iter()
        .filter(|entry| entry.skill.warnings.iter().any(|w| !security(w)))
        .collect();
    if context.printer.is_verbose() {
        for entry in &with_warnings {
            for warning in entry.skill.warnings.iter().filter(|w| !security(w)) {
                warnings.push(format!("{}: {warning}", entry.skill.skill_md.display()));
            }
        }
    } else if let [only] = with_warnings.as_slice() {
        let dir = only
            .skill
            .skill_md
            .parent()
            .unwrap_or(std::path::Path::new("."));
        warnings.push(format!(
            "{} loads with warnings; `skillpkg validate {}` shows them",
            only.skill.meta.name,
            crate::hint::shell_path(dir)
        ));
    } else if !with_warnings.is_empty() {
        warnings.push(format!(
            "{} skills load with warnings; -v lists them, and `skillpkg validate <folder>` explains each",
            with_warnings.len()
        ));
    }
    for warning in warnings {
        if context.load_warnings.insert(warning.clone()) {
            context.printer.warn(warning);
        }
    }
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    #[test]
    fn command_definition_is_consistent() {
        super::command().debug_assert();
    }
}
