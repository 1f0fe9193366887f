//! Editing `skills.toml` in place, keeping comments, order and formatting.

use std::path::Path;

use anyhow::Context as _;
use toml_edit::{DocumentMut, InlineTable, Item, Table, TableLike, value};

use super::{DependencySpec, DetailedSpec};

/// A manifest open for editing.
pub struct ManifestDocument {
    doc: DocumentMut,
}

impl ManifestDocument {
    /// Parses manifest text for editing.
    pub fn parse(text: &str, path: &Path) -> anyhow::Result<ManifestDocument> {
        let doc = text
            .parse::<DocumentMut>()
            .with_context(|| format!("{}: invalid manifest", path.display()))?;
        Ok(ManifestDocument { doc })
    }

    /// `[skills]`, or `skills = { … }` (an inline table is a table too).
    fn skills_table(&mut self) -> anyhow::Result<&mut dyn TableLike> {
        let item = self
            .doc
            .entry("skills")
            .or_insert_with(|| Item::Table(Table::new()));
        item.as_table_like_mut()
            .context("[skills] in skills.toml must be a table")
    }

    /// Adds or replaces `[skills] name = spec`. An existing entry keeps its
    /// place and its comments.
    pub fn set_dependency(&mut self, name: &str, spec: &DependencySpec) -> anyhow::Result<()> {
        let table = self.skills_table()?;
        let new_value = match spec {
            DependencySpec::Version(req) => value(req.as_str()),
            DependencySpec::Detailed(detailed) => value(inline(detailed)),
        };
        match table.get_mut(name) {
            Some(item) => {
                let decor = item.as_value().map(|v| v.decor().clone());
                *item = new_value;
                if let (Some(decor), Some(v)) = (decor, item.as_value_mut()) {
                    *v.decor_mut() = decor;
                }
            }
            None => {
                table.insert(name, new_value);
            }
        }
        Ok(())
    }

    /// Removes `[skills] name`; returns whether it was there.
    pub fn remove_dependency(&mut self, name: &str) -> anyhow::Result<bool> {
        Ok(self.skills_table()?.remove(name).is_some())
    }

    /// Sets `[install] disabled` to `names` (removed when empty), keeping
    /// the rest of `[install]` as it is.
    pub(crate) fn set_disabled(&mut self, names: &[String]) -> anyhow::Result<()> {
        let install = self
            .doc
            .entry("install")
            .or_insert_with(toml_edit::table)
            .as_table_like_mut()
            .context("[install] in skills.toml must be a table")?;
        match names.is_empty() {
            true => {
                install.remove("disabled");
            }
            false => {
                let array: toml_edit::Array = names.iter().map(String::as_str).collect();
                install.insert("disabled", value(array));
            }
        }
        Ok(())
    }

    /// Adds `[registries] name = { index = "…" }` at the end of the
    /// table (a new `[registries]` table at the end of the file when there
    /// is none); an entry of that name is replaced in place.
    pub(crate) fn set_registry(&mut self, name: &str, index: &str) -> anyhow::Result<()> {
        let table = self
            .doc
            .entry("registries")
            .or_insert_with(|| Item::Table(Table::new()))
            .as_table_like_mut()
            .context("[registries] in skills.toml must be a table")?;
        let mut entry = InlineTable::new();
        entry.insert("index", index.into());
        match table.get_mut(name) {
            Some(item) => *item = value(entry),
            None => {
                table.insert(name, value(entry));
            }
        }
        Ok(())
    }

    /// The edited text.
    pub fn to_text(&self) -> String {
        self.doc.to_string()
    }
}

fn inline(spec: &DetailedSpec) -> InlineTable {
    let mut table = InlineTable::new();
    let fields = [
        ("version", &spec.version),
        ("registry", &spec.registry),
        ("path", &spec.path),
        ("git", &spec.git),
        ("rev", &spec.rev),
        ("subdir", &spec.subdir),
        ("oci", &spec.oci),
        ("tag", &spec.tag),
        ("digest", &spec.digest),
        ("well-known", &spec.well_known),
        ("skill", &spec.skill),
    ];
    for (key, field) in fields {
        if let Some(text) = field {
            table.insert(key, text.as_str().into());
        }
    }
    if let Some(channel) = spec.channel {
        table.insert("channel", channel.as_str().into());
    }
    match &spec.signed_by {
        Some(super::SignedBy::One(one)) => {
            table.insert("signed-by", one.as_str().into());
        }
        Some(super::SignedBy::Many(many)) => {
            let list: toml_edit::Array = many.iter().map(String::as_str).collect();
            table.insert("signed-by", list.into());
        }
        None => {}
    }
    if let Some(root) = &spec.trusted_root {
        table.insert("trusted-root", root.as_str().into());
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_keep_comments_and_order() {
        let text = "# my skills\n[skills]\n# pdf tools\n\"acme/pdf\" = \"^1\" # pinned major\n\"acme/zeta\" = \"2\"\n\n[install]\ntargets = [\"claude\"] # also Claude\n";
        let mut doc = ManifestDocument::parse(text, Path::new("skills.toml")).unwrap();
        doc.set_dependency("acme/pdf", &DependencySpec::Version("^1.4".into()))
            .unwrap();
        doc.set_dependency(
            "helper",
            &DependencySpec::Detailed(DetailedSpec {
                path: Some("tools/helper".into()),
                ..Default::default()
            }),
        )
        .unwrap();
        assert!(doc.remove_dependency("acme/zeta").unwrap());
        assert!(!doc.remove_dependency("acme/zeta").unwrap());
        assert_eq!(
            doc.to_text(),
            "# my skills\n[skills]\n# pdf tools\n\"acme/pdf\" = \"^1.4\" # pinned major\nhelper = { path = \"tools/helper\" }\n\n[install]\ntargets = [\"claude\"] # also Claude\n"
        );
    }

    /// Found by a hand-written input to the `manifest` fuzz target, whose
    /// check is that an accepted manifest can be edited: `skills` as an
    /// inline table was refused as "not a table".
    #[test]
    fn edits_an_inline_skills_table() {
        let text = b"skills = { \"a/b\" = \"1\" }\n";
        let text = std::str::from_utf8(text).unwrap();
        let mut doc = ManifestDocument::parse(text, Path::new("skills.toml")).unwrap();
        doc.set_dependency("a/b", &DependencySpec::Version("^1.2".into()))
            .unwrap();
        doc.set_dependency(
            "c/d",
            &DependencySpec::Detailed(DetailedSpec {
                version: Some("2".into()),
                ..Default::default()
            }),
        )
        .unwrap();
        // The replaced value keeps its spacing (here the space before `}`).
        assert_eq!(
            doc.to_text(),
            "skills = { \"a/b\" = \"^1.2\" , \"c/d\" = { version = \"2\" } }\n"
        );
        assert!(doc.remove_dependency("a/b").unwrap());
        let manifest =
            super::super::Manifest::parse(&doc.to_text(), Path::new("skills.toml")).unwrap();
        assert_eq!(manifest.skills.keys().collect::<Vec<_>>(), ["c/d"]);
    }

    #[test]
    fn registries_are_added_keeping_comments() {
        let text = "# mine\n[skills]\n\"acme/x\" = \"1\" # pinned\n";
        let mut doc = ManifestDocument::parse(text, Path::new("skills.toml")).unwrap();
        doc.set_registry("internal", "https://skills.example.com/index/")
            .unwrap();
        assert_eq!(
            doc.to_text(),
            "# mine\n[skills]\n\"acme/x\" = \"1\" # pinned\n\n[registries]\ninternal = { index = \"https://skills.example.com/index/\" }\n"
        );
        doc.set_registry("default", "git+https://example.com/i.git")
            .unwrap();
        assert!(
            doc.to_text()
                .ends_with("internal = { index = \"https://skills.example.com/index/\" }\ndefault = { index = \"git+https://example.com/i.git\" }\n"),
            "{}",
            doc.to_text()
        );
    }

    #[test]
    fn adds_a_skills_table_when_missing() {
        let mut doc =
            ManifestDocument::parse("[install]\nroot = \"s\"\n", Path::new("skills.toml")).unwrap();
        doc.set_dependency("acme/x", &DependencySpec::Version("*".into()))
            .unwrap();
        assert!(
            doc.to_text().contains("[skills]\n\"acme/x\" = \"*\"\n"),
            "{}",
            doc.to_text()
        );
    }
}
