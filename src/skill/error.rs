//! Errors raised while reading a skill from disk.

use std::path::PathBuf;

/// A skill could not be read. Every variant names the file involved.
#[derive(Debug, thiserror::Error)]
pub enum SkillError {
    /// The file system refused a read.
    #[error("could not read {path}")]
    Io {
        /// The file or directory being read.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The directory has neither `SKILL.md` nor `skill.md`.
    #[error("{dir} has no SKILL.md")]
    MissingSkillMd {
        /// The skill directory.
        dir: PathBuf,
    },
    /// `SKILL.md` is not UTF-8.
    #[error("{path} is not valid UTF-8 (byte {offset})")]
    NotUtf8 {
        /// The SKILL.md file.
        path: PathBuf,
        /// Offset of the first invalid byte.
        offset: usize,
    },
    /// The file does not start with a `---` line.
    #[error("{path} does not start with YAML frontmatter (a first line of `---`)")]
    NoFrontmatter {
        /// The SKILL.md file.
        path: PathBuf,
    },
    /// The frontmatter has no closing `---` line.
    #[error("{path}: frontmatter is not closed with a `---` line")]
    UnclosedFrontmatter {
        /// The SKILL.md file.
        path: PathBuf,
    },
    /// The frontmatter is larger than skillpkg accepts.
    #[error("{path}: frontmatter is larger than {limit} bytes")]
    FrontmatterTooLarge {
        /// The SKILL.md file.
        path: PathBuf,
        /// The limit in bytes.
        limit: usize,
    },
    /// The frontmatter is not YAML that skillpkg accepts.
    #[error("{path}{}: invalid YAML in frontmatter: {message}", at.map(|(line, column)| format!(":{line}:{column}")).unwrap_or_default())]
    Yaml {
        /// The SKILL.md file.
        path: PathBuf,
        /// 1-based line and column in the file, when the parser gave them.
        at: Option<(usize, usize)>,
        /// The parser's message.
        message: String,
    },
    /// The frontmatter is valid YAML but not a mapping.
    #[error("{path}: frontmatter must be a YAML mapping")]
    NotMapping {
        /// The SKILL.md file.
        path: PathBuf,
    },
    /// A required field is missing, empty or not a string.
    #[error("{path}: field '{field}' must be a non-empty string")]
    RequiredField {
        /// The SKILL.md file.
        path: PathBuf,
        /// `name` or `description`.
        field: &'static str,
    },
}

impl SkillError {
    /// A short rule identifier, used in warnings and JSON output.
    pub fn rule(&self) -> &'static str {
        match self {
            SkillError::Io { .. } => "io",
            SkillError::MissingSkillMd { .. } => "skill-md-missing",
            SkillError::NotUtf8 { .. } => "encoding",
            SkillError::NoFrontmatter { .. } => "frontmatter-missing",
            SkillError::UnclosedFrontmatter { .. } => "frontmatter-unclosed",
            SkillError::FrontmatterTooLarge { .. } => "frontmatter-too-large",
            SkillError::Yaml { .. } => "yaml-invalid",
            SkillError::NotMapping { .. } => "frontmatter-not-mapping",
            SkillError::RequiredField { field: "name", .. } => "name-missing",
            SkillError::RequiredField { .. } => "description-missing",
        }
    }
}
