//! Just enough of the shell's grammar for rules that follow data between
//! commands: logical lines (`\` continuations joined), statements split on
//! `;`, `&&`, `||` and `&`, pipelines split on `|`, words with their quotes
//! removed, and redirections. Command substitutions (`$(…)`, backticks)
//! stay inside the word they belong to, to be read again with
//! [`statements`]. Heredoc bodies, functions and control flow are not
//! understood: a keyword such as `do` or `then` is just skipped before a
//! command's name.

/// One command of a pipeline.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Stage {
    /// Its words, quotes removed (the name first, after any keyword or
    /// wrapper such as `sudo` is dropped: see [`Stage::command`]).
    pub words: Vec<String>,
    /// Files read on standard input (`< FILE`).
    pub stdin: Vec<String>,
    /// Strings given on standard input (`<<< WORD`).
    pub here: Vec<String>,
    /// Files written (`> FILE`, `>> FILE`, `&> FILE`), not descriptors.
    pub outputs: Vec<String>,
}

/// Keywords and wrappers that come before the name of the command run.
const BEFORE_NAME: &[&str] = &[
    "do", "then", "else", "elif", "{", "(", "!", "time", "sudo", "doas", "exec", "command",
    "nohup", "env", "builtin", "xargs", "nice", "timeout",
];

impl Stage {
    /// The command's name and its arguments, keywords, wrappers and
    /// leading `NAME=value` assignments skipped.
    pub(super) fn command(&self) -> Option<(&str, &[String])> {
        let mut after_wrapper = false;
        for (i, word) in self.words.iter().enumerate() {
            if BEFORE_NAME.contains(&word.as_str()) {
                after_wrapper = true;
                continue;
            }
            // `timeout 30 cmd`, `sudo -E cmd`: a wrapper's options go too.
            let option = word.starts_with('-') || word.chars().all(|c| c.is_ascii_digit());
            if (after_wrapper && option) || assignment(word).is_some() {
                continue;
            }
            let name = word.rsplit('/').next().unwrap_or(word);
            return Some((name, &self.words[i + 1..]));
        }
        None
    }

    /// The stage's `NAME=value` words when that is all it holds (after
    /// `export`, `local`, `readonly`, `declare`).
    pub(super) fn assignments(&self) -> Vec<(&str, &str)> {
        let words = match self.words.first().map(String::as_str) {
            Some("export" | "local" | "readonly" | "declare" | "typeset") => &self.words[1..],
            _ => &self.words[..],
        };
        let found: Vec<_> = words
            .iter()
            .filter(|w| !w.starts_with('-'))
            .map(|w| assignment(w))
            .collect();
        if found.iter().all(Option::is_some) {
            found.into_iter().flatten().collect()
        } else {
            Vec::new()
        }
    }
}

/// `NAME=value` split, for a shell variable name.
pub(super) fn assignment(word: &str) -> Option<(&str, &str)> {
    let (name, value) = word.split_once('=')?;
    let mut chars = name.chars();
    let first = chars.next()?;
    ((first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_'))
    .then_some((name, value))
}

/// `lines` (numbered) joined where a line ends in `\`, each logical line
/// numbered by its first.
pub(super) fn logical_lines(lines: &[(usize, &str, bool)]) -> Vec<(usize, String)> {
    let mut joined: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for &(number, line, _) in lines {
        let (text, continues) = match line.trim_end().strip_suffix('\\') {
            Some(text) => (text, true),
            None => (line, false),
        };
        match joined.last_mut() {
            Some((_, last)) if open => {
                last.push(' ');
                last.push_str(text.trim_start());
            }
            _ => joined.push((number, text.to_string())),
        }
        open = continues;
    }
    joined
}

/// The statements of one logical line, each a pipeline of stages.
pub(super) fn statements(line: &str) -> Vec<Vec<Stage>> {
    Lexer::default().run(line)
}

#[derive(Default)]
struct Lexer {
    statements: Vec<Vec<Stage>>,
    pipeline: Vec<Stage>,
    stage: Stage,
    word: String,
    /// Whether a word has begun (an empty quoted word counts).
    in_word: bool,
    /// The redirection the next word is the target of.
    redirect: Option<&'static str>,
}

impl Lexer {
    fn run(mut self, line: &str) -> Vec<Vec<Stage>> {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let next = chars.get(i + 1).copied();
            match c {
                '\'' => {
                    let end = find(&chars, i + 1, |c| c == '\'');
                    self.push_str(&chars[i + 1..end]);
                    i = end + 1;
                    continue;
                }
                '"' => {
                    let end = double_quoted_end(&chars, i + 1);
                    self.push_str(&chars[i + 1..end]);
                    i = end + 1;
                    continue;
                }
                '\\' if next.is_some() => {
                    self.push_str(&chars[i + 1..i + 2]);
                    i += 2;
                    continue;
                }
                '$' if next == Some('(') => {
                    let end = substitution_end(&chars, i + 2);
                    self.push_str(&chars[i..end.min(chars.len())]);
                    i = end;
                    continue;
                }
                '`' => {
                    let end = find(&chars, i + 1, |c| c == '`');
                    self.push_str(&chars[i..(end + 1).min(chars.len())]);
                    i = end + 1;
                    continue;
                }
                '#' if !self.in_word => break,
                ' ' | '\t' => self.end_word(),
                '|' if next == Some('|') => {
                    self.end_statement();
                    i += 1;
                }
                '|' => {
                    self.end_stage();
                    if next == Some('&') {
                        i += 1;
                    }
                }
                ';' => self.end_statement(),
                '&' if next == Some('&') => {
                    self.end_statement();
                    i += 1;
                }
                '&' if next == Some('>') => {
                    self.end_word();
                    self.redirect = Some(">");
                    i += 1;
                    if chars.get(i + 1) == Some(&'>') {
                        i += 1;
                    }
                }
                '&' => self.end_statement(),
                '<' | '>' if next == Some('(') => {
                    // Process substitution: a word, read again like `$(…)`.
                    let end = substitution_end(&chars, i + 2);
                    self.push_str(&chars[i..end.min(chars.len())]);
                    i = end;
                    continue;
                }
                '>' | '<' => {
                    // A descriptor before it (`2>`) is not a word.
                    if !self.word.is_empty() && self.word.chars().all(|c| c.is_ascii_digit()) {
                        self.word.clear();
                        self.in_word = false;
                    }
                    self.end_word();
                    let mut op = if c == '<' { "<" } else { ">" };
                    if c == '<' && next == Some('<') {
                        if chars.get(i + 2) == Some(&'<') {
                            op = "<<<";
                            i += 2;
                        } else {
                            op = "<<";
                            i += 1;
                        }
                    } else if c == '>' && next == Some('>') {
                        i += 1;
                    }
                    // `2>&1`, `>&2`: a descriptor, not a file.
                    if chars.get(i + 1) == Some(&'&') {
                        i += 1;
                        op = "&";
                    }
                    self.redirect = Some(op);
                }
                c => {
                    self.word.push(c);
                    self.in_word = true;
                }
            }
            i += 1;
        }
        self.end_statement();
        self.statements
    }

    fn push_str(&mut self, chars: &[char]) {
        self.word.extend(chars);
        self.in_word = true;
    }

    fn end_word(&mut self) {
        if !self.in_word {
            return;
        }
        let word = std::mem::take(&mut self.word);
        self.in_word = false;
        match self.redirect.take() {
            Some(">") if word != "/dev/null" => self.stage.outputs.push(word),
            Some("<") => self.stage.stdin.push(word),
            Some("<<<") => self.stage.here.push(word),
            Some(_) => {}
            None => self.stage.words.push(word),
        }
    }

    fn end_stage(&mut self) {
        self.end_word();
        self.redirect = None;
        let stage = std::mem::take(&mut self.stage);
        if stage != Stage::default() {
            self.pipeline.push(stage);
        }
    }

    fn end_statement(&mut self) {
        self.end_stage();
        let pipeline = std::mem::take(&mut self.pipeline);
        if !pipeline.is_empty() {
            self.statements.push(pipeline);
        }
    }
}

/// The index of the first char from `start` that `is_end`, or the end.
fn find(chars: &[char], start: usize, is_end: impl Fn(char) -> bool) -> usize {
    (start..chars.len())
        .find(|&i| is_end(chars[i]))
        .unwrap_or(chars.len())
}

/// Where the double-quoted string opened before `start` closes.
fn double_quoted_end(chars: &[char], start: usize) -> usize {
    let mut i = start;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '$' if chars.get(i + 1) == Some(&'(') => {
                i = substitution_end(chars, i + 2);
                continue;
            }
            '"' => return i,
            _ => {}
        }
        i += 1;
    }
    chars.len()
}

/// The index just past the `)` closing a substitution opened before
/// `start`.
fn substitution_end(chars: &[char], start: usize) -> usize {
    let mut depth = 1;
    let mut i = start;
    let mut quote: Option<char> = None;
    while i < chars.len() {
        let c = chars[i];
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => i += 1,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '\\') => i += 1,
            (None, '(') => depth += 1,
            (None, ')') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    chars.len()
}

/// The commands substituted into `word` (`$(…)`, `<(…)`, backticks).
pub(super) fn substitutions(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let opens = matches!(chars[i], '$' | '<' | '>') && chars.get(i + 1) == Some(&'(');
        if opens {
            let end = substitution_end(&chars, i + 2);
            let inner_end = if chars.get(end.wrapping_sub(1)) == Some(&')') {
                end - 1
            } else {
                end
            };
            found.push(chars[i + 2..inner_end.max(i + 2)].iter().collect());
            i = end;
        } else if chars[i] == '`' {
            let end = find(&chars, i + 1, |c| c == '`');
            found.push(chars[i + 1..end].iter().collect());
            i = end + 1;
        } else {
            i += 1;
        }
    }
    found
}

#[cfg(test)]
mod tests;
