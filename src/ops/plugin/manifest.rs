//! Plugin manifests. `plugin.json` at a plugin's top is an Agent Plugins
//! manifest, checked against the rules of Agent Plugins 1.0.0 (§5 of the
//! specification): a JSON object, `$schema` the 1.0.0 identifier (any
//! other is an unsupported version, refused), `name` within the naming
//! rules, every other field of the closed set of the type it must have;
//! unknown fields are reported and ignored, as is an `extensions` that is
//! not an object. Claude Code's `.claude-plugin/plugin.json` and Codex's
//! `.codex-plugin/plugin.json` are read for what skillpkg needs: a name,
//! and the skill folders `skills` names beside the default `skills/`.
//!
//! A manifest comes from a cloned repository: it is read up to
//! [`MAX_MANIFEST`] bytes, a key given twice in one object is refused
//! (two parsers could each take a different one), and serde_json's
//! nesting limit bounds the depth.

use std::collections::BTreeMap;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// The `$schema` of an Agent Plugins 1.0.0 manifest.
pub(crate) const SCHEMA_1_0_0: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

/// The most bytes a manifest may hold.
pub(crate) const MAX_MANIFEST: usize = 1024 * 1024;

/// The fields an Agent Plugins 1.0.0 manifest may hold (§5.2).
pub(crate) const FIELDS: [&str; 10] = [
    "$schema",
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "extensions",
];

/// Why a manifest is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// `$schema` names a version of Agent Plugins skillpkg does not read.
    UnknownSchema(String),
    /// Anything else: what is wrong.
    Invalid(String),
}

/// What skillpkg takes from a manifest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Read {
    /// The plugin's name.
    pub name: Option<String>,
    /// Its version.
    pub version: Option<String>,
    /// The skill folders it names (Claude Code and Codex), as written.
    pub skills: Vec<String>,
    /// Whether it declares MCP servers inline (Claude Code and Codex).
    pub mcp_servers: bool,
    /// What is reported and ignored.
    pub warnings: Vec<String>,
}

/// Reads an Agent Plugins manifest (`plugin.json`).
pub(crate) fn agent_plugin(bytes: &[u8]) -> Result<Read, Refusal> {
    let invalid = |why: String| Refusal::Invalid(why);
    let Value::Object(fields) = parse(bytes).map_err(invalid)? else {
        return Err(invalid("it is not a JSON object".into()));
    };
    match fields.get("$schema") {
        None => return Err(invalid("it has no \"$schema\"".into())),
        Some(Value::String(schema)) if schema == SCHEMA_1_0_0 => {}
        Some(Value::String(schema)) => return Err(Refusal::UnknownSchema(schema.clone())),
        Some(_) => return Err(invalid("its \"$schema\" is not a string".into())),
    }
    let name = match fields.get("name") {
        None => return Err(invalid("it has no \"name\"".into())),
        Some(Value::String(name)) => {
            check_name(name).map_err(|why| invalid(format!("its name {name:?} {why}")))?;
            name.clone()
        }
        Some(_) => return Err(invalid("its \"name\" is not a string".into())),
    };
    let mut read = Read {
        name: Some(name),
        ..Read::default()
    };
    for (field, value) in &fields {
        let ok = match field.as_str() {
            "$schema" | "name" => true,
            "version" | "description" | "homepage" | "repository" | "license" => value.is_string(),
            "keywords" => value
                .as_array()
                .is_some_and(|words| words.iter().all(Value::is_string)),
            "author" => value.as_object().is_some_and(|author| {
                author.iter().all(|(key, value)| {
                    matches!(key.as_str(), "name" | "email" | "url") && value.is_string()
                })
            }),
            "extensions" => match value.as_object() {
                // §8.1: reported and ignored.
                None => {
                    read.warnings
                        .push("has an \"extensions\" that is not an object, ignored".to_string());
                    true
                }
                Some(namespaces) => namespaces.values().all(Value::is_object),
            },
            _ => true,
        };
        if !ok {
            return Err(invalid(format!("its {field:?} {}", expected(field))));
        }
    }
    let unknown: Vec<&String> = fields
        .keys()
        .filter(|key| !FIELDS.contains(&key.as_str()))
        .collect();
    if !unknown.is_empty() {
        read.warnings.push(format!(
            "holds {} the Agent Plugins 1.0.0 manifest does not define, ignored: {}",
            if unknown.len() == 1 {
                "a field"
            } else {
                "fields"
            },
            listed(&unknown, 10)
        ));
    }
    read.version = fields
        .get("version")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(read)
}

/// What a field of the closed set must hold.
fn expected(field: &str) -> &'static str {
    match field {
        "keywords" => "is not a list of strings",
        "author" => "is not an object of \"name\", \"email\" and \"url\" strings",
        "extensions" => "holds a namespace whose value is not an object",
        _ => "is not a string",
    }
}

/// Reads a Claude Code or Codex manifest: an object whose `name` and
/// `version`, when given, are strings, and whose `skills` is a path or a
/// list of paths. Other fields are theirs, and not checked.
pub(crate) fn client_plugin(bytes: &[u8]) -> Result<Read, Refusal> {
    let invalid = |why: String| Refusal::Invalid(why);
    let Value::Object(fields) = parse(bytes).map_err(invalid)? else {
        return Err(invalid("it is not a JSON object".into()));
    };
    let string = |field: &str| match fields.get(field) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(invalid(format!("its {field:?} is not a string"))),
    };
    let skills = match fields.get("skills") {
        None => Vec::new(),
        Some(Value::String(path)) => vec![path.clone()],
        Some(Value::Array(paths)) if paths.iter().all(Value::is_string) => paths
            .iter()
            .filter_map(|p| p.as_str().map(str::to_string))
            .collect(),
        Some(_) => {
            return Err(invalid(
                "its \"skills\" is neither a path nor a list of paths".into(),
            ));
        }
    };
    Ok(Read {
        name: string("name")?,
        version: string("version")?,
        skills,
        mcp_servers: fields.contains_key("mcpServers"),
        warnings: Vec::new(),
    })
}

/// Whether `name` follows the plugin naming rules of §5.5: 1 to 64 of
/// `a-z`, `0-9`, `-` and `.`, starting and ending with a letter or digit,
/// without `--` or `..`; else what is wrong.
pub(crate) fn check_name(name: &str) -> Result<(), &'static str> {
    let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    if name.is_empty() || name.chars().count() > 64 {
        return Err("is not 1 to 64 characters long");
    }
    if !name.chars().all(|c| alnum(c) || c == '-' || c == '.') {
        return Err("holds characters other than a-z, 0-9, '-' and '.'");
    }
    if !name.starts_with(alnum) || !name.ends_with(alnum) {
        return Err("does not start and end with a letter or digit");
    }
    if name.contains("--") || name.contains("..") {
        return Err("holds '--' or '..'");
    }
    Ok(())
}

/// Up to `most` of `items`, quoted, then how many more there are.
fn listed(items: &[&String], most: usize) -> String {
    let mut text: Vec<String> = items.iter().take(most).map(|i| format!("{i:?}")).collect();
    if items.len() > most {
        text.push(format!("and {} more", items.len() - most));
    }
    text.join(", ")
}

/// `bytes` as JSON, a key twice in one object refused.
fn parse(bytes: &[u8]) -> Result<Value, String> {
    if bytes.len() > MAX_MANIFEST {
        return Err(format!("it is larger than {MAX_MANIFEST} bytes"));
    }
    serde_json::from_slice::<Strict>(bytes)
        .map(|strict| strict.0)
        .map_err(|e| format!("it is not valid JSON: {e}"))
}

/// A JSON value read with every object's keys checked for repeats.
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Strict, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            let Strict(value) = map.next_value()?;
            if fields.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key {key:?} is given twice"
                )));
            }
            fields.insert(key, value);
        }
        Ok(Value::Object(fields.into_iter().collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(extra: &str) -> String {
        format!(r#"{{"$schema": "{SCHEMA_1_0_0}", "name": "acme.tools"{extra}}}"#)
    }

    #[test]
    fn the_spec_examples_are_read() {
        let full = manifest(
            r#", "version": "1.2.0", "description": "d",
            "author": {"name": "A", "email": "a@example.com", "url": "https://example.com"},
            "homepage": "h", "repository": "r", "license": "MIT", "keywords": ["a", "b"],
            "extensions": {"com.example.client": {"setting": true}}"#,
        );
        let read = agent_plugin(full.as_bytes()).unwrap();
        assert_eq!(read.name.as_deref(), Some("acme.tools"));
        assert_eq!(read.version.as_deref(), Some("1.2.0"));
        assert!(read.warnings.is_empty());
        // Not semver, not a URL: types are all that is checked (§5.4).
        let loose = manifest(r#", "version": "next", "homepage": "not a url""#);
        assert!(agent_plugin(loose.as_bytes()).unwrap().warnings.is_empty());
    }

    #[test]
    fn schema_and_name_are_required_and_checked() {
        let refused = |text: &str| agent_plugin(text.as_bytes()).unwrap_err();
        assert_eq!(
            refused(r#"{"name": "x"}"#),
            Refusal::Invalid("it has no \"$schema\"".into())
        );
        let other = "https://agent-plugins.org/schemas/2.0.0/plugin.schema.json";
        assert_eq!(
            refused(&format!(r#"{{"$schema": "{other}", "name": "x"}}"#)),
            Refusal::UnknownSchema(other.into())
        );
        assert_eq!(
            refused(&format!(r#"{{"$schema": "{SCHEMA_1_0_0}"}}"#)),
            Refusal::Invalid("it has no \"name\"".into())
        );
        assert_eq!(
            refused("[]"),
            Refusal::Invalid("it is not a JSON object".into())
        );
        for bad in ["My-Plugin", "-start", "has--double", "too.many..dots", ""] {
            let text = format!(r#"{{"$schema": "{SCHEMA_1_0_0}", "name": "{bad}"}}"#);
            assert!(
                matches!(refused(&text), Refusal::Invalid(why) if why.starts_with("its name")),
                "{bad}"
            );
        }
        for good in ["my-plugin", "acme.tools", "lint3r", "a"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        assert!(check_name(&"a".repeat(65)).is_err());
    }

    #[test]
    fn the_closed_set_is_typed_and_unknown_fields_are_reported() {
        for (extra, field) in [
            (r#", "version": 1"#, "version"),
            (r#", "keywords": ["a", 2]"#, "keywords"),
            (r#", "author": {"name": "a", "phone": "1"}"#, "author"),
            (r#", "author": "a""#, "author"),
            (r#", "extensions": {"com.x": true}"#, "extensions"),
        ] {
            let error = agent_plugin(manifest(extra).as_bytes()).unwrap_err();
            assert!(
                matches!(&error, Refusal::Invalid(why) if why.starts_with(&format!("its {field:?}"))),
                "{extra}: {error:?}"
            );
        }
        let read = agent_plugin(manifest(r#", "skills": "./x", "hooks": {}"#).as_bytes()).unwrap();
        assert_eq!(
            read.warnings,
            [
                "holds fields the Agent Plugins 1.0.0 manifest does not define, ignored: \"hooks\", \"skills\""
            ]
        );
        let read = agent_plugin(manifest(r#", "extensions": []"#).as_bytes()).unwrap();
        assert_eq!(
            read.warnings,
            ["has an \"extensions\" that is not an object, ignored"]
        );
    }

    #[test]
    fn hostile_json_is_refused() {
        let twice = format!(r#"{{"$schema": "{SCHEMA_1_0_0}", "name": "a", "name": "b"}}"#);
        let Refusal::Invalid(why) = agent_plugin(twice.as_bytes()).unwrap_err() else {
            panic!()
        };
        assert!(why.contains("the key \"name\" is given twice"), "{why}");
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(agent_plugin(deep.as_bytes()).is_err());
        let huge = format!("{{\"x\": \"{}\"}}", "a".repeat(MAX_MANIFEST));
        assert!(agent_plugin(huge.as_bytes()).is_err());
        let many: String = (0..1000).map(|i| format!(", \"f{i}\": 1")).collect();
        let read = agent_plugin(manifest(&many).as_bytes()).unwrap();
        assert!(
            read.warnings[0].ends_with("and 990 more"),
            "{:?}",
            read.warnings
        );
    }

    #[test]
    fn client_manifests_name_their_skill_folders() {
        let read =
            client_plugin(br#"{"name": "p", "skills": "./custom", "mcpServers": {}}"#).unwrap();
        assert_eq!(read.skills, ["./custom"]);
        assert!(read.mcp_servers);
        let read = client_plugin(br#"{"skills": ["./a", "./b"], "commands": 3}"#).unwrap();
        assert_eq!(read.skills, ["./a", "./b"]);
        assert!(client_plugin(br#"{"skills": 3}"#).is_err());
        assert!(client_plugin(br#"{"name": 3}"#).is_err());
    }
}
