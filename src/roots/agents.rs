//! Where each agent reads skills: its project folder (relative to the
//! project) and its user folder (relative to the home directory, or to the
//! user's config directory, `$XDG_CONFIG_HOME` or `~/.config`). Built from
//! the agent table of `npx skills` (the `skills` package on npm, 1.7.4) and
//! the agents' own documentation. Many agents read `.agents/skills`, the
//! folder skillpkg installs into: they need no link.

use std::path::{Path, PathBuf};

/// Where an agent reads the user's own skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UserFolder {
    /// Relative to the home directory.
    Home(&'static str),
    /// Relative to the user's config directory.
    Config(&'static str),
}

/// One agent.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Agent {
    /// Its name in `[install] targets` (as `npx skills` names it).
    pub name: &'static str,
    /// Other names users give it.
    pub aliases: &'static [&'static str],
    /// Its project folder, relative to the project.
    pub project: &'static str,
    /// Its user folder.
    pub user: UserFolder,
}

use UserFolder::{Config, Home};

/// The agents skillpkg knows, by name.
pub(crate) const AGENTS: &[Agent] = &[
    Agent {
        name: "amp",
        aliases: &[],
        project: ".agents/skills",
        user: Config("agents/skills"),
    },
    Agent {
        name: "augment",
        aliases: &[],
        project: ".augment/skills",
        user: Home(".augment/skills"),
    },
    Agent {
        name: "claude-code",
        aliases: &["claude"],
        project: ".claude/skills",
        user: Home(".claude/skills"),
    },
    Agent {
        name: "cline",
        aliases: &[],
        project: ".agents/skills",
        user: Home(".agents/skills"),
    },
    Agent {
        name: "codex",
        aliases: &[],
        project: ".agents/skills",
        user: Home(".agents/skills"),
    },
    Agent {
        name: "continue",
        aliases: &[],
        project: ".continue/skills",
        user: Home(".continue/skills"),
    },
    Agent {
        name: "crush",
        aliases: &[],
        project: ".crush/skills",
        user: Home(".config/crush/skills"),
    },
    Agent {
        name: "cursor",
        aliases: &[],
        project: ".agents/skills",
        user: Home(".cursor/skills"),
    },
    Agent {
        name: "droid",
        aliases: &["factory"],
        project: ".agents/skills",
        user: Home(".factory/skills"),
    },
    Agent {
        name: "gemini-cli",
        aliases: &["gemini"],
        project: ".agents/skills",
        user: Home(".gemini/skills"),
    },
    Agent {
        name: "github-copilot",
        aliases: &["copilot"],
        project: ".agents/skills",
        user: Home(".copilot/skills"),
    },
    Agent {
        name: "goose",
        aliases: &[],
        project: ".goose/skills",
        user: Config("goose/skills"),
    },
    Agent {
        name: "junie",
        aliases: &[],
        project: ".junie/skills",
        user: Home(".junie/skills"),
    },
    Agent {
        name: "kilo",
        aliases: &["kilo-code"],
        project: ".agents/skills",
        user: Home(".kilo/skills"),
    },
    Agent {
        name: "kiro-cli",
        aliases: &["kiro"],
        project: ".kiro/skills",
        user: Home(".kiro/skills"),
    },
    Agent {
        name: "opencode",
        aliases: &[],
        project: ".agents/skills",
        user: Config("opencode/skills"),
    },
    Agent {
        name: "openhands",
        aliases: &[],
        project: ".openhands/skills",
        user: Home(".openhands/skills"),
    },
    Agent {
        name: "qwen-code",
        aliases: &["qwen"],
        project: ".qwen/skills",
        user: Home(".qwen/skills"),
    },
    Agent {
        name: "roo",
        aliases: &["roo-code"],
        project: ".roo/skills",
        user: Home(".roo/skills"),
    },
    Agent {
        name: "trae",
        aliases: &[],
        project: ".trae/skills",
        user: Home(".trae/skills"),
    },
    Agent {
        name: "warp",
        aliases: &[],
        project: ".agents/skills",
        user: Home(".agents/skills"),
    },
    Agent {
        name: "windsurf",
        aliases: &[],
        project: ".windsurf/skills",
        user: Home(".codeium/windsurf/skills"),
    },
    Agent {
        name: "zed",
        aliases: &[],
        project: ".agents/skills",
        user: Home(".agents/skills"),
    },
];

/// The agent named `name` (or one of its aliases).
pub(crate) fn agent(name: &str) -> Option<&'static Agent> {
    AGENTS
        .iter()
        .find(|a| a.name == name || a.aliases.contains(&name))
}

/// Every name `[install] targets` accepts, sorted.
pub(crate) fn known_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = AGENTS
        .iter()
        .flat_map(|a| std::iter::once(a.name).chain(a.aliases.iter().copied()))
        .collect();
    names.sort_unstable();
    names
}

impl Agent {
    /// Its project folder in `project`.
    pub(crate) fn project_folder(&self, project: &Path) -> PathBuf {
        project.join(self.project)
    }

    /// Its user folder, given the home and the user's config directory.
    pub(crate) fn user_folder(&self, home: &Path, config_home: &Path) -> PathBuf {
        match self.user {
            Home(relative) => home.join(relative),
            Config(relative) => config_home.join(relative),
        }
    }
}

/// The user's config directory: `$XDG_CONFIG_HOME`, else `~/.config`.
pub(crate) fn config_home(home: &Path) -> PathBuf {
    std::env::var_os(crate::env_vars::XDG_CONFIG_HOME)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .unwrap_or_else(|| home.join(".config"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_agent_has_one_name_and_plain_relative_folders() {
        let names = known_names();
        let mut deduped = names.clone();
        deduped.dedup();
        assert_eq!(names, deduped, "a name or alias is given twice");
        for agent in AGENTS {
            let folders = [
                agent.project,
                match agent.user {
                    Home(f) | Config(f) => f,
                },
            ];
            for folder in folders {
                assert!(
                    Path::new(folder)
                        .components()
                        .all(|c| matches!(c, std::path::Component::Normal(_))),
                    "{}: {folder}",
                    agent.name
                );
                assert!(folder.ends_with("skills"), "{}: {folder}", agent.name);
            }
        }
        let claude = agent("claude").unwrap();
        assert_eq!(claude.name, "claude-code");
        assert_eq!(
            claude.user_folder(Path::new("/h"), Path::new("/h/.config")),
            Path::new("/h/.claude/skills")
        );
        assert_eq!(agent("codex").unwrap().project, ".agents/skills");
        assert_eq!(
            agent("opencode")
                .unwrap()
                .user_folder(Path::new("/h"), Path::new("/x")),
            Path::new("/x/opencode/skills")
        );
        assert!(agent("frobnicator").is_none());
    }
}
