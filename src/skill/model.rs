//! A skill as the loader sees it: level-1 metadata plus where it lives.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use super::spec::MAX_DESCRIPTION_LENGTH;

/// The most of a `SKILL.md` that activating a skill reads.
pub(crate) const MAX_INSTRUCTIONS: usize = 512 * 1024;

/// The frontmatter of a loaded skill.
#[derive(Debug, Clone, Serialize)]
pub struct SkillMeta {
    /// The skill's name (stripped, NFKC-normalised).
    pub name: String,
    /// What the skill does and when to use it, in full.
    pub description: String,
    /// `license`, if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// `compatibility`, if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compatibility: Option<String>,
    /// `allowed-tools`, split into tool patterns.
    #[serde(rename = "allowed-tools", skip_serializing_if = "Vec::is_empty")]
    pub allowed_tools: Vec<String>,
    /// `metadata`, every value rendered as a string.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, String>,
    /// Every other top-level field (client-specific ones such as
    /// `disable-model-invocation`, `user-invocable`, `argument-hint`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: BTreeMap<String, serde_json::Value>,
}

impl SkillMeta {
    /// The description as a catalog shows it: at most 1024 characters.
    pub fn catalog_description(&self) -> &str {
        match self.description.char_indices().nth(MAX_DESCRIPTION_LENGTH) {
            Some((cut, _)) => &self.description[..cut],
            None => &self.description,
        }
    }

    fn flag(&self, field: &str) -> Option<bool> {
        match self.extra.get(field)? {
            serde_json::Value::Bool(b) => Some(*b),
            serde_json::Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" => Some(true),
                "false" | "no" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }

    /// `disable-model-invocation: true`: only the user may invoke it (`/name`).
    pub fn disable_model_invocation(&self) -> bool {
        self.flag("disable-model-invocation").unwrap_or(false)
    }

    /// `user-invocable: false` hides it from `/name` invocation.
    pub fn user_invocable(&self) -> bool {
        self.flag("user-invocable").unwrap_or(true)
    }
}

/// A skill found on disk. Only its frontmatter has been read.
#[derive(Debug, Clone, Serialize)]
pub struct Skill {
    /// The frontmatter.
    #[serde(flatten)]
    pub meta: SkillMeta,
    /// The skill directory.
    pub dir: PathBuf,
    /// Its `SKILL.md` (or `skill.md`).
    pub skill_md: PathBuf,
    /// Rule breaks the lenient loader accepted, one line each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Any user on this machine may change its folder or `SKILL.md`: its
    /// `allowed-tools` pre-approve nothing.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub world_writable: bool,
    /// Whether `agents/openai.yaml` lets a model activate it, read once
    /// when first asked.
    #[serde(skip)]
    pub(crate) codex_implicit: std::sync::OnceLock<bool>,
    /// Where it was taken from when not from a root: `mcp:<server>` for a
    /// skill an MCP server serves (`exec --mcp-skills`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
}

impl Skill {
    /// Level 2: the body of `SKILL.md` (frontmatter stripped), with
    /// `{baseDir}` and `${SKILL_DIR}` replaced by the skill's directory.
    ///
    /// At most [`MAX_INSTRUCTIONS`] bytes of `SKILL.md` are read; a longer
    /// one is cut there, with a note saying so.
    pub fn read_instructions(&self) -> Result<String, super::SkillError> {
        use std::io::Read as _;
        let io = |source| super::SkillError::Io {
            path: self.skill_md.clone(),
            source,
        };
        let file = std::fs::File::open(&self.skill_md).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        let mut bytes = Vec::new();
        file.take(MAX_INSTRUCTIONS as u64)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        let cut = size > MAX_INSTRUCTIONS as u64;
        if cut {
            // A character split by the cut is dropped, not an encoding error.
            let valid = match std::str::from_utf8(&bytes) {
                Ok(_) => bytes.len(),
                Err(e) => e.valid_up_to(),
            };
            bytes.truncate(valid);
        }
        let text = String::from_utf8(bytes).map_err(|e| super::SkillError::NotUtf8 {
            path: self.skill_md.clone(),
            offset: e.utf8_error().valid_up_to(),
        })?;
        let body = super::document::body_of(&text).ok_or_else(|| {
            super::SkillError::UnclosedFrontmatter {
                path: self.skill_md.clone(),
            }
        })?;
        let mut body = resolve_base_dir(body, &self.dir);
        if cut {
            body.push_str(&format!(
                "\n\n[cut: SKILL.md has {size} bytes; only the first {MAX_INSTRUCTIONS} are shown]"
            ));
        }
        Ok(body)
    }
}

impl Skill {
    /// A skill with just a name and a description, in `/skills/<name>`,
    /// for tests.
    #[cfg(test)]
    pub(crate) fn sample(name: &str, description: &str) -> Skill {
        Skill {
            meta: SkillMeta {
                name: name.into(),
                description: description.into(),
                license: None,
                compatibility: None,
                allowed_tools: Vec::new(),
                metadata: Default::default(),
                extra: Default::default(),
            },
            dir: format!("/skills/{name}").into(),
            skill_md: format!("/skills/{name}/SKILL.md").into(),
            warnings: Vec::new(),
            world_writable: false,
            origin: None,
            codex_implicit: Default::default(),
        }
    }

    /// The tools the skill's `allowed-tools` may pre-approve: none when
    /// anyone on the machine could have written them.
    pub fn grantable_tools(&self) -> &[String] {
        match self.world_writable {
            true => &[],
            false => &self.meta.allowed_tools,
        }
    }

    /// Whether a model may activate the skill on its own: not with
    /// `disable-model-invocation: true`, nor when Codex's
    /// `agents/openai.yaml` says `policy: {allow_implicit_invocation: false}`
    /// (read the first time this is asked).
    pub fn model_invocable(&self) -> bool {
        !self.meta.disable_model_invocation()
            && *self
                .codex_implicit
                .get_or_init(|| codex_allows_implicit(&self.dir))
    }
}

/// `policy.allow_implicit_invocation` of `<dir>/agents/openai.yaml`; true
/// when the file or the field is absent or unreadable.
fn codex_allows_implicit(dir: &std::path::Path) -> bool {
    let Ok(text) = std::fs::read_to_string(dir.join("agents").join("openai.yaml")) else {
        return true;
    };
    match super::yaml::parse_yaml(&text) {
        Ok(value) => value["policy"]["allow_implicit_invocation"].as_bool() != Some(false),
        Err(_) => true,
    }
}

/// Replaces `{baseDir}` and `${SKILL_DIR}` with the skill directory.
pub(crate) fn resolve_base_dir(text: &str, dir: &std::path::Path) -> String {
    let dir = dir.to_string_lossy();
    text.replace("${SKILL_DIR}", &dir)
        .replace("{baseDir}", &dir)
}

/// Splits an `allowed-tools` value into patterns. Accepts a space- or
/// comma-separated string (spaces inside parentheses, as in
/// `Bash(git add:*)`, are kept) or a list.
pub(crate) fn split_allowed_tools(value: &serde_json::Value) -> Vec<String> {
    match value {
        serde_json::Value::String(s) => split_tool_string(s),
        serde_json::Value::Array(items) => items
            .iter()
            .filter_map(|v| v.as_str())
            .flat_map(split_tool_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// Splits one `allowed-tools` string into patterns: at spaces and commas
/// outside parentheses.
pub(crate) fn split_tool_string(s: &str) -> Vec<String> {
    let mut tools = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 && (c.is_whitespace() || c == ',') {
            if !current.is_empty() {
                tools.push(std::mem::take(&mut current));
            }
        } else {
            current.push(c);
        }
    }
    if !current.is_empty() {
        tools.push(current);
    }
    tools
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowed_tools_split_outside_parentheses() {
        let v = serde_json::json!("Bash(git add:*) Read, Write");
        assert_eq!(
            split_allowed_tools(&v),
            ["Bash(git add:*)", "Read", "Write"]
        );
        let v = serde_json::json!(["Read", "Bash(ls:*)"]);
        assert_eq!(split_allowed_tools(&v), ["Read", "Bash(ls:*)"]);
    }

    #[test]
    fn base_dir_placeholders_resolve() {
        let out = resolve_base_dir(
            "run {baseDir}/scripts/a.sh or ${SKILL_DIR}/b",
            std::path::Path::new("/s/x"),
        );
        assert_eq!(out, "run /s/x/scripts/a.sh or /s/x/b");
    }
}
