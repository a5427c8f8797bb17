//! Channel, subscription and own-user objects (spec 2.5 and 2.11) and custom emoji validated
//! against the schemas of Zulip's OpenAPI document, through the real Python client
//! (`tests/python/schemas.py`, which also uploads an emoji and an avatar as the client does).

use confab_tests::{TestServer, python, workspace_root};

#[test]
fn channels_subscriptions_and_the_own_user_match_zulips_schemas() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let zuliprc = server.data_dir.join("zuliprc");
    let openapi = workspace_root().join("tests/data/zulip-openapi.yaml");
    let output = python::run_script(
        "schemas.py",
        &[zuliprc.to_str().expect("utf-8 path"), openapi.to_str().expect("utf-8 path")],
    );
    assert!(output.status.success(), "the schema checks failed (see the output above)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
