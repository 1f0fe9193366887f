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

/// The folder a git URL may name on this machine: a `file://` URL (with
/// or without `git+`) or anything without a scheme. That takes in
/// scp-like `host:path` too: git reads it as a path wherever a folder of
/// that name exists, and a cloned repository can plant one.
fn local_path(url: &str) -> Option<&str> {
    let url = url.strip_prefix("git+").unwrap_or(url);
    match url.strip_prefix("file://") {
        Some(path) => Some(path),
        None if url.contains("://") => None,
        None => Some(url),
    }
}

/// Where `path` leads, links resolved, when it exists outside `project`
/// (canonical). A path that does not exist is read by no install.
fn leads_outside(project: &Path, path: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(path)
        .ok()
        .filter(|resolved| !resolved.starts_with(project))
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
        // A path where such a folder exists, or git goes over ssh.
        assert_eq!(
            local_path("git@example.com:team/r.git"),
            Some("git@example.com:team/r.git")
        );
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
scp = {{ git = "git@example.com:team/r.git" }}
planted = {{ git = "a:b/../../elsewhere/secret" }}
missing-outside = {{ path = "../elsewhere/none" }}
"acme/x" = "^1"

# Not a dependency: indexes serve signed packages wherever they lie.
[registries]
mine = {{ index = "../elsewhere" }}
web = {{ index = "https://example.com/index/" }}
"#,
                abs = elsewhere.join("secret").display()
            ),
            &project.join("skills.toml"),
        )
        .unwrap();
        // `a:b` is a folder the repository planted, so git reads
        // `a:b/../..` as a path.
        std::fs::create_dir_all(project.join("a:b")).unwrap();
        let found = outside_sources(&project, &manifest);
        let keys: Vec<&str> = found.iter().map(|s| s.key.as_str()).collect();
        let mut expected = vec!["absolute", "dots", "planted", "repo"];
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
