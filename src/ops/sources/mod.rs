//! Kinds of source: where a skill is installed from, each kind in its own
//! module behind one pair of traits.
//!
//! [`SourceKind`] describes a pin of the kind as `skills.lock` records it:
//! where it is, as policies and SBOMs name sources, and who it belongs to.
//! Every kind implements it, the registry index too. [`DirectKind`] is the
//! rest for the kinds whose dependency names its pin itself (path, git,
//! OCI, `.well-known`): resolving a request to a pin (the lock's, while it
//! still answers the request), fetching the pin's tree into a scratch
//! folder, and saying for `outdated` whether the source now names another
//! pin. A registry package's pin is chosen by the resolver over every
//! version its index lists, and its archive is fetched and verified by
//! the install's fetch step, so the registry kind has no [`DirectKind`].
//!
//! The install pipeline (`ops/install`: plan → fetch → gate → apply),
//! `outdated`, `sbom`, the org policy and the signer policies name no kind:
//! they ask [`of_request`] or [`of_pin`] for it. Adding a kind means its
//! own module here, a row of [`DIRECT`] and [`ALL`], the argument parser's
//! table (`manifest/source_arg.rs`) and its variants of the manifest's and
//! the lock's types (docs/architecture.md lists the files).

mod git;
pub(crate) mod oci;
mod path;
mod registry;
pub(crate) mod well_known;

pub(crate) use git::same_repository;

mod kind;

pub(crate) use kind::{Asking, DirectKind, Fetched, Fetching, Job, SourceKind};

use crate::manifest::DirectSource;
use crate::manifest::source_id::SourceId;

/// The kinds whose dependencies name their pins, in the order `outdated`
/// reports them.
pub(crate) static DIRECT: [&dyn DirectKind; 4] =
    [&git::Git, &oci::Oci, &well_known::WellKnown, &path::Path];

/// Every kind.
pub(crate) static ALL: [&dyn SourceKind; 5] = [
    &registry::Registry,
    &git::Git,
    &oci::Oci,
    &well_known::WellKnown,
    &path::Path,
];

/// The kind of the dependency `request`.
pub(crate) fn of_request(request: &DirectSource) -> &'static dyn DirectKind {
    DIRECT
        .into_iter()
        .find(|kind| kind.asks(request))
        .expect("every dependency is of a kind in DIRECT")
}

/// The kind of the lock's `source`.
pub(crate) fn of_pin(source: &SourceId) -> &'static dyn SourceKind {
    ALL.into_iter()
        .find(|kind| kind.pins(source))
        .expect("every source is of a kind in ALL")
}

/// The direct kind of the lock's `source`, when it has one.
pub(crate) fn direct_of_pin(source: &SourceId) -> Option<&'static dyn DirectKind> {
    DIRECT.into_iter().find(|kind| kind.pins(source))
}

#[cfg(test)]
mod tests;
