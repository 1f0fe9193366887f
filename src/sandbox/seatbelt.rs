//! The macOS backend: the same [`Spec`] the Linux helper gets, written as
//! a Seatbelt profile for `/usr/bin/sandbox-exec -p PROFILE` (the
//! mechanism Codex and Claude Code use there). The generator is plain
//! code over the spec, compiled and tested on every platform; the
//! profile's rules are docs/sandbox.md's, each under a `; rule:` line
//! naming the row of its table it enforces.
//!
//! Seatbelt has no mount namespace, so a fresh folder cannot be an empty
//! one: it is denied instead (no reads, no writes), with what the spec
//! puts back in it allowed again, and its ancestors' metadata readable so
//! that a path to the workspace can be looked up. Each rule is more
//! specific than those before it, so it holds whether the last matching
//! rule wins (as Seatbelt does) or the most specific one.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::spec::{RULES, Spec};

/// The one `sandbox-exec` used: the system's, never one found on `PATH`.
pub(crate) const SANDBOX_EXEC: &str = "/usr/bin/sandbox-exec";

/// The protected names inside the workspace, at any depth, as regular
/// expressions over the path beneath it (`sandbox::protected`'s rule):
/// whether `--allow-write` lifts each.
const PROTECTED: [(&str, bool); 8] = [
    (r"(.*/)?\.git(/.*)?", true),
    (r"(.*/)?\.skillpkg(/.*)?", false),
    (r"(.*/)?skills\.(toml|lock)", false),
    (r"(.*/)?\.[^/]+/skills(/.*)?", false),
    (r"(.*/)?\.claude/settings[^/]*\.json(/.*)?", true),
    (r"(.*/)?\.claude/hooks(/.*)?", true),
    (r"(.*/)?\.(cursor|codex|gemini|vscode)(/.*)?", true),
    (r"(.*/)?\.envrc", true),
];

/// The system settings any program may read (`sysctl`): the machine's
/// and the system's description, never another process's arguments.
const SYSCTLS: [&str; 14] = [
    "kern.argmax",
    "kern.hostname",
    "kern.maxfilesperproc",
    "kern.maxproc",
    "kern.osproductversion",
    "kern.osrelease",
    "kern.ostype",
    "kern.osversion",
    "kern.secure_kernel",
    "kern.usrstack64",
    "kern.version",
    "machdep.cpu.brand_string",
    "sysctl.proc_cputype",
    "vm.loadavg",
];

/// The system services a program with the network reaches: name
/// resolution and certificate checks.
const NETWORK_SERVICES: [&str; 4] = [
    "com.apple.dnssd.service",
    "com.apple.SystemConfiguration.DNSConfiguration",
    "com.apple.SystemConfiguration.configd",
    "com.apple.trustd.agent",
];

/// Where name resolution's socket is.
const RESOLVER_SOCKET: &str = "/private/var/run/mDNSResponder";

/// A path a profile cannot hold: a control character, or a quote where a
/// regular expression needs it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the sandbox profile cannot name {0}: it holds a control character or a quote")]
pub(crate) struct UnsafePath(pub PathBuf);

/// The Seatbelt profile that enforces `spec`, or the path it cannot
/// express.
pub(crate) fn profile(spec: &Spec) -> Result<String, UnsafePath> {
    let mut out = Profile::default();
    out.line("(version 1)");
    out.line("(deny default)");
    out.processes();
    out.basics();
    out.rule("see, of the home folder");
    out.line("(allow file-read*)");
    let fresh: Vec<&Path> = spec.fresh.iter().map(|f| f.path.as_path()).collect();
    out.statement("(deny file-read* file-write*", &subpaths(&fresh)?);
    let mut lookups = Vec::new();
    for bind in &spec.bound {
        lookups.extend(ancestors_within(&bind.path, &fresh));
    }
    out.statement("(allow file-read-metadata", &literals(&lookups)?);
    let bound: Vec<&Path> = spec.bound.iter().map(|b| b.path.as_path()).collect();
    out.statement("(allow file-read*", &subpaths(&bound)?);
    out.rule("write");
    // A fresh folder is writable on Linux because it is empty and the
    // command's own; here it is the host's, so it stays denied.
    let writable: Vec<&Path> = spec
        .writable
        .iter()
        .map(PathBuf::as_path)
        .filter(|path| !fresh.contains(path))
        .collect();
    out.statement("(allow file-write*", &subpaths(&writable)?);
    out.line(r#"(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/stdout") (literal "/dev/stderr") (literal "/dev/dtracehelper") (regex #"^/dev/fd/[0-9]+$"))"#);
    out.protected(spec)?;
    out.rule("never read");
    let hidden: Vec<&Path> = spec.hidden.iter().map(PathBuf::as_path).collect();
    out.statement("(deny file-read* file-write*", &subpaths(&hidden)?);
    out.rule("reach, of Unix sockets");
    out.line("(allow system-socket (socket-domain AF_UNIX))");
    let sockets: Vec<String> = subpaths(&writable)?
        .into_iter()
        .map(|place| format!("(local unix-socket {place})"))
        .collect();
    out.statement("(allow network-bind", &sockets);
    let remote: Vec<String> = subpaths(&writable)?
        .into_iter()
        .map(|place| format!("(remote unix-socket {place})"))
        .collect();
    out.statement("(allow network-outbound", &remote);
    out.kernel();
    out.network(spec.network);
    out.rule("environment");
    out.line("; built by skillpkg before the command starts (sandbox::allowed_environment)");
    Ok(out.text)
}

/// A profile being written.
#[derive(Default)]
struct Profile {
    text: String,
}

impl Profile {
    fn line(&mut self, line: &str) {
        self.text.push_str(line);
        self.text.push('\n');
    }

    /// The line naming the rule of docs/sandbox.md that what follows
    /// enforces.
    fn rule(&mut self, rule: &str) {
        debug_assert!(
            RULES.contains(&rule),
            "{rule} is no rule of docs/sandbox.md"
        );
        self.line(&format!("; rule: {rule}"));
    }

    /// `head` over `filters`, one a line; nothing when there are none.
    fn statement(&mut self, head: &str, filters: &[String]) {
        if filters.is_empty() {
            return;
        }
        self.line(head);
        for filter in filters {
            self.line(&format!("  {filter}"));
        }
        self.line(")");
    }

    fn processes(&mut self) {
        self.rule("processes");
        self.line("(allow process-exec process-fork)");
        self.line("(allow signal (target same-sandbox))");
        self.line("(allow process-info* (target same-sandbox))");
    }

    /// What almost every program needs: its preferences, a few system
    /// settings, user lookups, semaphores and a terminal of its own.
    fn basics(&mut self) {
        self.line("(allow user-preference-read)");
        let mut sysctls = vec![r#"(sysctl-name-prefix "hw.")"#.to_string()];
        sysctls.extend(SYSCTLS.iter().map(|name| format!("(sysctl-name {name:?})")));
        sysctls.push(r#"(sysctl-name-prefix "kern.proc.pid.")"#.into());
        self.statement("(allow sysctl-read", &sysctls);
        self.line(r#"(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))"#);
        self.line("(allow ipc-posix-sem)");
        self.line("(allow pseudo-tty)");
        self.line(r#"(allow file-read* file-write* file-ioctl (literal "/dev/ptmx"))"#);
        self.line(r#"(allow file-read* file-write* file-ioctl (require-all (regex #"^/dev/ttys[0-9]+$") (extension "com.apple.sandbox.pty")))"#);
    }

    /// What stays read-only in a writable workspace: the protected names
    /// at any depth, existing or not (`--allow-write` lifts those it may
    /// lift, beneath the paths it names), and every protected path the
    /// spec found, skills included.
    fn protected(&mut self, spec: &Spec) -> Result<(), UnsafePath> {
        self.rule("not write, inside the workspace");
        let Some(workspace) = spec
            .workdir
            .as_ref()
            .filter(|dir| spec.writable.contains(dir))
        else {
            return Ok(());
        };
        let root = regex_path(workspace)?;
        let lifted = subpaths(
            &spec
                .allow_write
                .iter()
                .map(PathBuf::as_path)
                .collect::<Vec<_>>(),
        )?;
        for (pattern, liftable) in PROTECTED {
            let regex = format!("(regex #\"^{root}/{pattern}$\")");
            match (liftable, lifted.is_empty()) {
                (true, false) => self.line(&format!(
                    "(deny file-write* (require-all {regex} (require-not (require-any {}))))",
                    lifted.join(" ")
                )),
                _ => self.line(&format!("(deny file-write* {regex})")),
            }
        }
        let read_only: Vec<&Path> = spec.read_only.iter().map(PathBuf::as_path).collect();
        self.statement("(deny file-write*", &subpaths(&read_only)?);
        Ok(())
    }

    /// What the kernel keeps from commands besides: the user's keychain,
    /// other processes' memory and tasks, and the user's terminals.
    fn kernel(&mut self) {
        self.rule("kernel");
        self.line(r#"(deny mach-lookup (global-name "com.apple.SecurityServer") (global-name-regex #"^com\.apple\.securityd"))"#);
        self.line("(deny mach-priv-task-port)");
        self.line("(deny process-info* (target others))");
        self.line(r#"(deny file-ioctl (literal "/dev/tty") (require-all (regex #"^/dev/ttys[0-9]+$") (require-not (extension "com.apple.sandbox.pty"))))"#);
    }

    fn network(&mut self, allowed: bool) {
        self.rule("network");
        if !allowed {
            self.line(r#"(deny network-outbound (remote ip "*:*"))"#);
            self.line(r#"(deny network-inbound (local ip "*:*"))"#);
            return;
        }
        self.line(r#"(allow network-outbound (remote ip "*:*"))"#);
        self.line(r#"(allow network-inbound (local ip "*:*"))"#);
        self.line(r#"(allow network-bind (local ip "*:*"))"#);
        self.line("(allow system-socket)");
        self.line(&format!(
            "(allow network-outbound (remote unix-socket (path-literal {})))",
            quoted(Path::new(RESOLVER_SOCKET)).unwrap_or_default()
        ));
        let services: Vec<String> = NETWORK_SERVICES
            .iter()
            .map(|name| format!("(global-name {name:?})"))
            .collect();
        self.statement("(allow mach-lookup", &services);
    }
}

/// `path` as a profile's string literal.
fn quoted(path: &Path) -> Result<String, UnsafePath> {
    let text = path.to_string_lossy();
    if text.chars().any(char::is_control) {
        return Err(UnsafePath(path.to_path_buf()));
    }
    Ok(format!(
        "\"{}\"",
        text.replace('\\', "\\\\").replace('"', "\\\"")
    ))
}

/// Each of `paths` as a `subpath` filter: itself and what lies beneath.
fn subpaths(paths: &[&Path]) -> Result<Vec<String>, UnsafePath> {
    paths
        .iter()
        .map(|path| Ok(format!("(subpath {})", quoted(path)?)))
        .collect()
}

/// Each of `paths` as a `literal` filter: itself only.
fn literals(paths: &[PathBuf]) -> Result<Vec<String>, UnsafePath> {
    let mut paths = paths.to_vec();
    paths.sort();
    paths.dedup();
    paths
        .iter()
        .map(|path| Ok(format!("(literal {})", quoted(path)?)))
        .collect()
}

/// The folders from the fresh folder holding `path` down to `path`'s
/// parent: what looking `path` up passes through.
fn ancestors_within(path: &Path, fresh: &[&Path]) -> Vec<PathBuf> {
    let Some(top) = fresh.iter().find(|f| path.starts_with(f)) else {
        return Vec::new();
    };
    path.ancestors()
        .skip(1)
        .take_while(|a| a.starts_with(top))
        .map(Path::to_path_buf)
        .collect()
}

/// `path` escaped for a regular expression inside `#"…"`.
fn regex_path(path: &Path) -> Result<String, UnsafePath> {
    let text = path.to_string_lossy();
    if text.chars().any(|c| c.is_control() || c == '"') {
        return Err(UnsafePath(path.to_path_buf()));
    }
    let mut escaped = String::new();
    for c in text.trim_end_matches('/').chars() {
        if r"\.+*?()|[]{}^$".contains(c) {
            escaped.push('\\');
        }
        let _ = write!(escaped, "{c}");
    }
    Ok(escaped)
}

#[cfg(test)]
mod tests;
