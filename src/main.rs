//! The `skillpkg` binary: everything happens in [`skillpkg::cli::main`].

fn main() -> std::process::ExitCode {
    skillpkg::cli::main()
}
