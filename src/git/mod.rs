//! All git code: fetching a repository's commit into the cache, reading
//! its trees within a budget, finding the skills it holds, checking who signed a commit, committing and
//! pushing, on git2 (libgit2). Git indexes ([`crate::index`]) and git
//! skills ([`crate::ops`]) are built on it.

pub(crate) mod discover;
mod fetch;
mod fetch_error;
pub(crate) mod paths;
mod push;
pub(crate) mod signature;
pub(crate) mod tree;

pub(crate) use fetch::{Resolver, fetch_commit, folder_moved, git_url};
pub(crate) use fetch::{callbacks, local_repository};
pub(crate) use push::DEFAULT_BRANCH;
pub(crate) use push::{clean_untracked, commit_all, push, remote_branch};
pub(crate) use tree::export_tree;
