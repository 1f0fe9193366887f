//! Rules that look at a whole script rather than one line: a credential
//! file or the environment read where the same script talks to the
//! network, a secret sent to where it does not belong, a download made
//! executable, a socket wired to a shell, and install hooks.

use std::sync::LazyLock;

use regex::Regex;

use super::file::{Kind, Read};
use super::finding::{Finding, Severity, excerpt};
use super::pattern::regex;

/// A credential file read (not merely named).
static CREDENTIAL_READ: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)(?:\bcat\b|\bhead\b|\btail\b|\bbase64\b|\bxxd\b|\btar\b|\bzip\b|\bcp\b|\bscp\b|open\s*\(|read_text|read_bytes|readFile|Get-Content|\bgc\b|<\s*)[^\n]*(?:\.ssh/(?:id_[a-z0-9]+|authorized_keys)|\.ssh\b[\x22'/]?\s*$|\.aws/credentials|\.git-credentials|\.netrc\b|\.docker/config\.json|\.kube/config|\.gnupg/|/etc/shadow|\.npmrc\b|\.pypirc\b|\.config/gh/hosts\.yml)",
    )
});

/// The whole environment dumped.
static ENV_DUMP: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?:\b(?:env|printenv)\s*(?:\||>)|dict\(\s*os\.environ\s*\)|json\.dumps\(\s*(?:dict\(\s*)?os\.environ|str\(\s*os\.environ\s*\)|JSON\.stringify\(\s*process\.env\s*\)|(?i:Get-ChildItem\s+env:|\bgci\s+env:))",
    )
});

/// The environment walked (to pick variables by name).
static ENV_WALK: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"os\.environ\.items\(\)|for\s+\w+\s+in\s+os\.environ\b|Object\.(?:entries|keys)\(\s*process\.env\s*\)|for\s*\(\s*(?:const|let|var)\s+\w+\s+in\s+process\.env\b",
    )
});

/// A secret word quoted, as a filter over variable names.
static SECRET_WORD: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?i)[\x22'](?:API_?KEY|KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE)[\x22']")
});

/// A call that sends something over the network.
static NETWORK: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(?:curl|wget|nc|ncat|netcat|socat)\b|requests\.(?:post|put|patch|get)\s*\(|\bhttpx\.|urllib\.request|urlopen\s*\(|http\.client|\bfetch\s*\(|\baxios\b|XMLHttpRequest|Invoke-WebRequest|Invoke-RestMethod|\biwr\b|\birm\b|socket\.(?:socket|create_connection)|smtplib|/dev/tcp/",
    )
});

/// A secret-looking variable on a line, with its name.
static SECRET_VAR: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?:\$\{?|os\.environ(?:\.get\(|\[)\s*[\x22']|process\.env\.|getenv\(\s*[\x22'])((?:[A-Z][A-Z0-9_]*)?(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*)",
    )
});

/// The host of each URL on a line.
static URL_HOST: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\bhttps?://(?:[^/\s@\x22']*@)?([a-z0-9.-]+|\[[0-9a-f:]+\])"));

/// A download written to a file, and a file made executable.
static DOWNLOAD: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\b(?:curl|wget)\b[^\n]*(?:\s-o\s*\S|\s-O\b|--output\b|>\s*\S)"));
static CHMOD_X: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\bchmod\s+(?:-\w+\s+)*(?:[ugoa]*\+x|[0-7]?[0-7][1357][0-7]?\b)"));

/// Known services' tokens, by a word of the variable's name, and the
/// hosts they belong to.
const SERVICES: &[(&str, &[&str])] = &[
    (
        "GITHUB",
        &["github.com", "githubusercontent.com", "ghcr.io"],
    ),
    ("GH", &["github.com", "githubusercontent.com", "ghcr.io"]),
    ("GITLAB", &["gitlab.com", "gitlab"]),
    ("AWS", &["amazonaws.com", "aws.amazon.com"]),
    ("SLACK", &["slack.com"]),
    ("STRIPE", &["stripe.com"]),
    ("HF", &["huggingface.co", "hf.co"]),
    ("HUGGINGFACE", &["huggingface.co", "hf.co"]),
    ("NPM", &["npmjs.org", "npmjs.com"]),
    ("ANTHROPIC", &["anthropic.com"]),
];

fn is_private_or_loopback(ip: &std::net::IpAddr) -> bool {
    match ip {
        std::net::IpAddr::V4(v4) => {
            v4.is_private() || v4.is_loopback() || v4.is_link_local() || v4.is_unspecified()
        }
        std::net::IpAddr::V6(v6) => v6.is_loopback() || v6.is_unspecified(),
    }
}

/// Why sending the secret `var` to `host` is exfiltration, if it is.
fn misdirected(var: &str, host: &str) -> Option<String> {
    let host = host.trim_matches(['[', ']']).to_ascii_lowercase();
    if let Ok(ip) = host.parse::<std::net::IpAddr>() {
        return (!is_private_or_loopback(&ip))
            .then(|| format!("{var} is sent to the raw address {host}"));
    }
    let words: Vec<&str> = var.split('_').collect();
    let (service, hosts) = SERVICES
        .iter()
        .find(|(word, _)| words.first() == Some(word))?;
    // A bare word (`gitlab`) is a self-hosted instance's label; a domain
    // must be the host or its parent (`github.com.evil.example` is not).
    let own = hosts.iter().any(|h| {
        host == *h
            || host.ends_with(&format!(".{h}"))
            || (!h.contains('.') && host.split('.').any(|label| label == *h))
    });
    let local = host == "localhost" || host.ends_with(".local");
    (!own && !local)
        .then(|| format!("{var}, a {service} token, is sent to {host}, which is not {service}'s"))
}

/// The whole-file findings of `read`, whose lines are `lines`.
pub(crate) fn scan(read: &Read, text: &str, lines: &[(usize, &str, bool)]) -> Vec<Finding> {
    let mut findings = Vec::new();
    let finding =
        |rule: &'static str, severity, line: usize, message: String, text: &str| Finding {
            rule,
            severity,
            file: read.relative.clone(),
            line: Some(line),
            message,
            excerpt: excerpt(text),
            waived: None,
        };
    if read.kind == Kind::PackageJson {
        findings.extend(lifecycle_hooks(read, text, lines));
    }
    if read.relative.ends_with("setup.py")
        && let Some(&(n, line, _)) = lines.iter().find(|(_, l, _)| l.contains("cmdclass"))
    {
        findings.push(finding(
            "lifecycle-script",
            Severity::Warn,
            n,
            "setup.py installs custom commands, which run code at install".into(),
            line,
        ));
    }
    if !matches!(read.kind, Kind::Script | Kind::PackageJson) {
        return findings;
    }
    let network = lines.iter().find(|(_, l, _)| NETWORK.is_match(l));
    if let Some(&(_, _, _)) = network {
        for &(n, line, _) in lines {
            if CREDENTIAL_READ.is_match(line) {
                findings.push(finding(
                    "secret-exfiltration",
                    Severity::Block,
                    n,
                    "a credential file is read in a script that talks to the network".into(),
                    line,
                ));
            } else if ENV_WALK.is_match(line) && SECRET_WORD.find_iter(text).count() >= 2 {
                findings.push(finding(
                    "secret-exfiltration",
                    Severity::Block,
                    n,
                    "environment variables are picked by secret-looking names in a script that talks to the network".into(),
                    line,
                ));
            } else if ENV_DUMP.is_match(line) {
                findings.push(finding(
                    "secret-exfiltration",
                    Severity::Block,
                    n,
                    "the whole environment is dumped in a script that talks to the network".into(),
                    line,
                ));
            }
        }
    }
    for &(n, line, _) in lines {
        let Some(var) = SECRET_VAR.captures(line).and_then(|c| c.get(1)) else {
            continue;
        };
        let why = URL_HOST
            .captures_iter(line)
            .filter_map(|c| c.get(1))
            .find_map(|host| misdirected(var.as_str(), host.as_str()));
        if let Some(why) = why {
            findings.push(finding(
                "secret-exfiltration",
                Severity::Block,
                n,
                why,
                line,
            ));
        }
    }
    let download = lines.iter().find(|(_, l, _)| DOWNLOAD.is_match(l));
    let chmod = lines.iter().find(|(_, l, _)| CHMOD_X.is_match(l));
    if let (Some(_), Some(&(n, line, _))) = (download, chmod) {
        findings.push(finding(
            "remote-code-run",
            Severity::Block,
            n,
            "a download is made executable".into(),
            line,
        ));
    }
    let socket = text.contains("socket.socket(") || text.contains("socket.create_connection(");
    let shell = [
        "/bin/sh",
        "/bin/bash",
        "pty.spawn",
        "subprocess.call([\"/bin",
    ]
    .iter()
    .any(|s| text.contains(s));
    if socket
        && text.contains("dup2(")
        && shell
        && let Some(&(n, line, _)) = lines.iter().find(|(_, l, _)| l.contains("dup2("))
    {
        findings.push(finding(
            "reverse-shell",
            Severity::Block,
            n,
            "a socket is wired to a shell's input and output".into(),
            line,
        ));
    }
    findings
}

/// `package.json`'s install hooks.
fn lifecycle_hooks(read: &Read, text: &str, lines: &[(usize, &str, bool)]) -> Vec<Finding> {
    const HOOKS: &[&str] = &[
        "preinstall",
        "install",
        "postinstall",
        "prepare",
        "preuninstall",
        "postuninstall",
    ];
    let Ok(serde_json::Value::Object(package)) = serde_json::from_str::<serde_json::Value>(text)
    else {
        return Vec::new();
    };
    let Some(serde_json::Value::Object(scripts)) = package.get("scripts") else {
        return Vec::new();
    };
    HOOKS
        .iter()
        .filter_map(|hook| {
            let command = scripts.get(*hook)?.as_str()?;
            let key = format!("\"{hook}\"");
            let &(n, line, _) = lines.iter().find(|(_, l, _)| l.contains(&key))?;
            Some(Finding {
                rule: "lifecycle-script",
                severity: Severity::Warn,
                file: read.relative.clone(),
                line: Some(n),
                message: format!("`npm install` runs its {hook} script: {}", excerpt(command)),
                excerpt: excerpt(line),
                waived: None,
            })
        })
        .collect()
}
