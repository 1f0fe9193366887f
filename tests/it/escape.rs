//! No way out of the sandbox (docs/sandbox.md): the doors an attack
//! review found — the user's tmux server, an ssh agent at a path of its
//! own, a command socket in `/tmp`, the kernel keyring, `ptrace`, terminal
//! injection, credential stores wherever their tools keep them — each
//! tried by a command the model runs, and each tried once more without
//! the sandbox, so a test that cannot bite says so instead of passing.

use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{TestContext, has_pdftotext, has_program, run};
use crate::sandbox::{sandbox_available, shell, shell_with};

/// A tmux server of the test's own, killed when dropped.
struct Tmux {
    socket: PathBuf,
}

impl Tmux {
    /// Starts a server with its socket under `tmpdir` (as `TMUX_TMPDIR`).
    fn start(tmpdir: &Path) -> Tmux {
        std::fs::create_dir_all(tmpdir).unwrap();
        let out = run(Command::new("tmux")
            .env("TMUX_TMPDIR", tmpdir)
            .env_remove("TMUX")
            .args(["new-session", "-d", "-s", "victim", "sleep 600"]));
        let _ = out.assert_ok();
        let socket = run(Command::new("tmux")
            .env("TMUX_TMPDIR", tmpdir)
            .env_remove("TMUX")
            .args(["display-message", "-p", "#{socket_path}"]))
        .assert_ok()
        .stdout;
        Tmux {
            socket: PathBuf::from(socket.trim()),
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .arg("kill-server")
            .output();
    }
}

/// An ssh agent listening at `socket`, killed when dropped.
struct SshAgent(u32);

impl SshAgent {
    fn start(socket: &Path) -> SshAgent {
        let out = run(Command::new("ssh-agent").arg("-a").arg(socket).arg("-s")).assert_ok();
        let pid = out
            .stdout
            .split(';')
            .find_map(|part| part.trim().strip_prefix("SSH_AGENT_PID="))
            .and_then(|pid| pid.parse().ok())
            .unwrap_or_else(|| panic!("{}", out.stdout));
        SshAgent(pid)
    }
}

impl Drop for SshAgent {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg(self.0.to_string()).output();
    }
}

/// A folder under `/tmp` of the test's own (the test context's root lies
/// there too, but a socket folder of a service is its own).
fn tmp_folder(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("skillpkg-test-{name}-"))
        .tempdir_in("/tmp")
        .unwrap()
}

#[test]
fn the_users_sockets_run_nothing_outside_with_or_without_the_network() {
    let ctx = TestContext::new();
    if !sandbox_available(&ctx)
        || !has_program("tmux", "tmux")
        || !has_program("ssh-agent", "openssh-client")
    {
        return;
    }
    let services = tmp_folder("services");
    let tmux = Tmux::start(&services.path().join("tmux"));
    let agent_socket = services.path().join("agent/ssh.sock");
    std::fs::create_dir_all(agent_socket.parent().unwrap()).unwrap();
    let _agent = SshAgent::start(&agent_socket);
    let command_socket = services.path().join("cmd.sock");
    let listener = UnixListener::bind(&command_socket).unwrap();
    listener.set_nonblocking(true).unwrap();
    let escaped = ctx.root().join("escaped");
    // What an attacker would run: every door it knows, by name and by
    // search.
    let attack = format!(
        "tmux -S {tmux} run-shell 'touch {escaped}' 2>&1; \
         find / -path /proc -prune -o -type s -print 2>/dev/null | sed 's/^/socket /'; \
         SSH_AUTH_SOCK={agent} ssh-add -l 2>&1; \
         python3 -c \"import socket; s=socket.socket(socket.AF_UNIX); s.connect('{cmd}'); print('connected')\" 2>&1; \
         echo tmpdir=$TMPDIR",
        tmux = tmux.socket.display(),
        escaped = escaped.display(),
        agent = agent_socket.display(),
        cmd = command_socket.display(),
    );
    for flags in [&[][..], &["--allow-network"][..]] {
        let (out, result) = shell(&ctx, &attack, flags);
        out.assert_ok();
        assert!(
            !escaped.exists(),
            "a command ran outside ({flags:?}): {result}"
        );
        assert!(!result.contains("connected"), "{result}");
        assert!(!result.contains("The agent has no identities"), "{result}");
        assert!(listener.accept().is_err(), "the command socket was reached");
        // Sockets inside the sandbox lie in the workspace or TMPDIR only.
        let tmpdir = result
            .lines()
            .find_map(|l| l.strip_prefix("tmpdir="))
            .unwrap_or_else(|| panic!("{result}"));
        let project = std::fs::canonicalize(&ctx.project).unwrap();
        for socket in result.lines().filter_map(|l| l.strip_prefix("socket ")) {
            assert!(
                Path::new(socket).starts_with(&project) || socket.starts_with(tmpdir),
                "a socket outside the workspace is visible: {socket}"
            );
        }
    }
    // Without the sandbox the same attack gets through: the test bites.
    let (_, result) = shell(&ctx, &attack, &["--sandbox", "off"]);
    assert!(
        escaped.exists(),
        "the attack does not work even unsandboxed: {result}"
    );
    assert!(result.contains("connected"), "{result}");
}

#[test]
fn the_keyring_ptrace_and_terminal_injection_are_refused() {
    let ctx = TestContext::new();
    if !sandbox_available(&ctx) || !has_program("keyctl", "keyutils") {
        return;
    }
    let description = format!("skillpkg-test-{}", std::process::id());
    let key =
        run(Command::new("keyctl").args(["add", "user", &description, "key-secret-value", "@u"]))
            .assert_ok()
            .stdout
            .trim()
            .to_string();
    let attack = format!(
        "keyctl print {key} 2>&1; keyctl search @u user {description} 2>&1; \
         keyctl search @s user {description} 2>&1; keyctl show @s 2>&1; \
         python3 - <<'EOF'\n{PROBES}\nEOF\n"
    );
    let (out, sandboxed) = shell(&ctx, &attack, &[]);
    let (_, unsandboxed) = shell(&ctx, &attack, &["--sandbox", "off"]);
    let _ = Command::new("keyctl").args(["unlink", &key, "@u"]).output();
    out.assert_ok();
    assert!(!sandboxed.contains("key-secret-value"), "{sandboxed}");
    assert!(!sandboxed.contains(&description), "{sandboxed}");
    assert!(sandboxed.contains("ptrace refused"), "{sandboxed}");
    assert!(sandboxed.contains("tiocsti refused"), "{sandboxed}");
    // The same probes, unsandboxed: the key is read, the parent traced.
    assert!(unsandboxed.contains("key-secret-value"), "{unsandboxed}");
    assert!(unsandboxed.contains("ptrace allowed"), "{unsandboxed}");
    let legacy =
        std::fs::read_to_string("/proc/sys/dev/tty/legacy_tiocsti").is_ok_and(|v| v.trim() == "1");
    if legacy {
        assert!(unsandboxed.contains("tiocsti allowed"), "{unsandboxed}");
    } else {
        eprintln!(
            "NOTE: dev.tty.legacy_tiocsti=0 here, so the kernel refuses TIOCSTI anyway; the sandbox's own refusal is not tested"
        );
    }
}

/// Python that tries `ptrace` on its parent and `TIOCSTI` on a terminal
/// of its own (made its controlling terminal), printing what happened.
/// Inside the sandbox no terminal can be opened at all (Landlock leaves
/// `/dev/ptmx` and `/dev/pts` out), and the command has none of its own
/// (it starts in a new session); the seccomp rule against `TIOCSTI` is a
/// third wall behind those two.
const PROBES: &str = r#"
import ctypes, fcntl, os, termios
libc = ctypes.CDLL(None, use_errno=True)
child = os.fork()
if child == 0:
    # PTRACE_SEIZE: attaches without stopping the parent; the tracer's
    # exit detaches it again.
    r = libc.ptrace(0x4206, os.getppid(), 0, 0)
    print("ptrace", "allowed" if r == 0 else "refused", flush=True)
    os._exit(0)
os.waitpid(child, 0)
child = os.fork()
if child == 0:
    os.setsid()
    try:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        fcntl.ioctl(slave, termios.TIOCSTI, b"x")
        print("tiocsti allowed", flush=True)
    except OSError as e:
        print("tiocsti refused", e, flush=True)
    os._exit(0)
os.waitpid(child, 0)
"#;

/// Credential stores at their standard places in the home folder.
const IN_HOME: [&str; 35] = [
    ".ssh/id_ed25519",
    ".gnupg/private-keys-v1.d/key",
    ".password-store/bank.gpg",
    ".aws/credentials",
    ".aws/sso/cache/token.json",
    ".aws/cli/cache/session.json",
    ".azure/msal_token_cache.json",
    ".kube/config",
    ".netrc",
    ".git-credentials",
    ".docker/config.json",
    ".npmrc",
    ".yarnrc.yml",
    ".pypirc",
    ".gem/credentials",
    ".cargo/credentials.toml",
    ".m2/settings.xml",
    ".gradle/gradle.properties",
    ".composer/auth.json",
    ".terraform.d/credentials.tfrc.json",
    ".vault-token",
    ".pulumi/credentials.json",
    ".s3cfg",
    ".databrickscfg",
    ".snowflake/connections.toml",
    ".oci/config",
    ".claude/.credentials.json",
    ".codex/auth.json",
    ".gemini/oauth_creds.json",
    ".cache/huggingface/token",
    ".config/gh/hosts.yml",
    ".config/gcloud/credentials.db",
    ".config/git/credentials",
    ".config/rclone/rclone.conf",
    ".config/containers/auth.json",
];

/// Credential stores where their tools' variables put them: the variable,
/// the value (under the planted folder), and the store's file there.
const BY_VARIABLE: [(&str, &str, &str); 12] = [
    ("XDG_CONFIG_HOME", "xdg", "xdg/gh/hosts.yml"),
    ("DOCKER_CONFIG", "docker", "docker/config.json"),
    ("GH_CONFIG_DIR", "gh", "gh/hosts.yml"),
    ("KUBECONFIG", "kube/config", "kube/config"),
    ("AWS_SHARED_CREDENTIALS_FILE", "aws-creds", "aws-creds"),
    ("CLOUDSDK_CONFIG", "gcloud", "gcloud/credentials.db"),
    ("AZURE_CONFIG_DIR", "azure", "azure/accessTokens.json"),
    ("NPM_CONFIG_USERCONFIG", "npmrc", "npmrc"),
    ("GNUPGHOME", "gnupg", "gnupg/secring.gpg"),
    ("CARGO_HOME", "cargo", "cargo/credentials.toml"),
    ("PASSWORD_STORE_DIR", "pass", "pass/bank.gpg"),
    ("CLAUDE_CONFIG_DIR", "claude", "claude/.credentials.json"),
];

#[test]
fn credential_stores_are_unreadable_wherever_their_tools_keep_them() {
    let ctx = TestContext::new();
    if !sandbox_available(&ctx) {
        return;
    }
    let home = ctx.root().join("home");
    let plant = |path: &Path| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "secret-store\n").unwrap();
    };
    for store in IN_HOME {
        plant(&home.join(store));
    }
    // Outside the home, in a folder the user lets commands read, beside
    // a toolchain that must stay usable.
    let elsewhere = ctx.root().join("elsewhere");
    let mut env: Vec<(String, String)> = Vec::new();
    for (variable, value, store) in BY_VARIABLE {
        plant(&elsewhere.join(store));
        env.push((variable.into(), elsewhere.join(value).display().to_string()));
    }
    let tool = |path: PathBuf, says: &str| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("#!/bin/sh\necho {says}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    tool(home.join(".local/bin/home-tool"), "home-tool-works");
    tool(elsewhere.join("cargo/bin/cargo-tool"), "cargo-tool-works");
    std::fs::write(elsewhere.join("notes.txt"), "readable notes\n").unwrap();
    std::fs::write(
        ctx.root().join("config/credentials.toml"),
        "secret-config\n",
    )
    .unwrap();
    let stores: Vec<PathBuf> = IN_HOME
        .iter()
        .map(|store| home.join(store))
        .chain(
            BY_VARIABLE
                .iter()
                .map(|(_, _, store)| elsewhere.join(store)),
        )
        .chain([ctx.root().join("config/credentials.toml")])
        .collect();
    assert!(stores.len() >= 30);
    let reads: String = stores
        .iter()
        .map(|store| format!("cat '{}' 2>/dev/null; ", store.display()))
        .collect();
    let works = format!(
        "{reads} \"$HOME/.local/bin/home-tool\"; '{}'; cat '{}'; python3 -c 'print(\"python-works\")'; echo done",
        elsewhere.join("cargo/bin/cargo-tool").display(),
        elsewhere.join("notes.txt").display(),
    );
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let read = elsewhere.display().to_string();
    let (out, result) = shell_with(&ctx, &works, &["--read", &read], &env);
    out.assert_ok();
    assert!(!result.contains("secret"), "{result}");
    for works in [
        "home-tool-works",
        "cargo-tool-works",
        "readable notes",
        "python-works",
    ] {
        assert!(result.contains(works), "{works}: {result}");
    }
    // Credential files stay hidden whatever is added: even the whole home
    // folder and the folder that holds skillpkg's config dir.
    let home_flag = home.display().to_string();
    let config_parent = ctx.root().display().to_string();
    let (out, result) = shell_with(
        &ctx,
        &works,
        &[
            "--read",
            &read,
            "--read",
            &home_flag,
            "--read",
            &config_parent,
        ],
        &env,
    );
    out.assert_ok();
    assert!(!result.contains("secret"), "{result}");
    assert!(result.contains("home-tool-works"), "{result}");
    // Without --read the folder is out of sight altogether.
    let (_, result) = shell_with(&ctx, &works, &[], &env);
    assert!(!result.contains("readable notes"), "{result}");
    // Unsandboxed, the same reads find every store: the test bites.
    let (_, result) = shell_with(&ctx, &works, &["--sandbox", "off"], &env);
    let found = result.matches("secret-store").count();
    assert_eq!(found, stores.len() - 1, "{result}");
    if has_pdftotext() {
        let (out, result) = shell(&ctx, "pdftotext -v 2>&1 | head -1", &[]);
        out.assert_ok();
        assert!(result.contains("pdftotext version"), "{result}");
    }
}
