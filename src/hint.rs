//! Errors that carry advice as data: what went wrong, and what the user
//! can do about it. The CLI prints the message in the error chain and
//! every hint of the chain after it, as `hint: …` lines (one place renders
//! them: `cli::printer`).

use std::fmt;

/// An error with hints for the user.
///
/// ```
/// use skillpkg::hint::Hinted;
/// let error = Hinted::new("skills.toml already exists")
///     .hint("add skills to it with `skillpkg add org/name`");
/// assert_eq!(error.to_string(), "skills.toml already exists");
/// assert_eq!(error.hints(), ["add skills to it with `skillpkg add org/name`"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hinted {
    message: String,
    hints: Vec<String>,
}

impl Hinted {
    /// An error saying `message`, with no hint yet.
    pub fn new(message: impl fmt::Display) -> Hinted {
        Hinted {
            message: message.to_string(),
            hints: Vec::new(),
        }
    }

    /// Adds a hint: what the user can do next.
    #[must_use]
    pub fn hint(mut self, hint: impl fmt::Display) -> Hinted {
        self.hints.push(hint.to_string());
        self
    }

    /// The message, without hints.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The hints, in the order they were added.
    pub fn hints(&self) -> &[String] {
        &self.hints
    }
}

impl fmt::Display for Hinted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Hinted {}

/// `word` written so that a POSIX shell reads it back as one word,
/// unchanged: as it is when it holds only characters no shell treats
/// specially, else in single quotes (a `'` inside as `'\''`). Every name
/// and path a hint puts on a command line goes through here (or
/// [`shell_path`]), so that the command can be pasted as it is.
pub(crate) fn shell_quote(word: &str) -> std::borrow::Cow<'_, str> {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:=@%+-,".contains(c));
    match plain {
        true => std::borrow::Cow::Borrowed(word),
        false => std::borrow::Cow::Owned(format!("'{}'", word.replace('\'', r"'\''"))),
    }
}

/// `path` for a command line in a hint: [`shell_quote`]d, and a relative
/// path that starts with `-` written as `./-…`, so that no command takes
/// it for a flag.
pub(crate) fn shell_path(path: &std::path::Path) -> String {
    let text = path.display().to_string();
    let text = match text.starts_with('-') {
        true => format!("./{text}"),
        false => text,
    };
    shell_quote(&text).into_owned()
}

/// An error that says what the user can do about it. [`Hinted`] is the
/// general one; the library's typed errors implement it where they know
/// what to advise, and the CLI prints the hints of every error of a chain
/// whose type it lists with [`hints_if`].
pub(crate) trait Advice: std::error::Error + Send + Sync + 'static {
    /// What the user can do next, most useful first; none when the error
    /// has nothing to add.
    fn hints(&self) -> Vec<String>;
}

impl Advice for Hinted {
    fn hints(&self) -> Vec<String> {
        self.hints.clone()
    }
}

/// The hints of `cause` when it is an `E`; `None` when it is not.
pub(crate) fn hints_if<E: Advice>(
    cause: &(dyn std::error::Error + 'static),
) -> Option<Vec<String>> {
    cause.downcast_ref::<E>().map(Advice::hints)
}

/// The candidate `word` most likely meant, for a "did you mean" hint.
/// Names compare by their last `/`-separated part, within the org `word`
/// names (if it names one): an equal name in any org (`pdf-processing` for
/// `example/pdf-processing`), else a name that starts with the word's
/// (`pdf` for `pdf-processing`), else the closest by Jaro-Winkler
/// similarity, when close enough.
pub(crate) fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    fn split(name: &str) -> (Option<&str>, &str) {
        match name.rsplit_once('/') {
            Some((org, name)) => (Some(org), name),
            None => (None, name),
        }
    }
    let (org, name) = split(word);
    let candidates: Vec<(&str, &str)> = candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| (c, split(c)))
        .filter(|(_, (c_org, c_name))| org.is_none() || *c_org == org || *c_name == name)
        .map(|(c, (_, c_name))| (c, c_name))
        .collect();
    if let Some((c, _)) = candidates.iter().find(|(_, c_name)| *c_name == name) {
        return Some(c);
    }
    if let Some((c, _)) = candidates
        .iter()
        .find(|(_, c_name)| c_name.starts_with(&format!("{name}-")))
    {
        return Some(c);
    }
    candidates
        .iter()
        .map(|(c, c_name)| (strsim::jaro_winkler(name, c_name), *c))
        .filter(|(score, _)| *score >= 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// For a `path` that does not exist, the path the user most likely meant:
/// each missing part replaced by the closest name in the folder above
/// ([`did_you_mean`]; only folders but for the last part), as far as
/// close names go, the rest kept. `None` when the path exists, or no
/// name is close to its first missing part.
pub(crate) fn closest_path(path: &std::path::Path) -> Option<std::path::PathBuf> {
    let mut existing = std::path::PathBuf::new();
    let mut components = path.components();
    for component in components.by_ref() {
        let next = existing.join(component);
        if next.symlink_metadata().is_ok() {
            existing = next;
            continue;
        }
        let parent = match existing.as_os_str().is_empty() {
            true => std::path::Path::new("."),
            false => existing.as_path(),
        };
        let more = components.clone().next().is_some();
        let names: Vec<String> = std::fs::read_dir(parent)
            .ok()?
            .filter_map(Result::ok)
            .filter(|entry| !more || entry.path().is_dir())
            .filter_map(|entry| entry.file_name().into_string().ok())
            .collect();
        let missing = component.as_os_str().to_str()?;
        let meant = did_you_mean(missing, names.iter().map(String::as_str))?;
        let mut fixed = existing.join(meant);
        fixed.extend(components);
        return Some(closest_path(&fixed).unwrap_or(fixed));
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn shell_quote_examples() {
        use crate::hint::shell_quote;
        assert_eq!(
            shell_quote("acme/pdf-processing@1.2"),
            "acme/pdf-processing@1.2"
        );
        assert_eq!(shell_quote("acme/pdf@^1"), "'acme/pdf@^1'");
        assert_eq!(shell_quote("my skills"), "'my skills'");
        assert_eq!(shell_quote("it's $HOME/*"), r"'it'\''s $HOME/*'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn shell_path_examples() {
        use crate::hint::shell_path;
        use std::path::Path;
        assert_eq!(
            shell_path(Path::new(".agents/skills/pdf")),
            ".agents/skills/pdf"
        );
        assert_eq!(
            shell_path(Path::new("/tmp/my project/x")),
            "'/tmp/my project/x'"
        );
        assert_eq!(shell_path(Path::new("-rf")), "./-rf");
    }

    #[test]
    fn did_you_mean_examples() {
        use crate::hint::did_you_mean;
        let names = ["example/pdf-processing", "example/citation-style"];
        assert_eq!(
            did_you_mean("pdf-processing", names),
            Some("example/pdf-processing")
        );
        assert_eq!(
            did_you_mean("example/pdf", names),
            Some("example/pdf-processing")
        );
        assert_eq!(
            did_you_mean("example/pdf-procesing", names),
            Some("example/pdf-processing")
        );
        assert_eq!(did_you_mean("example/nope", names), None);
        assert_eq!(did_you_mean("acme/pdf", names), None);
    }

    #[test]
    fn closest_path_examples() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("skills/pdf")).unwrap();
        let meant = crate::hint::closest_path(&dir.path().join("skils/pdf"));
        assert_eq!(meant, Some(dir.path().join("skills/pdf")));
        let meant = crate::hint::closest_path(&dir.path().join("skils/pdff"));
        assert_eq!(meant, Some(dir.path().join("skills/pdf")));
        assert_eq!(crate::hint::closest_path(&dir.path().join("skills")), None);
    }
}
