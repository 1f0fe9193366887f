//! Names asked for from one source that `skills.toml` already takes from
//! another. `add` refuses them all before it writes anything, naming both
//! sources, unless `--replace NAME` lets the new source take the name
//! over. Adding a name again from the source it comes from is an update,
//! not a collision.

use std::path::Path;

use anyhow::bail;
use serde::Serialize;

use crate::hint::Hinted;
use crate::manifest::{DependencySpec, Manifest, Source};

/// A name `add --replace` gave to another source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Replaced {
    /// Where the name came from before, as shown.
    pub from: String,
    /// Where it comes from now, as shown.
    pub with: String,
}

/// One name taken by another source.
#[derive(Debug, Clone)]
struct Collision {
    /// The key in `skills.toml`.
    name: String,
    /// Where the manifest takes it from, as shown.
    taken_from: String,
    /// Where this command asks for it, as shown.
    asked_from: String,
}

/// Checks the names `wanted` asks for against `manifest`, before any of
/// them is added. Every name taken by another source must be in
/// `replace`, else the error lists each collision with both sources, and
/// the ways out: `--skill` for the other names when `pickable` (a
/// repository's skills), `--replace` for the taken ones. A name in
/// `replace` that this command does not add is an error too. Returns the
/// names that change source, with the old and new source.
pub(crate) fn check(
    project_dir: &Path,
    manifest: &Manifest,
    wanted: &[(String, DependencySpec)],
    replace: &[String],
    pickable: bool,
) -> anyhow::Result<Vec<(String, Replaced)>> {
    for name in replace {
        if !wanted.iter().any(|(key, _)| key == name) {
            let keys: Vec<&str> = wanted.iter().map(|(key, _)| key.as_str()).collect();
            bail!(
                Hinted::new(format!(
                    "--replace {name}: this command adds no skill named '{name}'"
                ))
                .hint(format!("it adds {}", keys.join(", ")))
            );
        }
    }
    let collisions: Vec<Collision> = wanted
        .iter()
        .filter_map(|(name, spec)| {
            let old = manifest.skills.get(name)?;
            (!same_source(project_dir, name, old, spec)).then(|| Collision {
                name: name.clone(),
                taken_from: shown_source(old),
                asked_from: shown_source(spec),
            })
        })
        .collect();
    let refused: Vec<&Collision> = collisions
        .iter()
        .filter(|c| !replace.contains(&c.name))
        .collect();
    if !refused.is_empty() {
        bail!(refusal(&refused, wanted, pickable));
    }
    Ok(collisions
        .into_iter()
        .map(|c| {
            let replaced = Replaced {
                from: c.taken_from,
                with: c.asked_from,
            };
            (c.name, replaced)
        })
        .collect())
}

/// The error for names taken by other sources: one line per name with
/// both sources, then how to leave them out or take them over.
fn refusal(refused: &[&Collision], wanted: &[(String, DependencySpec)], pickable: bool) -> Hinted {
    let width = refused.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let lines: String = refused
        .iter()
        .map(|c| {
            format!(
                "\n  {:width$}  skills.toml takes it from {}; this command asks for it from {}",
                c.name, c.taken_from, c.asked_from
            )
        })
        .collect();
    let (count, names) = match refused.len() {
        1 => ("1 skill".to_string(), "that name"),
        n => (format!("{n} skills"), "those names"),
    };
    let mut error = Hinted::new(format!(
        "{count} this command adds {} taken by another source, so nothing was changed:{lines}",
        if refused.len() == 1 { "is" } else { "are" }
    ));
    let others: Vec<&str> = wanted
        .iter()
        .map(|(key, _)| key.as_str())
        .filter(|key| !refused.iter().any(|c| c.name == *key))
        .collect();
    if pickable && !others.is_empty() {
        let picks: Vec<String> = others
            .iter()
            .map(|o| format!("--skill {}", crate::hint::shell_quote(o)))
            .collect();
        error = error.hint(format!(
            "to leave {names} out, pick only the others: {}",
            picks.join(" ")
        ));
    }
    let replaces: Vec<String> = refused
        .iter()
        .map(|c| format!("--replace {}", crate::hint::shell_quote(&c.name)))
        .collect();
    error.hint(format!(
        "to let the new source take {names} over, add {}",
        replaces.join(" ")
    ))
}

/// Whether `old` and `new` name the same source for the skill `name`: the
/// same registry, the same git repository (whatever the rev or folder),
/// the same OCI repository (whatever the tag or digest), or the same
/// folder.
fn same_source(project_dir: &Path, name: &str, old: &DependencySpec, new: &DependencySpec) -> bool {
    let (Ok(old), Ok(new)) = (old.source(name), new.source(name)) else {
        return false;
    };
    match (old, new) {
        (Source::Registry { registry: a, .. }, Source::Registry { registry: b, .. }) => a == b,
        (Source::Direct(a), Source::Direct(b)) => {
            crate::ops::sources::of_request(&a).same_place(&a, &b, project_dir)
        }
        _ => false,
    }
}

/// Where `spec` comes from, in a few words, without credentials: a
/// repository with its folder and rev, a folder, or a registry.
fn shown_source(spec: &DependencySpec) -> String {
    let DependencySpec::Detailed(d) = spec else {
        return "the default registry".to_string();
    };
    if let Some(oci) = &d.oci {
        return match (&d.tag, &d.digest) {
            (Some(tag), _) => format!("oci://{oci}:{tag}"),
            (None, Some(digest)) => format!("oci://{oci}@{digest}"),
            (None, None) => format!("oci://{oci}"),
        };
    }
    if let Some(site) = &d.well_known {
        return match &d.skill {
            Some(skill) => format!("the skill '{skill}' of {site}"),
            None => site.clone(),
        };
    }
    match (&d.git, &d.path, &d.registry) {
        (Some(git), _, _) => {
            let mut text = crate::net::split_credentials(git).map_or(git.clone(), |(u, _)| u);
            if let Some(subdir) = &d.subdir {
                text.push_str(&format!(" ({subdir})"));
            }
            if let Some(rev) = &d.rev {
                text.push_str(&format!(" at {rev}"));
            }
            text
        }
        (None, Some(path), _) => format!("the folder {path}"),
        (None, None, Some(registry)) => format!("the registry '{registry}'"),
        (None, None, None) => "the default registry".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::DetailedSpec;

    fn git(url: &str, subdir: &str) -> DependencySpec {
        DependencySpec::Detailed(DetailedSpec {
            git: Some(url.to_string()),
            subdir: Some(subdir.to_string()),
            ..Default::default()
        })
    }

    fn manifest_with(name: &str, spec: DependencySpec) -> Manifest {
        let mut manifest = Manifest::parse("", Path::new("skills.toml")).unwrap();
        manifest.skills.insert(name.to_string(), spec);
        manifest
    }

    #[test]
    fn the_same_repository_again_is_an_update_not_a_collision() {
        let manifest = manifest_with("pdf", git("https://example.com/a.git", "skills/pdf"));
        let wanted = [("pdf".to_string(), git("https://example.com/a/", "pdf"))];
        let replaced = check(Path::new("."), &manifest, &wanted, &[], true).unwrap();
        assert!(replaced.is_empty());
    }

    #[test]
    fn another_repository_is_refused_unless_replaced() {
        let manifest = manifest_with("pdf", git("https://example.com/a", "skills/pdf"));
        let wanted = [
            ("pdf".to_string(), git("https://example.com/b", "pdf")),
            ("csv".to_string(), git("https://example.com/b", "csv")),
        ];
        let error = check(Path::new("."), &manifest, &wanted, &[], true).unwrap_err();
        let hinted = error.downcast_ref::<Hinted>().unwrap();
        assert!(
            hinted
                .message()
                .contains("https://example.com/a (skills/pdf)")
        );
        assert_eq!(
            hinted.hints()[0],
            "to leave that name out, pick only the others: --skill csv"
        );
        let replaced = check(
            Path::new("."),
            &manifest,
            &wanted,
            &["pdf".to_string()],
            true,
        )
        .unwrap();
        assert_eq!(replaced.len(), 1);
        assert_eq!(replaced[0].1.from, "https://example.com/a (skills/pdf)");
        assert_eq!(replaced[0].1.with, "https://example.com/b (pdf)");
    }

    #[test]
    fn a_replace_of_a_name_not_added_is_an_error() {
        let manifest = manifest_with("pdf", git("https://example.com/a", "pdf"));
        let wanted = [("csv".to_string(), git("https://example.com/b", "csv"))];
        assert!(
            check(
                Path::new("."),
                &manifest,
                &wanted,
                &["pdf".to_string()],
                true
            )
            .is_err()
        );
    }
}
