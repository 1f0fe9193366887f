//! Committing a work tree and pushing it: what publishing to a git index
//! does with the repository.

use git2::{PushOptions, Repository, Signature};

use super::fetch::callbacks;
use crate::hint::Hinted;
use crate::net::Attempt;

/// The branch a new index gets.
pub(crate) const DEFAULT_BRANCH: &str = "main";

/// The remote's default branch: `origin/HEAD`, else `main`/`master`, else any.
pub(crate) fn remote_branch(repo: &Repository) -> Option<String> {
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

pub(crate) fn clean_untracked(repo: &Repository) -> anyhow::Result<()> {
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

pub(crate) fn commit_all(repo: &Repository, branch: &str, message: &str) -> anyhow::Result<()> {
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
pub(crate) fn push(repo: &Repository, branch: &str, shown: &str) -> Attempt<()> {
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
