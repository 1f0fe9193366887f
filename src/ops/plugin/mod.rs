//! Agent Plugins: reading a plugin (Agent Plugins 1.0.0, or Claude Code's
//! and Codex's) as a source of skills, and writing the project's locked
//! skills out as an Agent Plugin (`export plugin`).

pub(crate) mod discover;
pub(crate) mod export;
pub(crate) mod manifest;
pub(crate) mod tree;

pub(crate) use discover::{Plugin, find};
