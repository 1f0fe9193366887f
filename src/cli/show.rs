//! `skillpkg show <name>`

use std::path::{Path, PathBuf};

use anyhow::bail;
use serde::Serialize;

use crate::manifest::lock::LockedSkill;
use crate::roots::{Entry, RootKind};

use super::{Context, ExitStatus};
use crate::hint::Hinted;

/// Show one skill.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The skill's name.
    name: String,
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Shown<'a> {
    #[serde(flatten)]
    entry: &'a Entry,
    files: Vec<String>,
    shadows: Vec<ShadowedCopy<'a>>,
    /// Its entry in the project's skills.lock, when the lock manages it.
    #[serde(skip_serializing_if = "Option::is_none")]
    locked: Option<LockedSkill>,
}

/// The project lock's entry for the skill installed in `dir`, when `dir`
/// is a folder of the project's install root that the lock manages.
fn locked_entry(context: &mut Context, dir: &Path) -> Option<LockedSkill> {
    let project = context.project(false).ok()?;
    let manifest = crate::manifest::Manifest::load(&project.manifest_path).ok()?;
    let root = project.skill_root(manifest.install_root()).ok()?;
    let parent = fs_err::canonicalize(dir.parent()?).ok()?;
    if parent != fs_err::canonicalize(&root).ok()? {
        return None;
    }
    let folder = dir.file_name()?.to_str()?;
    crate::manifest::lock::Lockfile::load(&project.lock_path)
        .ok()?
        .by_folder(folder)
        .cloned()
}

#[derive(Serialize)]
struct ShadowedCopy<'a> {
    root: RootKind,
    dir: &'a Path,
}

/// The files of a skill, relative to its directory, sorted.
fn files_of(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with(".git"))
        .filter_map(Result::ok)
        .filter(|e| !e.file_type().is_dir())
        .filter_map(|e| e.path().strip_prefix(dir).ok().map(PathBuf::from))
        .map(|p| {
            p.components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect();
    files.sort();
    files
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    // A folder of that name that could not be loaded is reported below,
    // once, as the answer.
    let loaded = super::load_skills_but_for(context, Some(&args.name))?;
    let named = loaded.set.named(&args.name);
    let skipped = loaded
        .set
        .skipped
        .iter()
        .filter(|s| s.dir.file_name() == Some(std::ffi::OsStr::new(&args.name)));
    let mut skipped: Vec<_> = skipped.collect();
    if !named.is_empty() {
        // Shown, but a folder of the name was skipped: say so.
        for skipped in &skipped {
            context
                .printer
                .warn(format_args!("skipped {}", skipped.describe()));
        }
        skipped.clear();
    }
    if let Some(first) = skipped.first() {
        let mut error = Hinted::new(format!(
            "the skill '{}' was skipped: {}",
            args.name,
            first.describe()
        ))
        .hint(format!(
            "fix it, then `skillpkg validate {}` checks it",
            first.dir.display()
        ));
        for other in &skipped[1..] {
            error = error.hint(format!("also skipped: {}", other.describe()));
        }
        bail!(error);
    }
    let Some((winner, shadowed)) = named.split_first() else {
        let names = loaded.set.resolved().map(|e| e.skill.meta.name.as_str());
        let hint = match crate::hint::did_you_mean(&args.name, names) {
            Some(meant) => format!(
                "did you mean `skillpkg show {}`?",
                crate::hint::shell_quote(meant)
            ),
            None => "run `skillpkg list` to see the skills every root provides".to_string(),
        };
        bail!(Hinted::new(format!("no skill named '{}' in any root", args.name)).hint(hint));
    };
    let shown = Shown {
        entry: winner,
        files: files_of(&winner.skill.dir),
        shadows: shadowed
            .iter()
            .map(|e| ShadowedCopy {
                root: e.root,
                dir: &e.skill.dir,
            })
            .collect(),
        locked: match winner.root {
            RootKind::Project => locked_entry(context, &winner.skill.dir),
            _ => None,
        },
    };
    if args.json {
        context.printer.json(&shown)?;
        return Ok(ExitStatus::Success);
    }
    let meta = &winner.skill.meta;
    let p = &context.printer;
    p.data(format_args!("name:          {}", meta.name));
    p.data(format_args!("description:   {}", meta.description.trim()));
    p.data(format_args!(
        "root:          {}",
        super::list::root_label(winner)
    ));
    p.data(format_args!(
        "location:      {}",
        winner.skill.skill_md.display()
    ));
    if let Some(license) = &meta.license {
        p.data(format_args!("license:       {license}"));
    }
    if let Some(compatibility) = &meta.compatibility {
        p.data(format_args!("compatibility: {compatibility}"));
    }
    if !meta.allowed_tools.is_empty() {
        p.data(format_args!(
            "allowed-tools: {}",
            meta.allowed_tools.join(" ")
        ));
    }
    for (key, value) in &meta.metadata {
        p.data(format_args!("metadata:      {key} = {value}"));
    }
    for (key, value) in &meta.extra {
        p.data(format_args!("{:15}{value}", format!("{key}:")));
    }
    if let Some(locked) = &shown.locked {
        p.data(format_args!(
            "locked:        {} from {}",
            locked.shown_version(),
            locked.source
        ));
        if let Some(signer) = &locked.signer {
            p.data(format_args!("signed by:     {signer}"));
        }
    }
    for copy in &shown.shadows {
        p.data(format_args!(
            "shadows:       {} ({})",
            copy.dir.display(),
            copy.root
        ));
    }
    p.data("files:");
    for file in &shown.files {
        p.data(format_args!("  {file}"));
    }
    Ok(ExitStatus::Success)
}
