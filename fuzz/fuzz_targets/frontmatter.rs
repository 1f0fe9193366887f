//! Frontmatter parsing must never panic or hang, whatever the bytes: the
//! strict (reference) reader, the lenient loader's YAML, the validator and
//! the line-based splitter.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillpkg::skill::{document, load, strict_yaml};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = strict_yaml::parse(text);
        let _ = load::parse_yaml(text);
        let _ = document::body_of(text);
    }
    // The whole path through files: validator and loader.
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("fuzzed");
    std::fs::create_dir(&skill).unwrap();
    std::fs::write(skill.join("SKILL.md"), data).unwrap();
    let _ = skillpkg::skill::validate::validate(&skill, Default::default());
    let _ = skillpkg::skill::load_skill(&skill);
});
