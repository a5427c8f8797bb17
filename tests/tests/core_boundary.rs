//! Architecture invariant: confab-core does no I/O. Its dependency tree holds nothing that does
//! (no async runtime, HTTP, storage or JS bindings), and (checked in `.ci/run`) it builds for
//! wasm32-unknown-unknown.

use std::process::Command;

/// Crates whose presence would mean core can reach the OS, the network, a disk or a browser.
const FORBIDDEN: &[&str] = &[
    "tokio",
    "axum",
    "hyper",
    "hyper-util",
    "redb",
    "wasm-bindgen",
    "js-sys",
    "web-sys",
    "getrandom",
    "rand",
    "mio",
    "socket2",
    "reqwest",
    "tower",
    "gloo-net",
];

#[test]
fn core_depends_on_nothing_that_does_io() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(confab_tests::workspace_root())
        .args(["tree", "-p", "confab-core", "--edges", "normal,build", "--prefix", "none", "--format", "{p}"])
        .output()
        .expect("cargo tree runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let tree = String::from_utf8_lossy(&output.stdout);
    let crates: Vec<&str> = tree.lines().filter_map(|line| line.split_whitespace().next()).collect();
    assert!(crates.contains(&"serde_json"), "the tree was read: {tree}");
    for forbidden in FORBIDDEN {
        assert!(!crates.contains(forbidden), "confab-core depends on {forbidden}:\n{tree}");
    }
}

#[test]
fn core_reads_no_clock_and_no_environment() {
    let core = confab_tests::workspace_root().join("core/src");
    let mut stack = vec![core];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("core sources") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let source = std::fs::read_to_string(&path).expect("source");
                for banned in
                    ["SystemTime", "Instant::now", "std::env::", "std::fs", "std::net", "std::thread"]
                {
                    assert!(!source.contains(banned), "{} uses {banned}", path.display());
                }
            }
        }
    }
}
