//! `skillpkg trust <org> --key KEY` and `skillpkg trust --project [--revoke]`

use super::{Context, ExitStatus};

/// Trust a new signing key for an org (replacing the key skills.lock
/// pinned), or this project's own settings on this machine.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The organisation.
    #[arg(required_unless_present = "project", conflicts_with = "project")]
    org: Option<String>,
    /// Its minisign public key: a `.pub` file or its base64 line.
    #[arg(long, required_unless_present = "project", conflicts_with = "project")]
    key: Option<String>,
    /// Trust this project's own settings that run code on this machine: its
    /// `[agent]` table and the grants its skills.lock records.
    #[arg(long)]
    project: bool,
    /// With --project: stop trusting it.
    #[arg(long, requires = "project")]
    revoke: bool,
    /// The user's global skills instead of the project's.
    #[arg(long, short = 'g')]
    global: bool,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let project = context.project(args.global)?;
    if args.project {
        let dirs = context.dirs()?.clone();
        let manifest = crate::manifest::Manifest::load(&project.manifest_path)?;
        if args.revoke {
            let was = crate::ops::project_trust::revoke(&dirs, &project.dir)?;
            let verb = if was { "Revoked" } else { "Untrusted" };
            context.printer.status(
                verb,
                format_args!("{} is not trusted", project.dir.display()),
            );
        } else {
            let lock = crate::manifest::lock::Lockfile::load(&project.lock_path)?;
            crate::ops::project_trust::trust(
                &dirs,
                &project.dir,
                crate::ops::project_trust::TrustedSettings::of(&manifest, &lock),
            )?;
            describe_trusted(context, &manifest, &lock);
            context
                .printer
                .status("Trusted", format_args!("{}", project.dir.display()));
        }
        return Ok(ExitStatus::Success);
    }
    let (org, key) = (args.org.unwrap_or_default(), args.key.unwrap_or_default());
    let previous = crate::ops::trust::trust(&project, &org, &key)?;
    for old in previous {
        context
            .printer
            .status("Replaced", format_args!("key {old} of org '{org}'"));
    }
    context
        .printer
        .status("Trusted", format_args!("the new key of org '{org}'"));
    Ok(ExitStatus::Success)
}

/// Lists what trusting a project lets run: its `[agent]` settings and the
/// grants its lock records.
fn describe_trusted(
    context: &Context,
    manifest: &crate::manifest::Manifest,
    lock: &crate::manifest::lock::Lockfile,
) {
    if let Ok(toml::Value::Table(agent)) = toml::Value::try_from(&manifest.agent) {
        for (key, value) in agent {
            context
                .printer
                .status("Setting", format_args!("[agent] {key} = {value}"));
        }
    }
    for skill in lock.skills.iter().filter(|s| !s.grants.is_empty()) {
        context.printer.status(
            "Grants",
            format_args!("{}: {}", skill.name, skill.grants.join(", ")),
        );
    }
}
