//! Reading files for the tools, a bounded piece at a time: `read_file`
//! and `read_resource` show the first [`MAX_READ`] bytes, `grep` holds at
//! most one bounded line.

use std::path::Path;

/// Bytes of a file `read_file`/`read_resource` returns, at most.
pub(super) const MAX_READ: usize = 100_000;

/// The first [`MAX_READ`] bytes of a regular file as text, and whether
/// there was more: no more is read, however large the file.
pub(super) fn read_text(path: &Path) -> Result<(String, bool), String> {
    use std::io::Read as _;
    let failed = |e: std::io::Error| format!("{}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(failed)?;
    let metadata = file.metadata().map_err(failed)?;
    if !metadata.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    let size = metadata.len();
    let mut bytes = Vec::with_capacity(MAX_READ.min(size as usize));
    file.take(MAX_READ as u64)
        .read_to_end(&mut bytes)
        .map_err(failed)?;
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        // A character cut by the limit is not binary.
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).expect("valid prefix")
        }
        Err(_) => {
            return Ok((
                format!(
                    "{} is a binary file ({size} bytes); use a script to work with it.",
                    path.display()
                ),
                false,
            ));
        }
    };
    let truncated = size > MAX_READ as u64;
    let mut shown = text.to_string();
    if truncated {
        shown.push_str(&format!("\n[truncated: the file has {size} bytes]"));
    }
    Ok((shown, truncated))
}

/// The longest line `grep` holds in memory; the rest of a longer line is
/// skipped.
const MAX_GREP_LINE: usize = 64 * 1024;

/// Calls `on_line` with each line of `reader` (without its newline), read
/// a bounded piece at a time: a line longer than [`MAX_GREP_LINE`] is cut.
/// Stops early when `on_line` returns false.
pub(super) fn for_each_line(
    mut reader: impl std::io::BufRead,
    mut on_line: impl FnMut(usize, &str) -> bool,
) -> std::io::Result<()> {
    use std::io::BufRead as _;
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        let read =
            std::io::Read::take(&mut reader, MAX_GREP_LINE as u64).read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(());
        }
        number += 1;
        if line.last() == Some(&b'\n') {
            line.pop();
        } else if read == MAX_GREP_LINE {
            // Skip the rest of an over-long line without holding it.
            let mut rest = Vec::new();
            while std::io::Read::take(&mut reader, MAX_GREP_LINE as u64)
                .read_until(b'\n', &mut rest)?
                > 0
            {
                let ended = rest.last() == Some(&b'\n');
                rest.clear();
                if ended {
                    break;
                }
            }
        }
        if !on_line(number, &String::from_utf8_lossy(&line)) {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_a_bounded_piece_at_a_time() {
        let long = "x".repeat(MAX_GREP_LINE * 3);
        let text = format!("first\n{long}\nthird\nfourth");
        let mut seen = Vec::new();
        for_each_line(std::io::Cursor::new(text), |number, line| {
            seen.push((number, line.len()));
            number < 3
        })
        .unwrap();
        assert_eq!(seen, [(1, 5), (2, MAX_GREP_LINE), (3, 5)]);
    }
}
