//! Frontmatter parsing must never panic or hang, whatever the bytes: the
//! strict (reference) reader, the lenient loader's YAML, the validator and
//! the line-based splitter. The two splitters must agree: the streaming
//! reader (level-1 discovery, which never reads the body) and `body_of`
//! find the same closing `---` line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillpkg::skill::{SkillError, document, strict_yaml, yaml};

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("fuzzed");
    std::fs::create_dir(&skill).unwrap();
    let skill_md = skill.join("SKILL.md");
    std::fs::write(&skill_md, data).unwrap();

    if let Ok(text) = std::str::from_utf8(data) {
        let _ = strict_yaml::parse(text);
        let _ = yaml::parse_yaml(text);
        let body = document::body_of(text);
        match (document::read_frontmatter(&skill_md), body) {
            (Ok(frontmatter), Some(body)) => {
                // BOM, opening line, the YAML, a closing line, the body.
                let text = text.strip_prefix('\u{feff}').unwrap_or(text);
                let opening = text.split_inclusive('\n').next().unwrap();
                let after = &text[opening.len()..];
                assert!(after.starts_with(&frontmatter.yaml), "the YAML is not what follows the opening line");
                let closing = &after[frontmatter.yaml.len()..after.len() - body.len()];
                assert_eq!(closing.trim_end(), "---", "the splitters disagree on the closing line");
            }
            (Err(SkillError::FrontmatterTooLarge { .. }), _) | (Err(_), None) => {}
            (Ok(_), None) => panic!("the reader found frontmatter, body_of found none"),
            (Err(e), Some(_)) => panic!("body_of found frontmatter, the reader did not: {e}"),
        }
    }
    // The whole path through files: validator and loader.
    let _ = skillpkg::skill::validate::validate(&skill, Default::default());
    let _ = skillpkg::skill::load_skill(&skill);
});
