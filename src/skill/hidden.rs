//! Finding invisible Unicode in installed text: bidi overrides, zero-width
//! and tag characters can smuggle instructions to an agent that a human
//! reviewing the skill cannot see.

use std::path::Path;

/// One invisible character found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HiddenChar {
    /// The file, relative to the scanned directory.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// The character.
    pub character: char,
}

impl std::fmt::Display for HiddenChar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: hidden character U+{:04X} ({}) could carry instructions a reader cannot see",
            self.file,
            self.line,
            self.character as u32,
            describe(self.character).unwrap_or("invisible")
        )
    }
}

/// What an invisible character is, or `None` for ordinary characters.
pub(crate) fn describe(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{202A}'..='\u{202E}' => "bidi embedding or override",
        '\u{2066}'..='\u{2069}' => "bidi isolate",
        '\u{200B}' => "zero-width space",
        '\u{200C}' => "zero-width non-joiner",
        '\u{200D}' => "zero-width joiner",
        '\u{2060}' => "word joiner",
        '\u{FEFF}' => "zero-width no-break space",
        '\u{E0000}'..='\u{E007F}' => "tag character",
        _ => return None,
    })
}

/// Scans every UTF-8 text file under `dir` (binary files are skipped).
/// A byte-order mark at the very start of a file is not reported.
pub(crate) fn scan_hidden_unicode(dir: &Path) -> std::io::Result<Vec<HiddenChar>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(std::io::Error::other)?;
        if entry.file_type().is_file() {
            let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
            files.push(relative.display().to_string());
        }
    }
    scan_files(dir, &files)
}

/// Scans the files `relative` (paths under `dir`), as
/// [`scan_hidden_unicode`] does. Every character it reports is outside
/// ASCII, so a caller that knows which files hold only ASCII bytes need
/// not pass those.
pub(crate) fn scan_files(dir: &Path, relative: &[String]) -> std::io::Result<Vec<HiddenChar>> {
    let mut found = Vec::new();
    for relative in relative {
        let Ok(text) = String::from_utf8(fs_err::read(dir.join(relative))?) else {
            continue;
        };
        for (index, line) in text.lines().enumerate() {
            for (at, c) in line.char_indices() {
                if describe(c).is_some() && !(index == 0 && at == 0 && c == '\u{FEFF}') {
                    found.push(HiddenChar {
                        file: relative.clone(),
                        line: index + 1,
                        character: c,
                    });
                }
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_kind_with_its_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("SKILL.md"),
            "\u{feff}ok\nsee \u{202E}txt.exe\nzero\u{200B}width\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("tags.md"), "a\u{E0041}\u{E0042}\n").unwrap();
        std::fs::write(dir.path().join("blob.bin"), [0xff, 0xfe, 0x00]).unwrap();
        let found = scan_hidden_unicode(dir.path()).unwrap();
        let summary: Vec<(String, usize, u32)> = found
            .iter()
            .map(|h| (h.file.clone(), h.line, h.character as u32))
            .collect();
        assert_eq!(
            summary,
            [
                ("SKILL.md".into(), 2, 0x202E),
                ("SKILL.md".into(), 3, 0x200B),
                ("tags.md".into(), 1, 0xE0041),
                ("tags.md".into(), 1, 0xE0042)
            ]
        );
        assert!(
            found[0]
                .to_string()
                .starts_with("SKILL.md:2: hidden character U+202E (bidi embedding or override)")
        );
    }
}
