//! skillpkg: a package manager for Agent Skills, with the agent built in.
//!
//! The binary is a thin wrapper around [`cli::main`]; everything is testable
//! through this library. Modules follow the design's map: [`skill`] is the
//! leaf (one skill on disk), [`roots`] layers project > user > builtin,
//! [`ops`] holds one function per user operation, and [`cli`] parses
//! arguments and renders output.

pub mod agent;
pub mod cli;
pub mod dirs;
pub mod embedded;
pub mod env_vars;
pub mod fsutil;
pub mod index;
pub mod manifest;
pub mod ops;
pub mod resolve;
pub mod roots;
pub mod skill;
pub mod store;
