//! One function per user operation, composing the library's modules.
//! The CLI parses arguments, calls these, and renders what they return.

pub(crate) mod bare_url;
pub mod consent;
pub(crate) mod doctor;
pub(crate) mod edit;
pub(crate) mod enable;
pub mod import;
pub mod index_policy;
pub(crate) mod init;
pub(crate) mod install;
pub(crate) mod keys;
pub mod mirror;
pub(crate) mod new_skill;
pub(crate) mod outdated;
pub mod pack;
pub(crate) mod plugin;
pub mod promote;
pub(crate) mod provenance;
pub mod publish;
pub(crate) mod registry;
pub(crate) mod sbom;
pub(crate) mod search;
pub(crate) mod skills;
pub(crate) mod sources;
pub(crate) mod verify;
pub(crate) mod waivers;
pub(crate) mod yanked;
