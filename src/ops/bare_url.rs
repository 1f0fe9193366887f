//! What a bare http(s) URL given to `add` names, when no known host's
//! page and no `.git` URL says: a site publishing an agent-skills index
//! (asked first), else a git repository answering git's smart HTTP.

use crate::hint::Hinted;

/// What a bare URL turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BareUrl {
    /// A site with an agent-skills index: add its skills as
    /// `--well-known` does.
    Site {
        /// The site.
        site: String,
        /// The index found there.
        index: String,
    },
    /// A git repository, at this URL.
    Git {
        /// The repository's URL.
        url: String,
        /// Where it answered, without credentials, when it was asked.
        answered: Option<String>,
    },
}

/// Asks what `url` is: the site's agent-skills index first (unless
/// `asks_git`: `--rev` or `--subdir` were given, or the URL is no site's,
/// see [`well_known_site`]), then git. The error when neither answers
/// lists every URL asked.
pub(crate) fn resolve(url: &str, asks_git: bool, offline: bool) -> anyhow::Result<BareUrl> {
    use crate::index::well_known::Discovered;
    let site = well_known_site(url).filter(|_| !asks_git);
    let mut asked = Vec::new();
    if let Some(site) = &site
        && !offline
    {
        match crate::index::well_known::Sites::default().discover(site)? {
            Discovered::Found(index) => {
                return Ok(BareUrl::Site {
                    site: site.clone(),
                    index: index.url.to_string(),
                });
            }
            Discovered::NotFound(tried) => {
                asked = tried.into_iter().map(|t| (t.url, t.answer)).collect();
            }
        }
    }
    probe(url, offline, site.is_some(), asked)
}

/// The site whose agent-skills index a bare URL is asked for before git
/// is: the URL's origin, when the URL names nothing below it (its path
/// is empty or `/`), carries no credentials, and is one skillpkg reads
/// skills from (`https://`, or `http://` on this machine). A URL with a
/// path is more likely a repository; `--well-known` reads a site there.
fn well_known_site(url: &str) -> Option<String> {
    let parsed = reqwest::Url::parse(url).ok()?;
    if parsed.path() != "/" || !parsed.username().is_empty() || parsed.password().is_some() {
        return None;
    }
    crate::manifest::well_known_ref::parse_site(url).ok()
}

/// The git repository at an http(s) URL of a host not known to
/// [`crate::manifest::source_arg`], found by asking it as git does
/// ([`crate::net::git_probe`]); an error listing what was asked and what
/// came back when it does not answer as one, after `asked`: the
/// agent-skills indexes asked for first (`well_known`: whether they were
/// to be).
fn probe(
    url: &str,
    offline: bool,
    well_known: bool,
    asked: Vec<(String, String)>,
) -> anyhow::Result<BareUrl> {
    use crate::net::git_probe::{Probed, probe};
    let (shown, _) = crate::net::split_credentials(url)?;
    if offline {
        let (what, hint) = match well_known {
            true => (
                "whether it has an agent-skills index or is a git repository",
                format!(
                    "`skillpkg add --git {shown} --offline` takes it as a git repository (from the cache); a site's skills cannot be added offline"
                ),
            ),
            false => (
                "whether it is a git repository",
                format!("`skillpkg add --git {shown} --offline` takes it as one (from the cache)"),
            ),
        };
        anyhow::bail!(
            Hinted::new(format!(
                "{shown} must be asked {what}, and --offline forbids that"
            ))
            .hint(hint)
        );
    }
    let tried = match probe(url)? {
        Probed::Repository(found) => {
            let (found_shown, _) = crate::net::split_credentials(&found)?;
            return Ok(BareUrl::Git {
                url: found,
                answered: Some(found_shown),
            });
        }
        Probed::NotARepository(tried) => tried,
    };
    let list: String = asked
        .iter()
        .map(|(url, answer)| format!("\n  {url}: {answer}"))
        .chain(tried.iter().map(|t| format!("\n  {}: {}", t.url, t.answer)))
        .collect();
    let what = match asked.is_empty() {
        true => "does not answer as a git repository",
        false => "has no agent-skills index and does not answer as a git repository",
    };
    let mut error = Hinted::new(format!("{shown} {what}; asked:{list}"));
    if !asked.is_empty() {
        error = error.hint(
            "a site publishes its skills at /.well-known/agent-skills/index.json; `skillpkg add --well-known URL` reads an index elsewhere",
        );
    }
    error = error.hint(format!(
        "a git server answers there with 200 and {} (git's smart HTTP)",
        crate::net::git_probe::ADVERTISEMENT
    ));
    if tried.iter().any(|t| t.wants_credentials) {
        error = error.hint(
            "the server asks for credentials: with --git, the fetch gets them from git's credential helper, as git does",
        );
    }
    error = error
        .hint(format!(
            "if it is a git repository all the same, `skillpkg add --git {shown}` takes it as one"
        ))
        .hint("packages of an index are added as org/name; a skill in a folder with --path <DIR>");
    Err(error.into())
}
