fn main() -> std::process::ExitCode {
    confab_server::cli::main()
}
