//! Differential test: for thousands of generated SKILL.md variants,
//! `skillpkg validate` gives the reference validator's verdict.

use std::path::PathBuf;

use crate::common::{TestContext, reference_verdicts, skillpkg_verdicts};

/// splitmix64: a tiny deterministic generator, so every run tests the same cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Character pools for names: the rules differ on each.
const NAME_POOLS: &[&[char]] = &[
    &['a', 'b', 'c', 'x', 'y', 'z', 'k', 'm'],
    &['0', '1', '7', '9'],
    &['-'],
    &['é', 'ß', 'ö', 'ж', 'α', 'ñ', 'ł', 'ğ'],
    &['漢', '字', 'ア', 'ㄱ', 'ก'],
    &['A', 'Z', 'É', 'Ж', 'Σ', 'İ'],
    &['\u{301}', '\u{308}', '\u{93e}', '\u{5b4}'],
    &['_', '.', '!', '@', ' ', '/', '~', '+'],
    &['ﬁ', 'ﬃ', 'Ａ', 'ａ', '²', '½', 'Ⅻ', 'ⅻ', '①', 'ǅ', 'ʰ', '٣'],
];

fn random_name(rng: &mut Rng) -> String {
    let len = match rng.below(10) {
        0 => 63 + rng.below(3),
        1 => 20 + rng.below(3),
        _ => 1 + rng.below(16),
    };
    // Mostly valid-looking names, with some from every pool.
    let clean = rng.chance(60);
    let mut name = String::new();
    for _ in 0..len {
        let pool = if clean || rng.chance(70) {
            NAME_POOLS[0]
        } else {
            *rng.pick(NAME_POOLS)
        };
        name.push(*rng.pick(pool));
    }
    name
}

const TEXT_CHARS: &[char] = &[
    'a', 'e', 'o', ' ', ' ', 'T', '.', 'é', '漢', '😀', 'ß', ',', '-', '\'',
];

fn random_text(rng: &mut Rng, len: usize) -> String {
    (0..len).map(|_| *rng.pick(TEXT_CHARS)).collect()
}

fn boundary_len(rng: &mut Rng, limit: usize) -> usize {
    match rng.below(12) {
        0 => limit - 1,
        1 => limit,
        2 => limit + 1,
        3 => 0,
        _ => 1 + rng.below(80),
    }
}

/// Renders a scalar in one of YAML's styles (some of which change the value
/// or break the document: both validators must agree on that too).
fn render_scalar(rng: &mut Rng, value: &str) -> String {
    match rng.below(10) {
        0 => format!("'{}'", value.replace('\'', "''")),
        1 => format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\"")),
        2 => format!("|\n  {}", value),
        3 => format!(">-\n  {}", value),
        4 => format!("|+\n  {}\n", value),
        _ => value.to_string(),
    }
}

struct Case {
    dir_name: String,
    file_name: &'static str,
    bytes: Vec<u8>,
}

fn random_case(rng: &mut Rng) -> Case {
    let name = random_name(rng);
    let dir_name = match rng.below(20) {
        0 => random_name(rng),
        1 => name.to_uppercase(),
        // NFKC-equivalent but different code points.
        2 => name.replace('f', "ﬀ").replace('a', "ａ"),
        _ => name.clone(),
    };
    let description = {
        let len = boundary_len(rng, 1024);
        let mut d = random_text(rng, len);
        if rng.chance(5) {
            d = "   ".into();
        }
        if rng.chance(5) {
            d.push_str(": colon");
        }
        d
    };

    let mut fields: Vec<String> = Vec::new();
    if !rng.chance(4) {
        fields.push(format!("name: {}", render_scalar(rng, &name)));
    }
    if !rng.chance(4) {
        fields.push(format!("description: {}", render_scalar(rng, &description)));
    }
    if rng.chance(25) {
        let len = boundary_len(rng, 500);
        let text = random_text(rng, len);
        fields.push(format!("compatibility: {}", render_scalar(rng, &text)));
    }
    if rng.chance(15) {
        fields.push("license: MIT".into());
    }
    if rng.chance(15) {
        fields.push("allowed-tools: Bash(git:*) Read".into());
    }
    if rng.chance(15) {
        fields.push(
            rng.pick(&[
                "metadata:\n  version: \"1.0\"\n  author: x",
                "metadata:\n  nested:\n    deep: 1",
                "metadata: plain",
                "metadata:\n  - a\n  - b",
                "metadata:\n  a: b\n  c:\n    d: e\n  f:\n      g: h",
            ])
            .to_string(),
        );
    }
    if rng.chance(8) {
        fields.push(
            rng.pick(&[
                "Name: x",
                "version: 1.0",
                "tags: a",
                "Description: y",
                "allowed_tools: Read",
                "user-invocable: false",
            ])
            .to_string(),
        );
    }
    if rng.chance(5) && !fields.is_empty() {
        let dup = fields[rng.below(fields.len())].clone();
        fields.push(dup);
    }
    if rng.chance(4) {
        fields.push(
            rng.pick(&[
                "tags: [a, b]",
                "metadata: {a: b}",
                "x: &anchor v",
                "y: !!str v",
                "z: *nope",
                "  bad-indent: v",
                "key:\tvalue",
                "- item",
                "a: b: c",
                "compatibility:\n  - linux",
                "name:\n  first: x",
                "description:",
                "compatibility:",
                "# a comment",
                "...",
                "description: \"unterminated",
            ])
            .to_string(),
        );
    }
    let order_swap = rng.chance(20);
    if order_swap {
        fields.reverse();
    }
    let mut yaml = fields.join("\n");
    if !yaml.is_empty() {
        yaml.push('\n');
    }

    let body = "\n# Title\n\nSome instructions --- with dashes.\n";
    let mut text = match rng.below(60) {
        0 => format!("{yaml}{body}"),                   // no frontmatter
        1 => format!("---\n{yaml}"),                    // unclosed
        2 => format!("\u{feff}---\n{yaml}---\n{body}"), // BOM
        3 => format!("--- \n{yaml}---\n{body}"),        // trailing space
        4 => "---\njust a scalar\n---\n".to_string(),   // non-mapping
        5 => "---\n---\n".to_string(),                  // empty
        6 => format!("---\n{yaml}----\n{body}"),        // four dashes
        _ => format!("---\n{yaml}---\n{body}"),
    };
    if rng.chance(10) {
        text = text.replace('\n', "\r\n");
    }
    let mut bytes = text.into_bytes();
    if rng.chance(1) {
        bytes.push(0xff);
    }
    Case {
        dir_name,
        file_name: if rng.chance(5) {
            "skill.md"
        } else {
            "SKILL.md"
        },
        bytes,
    }
}

fn differential(cases: usize, seed: u64) {
    let ctx = TestContext::new();
    let mut rng = Rng(seed);
    let mut dirs: Vec<PathBuf> = Vec::new();
    for i in 0..cases {
        let case = random_case(&mut rng);
        // Each case gets its own parent so directory names may repeat.
        let parent = ctx.root().join("cases").join(i.to_string());
        let dir_name = if case.dir_name.contains('/')
            || case.dir_name.trim().is_empty()
            || case.dir_name == "."
        {
            "slash".to_string()
        } else {
            case.dir_name
        };
        let dir = parent.join(&dir_name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(case.file_name), &case.bytes).unwrap();
        dirs.push(dir);
    }
    let Some(reference) = reference_verdicts(&dirs) else {
        return;
    };
    let ours = skillpkg_verdicts(&ctx, &dirs);
    assert_eq!(reference.len(), ours.len());
    let mut mismatches = Vec::new();
    for ((dir, theirs), ours) in dirs.iter().zip(&reference).zip(&ours) {
        if theirs["valid"] != ours["valid"] {
            let text = String::from_utf8_lossy(
                &std::fs::read(dir.join("SKILL.md"))
                    .or_else(|_| std::fs::read(dir.join("skill.md")))
                    .unwrap(),
            )
            .into_owned();
            mismatches.push(format!(
                "{}\n  reference: {}\n  skillpkg:  {}\n  SKILL.md: {text:?}",
                dir.display(),
                theirs["errors"],
                ours["problems"]
            ));
        }
    }
    let valid = reference.iter().filter(|v| v["valid"] == true).count();
    println!(
        "differential: {cases} cases, {valid} valid per the reference, {} mismatches",
        mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} of {cases} verdicts differ:\n{}",
        mismatches.len(),
        mismatches
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        valid > cases / 10 && valid < cases * 9 / 10,
        "the generator should produce both verdicts often ({valid} valid)"
    );
}

/// `DIFFERENTIAL_CASES` and `DIFFERENTIAL_SEED` widen the search locally.
#[test]
fn verdicts_match_the_reference_validator() {
    let cases = std::env::var("DIFFERENTIAL_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let seed = std::env::var("DIFFERENTIAL_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_5ca1_ab1e);
    differential(cases, seed);
}
