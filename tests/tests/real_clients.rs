//! The unmodified Python `zulip` client (0.9.1, from PyPI) and its `zulip-send` command,
//! against a real server, using the zuliprc the server wrote at first start.

use confab_tests::{TestServer, python};

/// Runs one of `tests/python/`'s scripts against a fresh server with the owner's zuliprc; every
/// check in it must pass.
fn passes(script: &str) {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let zuliprc = server.data_dir.join("zuliprc");
    let output = python::run_script(script, &[zuliprc.to_str().expect("utf-8 path")]);
    assert!(output.status.success(), "the Python client's checks in {script} failed (see its output above)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}

#[test]
fn the_python_client_holds_a_first_conversation() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let zuliprc = server.data_dir.join("zuliprc");
    let zulip_send = python::command("zulip-send");
    let output = python::run_script(
        "first_conversation.py",
        &[zuliprc.to_str().expect("utf-8 path"), zulip_send.to_str().expect("utf-8 path")],
    );
    assert!(output.status.success(), "the Python client's checks failed (see its output above)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}

#[test]
fn the_zuliprc_is_private_to_its_owner() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let zuliprc = server.data_dir.join("zuliprc");
    let text = std::fs::read_to_string(&zuliprc).expect("zuliprc exists");
    assert!(text.starts_with("[api]\n"), "{text}");
    assert!(text.contains(&format!("site={}", server.base_url)), "{text}");
    assert!(text.contains(&format!("key={}", server.owner().api_key)), "{text}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&zuliprc).expect("metadata").permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "zulip-terminal refuses a zuliprc others can read");
}

#[test]
fn the_python_client_uses_messages_in_full() {
    passes("messages_in_full.py");
}

#[test]
fn the_python_client_follows_events_and_registers_again() {
    passes("call_on_each_event.py");
}

#[test]
fn the_python_client_uploads_a_file_that_only_its_recipients_download() {
    passes("uploads.py");
}

#[test]
fn the_python_client_votes_in_a_poll_through_call_endpoint() {
    passes("widgets.py");
}

#[test]
fn the_python_client_sets_organization_texts_and_meets_zulips_refusals() {
    passes("organization_texts.py");
}

#[test]
fn the_python_client_reactivates_a_member_back_into_her_groups() {
    passes("group_return.py");
}

#[test]
fn the_python_client_exports_and_reads_consents_through_call_endpoint() {
    passes("export_consents.py");
}
