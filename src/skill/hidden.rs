//! Finding invisible Unicode in installed text: bidi overrides, zero-width
//! and tag characters can smuggle instructions to an agent that a human
//! reviewing the skill cannot see.

use std::path::Path;

/// One invisible character found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HiddenChar {
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
        let file = fs_err::File::open(dir.join(relative))?;
        found.extend(scan_text(file, relative)?.unwrap_or_default());
    }
    Ok(found)
}

/// The hidden characters of the text `reader` holds (named `file`),
/// read in pieces, so a file of any size costs the same memory; `None`
/// when it is not UTF-8 (a binary file).
fn scan_text(
    mut reader: impl std::io::Read,
    file: &str,
) -> std::io::Result<Option<Vec<HiddenChar>>> {
    let mut found = Vec::new();
    let mut buffer = vec![0u8; 64 * 1024];
    // Bytes of a character cut by the end of the last piece, moved to
    // the front of the buffer.
    let mut carried = 0;
    let mut line = 1;
    let mut at_start = true;
    loop {
        let read = reader.read(&mut buffer[carried..])?;
        let end = carried + read;
        if read == 0 {
            return Ok((carried == 0).then_some(found));
        }
        let valid = match std::str::from_utf8(&buffer[..end]) {
            Ok(_) => end,
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => return Ok(None),
        };
        let text = std::str::from_utf8(&buffer[..valid]).expect("checked as UTF-8");
        for (at, c) in text.char_indices() {
            if c == '\n' {
                line += 1;
            } else if describe(c).is_some() && !(at_start && at == 0 && c == '\u{FEFF}') {
                found.push(HiddenChar {
                    file: file.to_string(),
                    line,
                    character: c,
                });
            }
        }
        at_start &= text.is_empty();
        buffer.copy_within(valid..end, 0);
        carried = end - valid;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_read_in_pieces_is_scanned_as_a_whole() {
        // A hidden character cut in two by the end of a piece, far into
        // a file, on its line; and a file that stops being UTF-8 late.
        let mut text = "a\n".repeat(40_000).into_bytes();
        text.truncate(64 * 1024 - 1);
        text.extend("\u{200B}x\n\u{202E}".as_bytes());
        let found = scan_text(text.as_slice(), "big.md").unwrap().unwrap();
        let lines: Vec<(usize, u32)> = found.iter().map(|h| (h.line, h.character as u32)).collect();
        assert_eq!(lines, [(32_768, 0x200B), (32_769, 0x202E)]);
        text.push(0xff);
        assert_eq!(scan_text(text.as_slice(), "big.md").unwrap(), None);
        // A character cut short at the very end is no UTF-8 either.
        assert_eq!(
            scan_text(&"\u{200B}".as_bytes()[..2], "cut.md").unwrap(),
            None
        );
        assert_eq!(scan_text(&b""[..], "empty.md").unwrap(), Some(Vec::new()));
    }

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
