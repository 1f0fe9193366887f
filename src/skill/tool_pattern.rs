//! What an `allowed-tools` pattern names: Claude Code's tool names
//! (`Read`, `Write`, `Bash`, `Bash(git:*)`, …) or skillpkg's own, the
//! tools they stand for, and how much each lets a skill do. The agent's
//! policy grants by [`parse`]; every prompt that lists patterns orders
//! them by [`strength`], so the strongest is shown last, next to the
//! question.

/// The rule an `allowed-tools` pattern breaks when it holds a line break,
/// another control character, a Unicode line or paragraph separator or a
/// bidirectional mark: the lenient loader drops such a pattern, and
/// `validate --strict` warns about it.
pub(crate) const UNSAFE_PATTERN_RULE: &str = "allowed-tools-unsafe-chars";

/// About the most characters of an unsafe pattern a message shows,
/// escaped.
const SHOWN_PATTERN_CHARS: usize = 60;

/// Whether `pattern` holds a character that could make a prompt listing
/// it show something else than it says: see [`UNSAFE_PATTERN_RULE`].
pub(crate) fn is_unsafe(pattern: &str) -> bool {
    super::chars::has_line_breaking_chars(pattern)
}

/// What is wrong with an unsafe `pattern`, in words, the pattern shown
/// escaped on one line and cut short.
pub(crate) fn describe_unsafe(pattern: &str) -> String {
    let mut shown = String::new();
    for c in pattern.chars() {
        // Cut between characters, never inside an escape.
        if shown.chars().count() >= SHOWN_PATTERN_CHARS {
            shown.push('…');
            break;
        }
        shown.push_str(&super::chars::one_line_escaped(c.encode_utf8(&mut [0; 4])));
    }
    format!(
        "allowed-tools pattern '{shown}' holds a line break, control character or bidirectional mark, which could disguise what an approval prompt shows"
    )
}

/// A pattern, read: the skillpkg tools it names and, for `shell`, the
/// words each command must start with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ToolPattern {
    /// skillpkg's tool names; none for a name no tool has.
    pub tools: &'static [&'static str],
    /// The words a command must start with (`git` for `Bash(git:*)`);
    /// `None` for any command (`Bash`, `Bash(*)`).
    pub command: Option<String>,
}

/// Reads `pattern`. An unknown name names no tool (fail closed).
pub(crate) fn parse(pattern: &str) -> ToolPattern {
    let (name, inner) = match pattern.split_once('(') {
        Some((name, rest)) => (name.trim(), rest.strip_suffix(')').map(str::trim)),
        None => (pattern.trim(), None),
    };
    let command = inner
        .filter(|i| !i.is_empty() && *i != "*")
        .map(|i| i.strip_suffix(":*").unwrap_or(i).trim().to_string());
    let tools: &'static [&'static str] = match name {
        "Read" => &["read_file", "read_resource"],
        "Write" | "Edit" | "MultiEdit" => &["write_file"],
        "Bash" | "shell" => &["shell"],
        "Grep" | "grep" => &["grep"],
        "Glob" | "LS" | "list_dir" => &["list_dir"],
        "read_file" => &["read_file"],
        "read_resource" => &["read_resource"],
        "write_file" => &["write_file"],
        "run_script" => &["run_script"],
        "use_skill" => &["use_skill"],
        "search_skills" => &["search_skills"],
        _ => &[],
    };
    ToolPattern { tools, command }
}

/// How much a pattern lets a skill do, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Strength {
    /// No tool has its name: it grants nothing.
    Nothing,
    /// Tools that only read (`Read`, `Grep`, `LS`, …).
    ReadOnly,
    /// Writing files in the workspace (`Write`, `Edit`).
    Write,
    /// Shell commands that start with given words (`Bash(git:*)`).
    SomeCommands,
    /// The skill's own scripts, whatever they do (`run_script`).
    Scripts,
    /// Any shell command (`Bash`, `Bash(*)`).
    AnyCommand,
}

/// How much `pattern` lets a skill do: the most any of its tools does.
pub(crate) fn strength(pattern: &str) -> Strength {
    let parsed = parse(pattern);
    parsed
        .tools
        .iter()
        .map(|tool| match (*tool, &parsed.command) {
            ("shell", None) => Strength::AnyCommand,
            ("shell", Some(_)) => Strength::SomeCommands,
            ("run_script", _) => Strength::Scripts,
            ("write_file", _) => Strength::Write,
            _ => Strength::ReadOnly,
        })
        .max()
        .unwrap_or(Strength::Nothing)
}

/// Whether a call `pattern` covers can need the user's approval: writing,
/// commands and scripts do; tools that only read run without it, and a
/// name no tool has grants nothing to approve.
pub(crate) fn needs_approval(pattern: &str) -> bool {
    strength(pattern) > Strength::ReadOnly
}

/// Orders `patterns` weakest first, so that a prompt listing them shows
/// the strongest last, right before its question. Patterns of equal
/// strength keep their order.
pub(crate) fn strongest_last<T: AsRef<str>>(patterns: &mut [T]) {
    patterns.sort_by_key(|p| strength(p.as_ref()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_rank_from_reading_to_any_command() {
        let ranked = [
            "Frob",
            "Read",
            "Grep",
            "Write",
            "Bash(git:*)",
            "run_script",
            "Bash",
            "Bash(*)",
        ]
        .map(strength);
        assert!(ranked.is_sorted(), "{ranked:?}");
        assert!(strength("Bash") > strength("Bash(git:*)"));
        assert!(strength("Edit") > strength("Read(README.md)"));
    }

    #[test]
    fn only_writing_commands_and_scripts_need_approval() {
        for pattern in [
            "Write",
            "Edit",
            "Bash",
            "Bash(git:*)",
            "run_script",
            "shell",
        ] {
            assert!(needs_approval(pattern), "{pattern}");
        }
        for pattern in ["Read", "Grep", "Glob", "LS", "use_skill", "Frob"] {
            assert!(!needs_approval(pattern), "{pattern}");
        }
    }

    #[test]
    fn the_strongest_pattern_is_put_last_and_equals_keep_their_order() {
        let mut patterns = vec![
            "Bash",
            "Read(README.md)",
            "Bash(git:*)",
            "Write",
            "Grep",
            "LS",
        ];
        strongest_last(&mut patterns);
        assert_eq!(
            patterns,
            [
                "Read(README.md)",
                "Grep",
                "LS",
                "Write",
                "Bash(git:*)",
                "Bash"
            ]
        );
    }

    #[test]
    fn patterns_that_could_disguise_a_prompt_are_unsafe_and_shown_escaped() {
        assert!(is_unsafe("Read(README.md\n\n\n)"));
        assert!(is_unsafe("Read(a\u{2028}b)") && is_unsafe("Read(\u{202e}dm.EMDAER)"));
        assert!(!is_unsafe("Bash(git add:*)"));
        let spoof = format!("Read(README.md{})", "\n".repeat(100));
        let described = describe_unsafe(&spoof);
        assert!(!described.contains('\n'), "{described}");
        assert!(described.starts_with("allowed-tools pattern 'Read(README.md\\u{a}\\u{a}"));
        assert!(
            described.contains("\\u{a}…' holds a line break"),
            "{described}"
        );
    }

    #[test]
    fn names_map_onto_tools_and_unknown_names_onto_none() {
        assert_eq!(parse("Read").tools, ["read_file", "read_resource"]);
        assert_eq!(parse("Bash(git add:*)").command.as_deref(), Some("git add"));
        assert_eq!(parse("Bash(*)").command, None);
        assert!(parse("Frobnicate").tools.is_empty());
    }
}
