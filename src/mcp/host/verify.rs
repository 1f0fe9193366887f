//! The checks on one listed skill (SEP-2640's host rules): the listing
//! keeps the extension's structural rules, every file lies inside the
//! skill and matches its size and digest, the server answers each read
//! with the file asked for, and the listed frontmatter is the `SKILL.md`'s.

use std::collections::BTreeMap;
use std::path::Path;

use rmcp::model::{SkillResource, SkillResources};
use serde_json::{Map, Value};

use super::store::{self, Pending};
use super::{ListedFile, VerifiedSkill};

/// Files one skill may list, at most.
const MAX_FILES: usize = 2_000;
/// Bytes one file may hold, at most.
const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Bytes one skill may hold, at most.
const MAX_SKILL_BYTES: u64 = 64 * 1024 * 1024;

/// Takes the skill `entry` lists: its files read through `read` (unless
/// the store already holds them), checked, written to the store under
/// `store`, and loaded from there. Why not, when it is refused.
pub(super) async fn take<F, Fut>(
    entry: &rmcp::model::Skill,
    origin: &str,
    read: F,
    store: &Path,
) -> Result<VerifiedSkill, String>
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = Result<Vec<u8>, String>>,
{
    let listed = listing(entry)?;
    let name = entry.name().to_string();
    let files: BTreeMap<String, ListedFile> = listed
        .iter()
        .map(|(relative, file)| {
            let listed = ListedFile {
                digest: file.digest.clone(),
                size: file.size,
            };
            (relative.clone(), listed)
        })
        .collect();
    let digest_set = digest_set(&name, &files);
    let dir = store::dir_of(store, &digest_set, &name);
    if !store::holds(&dir, &files) {
        let mut pending = Pending::new(store, &name).map_err(|e| store_error(store, e))?;
        for (relative, file) in &listed {
            let bytes = read(file.uri.clone()).await?;
            file.verify(&bytes).map_err(|e| {
                format!("{e}: the server changed it after listing it, or lists a wrong digest")
            })?;
            pending
                .add(relative, &bytes)
                .map_err(|e| store_error(store, e))?;
        }
        pending.finish(&dir).map_err(|e| store_error(store, e))?;
    }
    let on_disk = crate::mcp::skill_set::frontmatter_of(&dir.join("SKILL.md"))
        .map_err(|e| format!("its SKILL.md's frontmatter {e}"))?;
    let listed_frontmatter = match serde_json::to_value(&entry.frontmatter) {
        Ok(Value::Object(map)) => map,
        _ => return Err("its listed frontmatter is no mapping".into()),
    };
    same_frontmatter(&listed_frontmatter, &on_disk)?;
    let mut skill = crate::skill::load::load_skill(&dir)
        .map_err(|e| format!("its SKILL.md cannot be used: {e}"))?;
    skill.origin = Some(origin.to_string());
    Ok(VerifiedSkill {
        skill,
        origin: origin.to_string(),
        files,
        digest_set,
    })
}

fn store_error(store: &Path, e: std::io::Error) -> String {
    format!("could not write it to {}: {e}", store.display())
}

/// The files `entry` lists by path relative to the skill, after the
/// extension's structural checks and the limits.
fn listing(entry: &rmcp::model::Skill) -> Result<BTreeMap<String, SkillResource>, String> {
    entry
        .validate()
        .map_err(|e| format!("its listing breaks the Skills extension: {e}"))?;
    let SkillResources::Files(files) = &entry.resources else {
        return Err(
            "it is listed as \"dynamic\", without digests, so nothing it serves can be checked"
                .into(),
        );
    };
    if files.len() > MAX_FILES {
        return Err(format!("it lists more than {MAX_FILES} files"));
    }
    let root = entry
        .uri
        .strip_suffix("SKILL.md")
        .expect("a valid entry's URI ends in SKILL.md");
    let mut total: u64 = 0;
    let mut listed = BTreeMap::new();
    for file in files {
        if file.size > MAX_FILE_BYTES {
            return Err(format!(
                "{} is {} bytes, more than the {MAX_FILE_BYTES} one file may hold",
                file.uri, file.size
            ));
        }
        total = total.saturating_add(file.size);
        if total > MAX_SKILL_BYTES {
            return Err(format!(
                "its files hold more than the {MAX_SKILL_BYTES} bytes one skill may hold"
            ));
        }
        let relative = relative_path(root, &file.uri)?;
        if listed.insert(relative, file.clone()).is_some() {
            return Err(format!("it lists {} twice", file.uri));
        }
    }
    if !listed.contains_key("SKILL.md") {
        return Err(format!("it does not list {}", entry.uri));
    }
    Ok(listed)
}

/// The path of `uri` relative to the skill whose folder is `root`
/// (`skill://name/`): every segment percent-decoded, none empty, `.`,
/// `..` or holding a separator.
pub(super) fn relative_path(root: &str, uri: &str) -> Result<String, String> {
    let outside = || format!("{uri} does not name a file inside the skill");
    let rest = uri.strip_prefix(root).ok_or_else(outside)?;
    if rest.contains(['?', '#']) {
        return Err(outside());
    }
    let mut segments = Vec::new();
    for raw in rest.split('/') {
        let decoded =
            String::from_utf8(crate::net::percent_decode_bytes(raw)).map_err(|_| outside())?;
        if matches!(decoded.as_str(), "" | "." | "..") || decoded.contains(['/', '\\', '\0']) {
            return Err(outside());
        }
        segments.push(decoded);
    }
    Ok(segments.join("/"))
}

/// `sha256:` over the skill's name and each listed path with its digest:
/// two listings have the same digest set exactly when they serve the
/// same name, paths and bytes.
pub(crate) fn digest_set(name: &str, files: &BTreeMap<String, ListedFile>) -> String {
    let mut text = format!("{name}\n");
    for (relative, file) in files {
        text.push_str(&format!("{relative}\t{}\n", file.digest));
    }
    format!("sha256:{}", crate::store::hash::sha256_hex(text.as_bytes()))
}

/// Whether the frontmatter a server listed is the one its `SKILL.md`
/// holds, field by field; the first field that differs, when not.
fn same_frontmatter(
    listed: &Map<String, Value>,
    on_disk: &Map<String, Value>,
) -> Result<(), String> {
    let fields: std::collections::BTreeSet<&String> = listed.keys().chain(on_disk.keys()).collect();
    for field in fields {
        let (a, b) = (listed.get(field), on_disk.get(field));
        if !same_value(a, b) {
            return Err(format!(
                "its listed frontmatter differs from its SKILL.md: '{field}' is {} in the listing and {} in the file",
                shown(a),
                shown(b)
            ));
        }
    }
    Ok(())
}

/// JSON equality, numbers compared by value (`1` and `1.0` are one).
fn same_value(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(Value::Number(x)), Some(Value::Number(y))) => x.as_f64() == y.as_f64(),
        (Some(Value::Array(x)), Some(Value::Array(y))) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(Some(x), Some(y)))
        }
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            x.len() == y.len() && x.iter().all(|(k, v)| same_value(Some(v), y.get(k)))
        }
        (a, b) => a == b,
    }
}

fn shown(value: Option<&Value>) -> String {
    match value {
        None => "absent".into(),
        Some(value) => {
            let text = value.to_string();
            match text.char_indices().nth(80) {
                Some((cut, _)) => format!("{}…", &text[..cut]),
                None => text,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_relative_path_stays_inside_the_skill() {
        let root = "skill://a/";
        assert_eq!(
            relative_path(root, "skill://a/scripts/x.py").unwrap(),
            "scripts/x.py"
        );
        assert_eq!(
            relative_path(root, "skill://a/my%20notes.md").unwrap(),
            "my notes.md"
        );
        for outside in [
            "skill://b/x",
            "skill://a/../b/x",
            "skill://a/%2e%2e/x",
            "skill://a/x%2Fy",
            "skill://a//x",
            "skill://a/x?y",
            "skill://ab/x",
        ] {
            assert!(relative_path(root, outside).is_err(), "{outside}");
        }
    }

    #[test]
    fn frontmatter_is_compared_field_by_field() {
        let file = json!({"name": "a", "description": "d", "version": 1})
            .as_object()
            .unwrap()
            .clone();
        let same = json!({"name": "a", "description": "d", "version": 1.0})
            .as_object()
            .unwrap()
            .clone();
        assert_eq!(same_frontmatter(&same, &file), Ok(()));
        let other = json!({"name": "a", "description": "e", "version": 1})
            .as_object()
            .unwrap()
            .clone();
        let reason = same_frontmatter(&other, &file).unwrap_err();
        assert!(
            reason.contains("'description' is \"e\" in the listing and \"d\" in the file"),
            "{reason}"
        );
        let more = json!({"name": "a", "description": "d", "version": 1, "allowed-tools": "Bash"})
            .as_object()
            .unwrap()
            .clone();
        assert!(
            same_frontmatter(&more, &file)
                .unwrap_err()
                .contains("'allowed-tools'")
        );
    }

    #[test]
    fn the_digest_set_changes_with_any_path_or_digest() {
        let file = |d: &str| ListedFile {
            digest: d.into(),
            size: 1,
        };
        let one: BTreeMap<_, _> = [("SKILL.md".to_string(), file("sha256:aa"))].into();
        let mut two = one.clone();
        two.insert("x".into(), file("sha256:bb"));
        let mut three = two.clone();
        three.insert("x".into(), file("sha256:cc"));
        let sets = [
            digest_set("a", &one),
            digest_set("a", &two),
            digest_set("a", &three),
            digest_set("b", &one),
        ];
        let distinct: std::collections::BTreeSet<_> = sets.iter().collect();
        assert_eq!(distinct.len(), 4);
    }
}
