//! Integration tests: they drive the built `skillpkg` binary.

#![allow(clippy::print_stdout, clippy::print_stderr)] // tests say when they skip; benches print their tables

mod archives;
mod commands;
mod common;
mod corpus;
mod differential;
mod direct;
mod escape;
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
mod oci;
mod oci_hostile;
mod oci_index;
mod oci_plugins;
mod oms;
mod oms_policies;
mod plugins;
mod policies;
mod publish;
mod readme;
mod registries;
mod repos;
mod roots;
mod sample_index;
mod sandbox;
mod sbom;
mod search;
mod server;
mod signatures;
mod sigstore;
mod sources;
mod threats;
mod tls;
mod typos;
mod validate;
mod well_known;
