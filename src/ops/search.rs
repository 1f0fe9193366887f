//! `skillpkg search`: find packages by name and description.

use std::path::Path;

use serde::Serialize;

use crate::dirs::Dirs;
use crate::index::source::open_registry;
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
    let mut hits = Vec::new();
    for package in registry.packages()? {
        let newest = registry
            .entries(&package)?
            .into_iter()
            .filter(|e| !e.yanked)
            .filter_map(|e| Some((semver::Version::parse(&e.vers).ok()?, e)))
            .max_by(|a, b| a.0.cmp(&b.0));
        let Some((version, entry)) = newest else {
            continue;
        };
        let haystack = format!("{} {}", entry.name, entry.desc).to_lowercase();
        if words.iter().all(|w| haystack.contains(w)) {
            hits.push(Hit {
                name: entry.name,
                version: version.to_string(),
                description: entry.desc,
            });
        }
    }
    Ok(hits)
}
