//! A hermetic test context (temp home, config, cache, data and user root),
//! running skillpkg in it, and the fixtures the test files share.

mod fixtures;
pub(crate) mod referrers;
pub(crate) mod registry;
mod terminal;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use regex::Regex;

pub(crate) use fixtures::{
    AcmeIndex, copy_dir, fresh_copy, list_acme_key, new_project, project_with_packages,
    publish_args, repo_index, round_trip, tree,
};
pub(crate) use terminal::{in_terminal, in_terminal_typing, prompt_in};

/// An isolated environment for running skillpkg.
pub(crate) struct TestContext {
    pub temp: tempfile::TempDir,
    /// A project (a directory with `skills.toml`), the working directory.
    pub project: PathBuf,
    /// Whether commands run with `SKILLPKG_SANDBOX=off`: in a build
    /// without a sandbox backend, which refuses commands unless the
    /// sandbox is off, the tests that are not about the sandbox run them
    /// as a user of such a platform would choose to.
    pub sandbox_off: bool,
}

impl TestContext {
    pub(crate) fn new() -> TestContext {
        let temp = tempfile::tempdir().unwrap();
        let project = temp.path().join("project");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(project.join("skills.toml"), "").unwrap();
        for dir in ["home", "cache", "config", "data", "user-skills"] {
            std::fs::create_dir_all(temp.path().join(dir)).unwrap();
        }
        TestContext {
            temp,
            project,
            sandbox_off: !cfg!(feature = "linux-sandbox"),
        }
    }

    /// This context, with the sandbox as the build and the machine give
    /// it: for the tests of the sandbox's own settings.
    pub(crate) fn with_the_default_sandbox(mut self) -> TestContext {
        self.sandbox_off = false;
        self
    }

    pub(crate) fn root(&self) -> &Path {
        self.temp.path()
    }

    pub(crate) fn user_root(&self) -> PathBuf {
        self.temp.path().join("user-skills")
    }

    pub(crate) fn project_root(&self) -> PathBuf {
        self.project.join(".agents/skills")
    }

    /// `skillpkg` with every directory redirected into the temp dir.
    pub(crate) fn command(&self) -> Command {
        let mut cmd = Command::cargo_bin("skillpkg").unwrap();
        let t = self.temp.path();
        cmd.current_dir(&self.project)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", t.join("home"))
            .env("SKILLPKG_CONFIG_DIR", t.join("config"))
            .env("SKILLPKG_CACHE_DIR", t.join("cache"))
            .env("SKILLPKG_DATA_DIR", t.join("data"))
            .env("SKILLPKG_USER_ROOT", t.join("user-skills"))
            .env("NO_COLOR", "1")
            .env("RUST_BACKTRACE", "0")
            // Retries happen, without real backoff.
            .env("SKILLPKG_HTTP_RETRY_DELAY", "0");
        if self.sandbox_off {
            cmd.env("SKILLPKG_SANDBOX", "off");
        }
        cmd
    }

    /// Replaces what changes from run to run in `text`, for snapshots: the
    /// temp dir (`[TEMP]`), audit log names (`[RUN]`), the builtin skills'
    /// versioned cache folder (`[VERSION]`), git commits (`[COMMIT]`, and
    /// `[SHORT]` for the 12 hex digits reports show of one) and
    /// the random part of temporary folders (`[RANDOM]`); and drops the
    /// warning that the script sandbox cannot be set up, which depends on
    /// the machine (`tests/it/sandbox.rs` checks it unredacted).
    pub(crate) fn redact(&self, text: &str) -> String {
        static VARYING: LazyLock<[(Regex, &str); 6]> = LazyLock::new(|| {
            [
                (r"\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{6}", "[RUN]"),
                (r"builtin/[^/\s]+-[0-9a-f]{16}", "builtin/[VERSION]"),
                (r"\b[0-9a-f]{40}\b", "[COMMIT]"),
                (r"\b[0-9a-f]{12}\b", "[SHORT]"),
                (r"\.source-[0-9A-Za-z]{6}", ".source-[RANDOM]"),
                (
                    r"(?m)^warning: the sandbox for scripts and shell commands cannot be set up here \(.*\), so they are refused; .*\n",
                    "",
                ),
            ]
            .map(|(pattern, with)| (Regex::new(pattern).unwrap(), with))
        });
        let canonical = self.temp.path().canonicalize().unwrap();
        let mut text = text
            .replace(&canonical.display().to_string(), "[TEMP]")
            .replace(&self.temp.path().display().to_string(), "[TEMP]");
        for (pattern, with) in VARYING.iter() {
            text = pattern.replace_all(&text, *with).into_owned();
        }
        text
    }

    /// Runs `skillpkg <args>` in the project.
    pub(crate) fn run(&self, args: &[&str]) -> Output {
        self.run_in(&self.project, args)
    }

    /// Runs `skillpkg <args>` in `dir`.
    pub(crate) fn run_in(&self, dir: &Path, args: &[&str]) -> Output {
        run(self.command().current_dir(dir).args(args))
    }

    /// Runs `skillpkg <args>` in the project and asserts that it succeeded.
    #[track_caller]
    pub(crate) fn ok(&self, args: &[&str]) -> Output {
        self.run(args).assert_ok()
    }

    /// Runs `skillpkg <args>` in `dir` and asserts that it succeeded.
    #[track_caller]
    pub(crate) fn ok_in(&self, dir: &Path, args: &[&str]) -> Output {
        self.run_in(dir, args).assert_ok()
    }

    /// Runs `skillpkg <args>` in the project and asserts that it failed (exit 1).
    #[track_caller]
    pub(crate) fn fails(&self, args: &[&str]) -> Output {
        self.run(args).assert_fails()
    }

    /// Runs `skillpkg <args>` in `dir` and asserts that it failed (exit 1).
    #[track_caller]
    pub(crate) fn fails_in(&self, dir: &Path, args: &[&str]) -> Output {
        self.run_in(dir, args).assert_fails()
    }

    /// A password-less key pair made by `skillpkg keygen` in `<temp>/<dir>`.
    #[track_caller]
    pub(crate) fn keygen(&self, dir: &str) -> Keys {
        let dir = self.root().join(dir);
        let out = run(self
            .command()
            .args(["keygen", "--no-password", "--out"])
            .arg(&dir))
        .assert_ok();
        Keys {
            public_file: dir.join("skillpkg.pub"),
            secret_file: dir.join("skillpkg.key"),
            public_key: out.stdout.trim().to_string(),
        }
    }
}

/// A signing key pair on disk.
pub(crate) struct Keys {
    /// The public key file (`skillpkg.pub`).
    pub public_file: PathBuf,
    /// The secret key file (`skillpkg.key`), not encrypted.
    pub secret_file: PathBuf,
    /// The public key itself, as `keygen` prints it and indexes list it.
    pub public_key: String,
}

/// Writes a skill directory `<root>/<dir>/SKILL.md` with `text`.
pub(crate) fn write_skill(root: &Path, dir: &str, text: &str) -> PathBuf {
    let path = root.join(dir);
    std::fs::create_dir_all(&path).unwrap();
    std::fs::write(path.join("SKILL.md"), text).unwrap();
    path
}

/// Runs `git -C dir args…` (with a committer identity), asserts that it
/// succeeded, and returns its stdout.
pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
    let mut git = Command::new("git");
    git.arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args);
    run(&mut git).assert_ok().stdout
}

/// Runs the independent checker `script` (in tests/reference/) under
/// python3 with `args`. `None`, said loudly, when python3 or the Python
/// packages the checker needs (it exits 3 then; `install` says how to get
/// them) are missing outside CI; under CI, a failure.
pub(crate) fn python_reference(
    script: &str,
    args: &[&std::ffi::OsStr],
    what: &str,
    install: &str,
) -> Option<std::process::Output> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/reference")
        .join(script);
    let Ok(out) = Command::new("python3").arg(&script).args(args).output() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 is needed under CI"
        );
        eprintln!("SKIPPED: python3 is not available to validate {what}");
        return None;
    };
    if out.status.code() == Some(3) {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            std::env::var_os("CI").is_none(),
            "the validator of {what} must be installed under CI: {stderr}"
        );
        eprintln!("SKIPPED: {stderr}({install})");
        return None;
    }
    Some(out)
}

/// Whether the `program` that the apt package `package` installs is here;
/// says loudly that the test is skipped when it is not, and fails under
/// CI, which installs it.
pub(crate) fn has_program(program: &str, package: &str) -> bool {
    let found = has_program_quietly(program);
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install {package} (apt-get install {package})"
        );
        eprintln!("SKIPPED: {program} is not installed (apt-get install {package})");
    }
    found
}

/// Whether `program` is an executable on PATH.
pub(crate) fn has_program_quietly(program: &str) -> bool {
    // Looked up on PATH, not run: some programs start a daemon or a
    // session, or write a log, whatever flag they are given.
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            std::fs::metadata(dir.join(program)).is_ok_and(|m| {
                use std::os::unix::fs::PermissionsExt as _;
                m.is_file() && m.permissions().mode() & 0o111 != 0
            })
        })
    })
}

/// Whether pdftotext (poppler-utils) is installed; see [`has_program`].
pub(crate) fn has_pdftotext() -> bool {
    has_program("pdftotext", "poppler-utils")
}

/// A minimal valid SKILL.md.
pub(crate) fn skill_md(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nInstructions.\n")
}

/// Output of a finished command, as text.
pub(crate) struct Output {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
    /// The program's file name and the arguments it ran with.
    command: Vec<String>,
}

impl Output {
    /// Asserts that the command succeeded (exit 0), showing its stderr if not.
    #[track_caller]
    pub(crate) fn assert_ok(self) -> Output {
        self.assert_status(0)
    }

    /// Asserts that the command failed (exit 1, not a usage error or a crash).
    #[track_caller]
    pub(crate) fn assert_fails(self) -> Output {
        self.assert_status(1)
    }

    /// `$ <command line>` and what it wrote on stderr: one run in a
    /// snapshot of several.
    pub(crate) fn transcript(&self) -> String {
        format!("$ {}\n{}", self.command.join(" "), self.stderr)
    }

    #[track_caller]
    fn assert_status(self, expected: i32) -> Output {
        assert_eq!(
            self.status, expected,
            "{:?} exited {}, not {expected}\nstdout:\n{}\nstderr:\n{}",
            self.command, self.status, self.stdout, self.stderr
        );
        self
    }
}

/// Runs `cmd` to its end.
pub(crate) fn run(cmd: &mut Command) -> Output {
    let program = Path::new(cmd.get_program()).file_name().unwrap_or_default();
    let command = std::iter::once(program)
        .chain(cmd.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let out = cmd.output().unwrap();
    Output {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        command,
    }
}

/// Polls `ready` every 20 ms until it holds; after 30 s, panics with the
/// message `what` gives.
#[track_caller]
pub(crate) fn wait_until(mut ready: impl FnMut() -> bool, what: impl FnOnce() -> String) {
    let started = Instant::now();
    while !ready() {
        if started.elapsed() > Duration::from_secs(30) {
            panic!("waited 30 s in vain: {}", what());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether a live process (not a zombie) has `arg` among its arguments:
/// how a test finds what a sandboxed command started, since the pids the
/// command sees are those of its own PID namespace.
pub(crate) fn running_with_arg(arg: &str) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.filter_map(Result::ok).any(|entry| {
        let dir = entry.path();
        let zombie = std::fs::read_to_string(dir.join("stat")).map_or(true, |stat| {
            stat.rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next()
                == Some("Z")
        });
        !zombie
            && std::fs::read(dir.join("cmdline"))
                .is_ok_and(|line| line.split(|b| *b == 0).any(|a| a == arg.as_bytes()))
    })
}

/// The reference validator's verdicts on `dirs`, or `None` (with a loud
/// message) when Python's `skills-ref` is not installed.
pub(crate) fn reference_verdicts(dirs: &[PathBuf]) -> Option<Vec<serde_json::Value>> {
    use std::io::Write;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/verdicts.py");
    let child = Command::new("python3")
        .arg(&script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!(
            "SKIPPED: python3 is not available; install it and `pip install skills-ref==0.1.1`"
        );
        return None;
    };
    // Feed stdin from another thread: the child's stdout must drain meanwhile.
    let mut stdin = child.stdin.take().unwrap();
    let input: String = dirs.iter().map(|d| format!("{}\n", d.display())).collect();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    // A validator that failed to start stops reading: its pipe breaks.
    let written = writer.join().unwrap();
    if out.status.success() {
        written.unwrap();
    } else {
        let stderr = String::from_utf8_lossy(&out.stderr);
        if stderr.contains("No module named 'skills_ref'") && std::env::var_os("CI").is_none() {
            eprintln!(
                "SKIPPED: the reference validator is missing: `pip install skills-ref==0.1.1`"
            );
            return None;
        }
        panic!("reference validator failed: {stderr}");
    }
    Some(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    )
}

/// skillpkg's verdicts on `dirs` (one `validate --json` run), in order.
pub(crate) fn skillpkg_verdicts(ctx: &TestContext, dirs: &[PathBuf]) -> Vec<serde_json::Value> {
    let mut all = Vec::new();
    for chunk in dirs.chunks(2000) {
        let out = run(ctx.command().arg("validate").arg("--json").args(chunk));
        assert!(
            out.status == 0 || out.status == 1,
            "validate crashed: {}",
            out.stderr
        );
        let reports: Vec<serde_json::Value> = serde_json::from_str(&out.stdout).unwrap();
        all.extend(reports);
    }
    all
}
