//! What `add` was asked for: requests parsed into package names and
//! requirements, and errors about them given the hints that help
//! (the org a bare name needs, the `github:` form an `owner/repo` may be).

use semver::VersionReq;

use super::plan::NotInIndex;
use crate::dirs::Dirs;
use crate::hint::{Hinted, shell_quote};
use crate::index::PackageName;
use crate::project::Project;

/// `error`, for a request without an org (`add pdf-processing`), with the
/// packages of that name the registry has.
pub(super) fn name_the_org(
    error: anyhow::Error,
    request: &str,
    project: &Project,
    dirs: &Dirs,
    registry: Option<&str>,
) -> anyhow::Error {
    let name = request.split('@').next().unwrap_or(request);
    if name.contains('/') {
        // `Owner/repo`, `owner/repo/path`, `owner/repo@skill`: no package
        // name, but what `npx skills add` reads as a GitHub repository.
        // The parse error is a leaf: it is kept as the message.
        return match repository_command(request) {
            Some(command) => Hinted::new(format!("{error:#}"))
                .hint(format!(
                    "if it is a GitHub repository (as `npx skills add` reads it): `{command}`"
                ))
                .into(),
            None => error,
        };
    }
    let hits = crate::ops::search::search(&project.dir, dirs, name, registry).unwrap_or_default();
    let meant = crate::hint::did_you_mean(name, hits.iter().map(|h| h.name.as_str()));
    error.context(
        Hinted::new(format!(
            "'{request}' names no package: packages are named org/name"
        ))
        .hint(match meant {
            Some(meant) => format!("did you mean `skillpkg add {}`?", shell_quote(meant)),
            None => format!(
                "`skillpkg search {}` finds packages by name",
                shell_quote(name)
            ),
        }),
    )
}

/// The short form `npx skills` users mean by `owner/repo`, as a command.
fn repository_command(request: &str) -> Option<String> {
    let (source, skill) = crate::manifest::source_arg::github_suggestion(request)?;
    Some(match skill {
        Some(skill) => format!(
            "skillpkg add {} --skill {}",
            shell_quote(&source),
            shell_quote(&skill)
        ),
        None => format!("skillpkg add {}", shell_quote(&source)),
    })
}

/// `error`, for a requested package the index does not have, with the
/// GitHub repository the name may be (`npx skills add owner/repo` reads
/// it as one). Only names the user asked for get the hint, not the
/// dependencies of a package.
pub(super) fn suggest_repository(mut error: anyhow::Error, requests: &[String]) -> anyhow::Error {
    if let Some(missing) = error.downcast_mut::<NotInIndex>()
        && !missing.in_lower_channels
        && requests
            .iter()
            .any(|r| r.split('@').next() == Some(missing.name.as_str()))
        && let Some(command) = repository_command(&missing.name)
    {
        missing.hints.push(format!(
            "if {} is a GitHub repository (as `npx skills add` reads owner/repo): `{command}`",
            missing.name
        ));
    }
    error
}

/// Parses `org/name[@req]`.
pub(super) fn parse_request(text: &str) -> anyhow::Result<(PackageName, Option<VersionReq>)> {
    let (name, req) = match text.split_once('@') {
        Some((name, req)) => (name, Some(req)),
        None => (text, None),
    };
    let package: PackageName = name.parse()?;
    let req = req
        .map(|r| {
            VersionReq::parse(r)
                .map_err(|e| anyhow::anyhow!("'{text}': invalid version requirement '{r}': {e}"))
        })
        .transpose()?;
    Ok((package, req))
}
