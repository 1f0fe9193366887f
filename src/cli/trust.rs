//! `skillpkg trust <org> --key KEY [--replace]` and `skillpkg trust --project [--revoke]`

use super::{Context, ExitStatus};

/// Trust a signing key for an org (added to the keys skills.lock pins for
/// it, or with --replace instead of them), or this project's own settings
/// on this machine.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The organisation.
    #[arg(required_unless_present = "project", conflicts_with = "project")]
    org: Option<String>,
    /// Its minisign public key: a `.pub` file or its base64 line. It is
    /// added to the org's pinned keys; packages signed by any of them install.
    #[arg(long, required_unless_present = "project", conflicts_with = "project")]
    key: Option<String>,
    /// Make KEY the org's only pinned key, removing the others (the org
    /// changed its key); locked packages they signed are re-checked
    /// against it on the next install.
    #[arg(long, requires = "key")]
    replace: bool,
    /// Trust this project's own settings that run code on this machine: its
    /// `[agent]` table, the grants its skills.lock records, and the sources
    /// its skills.toml names outside the project.
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
            let was = crate::ops::consent::project::revoke(&dirs, &project.dir)?;
            let verb = if was { "Revoked" } else { "Untrusted" };
            context.printer.status(
                verb,
                format_args!("{} is not trusted", project.dir.display()),
            );
        } else {
            let lock = crate::manifest::lock::Lockfile::load(&project.lock_path)?;
            let settings =
                crate::ops::consent::project::TrustedSettings::of(&project.dir, &manifest, &lock);
            crate::ops::consent::project::trust(&dirs, &project.dir, &settings)?;
            describe_trusted(context, &settings);
            context
                .printer
                .status("Trusted", format_args!("{}", project.dir.display()));
        }
        return Ok(ExitStatus::Success);
    }
    let (org, key) = (args.org.unwrap_or_default(), args.key.unwrap_or_default());
    let trusted = crate::ops::keys::trust(&project, &org, &key, args.replace)?;
    for old in &trusted.removed {
        context
            .printer
            .status("Removed", format_args!("key {old} of org '{org}'"));
    }
    let already = match trusted.already {
        true => ", already pinned",
        false => "",
    };
    let count = match trusted.pinned.len() {
        1 => "its only pinned key".to_string(),
        n => format!("one of {n} pinned keys"),
    };
    context.printer.status(
        "Trusted",
        format_args!("key {} of org '{org}'{already} ({count})", trusted.key),
    );
    Ok(ExitStatus::Success)
}

/// Lists what trusting a project lets run: its `[agent]` settings, the
/// grants its lock records, and the sources outside it that installs may
/// then read, one status line each.
fn describe_trusted(context: &Context, settings: &crate::ops::consent::project::TrustedSettings) {
    for line in settings.lines() {
        context
            .printer
            .status(line.kind.label(), super::printer::one_line_safe(&line.text));
    }
}
