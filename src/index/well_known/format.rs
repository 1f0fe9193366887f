//! `index.json` of the Agent Skills discovery RFC, read leniently where
//! the RFC lets clients be and strictly where the site could hurt: each
//! entry is checked on its own, and one that cannot be installed safely
//! is kept aside with the reason ([`Index::skipped`]) rather than failing
//! the whole index.
//!
//! Two forms of entry are read: v0.2.0's `{name, type, description, url,
//! digest}` (`type` is `skill-md` or `archive`; `url` resolves against
//! the index's URL) and v0.1.0's `{name, description, files}` (each file
//! fetched from `<name>/<file>` beside the index, with no digest).

use anyhow::bail;
use reqwest::Url;
use serde_json::Value;

use super::same_origin::{check_artifact, check_file_path};
use crate::hint::Hinted;

/// The `$schema` of a v0.2.0 index.
pub(crate) const SCHEMA_V0_2: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/// The most entries an index may list.
const MAX_ENTRIES: usize = 10_000;
// The most files a v0.1.0 entry may list: as many as a skill may hold.
use crate::store::limits::MAX_FILES;

/// A discovery index, read.
#[derive(Debug, Clone)]
pub(crate) struct Index {
    /// The index's URL.
    pub url: String,
    /// The entries that can be installed, in the index's order.
    pub skills: Vec<Entry>,
    /// The entries that cannot, each as `name: why` (or `entry N: why`).
    pub skipped: Vec<Skipped>,
}

/// An entry set aside, and why.
#[derive(Debug, Clone)]
pub(crate) struct Skipped {
    /// Its name, when it has a string one.
    pub name: Option<String>,
    /// What is wrong, naming the entry.
    pub why: String,
}

/// One skill of an index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Its name: a valid skill name.
    pub name: String,
    /// Its description, as the index gives it.
    pub description: String,
    /// Where its files are.
    pub artifact: Artifact,
}

/// Where an entry's files are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Artifact {
    /// One `SKILL.md` (`type: "skill-md"`).
    SkillMd {
        /// Its URL, on the index's origin.
        url: String,
        /// `sha256:<hex>` of its bytes, when the index gives it.
        digest: Option<String>,
    },
    /// A `.tar.gz` or `.zip` of the skill's folder (`type: "archive"`).
    Archive {
        /// Its URL, on the index's origin.
        url: String,
        /// `sha256:<hex>` of its bytes, when the index gives it.
        digest: Option<String>,
    },
    /// Files fetched one by one (v0.1.0 `files`).
    Files {
        /// The folder they are in, ending in `/`.
        base: String,
        /// Their paths in it, checked.
        files: Vec<String>,
    },
}

impl Artifact {
    /// The digest the index gives, if any.
    pub(crate) fn digest(&self) -> Option<&str> {
        match self {
            Artifact::SkillMd { digest, .. } | Artifact::Archive { digest, .. } => {
                digest.as_deref()
            }
            Artifact::Files { .. } => None,
        }
    }

    /// How listings name the kind: `skill-md`, `archive` or `files`.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Artifact::SkillMd { .. } => "skill-md",
            Artifact::Archive { .. } => "archive",
            Artifact::Files { .. } => "files",
        }
    }
}

impl Index {
    /// The entry named `name`: `Ok(None)` when the index does not list
    /// it, an error when it lists it but set it aside.
    pub(crate) fn get(&self, name: &str) -> anyhow::Result<Option<&Entry>> {
        if let Some(entry) = self.skills.iter().find(|e| e.name == name) {
            return Ok(Some(entry));
        }
        if let Some(skipped) = self
            .skipped
            .iter()
            .find(|s| s.name.as_deref() == Some(name))
        {
            bail!(
                Hinted::new(format!(
                    "{}: the skill '{name}' cannot be installed: {}",
                    self.url, skipped.why
                ))
                .hint("the site's index is broken or built to attack: do not install it, and tell the site's owner")
            );
        }
        Ok(None)
    }
}

/// Whether `bytes` look like an index at all: a JSON object with a
/// `skills` key. A site that answers every path with a page does not
/// have one.
pub(crate) fn looks_like_an_index(bytes: &[u8]) -> bool {
    serde_json::from_slice::<Value>(bytes)
        .is_ok_and(|value| value.get("skills").is_some_and(Value::is_array))
}

/// Reads the index at `url` from `bytes`. An index whose `$schema` is
/// one skillpkg does not know is refused, as the RFC asks; a broken
/// entry is set aside.
pub(crate) fn parse(bytes: &[u8], url: &str) -> anyhow::Result<Index> {
    let base = Url::parse(url).map_err(|e| anyhow::anyhow!("{url}: {e}"))?;
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| anyhow::anyhow!("{url} is no JSON agent-skills index: {e}"))?;
    if let Some(schema) = value.get("$schema")
        && schema.as_str() != Some(SCHEMA_V0_2)
    {
        bail!(
            Hinted::new(format!(
                "{url} declares the schema {schema}, which this skillpkg does not read"
            ))
            .hint(format!(
                "skillpkg reads {SCHEMA_V0_2} and the older form without $schema; a newer skillpkg may read this one"
            ))
        );
    }
    let Some(entries) = value.get("skills").and_then(Value::as_array) else {
        bail!("{url} is no agent-skills index: it has no \"skills\" list");
    };
    if entries.len() > MAX_ENTRIES {
        bail!(
            "{url} lists {} skills, more than the {MAX_ENTRIES} skillpkg reads",
            entries.len()
        );
    }
    let mut index = Index {
        url: url.to_string(),
        skills: Vec::new(),
        skipped: Vec::new(),
    };
    let mut seen = std::collections::HashSet::new();
    for (i, value) in entries.iter().enumerate() {
        let name = value
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_string);
        let shown = match &name {
            Some(name) => format!("{name:?}"),
            None => format!("entry {}", i + 1),
        };
        let entry =
            read_entry(value, &base).and_then(|entry| match seen.insert(entry.name.clone()) {
                false => Err("the index lists it twice".to_string()),
                true => Ok(entry),
            });
        match entry {
            Ok(entry) => index.skills.push(entry),
            Err(why) => index.skipped.push(Skipped {
                name,
                why: format!("{shown}: {why}"),
            }),
        }
    }
    Ok(index)
}

/// One entry, or why it cannot be installed.
fn read_entry(value: &Value, base: &Url) -> Result<Entry, String> {
    let text = |key: &str| value.get(key).and_then(Value::as_str);
    let name = text("name").ok_or("it has no \"name\"")?;
    if !crate::skill::name::is_valid_name(name) {
        return Err(
            "its name is no valid skill name (lower-case letters, digits and single '-', at most 64)"
                .into(),
        );
    }
    let description = text("description").unwrap_or_default().to_string();
    let artifact = match (value.get("url"), value.get("files")) {
        (Some(url), _) => {
            let url = url.as_str().ok_or("its \"url\" is no string")?;
            let resolved = base
                .join(url)
                .map_err(|e| format!("its url {url:?} is no URL: {e}"))?;
            check_artifact(base, &resolved).map_err(|why| format!("its url is refused: {why}"))?;
            let digest = match value.get("digest") {
                None | Some(Value::Null) => None,
                Some(Value::String(digest))
                    if crate::manifest::oci_ref::is_sha256_digest(digest) =>
                {
                    Some(digest.clone())
                }
                Some(other) => {
                    return Err(format!(
                        "its digest {other} is no sha256:<64 lower-case hex digits>"
                    ));
                }
            };
            let url = resolved.to_string();
            match text("type") {
                Some("skill-md") => Artifact::SkillMd { url, digest },
                Some("archive") => Artifact::Archive { url, digest },
                Some(other) => {
                    return Err(format!(
                        "its type {other:?} is none skillpkg reads (skill-md, archive)"
                    ));
                }
                None => return Err("it has a \"url\" and no \"type\"".into()),
            }
        }
        (None, Some(files)) => {
            let files = files.as_array().ok_or("its \"files\" is no list")?;
            if files.len() > MAX_FILES {
                return Err(format!("it lists more than {MAX_FILES} files"));
            }
            let mut paths = Vec::new();
            for file in files {
                let path = file
                    .as_str()
                    .ok_or("a file of its \"files\" is no string")?;
                check_file_path(path).map_err(|why| format!("its file {why}"))?;
                paths.push(path.to_string());
            }
            if !paths.iter().any(|p| p == "SKILL.md") {
                return Err("its \"files\" list no SKILL.md".into());
            }
            let folder = base
                .join(&format!("{name}/"))
                .map_err(|e| format!("its folder is no URL: {e}"))?;
            check_artifact(base, &folder).map_err(|why| format!("its folder is refused: {why}"))?;
            Artifact::Files {
                base: folder.to_string(),
                files: paths,
            }
        }
        (None, None) => return Err("it has neither \"url\" nor \"files\"".into()),
    };
    Ok(Entry {
        name: name.to_string(),
        description,
        artifact,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "https://example.com/.well-known/agent-skills/index.json";
    const DIGEST: &str = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    fn read(json: serde_json::Value) -> Index {
        parse(json.to_string().as_bytes(), URL).unwrap()
    }

    #[test]
    fn both_forms_are_read_and_urls_resolved_against_the_index() {
        let index = read(serde_json::json!({
            "$schema": SCHEMA_V0_2,
            "skills": [
                {"name": "code-review", "type": "skill-md", "description": "Review.",
                 "url": "/.well-known/agent-skills/code-review/SKILL.md", "digest": DIGEST},
                {"name": "wrangler", "type": "archive", "description": "Deploy.",
                 "url": "wrangler.tar.gz"},
                {"name": "old", "description": "Old form.", "files": ["SKILL.md", "scripts/x.sh"]},
            ]
        }));
        assert!(index.skipped.is_empty(), "{:?}", index.skipped);
        assert_eq!(
            index.skills[0].artifact,
            Artifact::SkillMd {
                url: "https://example.com/.well-known/agent-skills/code-review/SKILL.md".into(),
                digest: Some(DIGEST.into())
            }
        );
        assert_eq!(
            index.skills[1].artifact,
            Artifact::Archive {
                url: "https://example.com/.well-known/agent-skills/wrangler.tar.gz".into(),
                digest: None
            }
        );
        assert_eq!(
            index.skills[2].artifact,
            Artifact::Files {
                base: "https://example.com/.well-known/agent-skills/old/".into(),
                files: vec!["SKILL.md".into(), "scripts/x.sh".into()]
            }
        );
    }

    #[test]
    fn broken_or_hostile_entries_are_set_aside_with_the_reason() {
        let index = read(serde_json::json!({
            "skills": [
                {"name": "../evil", "type": "skill-md", "url": "x/SKILL.md"},
                {"name": "Big", "type": "skill-md", "url": "x/SKILL.md"},
                {"name": "far", "type": "skill-md", "url": "https://evil.example/SKILL.md"},
                {"name": "odd", "type": "wasm", "url": "x.wasm"},
                {"name": "weak", "type": "archive", "url": "x.zip", "digest": "md5:abc"},
                {"name": "climb", "files": ["SKILL.md", "../../etc/passwd"]},
                {"name": "nomd", "files": ["README.md"]},
                {"type": "skill-md", "url": "x/SKILL.md"},
                {"name": "ok", "type": "skill-md", "url": "ok/SKILL.md"},
                {"name": "ok", "type": "skill-md", "url": "ok2/SKILL.md"},
            ]
        }));
        let names: Vec<&str> = index.skills.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["ok"]);
        let reasons: Vec<&str> = index.skipped.iter().map(|s| s.why.as_str()).collect();
        for (i, part) in [
            "\"../evil\": its name is no valid skill name",
            "\"Big\": its name is no valid skill name",
            "\"far\": its url is refused: it leads to another origin",
            "\"odd\": its type \"wasm\"",
            "\"weak\": its digest",
            "\"climb\": its file \"../../etc/passwd\"",
            "\"nomd\": its \"files\" list no SKILL.md",
            "entry 8: it has no \"name\"",
            "\"ok\": the index lists it twice",
        ]
        .iter()
        .enumerate()
        {
            assert!(reasons[i].starts_with(part), "{}: {part}", reasons[i]);
        }
        let error = index.get("far").unwrap_err().to_string();
        assert!(error.contains("cannot be installed"), "{error}");
        assert!(index.get("none").unwrap().is_none());
    }

    #[test]
    fn an_unknown_schema_is_refused_and_pages_are_no_index() {
        let error = parse(
            br#"{"$schema": "https://schemas.agentskills.io/discovery/9.0.0/schema.json", "skills": []}"#,
            URL,
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("does not read"), "{error}");
        assert!(!looks_like_an_index(b"<html>not found</html>"));
        assert!(!looks_like_an_index(br#"{"items": []}"#));
        assert!(looks_like_an_index(br#"{"skills": []}"#));
    }
}
