//! The library's public surface is what its users use: `main.rs`, the
//! benches, the fuzz targets and these tests. An item declared `pub` in a
//! module reachable through `pub mod`s from `lib.rs` must be named by one
//! of them, or be in [`FOR_SIGNATURES`]: types and traits that stay `pub`
//! because a used item names them (a public field's type, a public
//! function's argument), which the compiler would refuse to hide. The
//! list may only shrink; anything else is `pub(crate)`, so `dead_code`
//! and `unreachable_pub` report what nothing uses.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::layers::{Token, tokenize};

/// Public items no user names, kept `pub` for the signatures of items they
/// do: `module::Item`.
const FOR_SIGNATURES: &[&str] = &[
    "agent::model::Message",
    "agent::model::Model",
    "agent::model::Request",
    "agent::model::Role",
    "agent::model::StopReason",
    "agent::model::ToolSpec",
    "agent::model::sse::EventTooLarge",
    "agent::tools::command_line::SimpleCommand",
    "index::Dependency",
    "index::IndexConfig",
    "index::PackageNameError",
    "index::channel::ChannelRecord",
    "index::channel::Move",
    "index::local::Naming",
    "index::policy_file::IndexPolicy",
    "index::policy_file::PolicySigner",
    "manifest::AgentSection",
    "manifest::DirectSource",
    "manifest::InstallSection",
    "manifest::RegistrySpec",
    "manifest::SignedBy",
    "manifest::SignerRequirement",
    "manifest::Source",
    "manifest::channel::Channel",
    "manifest::lock::CommitSigner",
    "manifest::lock::LockedSigner",
    "manifest::lock::LockedSkill",
    "manifest::lock::PinnedPolicy",
    "manifest::lock::ScanMark",
    "manifest::lock::SignerTable",
    "manifest::lock::Waiver",
    "manifest::oci_ref::OciPin",
    "manifest::shorthand::GitShorthand",
    "manifest::source_id::GitOrigin",
    "manifest::source_id::InvalidSource",
    "manifest::source_id::OciOrigin",
    "manifest::source_id::SourceId",
    "manifest::source_id::WellKnownOrigin",
    "ops::index_policy::SignedPolicy",
    "ops::mirror::MirrorRequest",
    "ops::mirror::MirroredSource",
    "ops::mirror::Outcome",
    "ops::pack::PackedSkill",
    "ops::promote::PromoteRequest",
    "ops::promote::Promoted",
    "ops::promote::UpstreamShown",
    "ops::publish::Initialised",
    "ops::publish::Published",
    "skill::document::Frontmatter",
    "skill::strict_yaml::StrictValue",
    "skill::strict_yaml::StrictYamlError",
    "skill::validate::Report",
    "skill::validate::ValidateOptions",
    "skill::yaml::YamlError",
    "store::archive::ArchiveFile",
    "store::extract::Refusal",
    "store::extract::Staged",
    "store::signing::GeneratedKeys",
    "store::signing::SigningError",
];

#[test]
fn every_public_item_is_one_its_users_use() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let public = public_items(&root.join("src/lib.rs"), &[]);
    let mut named = BTreeSet::new();
    for dir in ["tests", "benches", "fuzz"] {
        for file in rust_files(&root.join(dir)) {
            named.extend(identifiers(&file));
        }
    }
    named.extend(identifiers(&root.join("src/main.rs")));
    let listed: BTreeSet<&str> = FOR_SIGNATURES.iter().copied().collect();
    let mut problems = Vec::new();
    let mut kept = BTreeSet::new();
    for (path, name) in &public {
        let shown = format!("{path}::{name}");
        let is_listed = listed.contains(shown.as_str());
        match (named.contains(name), is_listed) {
            (false, false) => problems.push(format!(
                "{shown} is pub, and nothing outside the library names it: make it pub(crate), or list it in FOR_SIGNATURES if a public item's signature needs it"
            )),
            (true, true) => problems.push(format!(
                "{shown} is used outside the library now: take it out of FOR_SIGNATURES"
            )),
            _ => {}
        }
        kept.insert(shown);
    }
    for item in &listed {
        if !kept.contains(*item) {
            problems.push(format!(
                "{item} is no longer a public item: take it out of FOR_SIGNATURES"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "the public surface (tests/it/public_api.rs) moved:\n{}",
        problems.join("\n")
    );
}

/// The items declared `pub` in `file` (module `path`) and in the modules
/// it declares `pub mod`, each as (module path, name). Items of `#[cfg(test)]`
/// modules and methods count as well: a `pub fn` in an `impl` of a public
/// type is public too.
fn public_items(file: &Path, path: &[String]) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(file).unwrap();
    let tokens: Vec<Token> = tokenize(&text).into_iter().map(|(t, _)| t).collect();
    let word = |i: usize| match tokens.get(i) {
        Some(Token::Ident(w)) => Some(w.as_str()),
        _ => None,
    };
    let mut items = Vec::new();
    for i in 0..tokens.len() {
        if word(i) != Some("pub") || tokens.get(i + 1) == Some(&Token::Punct('(')) {
            continue;
        }
        let mut k = i + 1;
        while matches!(word(k), Some("async" | "unsafe" | "const" | "extern"))
            && !matches!(word(k + 1), Some("fn" | "mod"))
            || word(k) == Some("async")
        {
            k += 1;
        }
        match (word(k), word(k + 1)) {
            (Some("mod"), Some(name)) if tokens.get(k + 2) == Some(&Token::Punct(';')) => {
                let child = [path, &[name.to_string()]].concat();
                if let Some(child_file) = module_file(file, name) {
                    items.extend(public_items(&child_file, &child));
                }
            }
            (
                Some("fn" | "struct" | "enum" | "trait" | "const" | "static" | "type"),
                Some(name),
            ) => items.push((path.join("::"), name.to_string())),
            _ => {}
        }
    }
    items
}

/// The file of module `name` that `parent` declares.
fn module_file(parent: &Path, name: &str) -> Option<PathBuf> {
    let dir = parent.parent()?;
    let stem = parent.file_stem()?.to_str()?;
    let base = match stem {
        "lib" | "mod" | "main" => dir.to_path_buf(),
        stem => dir.join(stem),
    };
    [
        base.join(format!("{name}.rs")),
        base.join(name).join("mod.rs"),
    ]
    .into_iter()
    .find(|f| f.is_file())
}

/// Every identifier in `file`, comments and strings left out.
fn identifiers(file: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    tokenize(&text)
        .into_iter()
        .filter_map(|(token, _)| match token {
            Token::Ident(word) => Some(word),
            _ => None,
        })
        .collect()
}

/// The `.rs` files under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}
