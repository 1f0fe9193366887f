//! skillpkg: a package manager for Agent Skills, with the agent built in.
//!
//! The binary is a thin wrapper around [`cli::main`]; everything is testable
//! through this library. Modules sit in layers, and each uses only the
//! layers below it (`tests/it/layers.rs` checks this; docs/architecture.md
//! explains it): utilities ([`env_vars`], [`fsutil`], [`hint`], [`dirs`],
//! [`progress`], [`parallel`], [`net`], [`sys`]) → [`skill`], one skill on
//! disk → [`credentials`], [`embedded`], [`manifest`], [`store`],
//! [`resolve`], [`project`], [`roots`], [`git`] → [`index`], [`sandbox`]
//! → [`ops`], one function per user operation, and [`agent`] → [`eval`] →
//! [`cli`], which parses arguments and renders output.
//!
//! `unsafe` is denied everywhere but in [`sys`] and the sandbox's own FFI
//! (`sandbox/sys.rs`), each block with its `SAFETY` comment.

#![deny(unsafe_code)]

pub mod agent;
#[allow(clippy::print_stdout, clippy::print_stderr)] // the one module that writes to the terminal
pub mod cli;
pub(crate) mod credential_stores;
pub(crate) mod credentials;
pub mod dirs;
pub mod embedded;
pub mod env_vars;
pub(crate) mod eval;
pub(crate) mod fsutil;
pub(crate) mod git;
pub mod hint;
pub mod index;
pub mod manifest;
pub(crate) mod mcp;
pub mod net;
pub(crate) mod oci;
pub mod ops;
pub(crate) mod parallel;
pub(crate) mod process;
pub(crate) mod progress;
pub(crate) mod project;
pub(crate) mod resolve;
pub(crate) mod roots;
pub(crate) mod sandbox;
pub(crate) mod scan;
pub mod skill;
pub mod store;
#[allow(unsafe_code)]
pub(crate) mod sys;
pub(crate) mod time;
