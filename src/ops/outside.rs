//! Sources on this machine outside the project: path dependencies and git
//! repositories given as a path or `file://` URL that lead outside the
//! project directory (through `..`, an absolute path or a symlink).
//!
//! A cloned repository's `skills.toml` must not make skillpkg read the
//! user's other folders (DESIGN §11): such sources are part of what project
//! trust covers ([`super::project_trust`]), so an install reads them only
//! in a project the user trusts, or when the user names them on the
//! command line that adds them.

use std::path::{Path, PathBuf};

use crate::hint::Hinted;
use crate::manifest::{DependencySpec, Manifest};

/// A source of `skills.toml` that leads outside the project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutsideSource {
    /// The dependency's key in `[skills]`.
    pub key: String,
    /// The field and its value as written: `path = "../shared/helper"`.
    pub given: String,
    /// Where it leads.
    pub resolved: PathBuf,
}

impl OutsideSource {
    /// `helper: path = "../shared/helper" (/home/me/shared/helper)`.
    pub fn describe(&self) -> String {
        format!("{}: {} ({})", self.key, self.given, self.resolved.display())
    }
}

/// The local folder a git or index URL names, when it names one: a
/// `file://` URL (with or without `git+`) or a plain path; `None` for a
/// network URL or scp-like `user@host:path`.
fn local_path(url: &str) -> Option<&str> {
    let url = url.strip_prefix("git+").unwrap_or(url);
    if let Some(path) = url.strip_prefix("file://") {
        return Some(path);
    }
    if url.contains("://") {
        return None;
    }
    match url.find(':') {
        Some(colon) if !url[..colon].contains('/') => None,
        _ => Some(url),
    }
}

/// Where `path` leads: its nearest part that exists, with links resolved,
/// and the rest as written.
fn resolve(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(resolved) = std::fs::canonicalize(existing) {
            return rest.iter().rev().fold(resolved, |p, part| p.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// Where `path` leads when that is outside `project` (canonical).
fn leads_outside(project: &Path, path: &Path) -> Option<PathBuf> {
    let resolved = resolve(path);
    (!resolved.starts_with(project)).then_some(resolved)
}

/// The dependency `key` = `spec` of the project in `project_dir`, when
/// its source leads outside the project. Relative paths are the
/// project's, as installs read them; a relative git path also counts from
/// the working directory, where git opens it.
pub fn outside_dependency(
    project_dir: &Path,
    key: &str,
    spec: &DependencySpec,
) -> Option<OutsideSource> {
    let DependencySpec::Detailed(spec) = spec else {
        return None;
    };
    let (given, candidates) = match (&spec.path, &spec.git) {
        (Some(path), _) => (format!("path = {path:?}"), vec![project_dir.join(path)]),
        (None, Some(url)) => {
            let path = local_path(url)?;
            let mut candidates = vec![project_dir.join(path)];
            candidates.extend(std::path::absolute(path).ok());
            (format!("git = {url:?}"), candidates)
        }
        (None, None) => return None,
    };
    let project = std::fs::canonicalize(project_dir).ok()?;
    let resolved = candidates
        .iter()
        .find_map(|candidate| leads_outside(&project, candidate))?;
    Some(OutsideSource {
        key: key.to_string(),
        given,
        resolved,
    })
}

/// The dependencies of `manifest` that lead outside `project_dir`, by
/// key. Registries are not among them: what an index serves is signed by
/// its publishers' keys, pinned in the lock, wherever the index lies.
pub fn outside_sources(project_dir: &Path, manifest: &Manifest) -> Vec<OutsideSource> {
    manifest
        .skills
        .iter()
        .filter_map(|(key, spec)| outside_dependency(project_dir, key, spec))
        .collect()
}

/// Refuses an install that would read `sources` in a project the user has
/// not trusted (`trusted`), except those whose keys are in `named`: the
/// user gave them on this command line.
pub fn check_consented(
    manifest_path: &Path,
    sources: &[OutsideSource],
    trusted: bool,
    named: &[String],
) -> anyhow::Result<()> {
    if trusted {
        return Ok(());
    }
    let unconsented: Vec<&OutsideSource> =
        sources.iter().filter(|s| !named.contains(&s.key)).collect();
    if unconsented.is_empty() {
        return Ok(());
    }
    let list: String = unconsented
        .iter()
        .map(|s| format!("\n  {}", s.describe()))
        .collect();
    anyhow::bail!(
        Hinted::new(format!(
            "{} names sources outside the project, and this project is not trusted on this machine:{list}",
            manifest_path.display()
        ))
        .hint("a cloned repository's skills.toml may not make skillpkg read your other folders: if you mean to use them, review them and run `skillpkg trust --project`")
        .hint("or move those skills into the project")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_urls_name_folders() {
        assert_eq!(local_path("file:///srv/repo"), Some("/srv/repo"));
        assert_eq!(local_path("git+file:///srv/index"), Some("/srv/index"));
        assert_eq!(local_path("../repo"), Some("../repo"));
        assert_eq!(local_path("/srv/repo.git"), Some("/srv/repo.git"));
        assert_eq!(local_path("./a:b"), Some("./a:b"));
        assert_eq!(local_path("https://example.com/r.git"), None);
        assert_eq!(local_path("git+ssh://git@example.com/r"), None);
        assert_eq!(local_path("git@example.com:team/r.git"), None);
    }

    #[test]
    fn paths_that_lead_outside_are_found_through_dots_absolutes_and_links() {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("app");
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir_all(project.join("tools/inside")).unwrap();
        std::fs::create_dir_all(elsewhere.join("secret")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&elsewhere, project.join("tools/link")).unwrap();
        let manifest = Manifest::parse(
            &format!(
                r#"
[skills]
inside = {{ path = "tools/inside" }}
missing-inside = {{ path = "tools/not-yet" }}
dots = {{ path = "../elsewhere/secret" }}
absolute = {{ path = "{abs}" }}
linked = {{ path = "tools/link/secret" }}
repo = {{ git = "file://{abs}" }}
remote = {{ git = "https://example.com/r.git" }}
"acme/x" = "^1"

[registries]
mine = {{ index = "../elsewhere" }}
web = {{ index = "https://example.com/index/" }}
"#,
                abs = elsewhere.join("secret").display()
            ),
            &project.join("skills.toml"),
        )
        .unwrap();
        let found = outside_sources(&project, &manifest);
        let keys: Vec<&str> = found.iter().map(|s| s.key.as_str()).collect();
        let mut expected = vec!["absolute", "dots", "repo"];
        #[cfg(unix)]
        expected.insert(2, "linked");
        assert_eq!(keys, expected);
        let secret = std::fs::canonicalize(elsewhere.join("secret")).unwrap();
        assert!(found.iter().all(|s| s.resolved == secret));
        assert_eq!(
            found[1].describe(),
            format!(
                "dots: path = \"../elsewhere/secret\" ({})",
                secret.display()
            )
        );
    }

    #[test]
    fn only_unconsented_sources_in_an_untrusted_project_are_refused() {
        let source = OutsideSource {
            key: "helper".into(),
            given: "path = \"../helper\"".into(),
            resolved: PathBuf::from("/home/me/helper"),
        };
        let sources = [source];
        let manifest = Path::new("/app/skills.toml");
        assert!(check_consented(manifest, &sources, true, &[]).is_ok());
        assert!(check_consented(manifest, &sources, false, &["helper".into()]).is_ok());
        let error = check_consented(manifest, &sources, false, &[]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "/app/skills.toml names sources outside the project, and this project is not trusted on this machine:\n  helper: path = \"../helper\" (/home/me/helper)"
        );
    }
}
