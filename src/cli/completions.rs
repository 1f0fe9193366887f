//! `skillpkg completions <shell>`

use clap_complete::Shell;

use super::ExitStatus;

/// Print a shell completion script on stdout.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// bash, zsh, fish, powershell or elvish.
    shell: Shell,
}

/// The completion script for `shell`.
pub(super) fn script(shell: Shell) -> String {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut super::command(), "skillpkg", &mut out);
    String::from_utf8(out).expect("completion scripts are UTF-8")
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitStatus> {
    print!("{}", script(args.shell));
    Ok(ExitStatus::Success)
}
