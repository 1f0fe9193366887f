//! The limits and fields the Agent Skills specification fixes.

/// Longest description, in code points.
pub(crate) const MAX_DESCRIPTION_LENGTH: usize = 1024;
/// Longest compatibility string, in code points.
pub(crate) const MAX_COMPATIBILITY_LENGTH: usize = 500;
/// The top-level frontmatter fields the specification allows.
pub(crate) const ALLOWED_FIELDS: [&str; 6] = [
    "allowed-tools",
    "compatibility",
    "description",
    "license",
    "metadata",
    "name",
];
/// A body longer than this should move detail into `references/` (the
/// specification's recommendation; `validate --strict` warns).
pub(crate) const MAX_BODY_LINES: usize = 500;
