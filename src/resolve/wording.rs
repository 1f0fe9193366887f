//! Versions and ranges in words: `1.2.0`, `>=1.0.0, <2.0.0`, "1.0.0,
//! 1.1.0 and 4 more", bounded however many parts a range has.

use std::ops::Bound;

use pubgrub::Ranges;
use semver::Version;

type Range = Ranges<Version>;

/// Ranges with more parts than this are named by their first few parts.
pub(super) const MAX_SEGMENTS: usize = 4;

/// The lowest version `range` admits, if bounded below.
pub(super) fn low(range: &Range) -> Option<&Version> {
    match range.bounding_range() {
        Some((Bound::Included(v) | Bound::Excluded(v), _)) => Some(v),
        _ => None,
    }
}

/// A range without a requirement's text: `1.2.0`, `>=1.0.0, <2.0.0`,
/// `<1.0.0 or >1.0.0`, "any version".
pub(super) fn render_range(range: &Range) -> String {
    if range == &Range::full() {
        return "any version".to_string();
    }
    if range.is_empty() {
        return "no version".to_string();
    }
    let total = range.iter().count();
    let mut segments: Vec<String> = range
        .iter()
        .take(MAX_SEGMENTS)
        .map(|segment| match segment {
            (Bound::Included(low), Bound::Included(high)) if low == high => low.to_string(),
            (low, high) => {
                let low = match low {
                    Bound::Included(v) => Some(format!(">={v}")),
                    Bound::Excluded(v) => Some(format!(">{v}")),
                    Bound::Unbounded => None,
                };
                let high = match high {
                    Bound::Included(v) => Some(format!("<={v}")),
                    Bound::Excluded(v) => Some(format!("<{v}")),
                    Bound::Unbounded => None,
                };
                low.into_iter().chain(high).collect::<Vec<_>>().join(", ")
            }
        })
        .collect();
    if total > MAX_SEGMENTS {
        segments.push(format!("{} more ranges", total - MAX_SEGMENTS));
    }
    segments.join(" or ")
}

/// "1.0.0", "1.0.0 and 1.1.0", "1.0.0, 1.1.0 and 1.2.0", "1.0.0, 1.1.0,
/// 1.2.0 and 4 more".
pub(super) fn list_versions(versions: &[&Version]) -> String {
    const SHOWN: usize = 3;
    let mut parts: Vec<String> = versions.iter().take(SHOWN).map(|v| v.to_string()).collect();
    if versions.len() > SHOWN {
        parts.push(format!("{} more", versions.len() - SHOWN));
    }
    join_and(&parts)
}

/// "a", "a and b", "a, b and c".
pub(super) fn join_and(parts: &[String]) -> String {
    join(parts, "and")
}

/// "a", "a `word` b", "a, b `word` c".
pub(super) fn join(parts: &[impl ToString], word: &str) -> String {
    let parts: Vec<String> = parts.iter().map(ToString::to_string).collect();
    match parts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {word} {last}", init.join(", ")),
    }
}
