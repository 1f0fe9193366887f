//! `skills.lock` is read from the project (and may be edited or merged by
//! hand), so any text must be refused or accepted without panicking. An
//! accepted lock must round-trip: its text parses back to the same lock
//! (sorted as `to_text` sorts it), and writing that again gives the same
//! text.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use skillpkg::manifest::lock::Lockfile;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("skills.lock");
    let Ok(lock) = Lockfile::parse(text, path) else {
        return;
    };
    let written = lock.to_text();
    let reread = Lockfile::parse(&written, path)
        .unwrap_or_else(|e| panic!("a written lock does not parse: {e:#}\n{written}"));

    // What `to_text` promises: skills sorted by name and version, each
    // one's dependencies and grants and each org's keys sorted without
    // duplicates.
    let mut sorted = lock.clone();
    sorted
        .skills
        .sort_by(|a, b| a.name.cmp(&b.name).then(a.version.cmp(&b.version)));
    for skill in &mut sorted.skills {
        skill.dependencies.sort();
        skill.dependencies.dedup();
        skill.grants.sort();
        skill.grants.dedup();
    }
    for keys in sorted.keys.values_mut() {
        keys.sort();
        keys.dedup();
    }
    assert_eq!(reread, sorted, "the written lock reads back differently:\n{written}");
    assert_eq!(reread.to_text(), written, "to_text() is not stable");
});
