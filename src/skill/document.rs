//! Locating `SKILL.md` and splitting it into frontmatter and body.
//!
//! Level-1 discovery must never read a skill's body, so
//! [`read_frontmatter`] reads line by line and stops at the closing `---`.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use super::SkillError;

/// The file names a skill's instructions may have, in order of preference.
pub(crate) const SKILL_FILE_NAMES: [&str; 2] = ["SKILL.md", "skill.md"];

/// Frontmatter larger than this is refused: real frontmatter is a few
/// hundred bytes, and YAML parsing cost grows with size.
pub(crate) const MAX_FRONTMATTER_BYTES: usize = 256 * 1024;

/// Finds `SKILL.md` (or `skill.md`) in `dir`.
pub(crate) fn find_skill_md(dir: &Path) -> Option<PathBuf> {
    SKILL_FILE_NAMES
        .iter()
        .map(|name| dir.join(name))
        .find(|path| path.exists())
}

/// Opens `SKILL.md` (or `skill.md`) in `dir`: what [`find_skill_md`]
/// finds, opened, without a separate look-up before the open.
pub(crate) fn open_skill_md(dir: &Path) -> Result<Option<(PathBuf, std::fs::File)>, SkillError> {
    for name in SKILL_FILE_NAMES {
        let path = dir.join(name);
        match std::fs::File::open(&path) {
            Ok(file) => return Ok(Some((path, file))),
            // As `find_skill_md`: a name that is not there (whatever the
            // reason) is passed over; one that is there but cannot be
            // opened is an error.
            Err(source) if path.exists() => return Err(SkillError::Io { path, source }),
            Err(_) => {}
        }
    }
    Ok(None)
}

/// The frontmatter of a SKILL.md, read without its body.
#[derive(Debug, Clone)]
pub struct Frontmatter {
    /// The YAML text between the delimiters.
    pub yaml: String,
    /// 1-based line number of the first YAML line in the file.
    pub first_line: usize,
}

fn is_delimiter(line: &str) -> bool {
    line.trim_end() == "---"
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> SkillError + '_ {
    move |source| SkillError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn read_line(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    path: &Path,
) -> Result<usize, SkillError> {
    buf.clear();
    let n = reader
        .by_ref()
        .take(MAX_FRONTMATTER_BYTES as u64 + 1)
        .read_until(b'\n', buf)
        .map_err(io_error(path))?;
    Ok(n)
}

fn utf8<'b>(bytes: &'b [u8], path: &Path, base: usize) -> Result<&'b str, SkillError> {
    std::str::from_utf8(bytes).map_err(|e| SkillError::NotUtf8 {
        path: path.to_path_buf(),
        offset: base + e.valid_up_to(),
    })
}

/// Reads only the frontmatter of `path`: the lines between a first line of
/// `---` and the next line of `---` (a UTF-8 BOM, trailing spaces and CRLF
/// line ends are accepted). The body is never read.
pub fn read_frontmatter(path: &Path) -> Result<Frontmatter, SkillError> {
    let file = std::fs::File::open(path).map_err(io_error(path))?;
    read_frontmatter_from(file, path)
}

/// [`read_frontmatter`] of `file`, opened from `path`.
pub(crate) fn read_frontmatter_from(
    file: std::fs::File,
    path: &Path,
) -> Result<Frontmatter, SkillError> {
    let mut reader = BufReader::new(file);
    let mut buf = Vec::new();

    read_line(&mut reader, &mut buf, path)?;
    let first = buf.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&buf);
    if !is_delimiter(utf8(first, path, 0)?) {
        return Err(SkillError::NoFrontmatter {
            path: path.to_path_buf(),
        });
    }
    let mut offset = buf.len();
    let mut yaml = String::new();
    loop {
        let n = read_line(&mut reader, &mut buf, path)?;
        if n == 0 {
            return Err(SkillError::UnclosedFrontmatter {
                path: path.to_path_buf(),
            });
        }
        if yaml.len() + n > MAX_FRONTMATTER_BYTES {
            return Err(SkillError::FrontmatterTooLarge {
                path: path.to_path_buf(),
                limit: MAX_FRONTMATTER_BYTES,
            });
        }
        let line = utf8(&buf, path, offset)?;
        if is_delimiter(line) {
            break;
        }
        offset += n;
        yaml.push_str(line);
    }
    Ok(Frontmatter {
        yaml,
        first_line: 2,
    })
}

/// Splits a whole SKILL.md text the way [`read_frontmatter`] does and returns
/// the body (everything after the closing `---` line), or `None` when the text
/// has no closed frontmatter.
pub fn body_of(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    if !is_delimiter(lines.next()?) {
        return None;
    }
    let mut consumed = text.split_inclusive('\n').next()?.len();
    for line in lines {
        consumed += line.len();
        if is_delimiter(line) {
            return Some(&text[consumed..]);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_follows_closing_delimiter() {
        assert_eq!(body_of("---\nname: a\n---\n# Body\n"), Some("# Body\n"));
        assert_eq!(body_of("---\r\nname: a\r\n---\r\nx"), Some("x"));
        assert_eq!(body_of("---\nname: a\n"), None);
        assert_eq!(body_of("name: a\n---\n"), None);
    }

    #[test]
    fn frontmatter_read_stops_before_body() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("SKILL.md");
        let mut text = b"\xef\xbb\xbf---\r\nname: a\r\n---  \r\n".to_vec();
        text.extend_from_slice(&[0xff; 64]); // a body that is not even UTF-8
        std::fs::write(&path, text).unwrap();
        assert_eq!(read_frontmatter(&path).unwrap().yaml, "name: a\r\n");
    }

    #[test]
    fn huge_frontmatter_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("SKILL.md");
        let big = format!(
            "---\ndescription: {}\n---\n",
            "x".repeat(MAX_FRONTMATTER_BYTES * 2)
        );
        std::fs::write(&path, big).unwrap();
        assert!(matches!(
            read_frontmatter(&path),
            Err(SkillError::FrontmatterTooLarge { .. })
        ));
    }
}
