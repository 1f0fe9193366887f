//! `import` reads the lock `npx skills` wrote (`skills-lock.json` in a
//! project, `.skill-lock.json` for the user's skills), and a project's may
//! come with a cloned repository, so any text must be read or refused
//! without panicking (`ops::import::parse_npx_lock`). What it reads must
//! not depend on how the JSON is written: an accepted lock, written again
//! compactly (through `serde_json::Value`), reads as the same skills with
//! the same fields, and a lock is refused when its text is not JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use skillpkg::ops::import::parse_npx_lock;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(lock) = parse_npx_lock(text) else {
        return;
    };
    // Numbers beyond f64 (1e400) are skipped by the lock's reader, which
    // ignores unknown fields, and refused by `Value`: nothing to compare.
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return;
    };
    let compact = value.to_string();
    let again = parse_npx_lock(&compact)
        .unwrap_or_else(|e| panic!("{text:?} read, written compactly {compact:?} refused: {e}"));
    assert_eq!(
        format!("{:?}", lock.skills),
        format!("{:?}", again.skills),
        "{text:?} and {compact:?} read differently"
    );
    for (name, entry) in &lock.skills {
        // What `import` derives from an entry before reading anything.
        let _ = entry
            .skill_path
            .as_deref()
            .and_then(|p| p.rsplit_once('/'))
            .map(|(dir, _)| dir.trim_matches('/'));
        let _ = (name.len(), entry.source.trim_end_matches(".git"));
    }
});
