//! Coming back: a session that is not (yet) connected polls without blocking, so it learns at
//! once that the server answers and sends what waited; a connected one long-polls.

mod client_support;

use client_support::{object, param, registered};
use confab_core::client::{ConnectionState, Destination, Engine, Reply};
use serde_json::json;

fn empty_poll() -> Reply {
    Reply::Success(object(json!({"result": "success", "msg": "", "events": []})))
}

#[test]
fn a_connected_session_long_polls() {
    let engine = registered();
    assert_eq!(engine.connection(), ConnectionState::Connected);
    assert_eq!(param(&engine.poll_request(), "dont_block"), None);
}

#[test]
fn after_a_failure_the_next_poll_does_not_block_and_its_answer_releases_the_outbox() {
    let mut engine = registered();
    engine.handle_poll(Reply::Unreachable("offline".into()), 0, 0.5);
    assert_eq!(engine.connection(), ConnectionState::Offline);
    engine.send(Destination::Direct { user_ids: vec![10] }, "written offline".into(), 1_000);
    assert!(engine.next_send().is_none(), "offline, the message waits");

    engine.retry_now();
    assert_eq!(param(&engine.poll_request(), "dont_block"), Some("true"));
    engine.handle_poll(empty_poll(), 2_000, 0.5);
    assert_eq!(engine.connection(), ConnectionState::Connected);
    let (_, request) = engine.next_send().expect("connected again, the message goes");
    assert_eq!(param(&request, "content"), Some("written offline"));
    assert_eq!(param(&engine.poll_request(), "dont_block"), None);
}

#[test]
fn a_restored_session_first_polls_without_blocking() {
    let engine = Engine::restore(&registered().snapshot()).expect("a snapshot restores");
    assert_eq!(engine.connection(), ConnectionState::Connecting);
    assert_eq!(param(&engine.poll_request(), "dont_block"), Some("true"));
}
