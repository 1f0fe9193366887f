//! SARIF 2.1.0, the format code-scanning dashboards take.

use serde_json::{Value, json};

use super::{RULES, Report, Severity};

/// SARIF's level for a severity.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Block => "error",
        Severity::Warn => "warning",
        Severity::Info => "note",
    }
}

/// One SARIF log of `reports`, each finding's file given relative to the
/// folder scanned (`base` names it, as SARIF's `originalUriBaseIds`).
pub(crate) fn log(reports: &[Report], base: &std::path::Path) -> Value {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|rule| {
            json!({
                "id": rule.id,
                "shortDescription": {"text": rule.rationale},
                "defaultConfiguration": {"level": level(rule.severity)},
            })
        })
        .collect();
    let results: Vec<Value> = reports
        .iter()
        .flat_map(|report| {
            let prefix = report
                .dir
                .strip_prefix(base)
                .ok()
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .filter(|p| !p.is_empty());
            report.findings.iter().map(move |finding| {
                let uri = match &prefix {
                    Some(prefix) => format!("{prefix}/{}", finding.file),
                    None => finding.file.clone(),
                };
                let mut location = json!({
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri, "uriBaseId": "SCANROOT"},
                    }
                });
                // A line, or the whole file (SARIF §3.30: its bytes).
                let region = match finding.line {
                    Some(line) => Some(json!({"startLine": line, "endLine": line})),
                    None => std::fs::metadata(report.dir.join(&finding.file))
                        .ok()
                        .map(|meta| json!({"byteOffset": 0, "byteLength": meta.len()})),
                };
                if let Some(region) = region {
                    location["physicalLocation"]["region"] = region;
                }
                json!({
                    "ruleId": finding.rule,
                    "ruleIndex": RULES.iter().position(|r| r.id == finding.rule),
                    "level": level(finding.severity),
                    "message": {"text": match finding.excerpt.is_empty() {
                        true => finding.message.clone(),
                        false => format!("{}: {}", finding.message, finding.excerpt),
                    }},
                    "locations": [location],
                })
            })
        })
        .collect();
    let root = url_of(base);
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "skillpkg",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://agentskills.io",
                "rules": rules,
            }},
            "originalUriBaseIds": {"SCANROOT": {"uri": root}},
            "results": results,
        }],
    })
}

/// `dir` as a `file://` URL ending in `/`.
fn url_of(dir: &std::path::Path) -> String {
    let absolute = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut text = absolute.to_string_lossy().replace('\\', "/");
    if !text.ends_with('/') {
        text.push('/');
    }
    let encoded: String = text
        .chars()
        .map(|c| match c {
            ' ' => "%20".to_string(),
            '#' => "%23".to_string(),
            '%' => "%25".to_string(),
            c => c.to_string(),
        })
        .collect();
    match encoded.starts_with('/') {
        true => format!("file://{encoded}"),
        false => format!("file:///{encoded}"),
    }
}
