//! The lenient loader behind `list`, `show`, `prompt` and `exec`.
//!
//! Real agents accept any standard YAML and load a skill whenever it has a
//! name and a description, so this loader does too: other rule breaks load
//! with one warning each. Only the frontmatter is read (level 1).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::cache::FrontmatterCache;
use super::document::{SKILL_FILE_NAMES, open_skill_md, read_frontmatter_from};
use super::model::{Skill, SkillMeta, split_allowed_tools};
use super::name::{check_name, normalize_name};
use super::spec::{ALLOWED_FIELDS, MAX_COMPATIBILITY_LENGTH, MAX_DESCRIPTION_LENGTH};
use super::stat::FileStat;
use super::tool_pattern::{self, UNSAFE_PATTERN_RULE};
use super::validate::directory_name;
use super::yaml::parse_yaml;
use super::{SkillError, pystr};

/// Fields that agents other than the specification define; they are kept
/// for the agent and load without a warning.
pub(crate) const CLIENT_FIELDS: [&str; 9] = [
    "agent",
    "argument-hint",
    "arguments",
    "context",
    "disable-model-invocation",
    "hooks",
    "model",
    "user-invocable",
    "when_to_use",
];

/// The rule of the warning a world-writable skill gets: a security
/// warning, which is always shown.
pub(crate) const WORLD_WRITABLE: &str = "world-writable";

/// Whether anyone may write what `stat` describes (its mode has the
/// other-write bit).
fn is_world_writable(stat: Option<&FileStat>) -> bool {
    stat.is_some_and(FileStat::world_writable)
}

/// Whether `warning`, one of a [`Skill`]'s, speaks of the user's safety
/// (anyone may change the skill; a grant it asks for was dropped): such a
/// warning is always shown, not only with `-v`.
pub(crate) fn is_security_warning(warning: &str) -> bool {
    [WORLD_WRITABLE, UNSAFE_PATTERN_RULE].iter().any(|rule| {
        warning
            .strip_prefix(rule)
            .is_some_and(|rest| rest.starts_with(':'))
    })
}

/// The patterns of an `allowed-tools` value, without those that could
/// disguise what an approval prompt shows (a line break, a control
/// character, a bidirectional mark): each of those is dropped, with a
/// warning naming [`UNSAFE_PATTERN_RULE`], and pre-approves nothing.
fn safe_allowed_tools(value: Option<&Value>, warnings: &mut Vec<String>) -> Vec<String> {
    let (kept, dropped): (Vec<String>, Vec<String>) = value
        .map(split_allowed_tools)
        .unwrap_or_default()
        .into_iter()
        .partition(|pattern| !tool_pattern::is_unsafe(pattern));
    for pattern in dropped {
        warnings.push(format!(
            "{UNSAFE_PATTERN_RULE}: {}; it is dropped, and pre-approves nothing",
            tool_pattern::describe_unsafe(&pattern)
        ));
    }
    kept
}

/// Renders a scalar the way it was probably meant: strings as they are,
/// numbers and booleans in their YAML spelling.
fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Loads a skill's metadata from `dir` without reading its body.
pub fn load_skill(dir: &Path) -> Result<Skill, SkillError> {
    load_skill_in(dir, FileStat::of_path(dir).ok().as_ref(), None, None)
}

/// [`load_skill`] of `dir`, whose metadata (symlinks followed) the caller
/// has already read: discovery looks at every folder of a root anyway.
/// With a `cache`, frontmatter it holds for the file as it is now is not
/// read again, and frontmatter parsed is added to it. `root`, when given,
/// is the open folder `dir` is a child of: `SKILL.md` is stat'ed relative
/// to it.
pub(crate) fn load_skill_in(
    dir: &Path,
    dir_stat: Option<&FileStat>,
    cache: Option<&FrontmatterCache>,
    root: Option<&std::fs::File>,
) -> Result<Skill, SkillError> {
    if let Some(cache) = cache
        && let Some((skill_md, stat)) = locate_skill_md(dir, root)
        && let Some(fields) = cache.get(&skill_md, &stat)
    {
        return skill_from(dir, dir_stat, skill_md, Some(&stat), &fields);
    }
    let (skill_md, file) = open_skill_md(dir)?.ok_or_else(|| SkillError::MissingSkillMd {
        dir: dir.to_path_buf(),
    })?;
    let file_stat = file.metadata().ok().map(|m| FileStat::of(&m));
    let frontmatter = read_frontmatter_from(file, &skill_md)?;
    let value = parse_yaml(&frontmatter.yaml).map_err(|e| SkillError::Yaml {
        path: skill_md.clone(),
        at: e
            .at
            .map(|(line, column)| (line + frontmatter.first_line - 1, column)),
        message: e.message,
    })?;
    let Value::Object(fields) = value else {
        return Err(SkillError::NotMapping { path: skill_md });
    };
    if let (Some(cache), Some(stat)) = (cache, &file_stat) {
        cache.put(&skill_md, stat, &fields);
    }
    skill_from(dir, dir_stat, skill_md, file_stat.as_ref(), &fields)
}

/// The SKILL.md [`find_skill_md`](super::document::find_skill_md)
/// finds, with its stat: taken relative to `root`, the open folder `dir`
/// is in, when given.
fn locate_skill_md(
    dir: &Path,
    root: Option<&std::fs::File>,
) -> Option<(std::path::PathBuf, FileStat)> {
    SKILL_FILE_NAMES.iter().find_map(|name| {
        let path = dir.join(name);
        let stat = match (root, dir.file_name()) {
            #[cfg(unix)]
            (Some(root), Some(folder)) => FileStat::at(root, &Path::new(folder).join(name)),
            _ => FileStat::of_path(&path),
        };
        stat.ok().map(|stat| (path, stat))
    })
}

/// The skill in `dir` whose SKILL.md's frontmatter holds `fields`.
fn skill_from(
    dir: &Path,
    dir_metadata: Option<&FileStat>,
    skill_md: std::path::PathBuf,
    file_metadata: Option<&FileStat>,
    fields: &serde_json::Map<String, Value>,
) -> Result<Skill, SkillError> {
    let required = |field: &'static str| {
        fields
            .get(field)
            .and_then(scalar_text)
            .map(|s| pystr::strip(&s).to_string())
            .filter(|s| !s.is_empty())
            .ok_or_else(|| SkillError::RequiredField {
                path: skill_md.clone(),
                field,
            })
    };
    let name = normalize_name(&required("name")?);
    let description = required("description")?;

    let mut warnings = Vec::new();
    for problem in check_name(&name) {
        warnings.push(format!("{}: {}", problem.rule(), problem.message(&name)));
    }
    let dir_name = directory_name(dir);
    if pystr::nfkc(&dir_name) != name {
        warnings.push(format!(
            "name-directory-mismatch: Directory name '{dir_name}' must match skill name '{name}'"
        ));
    }
    let description_len = pystr::len(&description);
    if description_len > MAX_DESCRIPTION_LENGTH {
        warnings.push(format!(
            "description-length: Description exceeds {MAX_DESCRIPTION_LENGTH} character limit ({description_len} chars); the catalog shows the first {MAX_DESCRIPTION_LENGTH}"
        ));
    }
    let compatibility = fields.get("compatibility").and_then(scalar_text);
    if let Some(len) = compatibility.as_deref().map(pystr::len)
        && len > MAX_COMPATIBILITY_LENGTH
    {
        warnings.push(format!(
            "compatibility-length: Compatibility exceeds {MAX_COMPATIBILITY_LENGTH} character limit ({len} chars)"
        ));
    }

    let mut extra = BTreeMap::new();
    for (key, value) in fields {
        if ALLOWED_FIELDS.contains(&key.as_str()) {
            continue;
        }
        if !CLIENT_FIELDS.contains(&key.as_str()) {
            warnings.push(format!(
                "unknown-field: Unexpected field in frontmatter: {key}"
            ));
        }
        extra.insert(key.clone(), value.clone());
    }
    let metadata = match fields.get("metadata") {
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| (k.clone(), scalar_text(v).unwrap_or_else(|| v.to_string())))
            .collect(),
        _ => BTreeMap::new(),
    };

    let allowed_tools = safe_allowed_tools(fields.get("allowed-tools"), &mut warnings);
    let world_writable = [(dir, dir_metadata), (skill_md.as_path(), file_metadata)]
        .into_iter()
        .find(|(_, metadata)| is_world_writable(*metadata))
        .map(|(path, _)| path);
    if let Some(path) = world_writable {
        warnings.push(format!(
            "{WORLD_WRITABLE}: any user on this machine can change {}; its allowed-tools pre-approve nothing",
            path.display()
        ));
    }
    Ok(Skill {
        world_writable: world_writable.is_some(),
        origin: None,
        codex_implicit: Default::default(),
        meta: SkillMeta {
            name,
            description,
            license: fields.get("license").and_then(scalar_text),
            compatibility,
            allowed_tools,
            metadata,
            extra,
        },
        dir: dir.to_path_buf(),
        skill_md,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_body_is_cut_when_read() {
        let max = crate::skill::model::MAX_INSTRUCTIONS;
        let dir = tempfile::tempdir().unwrap();
        let skill_dir = dir.path().join("big");
        std::fs::create_dir_all(&skill_dir).unwrap();
        let body = "é".repeat(max); // two bytes each
        std::fs::write(
            skill_dir.join("SKILL.md"),
            format!("---\nname: big\ndescription: Big. Use when testing.\n---\n{body}"),
        )
        .unwrap();
        let skill = load_skill(&skill_dir).unwrap();
        let read = skill.read_instructions().unwrap();
        assert!(read.len() < max + 200, "{}", read.len());
        assert!(read.ends_with(&format!("only the first {max} are shown]")));
    }

    #[test]
    fn a_skill_loaded_from_the_cache_is_the_skill_loaded_from_its_file() {
        use super::super::cache::FrontmatterCache;
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("Wrong-Dir");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            "---\nname: a-skill\ndescription: Cached. Use when testing.\nallowed-tools: Bash(git:*) Read\nx-extra: [1, 2]\nmetadata:\n  author: me\n---\nBody.\n",
        )
        .unwrap();
        let settled = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
        let load = || {
            let cache = FrontmatterCache::open_settled(temp.path(), settled);
            let skill = load_skill_in(
                &dir,
                FileStat::of_path(&dir).ok().as_ref(),
                Some(&cache),
                None,
            );
            cache.save().unwrap();
            serde_json::to_value(skill.unwrap()).unwrap()
        };
        let parsed = load();
        assert!(temp.path().join(super::super::cache::FILE_NAME).exists());
        assert_eq!(load(), parsed);
        assert_eq!(
            parsed,
            serde_json::to_value(load_skill(&dir).unwrap()).unwrap()
        );
        assert_eq!(parsed["warnings"].as_array().unwrap().len(), 2, "{parsed}");
    }

    #[test]
    fn a_tool_pattern_that_could_disguise_a_prompt_is_dropped_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let skill_dir = dir.path().join("spoof");
        std::fs::create_dir_all(&skill_dir).unwrap();
        std::fs::write(
            skill_dir.join("SKILL.md"),
            "---\nname: spoof\ndescription: Spoofs. Use when testing.\nallowed-tools: \"Bash(git:*) Read(README.md\\n\\n) Read(a\\u2028b) Write(\\u202e)\"\n---\n",
        )
        .unwrap();
        let skill = load_skill(&skill_dir).unwrap();
        assert_eq!(skill.meta.allowed_tools, ["Bash(git:*)"]);
        let dropped: Vec<&String> = skill
            .warnings
            .iter()
            .filter(|w| w.starts_with("allowed-tools-unsafe-chars: allowed-tools pattern '"))
            .collect();
        assert_eq!(dropped.len(), 3, "{:?}", skill.warnings);
        assert!(dropped.iter().all(|w| is_security_warning(w)));
        assert!(
            dropped[0].contains("'Read(README.md\\u{a}\\u{a})'"),
            "{}",
            dropped[0]
        );
        assert!(!dropped.iter().any(|w| w.contains('\n')));
    }

    #[test]
    fn yaml_errors_report_file_lines_and_plain_messages() {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("dup");
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::write(
            skill.join("SKILL.md"),
            "---\nname: dup\nname: dup\ndescription: ok\n---\n",
        )
        .unwrap();
        let err = load_skill(&skill).unwrap_err();
        let SkillError::Yaml { at, message, .. } = &err else {
            panic!("{err}")
        };
        assert_eq!(*at, Some((3, 1)));
        assert_eq!(message, "duplicate mapping key: name");

        std::fs::write(
            skill.join("SKILL.md"),
            "---\nname: dup\ndescription: ok\nx: [open\n---\n",
        )
        .unwrap();
        let err = load_skill(&skill).unwrap_err();
        let SkillError::Yaml { at, message, .. } = &err else {
            panic!("{err}")
        };
        assert_eq!(*at, Some((4, 4)));
        assert!(!message.contains("line"), "{message}");
        // One message naming the file, line and column once.
        assert_eq!(
            err.to_string(),
            format!(
                "{}:4:4: invalid YAML in frontmatter: {message}",
                skill.join("SKILL.md").display()
            )
        );
    }
}
