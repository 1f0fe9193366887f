//! Integration tests: they drive the built `skillpkg` binary.

mod archives;
mod commands;
mod common;
mod corpus;
mod differential;
mod direct;
mod eval;
mod exec;
mod git_http;
mod grants;
mod hosted;
mod http;
mod import;
mod install;
mod keys;
mod layers;
mod models;
mod publish;
mod repos;
mod roots;
mod sample_index;
mod sandbox;
mod server;
mod signatures;
mod threats;
mod validate;
