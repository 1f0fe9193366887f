//! Running skillpkg on a pseudo-terminal made by script(1), as a user would.

use std::path::Path;
use std::process::Command;

use super::{TestContext, wait_until};

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
        wait_until(
            || shown.lock().unwrap().matches(prompt).count() > typed,
            || format!("no prompt {} in: {}", typed + 1, shown.lock().unwrap()),
        );
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }
    let status = child.wait().unwrap();
    drop(stdin);
    reader.join().unwrap();
    let shown = shown.lock().unwrap().clone();
    (status.success(), shown)
}

/// The escape sequence a progress bar clears its line with.
const CLEAR_LINE: &str = "\x1b[2K";

/// What a prompt showed on the terminal: the text `shown` holds from the
/// start of the line of the last `first` (after a progress bar the line
/// held and cleared) through the next `question`, with the terminal's
/// `\r\n` as `\n`.
pub(crate) fn prompt_in(shown: &str, first: &str, question: &str) -> String {
    let shown = shown.replace("\r\n", "\n");
    let start = shown
        .rfind(first)
        .unwrap_or_else(|| panic!("no {first:?} in: {shown}"));
    let start = shown[..start]
        .rfind(['\n', '\r'])
        .map_or(0, |newline| newline + 1);
    let start = match shown[start..].starts_with(CLEAR_LINE) {
        true => start + CLEAR_LINE.len(),
        false => start,
    };
    let length = shown[start..]
        .find(question)
        .unwrap_or_else(|| panic!("no {question:?} after {first:?} in: {shown}"));
    shown[start..start + length + question.len()].to_string()
}
