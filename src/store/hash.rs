//! Content hashes: sha256 of bytes, and the `h1:` tree hash of a directory.

use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

/// Lowercase hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        text.push(DIGITS[usize::from(b >> 4)] as char);
        text.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    text
}

/// The bytes lowercase or uppercase hex `text` spells; `None` for
/// anything else.
pub(crate) fn unhex(text: &str) -> Option<Vec<u8>> {
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let text = text.as_bytes();
    if !text.len().is_multiple_of(2) {
        return None;
    }
    text.chunks(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

/// sha256 of `bytes`, as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// sha256 of a file's contents, as lowercase hex, streamed.
pub(crate) fn sha256_file(path: &Path) -> std::io::Result<String> {
    Ok(digest_reader(fs_err::File::open(path)?, u64::MAX)?.sha256)
}

/// `sha256:<hex>` of a file's contents, streamed: the digest as MCP,
/// OCI and the lock's waivers spell it.
pub(crate) fn sha256_file_digest(path: &Path) -> std::io::Result<String> {
    Ok(format!("sha256:{}", sha256_file(path)?))
}

/// What went through a [`HashingWriter`] or [`digest_reader`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Streamed {
    /// sha256 of the bytes, lowercase hex.
    pub sha256: String,
    /// How many bytes.
    pub len: u64,
    /// Whether every byte was ASCII.
    pub ascii: bool,
}

/// A writer that passes bytes on to `W`, hashing (sha256) the very bytes
/// written and noting any byte outside ASCII: a file is hashed as it is
/// written, never held in memory.
pub(crate) struct HashingWriter<W> {
    inner: W,
    hasher: Sha256,
    len: u64,
    ascii: bool,
}

impl<W: std::io::Write> HashingWriter<W> {
    /// A writer into `inner`.
    pub(crate) fn new(inner: W) -> HashingWriter<W> {
        HashingWriter {
            inner,
            hasher: Sha256::new(),
            len: 0,
            ascii: true,
        }
    }

    /// The inner writer, and what was written into it.
    pub(crate) fn finish(self) -> (W, Streamed) {
        let streamed = Streamed {
            sha256: hex(&self.hasher.finalize()),
            len: self.len,
            ascii: self.ascii,
        };
        (self.inner, streamed)
    }
}

impl<W: std::io::Write> std::io::Write for HashingWriter<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(bytes)?;
        self.hasher.update(&bytes[..n]);
        self.ascii &= bytes[..n].is_ascii();
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Reads `reader` to its end, or to `limit + 1` bytes (so that a caller
/// can tell a stream past `limit`), in pieces: its sha256, length and
/// whether it is all ASCII.
pub(crate) fn digest_reader(reader: impl Read, limit: u64) -> std::io::Result<Streamed> {
    let mut out = HashingWriter::new(std::io::sink());
    std::io::copy(&mut reader.take(limit.saturating_add(1)), &mut out)?;
    Ok(out.finish().1)
}

/// The sha256 (hex) of every file under `dir`, by relative path with `/`
/// separators, sorted. A missing directory has no files.
///
/// Links are never followed, `dir` itself included, and nothing but
/// regular files is opened: a symbolic link is hashed by its target's
/// name, and a device, FIFO or socket by its kind, so a link to
/// `/dev/zero` or a FIFO planted in a skill cannot hang a hash, and either
/// makes the tree differ from any archive's (archives hold regular files
/// only).
pub(crate) fn file_digests(
    dir: &Path,
) -> std::io::Result<std::collections::BTreeMap<String, String>> {
    let mut files = std::collections::BTreeMap::new();
    if std::fs::symlink_metadata(dir).is_err() {
        return Ok(files);
    }
    let walk = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .follow_root_links(false);
    for entry in walk {
        let entry = entry.map_err(std::io::Error::other)?;
        if entry.file_type().is_dir() {
            continue;
        }
        let relative = entry
            .path()
            .strip_prefix(dir)
            .expect("walk stays under its root");
        let relative: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let kind = entry.file_type();
        let digest = if kind.is_file() {
            sha256_file(entry.path())?
        } else if kind.is_symlink() {
            let target = fs_err::read_link(entry.path())?;
            sha256_hex(format!("symlink\0{}", target.display()).as_bytes())
        } else {
            sha256_hex(b"special file\0")
        };
        files.insert(relative.join("/"), digest);
    }
    Ok(files)
}

/// The `h1:` hash of a directory tree (Go's dirhash scheme): sha256 over
/// the sorted lines `<sha256 hex of file>  <relative path>\n`, base64.
/// Independent of archive bytes, timestamps and permissions, so `verify`
/// can tell an edited skill from a pristine one.
pub fn tree_hash(dir: &Path) -> std::io::Result<String> {
    Ok(tree_hash_of(&file_digests(dir)?))
}

/// The `h1:` hash of a tree given as `relative path → sha256 hex` (the
/// map keeps the paths sorted, as the scheme wants).
pub(crate) fn tree_hash_of(digests: &std::collections::BTreeMap<String, String>) -> String {
    use base64::Engine as _;
    let mut summary = Sha256::new();
    for (relative, digest) in digests {
        summary.update(format!("{digest}  {relative}\n").as_bytes());
    }
    format!(
        "h1:{}",
        base64::engine::general_purpose::STANDARD.encode(summary.finalize())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_what_is_not_hex() {
        let bytes = [0x00, 0x0f, 0xa5, 0xff];
        assert_eq!(hex(&bytes), "000fa5ff");
        assert_eq!(unhex("000fa5ff").unwrap(), bytes);
        assert_eq!(unhex("000FA5FF").unwrap(), bytes);
        assert_eq!(unhex("abc"), None);
        assert_eq!(unhex("zz"), None);
        assert_eq!(unhex("+1"), None);
    }

    #[test]
    fn tree_hash_follows_content_and_names_only() {
        let a = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(a.path().join("sub")).unwrap();
        std::fs::write(a.path().join("sub/x.txt"), "x").unwrap();
        std::fs::write(a.path().join("SKILL.md"), "s").unwrap();
        let h = tree_hash(a.path()).unwrap();
        // Go's dirhash of the same files, computed by hand.
        let lines = format!(
            "{}  SKILL.md\n{}  sub/x.txt\n",
            sha256_hex(b"s"),
            sha256_hex(b"x")
        );
        use base64::Engine as _;
        let expected =
            base64::engine::general_purpose::STANDARD.encode(Sha256::digest(lines.as_bytes()));
        assert_eq!(h, format!("h1:{expected}"));
        std::fs::write(a.path().join("sub/x.txt"), "y").unwrap();
        assert_ne!(tree_hash(a.path()).unwrap(), h);
    }

    #[test]
    fn known_digest() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
