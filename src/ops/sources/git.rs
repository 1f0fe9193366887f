//! Git repositories: a skill's folder of a repository, pinned to a commit,
//! which `skills.lock` records in its source
//! (`git+<url>[?rev=…&subdir=…]#<commit>`), its signature checked when the
//! entry says `signed-by` ([`crate::ops::provenance::signed_commit`]).

use std::path::Path;

use anyhow::{Context as _, bail};

use super::kind::{DirectKind, Fetched, Job, Moved, SourceKind};
use crate::hint::Hinted;
use crate::manifest::DirectSource;
use crate::manifest::lock::{LockedSkill, short_commit};
use crate::manifest::source_id::{GitOrigin, SourceId};
use crate::ops::provenance::signed_commit::SignedCommit;

/// The git kind.
pub(super) struct Git;

impl SourceKind for Git {
    fn name(&self) -> &'static str {
        "git"
    }

    fn pins(&self, source: &SourceId) -> bool {
        matches!(source, SourceId::Git { .. })
    }

    fn place(&self, source: &SourceId) -> Option<String> {
        let SourceId::Git { origin, .. } = source else {
            return None;
        };
        Some(origin.url.clone())
    }

    fn owner(&self, source: &SourceId) -> Option<String> {
        let SourceId::Git { origin, .. } = source else {
            return None;
        };
        let url = origin.url.trim_end_matches('/');
        let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
        // `git@host:owner/repo` and `host/owner/repo` alike.
        let rest = rest.rsplit_once('@').map_or(rest, |(_, rest)| rest);
        let mut parts = rest.split(['/', ':']).filter(|p| !p.is_empty());
        let host = parts.next()?;
        let owner = parts.next()?;
        Some(format!("{host}/{owner}"))
    }

    fn reference(&self, source: &SourceId) -> Option<(String, &'static str)> {
        Some((self.place(source)?, "vcs"))
    }

    /// The version and the repository at the commit's first 12 digits.
    fn at(&self, version: &str, source: &SourceId) -> String {
        match source {
            SourceId::Git { origin, commit } => {
                format!("{version} ({origin}#{})", &commit[..12.min(commit.len())])
            }
            other => format!("{version} ({other})"),
        }
    }

    /// `git+<url>@<commit>#<folder>` (SPDX's VCS form, which knows no
    /// `file://`) for a repository on a server.
    fn spdx_location(&self, source: &SourceId) -> Option<String> {
        let SourceId::Git { origin, commit } = source else {
            return None;
        };
        let remote = ["https://", "http://", "ssh://", "git://"]
            .iter()
            .any(|scheme| origin.url.starts_with(scheme));
        if !remote {
            return None;
        }
        let url = origin.url.strip_prefix("git://").map_or_else(
            || format!("git+{}", origin.url),
            |rest| format!("git+git://{rest}"),
        );
        Some(match &origin.subdir {
            Some(subdir) => format!("{url}@{commit}#{subdir}"),
            None => format!("{url}@{commit}"),
        })
    }
}

impl DirectKind for Git {
    fn folder_key(&self) -> &'static str {
        "subdir"
    }

    fn asks(&self, request: &DirectSource) -> bool {
        matches!(request, DirectSource::Git { .. })
    }

    fn keeps(
        &self,
        name: &str,
        request: &DirectSource,
        locked: &LockedSkill,
    ) -> anyhow::Result<bool> {
        let DirectSource::Git {
            url,
            rev,
            subdir,
            signed_by,
            ..
        } = request
        else {
            return Ok(false);
        };
        let (shown, _) = crate::net::split_credentials(url)?;
        let wanted = GitOrigin::new(&shown, rev.as_deref(), subdir.as_deref());
        // Only whether the locked signer is still named: no signature is
        // checked, so no trusted root is read.
        let signed = SignedCommit::new(name, &shown, signed_by, None, Some(locked), false)?;
        Ok(
            matches!(&locked.source, SourceId::Git { origin, .. } if *origin == wanted)
                && signed.keeps(locked),
        )
    }

    fn fetch(&self, job: &Job, scratch: &Path) -> anyhow::Result<Fetched> {
        let DirectSource::Git {
            url,
            rev,
            subdir,
            signed_by,
            trusted_root,
        } = job.request
        else {
            bail!("'{}' is no git dependency", job.name);
        };
        let request = GitRequest {
            url,
            rev: rev.as_deref(),
            subdir: subdir.as_deref(),
            signed_by,
            trusted_root: trusted_root.as_deref(),
        };
        export_git(job, &request, scratch)
    }

    fn place_of_tree(
        &self,
        request: &DirectSource,
        _dir: &Path,
        _shown: Option<&str>,
    ) -> anyhow::Result<String> {
        let DirectSource::Git { url, subdir, .. } = request else {
            return Ok(String::new());
        };
        let shown = crate::net::split_credentials(url)?.0;
        Ok(match subdir {
            Some(subdir) => format!("folder '{subdir}' of {shown}"),
            None => format!("the top folder of {shown}"),
        })
    }

    fn same_place(&self, a: &DirectSource, b: &DirectSource, _project_dir: &Path) -> bool {
        match (a, b) {
            (DirectSource::Git { url: a, .. }, DirectSource::Git { url: b, .. }) => {
                same_repository(a, b)
            }
            _ => false,
        }
    }

    /// A skill whose folder changed on its branch, tag or HEAD: the
    /// folder's files at the commit the branch names now differ from those
    /// at the locked commit (a commit elsewhere in the repository does not
    /// make a skill outdated; a skill pinned to a commit id never moves).
    fn moved(
        &self,
        skills: &[&LockedSkill],
        asking: &super::kind::Asking,
    ) -> anyhow::Result<Vec<Moved>> {
        // One view of each repository for the whole report.
        let resolver = crate::git::Resolver::default();
        let mut moved = Vec::new();
        for skill in skills {
            let SourceId::Git { origin, commit } = &skill.source else {
                continue;
            };
            let pinned_to_commit = origin
                .rev
                .as_deref()
                .is_some_and(|rev| rev.len() == 40 && rev.chars().all(|c| c.is_ascii_hexdigit()));
            if pinned_to_commit {
                continue;
            }
            let Some(now) = crate::git::folder_moved(
                &resolver,
                &origin.url,
                origin.rev.as_deref(),
                commit,
                origin.subdir.as_deref(),
                &asking.dirs.cache,
            )
            .with_context(|| format!("could not check {} for {}", origin.url, skill.name))?
            else {
                continue;
            };
            moved.push(Moved {
                name: skill.name.clone(),
                from: short_commit(commit),
                to: short_commit(&now),
                place: origin.url.clone(),
            });
        }
        Ok(moved)
    }
}

/// Whether two repository URLs name the same repository: credentials, a
/// `git+` prefix, a trailing `/` or `.git` aside.
pub(crate) fn same_repository(a: &str, b: &str) -> bool {
    let plain = |url: &str| {
        let url = url.strip_prefix("git+").unwrap_or(url);
        let url = crate::net::split_credentials(url).map_or(url.to_string(), |(u, _)| u);
        url.trim_end_matches('/')
            .trim_end_matches(".git")
            .to_string()
    };
    plain(a) == plain(b)
}

/// A git dependency, as `skills.toml` gives it.
struct GitRequest<'a> {
    url: &'a str,
    rev: Option<&'a str>,
    subdir: Option<&'a str>,
    signed_by: &'a [String],
    /// The `trusted-root` file, relative to the project.
    trusted_root: Option<&'a str>,
}

/// The text of `file`, a `trusted-root` of the skill `name`: a file inside
/// the project `project_dir` (the project's own trust material, which a
/// teammate's clone has too).
fn project_file(project_dir: &Path, file: &str, name: &str) -> anyhow::Result<String> {
    let path = project_dir.join(file);
    if std::fs::symlink_metadata(&path).is_err() {
        bail!(
            Hinted::new(format!(
                "'{name}': trusted-root {file} is not in the project {}",
                project_dir.display()
            ))
            .hint("commit the trusted_root.json skills.toml names beside it, or take `trusted-root` out for Sigstore's public-good root")
        );
    }
    let inside = fs_err::canonicalize(project_dir)
        .ok()
        .zip(std::fs::canonicalize(&path).ok())
        .is_some_and(|(project, path)| path.starts_with(project));
    if !inside {
        bail!(
            Hinted::new(format!(
                "'{name}': trusted-root {file} is not a file inside the project {}",
                project_dir.display()
            ))
            .hint("put the trusted_root.json in the project (teammates need it too) and name it relative to skills.toml")
        );
    }
    fs_err::read_to_string(&path)
        .with_context(|| format!("'{name}': could not read trusted-root {file}"))
}

/// Fetches the commit of `request` (the locked one when the job's lock
/// entry pins it), checks its signature when `signed-by` asks, and
/// exports the skill's folder into `scratch`.
fn export_git(job: &Job, request: &GitRequest, scratch: &Path) -> anyhow::Result<Fetched> {
    let Job {
        name,
        locked,
        before,
        fetching,
        ..
    } = *job;
    let GitRequest {
        url,
        rev,
        subdir,
        signed_by,
        trusted_root,
    } = *request;
    // The lock and messages name the repository without credentials.
    let (shown, _) = crate::net::split_credentials(url)?;
    let origin = GitOrigin::new(&shown, rev, subdir);
    let trusted_root = match trusted_root {
        Some(file) => Some(project_file(fetching.project_dir, file, name)?),
        None => None,
    };
    let signed = SignedCommit::new(
        name,
        &shown,
        signed_by,
        trusted_root,
        before,
        fetching.allow_signer_change,
    )?;
    let pinned = locked.and_then(|l| match &l.source {
        SourceId::Git {
            origin: locked_origin,
            commit,
        } if *locked_origin == origin => Some(commit.as_str()),
        _ => None,
    });
    let (repo, commit) = crate::git::fetch_commit(
        fetching.git,
        url,
        rev,
        pinned,
        fetching.cache,
        fetching.offline,
    )
    .with_context(|| format!("'{name}': could not get {shown}"))?;
    let commit_signer = signed.check(&repo, commit)?;
    let dir = scratch.join("skill");
    let limits = fetching.limits;
    let budget = crate::git::tree::Budget::skill(limits.max_entries, limits.max_total_bytes);
    crate::git::export_tree(&repo, commit, subdir, &dir, budget)
        .with_context(|| format!("'{name}': could not read {shown} at {commit}"))?;
    let shown = match subdir {
        Some(subdir) => format!("folder '{subdir}' of {shown} at {commit}"),
        None => format!("{shown} at {commit}"),
    };
    Ok(Fetched {
        dir,
        source: SourceId::Git {
            origin,
            commit: commit.to_string(),
        },
        shown: Some(shown),
        version: None,
        commit_signer,
    })
}
