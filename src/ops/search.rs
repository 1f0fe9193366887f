//! `skillpkg search`: find packages by name and description.

use std::path::Path;

use serde::Serialize;

use crate::dirs::Dirs;
use anyhow::bail;

use crate::hint::Hinted;
use crate::index::PackageName;
use crate::index::listing::{LISTING_FILE, listing_entry};
use crate::index::source::{Registry, open_registry};
use crate::manifest::Manifest;
use crate::project::Project;

/// One package that matched.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    /// `org/name`.
    pub name: String,
    /// Its newest version that is not yanked.
    pub version: String,
    /// Its description.
    pub description: String,
}

/// Searches the registry `registry` (a name under `[registries]`; the
/// project's default, else the built-in index, when `None`). Every word of
/// `query` must appear in the package's name or description.
pub fn search(
    cwd: &Path,
    dirs: &Dirs,
    query: &str,
    registry: Option<&str>,
) -> anyhow::Result<Vec<Hit>> {
    let manifest = match Project::find(cwd) {
        Ok(project) => Manifest::load(&project.manifest_path)?,
        Err(_) => Manifest::default(),
    };
    let spec = match registry {
        Some(name) => Some(
            manifest
                .registries
                .get(name)
                .map(|r| r.index.clone())
                .ok_or_else(|| anyhow::anyhow!("no registry named '{name}' in skills.toml"))?,
        ),
        None => manifest.registries.get("default").map(|r| r.index.clone()),
    };
    let registry = open_registry(spec.as_deref(), cwd, dirs, false)?;
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    let Some(listing) = registry.listing()? else {
        return look_up(&registry, query);
    };
    Ok(listing
        .entries()
        .filter(|entry| {
            let haystack = format!("{} {}", entry.name, entry.desc).to_lowercase();
            words.iter().all(|w| haystack.contains(w))
        })
        .map(|entry| Hit {
            name: entry.name.clone(),
            version: entry.vers.clone(),
            description: entry.desc.clone(),
        })
        .collect())
}

/// Search on an index that cannot be listed: a query that is one
/// `org/name` is looked up; anything else cannot be answered.
fn look_up(registry: &Registry, query: &str) -> anyhow::Result<Vec<Hit>> {
    let Ok(package) = query.trim().parse::<PackageName>() else {
        bail!(
            Hinted::new(format!(
                "{} has no search listing ({LISTING_FILE}), so it cannot be searched by words",
                registry.label
            ))
            .hint("search for one package by its full name (`skillpkg search org/name`); the index gains a listing with its next `skillpkg publish` or `yank`, or `skillpkg index init` on the folder or repository the server serves")
        );
    };
    Ok(listing_entry(&registry.entries(&package)?)
        .map(|entry| Hit {
            name: entry.name,
            version: entry.vers,
            description: entry.desc,
        })
        .into_iter()
        .collect())
}
