//! Work that runs in the background, on two servers sharing one PostgreSQL database (issue 19):
//! a scheduled message and a reminder that both servers wake for at the same moment are sent
//! once, an outgoing webhook is called once for each message that mentions its bot, by the
//! server that took the message, though the other server hears of the message too, and an
//! organization export is made once.
//!
//! Each test starts its own servers on a database of its own, so it runs in the first (redb)
//! pass of the suite only.

use std::time::Duration;

use confab_tests::fake_service::FakeService;
use confab_tests::{Api, Creds, TestServer, eventually, unix_now};
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_confab-under-test");

/// Why these tests skip the PostgreSQL pass.
const FIRST_PASS_ONLY: &str = "it starts its own servers on a database of its own, in the first pass";

/// How long after a delivery the other server's attempt surely has run too. Short on purpose:
/// if it were too short, a duplicate would go unseen (the test would pass wrongly), never the
/// other way round.
const BOTH_HAD_THEIR_CHANCE: Duration = Duration::from_secs(2);

fn new_database() -> String {
    let cluster = confab_server::scratch_postgres::shared().expect("a scratch PostgreSQL server");
    cluster.new_database().expect("a new database")
}

/// Server `node` on the database `url`, with `extra` arguments.
fn start_node(url: &str, node: &str, extra: &[&str]) -> TestServer {
    TestServer::start_with(BINARY, &[&["--database", url, "--node-id", node][..], extra].concat())
}

/// The newest messages of a narrow, oldest first, as `who` reads them from `api`.
fn newest(api: &Api, who: &Creds, narrow: &Value) -> Vec<Value> {
    let narrow = narrow.to_string();
    let params =
        [("anchor", "newest"), ("num_before", "50"), ("num_after", "0"), ("narrow", narrow.as_str())];
    api.get("/messages", Some(who), &params).ok()["messages"].as_array().expect("messages").clone()
}

fn topic(name: &str) -> Value {
    json!([{"operator": "channel", "operand": "general"}, {"operator": "topic", "operand": name}])
}

/// Says so when server B came up only after the delivery time, so that it did not sleep
/// towards it alongside A (the test still checks the message is sent once, but not the race).
fn note_if_late(started_by: i64, due: i64) {
    if started_by >= due {
        eprintln!("server b was up only at {started_by}, not before the delivery time {due}");
    }
}

#[test]
fn a_scheduled_message_is_sent_once_when_both_servers_wake_for_it() {
    if confab_tests::not_on_postgres(FIRST_PASS_ONLY) {
        return;
    }
    let url = new_database();
    let a = start_node(&url, "a", &[]);
    let owner = a.owner();
    let general = a.api().get("/get_stream_id", Some(&owner), &[("stream", "general")]).ok()["stream_id"]
        .as_u64()
        .expect("stream_id")
        .to_string();
    let due = unix_now() + 4;
    let due_s = due.to_string();
    let params = [
        ("type", "stream"),
        ("to", general.as_str()),
        ("topic", "once"),
        ("content", "sent once"),
        ("scheduled_delivery_timestamp", due_s.as_str()),
    ];
    a.api().post("/scheduled_messages", Some(&owner), &params).ok();
    // B reads the due list as it starts, and sleeps until the same moment as A.
    let b = start_node(&url, "b", &[]);
    note_if_late(unix_now(), due);

    let narrow = topic("once");
    eventually("the scheduled message", || (!newest(&a.api(), &owner, &narrow).is_empty()).then_some(()));
    std::thread::sleep(BOTH_HAD_THEIR_CHANCE);
    for server in [&a, &b] {
        let api = server.api();
        let sent = newest(&api, &owner, &narrow);
        let contents: Vec<&Value> = sent.iter().map(|m| &m["content"]).collect();
        assert_eq!(contents, [&json!("<p>sent once</p>")], "read from {}", server.base_url);
        assert!(sent[0]["timestamp"].as_i64().expect("timestamp") >= due);
        let left = api.get("/scheduled_messages", Some(&owner), &[]).ok()["scheduled_messages"].clone();
        assert_eq!(left, json!([]), "a sent message leaves the list, on {}", server.base_url);
    }
}

/// B hears of the scheduled message A took (A's batch wakes B's delivery task); A dies before
/// its time, and B sends it.
#[test]
fn a_scheduled_message_is_sent_by_the_other_server_when_the_one_that_took_it_dies() {
    if confab_tests::not_on_postgres(FIRST_PASS_ONLY) {
        return;
    }
    let url = new_database();
    let mut a = start_node(&url, "a", &[]);
    let owner = a.owner();
    let b = start_node(&url, "b", &[]);
    let general = b.api().get("/get_stream_id", Some(&owner), &[("stream", "general")]).ok()["stream_id"]
        .as_u64()
        .expect("stream_id")
        .to_string();
    let due = (unix_now() + 3).to_string();
    let params = [
        ("type", "stream"),
        ("to", general.as_str()),
        ("topic", "failover"),
        ("content", "sent by the survivor"),
        ("scheduled_delivery_timestamp", due.as_str()),
    ];
    a.api().post("/scheduled_messages", Some(&owner), &params).ok();
    a.kill();
    let narrow = topic("failover");
    let sent = eventually("the scheduled message", || {
        Some(newest(&b.api(), &owner, &narrow)).filter(|m| !m.is_empty())
    });
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["content"], "<p>sent by the survivor</p>");
}

#[test]
fn a_reminder_is_sent_once_across_servers() {
    if confab_tests::not_on_postgres(FIRST_PASS_ONLY) {
        return;
    }
    let url = new_database();
    let a = start_node(&url, "a", &[]);
    let owner = a.owner();
    let params = [("type", "stream"), ("to", "general"), ("topic", "plans"), ("content", "Ship it")];
    let said = a.api().post("/messages", Some(&owner), &params).ok()["id"].as_u64().expect("id").to_string();
    let due = unix_now() + 4;
    let due_s = due.to_string();
    let params = [("message_id", said.as_str()), ("scheduled_delivery_timestamp", due_s.as_str())];
    a.api().post("/reminders", Some(&owner), &params).ok();
    let b = start_node(&url, "b", &[]);
    note_if_late(unix_now(), due);

    let dms = json!([{"operator": "is", "operand": "dm"}]);
    let from_bot = |m: &Value| m["sender_full_name"] == "Notification Bot";
    eventually("the reminder", || newest(&a.api(), &owner, &dms).into_iter().find(from_bot));
    std::thread::sleep(BOTH_HAD_THEIR_CHANCE);
    for server in [&a, &b] {
        let api = server.api();
        let reminders: Vec<Value> = newest(&api, &owner, &dms).into_iter().filter(from_bot).collect();
        assert_eq!(reminders.len(), 1, "read from {}: {reminders:?}", server.base_url);
        let content = reminders[0]["content"].as_str().expect("content");
        assert!(content.contains("You requested a reminder"), "{content}");
        let left = api.get("/reminders", Some(&owner), &[]).ok()["reminders"].clone();
        assert_eq!(left, json!([]), "a sent reminder leaves the list, on {}", server.base_url);
    }
}

/// Makes an outgoing-webhook bot owned by `owner`: its user id.
fn outgoing_bot(api: &Api, owner: &Creds, name: &str, url: &str) -> u64 {
    let params = [("full_name", name), ("short_name", name), ("bot_type", "3"), ("payload_url", url)];
    api.post("/bots", Some(owner), &params).ok()["user_id"].as_u64().expect("id")
}

/// Sends `content` to #general > pings through `api`; the message's id.
fn ping(api: &Api, owner: &Creds, content: &str) -> u64 {
    let params = [("type", "stream"), ("to", "general"), ("topic", "pings"), ("content", content)];
    api.post("/messages", Some(owner), &params).ok()["id"].as_u64().expect("id")
}

#[test]
fn an_outgoing_webhook_is_called_once_for_a_message_both_servers_hear_of() {
    if confab_tests::not_on_postgres(FIRST_PASS_ONLY) {
        return;
    }
    let url = new_database();
    let loopback = ["--allow-outgoing-to", "127.0.0.0/8"];
    let a = start_node(&url, "a", &loopback);
    let owner = a.owner();
    let b = start_node(&url, "b", &loopback);
    // Three answers, so that a third (duplicate) post would be received and seen.
    let service = FakeService::start(vec![(200, r#"{"content": "pong"}"#); 3]);
    let bot_id = outgoing_bot(&a.api(), &owner, "echo", &service.url);
    // A queue on B: B surely hears of A's batches.
    let registered = b.api().post("/register", Some(&owner), &[("event_types", r#"["message"]"#)]).ok();

    let through_a = ping(&a.api(), &owner, "@**echo** through a");
    eventually("B to hear of the message sent through A", || {
        let events = b.api().queued(&owner, &registered)["events"].as_array().expect("events").clone();
        events.iter().any(|e| e["type"] == "message" && e["message"]["id"] == through_a).then_some(())
    });
    let first = service.next();
    assert_eq!((&first["message"]["id"], &first["data"]), (&json!(through_a), &json!("@**echo** through a")));

    let through_b = ping(&b.api(), &owner, "@**echo** through b");
    let second = service.next();
    assert_eq!(
        (&second["message"]["id"], &second["data"]),
        (&json!(through_b), &json!("@**echo** through b"))
    );

    let narrow = topic("pings");
    let replies = |api: &Api| -> Vec<Value> {
        newest(api, &owner, &narrow).into_iter().filter(|m| m["sender_id"] == bot_id).collect()
    };
    eventually("the bot's two replies", || (replies(&a.api()).len() >= 2).then_some(()));
    let third = service.received.recv_timeout(BOTH_HAD_THEIR_CHANCE);
    assert!(third.is_err(), "a third post to the service: {third:?}");
    for server in [&a, &b] {
        let said = replies(&server.api());
        let contents: Vec<&Value> = said.iter().map(|m| &m["content"]).collect();
        assert_eq!(contents, [&json!("<p>pong</p>"), &json!("<p>pong</p>")], "read from {}", server.base_url);
    }
}

/// The export archives a server wrote into its uploads.
fn export_archives(server: &TestServer) -> usize {
    let exports = server.data_dir.join("uploads").join("exports");
    let mut archives = 0;
    let mut folders = vec![exports];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.to_string_lossy().ends_with(".tar.gz") {
                archives += 1;
            }
        }
    }
    archives
}

/// Both servers look for the pending export at once (B hears of A's batch and wakes its own
/// export task); each claims it under the writer's lock, and the one whose claim stands makes
/// it. The claim's rules (a live claim stands, a dead server's expires) are core's unit tests
/// (`api::realm_export`).
#[test]
fn an_export_asked_for_through_one_server_is_made_once_and_listed_on_both() {
    if confab_tests::not_on_postgres(FIRST_PASS_ONLY) {
        return;
    }
    let url = new_database();
    let a = start_node(&url, "a", &[]);
    let owner = a.owner();
    let b = start_node(&url, "b", &[]);
    let asked = a.api().post("/export/realm", Some(&owner), &[]).ok();
    let id = asked["id"].clone();
    let export = eventually("the export made", || {
        let exports = b.api().get("/export/realm", Some(&owner), &[]).ok()["exports"].clone();
        let export = exports.as_array()?.iter().find(|e| e["id"] == id)?.clone();
        (export["pending"] == false).then_some(export)
    });
    assert!(export["export_url"].is_string(), "made, not failed: {export}");
    std::thread::sleep(BOTH_HAD_THEIR_CHANCE);
    assert_eq!(export_archives(&a) + export_archives(&b), 1, "one archive, made by one server");
}
