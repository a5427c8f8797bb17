//! What `cargo install --path host-native` puts on the PATH: this package's binary target,
//! built here exactly as it installs (the same target, features and build script). The README
//! then calls it `confab`. Installing itself is a release build from nothing (minutes), so the
//! test checks the binary cargo builds for the package instead.

use std::process::Command;

const CONFAB: &str = env!("CARGO_BIN_EXE_confab");

#[test]
fn the_installed_command_is_confab_and_explains_itself() {
    let name = std::path::Path::new(CONFAB).file_name().and_then(|n| n.to_str());
    assert_eq!(name, Some("confab"));

    let version = Command::new(CONFAB).arg("--version").output().expect("confab runs");
    assert!(version.status.success());
    assert_eq!(String::from_utf8_lossy(&version.stdout), format!("confab {}\n", env!("CARGO_PKG_VERSION")));

    let help = Command::new(CONFAB).arg("--help").output().expect("confab runs");
    assert!(help.status.success());
    let help = String::from_utf8_lossy(&help.stdout);
    for command in ["serve", "zuliprc", "create-user", "create-realm", "grant-permission"] {
        assert!(help.lines().any(|line| line.trim_start().starts_with(command)), "{command} in\n{help}");
    }
    assert!(help.contains("--log-format"), "{help}");
}
