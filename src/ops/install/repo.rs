//! Whole repositories: the skills a git repository holds, found where
//! agents look (see [`crate::git::discover`]), listed, and added
//! in one command, each under its own `name`, all at one commit.

use std::path::Path;

use anyhow::{Context as _, bail};
use serde::Serialize;

use crate::git::discover::{read_skill_md, skill_folders};
use crate::git::paths::CommitPaths;
use crate::hint::Hinted;
use crate::ops::plugin::tree::GitTree;

/// One skill of a repository.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RepoSkill {
    /// Its `name`: the folder it installs into.
    pub name: String,
    /// Its folder in the repository (`None`: the top).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subdir: Option<String>,
    /// Its description.
    pub description: String,
}

/// What a repository holds at one commit.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RepoListing {
    /// The repository, as shown (no credentials).
    pub url: String,
    /// The commit read.
    pub commit: String,
    /// Its skills, by folder.
    pub skills: Vec<RepoSkill>,
    /// Folders holding a SKILL.md that agents cannot load, with why.
    pub skipped: Vec<String>,
    /// The plugin the repository (or the folder `subdir` names) is, whose
    /// skills these are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin: Option<crate::ops::plugin::Plugin>,
}

/// Where to look.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RepoRequest<'a> {
    /// The repository URL (or local path).
    pub url: &'a str,
    /// A branch, tag or commit (default: the remote's HEAD).
    pub rev: Option<&'a str>,
    /// One folder to take, instead of searching.
    pub subdir: Option<&'a str>,
    /// Who must have signed the commit (`signed-by`).
    pub signed_by: &'a [String],
    /// What gitsign signers' certificates chain to (`trusted-root`, relative
    /// to the project).
    pub trusted_root: Option<&'a str>,
}

/// Fetches the repository (once per run, into the cache) and reads the
/// name and description of each skill it holds, without writing any of
/// its files but the `SKILL.md`s, into `scratch`.
pub(crate) fn list_repo(
    git: &crate::git::Resolver,
    request: RepoRequest,
    cache: &Path,
    offline: bool,
    scratch: &Path,
) -> anyhow::Result<RepoListing> {
    let (shown, _) = crate::net::split_credentials(request.url)?;
    let (repo, commit) =
        crate::git::fetch_commit(git, request.url, request.rev, None, cache, offline)
            .with_context(|| format!("could not get {shown}"))?;
    // A folder holding a SKILL.md is a skill; one holding a plugin
    // manifest, a plugin, whose skills are where it says.
    let top = request.subdir.map_or("", |s| s.trim_matches('/'));
    let origin = match top {
        "" => shown.clone(),
        top => format!("folder '{top}' of {shown}"),
    };
    let unreadable = || format!("could not read commit {commit} of {shown}");
    let plugin = match read_skill_md(&repo, commit, top).with_context(unreadable)? {
        Some(_) => None,
        None => {
            let tree = GitTree {
                paths: CommitPaths::new(&repo, commit).with_context(unreadable)?,
                top: top.to_string(),
            };
            crate::ops::plugin::find(&tree, &origin)?
        }
    };
    let folders = match (&plugin, request.subdir) {
        (Some(plugin), _) => plugin
            .skills
            .iter()
            .map(|folder| match (top, folder.as_str()) {
                ("", folder) | (folder, "") => folder.to_string(),
                (top, folder) => format!("{top}/{folder}"),
            })
            .collect(),
        (None, Some(_)) => vec![top.to_string()],
        (None, None) => skill_folders(&repo, commit, &shown)?,
    };
    let mut listing = RepoListing {
        url: shown.clone(),
        commit: commit.to_string(),
        skills: Vec::new(),
        skipped: Vec::new(),
        plugin,
    };
    for (i, folder) in folders.iter().enumerate() {
        let place = match folder.as_str() {
            "" => format!("the top folder of {shown}"),
            folder => format!("folder '{folder}' of {shown}"),
        };
        let Some((file, text)) = read_skill_md(&repo, commit, folder)? else {
            let error = Hinted::new(format!("{place} holds no SKILL.md"));
            let folders = skill_folders(&repo, commit, &shown).unwrap_or_default();
            bail!(
                match crate::hint::did_you_mean(folder, folders.iter().map(String::as_str)) {
                    Some(meant) => error.hint(format!("did you mean --subdir {meant}?")),
                    None =>
                        error.hint("leave out --subdir to list the skills the repository holds"),
                }
            );
        };
        // Read by the lenient loader, as agents read it.
        let dir = scratch.join(i.to_string()).join("skill");
        fs_err::create_dir_all(&dir)?;
        fs_err::write(dir.join(file), text)?;
        match crate::skill::load_skill(&dir) {
            Ok(skill) if crate::skill::name::is_safe_folder_name(&skill.meta.name) => {
                listing.skills.push(RepoSkill {
                    name: skill.meta.name,
                    subdir: (!folder.is_empty()).then(|| folder.clone()),
                    description: skill.meta.description,
                })
            }
            Ok(skill) => listing.skipped.push(format!(
                "{place}: the name {:?} cannot name a folder",
                skill.meta.name
            )),
            // Named by its place in the repository, not the scratch copy.
            Err(e) => listing.skipped.push(format!(
                "{place}: {}",
                e.to_string().replace(
                    &dir.display().to_string(),
                    if folder.is_empty() { "." } else { folder }
                )
            )),
        }
    }
    if listing.skills.is_empty()
        && let Some(plugin) = &listing.plugin
    {
        bail!(plugin.holds_no_skill(&origin, &listing.skipped));
    }
    if listing.skills.is_empty() {
        let mut error = Hinted::new(format!("{shown} holds no skill agents can load"));
        for skipped in &listing.skipped {
            error = error.hint(skipped.clone());
        }
        bail!(error.hint(
            "skills are folders with a SKILL.md, at the top of the repository or below it (skills/<name>, .claude/skills/<name>, …)"
        ));
    }
    Ok(listing)
}

/// The positions in `names` (the skills of `origin`) that `patterns`
/// pick, in the order they are picked (globs such as `pdf*`; all of them
/// when there are none). A pattern that picks nothing is an error naming
/// the skills there are.
pub(crate) fn pick_indices(
    names: &[&str],
    patterns: &[String],
    origin: &str,
) -> anyhow::Result<Vec<usize>> {
    if patterns.is_empty() {
        return Ok((0..names.len()).collect());
    }
    let mut picked: Vec<usize> = Vec::new();
    for pattern in patterns {
        let glob = globset::Glob::new(pattern)
            .with_context(|| format!("--skill {pattern:?} is not a valid pattern"))?
            .compile_matcher();
        let matching: Vec<usize> = (0..names.len())
            .filter(|&i| glob.is_match(names[i]))
            .collect();
        if matching.is_empty() {
            let error = Hinted::new(format!("no skill of {origin} matches {pattern:?}"));
            bail!(
                match crate::hint::did_you_mean(pattern, names.iter().copied()) {
                    Some(meant) => error.hint(format!("did you mean --skill {meant}?")),
                    None => error.hint(format!("its skills: {}", names.join(", "))),
                }
            );
        }
        for i in matching {
            if !picked.contains(&i) {
                picked.push(i);
            }
        }
    }
    Ok(picked)
}

/// The skills of `listing` that `patterns` pick (globs such as `pdf*`;
/// all of them when there are none). A pattern that picks nothing is an
/// error naming the skills there are.
pub(crate) fn pick<'l>(
    listing: &'l RepoListing,
    patterns: &[String],
) -> anyhow::Result<Vec<&'l RepoSkill>> {
    let names: Vec<&str> = listing.skills.iter().map(|s| s.name.as_str()).collect();
    let picked: Vec<&RepoSkill> = pick_indices(&names, patterns, &listing.url)?
        .into_iter()
        .map(|i| &listing.skills[i])
        .collect();
    let mut seen = std::collections::BTreeMap::new();
    for skill in &picked {
        if let Some(other) = seen.insert(skill.name.as_str(), skill.subdir.as_deref()) {
            bail!(
                Hinted::new(format!(
                    "{} holds two skills named '{}', in {} and {}",
                    listing.url,
                    skill.name,
                    other.unwrap_or("the top folder"),
                    skill.subdir.as_deref().unwrap_or("the top folder")
                ))
                .hint("pick one with --subdir")
            );
        }
    }
    Ok(picked)
}
