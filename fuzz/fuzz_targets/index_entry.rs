//! An index entry file (one JSON object per line) is read from any server,
//! so any bytes must be refused or accepted without panicking. Whatever is
//! accepted must survive being written back: an entry's `to_line()` is one
//! line that reads back as the same entry, and writing it again gives the
//! same line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillpkg::index::parse_entries;

const FILE: &str = "index/fuzz/entry";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let whole = parse_entries(text, FILE);

    // Line by line: the file is accepted exactly when every line is, and
    // gives the same entries in the same order.
    let mut entries = Vec::new();
    let mut refused = false;
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        match parse_entries(line, FILE) {
            Ok(mut one) => {
                assert_eq!(one.len(), 1, "one line gave {} entries", one.len());
                entries.push(one.remove(0));
            }
            Err(_) => refused = true,
        }
    }
    match whole {
        Ok(all) => {
            assert!(!refused, "the file was accepted but one of its lines was not");
            assert_eq!(all, entries, "the file and its lines disagree");
        }
        Err(_) => assert!(refused, "the file was refused but each line was accepted"),
    }

    for entry in &entries {
        let line = entry.to_line();
        assert!(!line.contains('\n'), "to_line() wrote a newline: {line:?}");
        let again = parse_entries(&line, FILE).expect("a written entry line reads back");
        assert_eq!(again.as_slice(), std::slice::from_ref(entry), "{line}");
        assert_eq!(again[0].to_line(), line, "to_line() is not stable");
    }
});
