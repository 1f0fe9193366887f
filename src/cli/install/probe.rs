//! `add URL` for a bare http(s) URL: what ops found it to be (a site's
//! agent-skills index, or a git repository), said, and taken as that.

use super::AddArgs;
use crate::cli::Context;
use crate::ops::bare_url::{BareUrl, resolve};

/// Asks what `url` is (git only, with `asks_git`), says so, and sets
/// `args` to add it as that.
pub(super) fn take(
    args: &mut AddArgs,
    url: &str,
    asks_git: bool,
    context: &Context,
) -> anyhow::Result<()> {
    match resolve(url, asks_git, args.flags.offline)? {
        BareUrl::Site { site, index } => {
            context.printer.status(
                "Found",
                format_args!(
                    "an agent-skills index at {index} (the site's skills, not a git repository)"
                ),
            );
            args.well_known = Some(site);
        }
        BareUrl::Git {
            url: repository,
            answered,
        } => {
            if let Some(at) = answered {
                let (shown, _) = crate::net::split_credentials(url)?;
                context
                    .printer
                    .verbose(format_args!("{shown} answers as a git repository at {at}"));
            }
            args.git = Some(repository);
        }
    }
    Ok(())
}
