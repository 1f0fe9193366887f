//! `semver::VersionReq` (cargo's syntax) as pubgrub `Ranges`.

use pubgrub::Ranges;
use semver::{Comparator, Op, Prerelease, Version, VersionReq};

fn version(major: u64, minor: u64, patch: u64, pre: &Prerelease) -> Version {
    let mut v = Version::new(major, minor, patch);
    v.pre = pre.clone();
    v
}

/// `[low, high)`.
fn between(low: Version, high: Version) -> Ranges<Version> {
    Ranges::between(low, high)
}

fn comparator_to_ranges(c: &Comparator) -> Ranges<Version> {
    let (major, minor, patch) = (c.major, c.minor, c.patch);
    let exact = version(major, minor.unwrap_or(0), patch.unwrap_or(0), &c.pre);
    let next_major = Version::new(major + 1, 0, 0);
    let next_minor = |m: u64| Version::new(major, m + 1, 0);
    // The range `=major[.minor]` covers when parts are missing.
    let partial = || match (minor, patch) {
        (None, _) => between(Version::new(major, 0, 0), next_major.clone()),
        (Some(m), None) => between(Version::new(major, m, 0), next_minor(m)),
        (Some(_), Some(_)) => Ranges::singleton(exact.clone()),
    };
    match c.op {
        Op::Exact | Op::Wildcard => partial(),
        Op::Greater => match (minor, patch) {
            (None, _) => Ranges::higher_than(next_major.clone()),
            (Some(m), None) => Ranges::higher_than(next_minor(m)),
            (Some(_), Some(_)) => Ranges::strictly_higher_than(exact),
        },
        Op::GreaterEq => Ranges::higher_than(exact),
        Op::Less => Ranges::strictly_lower_than(exact),
        Op::LessEq => match (minor, patch) {
            (None, _) => Ranges::strictly_lower_than(next_major.clone()),
            (Some(m), None) => Ranges::strictly_lower_than(next_minor(m)),
            (Some(_), Some(_)) => Ranges::lower_than(exact),
        },
        Op::Tilde => match minor {
            None => between(Version::new(major, 0, 0), next_major.clone()),
            Some(m) => between(exact, next_minor(m)),
        },
        Op::Caret => match (major, minor, patch) {
            (_, None, _) => between(Version::new(major, 0, 0), next_major.clone()),
            (0, Some(0), Some(p)) => between(exact, version(0, 0, p + 1, &Prerelease::EMPTY)),
            (0, Some(m), _) => between(exact, next_minor(m)),
            _ => between(exact, next_major.clone()),
        },
        _ => Ranges::full(),
    }
}

/// The versions a requirement admits, as a pubgrub range (pre-release
/// filtering is left to the resolver).
pub(crate) fn req_to_ranges(req: &VersionReq) -> Ranges<Version> {
    req.comparators.iter().fold(Ranges::full(), |acc, c| {
        acc.intersection(&comparator_to_ranges(c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The conversion agrees with `VersionReq::matches` on release versions.
    #[test]
    fn agrees_with_semver_matches() {
        let reqs = [
            "*",
            "^1.2.3",
            "^1.2",
            "^1",
            "^0.2.3",
            "^0.0.3",
            "^0.0",
            "~1.2.3",
            "~1.2",
            "~1",
            "=1.2.3",
            "=1.2",
            "=1",
            ">1.2.3",
            ">1.2",
            ">1",
            ">=1.2.3",
            ">=1.2",
            "<1.2.3",
            "<1.2",
            "<1",
            "<=1.2.3",
            "<=1.2",
            "<=1",
            "1.*",
            "1.2.*",
            ">=1.2, <1.5",
            "1.2.3",
        ];
        let mut versions = Vec::new();
        for major in 0..3 {
            for minor in 0..4 {
                for patch in 0..5 {
                    versions.push(Version::new(major, minor, patch));
                }
            }
        }
        for text in reqs {
            let req = VersionReq::parse(text).unwrap();
            let range = req_to_ranges(&req);
            for v in &versions {
                assert_eq!(range.contains(v), req.matches(v), "{text} on {v}");
            }
        }
    }
}
