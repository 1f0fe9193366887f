//! A shell command line read as a shell would split it, so that grants
//! can be matched per simple command: `git status && id` is two commands,
//! and a grant for `git` covers only the first.
//!
//! The reader understands words (plain, `'single'`, `"double"` and
//! backslash-escaped) and the separators `;`, `&&`, `||`, `|` and newlines.
//! Everything whose effect it cannot judge makes its command *opaque*, and
//! no prefix grant covers an opaque command: `$…` expansions, command
//! substitution (`$(…)`, backticks), redirections (`<`, `>`), subshells
//! and groups (`(`, `)`), background jobs (`&`), and environment prefixes
//! (`NAME=value cmd`).

/// One simple command of a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleCommand {
    /// Its words, quotes removed.
    pub words: Vec<String>,
    /// What makes it opaque, if anything (`"a redirection"`, …).
    pub opaque: Option<&'static str>,
}

impl SimpleCommand {
    /// The program it runs: its first word.
    pub fn program(&self) -> Option<&str> {
        self.words.first().map(String::as_str)
    }

    /// The command as words joined by spaces, for showing to the user.
    pub fn display(&self) -> String {
        self.words.join(" ")
    }
}

/// Splits `line` into its simple commands. Empty commands (`;;`, a
/// trailing `;`) are dropped.
pub fn split(line: &str) -> Vec<SimpleCommand> {
    let mut commands = Vec::new();
    let mut current = SimpleCommand {
        words: Vec::new(),
        opaque: None,
    };
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    let opaque = |current: &mut SimpleCommand, why: &'static str| {
        current.opaque.get_or_insert(why);
    };
    let end_word = |word: &mut Option<String>, current: &mut SimpleCommand| {
        if let Some(done) = word.take() {
            // `NAME=value` before the program sets its environment.
            if current.words.is_empty() && is_assignment(&done) {
                current.opaque.get_or_insert("an environment prefix");
            }
            current.words.push(done);
        }
    };
    let end_command = |current: &mut SimpleCommand, commands: &mut Vec<SimpleCommand>| {
        let done = std::mem::replace(
            current,
            SimpleCommand {
                words: Vec::new(),
                opaque: None,
            },
        );
        if !done.words.is_empty() || done.opaque.is_some() {
            commands.push(done);
        }
    };
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => end_word(&mut word, &mut current),
            '\n' | ';' => {
                end_word(&mut word, &mut current);
                end_command(&mut current, &mut commands);
            }
            '|' => {
                end_word(&mut word, &mut current);
                chars.next_if(|&n| n == '|' || n == '&');
                end_command(&mut current, &mut commands);
            }
            '&' => {
                end_word(&mut word, &mut current);
                if chars.next_if_eq(&'&').is_none() {
                    opaque(&mut current, "a background job");
                }
                end_command(&mut current, &mut commands);
            }
            '#' if word.is_none() => {
                // A comment runs to the end of the line.
                while chars.next_if(|&n| n != '\n').is_some() {}
            }
            '\'' => {
                let text = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => text.push(c),
                        None => {
                            opaque(&mut current, "an unclosed quote");
                            break;
                        }
                    }
                }
            }
            '"' => {
                let text = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => text.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                text.push('\\');
                                text.push(c);
                            }
                            None => {}
                        },
                        Some(c @ ('$' | '`')) => {
                            text.push(c);
                            opaque(&mut current, "an expansion or command substitution");
                        }
                        Some(c) => text.push(c),
                        None => {
                            opaque(&mut current, "an unclosed quote");
                            break;
                        }
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => {}
            },
            '$' | '`' => {
                word.get_or_insert_with(String::new).push(c);
                opaque(&mut current, "an expansion or command substitution");
            }
            '<' | '>' => {
                word.get_or_insert_with(String::new).push(c);
                opaque(&mut current, "a redirection");
            }
            '(' | ')' | '{' | '}' if word.is_none() => {
                word.get_or_insert_with(String::new).push(c);
                opaque(&mut current, "a subshell or group");
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    end_word(&mut word, &mut current);
    end_command(&mut current, &mut commands);
    commands
}

/// The command line in plain words, one line per simple command, each
/// with what makes it opaque: what an approval prompt shows. The lines
/// hold the words as the model wrote them; the prompt escapes them.
pub fn describe(line: &str) -> Vec<String> {
    let commands = split(line);
    if commands.is_empty() {
        return vec!["(nothing)".to_string()];
    }
    commands
        .iter()
        .enumerate()
        .map(|(i, command)| match command.opaque {
            None => format!("{}. {}", i + 1, command.display()),
            Some(why) => format!(
                "{}. {}   ({why}: runs as written)",
                i + 1,
                command.display()
            ),
        })
        .collect()
}

/// Whether `word` is `NAME=value` with a shell variable name.
fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else {
        return false;
    };
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Programs whose options make them run other programs or code, and
/// those options: a grant for the program does not cover them.
const RUNS_OTHER_PROGRAMS: [(&str, &[&str]); 5] = [
    ("git", &["-c", "--config-env", "--exec-path"]),
    ("find", &["-exec", "-execdir", "-ok", "-okdir"]),
    ("rg", &["--pre"]),
    (
        "tar",
        &[
            "--to-command",
            "--use-compress-program",
            "-I",
            "--checkpoint-action",
        ],
    ),
    ("rsync", &["-e", "--rsh", "--rsync-path"]),
];

/// Whether a grant of the words `granted` (`["git"]`, `["npm", "test"]`)
/// covers `command`: not opaque, the same leading words, and none of the
/// options by which the program runs others.
pub fn grant_covers(granted: &[&str], command: &SimpleCommand) -> bool {
    if command.opaque.is_some() || granted.is_empty() || command.words.len() < granted.len() {
        return false;
    }
    if command.words.iter().zip(granted).any(|(w, g)| w != g) {
        return false;
    }
    let program = granted[0];
    let dangerous = RUNS_OTHER_PROGRAMS
        .iter()
        .find(|(name, _)| *name == program)
        .map_or(&[][..], |(_, options)| *options);
    !command.words[1..].iter().any(|word| {
        dangerous.iter().any(|option| {
            word == option
                || word.starts_with(&format!("{option}="))
                || (option.len() == 2 && word.starts_with(option))
        })
    })
}

/// Whether `program` is named as a command anywhere in `line`, even
/// inside what makes a command opaque: deny rules match any part.
pub fn mentions_program(line: &str, program: &str) -> bool {
    line.split(|c: char| c.is_whitespace() || ";&|()`<>{}\"'$".contains(c))
        .filter(|word| !word.is_empty())
        .any(|word| word == program || word.rsplit('/').next() == Some(program))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn programs(line: &str) -> Vec<(String, bool)> {
        split(line)
            .into_iter()
            .map(|c| (c.display(), c.opaque.is_none()))
            .collect()
    }

    #[test]
    fn lines_split_into_simple_commands() {
        assert_eq!(programs("git status"), [("git status".into(), true)]);
        assert_eq!(
            programs("git status && id; ls -la | wc -l || true\necho 'a;b'"),
            [
                ("git status".into(), true),
                ("id".into(), true),
                ("ls -la".into(), true),
                ("wc -l".into(), true),
                ("true".into(), true),
                ("echo a;b".into(), true),
            ]
        );
        assert_eq!(programs("echo \"$(id)\""), [("echo $(id)".into(), false)]);
        assert_eq!(
            programs("git log > out.txt"),
            [("git log > out.txt".into(), false)]
        );
        assert_eq!(
            programs("X=1 git status"),
            [("X=1 git status".into(), false)]
        );
        assert_eq!(
            programs("git status # ; rm x"),
            [("git status".into(), true)]
        );
        assert_eq!(
            programs("sleep 9 & id"),
            [("sleep 9".into(), false), ("id".into(), true)]
        );
    }

    #[test]
    fn approval_prompts_list_the_commands_in_plain_words() {
        assert_eq!(
            describe("git status && git log > out"),
            [
                "1. git status",
                "2. git log > out   (a redirection: runs as written)"
            ]
        );
    }
}
