//! The shell command line that runs what a `run_script` call runs, so
//! that a skill's approved shell grants can cover its own scripts.
//!
//! `run_script` executes the script file itself, and the system reads its
//! `#!` line to pick the interpreter. The equivalent command line mirrors
//! that exactly: `#!/usr/bin/env python3` gives
//! `python3 scripts/stats.py ARGS` (`env` finds `python3` on `PATH` as a
//! shell would); an interpreter in `/bin` or `/usr/bin` is named as a
//! shell finds it there (`#!/bin/bash` gives `bash scripts/x.sh`), any
//! other by its path as written; the `#!` line's one optional argument
//! follows the interpreter. A script with no `#!` line is the command
//! itself (`scripts/tool ARGS`). The script is named by its path inside
//! the skill's folder.

use std::io::Read;
use std::path::Path;

/// Bytes of a script's first line the system reads for its `#!` line.
const SHEBANG_BYTES: usize = 256;

/// Folders whose programs are named by their file name alone: the
/// system's own, which a shell's `PATH` holds.
const SYSTEM_BINS: [&str; 2] = ["/bin/", "/usr/bin/"];

/// The words of the command line equivalent to running `script` (inside
/// the skill folder `dir`, both canonical) with `args`.
pub(crate) fn words(dir: &Path, script: &Path, args: &[String]) -> Vec<String> {
    let relative = script
        .strip_prefix(dir)
        .unwrap_or(script)
        .to_string_lossy()
        .into_owned();
    let mut words = shebang(script).map_or_else(Vec::new, |line| interpreter(&line));
    words.push(relative);
    words.extend(args.iter().cloned());
    words
}

/// The text after `#!` on the first line of `script`, if it has one.
fn shebang(script: &Path) -> Option<String> {
    let mut head = Vec::with_capacity(SHEBANG_BYTES);
    std::fs::File::open(script)
        .ok()?
        .take(SHEBANG_BYTES as u64)
        .read_to_end(&mut head)
        .ok()?;
    let rest = head.strip_prefix(b"#!")?;
    let line = rest.split(|&b| b == b'\n').next().unwrap_or_default();
    Some(String::from_utf8_lossy(line).into_owned())
}

/// The interpreter words of a `#!` line: its program, named as a shell
/// would name it, then its optional argument as one word (as the system
/// passes it).
fn interpreter(line: &str) -> Vec<String> {
    let line = line.trim_matches([' ', '\t', '\r']);
    let (program, argument) = match line.split_once([' ', '\t']) {
        Some((program, argument)) => (program, Some(argument.trim_matches([' ', '\t']))),
        None => (line, None),
    };
    if program.is_empty() {
        return Vec::new();
    }
    if program == "/usr/bin/env"
        && let Some(name) = argument.filter(|a| is_plain_program(a))
    {
        return vec![name.to_string()];
    }
    let program = SYSTEM_BINS
        .iter()
        .find_map(|bin| program.strip_prefix(bin))
        .filter(|name| is_plain_program(name))
        .unwrap_or(program);
    std::iter::once(program)
        .chain(argument.filter(|a| !a.is_empty()))
        .map(str::to_string)
        .collect()
}

/// Whether `name` is a program name a shell looks up on `PATH`: one
/// word, no folder, no option, no assignment.
fn is_plain_program(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('-') && !name.contains(['/', '=', ' ', '\t'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shebang_lines_name_the_interpreter_as_a_shell_would() {
        #[rustfmt::skip]
        let table: &[(&str, &[&str])] = &[
            ("/usr/bin/env python3", &["python3"]),
            ("/usr/bin/env  python3 ", &["python3"]),
            (" /usr/bin/python3", &["python3"]),
            ("/usr/bin/python3 -u", &["python3", "-u"]),
            ("/bin/bash", &["bash"]),
            ("/bin/sh -e", &["sh", "-e"]),
            ("/usr/bin/env node\r", &["node"]),
            ("/usr/bin/env -S python3 -u", &["env", "-S python3 -u"]),
            ("/usr/bin/env A=1", &["env", "A=1"]),
            ("/usr/local/bin/python3", &["/usr/local/bin/python3"]),
            ("/opt/x/bin/bash", &["/opt/x/bin/bash"]),
            ("./python3", &["./python3"]),
            ("", &[]),
        ];
        for (line, expected) in table {
            assert_eq!(interpreter(line), *expected, "#!{line}");
        }
    }

    #[test]
    fn a_scripts_command_line_names_it_inside_its_skill() {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        std::fs::create_dir(&scripts).unwrap();
        let write = |name: &str, text: &str| {
            std::fs::write(scripts.join(name), text).unwrap();
            scripts.join(name)
        };
        let args = ["a b".to_string(), "--x".to_string()];
        let py = write("stats.py", "#!/usr/bin/env python3\nprint(1)\n");
        assert_eq!(
            words(dir.path(), &py, &args),
            ["python3", "scripts/stats.py", "a b", "--x"]
        );
        let tool = write("tool", "\x7fELF");
        assert_eq!(words(dir.path(), &tool, &[]), ["scripts/tool"]);
    }
}
