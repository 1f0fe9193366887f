//! `skillpkg registry add`: name an index in `[registries]` of
//! `skills.toml` (DESIGN §4), editing the file in place so that its
//! comments and order stay.

use anyhow::bail;

use crate::hint::{Hinted, shell_quote};
use crate::project::Project;

/// The name of the registry used when a dependency names none.
pub(crate) const DEFAULT_REGISTRY: &str = "default";

/// What `registry add` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RegistryAdded {
    /// `[registries] name` now names `index`.
    Added {
        /// The registry's name.
        name: String,
        /// Its index, as written.
        index: String,
    },
    /// `[registries] name` named `index` already.
    Unchanged {
        /// The registry's name.
        name: String,
        /// Its index.
        index: String,
    },
}

/// The index URL to record for `url`: with `git`, a `git+` form
/// (`git+https://…`) unless it is one already; a path is recorded as it
/// is (a git repository there is read as one).
pub(crate) fn index_spec(url: &str, git: bool) -> String {
    let already_git = url.starts_with("git+") || url.starts_with("git://");
    match git && !already_git && url.contains("://") {
        true => format!("git+{url}"),
        false => url.to_string(),
    }
}

/// Adds `[registries] name = { index = … }` to the project's manifest
/// (`name` is [`DEFAULT_REGISTRY`] for the registry used when none is
/// named). A name that names another index already is refused: the
/// manifest is edited by hand for that.
pub(crate) fn add_registry(
    project: &Project,
    dirs: &crate::dirs::Dirs,
    name: &str,
    url: &str,
    git: bool,
) -> anyhow::Result<RegistryAdded> {
    check_name(name)?;
    if url.trim().is_empty() {
        bail!("the index URL is empty");
    }
    let index = index_spec(url, git);
    let mut edit = crate::ops::edit::Edit::open(project, dirs)?;
    let path = &project.manifest_path;
    match edit.manifest.registries.get(name) {
        Some(existing) if existing.index == index => {
            return Ok(RegistryAdded::Unchanged {
                name: name.to_string(),
                index,
            });
        }
        Some(existing) => bail!(
            Hinted::new(format!(
                "{} names the registry '{name}' already, with the index {}",
                path.display(),
                existing.index
            ))
            .hint(format!(
                "to change it, edit its line under [registries] in {}; or add this index under another name: `skillpkg registry add NAME {}`",
                path.display(),
                shell_quote(url)
            ))
        ),
        None => {}
    }
    edit.doc.set_registry(name, &index)?;
    edit.commit()?;
    Ok(RegistryAdded::Added {
        name: name.to_string(),
        index,
    })
}

/// Registry names are what `add --registry NAME` and `registry = "NAME"`
/// give: ASCII letters, digits, `-` and `_`.
fn check_name(name: &str) -> anyhow::Result<()> {
    let fine = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !fine {
        bail!(
            Hinted::new(format!("'{name}' cannot name a registry"))
                .hint("use ASCII letters, digits, '-' and '_', such as `internal`")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::index_spec;

    #[test]
    fn git_indexes_are_recorded_in_their_git_form() {
        assert_eq!(
            index_spec("https://github.com/acme/index.git", true),
            "git+https://github.com/acme/index.git"
        );
        assert_eq!(
            index_spec("git+ssh://git@example.com/i.git", true),
            "git+ssh://git@example.com/i.git"
        );
        assert_eq!(
            index_spec("git://example.com/i", true),
            "git://example.com/i"
        );
        assert_eq!(index_spec("../index.git", true), "../index.git");
        assert_eq!(
            index_spec("https://skills.example.com/index/", false),
            "https://skills.example.com/index/"
        );
    }
}
