//! What a project asks of an index's release channels (the index's
//! entries say where each version stands, `crate::index::channel`).

use serde::{Deserialize, Serialize};

/// A release channel, lowest first.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    Default,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    /// Not for users yet: what `mirror` lands, or a publish that asked.
    Draft,
    /// For projects that ask for it.
    Testing,
    /// What resolution takes by default.
    #[default]
    Published,
    /// Still installable, with a warning naming its replacement.
    Deprecated,
}

impl Channel {
    /// Every channel, lowest first.
    pub(crate) const ALL: [Channel; 4] = [
        Channel::Draft,
        Channel::Testing,
        Channel::Published,
        Channel::Deprecated,
    ];

    /// Its name, as entries and `skills.toml` write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Draft => "draft",
            Channel::Testing => "testing",
            Channel::Published => "published",
            Channel::Deprecated => "deprecated",
        }
    }

    /// How far along it is: a deprecated version was published, so a
    /// project that sees published versions sees it too.
    fn rank(self) -> u8 {
        match self {
            Channel::Draft => 0,
            Channel::Testing => 1,
            Channel::Published | Channel::Deprecated => 2,
        }
    }

    /// Whether a project asking for `self` sees a version standing in
    /// `standing`: the channel asked for and those above it.
    pub(crate) fn admits(self, standing: Channel) -> bool {
        standing.rank() >= self.rank()
    }
}

impl std::fmt::Display for Channel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Channel {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> anyhow::Result<Channel> {
        Channel::ALL
            .into_iter()
            .find(|c| c.as_str() == text)
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "'{text}' is no channel: channels are draft, testing, published and deprecated"
                )
            })
    }
}
