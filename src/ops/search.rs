//! `skillpkg search`: find packages by name and description.

use std::path::{Path, PathBuf};

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
pub(crate) struct Hit {
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
pub(crate) fn search(
    cwd: &Path,
    dirs: &Dirs,
    query: &str,
    registry: Option<&str>,
) -> anyhow::Result<Vec<Hit>> {
    let (manifest_path, manifest) = project_manifest(cwd)?;
    let spec = match registry {
        // `default` unset is the built-in index, as with no --registry.
        Some("default") if !manifest.registries.contains_key("default") => None,
        Some(name) => Some(
            manifest
                .registries
                .get(name)
                .map(|r| r.index.clone())
                .ok_or_else(|| no_such_registry(name, manifest_path.as_deref(), &manifest))?,
        ),
        None => manifest.registries.get("default").map(|r| r.index.clone()),
    };
    let registry = open_registry(spec.as_deref(), cwd, dirs, false, &[])?;
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

/// The project's `skills.toml` around `cwd` (its path and contents), or
/// an empty manifest outside a project.
fn project_manifest(cwd: &Path) -> anyhow::Result<(Option<PathBuf>, Manifest)> {
    match Project::find(cwd) {
        Ok(project) => {
            let manifest = Manifest::load(&project.manifest_path)?;
            Ok((Some(project.manifest_path), manifest))
        }
        Err(_) => Ok((None, Manifest::default())),
    }
}

/// The registries of the project around `cwd` that a search of
/// `searched` (`None`: the default) did not cover, by name: what
/// `search --registry NAME` could try next.
pub(crate) fn other_registries(cwd: &Path, searched: Option<&str>) -> Vec<String> {
    let Ok((_, manifest)) = project_manifest(cwd) else {
        return Vec::new();
    };
    let searched = searched.unwrap_or("default");
    manifest
        .registries
        .keys()
        .filter(|name| *name != searched)
        .cloned()
        .collect()
}

/// `--registry name` names no registry: say which ones there are.
fn no_such_registry(name: &str, manifest_path: Option<&Path>, manifest: &Manifest) -> Hinted {
    let Some(path) = manifest_path else {
        return Hinted::new(format!(
            "no registry named '{name}': there is no skills.toml here or above"
        ))
        .hint("registries are named under [registries] in a project's skills.toml; without --registry, search reads the built-in index");
    };
    let error = Hinted::new(format!("no registry named '{name}' in {}", path.display()));
    let names: Vec<&str> = manifest.registries.keys().map(String::as_str).collect();
    match crate::hint::did_you_mean(name, names.iter().copied()) {
        Some(meant) => error.hint(format!("did you mean `--registry {meant}`?")),
        None if names.is_empty() => error.hint(
            "it names no registry: add one under [registries] (`internal = { index = \"https://…\" }`), or leave --registry out to search the default",
        ),
        None => error.hint(format!(
            "it names these registries: {}",
            names.join(", ")
        )),
    }
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
