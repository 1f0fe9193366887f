//! Git indexes: cloned or fetched into the cache, changed in the work
//! tree, committed and pushed, through the git plumbing in [`crate::git`].

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use git2::{FetchOptions, Repository};

use super::local::{IndexDir, Naming};

use crate::fsutil::FileLock;
use crate::git::tree::{INDEX_BUDGET, survey};
use crate::git::{
    DEFAULT_BRANCH, callbacks, clean_untracked, commit_all, git_url, local_repository, push,
    remote_branch,
};
use crate::hint::Hinted;
use crate::net::{Attempt, RetryPolicy, split_credentials};

/// Whether `spec` names a git index: `git+…` and `git://` URLs, and local
/// paths or `file://` URLs of git repositories (bare or not).
pub(crate) fn is_git_index(spec: &str) -> bool {
    if spec.starts_with("git+") || spec.starts_with("git://") || spec.starts_with("ssh://") {
        return true;
    }
    let path = Path::new(spec.strip_prefix("file://").unwrap_or(spec));
    (path.join("HEAD").is_file() && path.join("objects").is_dir()) || path.join(".git").exists()
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
            survey(&repo, &target.tree()?, INDEX_BUDGET, &self.shown)?;
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
    pub fn init(
        &self,
        cache: &Path,
        org_key: Option<(&str, &str)>,
        naming: &Naming<'_>,
    ) -> anyhow::Result<bool> {
        let mut was_empty = false;
        self.commit_and_push(cache, |state| {
            was_empty = state == State::Empty;
            if state == State::Other {
                bail!(self.not_an_index());
            }
            IndexDir::init(&self.checkout, org_key)?.name_as(naming)?;
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
    pub(crate) fn open_checkout(&self) -> anyhow::Result<IndexDir> {
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

/// Creates a new git index: a repository at `path` (bare when the path
/// ends in `.git`) whose first commit holds the index layout.
pub(crate) fn init_repository(
    path: &Path,
    org_key: Option<(&str, &str)>,
    naming: &Naming<'_>,
) -> anyhow::Result<()> {
    let bare = path.extension().is_some_and(|e| e == "git");
    if bare {
        let staging = crate::fsutil::private_tempdir("skillpkg-index-", None)?;
        let repo = Repository::init(staging.path())?;
        IndexDir::init(staging.path(), org_key)?.name_as(naming)?;
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
        IndexDir::init(path, org_key)?.name_as(naming)?;
        commit_all(&repo, DEFAULT_BRANCH, "Create skill index")?;
    }
    Ok(())
}
