//! What the server says on stderr.

/// Says on stderr what the served set leaves out. Over stdio, stdout is
/// the protocol's and stderr the server's log, which MCP hosts show.
#[allow(clippy::print_stderr)] // the stdio transport's log
pub(super) fn warnings(warnings: &[String]) {
    for warning in warnings {
        eprintln!("warning: {warning}");
    }
}
