//! `skillpkg new`: scaffold a skill that validates, from the template of
//! [`crate::skill::template`].

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use crate::hint::Hinted;
use crate::skill::name::{check_name, normalize_name};
use crate::skill::template;

/// Writes `<parent>/<name>/SKILL.md` from a template and returns the new directory.
pub(crate) fn new_skill(
    parent: &Path,
    name: &str,
    description: Option<&str>,
) -> anyhow::Result<PathBuf> {
    let normalized = normalize_name(name);
    if normalized.is_empty() {
        bail!("a skill name cannot be empty");
    }
    if normalized != name {
        bail!("invalid skill name '{name}': use its normalised form '{normalized}'");
    }
    if let Some(problem) = check_name(name).first() {
        bail!(
            Hinted::new(format!(
                "invalid skill name '{name}': {}",
                problem.message(name)
            ))
            .hint("names use lowercase letters, digits and single hyphens, at most 64 characters")
        );
    }
    let dir = parent.join(name);
    if dir.exists() {
        bail!(
            "{} already exists; choose another name or directory",
            dir.display()
        );
    }
    let description = description
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(str::to_string)
        .unwrap_or_else(|| template::placeholder_description(name));
    let title: String = name
        .split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ");
    let body = format!(
        "---\nname: {name}\ndescription: {}\nmetadata:\n  version: \"{}\"\n---\n\n{}",
        yaml_scalar(&description),
        template::FIRST_VERSION,
        template::body(&title)
    );
    fs_err::create_dir_all(&dir).with_context(|| format!("could not create {}", dir.display()))?;
    fs_err::write(dir.join("SKILL.md"), body)?;
    Ok(dir)
}

/// Quotes a scalar for YAML when its plain form would not survive.
fn yaml_scalar(text: &str) -> String {
    let plain_safe = !text.contains(": ")
        && !text.contains(" #")
        && !text.contains('\n')
        && !text.starts_with(|c: char| "[]{}&*!|>'\"%@`#,?:-".contains(c) || c.is_whitespace());
    if plain_safe {
        text.to_string()
    } else {
        format!(
            "\"{}\"",
            text.replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace('\n', "\\n")
        )
    }
}
