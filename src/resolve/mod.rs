//! Version resolution with pubgrub, over index entries fetched beforehand.
//!
//! Requirements are cargo's (`semver::VersionReq`), converted to pubgrub
//! ranges. Yanked versions are skipped unless already locked; locked
//! versions are preferred when they still satisfy every requirement;
//! pre-releases are considered only for packages some requirement names a
//! pre-release for. A conflict is explained in sentences that name the
//! requirements as written and why versions are unusable (`report`).

mod ranges;
mod report;
mod wording;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use pubgrub::{
    Dependencies, DependencyConstraints, DependencyProvider, PackageResolutionStatistics, Ranges,
};
use semver::{Version, VersionReq};

pub(crate) use ranges::req_to_ranges;

/// A package in the resolution: the project itself, or `org/name`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Pkg {
    /// The project being resolved.
    Root,
    /// A registry package.
    Named(String),
}

impl fmt::Display for Pkg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pkg::Root => f.write_str("your project"),
            Pkg::Named(name) => f.write_str(name),
        }
    }
}

/// One version of a package, as its index entry describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// The version.
    pub version: Version,
    /// Its dependencies.
    pub dependencies: Vec<(String, VersionReq)>,
    /// Whether it is yanked.
    pub yanked: bool,
    /// Whether it is deprecated: chosen only when no other version will do.
    pub deprecated: bool,
}

/// What resolution works from: every candidate of every package it may need.
#[derive(Debug, Clone, Default)]
pub(crate) struct Universe {
    /// Candidates by `org/name`.
    pub packages: BTreeMap<String, Vec<Candidate>>,
}

/// Why resolution failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ResolveError {
    /// No set of versions satisfies every requirement.
    #[error("no versions satisfy the requirements:\n{0}")]
    NoSolution(String),
    /// The search ran past its time limit: entry files built to make
    /// resolution slow, or a dependency graph too tangled to untie.
    #[error(
        "resolution gave up after {} s over {packages} packages and {versions} versions: the index's dependencies are too tangled to resolve",
        RESOLVE_DEADLINE.as_secs()
    )]
    TooLong {
        /// Packages in the universe.
        packages: usize,
        /// Versions in the universe.
        versions: usize,
    },
}

/// How long resolution may search before it gives up.
const RESOLVE_DEADLINE: std::time::Duration = std::time::Duration::from_secs(20);

/// Candidates counted at most when ranking packages by how few versions
/// they offer: the order only needs to tell few from many.
const COUNT_CAP: usize = 64;

/// The newest usable versions of a package that resolution considers (the
/// locked one is considered too): enough for any real package, and a bound
/// on the work an entry file of thousands of versions can cause.
pub(crate) const MAX_CANDIDATES: usize = 1000;

/// Resolution ran past its deadline.
#[derive(Debug, thiserror::Error)]
#[error("resolution ran past its deadline")]
struct Cancelled;

struct Provider<'a> {
    universe: &'a Universe,
    root: &'a [(String, VersionReq)],
    locked: &'a BTreeMap<String, Version>,
    allow_pre: BTreeSet<String>,
    /// Each package's candidates, highest version first.
    sorted: BTreeMap<&'a str, Vec<&'a Candidate>>,
    /// When the search must stop.
    deadline: std::time::Instant,
}

impl<'a> Provider<'a> {
    fn new(
        universe: &'a Universe,
        root: &'a [(String, VersionReq)],
        locked: &'a BTreeMap<String, Version>,
        allow_pre: BTreeSet<String>,
    ) -> Provider<'a> {
        let sorted = universe
            .packages
            .iter()
            .map(|(name, candidates)| {
                let mut sorted: Vec<&Candidate> = candidates.iter().collect();
                sorted.sort_by(|a, b| b.version.cmp(&a.version));
                (name.as_str(), sorted)
            })
            .collect();
        Provider {
            universe,
            root,
            locked,
            allow_pre,
            sorted,
            deadline: std::time::Instant::now() + RESOLVE_DEADLINE,
        }
    }

    /// The usable candidates of `name`, highest version first: the newest
    /// [`MAX_CANDIDATES`], and the locked one wherever it is.
    fn usable<'c>(&'c self, name: &'c str) -> impl Iterator<Item = &'c Candidate> + 'c {
        let locked = self.locked.get(name);
        let allow_pre = self.allow_pre.contains(name);
        self.sorted
            .get(name)
            .into_iter()
            .flatten()
            .copied()
            .filter(move |c| !c.yanked || Some(&c.version) == locked)
            .filter(move |c| c.version.pre.is_empty() || allow_pre)
            .enumerate()
            .filter(move |(i, c)| *i < MAX_CANDIDATES || Some(&c.version) == locked)
            .map(|(_, c)| c)
    }

    fn constraints(deps: &[(String, VersionReq)]) -> DependencyConstraints<Pkg, Ranges<Version>> {
        // One constraint per package: several requirements on it intersect.
        let mut merged: BTreeMap<String, Ranges<Version>> = BTreeMap::new();
        for (name, req) in deps {
            let range = req_to_ranges(req);
            let entry = merged.entry(name.clone()).or_insert_with(Ranges::full);
            *entry = entry.intersection(&range);
        }
        merged
            .into_iter()
            .map(|(name, range)| (Pkg::Named(name), range))
            .collect()
    }
}

impl DependencyProvider for Provider<'_> {
    type P = Pkg;
    type V = Version;
    type VS = Ranges<Version>;
    type M = String;
    type Err = Cancelled;
    type Priority = (u32, std::cmp::Reverse<usize>);

    fn prioritize(
        &self,
        package: &Pkg,
        range: &Ranges<Version>,
        stats: &PackageResolutionStatistics,
    ) -> Self::Priority {
        let Pkg::Named(name) = package else {
            return (u32::MAX, std::cmp::Reverse(0));
        };
        let count = self
            .usable(name)
            .filter(|c| range.contains(&c.version))
            .take(COUNT_CAP)
            .count();
        if count == 0 {
            return (u32::MAX, std::cmp::Reverse(0));
        }
        (stats.conflict_count(), std::cmp::Reverse(count))
    }

    fn choose_version(
        &self,
        package: &Pkg,
        range: &Ranges<Version>,
    ) -> Result<Option<Version>, Self::Err> {
        let Pkg::Named(name) = package else {
            return Ok(Some(Version::new(0, 0, 0)));
        };
        if let Some(locked) = self.locked.get(name)
            && range.contains(locked)
            && self.usable(name).any(|c| &c.version == locked)
        {
            return Ok(Some(locked.clone()));
        }
        // The newest version in range, preferring one that is not
        // deprecated.
        let in_range = || self.usable(name).filter(|c| range.contains(&c.version));
        Ok(in_range()
            .find(|c| !c.deprecated)
            .or_else(|| in_range().next())
            .map(|c| c.version.clone()))
    }

    fn should_cancel(&self) -> Result<(), Cancelled> {
        match std::time::Instant::now() < self.deadline {
            true => Ok(()),
            false => Err(Cancelled),
        }
    }

    fn get_dependencies(
        &self,
        package: &Pkg,
        version: &Version,
    ) -> Result<Dependencies<Pkg, Ranges<Version>, String>, Self::Err> {
        let deps = match package {
            Pkg::Root => self.root,
            Pkg::Named(name) => match self.usable(name).find(|c| &c.version == version) {
                Some(candidate) => candidate.dependencies.as_slice(),
                None => {
                    return Ok(Dependencies::Unavailable(
                        "it is not in the index".to_string(),
                    ));
                }
            },
        };
        Ok(Dependencies::Available(Self::constraints(deps)))
    }
}

/// Resolves `root` (the project's requirements) over `universe`, preferring
/// `locked` versions. Returns the chosen version of every package needed.
pub(crate) fn resolve(
    universe: &Universe,
    root: &[(String, VersionReq)],
    locked: &BTreeMap<String, Version>,
) -> Result<BTreeMap<String, Version>, ResolveError> {
    let mut allow_pre = BTreeSet::new();
    let all_reqs = root.iter().chain(
        universe
            .packages
            .values()
            .flatten()
            .flat_map(|c| c.dependencies.iter()),
    );
    for (name, req) in all_reqs {
        if req.comparators.iter().any(|c| !c.pre.is_empty()) {
            allow_pre.insert(name.clone());
        }
    }
    let provider = Provider::new(universe, root, locked, allow_pre);
    match pubgrub::resolve(&provider, Pkg::Root, Version::new(0, 0, 0)) {
        Ok(solution) => Ok(solution
            .into_iter()
            .filter_map(|(pkg, version)| match pkg {
                Pkg::Root => None,
                Pkg::Named(name) => Some((name, version)),
            })
            .collect()),
        Err(pubgrub::PubGrubError::NoSolution(tree)) => {
            Err(ResolveError::NoSolution(report::explain(&provider, &tree)))
        }
        Err(pubgrub::PubGrubError::ErrorInShouldCancel(Cancelled)) => Err(ResolveError::TooLong {
            packages: universe.packages.len(),
            versions: universe.packages.values().map(Vec::len).sum(),
        }),
        Err(other) => Err(ResolveError::NoSolution(other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    pub(super) fn req(s: &str) -> VersionReq {
        VersionReq::parse(s).unwrap()
    }

    pub(super) fn candidate(version: &str, deps: &[(&str, &str)], yanked: bool) -> Candidate {
        Candidate {
            version: v(version),
            dependencies: deps.iter().map(|(n, r)| (n.to_string(), req(r))).collect(),
            yanked,
            deprecated: false,
        }
    }

    pub(super) fn universe() -> Universe {
        let mut u = Universe::default();
        u.packages.insert(
            "example/report-writer".into(),
            vec![candidate(
                "1.0.0",
                &[("example/pdf", "^1"), ("example/cite", "^1")],
                false,
            )],
        );
        u.packages.insert(
            "example/pdf".into(),
            vec![
                candidate("1.0.0", &[], false),
                candidate("1.2.0", &[], false),
                candidate("1.3.0", &[], true),
            ],
        );
        u.packages.insert(
            "example/cite".into(),
            vec![
                candidate("1.0.0", &[], false),
                candidate("2.0.0", &[], false),
                candidate("2.1.0-beta.1", &[], false),
            ],
        );
        u
    }

    #[test]
    fn picks_highest_compatible_and_skips_yanked_and_prereleases() {
        let solution = resolve(
            &universe(),
            &[("example/report-writer".into(), req("*"))],
            &BTreeMap::new(),
        )
        .unwrap();
        assert_eq!(solution["example/pdf"], v("1.2.0"));
        assert_eq!(solution["example/cite"], v("1.0.0"));
        let direct = resolve(
            &universe(),
            &[("example/cite".into(), req("*"))],
            &BTreeMap::new(),
        )
        .unwrap();
        assert_eq!(
            direct["example/cite"],
            v("2.0.0"),
            "no pre-release unless asked for"
        );
        let pre = resolve(
            &universe(),
            &[("example/cite".into(), req(">=2.1.0-beta.1"))],
            &BTreeMap::new(),
        )
        .unwrap();
        assert_eq!(pre["example/cite"], v("2.1.0-beta.1"));
    }

    #[test]
    fn prefers_locked_versions_even_yanked_ones() {
        let locked = BTreeMap::from([("example/pdf".to_string(), v("1.3.0"))]);
        let solution = resolve(&universe(), &[("example/pdf".into(), req("^1"))], &locked).unwrap();
        assert_eq!(solution["example/pdf"], v("1.3.0"));
        let locked = BTreeMap::from([("example/pdf".to_string(), v("1.0.0"))]);
        let solution = resolve(&universe(), &[("example/pdf".into(), req("^1"))], &locked).unwrap();
        assert_eq!(solution["example/pdf"], v("1.0.0"));
    }

    /// The explanation of a failure to resolve `root` over `universe`.
    pub(super) fn explain(universe: &Universe, root: &[(&str, &str)]) -> String {
        let root: Vec<(String, VersionReq)> =
            root.iter().map(|(n, r)| (n.to_string(), req(r))).collect();
        resolve(universe, &root, &BTreeMap::new())
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn conflicts_are_explained_in_words() {
        // (a) A dependency requires another major version than the project.
        let text = explain(
            &universe(),
            &[("example/report-writer", "*"), ("example/cite", "^2")],
        );
        insta::assert_snapshot!(text, @r"
        no versions satisfy the requirements:
        Because your project requires example/cite ^2 and every version of example/report-writer requires example/cite ^1, your project cannot use any version of example/report-writer.
        And because your project requires any version of example/report-writer, the requirements of your project cannot be met together.
        ");

        // (b) The only versions that match are yanked.
        let text = explain(&universe(), &[("example/pdf", ">=1.3")]);
        insta::assert_snapshot!(text, @r"
        no versions satisfy the requirements:
        Because your project requires example/pdf >=1.3 and the only version of example/pdf matching >=1.3 (1.3.0) is yanked, the requirement of your project cannot be met.
        ");

        // (c) A package the index does not have.
        let text = explain(&universe(), &[("example/nope", "*")]);
        insta::assert_snapshot!(text, @r"
        no versions satisfy the requirements:
        Because your project requires any version of example/nope and example/nope is not in the index, the requirement of your project cannot be met.
        ");

        // (d) A conflict three levels down: a -> b ^1 -> c ^1, but c ^2.
        let mut chain = universe();
        chain.packages.insert(
            "example/a".into(),
            vec![candidate("1.0.0", &[("example/b", "^1")], false)],
        );
        chain.packages.insert(
            "example/b".into(),
            vec![candidate("1.0.0", &[("example/c", "^1")], false)],
        );
        chain.packages.insert(
            "example/c".into(),
            vec![
                candidate("1.0.0", &[], false),
                candidate("2.0.0", &[], false),
            ],
        );
        let text = explain(&chain, &[("example/a", "^1"), ("example/c", "^2")]);
        insta::assert_snapshot!(text, @r"
        no versions satisfy the requirements:
        Because every version of example/a matching ^1 requires example/b ^1 and every version of example/b matching ^1 requires example/c ^1, every version of example/a matching ^1 requires example/c ^1.
        And because your project requires example/a ^1 and example/c ^2, the requirements of your project cannot be met together.
        ");
    }
}
