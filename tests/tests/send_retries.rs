//! A send that names its event queue and local id (`queue_id`, `local_id`): that queue's
//! `message` event carries Zulip's `local_message_id`, and a retry with the same two is answered
//! with the message the first one posted, without posting, changing or announcing anything again:
//! after its queue is gone, after a crash, after the message was deleted, and when the retries
//! race each other into one group commit.

use std::sync::Barrier;

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

fn setup() -> (TestServer, Creds, Creds) {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let ada = server.api().create_user(&owner, "ada@example.com", "Ada");
    server.api().subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    (server, owner, ada)
}

/// Registers a queue for message events; returns its id.
fn register(server: &TestServer, who: &Creds, extra: &[(&str, &str)]) -> String {
    let mut params = vec![("event_types", r#"["message"]"#)];
    params.extend_from_slice(extra);
    let body = server.api().post("/register", Some(who), &params).ok();
    body["queue_id"].as_str().expect("queue_id").to_owned()
}

/// Everything the queue holds, without waiting.
fn queued(server: &TestServer, who: &Creds, queue_id: &str) -> Vec<Value> {
    let params = [("queue_id", queue_id), ("last_event_id", "-1"), ("dont_block", "true")];
    let body = server.api().get("/events", Some(who), &params).ok();
    body["events"].as_array().expect("events").clone()
}

/// Sends `content` to `#general > topic` with extra parameters; returns the whole reply.
fn send(server: &TestServer, who: &Creds, topic: &str, content: &str, extra: &[(&str, &str)]) -> Value {
    let mut params = vec![("type", "stream"), ("to", "general"), ("topic", topic), ("content", content)];
    params.extend_from_slice(extra);
    server.api().post("/messages", Some(who), &params).ok()
}

fn id_of(reply: &Value) -> u64 {
    reply["id"].as_u64().unwrap_or_else(|| panic!("an id in {reply}"))
}

/// The ids of the messages in `#general > topic`, oldest first.
fn topic_ids(server: &TestServer, who: &Creds, topic: &str) -> Vec<u64> {
    let narrow = json!([["channel", "general"], ["topic", topic]]).to_string();
    let params =
        [("anchor", "newest"), ("num_before", "100"), ("num_after", "0"), ("narrow", narrow.as_str())];
    let body = server.api().get("/messages", Some(who), &params).ok();
    body["messages"].as_array().expect("messages").iter().map(|m| m["id"].as_u64().expect("id")).collect()
}

/// The `local_message_id` of each message event, in order (`None` where it has none).
fn local_ids(events: &[Value]) -> Vec<(u64, Option<&str>)> {
    events
        .iter()
        .filter(|e| e["type"] == "message")
        .map(|e| {
            (
                e["message"]["id"].as_u64().expect("id"),
                e.get("local_message_id").map(|l| l.as_str().expect("a string")),
            )
        })
        .collect()
}

#[test]
fn the_local_echo_reaches_only_the_queue_the_message_was_sent_from() {
    let (server, owner, ada) = setup();
    let web = register(&server, &owner, &[]);
    let phone = register(&server, &owner, &[]);
    let ada_queue = register(&server, &ada, &[]);
    let firehose = register(&server, &ada, &[("all_public_streams", "true")]);

    let id =
        id_of(&send(&server, &owner, "echo", "hello", &[("queue_id", web.as_str()), ("local_id", "12.01")]));
    assert_eq!(local_ids(&queued(&server, &owner, &web)), vec![(id, Some("12.01"))]);
    assert_eq!(local_ids(&queued(&server, &owner, &phone)), vec![(id, None)], "another queue of the sender");
    assert_eq!(local_ids(&queued(&server, &ada, &ada_queue)), vec![(id, None)], "another user");
    assert_eq!(local_ids(&queued(&server, &ada, &firehose)), vec![(id, None)], "all_public_streams");

    // Naming someone else's queue gives that queue no echo (Zulip would; see ARCHITECTURE.md).
    let from_ada =
        id_of(&send(&server, &ada, "echo", "hi", &[("queue_id", web.as_str()), ("local_id", "3.01")]));
    assert_eq!(local_ids(&queued(&server, &owner, &web)), vec![(id, Some("12.01")), (from_ada, None)]);
}

#[test]
fn a_retry_answers_the_first_id_and_posts_nothing() {
    let (server, owner, ada) = setup();
    let web = register(&server, &owner, &[]);
    let watching = register(&server, &ada, &[]);
    let origin = [("queue_id", web.as_str()), ("local_id", "5.01")];

    let first = send(&server, &owner, "retry", "once", &origin);
    let id = id_of(&first);
    // Starting the topic followed it (the default policy), and the first answer says so.
    assert_eq!(first["automatic_new_visibility_policy"], 3, "{first}");
    let retry = send(&server, &owner, "retry", "once", &origin);
    // The retry changed no policy: Zulip sends the field only when this request changed it.
    assert_eq!(retry, json!({"result": "success", "msg": "", "id": id}));

    // Different content under the same queue and local id names the same send.
    let altered = send(&server, &owner, "retry", "twice?", &origin);
    assert_eq!(altered, json!({"result": "success", "msg": "", "id": id}));
    let stored = server.api().get(&format!("/messages/{id}"), Some(&owner), &[]).ok();
    assert_eq!(stored["message"]["content"], "<p>once</p>");

    assert_eq!(topic_ids(&server, &owner, "retry"), vec![id]);
    assert_eq!(local_ids(&queued(&server, &owner, &web)), vec![(id, Some("5.01"))], "one event");
    assert_eq!(local_ids(&queued(&server, &ada, &watching)), vec![(id, None)], "one event");

    // A new local id is a new message.
    let next =
        id_of(&send(&server, &owner, "retry", "again", &[("queue_id", web.as_str()), ("local_id", "5.02")]));
    assert!(next > id);
    assert_eq!(topic_ids(&server, &owner, "retry"), vec![id, next]);
}

#[test]
fn a_retry_after_the_queue_is_gone_and_after_a_crash_answers_the_first_id() {
    let (server, owner, _ada) = setup();
    let web = register(&server, &owner, &[]);
    let origin = [("queue_id", web.as_str()), ("local_id", "7.01")];
    let id = id_of(&send(&server, &owner, "offline", "sent before the hour", &origin));

    // The client's queue expired or was deleted; it retries with the queue id it first used.
    server.api().delete("/events", Some(&owner), &[("queue_id", web.as_str())]).ok();
    assert_eq!(id_of(&send(&server, &owner, "offline", "sent before the hour", &origin)), id);

    // The record committed with the message: SIGKILL loses neither.
    let server = server.restart();
    assert_eq!(id_of(&send(&server, &owner, "offline", "sent before the hour", &origin)), id);
    assert_eq!(topic_ids(&server, &owner, "offline"), vec![id]);
    let later =
        id_of(&send(&server, &owner, "offline", "new", &[("queue_id", web.as_str()), ("local_id", "7.02")]));
    assert!(later > id, "ids keep increasing");
}

#[test]
fn a_retry_after_the_message_was_deleted_does_not_post_it_again() {
    let (server, owner, _ada) = setup();
    let origin = [("queue_id", "a-queue-that-expired"), ("local_id", "9.01")];
    let id = id_of(&send(&server, &owner, "deleted", "oops", &origin));
    server.api().delete(&format!("/messages/{id}"), Some(&owner), &[]).ok();
    assert_eq!(
        send(&server, &owner, "deleted", "oops", &origin),
        json!({"result": "success", "msg": "", "id": id})
    );
    assert_eq!(topic_ids(&server, &owner, "deleted"), Vec::<u64>::new());
}

#[test]
fn concurrent_identical_retries_post_once() {
    let (server, owner, _ada) = setup();
    let web = register(&server, &owner, &[]);
    const SENDERS: usize = 8;
    // All start together, so that several land in one group commit, where each command sees
    // the changes of those before it in the same transaction.
    let start = Barrier::new(SENDERS);
    let ids: Vec<u64> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..SENDERS)
            .map(|_| {
                let (server, owner, web, start) = (&server, &owner, web.as_str(), &start);
                scope.spawn(move || {
                    start.wait();
                    id_of(&send(
                        server,
                        owner,
                        "race",
                        "just once",
                        &[("queue_id", web), ("local_id", "1.01")],
                    ))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("sender thread")).collect()
    });
    assert!(ids.iter().all(|&id| id == ids[0]), "{ids:?}");
    assert_eq!(topic_ids(&server, &owner, "race"), vec![ids[0]]);
    assert_eq!(local_ids(&queued(&server, &owner, &web)), vec![(ids[0], Some("1.01"))]);
}

#[test]
fn a_refused_send_is_not_remembered() {
    let (server, owner, _ada) = setup();
    let origin = [("queue_id", "q"), ("local_id", "2.01")];
    let params = [("type", "stream"), ("to", "nowhere"), ("topic", "t"), ("content", "lost")];
    let mut refused = params.to_vec();
    refused.extend_from_slice(&origin);
    server.api().post("/messages", Some(&owner), &refused).error(400, "STREAM_DOES_NOT_EXIST");
    let id = id_of(&send(&server, &owner, "refused", "found", &origin));
    assert_eq!(topic_ids(&server, &owner, "refused"), vec![id]);
}

#[test]
fn odd_ids_are_taken_as_zulip_takes_them() {
    let (server, owner, ada) = setup();
    let web = register(&server, &owner, &[]);
    let twice = |extra: &[(&str, &str)], topic: &str| {
        let first = id_of(&send(&server, &owner, topic, "one", extra));
        let second = id_of(&send(&server, &owner, topic, "one", extra));
        (first, second)
    };

    // One without the other: an ordinary send each time, with no echo.
    let (a, b) = twice(&[("queue_id", web.as_str())], "no local id");
    assert_ne!(a, b);
    let (c, d) = twice(&[("local_id", "4.01")], "no queue id");
    assert_ne!(c, d);

    // Zulip passes a local id back without inspecting it; any string names one send.
    let (e, f) = twice(&[("queue_id", web.as_str()), ("local_id", "not a number ☃")], "garbage");
    assert_eq!(e, f);
    // An empty id names no one send: echoed, never remembered.
    let (g, h) = twice(&[("queue_id", web.as_str()), ("local_id", "")], "empty");
    assert_ne!(g, h);
    // Longer than the store keeps (255 bytes): echoed, not remembered.
    let long = "8".repeat(300);
    let (i, j) = twice(&[("queue_id", web.as_str()), ("local_id", long.as_str())], "long");
    assert_ne!(i, j);
    assert_eq!(
        local_ids(&queued(&server, &owner, &web)),
        vec![
            (a, None),
            (b, None),
            (c, None),
            (d, None),
            (e, Some("not a number ☃")),
            (g, Some("")),
            (h, Some("")),
            (i, Some(long.as_str())),
            (j, Some(long.as_str())),
        ]
    );

    // Sends are remembered per sender: the same queue and local id from two users are two sends.
    let shared = [("queue_id", "shared"), ("local_id", "1")];
    let mine = id_of(&send(&server, &owner, "shared", "mine", &shared));
    let hers = id_of(&send(&server, &ada, "shared", "hers", &shared));
    assert_ne!(mine, hers);
    assert_eq!(topic_ids(&server, &owner, "shared"), vec![mine, hers]);
}
