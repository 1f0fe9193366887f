//! `skillpkg validate`: the verdict of the specification's reference
//! validator (skills-ref 0.1.1), rule by rule, plus optional author warnings.

use std::path::{Path, PathBuf};

use serde::Serialize;

mod lint;
mod problem;

pub use problem::{Parsed, Problem, Severity};

use super::document::find_skill_md;
use super::name::{check_name, normalize_name};
use super::pystr;
use super::spec::{ALLOWED_FIELDS, MAX_COMPATIBILITY_LENGTH, MAX_DESCRIPTION_LENGTH};
use super::strict_yaml::{self, StrictValue};

/// The verdict on one skill directory.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The skill directory as given (a `SKILL.md` path is turned into its directory).
    pub path: PathBuf,
    /// True when no problem is an error.
    pub valid: bool,
    /// Every problem, errors first in the reference's order, then warnings.
    pub problems: Vec<Problem>,
}

/// Options for [`validate`].
#[derive(Debug, Clone, Copy, Default)]
pub struct ValidateOptions {
    /// Add author warnings beyond the reference rules.
    pub strict: bool,
}

/// Validates one skill directory (or a path to its `SKILL.md`).
pub fn validate(path: &Path, options: ValidateOptions) -> Report {
    let dir = skill_dir_of(path);
    let mut problems = Vec::new();
    let parsed = check(&dir, &mut problems);
    if options.strict
        && let Some(parsed) = &parsed
    {
        lint::lint(&dir, parsed, &mut problems);
    }
    Report {
        valid: problems.iter().all(|p| p.severity == Severity::Warning),
        path: dir,
        problems,
    }
}

fn skill_dir_of(path: &Path) -> PathBuf {
    let is_skill_md = path.is_file()
        && path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.eq_ignore_ascii_case("skill.md"));
    if is_skill_md {
        match path.parent() {
            Some(parent) if parent.as_os_str().is_empty() => PathBuf::from("."),
            Some(parent) => parent.to_path_buf(),
            None => path.to_path_buf(),
        }
    } else {
        path.to_path_buf()
    }
}

fn error(file: &Path, rule: &'static str, message: impl Into<String>) -> Problem {
    Problem {
        file: file.to_path_buf(),
        line: None,
        column: None,
        rule,
        severity: Severity::Error,
        message: message.into(),
    }
}

fn check(dir: &Path, problems: &mut Vec<Problem>) -> Option<Parsed> {
    if !dir.exists() {
        problems.push(error(
            dir,
            "path-missing",
            format!("Path does not exist: {}", dir.display()),
        ));
        return None;
    }
    if !dir.is_dir() {
        problems.push(error(
            dir,
            "not-a-directory",
            format!("Not a directory: {}", dir.display()),
        ));
        return None;
    }
    let Some(skill_md) = find_skill_md(dir) else {
        problems.push(error(
            dir,
            "skill-md-missing",
            "Missing required file: SKILL.md",
        ));
        return None;
    };
    let bytes = match std::fs::read(&skill_md) {
        Ok(bytes) => bytes,
        Err(e) => {
            problems.push(error(
                &skill_md,
                "io",
                format!("Could not read SKILL.md: {e}"),
            ));
            return None;
        }
    };
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            problems.push(error(
                &skill_md,
                "encoding",
                format!("SKILL.md is not valid UTF-8 (byte {offset})"),
            ));
            return None;
        }
    };
    let text = pystr::universal_newlines(&text);

    // skills-ref: content.startswith("---"), then content.split("---", 2).
    if !text.starts_with("---") {
        problems.push(error(
            &skill_md,
            "frontmatter-missing",
            "SKILL.md must start with YAML frontmatter (---)",
        ));
        return None;
    }
    let Some(close) = text[3..].find("---").map(|i| i + 3) else {
        problems.push(error(
            &skill_md,
            "frontmatter-unclosed",
            "SKILL.md frontmatter not properly closed with ---",
        ));
        return None;
    };
    let yaml = &text[3..close];
    let frontmatter = match strict_yaml::parse(yaml) {
        Ok(value) => value,
        Err(e) => {
            let mut problem = error(
                &skill_md,
                "yaml-invalid",
                format!("Invalid YAML in frontmatter: {}", e.message),
            );
            problem.line = e.line;
            // The YAML starts after the opening `---`, on the file's first line.
            problem.column = e.column.map(|c| if e.line == Some(1) { c + 3 } else { c });
            problems.push(problem);
            return None;
        }
    };
    let StrictValue::Map(fields) = &frontmatter else {
        problems.push(error(
            &skill_md,
            "frontmatter-not-mapping",
            "SKILL.md frontmatter must be a YAML mapping",
        ));
        return None;
    };

    check_fields(&frontmatter, fields, dir, &skill_md, problems);

    let body = text[close + 3..].to_string();
    Some(Parsed {
        skill_md,
        frontmatter,
        body,
        // The frontmatter's lines are the file's: it starts on line 1,
        // right after the opening `---`.
        description_line: yaml
            .lines()
            .position(|line| line.starts_with("description:"))
            .map(|i| i + 1),
        body_line: text[..close].matches('\n').count() + 1,
    })
}

/// A string value that is not blank (Python: `isinstance(v, str) and v.strip()`).
/// The reference's field rules: no unknown field, a valid name, a
/// description and compatibility within their limits.
fn check_fields(
    frontmatter: &StrictValue,
    fields: &[(String, StrictValue)],
    dir: &Path,
    skill_md: &Path,
    problems: &mut Vec<Problem>,
) {
    let mut unknown: Vec<&str> = fields
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !ALLOWED_FIELDS.contains(k))
        .collect();
    if !unknown.is_empty() {
        unknown.sort_unstable();
        let allowed = ALLOWED_FIELDS.map(|f| format!("'{f}'")).join(", ");
        problems.push(error(
            skill_md,
            "unknown-field",
            format!(
                "Unexpected fields in frontmatter: {}. Only [{allowed}] are allowed.",
                unknown.join(", ")
            ),
        ));
    }

    match frontmatter.get("name") {
        None => problems.push(error(
            skill_md,
            "name-missing",
            "Missing required field in frontmatter: name",
        )),
        Some(value) => check_name_field(value, dir, skill_md, problems),
    }
    match frontmatter.get("description") {
        None => problems.push(error(
            skill_md,
            "description-missing",
            "Missing required field in frontmatter: description",
        )),
        Some(value) => match non_blank(value) {
            None => problems.push(error(
                skill_md,
                "description-missing",
                "Field 'description' must be a non-empty string",
            )),
            Some(description) => {
                let len = pystr::len(description);
                if len > MAX_DESCRIPTION_LENGTH {
                    problems.push(error(
                        skill_md,
                        "description-length",
                        format!("Description exceeds {MAX_DESCRIPTION_LENGTH} character limit ({len} chars)"),
                    ));
                }
            }
        },
    }
    if let Some(value) = frontmatter.get("compatibility") {
        match value.as_str() {
            None => problems.push(error(
                skill_md,
                "compatibility-type",
                "Field 'compatibility' must be a string",
            )),
            Some(compatibility) => {
                let len = pystr::len(compatibility);
                if len > MAX_COMPATIBILITY_LENGTH {
                    problems.push(error(
                        skill_md,
                        "compatibility-length",
                        format!("Compatibility exceeds {MAX_COMPATIBILITY_LENGTH} character limit ({len} chars)"),
                    ));
                }
            }
        }
    }
}

fn non_blank(value: &StrictValue) -> Option<&str> {
    value.as_str().filter(|s| !pystr::strip(s).is_empty())
}

fn check_name_field(value: &StrictValue, dir: &Path, skill_md: &Path, problems: &mut Vec<Problem>) {
    let Some(raw) = non_blank(value) else {
        problems.push(error(
            skill_md,
            "name-missing",
            "Field 'name' must be a non-empty string",
        ));
        return;
    };
    let name = normalize_name(raw);
    for problem in check_name(&name) {
        problems.push(error(skill_md, problem.rule(), problem.message(&name)));
    }
    let dir_name = directory_name(dir);
    if pystr::nfkc(&dir_name) != name {
        problems.push(error(
            skill_md,
            "name-directory-mismatch",
            format!("Directory name '{dir_name}' must match skill name '{name}'"),
        ));
    }
}

/// The directory's own name. `.` and `..` (which have none as written) are
/// resolved first, so `skillpkg validate .` works inside a skill.
pub(crate) fn directory_name(dir: &Path) -> String {
    let named = match dir.file_name() {
        Some(name) => return name.to_string_lossy().into_owned(),
        None => dir.canonicalize().ok(),
    };
    named
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default()
}
