//! What a failed fetch means to the user: a repository that is not there
//! says so; one that asks for credentials (as hosts such as GitHub answer
//! for a repository they do not have) gets the ways git provides them,
//! named, and the check of its name.

use crate::hint::Hinted;

/// `error`, from fetching `url`, with a hint when the repository is not
/// there or asked for credentials.
pub(super) fn explain(error: git2::Error, url: &str) -> anyhow::Error {
    let message = error.message().to_lowercase();
    let about_credentials = error.code() == git2::ErrorCode::Auth
        || message.contains("username/password")
        || message.contains("authentication")
        || message.contains("credentials");
    let not_found = error.class() == git2::ErrorClass::Http
        && (message.contains("404") || message.contains("not found"));
    let fetched = anyhow::Error::new(error).context(format!("could not fetch {url}"));
    let check_the_name = format!("check the owner and the repository's name in {url}");
    if not_found {
        return fetched.context(
            Hinted::new(format!(
                "there is no repository at {url} (the server answered 404 Not Found)"
            ))
            .hint(check_the_name),
        );
    }
    if !about_credentials {
        return fetched;
    }
    fetched.context(
        Hinted::new(format!("{url} asks for credentials, and none it accepts were found"))
            .hint(format!("if it is a public repository, it may not exist: hosts such as GitHub ask for credentials for a repository they do not have; {check_the_name}"))
            .hint("for https, store them with git's credential helper (`git config --global credential.helper store`, then `git ls-remote <url>` once), as git itself would use them")
            .hint("for ssh (git@host:owner/repo), load your key into ssh-agent (`ssh-add`)"),
    )
}
