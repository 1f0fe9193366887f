//! Which tool calls run: read-only tools freely; `write_file`, `shell` and
//! `run_script` when pre-approved (by `--allow-tool`, `--yes`, or the
//! grants the user approved of an active skill's `allowed-tools`) or
//! approved at a prompt. `--deny-tool` always refuses; with
//! `--restrict-tools`, an active skill's `allowed-tools` is also the only
//! set of tools available while it is active, and unknown tool names fail
//! closed. Restricting never grants: an `allowed-tools` pattern the user
//! has not approved pre-approves nothing.

use serde::Serialize;

use super::command_line;

/// Tools that only read, and run without approval.
pub(crate) const READ_ONLY: [&str; 6] = [
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
/// commands that start with given words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Grant {
    /// skillpkg's tool name.
    pub tool: &'static str,
    /// For `shell`: the words each simple command must start with
    /// (`git`, or `npm test`); `None` for any command line.
    pub command: Option<String>,
}

/// The grants of one pattern: Claude Code's names (`Read`, `Write`,
/// `Edit`, `Bash`, `Bash(git:*)`, `Grep`, `Glob`, `LS`) or skillpkg's own
/// (see [`crate::skill::tool_pattern::parse`]). An unknown name grants
/// nothing (fail closed).
pub(crate) fn grants(pattern: &str) -> Vec<Grant> {
    let parsed = crate::skill::tool_pattern::parse(pattern);
    parsed
        .tools
        .iter()
        .map(|tool| Grant {
            tool,
            command: match *tool {
                "shell" => parsed.command.clone(),
                _ => None,
            },
        })
        .collect()
}

/// What a pattern lets a skill do, in plain words: what an approval
/// prompt shows.
pub(crate) fn describe(pattern: &str) -> String {
    let grants = grants(pattern);
    let Some(first) = grants.first() else {
        return "nothing (no tool has this name)".into();
    };
    match (first.tool, first.command.as_deref()) {
        ("shell", None) => "run any shell command".into(),
        ("shell", Some(words)) => format!("run shell commands that are `{words} …`"),
        ("write_file", _) => "write files in the workspace".into(),
        ("read_file", _) => "read files".into(),
        ("run_script", _) => "run the skill's scripts".into(),
        _ => format!(
            "use {}",
            grants.iter().map(|g| g.tool).collect::<Vec<_>>().join(", ")
        ),
    }
}

impl Grant {
    /// Whether this grant alone covers a call of `tool` with `input`: the
    /// policy's own reading, for tests of one grant at a time.
    #[cfg(test)]
    pub(crate) fn covers(&self, tool: &str, input: &serde_json::Value) -> bool {
        covered_by(std::slice::from_ref(self), tool, input)
    }

    /// The words a `shell` grant names.
    fn words(&self) -> Vec<&str> {
        self.command
            .as_deref()
            .map(|c| c.split_whitespace().collect())
            .unwrap_or_default()
    }
}

/// Whether `grants` together cover a call of `tool` with `input`. A
/// command line is covered only when every simple command in it is, each
/// by some grant naming its program (see [`command_line`]).
fn covered_by(grants: &[Grant], tool: &str, input: &serde_json::Value) -> bool {
    let grants: Vec<&Grant> = grants.iter().filter(|g| g.tool == tool).collect();
    if grants.is_empty() {
        return false;
    }
    if tool != "shell" || grants.iter().any(|g| g.command.is_none()) {
        return true;
    }
    let commands = command_line::split(input["command"].as_str().unwrap_or(""));
    !commands.is_empty()
        && commands.iter().all(|command| {
            grants
                .iter()
                .any(|g| command_line::grant_covers(&g.words(), command))
        })
}

/// Whether `grants`, as deny rules, refuse a call of `tool` with `input`:
/// a rule naming a program refuses a command line that mentions it
/// anywhere, inside substitutions and subshells too.
fn denied_by(grants: &[Grant], tool: &str, input: &serde_json::Value) -> bool {
    let line = input["command"].as_str().unwrap_or("");
    grants
        .iter()
        .filter(|g| g.tool == tool)
        .any(|g| match g.words().first() {
            None => true,
            Some(program) => command_line::mentions_program(line, program),
        })
}

/// The `--allow-tool` patterns that cover a call of `tool` with `input`
/// and as little else as a grant can say: for `shell`, one
/// `shell(WORDS:*)` per simple command of the line, naming all its words
/// (so `git status` gives `shell(git status:*)`); for any other tool, the
/// tool. An error says why no pattern short of `shell` itself covers a
/// command line: a part a grant cannot judge (a redirection, a
/// substitution, …) or an option through which the program runs others.
pub(crate) fn exact_patterns(tool: &str, input: &serde_json::Value) -> Result<Vec<String>, String> {
    if tool != "shell" {
        return Ok(vec![tool.to_string()]);
    }
    let line = input["command"].as_str().unwrap_or("");
    let mut patterns: Vec<String> = Vec::new();
    for command in command_line::split(line) {
        let shown = command.display();
        if let Some(why) = command.opaque {
            return Err(format!("`{shown}` holds {why}"));
        }
        // A grant names words split at white space: a word holding some
        // (a quoted argument) cannot be named, nor can an empty one.
        if command
            .words
            .iter()
            .any(|w| w.is_empty() || w.contains(char::is_whitespace))
        {
            return Err(format!("`{shown}` has a word no grant can name"));
        }
        let pattern = format!("shell({shown}:*)");
        let named = grants(&pattern);
        let covers = named.first().is_some_and(|grant| {
            grant.words() == command.words && command_line::grant_covers(&grant.words(), &command)
        });
        if !covers {
            return Err(format!(
                "`{shown}` gives an option through which its program runs others"
            ));
        }
        if !patterns.contains(&pattern) {
            patterns.push(pattern);
        }
    }
    if patterns.is_empty() {
        return Err("the command line is empty".into());
    }
    Ok(patterns)
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

/// An active skill, as the policy sees it.
#[derive(Debug, Clone, Copy)]
pub struct ActiveSkill<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its `allowed-tools` patterns (none when anyone could have written them).
    pub allowed_tools: &'a [String],
    /// The patterns of those the user approved: only these pre-approve.
    pub granted: &'a [String],
}

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
    Ask {
        /// An active skill whose `allowed-tools` would cover the call, had
        /// the user approved them.
        #[serde(skip_serializing_if = "Option::is_none")]
        asked_by: Option<String>,
    },
}

fn any_covers(patterns: &[String], tool: &str, input: &serde_json::Value) -> bool {
    let grants: Vec<Grant> = patterns.iter().flat_map(|p| grants(p)).collect();
    covered_by(&grants, tool, input)
}

/// A `run_script` call as the command line that runs the same thing (see
/// [`super::script_line`]), with the skill whose script it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptLine {
    /// The skill the script belongs to.
    pub skill: String,
    /// The command line's words: interpreter, script path, arguments.
    pub words: Vec<String>,
}

/// What the policy decides about: a tool, the model's input, and for
/// `run_script` the equivalent command line.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    /// The tool called.
    pub tool: &'a str,
    /// The model's input.
    pub input: &'a serde_json::Value,
    /// For `run_script`, the command line that runs the same thing.
    pub script: Option<&'a ScriptLine>,
}

impl Call<'_> {
    /// Whether the patterns of the skill `name` cover this call: directly,
    /// or, for a `run_script` of one of that skill's own scripts, by a
    /// `shell` grant covering the equivalent command line.
    fn covered_by_skill(&self, name: &str, patterns: &[String]) -> bool {
        any_covers(patterns, self.tool, self.input)
            || self.own_script(name).is_some_and(|line| {
                let command = command_line::SimpleCommand {
                    words: line.words.clone(),
                    opaque: None,
                };
                patterns
                    .iter()
                    .flat_map(|p| grants(p))
                    .filter(|g| g.tool == "shell")
                    .any(|g| {
                        g.command.is_none() || command_line::grant_covers(&g.words(), &command)
                    })
            })
    }

    /// The equivalent command line, when this is a `run_script` of one of
    /// the skill `name`'s scripts.
    fn own_script(&self, name: &str) -> Option<&ScriptLine> {
        self.script
            .filter(|line| self.tool == "run_script" && line.skill == name)
    }

    /// Whether `denies` refuse this call: a rule for its tool, or, for
    /// `run_script`, a `shell` rule naming a program of the equivalent
    /// command line.
    fn denied_by(&self, denies: &[Grant]) -> bool {
        denied_by(denies, self.tool, self.input)
            || self
                .script
                .filter(|_| self.tool == "run_script")
                .is_some_and(|line| {
                    let shell_rules: Vec<Grant> = denies
                        .iter()
                        .filter(|g| g.tool == "shell" && g.command.is_some())
                        .cloned()
                        .collect();
                    let command = serde_json::json!({ "command": line.words.join(" ") });
                    denied_by(&shell_rules, "shell", &command)
                })
    }
}

impl Policy {
    /// Decides a call of `tool` with `input` while `active` skills are loaded.
    pub fn decide(
        &self,
        tool: &str,
        input: &serde_json::Value,
        active: &[ActiveSkill],
    ) -> Decision {
        self.decide_call(
            Call {
                tool,
                input,
                script: None,
            },
            active,
        )
    }

    /// Decides `call` while `active` skills are loaded: deny rules first,
    /// then `--restrict-tools`, read-only tools, `--allow-tool`, the
    /// approved grants of an active skill (for `run_script`, a skill's
    /// grants covering its own script's command line too), `--yes`, and
    /// otherwise the user.
    pub fn decide_call(&self, call: Call, active: &[ActiveSkill]) -> Decision {
        let (tool, input) = (call.tool, call.input);
        let denies: Vec<Grant> = self.deny.iter().flat_map(|p| grants(p)).collect();
        if call.denied_by(&denies) {
            return Decision::Refuse {
                reason: format!("{tool} is denied by --deny-tool"),
            };
        }
        if self.restrict
            && !ALWAYS_AVAILABLE.contains(&tool)
            && let Some(skill) = active.iter().find(|skill| {
                !skill.allowed_tools.is_empty()
                    && !call.covered_by_skill(skill.name, skill.allowed_tools)
            })
        {
            return Decision::Refuse {
                reason: format!(
                    "{tool} is not in the allowed-tools of skill '{}', and --restrict-tools makes that list the only tools available while it is active",
                    skill.name
                ),
            };
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
        if let Some(skill) = active
            .iter()
            .find(|skill| call.covered_by_skill(skill.name, skill.granted))
        {
            return Decision::Run {
                by: format!("the approved grants of skill '{}'", skill.name),
            };
        }
        if self.yes {
            return Decision::Run { by: "--yes".into() };
        }
        Decision::Ask {
            asked_by: active
                .iter()
                .find(|skill| call.covered_by_skill(skill.name, skill.allowed_tools))
                .map(|skill| skill.name.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn patterns_are_described_in_plain_words() {
        let described: Vec<String> = ["Bash", "Bash(git:*)", "Read", "Write", "Grep", "Frob"]
            .iter()
            .map(|p| format!("{p}: {}", describe(p)))
            .collect();
        insta::assert_snapshot!(described.join("\n"), @"
        Bash: run any shell command
        Bash(git:*): run shell commands that are `git …`
        Read: read files
        Write: write files in the workspace
        Grep: use grep
        Frob: nothing (no tool has this name)
        ");
    }

    #[test]
    fn the_patterns_said_to_need_no_approval_grant_only_read_only_tools() {
        let names = [
            "Read",
            "Write",
            "Edit",
            "MultiEdit",
            "Bash",
            "shell",
            "Grep",
            "grep",
            "Glob",
            "LS",
            "list_dir",
            "read_file",
            "read_resource",
            "write_file",
            "run_script",
            "use_skill",
            "search_skills",
        ];
        for name in names {
            let all_read_only = grants(name).iter().all(|g| READ_ONLY.contains(&g.tool));
            assert_eq!(
                !crate::skill::tool_pattern::needs_approval(name),
                all_read_only,
                "{name}"
            );
        }
    }

    #[test]
    fn exact_patterns_name_each_command_and_cover_just_the_call() {
        let exact = |line: &str| exact_patterns("shell", &json!({ "command": line }));
        assert_eq!(
            exact("git status").unwrap(),
            ["shell(git status:*)"],
            "the command named, not the program alone"
        );
        assert_eq!(
            exact("git diff --stat && ls -la && ls -la").unwrap(),
            ["shell(git diff --stat:*)", "shell(ls -la:*)"]
        );
        for line in [
            "git status",
            "cargo test -p x && echo 'done'",
            "echo 'a:b)' x:*",
        ] {
            let input = json!({ "command": line });
            let policy = Policy {
                allow: exact(line).unwrap(),
                ..Policy::default()
            };
            assert!(
                matches!(policy.decide("shell", &input, &[]), Decision::Run { .. }),
                "{line}"
            );
            let more = json!({ "command": format!("{line}; rm -rf x") });
            assert!(
                !matches!(policy.decide("shell", &more, &[]), Decision::Run { .. }),
                "{line}"
            );
        }
        assert_eq!(
            exact("echo hi > out.txt").unwrap_err(),
            "`echo hi > out.txt` holds a redirection"
        );
        assert_eq!(
            exact("echo 'a b'").unwrap_err(),
            "`echo a b` has a word no grant can name"
        );
        assert!(
            exact("git -c core.pager=x log")
                .unwrap_err()
                .contains("runs others")
        );
        assert_eq!(
            exact_patterns("write_file", &json!({"path": "x"})).unwrap(),
            ["write_file"]
        );
    }

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

    /// An active skill named `name` asking for `allowed`, of which the
    /// user approved `granted`.
    fn active<'a>(name: &'a str, allowed: &'a [String], granted: &'a [String]) -> ActiveSkill<'a> {
        ActiveSkill {
            name,
            allowed_tools: allowed,
            granted,
        }
    }

    #[test]
    fn decisions_follow_deny_restrict_read_only_allow_grants_yes() {
        let input = json!({"command": "ls"});
        let read: Vec<String> = vec!["Read".into()];
        let shell: Vec<String> = vec!["Bash".into()];
        let none: Vec<String> = Vec::new();
        let policy = Policy::default();
        assert_eq!(
            policy.decide("shell", &input, &[]),
            Decision::Ask { asked_by: None }
        );
        assert!(matches!(
            policy.decide("read_file", &input, &[]),
            Decision::Run { .. }
        ));
        // Approved grants pre-approve; unapproved ones only say who asks.
        assert!(matches!(
            policy.decide("shell", &input, &[active("ops", &shell, &shell)]),
            Decision::Run { by } if by.contains("ops")
        ));
        assert_eq!(
            policy.decide("shell", &input, &[active("ops", &shell, &none)]),
            Decision::Ask {
                asked_by: Some("ops".into())
            }
        );
        let restrict = Policy {
            restrict: true,
            ..Policy::default()
        };
        // Restricting never grants.
        assert_eq!(
            restrict.decide("shell", &input, &[active("ops", &shell, &none)]),
            Decision::Ask {
                asked_by: Some("ops".into())
            }
        );
        let restrict_yes = Policy {
            yes: true,
            ..restrict
        };
        assert!(matches!(
            restrict_yes.decide("shell", &input, &[active("reader", &read, &read)]),
            Decision::Refuse { reason } if reason.contains("reader")
        ));
        assert!(matches!(
            restrict_yes.decide("read_file", &input, &[active("reader", &read, &none)]),
            Decision::Run { .. }
        ));
        assert!(matches!(
            restrict_yes.decide("use_skill", &input, &[active("reader", &read, &none)]),
            Decision::Run { .. }
        ));
        let unknown: Vec<String> = vec!["Frobnicate".into()];
        assert!(matches!(
            restrict_yes.decide("read_file", &input, &[active("odd", &unknown, &unknown)]),
            Decision::Refuse { .. }
        ));
        let deny = Policy {
            deny: vec!["shell".into()],
            yes: true,
            ..Policy::default()
        };
        assert!(matches!(
            deny.decide("shell", &input, &[active("ops", &shell, &shell)]),
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

    /// What `--allow-tool allow… --deny-tool deny…` decides for `line`:
    /// `run`, `ask` or `refuse`.
    fn verdict(line: &str, allow: &[&str], deny: &[&str]) -> &'static str {
        let policy = Policy {
            allow: allow.iter().map(|p| p.to_string()).collect(),
            deny: deny.iter().map(|p| p.to_string()).collect(),
            ..Policy::default()
        };
        match policy.decide("shell", &json!({ "command": line }), &[]) {
            Decision::Run { .. } => "run",
            Decision::Ask { .. } => "ask",
            Decision::Refuse { .. } => "refuse",
        }
    }

    #[test]
    fn grants_cover_each_simple_command_exactly() {
        let git: &[&str] = &["Bash(git:*)"];
        let git_ls: &[&str] = &["Bash(git:*)", "Bash(ls:*)"];
        let npm_test: &[&str] = &["Bash(npm test:*)"];
        let any: &[&str] = &["Bash"];
        let no: &[&str] = &[];
        let rm: &[&str] = &["Bash(rm:*)"];
        #[rustfmt::skip]
        let table: &[(&str, &[&str], &[&str], &str)] = &[
            // One simple command.
            ("git status", git, no, "run"),
            ("git", git, no, "run"),
            ("  git   log --oneline  ", git, no, "run"),
            ("'git' status", git, no, "run"),
            ("\"git\" status", git, no, "run"),
            ("gitk", git, no, "ask"),
            ("git-upload-pack x", git, no, "ask"),
            ("/usr/bin/git status", git, no, "ask"),
            ("ls", git, no, "ask"),
            ("git status", no, no, "ask"),
            // Lists, pipelines and newlines: every part needs a grant.
            ("git --version; id", git, no, "ask"),
            ("git status && id", git, no, "ask"),
            ("git status || id", git, no, "ask"),
            ("git log | sh", git, no, "ask"),
            ("git log |& sh", git, no, "ask"),
            ("git status\nid", git, no, "ask"),
            ("git status; ls -la", git_ls, no, "run"),
            ("git log | ls", git_ls, no, "run"),
            ("git status;", git, no, "run"),
            ("git status # ; id", git, no, "run"),
            // Substitutions, redirections, subshells, backgrounds, env prefixes.
            ("git $(id)", git, no, "ask"),
            ("git `id`", git, no, "ask"),
            ("git \"$(id)\"", git, no, "ask"),
            ("git log $HOME", git, no, "ask"),
            ("git log > ~/.bashrc", git, no, "ask"),
            ("git log >> out", git, no, "ask"),
            ("git apply < patch", git, no, "ask"),
            ("(git status)", git, no, "ask"),
            ("{ git status; }", git, no, "ask"),
            ("git status & id", git, no, "ask"),
            ("GIT_DIR=/etc git status", git, no, "ask"),
            ("PAGER='sh -c id' git log", git, no, "ask"),
            ("'git status", git, no, "ask"),
            // Quoted separators are words, not separators.
            ("git commit -m 'a; id'", git, no, "run"),
            ("git commit -m \"a && id\"", git, no, "run"),
            ("git commit -m a\\;id", git, no, "run"),
            // Programs that run other programs are not covered by another's grant.
            ("sh -c 'git status'", git, no, "ask"),
            ("bash -c 'git status'", git, no, "ask"),
            ("env git status", git, no, "ask"),
            ("xargs git status", git, no, "ask"),
            ("nice git status", git, no, "ask"),
            ("git -c alias.x='!id' x", git, no, "ask"),
            ("git -calias.x=!id x", git, no, "ask"),
            ("git --config-env=core.pager=X log", git, no, "ask"),
            ("find . -exec id ;", &["Bash(find:*)"], no, "ask"),
            ("find . -name '*.md'", &["Bash(find:*)"], no, "run"),
            // Multi-word grants.
            ("npm test", npm_test, no, "run"),
            ("npm test -- --watch", npm_test, no, "run"),
            ("npm install", npm_test, no, "ask"),
            ("npm", npm_test, no, "ask"),
            // An unrestricted grant covers any line.
            ("git status; id > x", any, no, "run"),
            // A deny matches any part, even inside substitutions.
            ("rm x", any, rm, "refuse"),
            ("true; rm x", any, rm, "refuse"),
            ("echo $(rm x)", any, rm, "refuse"),
            ("/bin/rm x", any, rm, "refuse"),
            ("git status", any, rm, "run"),
            ("git status", any, &["Bash"], "refuse"),
        ];
        assert!(table.len() >= 40);
        for (line, allow, deny, expected) in table {
            assert_eq!(
                verdict(line, allow, deny),
                *expected,
                "{line:?} with --allow-tool {allow:?} --deny-tool {deny:?}"
            );
        }
    }
}
