//! confab-web's `Client`, compiled to WebAssembly and run by Node, against a real server: the
//! scenarios are the `node --test` files of `tests/js/`; this file starts the server, makes
//! their users and runs them.

use confab_tests::TestServer;
use confab_tests::web::node_test;
use serde_json::json;

const QUEUE_TIMEOUT_SECS: &str = "2";

#[test]
fn offline_sends_arrive_once_in_order_after_the_queue_expired() {
    let server = TestServer::start_with(
        env!("CARGO_BIN_EXE_confab-under-test"),
        &["--event-queue-timeout-secs", QUEUE_TIMEOUT_SECS, "--external-host", "127.0.0.1"],
    );
    let api = server.api();
    let owner = server.owner();
    let a = api.create_user(&owner, "alice@example.com", "Alice");
    let b = api.create_user(&owner, "bob@example.com", "Bob");
    let users = json!({
        "a": {"email": a.email, "apiKey": a.api_key, "password": "s3cret-pass"},
        "b": {"email": b.email, "apiKey": b.api_key, "password": "s3cret-pass"},
    });
    node_test(
        "client_session.test.mjs",
        &[
            ("CONFAB_SITE", server.base_url.clone()),
            ("CONFAB_USERS", users.to_string()),
            ("CONFAB_QUEUE_TIMEOUT_SECS", QUEUE_TIMEOUT_SECS.into()),
        ],
    );
}

#[test]
fn client_state_and_cached_narrows_match_a_fresh_session_after_random_mutations() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let api = server.api();
    let owner = server.owner();
    let observer = api.create_user(&owner, "otto@example.com", "Otto");
    let other = api.create_user(&owner, "cordelia@example.com", "Cordelia");
    let user = |c: &confab_tests::Creds| json!({"email": c.email, "apiKey": c.api_key});
    let users = json!({"owner": user(&owner), "observer": user(&observer), "other": user(&other)});
    let mut env = vec![("CONFAB_SITE", server.base_url.clone()), ("CONFAB_USERS", users.to_string())];
    // A fixed seed unless one is given, so the suite is repeatable; CONFAB_SEED explores.
    env.push(("CONFAB_SEED", std::env::var("CONFAB_SEED").unwrap_or_else(|_| "20261126".into())));
    node_test("consistency.test.mjs", &env);
}
