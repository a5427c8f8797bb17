//! Sends that name their event queue and local id, on the in-memory store: the sender's queue
//! gets `local_message_id` and a client that applies it stays in step, and a retry is answered
//! from the store with no writes and no events, even after the message was deleted.

mod support;

use confab_core::api;
use confab_core::ids::MessageId;
use confab_core::model::SendOrigin;
use confab_core::store::{Change, Store as _};
use serde_json::json;
use support::consistency::{MESSAGES, check, run, world};
use support::params;

const SEND: &[(&str, &str)] = &[
    ("type", "stream"),
    ("to", "general"),
    ("topic", "plans"),
    ("content", "lunch?"),
    // The consistency harness registers the viewer's queue as "q".
    ("queue_id", "q"),
    ("local_id", "12.01"),
];

#[test]
fn the_senders_queue_gets_the_echo_and_a_retry_changes_nothing() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let events =
        check(&mut w, "ada@example.com", MESSAGES, run(api::messages::send_message, ada.clone(), SEND));
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["local_message_id"], "12.01");
    let id = events[0]["message"]["id"].as_u64().expect("id");
    let origin = SendOrigin { sender: ada.user.id, queue_id: "q".into(), local_id: "12.01".into() };
    assert_eq!(w.store.sent_message(&origin).ok().flatten(), Some(MessageId(id)));

    // The retry reads the record and nothing else: no writes, no events, the first id.
    let retry = api::messages::send_message(&w.store, &ada, &params(SEND), w.now + 1).expect("retry");
    assert!(retry.changes.is_empty() && retry.events.is_empty(), "{retry:?}");
    assert_eq!(json!(retry.reply), json!({"id": id}));
    let events =
        check(&mut w, "ada@example.com", MESSAGES, run(api::messages::send_message, ada.clone(), SEND));
    assert!(events.is_empty(), "{events:?}");
    let narrow = r#"[["channel", "general"], ["topic", "plans"]]"#;
    assert_eq!(w.narrow("ada@example.com", narrow).expect("narrow"), vec![id]);
}

#[test]
fn the_record_outlives_the_message() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let id = w.send("ada@example.com", SEND);
    w.run(|s, now| api::messages::delete_message(s, &ada, MessageId(id), now)).expect("deleted");
    let retry = api::messages::send_message(&w.store, &ada, &params(SEND), w.now + 1).expect("retry");
    assert!(retry.changes.is_empty() && retry.events.is_empty(), "{retry:?}");
    assert_eq!(json!(retry.reply), json!({"id": id}));
}

#[test]
fn only_remembered_sends_are_written() {
    let w = world();
    let ada = w.actor("ada@example.com");
    let long = "1".repeat(SendOrigin::MAX_REMEMBERED_BYTES + 1);
    let fits = "1".repeat(SendOrigin::MAX_REMEMBERED_BYTES);
    for (local_id, remembered) in [("", false), (long.as_str(), false), (fits.as_str(), true), ("☃", true)]
    {
        let mut pairs = SEND.to_vec();
        pairs.retain(|(name, _)| *name != "local_id");
        pairs.push(("local_id", local_id));
        let outcome = api::messages::send_message(&w.store, &ada, &params(&pairs), w.now).expect("sent");
        let written = outcome.changes.iter().any(|c| matches!(c, Change::PutSentMessage { .. }));
        assert_eq!(written, remembered, "local id of {} bytes", local_id.len());
    }
}
