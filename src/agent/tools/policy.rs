//! Which tool calls run: read-only tools freely; `write_file`, `shell` and
//! `run_script` when pre-approved (by an active skill's `allowed-tools`,
//! `--allow-tool` or `--yes`) or approved at a prompt. `--deny-tool` always
//! refuses; with `--restrict-tools`, an active skill's `allowed-tools` is
//! also the only set of tools available while it is active, and unknown
//! tool names fail closed.

use serde::Serialize;

/// Tools that only read, and run without approval.
pub const READ_ONLY: [&str; 6] = [
    "use_skill",
    "search_skills",
    "read_resource",
    "read_file",
    "list_dir",
    "grep",
];

/// Tools that stay available under `--restrict-tools`: finding and
/// loading skills is how a run gets anywhere.
const ALWAYS_AVAILABLE: [&str; 2] = ["use_skill", "search_skills"];

/// A permission a pattern grants: a tool, for `shell` perhaps only
/// commands with a given prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// skillpkg's tool name.
    pub tool: &'static str,
    /// For `shell`: the command must be this, or start with it and a space.
    pub command: Option<String>,
}

/// The grants of one pattern: Claude Code's names (`Read`, `Write`,
/// `Edit`, `Bash`, `Bash(git:*)`, `Grep`, `Glob`, `LS`) or skillpkg's own.
/// An unknown name grants nothing (fail closed).
pub fn grants(pattern: &str) -> Vec<Grant> {
    let (name, inner) = match pattern.split_once('(') {
        Some((name, rest)) => (name.trim(), rest.strip_suffix(')').map(str::trim)),
        None => (pattern.trim(), None),
    };
    let command = inner
        .filter(|i| !i.is_empty() && *i != "*")
        .map(|i| i.strip_suffix(":*").unwrap_or(i).trim().to_string());
    let tools: &[&'static str] = match name {
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
    tools
        .iter()
        .map(|tool| Grant {
            tool,
            command: if *tool == "shell" {
                command.clone()
            } else {
                None
            },
        })
        .collect()
}

impl Grant {
    /// Whether this grant covers a call of `tool` with `input`.
    pub fn covers(&self, tool: &str, input: &serde_json::Value) -> bool {
        if self.tool != tool {
            return false;
        }
        match &self.command {
            None => true,
            Some(prefix) => {
                let command = input["command"].as_str().unwrap_or("").trim_start();
                command == prefix
                    || command
                        .strip_prefix(prefix.as_str())
                        .is_some_and(|rest| rest.starts_with(char::is_whitespace))
            }
        }
    }
}

/// What the user said on the command line.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// `--yes`: approve everything not denied.
    pub yes: bool,
    /// `--allow-tool` patterns.
    pub allow: Vec<String>,
    /// `--deny-tool` patterns.
    pub deny: Vec<String>,
    /// `--restrict-tools`: allowed-tools is a whitelist.
    pub restrict: bool,
}

/// An active skill's name and its `allowed-tools` patterns.
pub type ActiveSkill<'a> = (&'a str, &'a [String]);

/// What to do with a call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    /// Run it; `by` says what allowed it.
    Run {
        /// What allowed it.
        by: String,
    },
    /// Refuse it, telling the model why.
    Refuse {
        /// Why, for the model.
        reason: String,
    },
    /// Ask the user.
    Ask,
}

fn any_covers(patterns: &[String], tool: &str, input: &serde_json::Value) -> bool {
    patterns
        .iter()
        .flat_map(|p| grants(p))
        .any(|g| g.covers(tool, input))
}

impl Policy {
    /// Decides a call of `tool` with `input` while `active` skills are loaded.
    pub fn decide(
        &self,
        tool: &str,
        input: &serde_json::Value,
        active: &[ActiveSkill],
    ) -> Decision {
        if any_covers(&self.deny, tool, input) {
            return Decision::Refuse {
                reason: format!("{tool} is denied by --deny-tool"),
            };
        }
        if self.restrict && !ALWAYS_AVAILABLE.contains(&tool) {
            let restricting: Vec<&ActiveSkill> = active
                .iter()
                .filter(|(_, patterns)| !patterns.is_empty())
                .collect();
            if let Some((name, _)) = restricting
                .iter()
                .find(|(_, patterns)| !any_covers(patterns, tool, input))
            {
                return Decision::Refuse {
                    reason: format!(
                        "{tool} is not in the allowed-tools of skill '{name}', and --restrict-tools makes that list the only tools available while it is active"
                    ),
                };
            }
        }
        if READ_ONLY.contains(&tool) {
            return Decision::Run {
                by: "read-only".into(),
            };
        }
        if any_covers(&self.allow, tool, input) {
            return Decision::Run {
                by: "--allow-tool".into(),
            };
        }
        if let Some((name, _)) = active
            .iter()
            .find(|(_, patterns)| any_covers(patterns, tool, input))
        {
            return Decision::Run {
                by: format!("allowed-tools of skill '{name}'"),
            };
        }
        if self.yes {
            return Decision::Run { by: "--yes".into() };
        }
        Decision::Ask
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn patterns_map_onto_tools_and_unknown_names_grant_nothing() {
        assert_eq!(grants("Read").len(), 2);
        assert!(grants("Frobnicate").is_empty());
        let git = &grants("Bash(git:*)")[0];
        assert!(git.covers("shell", &json!({"command": "git status"})));
        assert!(git.covers("shell", &json!({"command": "git"})));
        assert!(!git.covers("shell", &json!({"command": "gitk"})));
        assert!(!git.covers("shell", &json!({"command": "rm -rf / ; git"})));
    }

    #[test]
    fn decisions_follow_deny_restrict_read_only_allow_skill_yes() {
        let input = json!({"command": "ls"});
        let read: Vec<String> = vec!["Read".into()];
        let shell: Vec<String> = vec!["Bash".into()];
        let policy = Policy::default();
        assert_eq!(policy.decide("shell", &input, &[]), Decision::Ask);
        assert!(matches!(
            policy.decide("read_file", &input, &[]),
            Decision::Run { .. }
        ));
        assert!(matches!(
            policy.decide("shell", &input, &[("ops", &shell)]),
            Decision::Run { by } if by.contains("ops")
        ));
        let restrict = Policy {
            restrict: true,
            yes: true,
            ..Policy::default()
        };
        assert!(matches!(
            restrict.decide("shell", &input, &[("reader", &read)]),
            Decision::Refuse { reason } if reason.contains("reader")
        ));
        assert!(matches!(
            restrict.decide("read_file", &input, &[("reader", &read)]),
            Decision::Run { .. }
        ));
        assert!(matches!(
            restrict.decide("use_skill", &input, &[("reader", &read)]),
            Decision::Run { .. }
        ));
        let unknown: Vec<String> = vec!["Frobnicate".into()];
        assert!(matches!(
            restrict.decide("read_file", &input, &[("odd", &unknown)]),
            Decision::Refuse { .. }
        ));
        let deny = Policy {
            deny: vec!["shell".into()],
            yes: true,
            ..Policy::default()
        };
        assert!(matches!(
            deny.decide("shell", &input, &[]),
            Decision::Refuse { .. }
        ));
        let yes = Policy {
            yes: true,
            ..Policy::default()
        };
        assert!(
            matches!(yes.decide("write_file", &input, &[]), Decision::Run { by } if by == "--yes")
        );
    }
}
