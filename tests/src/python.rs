//! The real Python clients (`zulip` 0.9.1 and its `zulip-send`) and the schema checker's packages, installed from PyPI into a
//! virtual environment under the target directory on first use, shared by every test.

use std::fs::File;
use std::path::PathBuf;
use std::process::{Command, Output};

/// The pinned client packages.
/// PyYAML and jsonschema read and apply Zulip's OpenAPI document (`tests/python/schemas.py`);
/// zulip-bots and zulip-botserver run a real bot behind an outgoing webhook; Pygments is the
/// highlighter Zulip's server uses, which ours is compared with (`tests/python/pygments_tokens.py`;
/// the version whose lexer names `core/src/markdown/data/lexers.rs` holds); aiosmtpd is the mail
/// server the email tests send to (`tests/python/smtp_sink.py`); prometheus-client's
/// OpenMetrics parser reads `/metrics` as Prometheus does (`tests/python/parse_metrics.py`).
pub const REQUIREMENTS: &[&str] = &[
    "zulip==0.9.1",
    "zulip-bots==0.9.1",
    "zulip-botserver==0.9.1",
    "PyYAML==6.0.2",
    "jsonschema==4.23.0",
    "Pygments==2.21.0",
    "aiosmtpd==1.4.6",
    "prometheus-client==0.26.0",
];
/// zulip-terminal 0.7.0 declares Python < 3.11 but runs on 3.11; it is installed after
/// `zulip` with `--ignore-requires-python`.
pub const TERMINAL_REQUIREMENT: &str = "zulip-term==0.7.0";

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::workspace_root().join("target"))
}

/// The virtual environment's directory, installing it if needed. Concurrent test processes
/// wait on a file lock, so only one installs.
pub fn venv() -> PathBuf {
    let dir = target_dir().join("confab-pyenv");
    std::fs::create_dir_all(target_dir()).expect("target dir");
    let lock = File::create(target_dir().join("confab-pyenv.lock")).expect("lock file");
    lock.lock().expect("lock the environment");
    let ready = dir.join(".installed");
    let wanted = format!("{}\n{TERMINAL_REQUIREMENT}", REQUIREMENTS.join("\n"));
    if std::fs::read_to_string(&ready).ok().as_deref() != Some(wanted.as_str()) {
        let status = Command::new("python3").args(["-m", "venv"]).arg(&dir).status().expect("python3 runs");
        assert!(status.success(), "python3 -m venv failed");
        let status = Command::new(dir.join("bin/pip"))
            .args(["install", "--quiet", "--disable-pip-version-check"])
            .args(REQUIREMENTS)
            .status()
            .expect("pip runs");
        assert!(status.success(), "pip install {REQUIREMENTS:?} failed");
        let status = Command::new(dir.join("bin/pip"))
            .args([
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--ignore-requires-python",
                TERMINAL_REQUIREMENT,
            ])
            .status()
            .expect("pip runs");
        assert!(status.success(), "pip install {TERMINAL_REQUIREMENT} failed");
        std::fs::write(&ready, wanted).expect("mark the environment installed");
    }
    dir
}

/// Runs a script from `tests/python/` with the environment's Python.
pub fn run_script(script: &str, args: &[&str]) -> Output {
    let python = venv().join("bin/python");
    let path = crate::workspace_root().join("tests/python").join(script);
    let output = Command::new(python).arg(path).args(args).output().expect("python runs");
    eprintln!("--- {script} stdout ---\n{}", String::from_utf8_lossy(&output.stdout));
    eprintln!("--- {script} stderr ---\n{}", String::from_utf8_lossy(&output.stderr));
    output
}

/// The environment's Python interpreter.
pub fn python() -> PathBuf {
    venv().join("bin/python")
}

/// The path of a command installed in the environment (for example `zulip-send`).
pub fn command(name: &str) -> PathBuf {
    venv().join("bin").join(name)
}
