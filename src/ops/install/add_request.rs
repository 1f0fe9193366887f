//! What `add` is asked to add: the words of its command line ([`Asked`])
//! read into one request ([`AddRequest`]) that names its source whatever
//! form it was given in, or a [`Misuse`] the command reports as a usage
//! error.
//!
//! A positional argument may name a repository in any form
//! [`crate::manifest::source_arg`] knows (taken as `--git URL` with the
//! revision and folder the form names), an OCI artifact, or, as a bare
//! http(s) URL, a site's agent-skills index or else a repository
//! answering git ([`crate::ops::bare_url`]). `--rev`, `--subdir`,
//! `--skill` and `--list` need a source they pick from, named once.

use std::path::PathBuf;

use anyhow::bail;

use crate::hint::Hinted;
use crate::manifest::oci_ref::OciReference;
use crate::manifest::source_arg::{SourceArg, classify};
use crate::ops::bare_url::BareUrl;

/// What `add`'s command line says, as typed.
#[derive(Debug, Clone, Default)]
pub(crate) struct Asked {
    /// The positional arguments: packages, or one source and a name.
    pub packages: Vec<String>,
    /// `--git`.
    pub git: Option<String>,
    /// `--rev`.
    pub rev: Option<String>,
    /// `--subdir`.
    pub subdir: Option<String>,
    /// `--well-known`.
    pub well_known: Option<String>,
    /// `--path`.
    pub path: Option<PathBuf>,
    /// `--skill`: some skills of a repository, a site or a collection.
    pub skills: Vec<String>,
    /// `--list`.
    pub list: bool,
    /// `--signed-by`.
    pub signed_by: Vec<String>,
    /// Fetch nothing over the network (a bare URL is not probed).
    pub offline: bool,
}

/// What a positional source was taken as, besides the flags it set.
#[derive(Default)]
struct Taken {
    /// What a bare URL turned out to be.
    found: Option<Found>,
    /// The OCI artifact it names.
    oci: Option<OciReference>,
}

/// Where what `add` adds comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AddSource {
    /// Packages of an index: `org/name[@requirement]` each.
    Packages(Vec<String>),
    /// A git repository: its skills, those `--skill` picks, or the one in
    /// `subdir`, recorded under `name` when it is one skill.
    Git {
        /// The repository's URL.
        url: String,
        /// The branch, tag or commit.
        rev: Option<String>,
        /// The skill's folder.
        subdir: Option<String>,
        /// The name to record one skill under.
        name: Option<String>,
    },
    /// An OCI artifact: its skill, or a collection's skills.
    Oci(OciReference),
    /// A site's agent-skills index: its skills.
    WellKnown(String),
    /// A folder: its skill, or each skill of the plugin it holds.
    Path {
        /// The folder, as given.
        path: PathBuf,
        /// The name to record its skill under.
        name: Option<String>,
    },
}

/// What a bare URL was found to be, for the command to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Found {
    /// A site's agent-skills index, at this URL.
    SiteIndex(String),
    /// A git repository: the URL given (without credentials), and where
    /// it answered.
    Repository {
        /// The URL, as shown.
        shown: String,
        /// Where it answered.
        at: String,
    },
}

/// One `add`, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AddRequest {
    /// Where from.
    pub source: AddSource,
    /// What a bare URL turned out to be, when one was probed.
    pub found: Option<Found>,
}

/// A command line `add` cannot take: its message and a tip. The command
/// reports it as a usage error.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub(crate) struct Misuse {
    /// What is wrong.
    pub message: String,
    /// What to type instead.
    pub tip: String,
}

/// A [`Misuse`], saying `message`, with `tip`.
pub(crate) fn misuse(
    message: impl std::fmt::Display,
    tip: impl std::fmt::Display,
) -> anyhow::Error {
    Misuse {
        message: message.to_string(),
        tip: tip.to_string(),
    }
    .into()
}

impl Asked {
    /// Reads the command line into one request: a positional source is
    /// classified (a bare URL probed), and combinations that name two
    /// sources, or pick from none, are a [`Misuse`].
    pub(crate) fn request(mut self) -> anyhow::Result<AddRequest> {
        let Taken { found, oci } = self.take_repository()?;
        let source = self.source(oci)?;
        Ok(AddRequest { source, found })
    }

    /// The source the flags name once a positional source is taken.
    fn source(self, oci: Option<OciReference>) -> anyhow::Result<AddSource> {
        if let Some(url) = self.git {
            if self.packages.len() > 1 {
                bail!("--git takes at most one name, for one skill");
            }
            return Ok(AddSource::Git {
                url,
                rev: self.rev,
                subdir: self.subdir,
                name: self.packages.into_iter().next(),
            });
        }
        if !self.signed_by.is_empty() {
            bail!(
                Hinted::new("--signed-by names who signed a git commit, and no git repository is given")
                    .hint("give the repository (--git URL, or github:owner/repo); packages of an index are signed by the keys `skillpkg trust` pins")
            );
        }
        if let Some(site) = self.well_known {
            if !self.packages.is_empty() {
                return Err(misuse(
                    format!(
                        "--well-known '{site}' names the site, and '{}' is given too",
                        self.packages.join(" ")
                    ),
                    format!(
                        "pick its skills with --skill: `skillpkg add --well-known {site} --skill <NAME>`"
                    ),
                ));
            }
            return Ok(AddSource::WellKnown(site));
        }
        if let Some(reference) = oci {
            return Ok(AddSource::Oci(reference));
        }
        if let Some(path) = self.path {
            if self.packages.len() > 1 {
                bail!("--path adds one skill at a time");
            }
            return Ok(AddSource::Path {
                path,
                name: self.packages.into_iter().next(),
            });
        }
        Ok(AddSource::Packages(self.packages))
    }

    /// Takes the positional argument that names a repository, an OCI
    /// artifact or a bare URL out of `packages` into the flag it stands
    /// for (an OCI artifact is the request itself); what a bare URL was
    /// found to be is returned for the command to say.
    fn take_repository(&mut self) -> anyhow::Result<Taken> {
        let mut found: Option<(usize, SourceArg)> = None;
        for (index, text) in self.packages.iter().enumerate() {
            let source = classify(text);
            match (&source, &found) {
                (SourceArg::Package, _) => {}
                (SourceArg::Invalid(message), _) => bail!(message.clone()),
                (_, Some((first, _))) => {
                    let first = &self.packages[*first];
                    return Err(misuse(
                        format!("'{first}' and '{text}' name two repositories; add one at a time"),
                        format!(
                            "`skillpkg add {first} [--skill <NAME>]...`, then `skillpkg add {text} [--skill <NAME>]...`"
                        ),
                    ));
                }
                (_, None) => found = Some((index, source)),
            }
        }
        let Some((index, source)) = found else {
            let picks =
                !self.skills.is_empty() || self.list || self.rev.is_some() || self.subdir.is_some();
            if picks && self.git.is_none() && self.well_known.is_none() {
                return Err(misuse(
                    "--skill, --list, --rev and --subdir pick from a repository, and none is named",
                    "name one: `skillpkg add github:owner/repo --skill <NAME>`, a git URL in its place, or --git <URL>",
                ));
            }
            return Ok(Taken::default());
        };
        let text = self.packages.remove(index);
        self.named_alone(&text)?;
        let source = match source {
            SourceArg::Oci(reference) => {
                if self.rev.is_some() || self.subdir.is_some() {
                    return Err(misuse(
                        format!(
                            "'{text}' names an OCI artifact, and --rev and --subdir pick from a git repository"
                        ),
                        format!(
                            "`skillpkg add {text}` adds the artifact's skill (or a collection's skills; --skill picks some)"
                        ),
                    ));
                }
                return Ok(Taken {
                    found: None,
                    oci: Some(reference),
                });
            }
            SourceArg::Git(source) => source,
            SourceArg::Probe(url) => {
                return Ok(Taken {
                    found: self.probe(&url)?,
                    oci: None,
                });
            }
            SourceArg::Package | SourceArg::Invalid(_) => unreachable!("handled above"),
        };
        let source = source
            .with_flags(&text, self.rev.as_deref(), self.subdir.as_deref())
            .map_err(|message| {
                misuse(
                    message,
                    format!(
                        "`skillpkg add {text}` alone, or the repository's URL with --rev and --subdir"
                    ),
                )
            })?;
        self.git = Some(source.url);
        self.rev = source.rev;
        self.subdir = source.subdir;
        Ok(Taken::default())
    }

    /// Refuses a positional source `text` given with another source.
    fn named_alone(&self, text: &str) -> anyhow::Result<()> {
        if let Some(site) = &self.well_known {
            return Err(misuse(
                format!("--well-known '{site}' names the site, and '{text}' names a source too"),
                format!(
                    "give one: `skillpkg add --well-known {site} [--skill <NAME>]...`, or `skillpkg add {text}`"
                ),
            ));
        }
        if let Some(url) = &self.git {
            return Err(misuse(
                format!("--git '{url}' names the repository, and '{text}' names one too"),
                format!(
                    "give it once: `skillpkg add {text} [--skill <NAME>]...`, or `skillpkg add --git <URL> [NAME]` (the name to record one skill under)"
                ),
            ));
        }
        if self.path.is_some() {
            return Err(misuse(
                format!("--path names a folder, and '{text}' names a repository"),
                format!(
                    "add them one at a time: `skillpkg add {text}`, `skillpkg add --path <DIR>`"
                ),
            ));
        }
        if !self.packages.is_empty() {
            return Err(misuse(
                format!("'{text}' names a repository; add it on its own"),
                format!(
                    "`skillpkg add {text} [--skill <NAME>]...` picks its skills; packages of an index go in another `skillpkg add`"
                ),
            ));
        }
        Ok(())
    }

    /// Asks what the bare URL `url` is, and takes it as that.
    fn probe(&mut self, url: &str) -> anyhow::Result<Option<Found>> {
        // --rev and --subdir stay as given: the URL names neither.
        let asks_git = self.rev.is_some() || self.subdir.is_some();
        match crate::ops::bare_url::resolve(url, asks_git, self.offline)? {
            BareUrl::Site { site, index } => {
                self.well_known = Some(site);
                Ok(Some(Found::SiteIndex(index)))
            }
            BareUrl::Git {
                url: repository,
                answered,
            } => {
                self.git = Some(repository);
                match answered {
                    Some(at) => Ok(Some(Found::Repository {
                        shown: crate::net::split_credentials(url)?.0,
                        at,
                    })),
                    None => Ok(None),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
