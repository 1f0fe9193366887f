//! Extracting a registry's tar layer must refuse or accept any bytes
//! without panicking, and never write outside its destination. The first
//! byte picks gzip or plain tar, and where the skill may be.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillpkg::store::limits::Limits;
use skillpkg::store::untar::{Compression, Rooted, extract_layer};

fuzz_target!(|data: &[u8]| {
    let Some((&first, layer)) = data.split_first() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dest");
    std::fs::create_dir(&dest).unwrap();
    let compression = match first & 1 {
        0 => Compression::Gzip,
        _ => Compression::None,
    };
    let rooted = match first & 2 {
        0 => Rooted::Anywhere,
        _ => Rooted::InFolder(None),
    };
    let limits = Limits {
        max_entries: 64,
        max_total_bytes: 1 << 20,
        max_ratio: 100,
    };
    let result = extract_layer(
        layer,
        layer.len() as u64,
        compression,
        rooted,
        "fuzzed",
        &dest,
        &limits,
    );
    let left: Vec<_> = std::fs::read_dir(&dest)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    match result {
        // A refusal leaves nothing behind.
        Err(_) => assert!(left.is_empty(), "a refused layer left {left:?}"),
        // An extraction leaves the skill's one folder, holding SKILL.md.
        Ok(skill) => {
            assert_eq!(left.len(), 1, "{left:?}");
            assert!(skill.starts_with(&dest) && skill.join("SKILL.md").is_file());
        }
    }
    let outside: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "dest")
        .collect();
    assert!(
        outside.is_empty(),
        "wrote outside its destination: {outside:?}"
    );
});
