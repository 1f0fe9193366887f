//! Git indexes: cloned or fetched with git2 into the cache, changed in the
//! work tree, committed and pushed. All git code lives here.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use git2::{FetchOptions, PushOptions, RemoteCallbacks, Repository, Signature};

use super::local::IndexDir;

pub mod discover;
mod fetch_error;
mod tree;

use crate::fsutil::FileLock;
use crate::hint::Hinted;
use crate::net::{Attempt, RetryPolicy, split_credentials};
use tree::INDEX_BUDGET;
use tree::folder_tree_id;
pub use tree::{Budget, export_tree};

/// The branch a new index gets.
const DEFAULT_BRANCH: &str = "main";

/// Whether `spec` names a git index: `git+…` and `git://` URLs, and local
/// paths or `file://` URLs of git repositories (bare or not).
pub fn is_git_index(spec: &str) -> bool {
    if spec.starts_with("git+") || spec.starts_with("git://") || spec.starts_with("ssh://") {
        return true;
    }
    let path = Path::new(spec.strip_prefix("file://").unwrap_or(spec));
    (path.join("HEAD").is_file() && path.join("objects").is_dir()) || path.join(".git").exists()
}

/// The git directory of the repository `url` names when it is on this
/// machine (a path or a `file://` URL of a repository, bare or not).
fn local_repository(url: &str) -> Option<PathBuf> {
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

/// The URL git2 should use: `git+` stripped.
pub fn git_url(spec: &str) -> String {
    spec.strip_prefix("git+").unwrap_or(spec).to_string()
}

fn callbacks<'a>() -> RemoteCallbacks<'a> {
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

/// A git index checked out in the cache.
pub struct GitIndex {
    /// The URL git fetches, credentials included.
    url: String,
    /// The URL as messages show it: without credentials.
    shown: String,
    checkout: PathBuf,
    /// When to push again after a push lost a race.
    push_policy: RetryPolicy,
}

impl GitIndex {
    /// A git index at `spec`, checked out under `cache`. Refuses a URL
    /// whose credentials hold control characters.
    pub fn new(spec: &str, cache: &Path) -> anyhow::Result<GitIndex> {
        let url = git_url(spec);
        let (shown, _) = split_credentials(&url)?;
        let key = crate::store::hash::sha256_hex(url.as_bytes());
        Ok(GitIndex {
            shown,
            checkout: cache.join("git-index").join(&key[..16]),
            url,
            push_policy: RetryPolicy::for_pushes(),
        })
    }

    /// The same index, retrying rejected pushes by `policy` instead of
    /// [`RetryPolicy::for_pushes`].
    #[must_use]
    pub fn with_push_policy(self, policy: RetryPolicy) -> GitIndex {
        GitIndex {
            push_policy: policy,
            ..self
        }
    }

    /// The local work tree.
    pub fn checkout(&self) -> &Path {
        &self.checkout
    }

    /// Locks the checkout against other runs that fetch into, publish
    /// through or read it, until the lock is dropped.
    pub fn lock(&self, cache: &Path) -> anyhow::Result<FileLock> {
        crate::fsutil::lock_exclusive(&self.checkout.with_extension("lock")).with_context(|| {
            format!(
                "could not lock the index checkout under {}",
                cache.display()
            )
        })
    }

    /// The repository's directory when the index is on this machine.
    fn local_repository(&self) -> Option<PathBuf> {
        local_repository(&self.url)
    }

    /// Brings the checkout to the remote's current state (making it the
    /// first time) and returns it with the branch to publish on. What the
    /// remote holds is surveyed within a budget, links refused, before any
    /// of it is written to the work tree.
    pub fn sync(&self) -> anyhow::Result<(Repository, String)> {
        let context = || format!("could not fetch the index {}", self.shown);
        let repo = if self.checkout.join(".git").exists() {
            Repository::open(&self.checkout).with_context(context)?
        } else {
            fs_err::create_dir_all(&self.checkout)?;
            let mut init = git2::RepositoryInitOptions::new();
            init.initial_head(DEFAULT_BRANCH);
            let repo = Repository::init_opts(&self.checkout, &init).with_context(context)?;
            repo.remote("origin", &self.url).with_context(context)?;
            repo
        };
        {
            let mut remote = repo.find_remote("origin").with_context(context)?;
            let mut options = FetchOptions::new();
            options.remote_callbacks(callbacks());
            remote
                .fetch(
                    &["+refs/heads/*:refs/remotes/origin/*"],
                    Some(&mut options),
                    None,
                )
                .with_context(context)?;
            // The remote's HEAD names its default branch.
            if let Ok(head) = remote.default_branch()
                && let Ok(head) = head.as_str()
                && let Some(branch) = head.strip_prefix("refs/heads/")
            {
                let target = format!("refs/remotes/origin/{branch}");
                if repo.find_reference(&target).is_ok() {
                    repo.reference_symbolic(
                        "refs/remotes/origin/HEAD",
                        &target,
                        true,
                        "default branch",
                    )?;
                }
            }
        }
        let Some(branch) = remote_branch(&repo) else {
            // An empty repository: its first commit starts a branch.
            clean_untracked(&repo)?;
            return Ok((repo, self.first_branch()));
        };
        {
            let target = repo
                .find_reference(&format!("refs/remotes/origin/{branch}"))?
                .peel_to_commit()?;
            tree::survey(&repo, &target.tree()?, INDEX_BUDGET, &self.shown)?;
            repo.set_head_detached(target.id())?;
            repo.branch(&branch, &target, true)?;
            repo.set_head(&format!("refs/heads/{branch}"))?;
            repo.reset(target.as_object(), git2::ResetType::Hard, None)?;
        }
        clean_untracked(&repo)?;
        Ok((repo, branch))
    }

    /// Runs `change` on a fresh checkout of the index, commits what it did
    /// with the message it returns, and pushes; when the push is rejected
    /// because the remote moved, waits a little (backoff with jitter),
    /// fetches and does it all again, within the time budget of its push
    /// policy ([`RetryPolicy::for_pushes`] unless set otherwise). A repository that is not an index yet
    /// is an error that says how to make it one.
    pub fn publish(
        &self,
        cache: &Path,
        mut change: impl FnMut(&IndexDir) -> anyhow::Result<String>,
    ) -> anyhow::Result<()> {
        self.commit_and_push(cache, |state| match state {
            State::Index => change(&IndexDir::open(&self.checkout)?),
            State::Empty => bail!(
                Hinted::new(format!(
                    "{} is an empty git repository, not a skill index yet",
                    self.shown
                ))
                .hint(format!(
                    "make it an index first: `skillpkg index init {} --git --org <org> --key <public key>`",
                    crate::hint::shell_quote(&self.shown)
                ))
            ),
            State::Other => bail!(self.not_an_index()),
        })
    }

    /// Makes the repository a skill index: an empty one (what a git host
    /// gives you) gets a first commit holding the layout; an index gets
    /// `org_key` added to its config. Returns whether the repository was
    /// empty. A repository that holds something else is refused.
    pub fn init(&self, cache: &Path, org_key: Option<(&str, &str)>) -> anyhow::Result<bool> {
        let mut was_empty = false;
        self.commit_and_push(cache, |state| {
            was_empty = state == State::Empty;
            if state == State::Other {
                bail!(self.not_an_index());
            }
            IndexDir::init(&self.checkout, org_key)?;
            Ok(match (was_empty, org_key) {
                (true, _) => "Create skill index".to_string(),
                (false, Some((org, _))) => format!("Add a signing key for {org}"),
                (false, None) => "Update the search listing".to_string(),
            })
        })?;
        Ok(was_empty)
    }

    /// What a repository with commits but no `config.json` gets.
    fn not_an_index(&self) -> Hinted {
        Hinted::new(format!(
            "{} is a git repository but not a skill index: it has no config.json",
            self.shown
        ))
        .hint("check the index URL; a new index starts from an empty repository (`git init --bare`) made one with `skillpkg index init <url> --git`")
    }

    /// Reads the index checked out by [`GitIndex::sync`], with an error
    /// naming the repository (never the checkout) when it is not one.
    pub fn open_checkout(&self) -> anyhow::Result<IndexDir> {
        match self.state() {
            State::Index => IndexDir::open(&self.checkout),
            State::Empty => bail!(
                Hinted::new(format!(
                    "{} is an empty git repository, not a skill index yet",
                    self.shown
                ))
                .hint("its owner makes it one with `skillpkg index init <url> --git --org <org> --key <public key>`")
            ),
            State::Other => bail!(self.not_an_index()),
        }
    }

    /// What the synced checkout holds.
    fn state(&self) -> State {
        let has_commits = Repository::open(&self.checkout)
            .ok()
            .is_some_and(|repo| repo.head().is_ok());
        if !has_commits {
            State::Empty
        } else if self.checkout.join("config.json").is_file() {
            State::Index
        } else {
            State::Other
        }
    }

    /// Syncs, runs `change`, commits and pushes, retrying rejected pushes.
    fn commit_and_push(
        &self,
        cache: &Path,
        mut change: impl FnMut(State) -> anyhow::Result<String>,
    ) -> anyhow::Result<()> {
        let _lock = self.lock(cache)?;
        let what = format!("could not push to {}", self.shown);
        self.push_policy.run_blocking(&what, || {
            self.attempt(&mut change).unwrap_or_else(Attempt::Fail)
        })
    }

    /// One sync, change, commit and push.
    fn attempt(
        &self,
        change: &mut impl FnMut(State) -> anyhow::Result<String>,
    ) -> anyhow::Result<Attempt<()>> {
        let (repo, branch) = self.sync()?;
        let message = change(self.state())?;
        commit_all(&repo, &branch, &message)?;
        // libgit2 updates a local repository's refs without an atomic
        // compare-and-swap: publishers on one machine serialise their
        // pushes with a lock inside the repository (git ignores the
        // file), so each push sees the ref the previous one left.
        let _push_lock = match self.local_repository() {
            Some(dir) => Some(
                crate::fsutil::lock_exclusive(&dir.join("skillpkg-push.lock"))
                    .with_context(|| format!("could not lock {}", dir.display()))?,
            ),
            None => None,
        };
        Ok(push(&repo, &branch, &self.shown))
    }

    /// The branch a first commit goes to: the one a local repository's
    /// HEAD names, else `main` (what git hosts use).
    fn first_branch(&self) -> String {
        self.local_repository()
            .and_then(|dir| Repository::open_bare(dir).ok())
            .and_then(|repo| {
                let head = repo.find_reference("HEAD").ok()?;
                let target = head.symbolic_target().ok().flatten()?;
                target.strip_prefix("refs/heads/").map(str::to_string)
            })
            .unwrap_or_else(|| DEFAULT_BRANCH.to_string())
    }
}

/// What a checkout of a git index holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// No commits: a new repository.
    Empty,
    /// An index (`config.json` at the root).
    Index,
    /// Commits, but no index.
    Other,
}

/// The remote's default branch: `origin/HEAD`, else `main`/`master`, else any.
fn remote_branch(repo: &Repository) -> Option<String> {
    if let Ok(head) = repo.find_reference("refs/remotes/origin/HEAD")
        && let Ok(Some(target)) = head.symbolic_target()
    {
        return target
            .strip_prefix("refs/remotes/origin/")
            .map(str::to_string);
    }
    for name in [DEFAULT_BRANCH, "master"] {
        if repo
            .find_reference(&format!("refs/remotes/origin/{name}"))
            .is_ok()
        {
            return Some(name.to_string());
        }
    }
    let branches = repo.branches(Some(git2::BranchType::Remote)).ok()?;
    branches
        .filter_map(Result::ok)
        .filter_map(|(b, _)| b.name().ok().flatten().map(str::to_string))
        .find_map(|n| {
            n.strip_prefix("origin/")
                .filter(|n| *n != "HEAD")
                .map(str::to_string)
        })
}

fn clean_untracked(repo: &Repository) -> anyhow::Result<()> {
    let workdir = repo
        .workdir()
        .expect("index checkouts have a work tree")
        .to_path_buf();
    let mut options = git2::StatusOptions::new();
    options.include_untracked(true).recurse_untracked_dirs(true);
    for entry in repo.statuses(Some(&mut options))?.iter() {
        if entry.status().contains(git2::Status::WT_NEW)
            && let Ok(path) = entry.path()
        {
            let _ = fs_err::remove_file(workdir.join(path));
        }
    }
    Ok(())
}

fn signature(repo: &Repository) -> anyhow::Result<Signature<'static>> {
    match repo.signature() {
        Ok(signature) => Ok(signature.to_owned()),
        Err(_) => Ok(Signature::now("skillpkg", "skillpkg@localhost")?),
    }
}

fn commit_all(repo: &Repository, branch: &str, message: &str) -> anyhow::Result<()> {
    let mut index = repo.index()?;
    index.add_all(["*"], git2::IndexAddOption::DEFAULT, None)?;
    index.update_all(["*"], None)?;
    index.write()?;
    let tree = repo.find_tree(index.write_tree()?)?;
    let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
    if parent.as_ref().is_some_and(|p| p.tree_id() == tree.id()) {
        return Ok(()); // nothing changed: no empty commit
    }
    let parents: Vec<&git2::Commit> = parent.iter().collect();
    let who = signature(repo)?;
    repo.commit(
        Some(&format!("refs/heads/{branch}")),
        &who,
        &who,
        message,
        &tree,
        &parents,
    )?;
    if parent.is_none() {
        repo.set_head(&format!("refs/heads/{branch}"))?;
    }
    Ok(())
}

/// Pushes `branch` to `origin` (named `shown` in errors). A push that
/// lost a race (the remote moved, or its ref was locked by another push)
/// may pass after a fetch; any other failure will not.
fn push(repo: &Repository, branch: &str, shown: &str) -> Attempt<()> {
    let mut remote = match repo.find_remote("origin") {
        Ok(remote) => remote,
        Err(e) => return Attempt::Fail(e.into()),
    };
    let rejection = std::cell::RefCell::new(None::<String>);
    let mut callbacks = callbacks();
    callbacks.push_update_reference(|reference, status| {
        if let Some(status) = status {
            *rejection.borrow_mut() = Some(format!("{reference}: {status}"));
        }
        Ok(())
    });
    let mut options = PushOptions::new();
    options.remote_callbacks(callbacks);
    let refspec = format!("refs/heads/{branch}:refs/heads/{branch}");
    let pushed = remote.push(&[refspec.as_str()], Some(&mut options));
    drop(options);
    let lost_race = |cause: String| Attempt::Retry {
        cause,
        retry_after: None,
    };
    if let Err(e) = pushed {
        return match e.code() {
            git2::ErrorCode::NotFastForward | git2::ErrorCode::Locked => {
                lost_race(format!("push rejected: {}", e.message()))
            }
            _ => Attempt::Fail(
                Hinted::new(format!("could not push to {shown}: {}", e.message()))
                    .hint("check the index URL and that you may push to it")
                    .into(),
            ),
        };
    }
    match rejection.into_inner() {
        None => Attempt::Done(()),
        Some(reason) if is_lost_race(&reason) => lost_race(format!("push rejected: {reason}")),
        Some(reason) => Attempt::Fail(
            Hinted::new(format!("{shown} refused the push: {reason}"))
                .hint("check that you may push to the index's branch (a protected branch or a hook can refuse it)")
                .into(),
        ),
    }
}

/// Whether a server's reason for refusing a ref update means someone
/// else updated it first.
fn is_lost_race(reason: &str) -> bool {
    let reason = reason.to_ascii_lowercase();
    [
        "non-fast-forward",
        "fetch first",
        "stale info",
        "cannot lock ref",
        "failed to lock",
        "failed to update ref",
    ]
    .iter()
    .any(|sign| reason.contains(sign))
}

/// Creates a new git index: a repository at `path` (bare when the path
/// ends in `.git`) whose first commit holds the index layout.
pub fn init_repository(path: &Path, org_key: Option<(&str, &str)>) -> anyhow::Result<()> {
    let bare = path.extension().is_some_and(|e| e == "git");
    if bare {
        let staging = crate::fsutil::private_tempdir("skillpkg-index-", None)?;
        let repo = Repository::init(staging.path())?;
        IndexDir::init(staging.path(), org_key)?;
        commit_all(&repo, DEFAULT_BRANCH, "Create skill index")?;
        let mut init = git2::RepositoryInitOptions::new();
        init.bare(true).initial_head(DEFAULT_BRANCH);
        Repository::init_opts(path, &init)?;
        let mut remote = repo.remote("origin", &path.display().to_string())?;
        remote.push(
            &[format!("refs/heads/{DEFAULT_BRANCH}:refs/heads/{DEFAULT_BRANCH}").as_str()],
            None,
        )?;
    } else {
        let mut init = git2::RepositoryInitOptions::new();
        init.initial_head(DEFAULT_BRANCH);
        let repo = Repository::init_opts(path, &init)?;
        IndexDir::init(path, org_key)?;
        commit_all(&repo, DEFAULT_BRANCH, "Create skill index")?;
    }
    Ok(())
}

/// Fetches the repository at `url` into a bare copy under `cache` and
/// returns the commit to use: `pinned` when given (fetched only if it is
/// not there yet), else what `rev` names (a branch, a tag or a commit id;
/// the remote's HEAD when `None`). With `offline`, nothing is fetched.
pub fn fetch_commit(
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
        return read_local(&dir, &remote_url, rev, pinned);
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
    let key = crate::store::hash::sha256_hex(remote_url.as_bytes());
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
        .or_else(|| resolved_before(&remote_url, rev));
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
    remember_resolved(&remote_url, rev, oid);
    Ok((repo, oid))
}

/// The commit `rev` of the repository at `url` names now (its HEAD when
/// `None`), when the files of the folder `subdir` (the whole tree when
/// `None`) there differ from those at the commit `locked`, or the folder
/// is gone; `None` when they are the same files (a commit elsewhere in the
/// repository changes nothing for the skill in `subdir`).
pub fn folder_moved(
    url: &str,
    rev: Option<&str>,
    locked: &str,
    subdir: Option<&str>,
    cache: &Path,
) -> anyhow::Result<Option<String>> {
    let (repo, now) = fetch_commit(url, rev, None, cache, false)?;
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
            let (repo, locked_id) = fetch_commit(url, rev, Some(locked), cache, false)?;
            folder_tree_id(&repo, locked_id, subdir)?
        }
    };
    Ok((folder_now.is_none() || folder_now != folder_then).then(|| now.to_string()))
}

/// [`fetch_commit`] for the repository in the git directory `dir`: the
/// commit `pinned`, or what `rev` names there (HEAD when `None`).
fn read_local(
    dir: &Path,
    remote_url: &str,
    rev: Option<&str>,
    pinned: Option<&str>,
) -> anyhow::Result<(Repository, git2::Oid)> {
    let (url, _) = split_credentials(remote_url)?;
    let repo = Repository::open(dir).with_context(|| format!("could not open {url}"))?;
    // One view of the repository per run, however many of its skills.
    if pinned.is_none()
        && let Some(oid) = resolved_before(remote_url, rev)
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
    remember_resolved(remote_url, rev, oid);
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

/// The commits this process resolved, by repository URL and revision.
type Resolved = std::collections::HashMap<(String, Option<String>), git2::Oid>;

static RESOLVED: std::sync::Mutex<Option<Resolved>> = std::sync::Mutex::new(None);

fn resolved_before(url: &str, rev: Option<&str>) -> Option<git2::Oid> {
    let resolved = RESOLVED.lock().ok()?;
    resolved
        .as_ref()?
        .get(&(url.to_string(), rev.map(str::to_string)))
        .copied()
}

fn remember_resolved(url: &str, rev: Option<&str>, oid: git2::Oid) {
    if let Ok(mut resolved) = RESOLVED.lock() {
        resolved
            .get_or_insert_with(Default::default)
            .insert((url.to_string(), rev.map(str::to_string)), oid);
    }
}
