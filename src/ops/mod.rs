//! One function per user operation, composing the library's modules.
//! The CLI parses arguments, calls these, and renders what they return.

pub mod consent;
pub mod import;
pub mod init;
pub mod install;
pub mod new_skill;
pub mod outdated;
pub mod pack;
pub mod publish;
pub mod registry;
pub mod search;
pub mod skills;
pub mod trust;
pub mod verify;
pub mod yanked;
