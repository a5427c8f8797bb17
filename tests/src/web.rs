//! confab-web's npm package for the tests that run it in Node, and a runner for `node --test`
//! files against a real server.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The built package's directory (`node/`, `web/`, `bundler/` and `package.json`).
///
/// `scripts/test` builds it once with `scripts/build-web-package` and names it in
/// `CONFAB_WEB_PACKAGE`; a test run without it (plain `cargo test`) builds it here, once per
/// test binary, in a target directory of its own so it never waits on the lock of the build
/// running the tests.
pub fn package() -> PathBuf {
    static PACKAGE: OnceLock<PathBuf> = OnceLock::new();
    PACKAGE
        .get_or_init(|| {
            let root = crate::workspace_root();
            if let Some(dir) = std::env::var_os("CONFAB_WEB_PACKAGE") {
                return root.join(dir);
            }
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| root.join("target"));
            let output = Command::new(root.join("scripts/build-web-package"))
                .env("CARGO_TARGET_DIR", target.join("web-package"))
                .output()
                .expect("scripts/build-web-package runs (it needs wasm-pack and wasm-bindgen-cli)");
            assert!(
                output.status.success(),
                "building confab-web failed:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
            root.join("host-web/pkg")
        })
        .clone()
}

/// Runs one `node --test` file of `tests/js/` with the package and these environment
/// variables; panics with Node's report if a test fails.
pub fn node_test(file: &str, env: &[(&str, String)]) {
    let root = crate::workspace_root();
    let output = Command::new("node")
        .arg("--test")
        .arg("--test-reporter=spec")
        .arg(root.join("tests/js").join(file))
        .env("CONFAB_WEB_PACKAGE", package())
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .output()
        .expect("node runs");
    let report =
        format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    println!("{report}");
    assert!(output.status.success(), "{file} failed:\n{report}");
}
