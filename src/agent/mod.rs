//! `skillpkg exec`: an agent over exactly the skills the roots resolve,
//! disclosing them in three levels (catalog → body → resources), with a
//! tool policy, budgets and an audit log.
//!
//! The agent sees skills only through [`crate::skill`]; the caller loads
//! them from the roots and passes the resolved set in. [`model`] holds the
//! model seam and its adapters, [`tools`] what the model may call and the
//! policy over it, [`run`] the loop, and [`session`] a conversation with
//! its audit log.

pub(crate) mod audit;
pub(crate) mod catalog;
pub(crate) use crate::sys::interrupt;
pub mod model;
pub(crate) mod pins;
pub(crate) mod rank;
pub(crate) mod remote_skills;
pub(crate) mod run;
pub(crate) mod session;
pub(crate) mod slash;
pub mod tools;

pub use model::select::{Connection, choose_model, open_model};
pub use session::{
    DryRun, ExecOptions, Finished, Session, dry_run, exec, parse_slash, system_prompt,
};
