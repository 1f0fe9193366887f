//! Archive extraction must refuse or accept any bytes without panicking,
//! and never write outside its staging directory.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillpkg::store::extract::extract;
use skillpkg::store::limits::Limits;

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("fuzzed.skill");
    std::fs::write(&archive, data).unwrap();
    let staging = dir.path().join("staging");
    let limits = Limits {
        max_entries: 64,
        max_total_bytes: 1 << 20,
        max_ratio: 100,
    };
    if extract(&archive, None, &staging, &limits).is_err() {
        // A refusal leaves nothing behind.
        let left = std::fs::read_dir(&staging).map(|d| d.count()).unwrap_or(0);
        assert_eq!(left, 0, "a refused archive left files in staging");
    }
    let outside: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "fuzzed.skill" && n != "staging")
        .collect();
    assert!(outside.is_empty(), "wrote outside staging: {outside:?}");
});
