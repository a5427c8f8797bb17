//! The same rules in the browser: confab-core compiled to WebAssembly (through confab-web and
//! wasm-bindgen, run by Node) renders every message of a corpus to exactly the HTML the native
//! build does.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn run(command: &mut Command, what: &str) -> std::process::Output {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(output.status.success(), "{what} failed:\n{}", String::from_utf8_lossy(&output.stderr));
    output
}

/// Builds confab-web for wasm32 in its own target directory (so it does not wait on the lock
/// of the build running this test) and generates Node bindings for it.
fn build_package() -> PathBuf {
    let root = confab_tests::workspace_root();
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    let wasm_target = target.join("wasm-parity");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run(
        Command::new(cargo).current_dir(&root).env("CARGO_TARGET_DIR", &wasm_target).args([
            "build",
            "--quiet",
            "-p",
            "confab-web",
            "--target",
            "wasm32-unknown-unknown",
            "--release",
        ]),
        "building confab-web for wasm32",
    );
    let wasm = wasm_target.join("wasm32-unknown-unknown/release/confab_web.wasm");
    let pkg = wasm_target.join("node-pkg");
    run(
        Command::new("wasm-bindgen").args(["--target", "nodejs", "--out-dir"]).arg(&pkg).arg(&wasm),
        "wasm-bindgen (scripts/test installs wasm-bindgen-cli 0.2.130)",
    );
    pkg
}

#[test]
fn wasm_and_native_render_identical_html() {
    let root = confab_tests::workspace_root();
    let corpus = std::fs::read_to_string(root.join("tests/data/render_corpus.json")).expect("corpus");
    let sources: Vec<String> = serde_json::from_str(&corpus).expect("corpus is a JSON array of strings");
    let native: Vec<String> = sources.iter().map(|s| confab_core::render::render_markdown(s).html).collect();

    let pkg = build_package();
    let mut node = Command::new("node")
        .arg(root.join("tests/js/render.cjs"))
        .arg(&pkg)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs");
    node.stdin.take().expect("stdin").write_all(corpus.as_bytes()).expect("corpus written");
    let output = node.wait_with_output().expect("node finishes");
    assert!(output.status.success(), "node failed:\n{}", String::from_utf8_lossy(&output.stderr));
    let wasm: Vec<String> = serde_json::from_slice(&output.stdout).expect("node prints a JSON array");

    assert_eq!(wasm.len(), sources.len());
    for ((source, native), wasm) in sources.iter().zip(&native).zip(&wasm) {
        assert_eq!(native, wasm, "renderings differ for {source:?}");
    }
}
