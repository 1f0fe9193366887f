//! Archives, hashes and signatures: packing a skill into a deterministic
//! `.skill` zip, extracting one safely, and minisign signing.

pub mod diff;
pub mod extract;
pub mod hash;
pub mod names;
pub mod pack;
pub mod scan;
pub mod signing;
pub mod trees;
