fn main() -> std::process::ExitCode {
    skillpkg::cli::main()
}
