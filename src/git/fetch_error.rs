//! What a failed fetch means to the user: a repository that asks for
//! credentials gets the ways git provides them, named.

use crate::hint::Hinted;

/// `error`, from fetching `url`, with a hint when it was about
/// credentials.
pub(super) fn explain(error: git2::Error, url: &str) -> anyhow::Error {
    let message = error.message().to_lowercase();
    let about_credentials = error.code() == git2::ErrorCode::Auth
        || message.contains("username/password")
        || message.contains("authentication")
        || message.contains("credentials");
    let fetched = anyhow::Error::new(error).context(format!("could not fetch {url}"));
    if !about_credentials {
        return fetched;
    }
    fetched.context(
        Hinted::new(format!("{url} asks for credentials, and none it accepts were found"))
            .hint("for https, store them with git's credential helper (`git config --global credential.helper store`, then `git ls-remote <url>` once), as git itself would use them")
            .hint("for ssh (git@host:owner/repo), load your key into ssh-agent (`ssh-add`)"),
    )
}
