//! The event-queue state machine on simulated time: registration, delivery and its filters,
//! fetching and acknowledging, long-poll bookkeeping, heartbeats, expiry, and restarts.

use std::collections::BTreeSet;

use confab_core::events::{
    ClientCapabilities, DEFAULT_EVENT_QUEUE_TIMEOUT_SECS, HEARTBEAT_MIN_FREQ_SECS, MAX_EVENTS_PER_QUEUE,
    MAX_QUEUES_PER_USER, MessageVariants, Notification, Poll, QueueOptions, QueueOwner, Registry,
};
use confab_core::ids::{RealmId, StreamId, UserId};
use confab_core::model::{MessageFlags, SendOrigin};
use serde_json::{Value, json};

const REALM: RealmId = RealmId(1);
const ADA: UserId = UserId(10);
const BOB: UserId = UserId(11);
const GUS: UserId = UserId(12);

fn email(user: UserId) -> String {
    match user {
        ADA => "ada@example.com".into(),
        BOB => "bob@example.com".into(),
        _ => format!("user{}@example.com", user.0),
    }
}

fn owner(user: UserId) -> QueueOwner {
    QueueOwner { user, realm: REALM, email: email(user), is_guest: user == GUS }
}

fn register(reg: &mut Registry, id: &str, user: UserId, options: QueueOptions, now: i64) {
    let registration = reg.register(id.into(), owner(user), options, now).expect("registers");
    assert_eq!(registration.queue_id, id);
    assert_eq!(registration.last_event_id, -1);
}

fn types(names: &[&str]) -> QueueOptions {
    QueueOptions {
        event_types: Some(names.iter().map(|s| (*s).to_owned()).collect::<BTreeSet<_>>()),
        ..Default::default()
    }
}

fn narrowed(terms: &[(&str, &str)]) -> QueueOptions {
    QueueOptions {
        narrow: terms.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect(),
        ..Default::default()
    }
}

fn with_caps(caps: ClientCapabilities) -> QueueOptions {
    QueueOptions { capabilities: caps, ..Default::default() }
}

/// A channel message dict; `content` shows which shape a client got.
fn stream_message(id: u64, channel: &str, topic: &str, sender: UserId) -> MessageVariants {
    MessageVariants::new(|markdown, gravatar| {
        json!({
            "id": id, "type": "stream", "display_recipient": channel, "stream_id": 1,
            "subject": topic, "sender_id": sender.0, "sender_email": email(sender),
            "content": if markdown { "<p>hi</p>" } else { "hi" },
            "avatar_url": if gravatar { Value::Null } else { json!("/avatar/1") },
            "flags": [],
        })
    })
}

fn direct_message(id: u64, sender: UserId) -> MessageVariants {
    MessageVariants::uniform(json!({
        "id": id, "type": "private", "subject": "", "sender_id": sender.0, "sender_email": email(sender),
        "display_recipient": [{"id": ADA.0, "email": email(ADA)}, {"id": BOB.0, "email": email(BOB)}],
        "content": "psst", "flags": [],
    }))
}

fn to(variants: MessageVariants, receivers: &[(UserId, MessageFlags)]) -> Notification {
    Notification::Message {
        realm: REALM,
        variants,
        receivers: receivers.to_vec(),
        stream_id: Some(StreamId(1)),
        public_stream: false,
        origin: None,
    }
}

fn public(variants: MessageVariants, receivers: &[(UserId, MessageFlags)]) -> Notification {
    Notification::Message {
        realm: REALM,
        variants,
        receivers: receivers.to_vec(),
        stream_id: Some(StreamId(1)),
        public_stream: true,
        origin: None,
    }
}

fn other(users: &[UserId], body: Value) -> Notification {
    Notification::Other { users: users.to_vec(), body }
}

/// Everything queued, without acknowledging or waiting.
fn peek(reg: &mut Registry, id: &str, user: UserId, now: i64) -> Vec<Value> {
    match reg.get_events(id, user, None, true, now).expect("queue exists") {
        Poll::Ready(events) => events,
        Poll::Wait { .. } => panic!("dont_block never waits"),
    }
}

fn kinds(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["type"].as_str().unwrap_or("?")).collect()
}

fn message_ids(events: &[Value]) -> Vec<u64> {
    events.iter().filter_map(|e| e["message"]["id"].as_u64()).collect()
}

#[test]
fn a_message_arrives_with_this_users_flags_and_increasing_ids() {
    let mut reg = Registry::new();
    register(&mut reg, "qa", ADA, QueueOptions { apply_markdown: true, ..Default::default() }, 0);
    register(&mut reg, "qb", BOB, QueueOptions::default(), 0);
    let woken = reg.push(
        &to(
            stream_message(7, "general", "lunch", ADA),
            &[(ADA, MessageFlags::READ), (BOB, MessageFlags::MENTIONED)],
        ),
        1,
    );
    assert_eq!(woken, vec!["qa".to_owned(), "qb".to_owned()]);
    reg.push(&to(direct_message(8, BOB), &[(ADA, MessageFlags::empty()), (BOB, MessageFlags::READ)]), 2);

    let ada = peek(&mut reg, "qa", ADA, 3);
    assert_eq!(
        ada[0],
        json!({
            "id": 0, "type": "message", "flags": ["read"],
            "message": {
                "id": 7, "type": "stream", "display_recipient": "general", "stream_id": 1, "subject": "lunch",
                "sender_id": ADA.0, "sender_email": "ada@example.com", "content": "<p>hi</p>",
                "avatar_url": "/avatar/1", "flags": ["read"]
            }
        })
    );
    assert_eq!(ada[1]["id"], json!(1));
    assert_eq!(ada[1]["flags"], json!([]));
    let bob = peek(&mut reg, "qb", BOB, 3);
    assert_eq!(bob[0]["flags"], json!(["mentioned"]));
    assert_eq!(bob[0]["message"]["flags"], json!(["mentioned"]));
    assert_eq!(bob[0]["message"]["content"], json!("hi"), "the Markdown shape for apply_markdown=false");
    assert_eq!(bob[1]["id"], json!(1));
    assert_eq!(bob[1]["flags"], json!(["read"]));
}

#[test]
fn the_four_shapes_follow_apply_markdown_and_client_gravatar() {
    let mut reg = Registry::new();
    for (id, markdown, gravatar) in
        [("q00", false, false), ("q01", false, true), ("q10", true, false), ("q11", true, true)]
    {
        let options =
            QueueOptions { apply_markdown: markdown, client_gravatar: gravatar, ..Default::default() };
        register(&mut reg, id, ADA, options, 0);
    }
    reg.push(&to(stream_message(1, "general", "t", BOB), &[(ADA, MessageFlags::empty())]), 0);
    for (id, content, avatar) in [
        ("q00", "hi", json!("/avatar/1")),
        ("q01", "hi", Value::Null),
        ("q10", "<p>hi</p>", json!("/avatar/1")),
        ("q11", "<p>hi</p>", Value::Null),
    ] {
        let events = peek(&mut reg, id, ADA, 0);
        assert_eq!(events[0]["message"]["content"], json!(content), "{id}");
        assert_eq!(events[0]["message"]["avatar_url"], avatar, "{id}");
    }
}

/// A host may answer woken polls a moment after the push: by then the client may have fetched
/// and acknowledged the events and parked again, with nothing to be woken for.
#[test]
fn has_events_until_they_are_acknowledged() {
    let mut reg = Registry::new();
    register(&mut reg, "q", ADA, QueueOptions::default(), 0);
    assert!(!reg.has_events("q"));
    reg.push(&other(&[ADA], json!({"type": "reaction", "op": "add", "message_id": 1})), 1);
    assert!(reg.has_events("q"));
    assert!(matches!(reg.get_events("q", ADA, Some(0), false, 2), Ok(Poll::Wait { .. })));
    assert!(!reg.has_events("q"));
    assert!(!reg.has_events("no such queue"));
}

#[test]
fn last_event_id_acknowledges() {
    let mut reg = Registry::new();
    register(&mut reg, "q", ADA, QueueOptions::default(), 0);
    for i in 0..3 {
        reg.push(&other(&[ADA], json!({"type": "reaction", "op": "add", "message_id": i})), 1);
    }
    let Poll::Ready(events) = reg.get_events("q", ADA, Some(-1), false, 2).expect("ok") else {
        panic!("ready")
    };
    assert_eq!(
        events.iter().map(|e| e["id"].clone()).collect::<Vec<_>>(),
        vec![json!(0), json!(1), json!(2)]
    );
    assert_eq!(events[2], json!({"type": "reaction", "op": "add", "message_id": 2, "id": 2}));
    let Poll::Ready(events) = reg.get_events("q", ADA, Some(1), false, 3).expect("ok") else {
        panic!("ready")
    };
    assert_eq!(events.iter().map(|e| e["id"].clone()).collect::<Vec<_>>(), vec![json!(2)]);
    // Fetched events stay until acknowledged.
    assert_eq!(peek(&mut reg, "q", ADA, 4).len(), 1);
    let err = reg.get_events("q", ADA, Some(0), true, 5).expect_err("pruned");
    assert_eq!(err.msg, "An event newer than 0 has already been pruned!");
    assert_eq!(err.code.wire(), "BAD_REQUEST");
    let err = reg.get_events("q", ADA, Some(9), true, 5).expect_err("never sent");
    assert_eq!(err.msg, "Event 9 was not in this queue");
    assert!(matches!(reg.get_events("q", ADA, Some(2), false, 6), Ok(Poll::Wait { .. })));
}

#[test]
fn dont_block_answers_at_once() {
    let mut reg = Registry::new();
    register(&mut reg, "q", ADA, QueueOptions::default(), 0);
    assert_eq!(reg.get_events("q", ADA, Some(-1), true, 1), Ok(Poll::Ready(vec![])));
    let Ok(Poll::Wait { superseded, .. }) = reg.get_events("q", ADA, Some(-1), false, 1) else {
        panic!("waits")
    };
    assert!(!superseded);
}

#[test]
fn bad_event_queue_id_is_zulips_error_byte_for_byte() {
    let mut reg = Registry::new();
    register(&mut reg, "mine", ADA, QueueOptions::default(), 0);
    let cases = [
        ("nope", ADA, 1),
        ("mine", BOB, 1),                                    // another user's queue
        ("mine", ADA, DEFAULT_EVENT_QUEUE_TIMEOUT_SECS + 1), // expired
    ];
    for (id, user, now) in cases {
        let err = reg.get_events(id, user, Some(-1), true, now).expect_err("bad id");
        assert_eq!(err.http_status(), 400);
        assert_eq!(
            serde_json::to_string(&err.body()).expect("json"),
            format!(
                r#"{{"code":"BAD_EVENT_QUEUE_ID","msg":"Bad event queue id: {id}","queue_id":"{id}","result":"error"}}"#
            )
        );
    }
    // zulip-terminal 0.7.0 re-registers only on this prefix; the Python client also on the code.
    let err = reg.delete("mine", BOB).expect_err("not Bob's");
    assert!(err.msg.starts_with("Bad event queue id:"));
}

#[test]
fn delete_discards_the_queue() {
    let mut reg = Registry::new();
    register(&mut reg, "q", ADA, QueueOptions::default(), 0);
    reg.delete("q", ADA).expect("deleted");
    assert!(reg.is_empty());
    assert_eq!(reg.get_events("q", ADA, None, true, 1).expect_err("gone").msg, "Bad event queue id: q");
    assert!(reg.delete("q", ADA).is_err());
    assert_eq!(reg.poll_timeout(), None);
}

#[test]
fn an_idle_queue_lives_599_seconds_and_is_gone_at_600() {
    let mut reg = Registry::new();
    register(&mut reg, "q", ADA, QueueOptions::default(), 1_000);
    assert_eq!(reg.poll_timeout(), Some(1_600));
    assert_eq!(reg.handle_timeout(1_599), Vec::<String>::new());
    assert_eq!(reg.len(), 1);
    let mut alive = Registry::new();
    register(&mut alive, "q", ADA, QueueOptions::default(), 1_000);
    assert!(alive.get_events("q", ADA, None, true, 1_599).is_ok(), "alive at 599 s");
    // Exact even before the host's timer runs.
    assert!(reg.get_events("q", ADA, None, true, 1_600).is_err(), "gone at 600 s");
    let mut collected = Registry::new();
    register(&mut collected, "q", ADA, QueueOptions::default(), 1_000);
    assert_eq!(collected.handle_timeout(1_600), Vec::<String>::new());
    assert!(collected.is_empty());
    assert_eq!(collected.poll_timeout(), None);
}

#[test]
fn fetching_is_activity_and_events_are_not() {
    let mut reg = Registry::new();
    register(&mut reg, "q", ADA, QueueOptions::default(), 0);
    reg.get_events("q", ADA, None, true, 300).expect("alive");
    assert_eq!(reg.poll_timeout(), Some(900));
    reg.push(&other(&[ADA], json!({"type": "reaction"})), 500);
    assert_eq!(reg.poll_timeout(), Some(900));
    reg.handle_timeout(900);
    assert!(reg.is_empty());
}

#[test]
fn a_waiting_poll_keeps_its_queue_alive() {
    let mut reg = Registry::new();
    register(&mut reg, "q", ADA, QueueOptions::default(), 0);
    let Ok(Poll::Wait { ticket, .. }) = reg.get_events("q", ADA, Some(-1), false, 10) else {
        panic!("waits")
    };
    // The host's timer is late: long past the idle timeout, the queue still takes events ...
    let late = 10 + DEFAULT_EVENT_QUEUE_TIMEOUT_SECS + 100;
    assert_eq!(reg.push(&other(&[ADA], json!({"type": "reaction"})), late), vec!["q".to_owned()]);
    // ... and the poll, woken, finds it was finished by the event and answers with it.
    assert!(!reg.unpark("q", ticket, late));
    let Ok(Poll::Ready(events)) = reg.get_events("q", ADA, Some(-1), true, late) else { panic!("ready") };
    assert_eq!(kinds(&events), vec!["reaction"]);
}

#[test]
fn a_parked_queue_gets_a_heartbeat_not_an_expiry() {
    let mut reg = Registry::new();
    register(&mut reg, "q", ADA, QueueOptions::default(), 0);
    let Ok(Poll::Wait { ticket, .. }) = reg.get_events("q", ADA, Some(-1), false, 10) else {
        panic!("waits")
    };
    assert_eq!(reg.handle_timeout(10 + DEFAULT_EVENT_QUEUE_TIMEOUT_SECS), vec!["q".to_owned()]);
    assert!(!reg.unpark("q", ticket, 700));
    assert_eq!(peek(&mut reg, "q", ADA, 700), vec![json!({"type": "heartbeat", "id": 0})]);
}

#[test]
fn heartbeats_come_at_45_seconds_to_waiting_polls_only() {
    let mut reg = Registry::new();
    register(&mut reg, "waiting", ADA, QueueOptions::default(), 0);
    register(&mut reg, "idle", ADA, QueueOptions::default(), 0);
    let Ok(Poll::Wait { ticket, .. }) = reg.get_events("waiting", ADA, Some(-1), false, 100) else {
        panic!("waits")
    };
    assert_eq!(reg.poll_timeout(), Some(100 + HEARTBEAT_MIN_FREQ_SECS));
    assert_eq!(reg.handle_timeout(144), Vec::<String>::new());
    assert_eq!(reg.handle_timeout(145), vec!["waiting".to_owned()]);
    assert!(!reg.unpark("waiting", ticket, 145));
    let Ok(Poll::Ready(events)) = reg.get_events("waiting", ADA, Some(-1), true, 145) else {
        panic!("ready")
    };
    assert_eq!(events, vec![json!({"type": "heartbeat", "id": 0})]);
    // Heartbeats pass any event_types filter, and ids continue after them.
    assert!(peek(&mut reg, "idle", ADA, 145).is_empty());
    // The next poll waits again and gets the next heartbeat 45 s later.
    let Ok(Poll::Wait { .. }) = reg.get_events("waiting", ADA, Some(0), false, 146) else { panic!("waits") };
    assert_eq!(reg.handle_timeout(190), Vec::<String>::new());
    assert_eq!(reg.handle_timeout(191), vec!["waiting".to_owned()]);
    assert_eq!(peek(&mut reg, "waiting", ADA, 191), vec![json!({"type": "heartbeat", "id": 1})]);
}

#[test]
fn heartbeats_ignore_event_types() {
    let mut reg = Registry::new();
    register(&mut reg, "q", ADA, types(&["message"]), 0);
    let Ok(Poll::Wait { .. }) = reg.get_events("q", ADA, Some(-1), false, 0) else { panic!("waits") };
    assert_eq!(reg.handle_timeout(HEARTBEAT_MIN_FREQ_SECS), vec!["q".to_owned()]);
}

#[test]
fn a_poll_that_leaves_stops_the_heartbeat() {
    let mut reg = Registry::new();
    register(&mut reg, "q", ADA, QueueOptions::default(), 0);
    let Ok(Poll::Wait { ticket, .. }) = reg.get_events("q", ADA, Some(-1), false, 0) else { panic!("waits") };
    assert!(reg.unpark("q", ticket, 30), "still the waiting poll when the client hangs up");
    assert_eq!(reg.poll_timeout(), Some(30 + DEFAULT_EVENT_QUEUE_TIMEOUT_SECS));
    assert_eq!(reg.handle_timeout(100), Vec::<String>::new());
}

#[test]
fn a_new_poll_supersedes_the_waiting_one() {
    let mut reg = Registry::new();
    register(&mut reg, "q", ADA, QueueOptions::default(), 0);
    let Ok(Poll::Wait { ticket: first, superseded: false }) = reg.get_events("q", ADA, Some(-1), false, 0)
    else {
        panic!("waits")
    };
    let Ok(Poll::Wait { ticket: second, superseded: true }) = reg.get_events("q", ADA, Some(-1), false, 5)
    else {
        panic!("waits, superseding")
    };
    assert_ne!(first, second);
    assert!(!reg.unpark("q", first, 5), "the first poll was finished");
    assert_eq!(reg.get_events("q", ADA, Some(-1), true, 5), Ok(Poll::Ready(vec![])));
    // The heartbeat belongs to the second poll.
    assert_eq!(reg.handle_timeout(50), vec!["q".to_owned()]);
    assert!(!reg.unpark("q", second, 50));
}

#[test]
fn event_types_filter_by_type() {
    let mut reg = Registry::new();
    register(&mut reg, "messages", ADA, types(&["message"]), 0);
    register(&mut reg, "reactions", ADA, types(&["reaction"]), 0);
    register(&mut reg, "everything", ADA, QueueOptions::default(), 0);
    reg.push(&to(direct_message(1, BOB), &[(ADA, MessageFlags::empty())]), 1);
    let woken = reg.push(&other(&[ADA], json!({"type": "reaction", "op": "add"})), 1);
    assert_eq!(woken, vec!["reactions".to_owned(), "everything".to_owned()]);
    reg.push(&other(&[ADA], json!({"type": "subscription", "op": "add"})), 1);
    assert_eq!(kinds(&peek(&mut reg, "messages", ADA, 2)), vec!["message"]);
    assert_eq!(kinds(&peek(&mut reg, "reactions", ADA, 2)), vec!["reaction"]);
    assert_eq!(kinds(&peek(&mut reg, "everything", ADA, 2)), vec!["message", "reaction", "subscription"]);
}

#[test]
fn only_the_listed_users_get_other_events() {
    let mut reg = Registry::new();
    register(&mut reg, "a", ADA, QueueOptions::default(), 0);
    register(&mut reg, "b", BOB, QueueOptions::default(), 0);
    assert_eq!(reg.push(&other(&[BOB, BOB], json!({"type": "alert_words"})), 1), vec!["b".to_owned()]);
    assert!(peek(&mut reg, "a", ADA, 1).is_empty());
    assert_eq!(peek(&mut reg, "b", BOB, 1).len(), 1, "listed twice, delivered once");
}

#[test]
fn per_user_events_carry_each_users_fields() {
    let mut reg = Registry::new();
    register(&mut reg, "a", ADA, QueueOptions::default(), 0);
    register(
        &mut reg,
        "b",
        BOB,
        with_caps(ClientCapabilities { empty_topic_name: true, ..Default::default() }),
        0,
    );
    let fields = |flags: Value| match json!({"flags": flags}) {
        Value::Object(map) => map,
        _ => unreachable!(),
    };
    let edit = Notification::PerUser {
        users: vec![(ADA, fields(json!(["read"]))), (BOB, fields(json!(["read", "starred"])))],
        body: json!({"type": "update_message", "message_id": 1, "message_ids": [1], "subject": "", "orig_subject": "x"}),
    };
    assert_eq!(reg.push(&edit, 1), vec!["a".to_owned(), "b".to_owned()]);
    assert_eq!(
        peek(&mut reg, "a", ADA, 1),
        vec![
            json!({"type": "update_message", "message_id": 1, "message_ids": [1], "subject": "general chat", "orig_subject": "x", "flags": ["read"], "id": 0})
        ]
    );
    assert_eq!(
        peek(&mut reg, "b", BOB, 1),
        vec![
            json!({"type": "update_message", "message_id": 1, "message_ids": [1], "subject": "", "orig_subject": "x", "flags": ["read", "starred"], "id": 0})
        ]
    );
}

#[test]
fn narrows_filter_message_events_as_zulip_does() {
    let mut reg = Registry::new();
    let queues: &[(&str, &[(&str, &str)])] = &[
        ("channel", &[("channel", "GENERAL")]),
        ("stream", &[("stream", "design")]),
        ("topic", &[("stream", "general"), ("topic", "Lunch")]),
        ("sender", &[("sender", "BOB@example.com")]),
        ("private", &[("is", "private")]),
        ("dm", &[("is", "dm")]),
        ("starred", &[("is", "starred")]),
        ("mentioned", &[("is", "mentioned")]),
        ("unread", &[("is", "unread")]),
        ("resolved", &[("is", "resolved")]),
        ("muted", &[("is", "muted")]),
    ];
    for (id, terms) in queues {
        register(&mut reg, id, ADA, narrowed(terms), 0);
    }
    let none = MessageFlags::empty();
    reg.push(&to(stream_message(1, "general", "lunch", BOB), &[(ADA, MessageFlags::READ)]), 1);
    reg.push(
        &to(
            stream_message(2, "general", "standup", ADA),
            &[(ADA, MessageFlags::STARRED.with(MessageFlags::READ))],
        ),
        1,
    );
    reg.push(&to(stream_message(3, "design", "✔ colours", ADA), &[(ADA, MessageFlags::MENTIONED)]), 1);
    reg.push(&to(direct_message(4, BOB), &[(ADA, none)]), 1);
    reg.push(
        &to(stream_message(5, "general", "x", BOB), &[(ADA, MessageFlags::STREAM_WILDCARD_MENTIONED)]),
        1,
    );
    reg.push(
        &to(stream_message(6, "general", "x", BOB), &[(ADA, MessageFlags::TOPIC_WILDCARD_MENTIONED)]),
        1,
    );
    reg.push(&to(stream_message(7, "general", "x", BOB), &[(ADA, MessageFlags::GROUP_MENTIONED)]), 1);
    let expected: &[(&str, &[u64])] = &[
        ("channel", &[1, 2, 5, 6, 7]),
        ("stream", &[3]),
        ("topic", &[1]),
        ("sender", &[1, 4, 5, 6, 7]),
        ("private", &[4]),
        ("dm", &[4]),
        ("starred", &[2]),
        // Wildcard and group mentions do not count for queue narrows (zulip-semantics §2.5).
        ("mentioned", &[3]),
        ("unread", &[3, 4, 5, 6, 7]),
        ("resolved", &[3]),
        ("muted", &[1, 2, 3, 4, 5, 6, 7]),
    ];
    for (id, want) in expected {
        assert_eq!(message_ids(&peek(&mut reg, id, ADA, 2)), want.to_vec(), "narrow {id}");
    }
}

#[test]
fn narrows_leave_other_events_alone() {
    let mut reg = Registry::new();
    register(&mut reg, "q", ADA, narrowed(&[("stream", "design")]), 0);
    reg.push(&other(&[ADA], json!({"type": "reaction"})), 1);
    assert_eq!(kinds(&peek(&mut reg, "q", ADA, 1)), vec!["reaction"]);
}

#[test]
fn narrows_are_validated_at_registration() {
    let mut reg = Registry::new();
    let err = reg.register("q".into(), owner(ADA), narrowed(&[("is", "followed")]), 0).expect_err("refused");
    assert_eq!(err.msg, "Operand followed not supported.");
    let err = reg.register("q".into(), owner(ADA), narrowed(&[("search", "x")]), 0).expect_err("refused");
    assert_eq!(err.msg, "Operator search not supported.");
    assert!(reg.is_empty());
}

#[test]
fn all_public_streams_receives_public_channels() {
    let mut reg = Registry::new();
    register(&mut reg, "firehose", BOB, QueueOptions { all_public_streams: true, ..Default::default() }, 0);
    register(&mut reg, "plain", BOB, QueueOptions::default(), 0);
    let elsewhere = QueueOwner { realm: RealmId(2), ..owner(UserId(99)) };
    reg.register(
        "other-realm".into(),
        elsewhere,
        QueueOptions { all_public_streams: true, ..Default::default() },
        0,
    )
    .expect("registers");

    // Bob did not receive these; only his firehose queue gets the public one, with no flags.
    assert_eq!(
        reg.push(&public(stream_message(1, "general", "t", ADA), &[(ADA, MessageFlags::READ)]), 1),
        vec!["firehose".to_owned()]
    );
    reg.push(&to(stream_message(2, "secret", "t", ADA), &[(ADA, MessageFlags::READ)]), 1);
    reg.push(&to(direct_message(3, ADA), &[(ADA, MessageFlags::READ)]), 1);
    // When Bob did receive it, his own flags win.
    reg.push(&public(stream_message(4, "general", "t", ADA), &[(BOB, MessageFlags::STARRED)]), 1);

    let firehose = peek(&mut reg, "firehose", BOB, 2);
    assert_eq!(message_ids(&firehose), vec![1, 4]);
    assert_eq!(firehose[0]["flags"], json!([]));
    assert_eq!(firehose[1]["flags"], json!(["starred"]));
    assert_eq!(message_ids(&peek(&mut reg, "plain", BOB, 2)), vec![4]);
    assert!(peek(&mut reg, "other-realm", UserId(99), 2).is_empty(), "other organizations' channels");
}

#[test]
fn guests_may_not_ask_for_all_public_streams() {
    let mut reg = Registry::new();
    let err = reg
        .register("q".into(), owner(GUS), QueueOptions { all_public_streams: true, ..Default::default() }, 0)
        .expect_err("guest");
    assert_eq!(err.msg, "User not authorized for this query");
    assert_eq!(err.code.wire(), "BAD_REQUEST");
    assert!(reg.register("q".into(), owner(GUS), QueueOptions::default(), 0).is_ok());
}

#[test]
fn deletions_are_split_for_clients_without_bulk_message_deletion() {
    let mut reg = Registry::new();
    register(&mut reg, "old", ADA, QueueOptions::default(), 0);
    register(
        &mut reg,
        "bulk",
        ADA,
        with_caps(ClientCapabilities {
            bulk_message_deletion: true,
            empty_topic_name: true,
            ..Default::default()
        }),
        0,
    );
    let body = json!({"type": "delete_message", "message_type": "stream", "message_ids": [5, 6], "stream_id": 1, "topic": ""});
    reg.push(&other(&[ADA], body), 1);
    assert_eq!(
        peek(&mut reg, "old", ADA, 1),
        vec![
            json!({"type": "delete_message", "message_type": "stream", "message_id": 5, "stream_id": 1, "topic": "general chat", "id": 0}),
            json!({"type": "delete_message", "message_type": "stream", "message_id": 6, "stream_id": 1, "topic": "general chat", "id": 1}),
        ]
    );
    assert_eq!(
        peek(&mut reg, "bulk", ADA, 1),
        vec![
            json!({"type": "delete_message", "message_type": "stream", "message_ids": [5, 6], "stream_id": 1, "topic": "", "id": 0})
        ]
    );
}

#[test]
fn user_settings_come_with_legacy_events_for_old_clients() {
    let mut reg = Registry::new();
    // zulip-terminal 0.7.0's event types, and no capabilities.
    register(
        &mut reg,
        "zt",
        ADA,
        types(&[
            "message",
            "update_message",
            "user_settings",
            "update_global_notifications",
            "update_display_settings",
        ]),
        0,
    );
    register(&mut reg, "legacy-only", ADA, types(&["update_display_settings"]), 0);
    register(
        &mut reg,
        "modern",
        ADA,
        with_caps(ClientCapabilities { user_settings_object: true, ..Default::default() }),
        0,
    );
    let setting =
        json!({"type": "user_settings", "op": "update", "property": "twenty_four_hour_time", "value": true});
    reg.push(&other(&[ADA], setting.clone()), 1);
    let mut with_id = setting.clone();
    with_id["id"] = json!(0);
    assert_eq!(
        peek(&mut reg, "zt", ADA, 1),
        vec![
            with_id.clone(),
            json!({"type": "update_display_settings", "user": "ada@example.com", "setting_name": "twenty_four_hour_time", "setting": true, "id": 1}),
        ]
    );
    assert_eq!(
        peek(&mut reg, "legacy-only", ADA, 1),
        vec![
            json!({"type": "update_display_settings", "user": "ada@example.com", "setting_name": "twenty_four_hour_time", "setting": true, "id": 0})
        ]
    );
    assert_eq!(peek(&mut reg, "modern", ADA, 1), vec![with_id]);
}

#[test]
fn linkifier_events_only_reach_clients_with_url_templates() {
    let mut reg = Registry::new();
    register(&mut reg, "old", ADA, QueueOptions::default(), 0);
    register(
        &mut reg,
        "new",
        ADA,
        with_caps(ClientCapabilities { linkifier_url_template: true, ..Default::default() }),
        0,
    );
    let woken = reg.push(&other(&[ADA], json!({"type": "realm_linkifiers", "realm_linkifiers": []})), 1);
    assert_eq!(woken, vec!["new".to_owned()]);
    assert!(peek(&mut reg, "old", ADA, 1).is_empty());
}

#[test]
fn the_empty_topic_reads_general_chat_for_old_clients() {
    let mut reg = Registry::new();
    let old = QueueOptions {
        capabilities: ClientCapabilities { stream_typing_notifications: true, ..Default::default() },
        ..Default::default()
    };
    let new = with_caps(ClientCapabilities {
        empty_topic_name: true,
        stream_typing_notifications: true,
        ..Default::default()
    });
    register(&mut reg, "old", ADA, old, 0);
    register(&mut reg, "new", ADA, new, 0);
    register(&mut reg, "old-narrowed", ADA, narrowed(&[("topic", "general chat")]), 0);
    reg.push(&to(stream_message(1, "general", "", BOB), &[(ADA, MessageFlags::empty())]), 1);
    reg.push(
        &other(&[ADA], json!({"type": "update_message", "message_id": 1, "subject": "", "orig_subject": ""})),
        1,
    );
    reg.push(
        &other(
            &[ADA],
            json!({"type": "typing", "op": "start", "message_type": "stream", "stream_id": 1, "topic": ""}),
        ),
        1,
    );
    let old = peek(&mut reg, "old", ADA, 2);
    assert_eq!(old[0]["message"]["subject"], json!("general chat"));
    assert_eq!(
        (old[1]["subject"].clone(), old[1]["orig_subject"].clone()),
        (json!("general chat"), json!("general chat"))
    );
    assert_eq!(old[2]["topic"], json!("general chat"));
    let new = peek(&mut reg, "new", ADA, 2);
    assert_eq!(new[0]["message"]["subject"], json!(""));
    assert_eq!(new[1]["subject"], json!(""));
    assert_eq!(new[2]["topic"], json!(""));
    // A narrow sees the topic as its client does.
    assert_eq!(message_ids(&peek(&mut reg, "old-narrowed", ADA, 2)), vec![1]);
}

#[test]
fn channel_typing_needs_its_capability() {
    let mut reg = Registry::new();
    register(&mut reg, "old", ADA, QueueOptions::default(), 0);
    let body =
        json!({"type": "typing", "op": "start", "message_type": "stream", "stream_id": 1, "topic": "t"});
    assert!(reg.push(&other(&[ADA], body), 1).is_empty());
    let direct = json!({"type": "typing", "op": "start", "message_type": "direct", "recipients": []});
    assert_eq!(reg.push(&other(&[ADA], direct), 1), vec!["old".to_owned()]);
}

#[test]
fn a_full_queue_is_discarded_so_its_client_registers_again() {
    let mut reg = Registry::new();
    register(&mut reg, "q", ADA, QueueOptions::default(), 0);
    for _ in 0..MAX_EVENTS_PER_QUEUE {
        reg.push(&other(&[ADA], json!({"type": "reaction"})), 1);
    }
    assert_eq!(peek(&mut reg, "q", ADA, 1).len(), MAX_EVENTS_PER_QUEUE);
    assert!(reg.push(&other(&[ADA], json!({"type": "reaction"})), 1).is_empty());
    assert_eq!(
        reg.get_events("q", ADA, None, true, 1).expect_err("discarded").code.wire(),
        "BAD_EVENT_QUEUE_ID"
    );
}

#[test]
fn the_registry_survives_a_restart() {
    let mut reg = Registry::new();
    let options = QueueOptions {
        event_types: Some(["message", "reaction"].iter().map(|s| (*s).to_owned()).collect()),
        narrow: vec![("is".into(), "dm".into())],
        apply_markdown: true,
        capabilities: ClientCapabilities { bulk_message_deletion: true, ..Default::default() },
        ..Default::default()
    };
    register(&mut reg, "a", ADA, options, 0);
    register(&mut reg, "b", BOB, QueueOptions { all_public_streams: true, ..Default::default() }, 0);
    register(&mut reg, "c", BOB, QueueOptions::default(), 0);
    reg.push(&to(direct_message(1, BOB), &[(ADA, MessageFlags::empty()), (BOB, MessageFlags::READ)]), 1);
    reg.push(&other(&[ADA, BOB], json!({"type": "reaction", "op": "add", "message_id": 1})), 2);
    reg.push(&public(stream_message(2, "general", "t", ADA), &[(ADA, MessageFlags::READ)]), 3);
    let Ok(Poll::Wait { .. }) = reg.get_events("b", BOB, Some(2), false, 5) else { panic!("waits") };

    let saved = serde_json::to_string(&reg).expect("serializes");
    // The message queued for both Ada and Bob is written once.
    assert_eq!(saved.matches("psst").count(), 1, "{saved}");
    let mut restored: Registry = serde_json::from_str(&saved).expect("deserializes");
    assert_eq!(serde_json::to_string(&restored).expect("serializes"), saved);
    assert_eq!(restored.len(), 3);
    for (id, user) in [("a", ADA), ("b", BOB), ("c", BOB)] {
        assert_eq!(peek(&mut restored, id, user, 6), peek(&mut reg, id, user, 6), "queue {id}");
    }
    // Options, indexes and ids carry on.
    restored.push(&public(stream_message(3, "general", "t", ADA), &[]), 7);
    restored.push(&to(direct_message(4, BOB), &[(ADA, MessageFlags::empty())]), 7);
    let b = peek(&mut restored, "b", BOB, 8);
    assert_eq!((message_ids(&b), b[0]["id"].clone()), (vec![3], json!(3)));
    let a = peek(&mut restored, "a", ADA, 8);
    assert_eq!(a.iter().map(|e| e["id"].clone()).collect::<Vec<_>>(), vec![json!(0), json!(1), json!(2)]);
    assert_eq!(message_ids(&a), vec![1, 4], "the narrow is restored");
    assert_eq!(a[0]["message"]["content"], json!("psst"));
    // A poll waiting at shutdown is gone; queues expire from their last activity.
    assert_eq!(
        restored.poll_timeout(),
        Some(6 + DEFAULT_EVENT_QUEUE_TIMEOUT_SECS),
        "c was last fetched at 6"
    );
    let _ = restored.broadcast(&json!({"type": "restart", "zulip_version": "x"}), 9);
    assert_eq!(kinds(&peek(&mut restored, "b", BOB, 9)).last(), Some(&"restart"));
    assert_eq!(kinds(&peek(&mut restored, "a", ADA, 9)).last(), Some(&"message"), "filtered by event_types");
}

/// A channel message sent by `sender` from queue `queue_id` with `local_id`.
fn sent_from(
    variants: MessageVariants,
    receivers: &[(UserId, MessageFlags)],
    sender: UserId,
    queue_id: &str,
    local_id: &str,
) -> Notification {
    let mut notification = public(variants, receivers);
    if let Notification::Message { origin, .. } = &mut notification {
        *origin = Some(SendOrigin { sender, queue_id: queue_id.into(), local_id: local_id.into() });
    }
    notification
}

#[test]
fn the_local_echo_reaches_only_the_queue_it_was_sent_from() {
    let mut reg = Registry::new();
    register(&mut reg, "ada-web", ADA, QueueOptions::default(), 0);
    register(&mut reg, "ada-phone", ADA, QueueOptions::default(), 0);
    register(&mut reg, "bob", BOB, QueueOptions::default(), 0);
    register(&mut reg, "firehose", BOB, QueueOptions { all_public_streams: true, ..Default::default() }, 0);
    let receivers = [(ADA, MessageFlags::READ), (BOB, MessageFlags::empty())];
    reg.push(&sent_from(stream_message(7, "general", "t", ADA), &receivers, ADA, "ada-web", "12.01"), 1);

    let web = peek(&mut reg, "ada-web", ADA, 2);
    assert_eq!(web.len(), 1);
    assert_eq!(web[0]["local_message_id"], "12.01", "{}", web[0]);
    assert_eq!((web[0]["id"].clone(), web[0]["flags"].clone()), (json!(0), json!(["read"])));
    for (queue, user) in [("ada-phone", ADA), ("bob", BOB), ("firehose", BOB)] {
        let got = peek(&mut reg, queue, user, 2);
        assert_eq!(message_ids(&got), vec![7], "{queue}");
        assert!(got[0].get("local_message_id").is_none(), "{queue}: {}", got[0]);
    }

    // Zulip passes the local id back as sent, whatever it is.
    reg.push(
        &sent_from(stream_message(8, "general", "t", ADA), &receivers, ADA, "ada-web", "not a number ☃"),
        3,
    );
    assert_eq!(peek(&mut reg, "ada-web", ADA, 4)[1]["local_message_id"], "not a number ☃");

    // Another user's queue id names no echo: only the sender's own queue gets one.
    reg.push(&sent_from(stream_message(9, "general", "t", ADA), &receivers, ADA, "bob", "13.01"), 5);
    let bob = peek(&mut reg, "bob", BOB, 6);
    assert_eq!(message_ids(&bob), vec![7, 8, 9]);
    assert!(bob.iter().all(|e| e.get("local_message_id").is_none()), "{bob:?}");

    // A queue whose narrow leaves the message out gets nothing, echo or not.
    register(&mut reg, "ada-dms", ADA, narrowed(&[("is", "dm")]), 7);
    reg.push(&sent_from(stream_message(10, "general", "t", ADA), &receivers, ADA, "ada-dms", "14.01"), 8);
    assert!(peek(&mut reg, "ada-dms", ADA, 9).is_empty());
}

#[test]
fn a_queued_local_echo_survives_a_restart() {
    let mut reg = Registry::new();
    register(&mut reg, "ada-web", ADA, QueueOptions::default(), 0);
    register(&mut reg, "ada-phone", ADA, QueueOptions::default(), 0);
    let receivers = [(ADA, MessageFlags::READ)];
    reg.push(&sent_from(stream_message(7, "general", "t", ADA), &receivers, ADA, "ada-web", "12.01"), 1);

    let saved = serde_json::to_string(&reg).expect("serializes");
    assert_eq!(saved.matches("\"content\"").count(), 4, "one message dict, four shapes: {saved}");
    let mut restored: Registry = serde_json::from_str(&saved).expect("deserializes");
    assert_eq!(serde_json::to_string(&restored).expect("serializes"), saved);
    for id in ["ada-web", "ada-phone"] {
        assert_eq!(peek(&mut restored, id, ADA, 2), peek(&mut reg, id, ADA, 2), "queue {id}");
    }
    assert_eq!(peek(&mut restored, "ada-web", ADA, 2)[0]["local_message_id"], "12.01");
}

#[test]
fn corrupt_saved_registries_are_refused() {
    for saved in [
        json!({"format": 2, "messages": [], "bodies": [], "queues": []}),
        json!({"format": 1, "messages": [], "bodies": [], "queues": [
            {"id": "q", "owner": {"user": 1, "realm": 1, "email": "a", "is_guest": false}, "options": {},
             "next_event_id": 1, "newest_pruned_id": -1, "last_active": 0,
             "events": [{"kind": "other", "id": 0, "body": 3}]}
        ]}),
        json!({"format": 1, "messages": [], "bodies": [{}], "queues": [
            {"id": "q", "owner": {"user": 1, "realm": 1, "email": "a", "is_guest": false}, "options": {},
             "next_event_id": 1, "newest_pruned_id": -1, "last_active": 0,
             "events": [{"kind": "other", "id": 0, "body": 0}, {"kind": "other", "id": 0, "body": 0}]}
        ]}),
    ] {
        assert!(serde_json::from_value::<Registry>(saved).is_err());
    }
}

#[test]
fn a_user_registering_beyond_the_queue_limit_loses_the_queue_idle_longest() {
    let mut reg = Registry::new();
    register(&mut reg, "bob's", BOB, QueueOptions::default(), 0);
    for i in 0..MAX_QUEUES_PER_USER {
        register(&mut reg, &format!("q{i}"), ADA, QueueOptions::default(), i as i64);
    }
    // q0 was polled since, so q1 is the one idle longest.
    reg.get_events("q0", ADA, None, true, 200).expect("polled");
    register(&mut reg, "one more", ADA, QueueOptions::default(), 201);
    assert_eq!(reg.len(), MAX_QUEUES_PER_USER + 1, "Ada's limit, and Bob's queue");
    let err = reg.get_events("q1", ADA, None, true, 202).expect_err("discarded");
    assert_eq!(err.msg, "Bad event queue id: q1");
    for id in ["q0", "q2", "one more"] {
        reg.get_events(id, ADA, None, true, 202).expect("kept");
    }
    reg.get_events("bob's", BOB, None, true, 202).expect("another user's queues are not counted");
}
