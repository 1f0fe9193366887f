//! The profiles written for the specifications the Linux tests use, and
//! the rules of docs/sandbox.md each profile must carry.

use std::path::{Path, PathBuf};

use super::*;
use crate::sandbox::spec::{Bind, Fresh};

/// The workspace of the specs below: a project in a macOS home.
const WORKSPACE: &str = "/Users/alice/project";

/// What `exec` gives a command in [`WORKSPACE`] on a Mac, with the
/// default `--sandbox workspace-write`: `/tmp` and the home fresh, the
/// workspace, a private `TMPDIR` and two toolchains put back, `.git`
/// protected, `~/.ssh` hidden.
fn mac() -> Spec {
    let home = PathBuf::from("/Users/alice");
    let tmpdir = PathBuf::from("/private/var/folders/xy/T/skillpkg-tmp-1");
    Spec {
        fresh: vec![
            Fresh {
                path: home.clone(),
                mode: 0o700,
            },
            Fresh {
                path: "/private/tmp".into(),
                mode: 0o1777,
            },
            Fresh {
                path: "/private/var/tmp".into(),
                mode: 0o1777,
            },
        ],
        bound: vec![
            Bind {
                path: home.join(".cargo/bin"),
                writable: false,
            },
            Bind {
                path: home.join(".local/bin"),
                writable: false,
            },
            Bind {
                path: WORKSPACE.into(),
                writable: true,
            },
        ],
        writable: vec![
            tmpdir,
            home,
            "/private/tmp".into(),
            "/private/var/tmp".into(),
            WORKSPACE.into(),
        ],
        read_only: vec![format!("{WORKSPACE}/.git").into()],
        allow_write: Vec::new(),
        hidden: vec!["/Users/alice/.ssh".into()],
        workdir: Some(WORKSPACE.into()),
        network: false,
        probe: false,
    }
}

fn profile_of(spec: &Spec) -> String {
    profile(spec).unwrap()
}

#[test]
fn without_the_network() {
    insta::assert_snapshot!(profile_of(&mac()));
}

#[test]
fn with_the_network_allowed() {
    let spec = Spec {
        network: true,
        ..mac()
    };
    insta::assert_snapshot!(profile_of(&spec));
}

#[test]
fn with_a_folder_read() {
    let mut spec = mac();
    spec.bound.push(Bind {
        path: "/Users/alice/data".into(),
        writable: false,
    });
    insta::assert_snapshot!(profile_of(&spec));
}

#[test]
fn with_git_allowed_to_be_written() {
    let mut spec = mac();
    spec.read_only.clear();
    spec.allow_write = vec![format!("{WORKSPACE}/.git").into()];
    insta::assert_snapshot!(profile_of(&spec));
}

#[test]
fn with_claude_settings_protected() {
    let mut spec = mac();
    spec.read_only
        .push(format!("{WORKSPACE}/.claude/settings.json").into());
    insta::assert_snapshot!(profile_of(&spec));
}

/// The rules of docs/sandbox.md's table, by the first cell of each row.
fn documented_rules() -> Vec<String> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/sandbox.md"))
            .unwrap();
    let table = doc
        .split("| rule |")
        .nth(1)
        .expect("docs/sandbox.md has its table of rules");
    table
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| line.split('|').nth(1).unwrap().trim().to_string())
        .collect()
}

#[test]
fn every_rule_of_the_sandbox_docs_is_in_the_profile() {
    assert_eq!(
        documented_rules(),
        RULES,
        "docs/sandbox.md's rules and the profile's are the same, in order"
    );
    for network in [false, true] {
        let text = profile_of(&Spec { network, ..mac() });
        for rule in RULES {
            let marker = format!("; rule: {rule}\n");
            let (_, after) = text
                .split_once(&marker)
                .unwrap_or_else(|| panic!("the profile has no `{}`", marker.trim()));
            let section = after.split("; rule: ").next().unwrap();
            let enforced = section.lines().any(|line| line.starts_with('('));
            // The environment is built before the command starts: the
            // profile says where, and states nothing.
            assert!(
                enforced || rule == "environment",
                "the rule `{rule}` has no statement in the profile"
            );
        }
    }
}

/// The regular expressions the profile denies writing by.
fn write_denials(text: &str) -> Vec<regex::Regex> {
    text.lines()
        .filter(|line| line.starts_with("(deny file-write* "))
        .filter_map(|line| line.split("(regex #\"").nth(1))
        .map(|rest| regex::Regex::new(rest.split("\")").next().unwrap()).unwrap())
        .collect()
}

#[test]
fn the_profile_protects_what_the_one_rule_protects_existing_or_not() {
    let text = profile_of(&mac());
    let denials = write_denials(&text);
    assert!(!denials.is_empty());
    for (path, protected) in crate::sandbox::protected::tests::TABLE {
        let full = format!("{WORKSPACE}/{path}");
        let denied = denials.iter().any(|regex| regex.is_match(&full));
        assert_eq!(denied, protected, "{path}");
    }
    // Only inside the workspace.
    assert!(
        !denials
            .iter()
            .any(|r| r.is_match("/Users/alice/other/.git/config"))
    );
}

#[test]
fn a_workspace_whose_name_has_regex_characters_is_matched_literally() {
    let odd = "/Users/alice/my.project (1)+";
    let spec = Spec {
        workdir: Some(odd.into()),
        writable: vec![odd.into()],
        ..mac()
    };
    let denials = write_denials(&profile_of(&spec));
    assert!(
        denials
            .iter()
            .any(|r| r.is_match(&format!("{odd}/.git/config")))
    );
    assert!(
        !denials
            .iter()
            .any(|r| r.is_match("/Users/alice/myXproject (1)/.git/config"))
    );
}

#[test]
fn a_path_with_a_quote_stays_one_string_and_a_control_character_is_refused() {
    let spec = Spec {
        hidden: vec![r#"/Users/alice/a "b"\c"#.into()],
        ..mac()
    };
    assert!(profile_of(&spec).contains(r#"(subpath "/Users/alice/a \"b\"\\c")"#));
    let spec = Spec {
        hidden: vec!["/Users/alice/a\nb".into()],
        ..mac()
    };
    assert!(profile(&spec).is_err());
    let spec = Spec {
        workdir: Some(r#"/Users/alice/a"b"#.into()),
        writable: vec![r#"/Users/alice/a"b"#.into()],
        ..mac()
    };
    assert!(profile(&spec).is_err(), "a quote cannot go into a regex");
}

#[test]
fn a_read_only_run_writes_nothing_of_the_workspace_nor_the_host_tmp() {
    let mut spec = mac();
    spec.writable
        .retain(|path| path.as_path() != Path::new(WORKSPACE));
    let text = profile_of(&spec);
    let writes = text
        .split("(allow file-write*\n")
        .nth(1)
        .unwrap()
        .split("\n)")
        .next()
        .unwrap()
        .to_string();
    assert_eq!(
        writes.trim(),
        r#"(subpath "/private/var/folders/xy/T/skillpkg-tmp-1")"#,
        "only the private TMPDIR is writable"
    );
}
