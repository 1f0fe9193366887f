//! Integration tests: they drive the built `skillpkg` binary.

mod commands;
mod common;
mod corpus;
mod differential;
mod roots;
mod validate;
