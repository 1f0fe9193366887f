//! Everything about one skill on disk: `SKILL.md` parsing, the reference
//! validator, the lenient loader and prompt rendering.

pub mod cache;
pub mod chars;
pub mod document;
mod error;
pub mod hidden;
pub mod load;
pub mod model;
pub mod name;
pub mod prompt;
pub mod pystr;
pub mod spec;
pub mod stat;
pub mod strict_yaml;
pub mod template;
pub mod tool_pattern;
pub mod validate;
pub mod yaml;

pub use error::SkillError;
pub use load::load_skill;
pub use model::{Skill, SkillMeta};
