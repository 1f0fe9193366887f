//! Fetching a repository's commit into the cache (shallow where the
//! server allows), or reading it where it is when it is on this machine.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use git2::{FetchOptions, RemoteCallbacks, Repository};

use super::fetch_error;
use super::tree::folder_tree_id;
use crate::hint::Hinted;
use crate::net::split_credentials;

/// The git directory of the repository `url` names when it is on this
/// machine (a path or a `file://` URL of a repository, bare or not).
pub(crate) fn local_repository(url: &str) -> Option<PathBuf> {
    let path = Path::new(url.strip_prefix("file://").unwrap_or(url));
    let is_local = url.starts_with("file://") || path.is_absolute() || path.exists();
    let dir = if path.join(".git").is_dir() {
        path.join(".git")
    } else {
        path.to_path_buf()
    };
    (is_local && dir.join("HEAD").is_file()).then_some(dir)
}

/// The folder a repository `url` names on this machine (a path, or a
/// `file://` URL), when nothing is there.
fn missing_local_path(url: &str) -> Option<PathBuf> {
    let path = match url.strip_prefix("file://") {
        // `file://localhost/…` and percent-encoded paths are left to git.
        Some(path) if path.starts_with('/') && !path.contains('%') => path,
        Some(_) => return None,
        // Not `host:path` or `user@host:path`, which name remote ones.
        None if !url.contains("://") && !url.split('/').next()?.contains(':') => url,
        None => return None,
    };
    let path = Path::new(path);
    (path.symlink_metadata().is_err()).then(|| path.to_path_buf())
}

pub(crate) fn callbacks<'a>() -> RemoteCallbacks<'a> {
    let mut callbacks = RemoteCallbacks::new();
    // libgit2 asks again after credentials are refused; the same answer
    // would loop forever.
    let mut asked = 0;
    callbacks.credentials(move |url, username, allowed| {
        asked += 1;
        if asked > 3 {
            return Err(git2::Error::new(
                git2::ErrorCode::Auth,
                git2::ErrorClass::Http,
                "the credentials were refused",
            ));
        }
        if allowed.contains(git2::CredentialType::SSH_KEY)
            && let Some(user) = username
        {
            return git2::Cred::ssh_key_from_agent(user);
        }
        // The user name a URL carries never reaches a credential helper:
        // the helper answers for the URL's host alone.
        let _ = username;
        let config = git2::Config::open_default()?;
        git2::Cred::credential_helper(&config, url, None)
    });
    callbacks
}

/// Fetches the repository at `url` into a bare copy under `cache` and
/// returns the commit to use: `pinned` when given (fetched only if it is
/// not there yet), else what `rev` names (a branch, a tag or a commit id;
/// the remote's HEAD when `None`). With `offline`, nothing is fetched.
pub(crate) fn fetch_commit(
    resolver: &Resolver,
    url: &str,
    rev: Option<&str>,
    pinned: Option<&str>,
    cache: &Path,
    offline: bool,
) -> anyhow::Result<(Repository, git2::Oid)> {
    let remote_url = git_url(url);
    // Messages name the repository without the credentials in its URL.
    let (url, _) = split_credentials(&remote_url)?;
    // A repository on this machine is read where it is, as git's own local
    // clone links rather than packs: fetching from it would have libgit2
    // build and delta-compress a pack of everything only to unpack it.
    if let Some(dir) = local_repository(&remote_url) {
        return read_local(resolver, &dir, &remote_url, rev, pinned);
    }
    if let Some(path) = missing_local_path(&remote_url) {
        let mut error = Hinted::new(format!("there is no repository at {}", path.display()));
        if let Some(meant) = crate::hint::closest_path(&path) {
            error = error.hint(format!("did you mean {}?", meant.display()));
        }
        // `github.com/owner/repo`: a host, without its scheme.
        if remote_url
            .split('/')
            .next()
            .is_some_and(|first| first.contains('.') && !first.starts_with('.'))
        {
            error = error.hint(format!(
                "for a repository on a server, give its whole URL: https://{remote_url}"
            ));
        }
        bail!(error);
    }
    // Named by the sha256 of the URL, as the cache names everything.
    let key = format!(
        "{:x}",
        <sha2::Sha256 as sha2::Digest>::digest(remote_url.as_bytes())
    );
    let db = cache.join("git-db").join(&key[..16]);
    let _lock = crate::fsutil::lock_exclusive(&db.with_extension("lock"))
        .with_context(|| format!("could not lock {}", db.display()))?;
    let repo = if db.join("HEAD").is_file() {
        Repository::open_bare(&db)?
    } else {
        if offline {
            bail!(
                Hinted::new(format!(
                    "{url} is not in the cache and --offline forbids fetching it"
                ))
                .hint("run once without --offline (or --frozen) to fetch it")
            );
        }
        fs_err::create_dir_all(&db)?;
        let repo = Repository::init_bare(&db)?;
        repo.remote("origin", &remote_url)?;
        repo
    };
    let pinned = pinned
        .map(|id| git2::Oid::from_str(id).with_context(|| format!("'{id}' is not a commit id")))
        .transpose()?
        // What this run resolved before: one view of a repository per run,
        // and one fetch however many of its skills are installed.
        .or_else(|| resolver.before(&remote_url, rev));
    let have = |oid: git2::Oid| repo.find_commit(oid).is_ok();
    if let Some(oid) = pinned
        && have(oid)
    {
        return Ok((repo, oid));
    }
    if offline {
        bail!(
            Hinted::new(format!(
                "{} of {url} is not in the cache and --offline forbids fetching it",
                rev.unwrap_or("HEAD")
            ))
            .hint("run once without --offline (or --frozen) to fetch it")
        );
    }
    // A branch, tag or HEAD needs only its newest commit: a shallow fetch
    // where the server allows one. A pinned commit, or a revision that is
    // no ref, takes the whole history.
    let shallow =
        pinned.is_none() && shallow_fetch(&repo, rev).is_ok_and(|()| resolve(&repo, rev).is_ok());
    if !shallow {
        let mut remote = repo.find_remote("origin")?;
        let mut options = FetchOptions::new();
        options.remote_callbacks(callbacks());
        if repo.is_shallow() {
            options.depth(i32::MAX);
        }
        remote
            .fetch(
                &[
                    "+refs/heads/*:refs/remotes/origin/*",
                    "+refs/tags/*:refs/tags/*",
                    "+HEAD:refs/remotes/origin/HEAD",
                ],
                Some(&mut options),
                None,
            )
            .map_err(|e| fetch_error::explain(e, &url))?;
    }
    if let Some(oid) = pinned {
        if !have(oid) {
            bail!(pin_gone(oid, &url));
        }
        return Ok((repo, oid));
    }
    let oid = resolve(&repo, rev).map_err(|()| missing_rev(&url, rev))?;
    resolver.remember(&remote_url, rev, oid);
    Ok((repo, oid))
}

/// The commit `rev` of the repository at `url` names now (its HEAD when
/// `None`), when the files of the folder `subdir` (the whole tree when
/// `None`) there differ from those at the commit `locked`, or the folder
/// is gone; `None` when they are the same files (a commit elsewhere in the
/// repository changes nothing for the skill in `subdir`).
pub(crate) fn folder_moved(
    resolver: &Resolver,
    url: &str,
    rev: Option<&str>,
    locked: &str,
    subdir: Option<&str>,
    cache: &Path,
) -> anyhow::Result<Option<String>> {
    let (repo, now) = fetch_commit(resolver, url, rev, None, cache, false)?;
    if now.to_string() == locked {
        return Ok(None);
    }
    let folder_now = folder_tree_id(&repo, now, subdir)?;
    let locked_id =
        git2::Oid::from_str(locked).with_context(|| format!("'{locked}' is not a commit id"))?;
    // A shallow fetch of the branch may lack the locked commit.
    let folder_then = match repo.find_commit(locked_id) {
        Ok(_) => folder_tree_id(&repo, locked_id, subdir)?,
        Err(_) => {
            let (repo, locked_id) = fetch_commit(resolver, url, rev, Some(locked), cache, false)?;
            folder_tree_id(&repo, locked_id, subdir)?
        }
    };
    Ok((folder_now.is_none() || folder_now != folder_then).then(|| now.to_string()))
}

/// [`fetch_commit`] for the repository in the git directory `dir`: the
/// commit `pinned`, or what `rev` names there (HEAD when `None`).
fn read_local(
    resolver: &Resolver,
    dir: &Path,
    remote_url: &str,
    rev: Option<&str>,
    pinned: Option<&str>,
) -> anyhow::Result<(Repository, git2::Oid)> {
    let (url, _) = split_credentials(remote_url)?;
    let repo = Repository::open(dir).with_context(|| format!("could not open {url}"))?;
    // One view of the repository per run, however many of its skills.
    if pinned.is_none()
        && let Some(oid) = resolver.before(remote_url, rev)
    {
        return Ok((repo, oid));
    }
    if let Some(id) = pinned {
        let oid = git2::Oid::from_str(id).with_context(|| format!("'{id}' is not a commit id"))?;
        if repo.find_commit(oid).is_err() {
            bail!(pin_gone(oid, &url));
        }
        return Ok((repo, oid));
    }
    let commit = match rev {
        None => repo.head().and_then(|head| head.peel_to_commit()).ok(),
        Some(rev) => [format!("refs/heads/{rev}"), format!("refs/tags/{rev}")]
            .iter()
            .find_map(|name| repo.find_reference(name).ok()?.peel_to_commit().ok())
            .or_else(|| repo.revparse_single(rev).ok()?.peel_to_commit().ok()),
    };
    let oid = commit
        .map(|c| c.id())
        .ok_or_else(|| missing_rev(&url, rev))?;
    resolver.remember(remote_url, rev, oid);
    Ok((repo, oid))
}

/// The error for a revision the repository `url` does not have.
fn missing_rev(url: &str, rev: Option<&str>) -> anyhow::Error {
    match rev {
        None => anyhow::anyhow!("{url} has no HEAD to install"),
        Some(rev) => anyhow::anyhow!(
            Hinted::new(format!("{url} has no branch, tag or commit '{rev}'"))
                .hint("check `rev` in skills.toml")
        ),
    }
}

/// The error for a pinned commit the repository `url` no longer has.
fn pin_gone(oid: git2::Oid, url: &str) -> Hinted {
    Hinted::new(format!(
        "commit {oid}, which skills.lock pins, is no longer in {url}"
    ))
    .hint("`skillpkg update` moves the pin to what the manifest names now")
}

/// Fetches only the newest commit of `rev` (a branch or tag; HEAD when
/// `None`). Fails where the transport or the server cannot, or when `rev`
/// looks like a commit id.
fn shallow_fetch(repo: &Repository, rev: Option<&str>) -> Result<(), git2::Error> {
    let refspecs = match rev {
        None => vec!["+HEAD:refs/remotes/origin/HEAD".to_string()],
        Some(rev) if rev.len() >= 7 && rev.chars().all(|c| c.is_ascii_hexdigit()) => {
            return Err(git2::Error::from_str("a commit id is fetched whole"));
        }
        Some(rev) => vec![
            format!("+refs/heads/{rev}:refs/remotes/origin/{rev}"),
            format!("+refs/tags/{rev}:refs/tags/{rev}"),
        ],
    };
    let mut remote = repo.find_remote("origin")?;
    let mut options = FetchOptions::new();
    options.remote_callbacks(callbacks());
    options.depth(1);
    remote.fetch(&refspecs, Some(&mut options), None)
}

/// The commit `rev` names in the fetched repository: a branch, a tag or a
/// commit id; the remote's HEAD when `None`.
fn resolve(repo: &Repository, rev: Option<&str>) -> Result<git2::Oid, ()> {
    let commit = match rev {
        None => repo
            .find_reference("refs/remotes/origin/HEAD")
            .and_then(|r| r.peel_to_commit())
            .ok(),
        Some(rev) => [
            format!("refs/remotes/origin/{rev}"),
            format!("refs/tags/{rev}"),
        ]
        .iter()
        .find_map(|name| repo.find_reference(name).ok()?.peel_to_commit().ok())
        .or_else(|| repo.revparse_single(rev).ok()?.peel_to_commit().ok()),
    };
    commit.map(|c| c.id()).ok_or(())
}

/// The commits one run resolved, by repository URL and revision: one
/// view of each repository per run (an `add` that lists a repository and
/// then installs from it sees one commit, however the branch moves
/// meanwhile), and one fetch however many of its skills are installed.
/// Each run owns one; nothing is shared between runs in one process.
#[derive(Debug, Default)]
pub(crate) struct Resolver {
    resolved: std::sync::Mutex<std::collections::HashMap<(String, Option<String>), git2::Oid>>,
}

impl Resolver {
    fn before(&self, url: &str, rev: Option<&str>) -> Option<git2::Oid> {
        let resolved = self.resolved.lock().ok()?;
        resolved
            .get(&(url.to_string(), rev.map(str::to_string)))
            .copied()
    }

    fn remember(&self, url: &str, rev: Option<&str>, oid: git2::Oid) {
        if let Ok(mut resolved) = self.resolved.lock() {
            resolved.insert((url.to_string(), rev.map(str::to_string)), oid);
        }
    }
}

/// The URL git2 should use: `git+` stripped.
pub(crate) fn git_url(spec: &str) -> String {
    spec.strip_prefix("git+").unwrap_or(spec).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Commits a file with `text` on the repository's current branch.
    fn commit(repo: &Repository, text: &str) -> git2::Oid {
        let dir = repo.workdir().unwrap();
        std::fs::write(dir.join("SKILL.md"), text).unwrap();
        let mut index = repo.index().unwrap();
        index.add_path(Path::new("SKILL.md")).unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let who = git2::Signature::now("t", "t@example.com").unwrap();
        let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
        let parents: Vec<&git2::Commit> = parent.iter().collect();
        repo.commit(Some("HEAD"), &who, &who, text, &tree, &parents)
            .unwrap()
    }

    #[test]
    fn a_run_keeps_its_view_of_a_repository_and_the_next_run_sees_it_move() {
        let temp = tempfile::tempdir().unwrap();
        let repo = Repository::init(temp.path().join("repo")).unwrap();
        let first = commit(&repo, "one");
        let url = format!("file://{}", temp.path().join("repo").display());
        let cache = temp.path().join("cache");

        let run = Resolver::default();
        assert_eq!(
            fetch_commit(&run, &url, None, None, &cache, true)
                .unwrap()
                .1,
            first
        );
        let second = commit(&repo, "two");
        assert_eq!(
            fetch_commit(&run, &url, None, None, &cache, true)
                .unwrap()
                .1,
            first,
            "one run, one view"
        );
        let next = Resolver::default();
        assert_eq!(
            fetch_commit(&next, &url, None, None, &cache, true)
                .unwrap()
                .1,
            second,
            "another run sees the branch move"
        );
    }
}
