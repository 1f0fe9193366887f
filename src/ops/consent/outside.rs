//! Sources on this machine outside the project: path dependencies and git
//! repositories given as a path or `file://` URL that lead outside the
//! project directory (through `..`, an absolute path or a symlink).
//!
//! A cloned repository's `skills.toml` must not make skillpkg read the
//! user's other folders (DESIGN §11): such sources are part of what project
//! trust covers ([`super::project`]), so an install reads them only
//! in a project the user trusts, or when the user names them on the
//! command line that adds them.

use std::path::{Path, PathBuf};

use crate::hint::Hinted;
use crate::manifest::{DependencySpec, Manifest};

/// A source of `skills.toml` that leads outside the project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OutsideSource {
    /// The dependency's key in `[skills]`.
    pub key: String,
    /// The field and its value as written: `path = "../shared/helper"`.
    pub given: String,
    /// Where it leads; `None` when that cannot be told (a `file:` URL of
    /// another host, a folder that cannot be read), which counts as
    /// outside.
    pub resolved: Option<PathBuf>,
}

impl OutsideSource {
    /// `helper: path = "../shared/helper" (/home/me/shared/helper)`.
    pub(crate) fn describe(&self) -> String {
        format!("{}: {} ({})", self.key, self.given, self.leads_to())
    }

    /// Where the source leads, as messages say it.
    pub(crate) fn leads_to(&self) -> String {
        match &self.resolved {
            Some(path) => path.display().to_string(),
            None => "a place on this machine that cannot be resolved".to_string(),
        }
    }
}

/// What a git URL names on this machine.
#[derive(Debug, PartialEq, Eq)]
enum LocalTarget {
    /// No folder here: a URL of a remote host.
    Remote,
    /// This path, as git would open it.
    Path(String),
    /// A `file:` URL that names no path skillpkg can tell (another host,
    /// an escape that is not UTF-8): counted as outside.
    Unresolvable,
}

/// The folder a git URL may name on this machine: a `file:` URL (with or
/// without `git+`), read as libgit2 reads it (see [`file_url_path`]), or
/// anything without a scheme. That takes in scp-like `host:path` too: git
/// reads it as a path wherever a folder of that name exists, and a cloned
/// repository can plant one.
fn local_target(url: &str) -> LocalTarget {
    let url = url.strip_prefix("git+").unwrap_or(url);
    if is_file_url(url) {
        return file_url_path(url).map_or(LocalTarget::Unresolvable, LocalTarget::Path);
    }
    match url.contains("://") {
        true => LocalTarget::Remote,
        false => LocalTarget::Path(url.to_string()),
    }
}

/// Whether `url` has the `file:` scheme, in any case.
fn is_file_url(url: &str) -> bool {
    url.get(..5)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("file:"))
}

/// The path libgit2 opens for a `file:` URL: `file:///PATH` or
/// `file://localhost/PATH`, percent-decoded (`file:///srv/%72epo` is
/// `/srv/repo`). `None` for any other form (another host, no `//`) or a
/// decoded path that is not UTF-8: what such a URL reaches cannot be told.
fn file_url_path(url: &str) -> Option<String> {
    let rest = url.get(5..)?.strip_prefix("//")?;
    let path = match rest.get(..10) {
        Some(host) if host.eq_ignore_ascii_case("localhost/") => &rest[9..],
        _ if rest.starts_with('/') => rest,
        _ => return None,
    };
    percent_decoded(path)
}

/// `text` with `%XX` escapes decoded as libgit2 decodes them (an invalid
/// escape kept as written); `None` when the result is not UTF-8.
fn percent_decoded(text: &str) -> Option<String> {
    String::from_utf8(crate::net::percent_decode_bytes(text)).ok()
}

/// Where `path` leads, links resolved, when it leads outside `project`
/// (canonical): `Some(Some(place))`; `Some(None)` when that cannot be told
/// (a folder that cannot be read, a link loop), which counts as outside;
/// `None` when it stays inside. A path that does not exist yet is taken
/// from its nearest folder that does, so `../elsewhere/new` leads
/// outside and `tools/not-yet` stays inside; past a missing folder, `..`
/// cannot be told either.
fn leads_outside(project: &Path, path: &Path) -> Option<Option<PathBuf>> {
    match resolve_existing_part(path) {
        Some(resolved) if resolved.starts_with(project) => None,
        Some(resolved) => Some(Some(resolved)),
        None => Some(None),
    }
}

/// `path` canonical as far as it exists, with the missing rest appended;
/// `None` when that cannot be told: an error other than "not found", or
/// `..` or `.` past a missing folder.
fn resolve_existing_part(path: &Path) -> Option<PathBuf> {
    let mut existing = path.to_path_buf();
    let mut missing = Vec::new();
    loop {
        match std::fs::canonicalize(&existing) {
            Ok(resolved) => {
                let plain = missing
                    .iter()
                    .all(|part: &std::ffi::OsString| part != ".." && part != ".");
                return plain.then(|| missing.iter().rev().fold(resolved, |p, part| p.join(part)));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                missing.push(existing.file_name()?.to_os_string());
                existing = existing.parent()?.to_path_buf();
            }
            Err(_) => return None,
        }
    }
}

/// The dependency `key` = `spec` of the project in `project_dir`, when
/// its source leads outside the project, or where it leads cannot be
/// told (fail closed). Relative paths are the project's, as installs read
/// them; a relative git path also counts from the working directory,
/// where git opens it, when it exists there.
pub(crate) fn outside_dependency(
    project_dir: &Path,
    key: &str,
    spec: &DependencySpec,
) -> Option<OutsideSource> {
    let DependencySpec::Detailed(spec) = spec else {
        return None;
    };
    let outside = |given: String, resolved: Option<PathBuf>| {
        Some(OutsideSource {
            key: key.to_string(),
            given,
            resolved,
        })
    };
    let (given, path, from_cwd) = match (&spec.path, &spec.git) {
        (Some(path), _) => (format!("path = {path:?}"), path.clone(), false),
        (None, Some(url)) => {
            let given = format!("git = {url:?}");
            match local_target(url) {
                LocalTarget::Remote => return None,
                LocalTarget::Unresolvable => return outside(given, None),
                LocalTarget::Path(path) => (given, path, true),
            }
        }
        (None, None) => return None,
    };
    let Ok(project) = std::fs::canonicalize(project_dir) else {
        return outside(given, None);
    };
    if let Some(resolved) = leads_outside(&project, &project_dir.join(&path)) {
        return outside(given, resolved);
    }
    let in_cwd = std::path::absolute(&path).ok().filter(|_| from_cwd);
    match in_cwd.and_then(|path| std::fs::canonicalize(path).ok()) {
        Some(resolved) if !resolved.starts_with(&project) => outside(given, Some(resolved)),
        _ => None,
    }
}

/// The dependencies of `manifest` that lead outside `project_dir`, by
/// key. Registries are not among them: what an index serves is signed by
/// its publishers' keys, pinned in the lock, wherever the index lies.
pub(crate) fn outside_sources(project_dir: &Path, manifest: &Manifest) -> Vec<OutsideSource> {
    manifest
        .skills
        .iter()
        .filter_map(|(key, spec)| outside_dependency(project_dir, key, spec))
        .collect()
}

/// Refuses an install that would read `sources` in a project the user has
/// not trusted (`trusted`), except those whose keys are in `named`: the
/// user gave them on this command line.
pub(crate) fn check_consented(
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
        let path = |p: &str| LocalTarget::Path(p.to_string());
        assert_eq!(local_target("file:///srv/repo"), path("/srv/repo"));
        assert_eq!(local_target("git+file:///srv/index"), path("/srv/index"));
        assert_eq!(local_target("../repo"), path("../repo"));
        assert_eq!(local_target("/srv/repo.git"), path("/srv/repo.git"));
        assert_eq!(local_target("./a:b"), path("./a:b"));
        assert_eq!(
            local_target("https://example.com/r.git"),
            LocalTarget::Remote
        );
        assert_eq!(
            local_target("git+ssh://git@example.com/r"),
            LocalTarget::Remote
        );
        // A path where such a folder exists, or git goes over ssh.
        assert_eq!(
            local_target("git@example.com:team/r.git"),
            path("git@example.com:team/r.git")
        );
        // `file:` URLs as libgit2 reads them.
        assert_eq!(local_target("file://localhost/srv/repo"), path("/srv/repo"));
        assert_eq!(local_target("FILE://LocalHost/srv/repo"), path("/srv/repo"));
        assert_eq!(local_target("file:///srv/%72e%70o"), path("/srv/repo"));
        assert_eq!(local_target("file:///srv/100%"), path("/srv/100%"));
        for unresolvable in ["file://elsewhere/srv/repo", "file:/srv/repo", "file:///%ff"] {
            assert_eq!(
                local_target(unresolvable),
                LocalTarget::Unresolvable,
                "{unresolvable}"
            );
        }
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
localhost = {{ git = "file://localhost{abs}" }}
escaped = {{ git = "file://{escaped}" }}
other-host = {{ git = "file://elsewhere{abs}" }}
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
                abs = elsewhere.join("secret").display(),
                escaped = elsewhere
                    .join("secret")
                    .display()
                    .to_string()
                    .replace("secret", "s%65cret"),
            ),
            &project.join("skills.toml"),
        )
        .unwrap();
        // `a:b` is a folder the repository planted, so git reads
        // `a:b/../..` as a path.
        std::fs::create_dir_all(project.join("a:b")).unwrap();
        let found = outside_sources(&project, &manifest);
        let keys: Vec<&str> = found.iter().map(|s| s.key.as_str()).collect();
        let mut expected = vec![
            "absolute",
            "dots",
            "escaped",
            "localhost",
            "missing-outside",
            "other-host",
            "planted",
            "repo",
        ];
        #[cfg(unix)]
        expected.insert(3, "linked");
        assert_eq!(keys, expected);
        let secret = std::fs::canonicalize(elsewhere.join("secret")).unwrap();
        let led_to = |key: &str| {
            found
                .iter()
                .find(|s| s.key == key)
                .unwrap()
                .resolved
                .clone()
        };
        for key in [
            "absolute",
            "dots",
            "escaped",
            "localhost",
            "planted",
            "repo",
        ] {
            assert_eq!(led_to(key).as_ref(), Some(&secret), "{key}");
        }
        assert_eq!(
            led_to("missing-outside"),
            Some(secret.parent().unwrap().join("none"))
        );
        assert_eq!(led_to("other-host"), None);
        assert!(
            found
                .iter()
                .find(|s| s.key == "other-host")
                .unwrap()
                .describe()
                .ends_with("(a place on this machine that cannot be resolved)")
        );
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
            resolved: Some(PathBuf::from("/home/me/helper")),
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
