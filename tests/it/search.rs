//! `skillpkg search`: what it says when nothing matches or the registry
//! named does not exist.

use crate::common::{TestContext, repo_index};

/// Every `--flag` that `text` mentions.
fn flags_in(text: &str) -> Vec<String> {
    let mut flags: Vec<String> = text
        .match_indices("--")
        .map(|(at, _)| {
            text[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect::<String>()
        })
        .filter(|flag| flag.len() > 2)
        .collect();
    flags.dedup();
    flags
}

#[test]
fn search_advice_names_only_what_search_takes() {
    let ctx = TestContext::new();
    let index = repo_index();
    std::fs::write(
        ctx.project.join("skills.toml"),
        format!(
            "[registries]\ninternal = {{ index = {:?} }}\n",
            index.display().to_string()
        ),
    )
    .unwrap();

    let none = ctx.ok(&["search", "zebra"]);
    insta::assert_snapshot!(none.stderr, @r"
    warning: no package matches 'zebra'
    hint: search another registry of skills.toml with --registry NAME: internal
    ");
    let two = ctx.ok(&["search", "--registry", "internal", "pdf", "zebra"]);
    insta::assert_snapshot!(two.stderr, @r"
    warning: no package matches 'pdf zebra'
    hint: every word must appear in a package's name or description: try fewer words
    ");
    let typo = ctx.fails(&["search", "--registry", "intrnal", "pdf"]);
    insta::assert_snapshot!(ctx.redact(&typo.stderr), @r"
    error: no registry named 'intrnal' in [TEMP]/project/skills.toml
    hint: did you mean `--registry internal`?
    ");
    // `default`, unset, is the built-in index, as with no --registry.
    let default = ctx.ok(&["search", "--registry", "default", "pdf"]);
    assert!(
        default.stdout.starts_with("example/pdf-processing@"),
        "{}",
        default.stdout
    );

    // Outside a project, no registry has a name.
    let outside = ctx.root().join("home");
    let named = ctx.fails_in(&outside, &["search", "--registry", "internal", "pdf"]);
    insta::assert_snapshot!(named.stderr, @r"
    error: no registry named 'internal': there is no skills.toml here or above
    hint: registries are named under [registries] in a project's skills.toml; without --registry, search reads the built-in index
    ");

    // Whatever it advised, every flag is one of search's own.
    let help = ctx.ok(&["search", "--help"]).stdout;
    for said in [&none.stderr, &two.stderr, &typo.stderr, &named.stderr] {
        for flag in flags_in(said) {
            assert!(
                help.contains(&format!("{flag} ")),
                "search advises {flag}, which it does not take: {said}"
            );
        }
    }
}
