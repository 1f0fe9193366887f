//! `skillpkg add`, `remove` and `install`.

mod signers;
mod well_known;

use crate::ops::install::add_request::{AddSource, Asked, Found, Misuse};
use crate::ops::install::add_source::{AddOptions, Added, Found as AddFound};
use crate::ops::install::{Action, Change, InstallOptions};

use super::{Context, ExitStatus};
use crate::store::trees::LinkMode;

/// Flags shared by the commands that install.
#[derive(Debug, clap::Args)]
pub(super) struct InstallFlags {
    /// Replace managed skills even if they were edited locally.
    #[arg(long)]
    force: bool,
    /// Accept unsigned packages from remote indexes.
    #[arg(long)]
    allow_unsigned: bool,
    /// Use only the cache and local indexes: fetch nothing.
    #[arg(long)]
    offline: bool,
    /// Refuse skills the reference validator rejects (by default they
    /// install as agents load them, with a warning).
    #[arg(long)]
    require_valid: bool,
    /// Approve the tools every new or changed skill's allowed-tools asks to
    /// pre-approve, without asking.
    #[arg(long)]
    approve_grants: bool,
    /// Work on the user's global skills (a manifest and lock under the data
    /// directory, installing into the user root) instead of the project's.
    #[arg(long, short = 'g')]
    pub(super) global: bool,
    /// How skills are put in place from the cache: `copy` (the default)
    /// clones the verified files copy-on-write where the file system can,
    /// else copies them; `hardlink` links the cache's read-only files (an
    /// edit forced through a link reaches the cache and other projects
    /// until the tree hash catches it).
    #[arg(long, value_enum, env = crate::env_vars::SKILLPKG_LINK_MODE, default_value_t = LinkModeArg::Copy)]
    link_mode: LinkModeArg,
    /// Speak to this OCI registry (HOST or HOST:PORT) over plain HTTP
    /// (repeatable); registries on this machine always are, others use
    /// HTTPS.
    #[arg(long, value_name = "HOST")]
    insecure_registry: Vec<String>,
    #[command(flatten)]
    limits: super::limits::SkillLimits,
    /// Put skills in place without scanning them first (each such entry
    /// of skills.lock says `scan = "skipped"`, for reviewers to see).
    #[arg(long)]
    no_scan: bool,
}

/// The values of `--link-mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum LinkModeArg {
    Hardlink,
    Copy,
}

impl InstallFlags {
    pub(super) fn options<'p>(&'p self, locked: bool, context: &'p Context) -> InstallOptions<'p> {
        InstallOptions {
            progress: &context.progress,
            locked,
            frozen: false,
            force: self.force,
            allow_unsigned: self.allow_unsigned,
            allow_signer_change: false,
            offline: self.offline,
            require_valid: self.require_valid,
            grants: crate::ops::consent::grants::install::GrantConsent::of(
                self.approve_grants,
                super::ask::on_a_terminal().then_some(&context.grant_questions),
            ),
            link_mode: match self.link_mode {
                LinkModeArg::Hardlink => LinkMode::Hardlink,
                LinkModeArg::Copy => LinkMode::Copy,
            },
            insecure_registries: &self.insecure_registry,
            limits: self.limits.limits(),
            scan: !self.no_scan,
            channel: None,
        }
    }
}

/// Add packages to skills.toml and install them.
#[derive(Debug, clap::Args)]
#[command(override_usage = ADD_USAGE)]
pub(super) struct AddArgs {
    /// Packages: org/name or org/name@requirement. Or one repository
    /// (REPOSITORY), taken as --git is: github:owner/repo[/path][@rev] or
    /// gitlab:…; a git URL (https://….git, git+https://…, ssh://…,
    /// git@host:path, file://…); a page of github.com, gitlab.com,
    /// bitbucket.org or codeberg.org (…/tree/REV/PATH names the revision
    /// and folder); any other https URL: a site with an agent-skills index
    /// (taken as --well-known is), else one that answers as a git
    /// repository. Or an OCI artifact: oci://HOST/REPO:TAG or
    /// oci://HOST/REPO@sha256:DIGEST. With --path or --git, the name to
    /// record one skill under (default: its own name).
    #[arg(value_name = "PACKAGE", required_unless_present_any = ["path", "git", "well_known"])]
    packages: Vec<String>,
    /// The registry (a name under [registries]) to take them from.
    #[arg(long, conflicts_with_all = ["path", "git", "well_known"])]
    registry: Option<String>,
    /// Take versions from this channel and those above it (recorded in
    /// skills.toml as `channel`): testing or draft versions are seen only
    /// by projects that ask for them.
    #[arg(long, value_enum, value_name = "CHANNEL", conflicts_with_all = ["path", "git", "well_known"])]
    channel: Option<crate::index::channel::Channel>,
    /// Install the skill in this folder (pinned by content hash), or each
    /// skill of the plugin it holds (plugin.json, .claude-plugin/,
    /// .codex-plugin/).
    #[arg(long, value_name = "DIR", conflicts_with = "git")]
    path: Option<std::path::PathBuf>,
    /// Install the skill from this git repository (pinned by commit),
    /// whatever form its URL has (it is not probed or rewritten).
    #[arg(long, value_name = "URL")]
    git: Option<String>,
    /// Install skills a site publishes in its agent-skills index
    /// (/.well-known/agent-skills/index.json, the Agent Skills discovery
    /// RFC), or listed by the index at this URL (pinned by digest).
    #[arg(long, value_name = "URL", conflicts_with_all = ["path", "git", "rev", "subdir"])]
    well_known: Option<String>,
    /// Of a repository: the branch, tag or commit (default: the remote's
    /// HEAD).
    #[arg(long, conflicts_with_all = ["path", "registry"])]
    rev: Option<String>,
    /// Of a repository: the skill's folder inside it (default: every
    /// skill the repository holds).
    #[arg(long, conflicts_with_all = ["path", "registry"])]
    subdir: Option<String>,
    /// Of a repository: install only a commit signed by this signer
    /// (repeatable): an OpenSSH public key (`ssh-ed25519 AAAA…`, or a
    /// .pub file holding it), gpg:FINGERPRINT, or a gitsign signer as
    /// sigstore:IDENTITY,ISSUER (sigstore-regexp:PATTERN,ISSUER). Recorded
    /// in skills.toml as `signed-by`, the signer in skills.lock; every
    /// install checks it.
    #[arg(long, value_name = "KEY", conflicts_with_all = ["path", "registry", "well_known"])]
    signed_by: Vec<String>,
    /// With --signed-by sigstore:…: the trusted_root.json (a file in the
    /// project) gitsign certificates must chain to (default: Sigstore's
    /// public-good root). Recorded in skills.toml as `trusted-root`.
    #[arg(long = "trusted-root", value_name = "FILE", requires = "signed_by")]
    trusted_root: Option<std::path::PathBuf>,
    /// Of a repository, a site or an OCI collection: add only the skills
    /// with this name (repeatable; globs such as 'pdf*').
    #[arg(long = "skill", value_name = "NAME", conflicts_with_all = ["path", "registry"])]
    skills: Vec<String>,
    /// Of a repository, a site or an OCI artifact: list its skills, and
    /// add nothing.
    #[arg(long, conflicts_with_all = ["path", "registry"])]
    list: bool,
    /// Let this source take over NAME, which skills.toml takes from another
    /// source (repeatable).
    #[arg(long, value_name = "NAME", conflicts_with = "list")]
    replace: Vec<String>,
    #[command(flatten)]
    flags: InstallFlags,
}

/// `add`'s usage: its forms, as clap prints them in help and errors.
const ADD_USAGE: &str = "skillpkg add [OPTIONS] <PACKAGE>...
       skillpkg add [OPTIONS] <REPOSITORY> [--skill <NAME>]... [--list]
       skillpkg add [OPTIONS] oci://<HOST>/<REPO>(:<TAG>|@<DIGEST>)
       skillpkg add [OPTIONS] --git <URL> [--skill <NAME>]... [--list] [NAME]
       skillpkg add [OPTIONS] --well-known <URL> [--skill <NAME>]... [--list]
       skillpkg add [OPTIONS] --path <DIR> [NAME]";

/// Remove packages from skills.toml and their skills from the root. It
/// installs nothing new, so it takes only the flags that removing uses.
#[derive(Debug, clap::Args)]
pub(super) struct RemoveArgs {
    /// What skills.toml names: org/name, a path or git skill's name, or a
    /// repository's URL (every skill taken from it).
    #[arg(required = true)]
    packages: Vec<String>,
    /// Remove managed skills even if they were edited locally.
    #[arg(long)]
    force: bool,
    /// Use only the cache and local indexes: fetch nothing (for the
    /// skills that stay, should one be missing).
    #[arg(long)]
    offline: bool,
    /// Accept the unsigned packages from remote indexes that stay (they
    /// are checked again, as every install checks what the lock pins).
    #[arg(long)]
    allow_unsigned: bool,
    /// Work on the user's global skills instead of the project's.
    #[arg(long, short = 'g')]
    global: bool,
    #[command(flatten)]
    limits: super::limits::SkillLimits,
}

/// Install what skills.toml asks for, as skills.lock pins it.
#[derive(Debug, clap::Args)]
pub(super) struct InstallArgs {
    /// Fail if skills.lock would change.
    #[arg(long)]
    locked: bool,
    /// --locked and --offline together: exactly the lock, from this machine alone.
    #[arg(long)]
    frozen: bool,
    #[command(flatten)]
    flags: InstallFlags,
}

/// Warns of each locked version its index has yanked, once per package,
/// with the command that moves off it.
pub(super) fn warn_yanked(context: &Context, pins: &[crate::ops::yanked::YankedPin]) {
    for pin in pins {
        context.printer.warn(pin.warning());
        context.printer.hint(pin.hint());
    }
}

pub(super) fn report(context: &Context, changes: &[Change]) {
    let pins: Vec<_> = changes.iter().filter_map(|c| c.yanked.clone()).collect();
    warn_yanked(context, &pins);
    let broken_alone = super::install_warnings::broken_rules_said_alone(context, changes);
    for change in changes {
        for warning in &change.warnings {
            context.printer.warn(warning);
        }
        if let Some(broken) = change.broken_rules.as_ref().filter(|_| broken_alone) {
            context.printer.warn(broken.warning(&change.name));
        }
        if let Some(replaced) = &change.replaced {
            context.printer.status(
                "Replaced",
                format_args!(
                    "{} (from {}) with {}",
                    change.name, replaced.from, replaced.with
                ),
            );
            continue;
        }
        let verb = match change.action {
            Action::Installed => "Installed",
            Action::Updated => "Updated",
            Action::Removed => "Removed",
            Action::Unchanged => continue,
        };
        context
            .printer
            .status(verb, format_args!("{} {}", change.name, change.shown()));
        say_newly(context, change);
    }
    super::install_warnings::broken_rules_summary(context, changes);
    super::install_warnings::scan_warnings_summary(context, changes);
    report_grants(context, changes);
    let unchanged = changes
        .iter()
        .filter(|c| c.action == Action::Unchanged)
        .count();
    if unchanged > 0 {
        context
            .printer
            .verbose(format_args!("{unchanged} skills already up to date"));
    }
}

/// What an updated skill newly does, against the version it replaced,
/// for a reviewer to read (DESIGN §12).
pub(super) fn say_newly(context: &Context, change: &Change) {
    if change.newly.is_empty() {
        return;
    }
    let lines: String = change
        .newly
        .iter()
        .map(|line| format!("\n  {line}"))
        .collect();
    context.printer.warn(format_args!(
        "{} {} newly:{lines}",
        change.name, change.shown_version
    ));
}

/// Reports `changes` and what they mean for agents, for a command that
/// succeeded.
fn reported(
    context: &Context,
    project: &crate::project::Project,
    changes: &[Change],
) -> ExitStatus {
    report(context, changes);
    report_targets(context, project, changes);
    ExitStatus::Success
}

/// Says what the install means for agents, when something changed (else
/// with `-v`): which agents' folders the installed skills are linked into,
/// which `[install] targets` need no link (the agent reads the install
/// root itself), and the grants skills.lock records that stay inactive
/// until the project is trusted here.
pub(super) fn report_targets(
    context: &Context,
    project: &crate::project::Project,
    changes: &[Change],
) {
    let Some(dirs) = context.dirs_if_known() else {
        return;
    };
    let changed = changes.iter().any(|c| c.action != Action::Unchanged);
    let installed = changes
        .iter()
        .filter(|c| c.action != Action::Removed)
        .count();
    if let Ok(targets) = crate::ops::install::targets_of(project, dirs) {
        let folders: Vec<String> = targets
            .linked
            .iter()
            .map(|(folder, agents)| format!("{folder} ({})", agents.join(", ")))
            .collect();
        if installed > 0 && !folders.is_empty() {
            let line = format!("the installed skills into {}", folders.join(" and "));
            match changed {
                true => context.printer.status("Linked", line),
                false => context.printer.verbose(line),
            }
        }
        for note in targets.notes {
            match changed {
                true => context.printer.status("Targets", &note),
                false => context.printer.verbose(&note),
            }
        }
    }
    if let Ok(inactive) = crate::ops::consent::project::inactive_lock_grants(dirs, project)
        && !inactive.is_empty()
    {
        let message = format!(
            "skills.lock approves tools for {} ({}), and these grants stay inactive until you trust this project on this machine",
            super::printer::count(inactive.len(), "skill"),
            inactive.join(", ")
        );
        match changed {
            true => {
                context.printer.warn(message);
                context.printer.hint(
                    "review them with `skillpkg grants list`, then run `skillpkg trust --project`",
                );
            }
            false => context.printer.verbose(message),
        }
    }
}

/// Says which grants were approved, and which stay unapproved: one line
/// for one skill, a table under one warning for several.
fn report_grants(context: &Context, changes: &[Change]) {
    let mut unapproved = Vec::new();
    for change in changes {
        if !change.approved_grants.is_empty() {
            context.printer.status(
                "Approved",
                format_args!(
                    "{} may pre-approve {}",
                    change.name,
                    change.approved_grants.join(", ")
                ),
            );
        }
        if !change.unapproved_grants.is_empty() {
            unapproved.push((change.name.as_str(), change.unapproved_grants.join(", ")));
        }
    }
    const CONSEQUENCE: &str =
        "not approved, so exec asks before each such call (and refuses without a terminal)";
    match unapproved.as_slice() {
        [] => {}
        [(name, grants)] => {
            context.printer.warn(format_args!(
                "{name} asks to pre-approve {grants}: {CONSEQUENCE}"
            ));
            context.printer.hint(format_args!(
                "review and approve them with `skillpkg grants approve {}`, or install with --approve-grants",
                crate::hint::shell_quote(name)
            ));
        }
        several => {
            let width = several
                .iter()
                .map(|(name, _)| name.len())
                .max()
                .unwrap_or(0);
            let table: String = several
                .iter()
                .map(|(name, grants)| format!("\n  {name:width$}  {grants}"))
                .collect();
            context.printer.warn(format_args!(
                "{} skills ask to pre-approve tools, and they are {CONSEQUENCE}:{table}",
                several.len()
            ));
            context.printer.hint(
                "review them with `skillpkg grants list`, approve with `skillpkg grants approve NAME...`, or install with --approve-grants",
            );
        }
    }
}

pub(super) fn add(args: AddArgs, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let cwd = context.cwd.clone();
    let dirs = context.dirs()?.clone();
    let request = match args.asked().request() {
        Ok(request) => request,
        Err(e) => {
            return match e.downcast::<Misuse>() {
                Ok(misuse) => Ok(report_misuse(&misuse)),
                Err(e) => Err(e),
            };
        }
    };
    say_found(context, request.found.as_ref());
    let started = match args.flags.global || args.list {
        true => None,
        false => crate::ops::init::start_for_add(&cwd, &dirs)?,
    };
    if let Some(started) = &started {
        context.printer.status(
            "Created",
            format_args!(
                "{} (a new project, trusted on this machine)",
                started.manifest.display()
            ),
        );
    }
    let added = add_to_project(args, request.source, context);
    // A project started for an add that failed is not left behind: its
    // files, and the trust it was given.
    if let (Err(_), Some(started)) = (&added, started) {
        let _ = started.abandon(&dirs);
    }
    added
}

impl AddArgs {
    /// What the command line asks, for ops to read into a request.
    fn asked(&self) -> Asked {
        Asked {
            packages: self.packages.clone(),
            git: self.git.clone(),
            rev: self.rev.clone(),
            subdir: self.subdir.clone(),
            well_known: self.well_known.clone(),
            path: self.path.clone(),
            skills: self.skills.clone(),
            list: self.list,
            signed_by: self.signed_by.clone(),
            offline: self.flags.offline,
        }
    }
}

/// Says what a bare URL turned out to be.
fn say_found(context: &Context, found: Option<&Found>) {
    match found {
        Some(Found::SiteIndex(index)) => context.printer.status(
            "Found",
            format_args!(
                "an agent-skills index at {index} (the site's skills, not a git repository)"
            ),
        ),
        Some(Found::Repository { shown, at }) => context
            .printer
            .verbose(format_args!("{shown} answers as a git repository at {at}")),
        None => {}
    }
}

/// `add` once the project is there, from `source`: `--list` lists what
/// it holds; otherwise ops adds it, and what it found is said.
fn add_to_project(
    args: AddArgs,
    source: AddSource,
    context: &mut Context,
) -> anyhow::Result<ExitStatus> {
    let cwd = context.cwd.clone();
    let dirs = context.dirs()?.clone();
    let signed_by = signers::signers(&args.signed_by)?;
    let trusted_root = match &args.trusted_root {
        Some(file) => Some(signers::in_project(
            file,
            &context.project(args.flags.global)?.dir,
        )?),
        None => None,
    };
    if args.list {
        return list(&args, &source, &signed_by, trusted_root.as_deref(), context);
    }
    let project = context.project(args.flags.global)?;
    let install = match &source {
        // A channel is the packages' (clap lets no other source take one).
        AddSource::Packages(_) => InstallOptions {
            channel: args.channel,
            ..args.flags.options(false, context)
        },
        _ => args.flags.options(false, context),
    };
    let options = AddOptions {
        cwd: &cwd,
        picks: &args.skills,
        replace: &args.replace,
        registry: args.registry.as_deref(),
        signed_by: &signed_by,
        trusted_root: trusted_root.as_deref(),
        install,
    };
    let Added { changes, found } =
        crate::ops::install::add_source::add(&project, &dirs, &source, &options)?;
    say_what_it_held(context, &source, &found, &changes);
    Ok(reported(context, &project, &changes))
}

/// Says what the source held: the plugin it is, the folders set aside,
/// how many skills a repository or a site has.
fn say_what_it_held(context: &Context, source: &AddSource, found: &AddFound, changes: &[Change]) {
    match found {
        AddFound::Packages | AddFound::Folder(None) | AddFound::Artifact(None) => {}
        AddFound::Folder(Some(added)) => {
            let names: Vec<&str> = added.skills.iter().map(String::as_str).collect();
            super::install_warnings::plugin(context, &added.plugin, &names);
        }
        AddFound::Artifact(Some(plugin)) => {
            let names: Vec<&str> = changes.iter().map(|c| c.name.as_str()).collect();
            super::install_warnings::plugin(context, plugin, &names);
        }
        AddFound::Repository(listing) => {
            plugin_of(context, listing);
            super::install_warnings::skipped_folders(context, listing);
            if matches!(source, AddSource::Git { subdir: None, .. }) {
                let count = listing.skills.len();
                context.printer.status(
                    "Found",
                    format_args!(
                        "{count} skill{} in {} at commit {}",
                        if count == 1 { "" } else { "s" },
                        listing.url,
                        listing.commit
                    ),
                );
            }
        }
        AddFound::Site(index) => well_known::say_found(context, index),
    }
}

/// `add --list`: the skills a repository, an OCI artifact or a site holds.
fn list(
    args: &AddArgs,
    source: &AddSource,
    signed_by: &[String],
    trusted_root: Option<&str>,
    context: &mut Context,
) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    match source {
        AddSource::Git {
            url, rev, subdir, ..
        } => {
            let request = crate::ops::install::repo::RepoRequest {
                url,
                rev: rev.as_deref(),
                subdir: subdir.as_deref(),
                signed_by,
                trusted_root,
            };
            let scratch = crate::fsutil::private_tempdir("skillpkg-list-", None)?;
            let listing = crate::ops::install::repo::list_repo(
                &crate::git::Resolver::default(),
                request,
                &dirs.cache,
                args.flags.offline,
                scratch.path(),
            )?;
            plugin_of(context, &listing);
            print_listing(context, &listing);
        }
        AddSource::Oci(reference) => {
            let options = args.flags.options(false, context);
            for name in crate::ops::install::oci_source::list_oci(&dirs, reference, &options)? {
                context.printer.data(name);
            }
        }
        AddSource::WellKnown(site) => well_known::list(site, context)?,
        AddSource::Packages(_) | AddSource::Path { .. } => {
            unreachable!("--list picks from a repository, an artifact or a site")
        }
    }
    Ok(ExitStatus::Success)
}

/// Reports a command line `add` cannot take as clap reports its own (the
/// message, a tip, `add`'s usage), with exit status 2.
fn report_misuse(misuse: &Misuse) -> ExitStatus {
    let mut command = super::command();
    let add = command
        .find_subcommand_mut("add")
        .expect("add is a subcommand");
    let text = format!("{}\n\n  tip: {}", misuse.message, misuse.tip);
    let _ = add
        .error(
            clap::error::ErrorKind::ArgumentConflict,
            super::printer::terminal_safe(&text),
        )
        .print();
    ExitStatus::Usage
}

/// Says what plugin a repository is, if it is one.
fn plugin_of(context: &Context, listing: &crate::ops::install::repo::RepoListing) {
    if let Some(plugin) = &listing.plugin {
        let names: Vec<&str> = listing.skills.iter().map(|s| s.name.as_str()).collect();
        super::install_warnings::plugin(context, plugin, &names);
    }
}

/// One line per skill of a repository: name, folder, description.
fn print_listing(context: &Context, listing: &crate::ops::install::repo::RepoListing) {
    let width = |text: &str| text.chars().count();
    let names = listing
        .skills
        .iter()
        .map(|s| width(&s.name))
        .max()
        .unwrap_or(0);
    let folders = listing
        .skills
        .iter()
        .map(|s| width(s.subdir.as_deref().unwrap_or(".")))
        .max()
        .unwrap_or(0);
    for skill in &listing.skills {
        let description: String = skill.description.chars().take(72).collect();
        context.printer.data(format_args!(
            "{:<names$}  {:<folders$}  {description}",
            skill.name,
            skill.subdir.as_deref().unwrap_or(".")
        ));
    }
    for skipped in &listing.skipped {
        context.printer.warn(format_args!("skipped {skipped}"));
    }
}

pub(super) fn remove(args: RemoveArgs, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let project = context.project(args.global)?;
    let options = InstallOptions {
        progress: &context.progress,
        force: args.force,
        offline: args.offline,
        allow_unsigned: args.allow_unsigned,
        limits: args.limits.limits(),
        ..InstallOptions::default()
    };
    let changes = crate::ops::install::remove(&project, &dirs, &args.packages, options)?;
    Ok(reported(context, &project, &changes))
}

pub(super) fn install(args: InstallArgs, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let dirs = context.dirs()?.clone();
    let project = context.project(args.flags.global)?;
    let mut options = args.flags.options(args.locked || args.frozen, context);
    options.offline |= args.frozen;
    options.frozen = args.frozen;
    let changes = crate::ops::install::install(&project, &dirs, options)?;
    Ok(reported(context, &project, &changes))
}
