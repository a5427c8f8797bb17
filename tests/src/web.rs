//! confab-web's npm package for the tests that run it in Node, and a runner for `node --test`
//! files against a real server.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

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
            let target = crate::target_dir();
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

/// How long a `node --test` file may run before it is stopped and failed: far more than any
/// scenario needs, so that a hang fails the suite instead of stalling it.
const NODE_TEST_LIMIT: Duration = Duration::from_secs(600);

/// Runs one `node --test` file of `tests/js/` with the package and these environment
/// variables; panics with Node's report if a test fails or the file does not finish.
pub fn node_test(file: &str, env: &[(&str, String)]) {
    let package = package().to_string_lossy().into_owned();
    let mut env = env.to_vec();
    env.push(("CONFAB_WEB_PACKAGE", package));
    run_node_test(file, &env);
}

/// Runs one browser test file of `tests/js/` (Playwright driving Debian's Chromium against
/// the web client the server serves), after installing `tests/js`'s packages once.
pub fn browser_test(file: &str, env: &[(&str, String)]) {
    install_js_packages();
    run_node_test(file, env);
}

/// Installs `tests/js`'s packages (playwright-core, axe-core) with `npm ci`, once per process.
pub fn install_js_packages() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let dir = crate::workspace_root().join("tests/js");
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .status()
            .expect("npm runs");
        assert!(status.success(), "npm ci in tests/js failed");
    });
}

fn run_node_test(file: &str, env: &[(&str, String)]) {
    let root = crate::workspace_root();
    let mut node = Command::new("node")
        .arg("--test")
        .arg("--test-reporter=spec")
        .arg(root.join("tests/js").join(file))
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs");
    // Read as it comes, so a long report never fills the pipe and stalls Node.
    let stdout = drain(node.stdout.take());
    let stderr = drain(node.stderr.take());
    let started = Instant::now();
    let finished = loop {
        if node.try_wait().expect("node's status").is_some() {
            break true;
        }
        if started.elapsed() > NODE_TEST_LIMIT {
            let _ = node.kill();
            break false;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let status = node.wait().expect("node's status");
    let report = format!("{}{}", stdout.join().unwrap_or_default(), stderr.join().unwrap_or_default());
    println!("{report}");
    assert!(finished, "{file} did not finish within {NODE_TEST_LIMIT:?}:\n{report}");
    assert!(status.success(), "{file} failed:\n{report}");
}

fn drain(pipe: Option<impl std::io::Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_string(&mut text);
        }
        text
    })
}
