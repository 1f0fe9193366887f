//! The rule set, and the rules read line by line. What a rule weighs
//! depends on the file: see [`weight`].

use std::sync::LazyLock;

use regex::{Regex, RegexSet};

use super::file::{Kind, Read};
use super::finding::{Finding, Severity, excerpt};

/// One rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Rule {
    /// Its id, as waivers and SARIF name it.
    pub id: &'static str,
    /// What it weighs where code runs.
    pub severity: Severity,
    /// Why it matters, in one line.
    pub rationale: &'static str,
}

/// Every rule.
pub(crate) const RULES: &[Rule] = &[
    Rule {
        id: "remote-code-run",
        severity: Severity::Block,
        rationale: "code fetched from the network and run at once (curl | sh, iex (iwr …), download then chmod +x) runs whatever the server sends that day",
    },
    Rule {
        id: "reverse-shell",
        severity: Severity::Block,
        rationale: "a shell or data wired to a raw socket (/dev/tcp, nc -e, socat exec:) hands the machine to whoever listens",
    },
    Rule {
        id: "secret-exfiltration",
        severity: Severity::Block,
        rationale: "credential files or the whole environment reaching a network call, or a secret sent to a raw IP, a webhook, tunnel or paste service, or a host unrelated to it",
    },
    Rule {
        id: "decoded-exec",
        severity: Severity::Block,
        rationale: "a payload decoded and run at once (base64 -d | sh, exec(b64decode(…))) hides what runs from every reviewer",
    },
    Rule {
        id: "lifecycle-script",
        severity: Severity::Warn,
        rationale: "a package manager's install hook (package.json preinstall/postinstall, setup.py cmdclass) runs code when someone installs the folder's dependencies",
    },
    Rule {
        id: "hidden-unicode",
        severity: Severity::Block,
        rationale: "bidi overrides, tag characters and zero-width runs can carry instructions a human reviewer cannot see",
    },
    Rule {
        id: "conceal-from-user",
        severity: Severity::Block,
        rationale: "instructions telling the agent to hide what it does from the user, or to get around approvals, turn the agent against its user",
    },
    Rule {
        id: "instruction-override",
        severity: Severity::Block,
        rationale: "an instruction to ignore the agent's previous instructions or system prompt is a prompt injection, whatever the skill says it is for",
    },
    Rule {
        id: "agent-settings-write",
        severity: Severity::Block,
        rationale: "writing agents' hook and permission settings, or running an agent with its permission checks off, outlives the skill and removes the user's say",
    },
    Rule {
        id: "exfil-endpoint",
        severity: Severity::Block,
        rationale: "request-capture, tunnel and paste services are where stolen data is sent; no skill's code needs to send to one",
    },
    Rule {
        id: "notify-endpoint",
        severity: Severity::Warn,
        rationale: "chat webhooks and bot APIs (Discord, Telegram) send data out of the machine; fine for notifications, worth a look",
    },
    Rule {
        id: "unscanned-text",
        severity: Severity::Block,
        rationale: "a script or SKILL.md longer than the scanner reads (1 MiB) could hide anything past that point; no real one is that long",
    },
    Rule {
        id: "shipped-executable",
        severity: Severity::Block,
        rationale: "a native executable in a skill cannot be reviewed and runs with the user's rights",
    },
    Rule {
        id: "shipped-archive",
        severity: Severity::Warn,
        rationale: "an archive hides its files from review until someone unpacks it",
    },
];

/// The rule `id`.
pub(crate) fn rule(id: &str) -> &'static Rule {
    RULES.iter().find(|r| r.id == id).expect("a known rule")
}

/// What rule `id` weighs on a line of a file of `kind` (`in_code`: inside
/// a Markdown code block). Code and `SKILL.md`'s own instructions carry
/// the rule's weight where the rule is about them; documentation warns
/// at most.
pub(crate) fn weight(id: &str, kind: Kind, in_code: bool) -> Severity {
    let full = rule(id).severity;
    let capped = full.min(Severity::Warn);
    match kind {
        Kind::Script | Kind::PackageJson => full,
        // The agent reads SKILL.md's prose as instructions to follow.
        Kind::SkillMd
            if !in_code
                && matches!(
                    id,
                    "conceal-from-user" | "hidden-unicode" | "instruction-override"
                ) =>
        {
            full
        }
        Kind::SkillMd if id == "hidden-unicode" || id == "unscanned-text" => full,
        // SKILL.md's fenced commands are what the agent is told to run:
        // no install line decodes a payload into a shell, or turns an
        // agent's permission checks off.
        Kind::SkillMd if in_code && matches!(id, "decoded-exec" | "agent-settings-write") => full,
        _ => capped,
    }
}

/// A rule read line by line: any of its patterns matching a line fires it.
struct LineRule {
    id: &'static str,
    message: &'static str,
    patterns: Vec<Regex>,
}

fn line_rule(id: &'static str, message: &'static str, patterns: &[&str]) -> LineRule {
    LineRule {
        id,
        message,
        patterns: patterns
            .iter()
            .map(|p| Regex::new(p).expect("a valid rule pattern"))
            .collect(),
    }
}

const SHELL: &str = r"(?:sudo\s+)?(?:env\s+\S+\s+)?(?:ba|z|k|da|fi)?sh\b";

static LINE_RULES: LazyLock<Vec<LineRule>> = LazyLock::new(|| {
    vec![
        line_rule(
            "remote-code-run",
            "code fetched from the network is run at once",
            &[
                &format!(r"(?i)\b(?:curl|wget)\b[^|;&\n]*\|\s*{SHELL}"),
                r"(?i)\b(?:curl|wget)\b[^|;&\n]*\|\s*(?:sudo\s+)?(?:python[0-9.]*|perl|ruby|node|php)(?:\s+-[uBEIOSsq]+)*(?:\s+-(?:\s|$)|\s*(?:$|[;&|)\x22'`#<>]|\d>))",
                r"(?i)(?:\b(?:(?:ba|z)?sh|source|eval)|(?:^|[;&|({]|\bthen|\bdo)\s*\.)\s+(?:-c\s+)?[\x22']?(?:\$\(|<\(|`)\s*(?:curl|wget)\b",
                r"(?i)\bpython[0-9.]*\s+-c\s+[\x22'][^\n]*\$\(\s*(?:curl|wget)\b",
                r"(?i)\b(?:iex|invoke-expression)\b[^\n]*\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|net\.webclient)\b",
                r"(?i)\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b[^\n]*\|\s*(?:iex|invoke-expression)\b",
                r"\bexec\s*\(\s*(?:requests\.get|urllib\.request\.urlopen|urlopen|httpx\.get)\s*\(",
            ],
        ),
        line_rule(
            "reverse-shell",
            "a shell or data is wired to a raw network socket",
            &[
                r"/dev/(?:tcp|udp)/[^\s/]+/\d+",
                r"(?i)\b(?:nc|ncat|netcat)\b[^\n|]*\s-[ec]\s",
                r"(?i)\bsocat\b[^\n]*\b(?:exec|system):",
                r"(?i)\|\s*(?:nc|ncat|netcat)\s+(?:-\w+\s+)*[\w.-]+\s+\d{2,5}\b",
            ],
        ),
        line_rule(
            "decoded-exec",
            "a decoded payload is run at once",
            &super::decode::patterns()
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        ),
        line_rule(
            "agent-settings-write",
            "an agent is run with its permission checks off, or its settings are written",
            &super::control_plane::patterns()
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        ),
        line_rule(
            "exfil-endpoint",
            "a request-capture, tunnel or paste service is named",
            &[
                r"(?i)\b(?:webhook\.site|requestbin\.(?:com|net)|(?:[\w-]+\.)?m\.pipedream\.net|hookbin\.com|beeceptor\.com|requestcatcher\.com|(?:[\w-]+\.)?ngrok(?:-free)?\.(?:io|app|dev)|(?:[\w-]+\.)?trycloudflare\.com|serveo\.net|(?:[\w-]+\.)?loca\.lt|localtunnel\.me|pastebin\.com/api|paste\.ee|hastebin\.com|transfer\.sh|0x0\.st|(?:[\w-]+\.)?interact\.sh|(?:[\w-]+\.)?oast\.(?:pro|live|site|online|fun|me)|burpcollaborator\.net|dnslog\.cn|ceye\.io)\b",
            ],
        ),
        line_rule(
            "notify-endpoint",
            "a chat webhook or bot API is named",
            &[r"(?i)\b(?:discord(?:app)?\.com/api/webhooks|api\.telegram\.org/bot)"],
        ),
        line_rule(
            "instruction-override",
            "the agent is told to ignore its previous instructions",
            &[
                r"(?i)\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:(?:the|your|of\s+your)\s+)?(?:previous|prior|above|earlier|preceding|original|system)\s+(?:instructions|prompts?|rules|guidelines|directives)\b",
            ],
        ),
        line_rule(
            "conceal-from-user",
            "the agent is told to hide what it does from the user, or to get around approvals",
            &[
                r"(?i)\b(?:do not|don't|don’t|never|must not)\s+(?:tell|inform|notify|alert|show|mention|reveal|disclose|report)\s+(?:this\s+|it\s+|anything\s+|them\s+)?(?:to\s+)?the\s+user\b",
                r"(?i)\b(?:do not|don't|don’t|never|must not)\s+(?:tell|mention|reveal|disclose)\b[^.\n]{0,60}?\bto\s+the\s+user\b",
                r"(?i)\bkeep\s+(?:this|these|that|it)\s+(?:behaviou?rs?|instructions?|skill|activity|actions?)\s+(?:hidden|secret)\b",
                r"(?i)\bwithout\s+(?:the\s+user(?:'s|’s)?\s+(?:knowing|knowledge|noticing|awareness)|(?:telling|informing|notifying|alerting)\s+the\s+user)\b",
                r"(?i)\b(?:hide|conceal)\s+(?:(?:this|it|these|that|them)\s+|(?:(?:this|these|that|those|your|the|any|all)\s+)?(?:actions?|commands?|output|requests?|downloads?|uploads?|network\s+calls?|activity|steps|changes)\s+)from\s+the\s+user\b",
                r"(?i)\b(?:disable|bypass|circumvent|get\s+around|turn\s+off)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:user(?:'s|’s)?\s+)?(?:tool\s+)?(?:approvals?|approval\s+prompts?|permission\s+(?:prompts?|checks?))\b",
            ],
        ),
    ]
});

/// Words that say a line describes an attack rather than making one.
static DESCRIBING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:attack|attacker|malicious|malware|injection|inject|red flags?|suspicious|phishing|detect|detects|detection|watch for|look for|such as|e\.g\.|for example|threat|adversar|exploit)").expect("valid")
});

/// After "do not tell the user": "to run it" asks the agent to act itself,
/// it hides nothing.
static TELL_TO: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s+(?:to|how\s+to)\s+\w").expect("valid"));

/// Words ending in a colon opening a quoted string ("Install: ", "Install
/// uv with: "): what follows is shown to a person, not run (a shell would
/// run the first word as the command).
static SHOWN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*[A-Za-z][^\x22'`$;&|()<>{}=\\]*:\s*$").expect("valid"));

/// Whether the command at `start` of `line` is text shown inside a quoted
/// string after a label such as "Install: ".
fn shown_as_text(line: &str, start: usize) -> bool {
    let before = &line[..start];
    ['"', '\''].iter().any(|&q| {
        before.matches(q).count() % 2 == 1
            && before
                .rsplit_once(q)
                .is_some_and(|(_, inside)| SHOWN.is_match(inside))
    })
}

/// Whether the text at `start` of `line` is inside quotes or backticks.
fn quoted(line: &str, start: usize) -> bool {
    let before = &line[..start];
    ['"', '`', '“']
        .iter()
        .any(|q| before.matches(*q).count() % 2 == 1)
        || (before.contains('“') && !before.contains('”'))
}

/// The findings of every rule in the file `read`.
pub(crate) fn scan_file(read: &Read) -> Vec<Finding> {
    let mut findings = Vec::new();
    let finding = |id: &'static str, severity, line, message: String, text: &str| Finding {
        rule: id,
        severity,
        file: read.relative.clone(),
        line,
        message,
        excerpt: excerpt(text),
        waived: None,
    };
    match read.kind {
        Kind::Executable(what) => findings.push(finding(
            "shipped-executable",
            rule("shipped-executable").severity,
            None,
            format!("{what} is shipped"),
            "",
        )),
        Kind::Archive(what) => findings.push(finding(
            "shipped-archive",
            rule("shipped-archive").severity,
            None,
            format!("{what} is shipped"),
            "",
        )),
        _ => {}
    }
    let Some(text) = &read.text else {
        return findings;
    };
    if read.truncated {
        findings.push(finding(
            "unscanned-text",
            weight("unscanned-text", read.kind, false),
            None,
            format!(
                "only its first {} MiB was scanned",
                super::file::MAX_TEXT / (1024 * 1024)
            ),
            "",
        ));
    }
    let markdown = matches!(read.kind, Kind::SkillMd | Kind::Document);
    let lines = super::file::lines(text, markdown);
    // Most files match no line rule anywhere: one pass over the text says so.
    let any_rule = ANY_LINE_RULE.is_match(text);
    for &(number, line, in_code) in &lines {
        if any_rule {
            findings.extend(line_findings(read, number, line, in_code));
        }
        if let Some((column, c)) = hidden_char(line, number) {
            let severity = weight("hidden-unicode", read.kind, in_code);
            let what = crate::skill::hidden::describe(c).unwrap_or("invisible character");
            findings.push(finding(
                "hidden-unicode",
                severity,
                Some(number),
                format!("U+{:04X} ({what}) at column {column}", c as u32),
                line,
            ));
        }
    }
    findings.extend(super::flows::scan(read, text, &lines));
    if let Some(commands) = commands(read.kind, &lines) {
        findings.extend(super::decode::scan_variables(&read.relative, &commands));
        findings.extend(super::control_plane::scan_built_paths(
            &read.relative,
            &commands,
        ));
        findings.extend(resolved_findings(read, &commands, &findings));
        let mut flows = super::exfil::scan_commands(&read.relative, &commands);
        if read.kind == Kind::Script {
            flows.extend(super::exfil::scan_code(&read.relative, &commands));
        }
        // A line the whole-file rule already names is said once.
        flows.retain(|flow| {
            !findings
                .iter()
                .any(|f| f.rule == flow.rule && f.line == flow.line)
        });
        findings.extend(flows);
    }
    findings
}

/// The line rules' findings on one line of the file `read`.
fn line_findings(read: &Read, number: usize, line: &str, in_code: bool) -> Vec<Finding> {
    let mut found_here = Vec::new();
    for rule in LINE_RULES.iter() {
        let Some(found) = rule.patterns.iter().find_map(|p| p.find(line)) else {
            continue;
        };
        let mut severity = weight(rule.id, read.kind, in_code);
        if rule.id == "conceal-from-user"
            && (quoted(line, found.start())
                || DESCRIBING.is_match(line)
                || TELL_TO.is_match(&line[found.end()..]))
        {
            severity = Severity::Info;
        }
        if rule.id == "instruction-override" && DESCRIBING.is_match(line) {
            severity = Severity::Info;
        }
        if rule.id == "remote-code-run" && shown_as_text(line, found.start()) {
            severity = severity.min(Severity::Warn);
        }
        found_here.push(Finding {
            rule: rule.id,
            severity,
            file: read.relative.clone(),
            line: Some(number),
            message: rule.message.to_string(),
            excerpt: excerpt(line),
            waived: None,
        });
    }
    found_here
}

/// The line rules' findings on `commands` once their constant variables
/// are resolved, and downloads piped into a command still named by a
/// variable, where `found` does not already name that rule on that line.
fn resolved_findings(
    read: &Read,
    commands: &[(usize, &str, bool)],
    found: &[Finding],
) -> Vec<Finding> {
    let original = |number: usize| {
        commands
            .iter()
            .find(|(n, _, _)| *n == number)
            .map_or("", |(_, line, _)| line)
    };
    let fresh = |f: &Finding| !found.iter().any(|o| o.rule == f.rule && o.line == f.line);
    let resolved = super::assign::resolve(commands);
    let mut more: Vec<Finding> = Vec::new();
    for (number, text, in_code) in &resolved {
        for mut finding in line_findings(read, *number, text, *in_code) {
            finding.message = format!(
                "{} (once its variables are resolved: {})",
                finding.message,
                excerpt(text)
            );
            finding.excerpt = excerpt(original(*number));
            if fresh(&finding) {
                more.push(finding);
            }
        }
    }
    for (number, line, in_code) in super::assign::download_into_expansion(commands, &resolved) {
        let finding = Finding {
            rule: "remote-code-run",
            severity: weight("remote-code-run", read.kind, in_code).min(Severity::Warn),
            file: read.relative.clone(),
            line: Some(number),
            message:
                "a download is piped into a command named by a variable, which decides what runs"
                    .into(),
            excerpt: excerpt(line),
            waived: None,
        };
        if fresh(&finding)
            && !more
                .iter()
                .any(|o| o.rule == finding.rule && o.line == finding.line)
        {
            more.push(finding);
        }
    }
    more
}

/// The lines of a file that are commands: all of a script's, and the
/// fenced ones of `SKILL.md`; `None` for other files.
fn commands<'a>(
    kind: Kind,
    lines: &[(usize, &'a str, bool)],
) -> Option<Vec<(usize, &'a str, bool)>> {
    match kind {
        Kind::Script | Kind::PackageJson => Some(lines.to_vec()),
        Kind::SkillMd => Some(lines.iter().copied().filter(|l| l.2).collect()),
        _ => None,
    }
}

/// Every line rule's patterns as one set over a whole text, lines ending
/// in `\n` or `\r\n` (`(?mR)`): whatever matches a line matches there.
/// Word boundaries are ASCII's (`(?-u:\b)`), which hold wherever
/// Unicode's do beside the patterns' ASCII letters, and keep the set on
/// its fast automaton over non-ASCII text (Unicode's make it give up).
static ANY_LINE_RULE: LazyLock<RegexSet> = LazyLock::new(|| {
    let patterns = LINE_RULES
        .iter()
        .flat_map(|rule| rule.patterns.iter())
        .map(|pattern| format!("(?mR){}", pattern.as_str().replace(r"\b", r"(?-u:\b)")));
    // The set tracks many patterns at once: with the default cache its lazy
    // automaton is rebuilt over and over on long scripts (see BENCHMARKS.md).
    regex::RegexSetBuilder::new(patterns)
        .dfa_size_limit(64 << 20)
        .build()
        .expect("valid rule patterns")
});

/// The first invisible character of `line` that could hide text, with
/// its column: a byte-order mark opening the file, and a zero-width
/// joiner between two non-ASCII characters (emoji sequences), are not.
fn hidden_char(line: &str, number: usize) -> Option<(usize, char)> {
    if line.is_ascii() {
        return None;
    }
    let chars: Vec<char> = line.chars().collect();
    chars.iter().enumerate().find_map(|(i, &c)| {
        crate::skill::hidden::describe(c)?;
        if c == '\u{FEFF}' && i == 0 && number == 1 {
            return None;
        }
        let non_ascii = |at: Option<&char>| at.is_some_and(|c| !c.is_ascii());
        if matches!(c, '\u{200D}' | '\u{200C}')
            && non_ascii(i.checked_sub(1).and_then(|p| chars.get(p)))
            && non_ascii(chars.get(i + 1))
        {
            return None;
        }
        Some((i + 1, c))
    })
}
