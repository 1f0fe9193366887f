//! OCI dependencies: the artifact a reference names, pulled from its
//! registry ([`crate::oci`]) and its layer extracted
//! ([`crate::store::untar`]) into a checkout, which is then checked and
//! staged as every fetched tree is (`ops::install`).

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::hint::Hinted;
use crate::manifest::oci_ref::OciPin;
use crate::oci::{Rooted, Settings};

/// A skill pulled from a registry and extracted.
pub(crate) struct Exported {
    /// The skill's folder, in the checkout.
    pub dir: PathBuf,
    /// The manifest digest the lock pins.
    pub digest: String,
    /// The version the artifact's config gives, if any.
    pub version: Option<String>,
}

/// What an artifact's layer holds, once pulled and extracted.
pub(crate) enum Unpacked {
    /// One skill, in this folder.
    Skill(PathBuf),
    /// An Agent Plugin: the plugin, its folder, and the names of the
    /// skills agents can load from it (in the plugin's order), each with
    /// its folder.
    Plugin {
        /// The plugin.
        plugin: crate::ops::plugin::Plugin,
        /// Its skills: name and folder.
        skills: Vec<(String, PathBuf)>,
    },
}

/// Pulls the artifact `pin` names in `repository` (the one of `skill`,
/// in a collection) and extracts its layer into a new folder of
/// `checkout`: the skill it holds, or the plugin. A layer whose top folder
/// and `SKILL.md` name different skills is refused, as a `.skill` archive
/// would be. Returns the digest and version too.
pub(crate) fn unpack(
    repository: &str,
    pin: &OciPin,
    skill: Option<&str>,
    checkout: &Path,
    settings: &Settings,
) -> anyhow::Result<(Unpacked, String, Option<String>)> {
    let pulled = crate::oci::pull(repository, pin, skill, settings)?;
    let label = format!("{repository}@{}", pulled.digest);
    let layer = std::io::BufReader::new(fs_err::File::open(&pulled.layer)?);
    // The Agent Skills layout is one skill in one folder; other layouts
    // (plain images, ToolHive's) may hold a plugin, so their whole tree
    // is read.
    let rooted = match pulled.in_folder {
        true => pulled.rooted(),
        false => Rooted::Tree,
    };
    let dir = crate::store::untar::extract_layer(
        layer,
        pulled.layer_size,
        pulled.compression,
        rooted,
        &label,
        checkout,
        &settings.limits,
    )?;
    let unpacked = match pulled.in_folder {
        true => {
            check_folder_name(&dir, &label)?;
            Unpacked::Skill(dir)
        }
        false => in_tree(dir, &label)?,
    };
    Ok((unpacked, pulled.digest, pulled.version))
}

/// Pulls the artifact `pin` names in `repository` and extracts the skill
/// `skill` names: a collection's, a plugin's, or (`None`) the artifact's
/// one skill.
pub(crate) fn export(
    repository: &str,
    pin: &OciPin,
    skill: Option<&str>,
    checkout: &Path,
    settings: &Settings,
) -> anyhow::Result<Exported> {
    let (unpacked, digest, version) = unpack(repository, pin, skill, checkout, settings)?;
    let what = format!("oci://{repository}@{digest}");
    let dir = match (unpacked, skill) {
        (Unpacked::Skill(dir), _) => dir,
        (Unpacked::Plugin { skills, .. }, Some(skill)) => {
            match skills.into_iter().find(|(name, _)| name == skill) {
                Some((_, dir)) => dir,
                None => bail!("{what}: the plugin it holds has no skill '{skill}'"),
            }
        }
        (Unpacked::Plugin { plugin, skills }, None) => {
            let names: Vec<String> = skills.into_iter().map(|(name, _)| name).collect();
            bail!(
                Hinted::new(format!(
                    "{what} holds the Agent Plugin {}, of {} skills ({})",
                    plugin.title(),
                    names.len(),
                    names.join(", ")
                ))
                .hint("skills.toml names one of them with `skill = \"NAME\"`; `skillpkg add oci://…` adds them all")
            );
        }
    };
    Ok(Exported {
        dir,
        digest,
        version,
    })
}

/// Refuses a skill whose layer folder names another skill than its
/// `SKILL.md` does.
fn check_folder_name(dir: &Path, label: &str) -> anyhow::Result<()> {
    if let Ok(skill) = crate::skill::load_skill(dir)
        && dir
            .file_name()
            .is_some_and(|folder| *folder != *skill.meta.name)
    {
        bail!(
            Hinted::new(format!(
                "refusing {label}: its layer's folder '{}' holds a SKILL.md that names the skill '{}'",
                dir.file_name().unwrap_or_default().to_string_lossy(),
                skill.meta.name
            ))
            .hint("the artifact is broken or built to attack: do not install it, and tell its publisher")
        );
    }
    Ok(())
}

/// What the layer's tree `top` holds: a skill at its top or in its one
/// folder, or an Agent Plugin (`plugin.json`, `.claude-plugin/` or
/// `.codex-plugin/`) whose skills agents can load.
fn in_tree(top: PathBuf, label: &str) -> anyhow::Result<Unpacked> {
    if top.join("SKILL.md").is_file() {
        return Ok(Unpacked::Skill(top));
    }
    let tree = crate::ops::plugin::tree::FolderTree { top: top.clone() };
    if let Some(plugin) = crate::ops::plugin::find(&tree, label)? {
        let mut skills = Vec::new();
        for folder in &plugin.skills {
            let dir = top.join(folder);
            if let Ok(skill) = crate::skill::load_skill(&dir)
                && crate::skill::name::is_safe_folder_name(&skill.meta.name)
                && !skills.iter().any(|(name, _)| *name == skill.meta.name)
            {
                skills.push((skill.meta.name, dir));
            }
        }
        if skills.is_empty() {
            bail!(plugin.holds_no_skill(label, &[]));
        }
        return Ok(Unpacked::Plugin { plugin, skills });
    }
    let entries: Vec<PathBuf> = fs_err::read_dir(&top)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    match entries.as_slice() {
        [only] if only.join("SKILL.md").is_file() => Ok(Unpacked::Skill(only.clone())),
        _ => bail!(
            Hinted::new(format!(
                "{label}: its layer holds no SKILL.md at its top or in its one folder, and no Agent Plugin"
            ))
            .hint("publish the skill as an Agent Skills artifact (one tar+gzip layer rooted at <name>/)")
        ),
    }
}
