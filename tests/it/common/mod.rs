//! A hermetic test context: temp home, config, cache, data and user root.

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

/// An isolated environment for running skillpkg.
pub(crate) struct TestContext {
    pub temp: tempfile::TempDir,
    /// A project (a directory with `skills.toml`), the working directory.
    pub project: PathBuf,
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
        TestContext { temp, project }
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
        cmd
    }

    /// Replaces the temp dir in `text` with `[TEMP]`, for snapshots.
    pub(crate) fn redact(&self, text: &str) -> String {
        let canonical = self.temp.path().canonicalize().unwrap();
        text.replace(&canonical.display().to_string(), "[TEMP]")
            .replace(&self.temp.path().display().to_string(), "[TEMP]")
    }
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
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Starts `skillpkg <args>` in `dir` on a pseudo-terminal made by script(1)
/// (with TERM=xterm, output flushed as it comes), stdin and stdout piped.
fn spawn_in_terminal(ctx: &TestContext, dir: &Path, args: &str) -> std::process::Child {
    let base = ctx.command();
    let mut cmd = Command::new("script");
    cmd.env_clear().current_dir(dir).env("TERM", "xterm");
    for (key, value) in base.get_envs() {
        if let Some(value) = value {
            cmd.env(key, value);
        }
    }
    let line = format!("{} {args}", base.get_program().to_string_lossy());
    cmd.args(["-qfec", &line, "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `skillpkg <args>` in `dir` on a pseudo-terminal made by script(1)
/// (with TERM=xterm), typing `input`; returns whether it succeeded and
/// what the terminal showed.
pub(crate) fn in_terminal(
    ctx: &TestContext,
    dir: &Path,
    args: &str,
    input: &str,
) -> (bool, String) {
    use std::io::Write;
    let mut child = spawn_in_terminal(ctx, dir, args);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Like [`in_terminal`], but types each of `lines` only once the program
/// has shown `prompt` one more time (a line editor discards what is typed
/// ahead of its prompt, as a terminal user would not).
pub(crate) fn in_terminal_typing(
    ctx: &TestContext,
    dir: &Path,
    args: &str,
    prompt: &str,
    lines: &[&str],
) -> (bool, String) {
    use std::io::{Read, Write};
    use std::sync::{Arc, Mutex};
    let mut child = spawn_in_terminal(ctx, dir, args);
    let shown = Arc::new(Mutex::new(String::new()));
    let mut stdout = child.stdout.take().unwrap();
    let reader = {
        let shown = shown.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                shown
                    .lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    };
    let mut stdin = child.stdin.take().unwrap();
    for (typed, line) in lines.iter().enumerate() {
        let started = std::time::Instant::now();
        while shown.lock().unwrap().matches(prompt).count() <= typed {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(30),
                "no prompt {} in: {}",
                typed + 1,
                shown.lock().unwrap()
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }
    let status = child.wait().unwrap();
    drop(stdin);
    reader.join().unwrap();
    let shown = shown.lock().unwrap().clone();
    (status.success(), shown)
}

/// Whether pdftotext (poppler-utils) is installed; says loudly that the
/// test is skipped when it is not, and fails under CI, which installs it.
pub(crate) fn has_pdftotext() -> bool {
    let found = Command::new("pdftotext").arg("-v").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install poppler-utils"
        );
        eprintln!("SKIPPED: pdftotext is not installed (apt-get install poppler-utils)");
    }
    found
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
}

pub(crate) fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    Output {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
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
    writer.join().unwrap().unwrap();
    if !out.status.success() {
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
