//! Consent (DESIGN §11): what the user has agreed to on this machine, and
//! the questions that ask for it. Nothing a cloned project, an index or a
//! skill holds takes effect before the user consents to it here:
//! - [`project`]: trusting a project, so its `[agent]` settings, its lock's
//!   grants and its sources outside it apply;
//! - [`outside`]: which sources of `skills.toml` lead outside the project;
//! - [`grants`]: what skills' `allowed-tools` may pre-approve, approved at
//!   install ([`grants::install`]) or with `grants approve`;
//! - [`record`]: `trust.toml`, where project trust and hand-written skills'
//!   approvals are kept.
//!
//! The CLI renders what these return and asks; it decides nothing.

pub(crate) mod grants;
pub(crate) mod outside;
pub(crate) mod project;
pub mod record;
