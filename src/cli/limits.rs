//! `--max-skill-size`: the one flag that raises the limits of
//! [`crate::store::limits`], on the commands that pack, publish and install.

use crate::store::limits::{Limits, parse_size};

/// The size limit of a skill's files.
#[derive(Debug, Clone, Copy, clap::Args)]
pub(super) struct SkillLimits {
    /// Accept skills whose files hold up to SIZE unpacked (default 256MiB;
    /// say 512MiB or 1GB). Give it to pack and publish, and to every
    /// install of a skill that large.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_skill_size: Option<u64>,
}

impl SkillLimits {
    /// The limits a skill is held to.
    pub(super) fn limits(&self) -> Limits {
        Limits::with_max_size(self.max_skill_size)
    }
}
