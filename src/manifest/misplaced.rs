//! Lines of `skills.toml` that landed in the wrong table: every line after
//! a `[registries]` header belongs to `[registries]`, so a skill written
//! below it (`"acme/pdf" = "1"`) reads as a registry. Said as such, with
//! the line and the fix, rather than as a type error of the parser.

use std::path::Path;

use crate::hint::Hinted;

/// The error for the first `[registries]` entry that looks like a skill
/// (a version requirement, or a table with `version`, `path` or `git` and
/// no `index`), if any. `text` is the manifest, `path` names it.
pub(crate) fn skill_under_registries(text: &str, path: &Path) -> Option<Hinted> {
    let doc = toml_edit::Document::parse(text).ok()?;
    let registries = doc.get("registries")?.as_table_like()?;
    for (key, item) in registries.iter() {
        let looks_like_a_skill = match item {
            toml_edit::Item::Value(toml_edit::Value::String(_)) => true,
            item => item.as_table_like().is_some_and(|table| {
                !table.contains_key("index")
                    && ["version", "path", "git"]
                        .iter()
                        .any(|k| table.contains_key(k))
            }),
        };
        if !looks_like_a_skill {
            continue;
        }
        let (key, _) = registries.get_key_value(key)?;
        let start = key.span().map_or(0, |span| span.start);
        let line = text[..start.min(text.len())].matches('\n').count() + 1;
        let shown = text.lines().nth(line - 1).unwrap_or_default().trim();
        return Some(
            Hinted::new(format!(
                "{}:{line}: `{shown}` is under [registries], where each entry is a registry (`NAME = {{ index = \"URL\" }}`); it looks like a skill",
                path.display()
            ))
            .hint("every line after a `[registries]` header belongs to that table: move this line above `[registries]`, into [skills]")
            .hint("registries are added with `skillpkg registry add NAME URL`"),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skill_after_the_registries_header_is_named_with_its_line() {
        let text = "[skills]\n\"acme/x\" = \"1\"\n\n[registries]\ninternal = { index = \"https://i.example/\" }\n\"acme/pdf\" = \"1\"\n";
        let error = skill_under_registries(text, Path::new("skills.toml")).unwrap();
        assert_eq!(
            error.message(),
            "skills.toml:6: `\"acme/pdf\" = \"1\"` is under [registries], where each entry is a registry (`NAME = { index = \"URL\" }`); it looks like a skill"
        );
        let text = "[registries]\nlocal = { path = \"tools/local\" }\n";
        assert!(skill_under_registries(text, Path::new("skills.toml")).is_some());
        // Registries, however written, are registries.
        let text = "[registries]\ninternal = { index = \"https://i.example/\" }\n[registries.other]\nindex = \"x\"\n";
        assert_eq!(skill_under_registries(text, Path::new("skills.toml")), None);
    }
}
