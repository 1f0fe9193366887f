//! Everything about one skill on disk: `SKILL.md` parsing, the reference
//! validator, the lenient loader and prompt rendering.

pub mod cache;
pub(crate) mod chars;
pub mod document;
mod error;
pub(crate) mod hidden;
pub(crate) mod load;
pub(crate) mod model;
pub(crate) mod name;
pub(crate) mod prompt;
pub(crate) mod pystr;
pub(crate) mod spec;
pub(crate) mod stat;
pub mod strict_yaml;
pub(crate) mod template;
pub(crate) mod tool_pattern;
pub mod validate;
pub mod yaml;

pub use error::SkillError;
pub use load::load_skill;
pub use model::{Skill, SkillMeta};
