//! Event queues over HTTP (spec 4.1, 4.2, 6): register, blocking and non-blocking fetches,
//! acknowledgement, deletion, the exact BAD_EVENT_QUEUE_ID error, filtering by event type,
//! and queues that survive a graceful restart but not a crash.

use std::thread;

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

fn register(server: &TestServer, who: &Creds, params: &[(&str, &str)]) -> (String, Value) {
    let body = server.api().post("/register", Some(who), params).ok();
    let queue_id = body["queue_id"].as_str().expect("queue_id").to_owned();
    (queue_id, body)
}

fn events(
    server: &TestServer,
    who: &Creds,
    queue_id: &str,
    last_event_id: i64,
    dont_block: bool,
) -> Vec<Value> {
    let last = last_event_id.to_string();
    let block = dont_block.to_string();
    let params = [("queue_id", queue_id), ("last_event_id", last.as_str()), ("dont_block", block.as_str())];
    let body = server.api().get("/events", Some(who), &params).ok();
    assert_eq!(body["queue_id"], queue_id);
    body["events"].as_array().expect("events").clone()
}

fn send(server: &TestServer, who: &Creds, content: &str) -> u64 {
    let params = [("type", "stream"), ("to", "general"), ("topic", "t"), ("content", content)];
    server.api().post("/messages", Some(who), &params).ok()["id"].as_u64().expect("id")
}

fn setup() -> (TestServer, Creds, Creds) {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let ada = server.api().create_user(&owner, "ada@example.com", "Ada");
    server.api().subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    (server, owner, ada)
}

#[test]
fn a_waiting_poll_returns_when_another_user_sends() {
    let (server, owner, ada) = setup();
    let (queue_id, state) =
        register(&server, &ada, &[("event_types", r#"["message"]"#), ("apply_markdown", "true")]);
    assert_eq!(state["last_event_id"], -1);
    assert!(state["max_message_id"].is_i64(), "{state}");
    assert_eq!(events(&server, &ada, &queue_id, -1, true), Vec::<Value>::new());

    let waiting = {
        let (base_url, ada, queue_id) = (server.base_url.clone(), ada.clone(), queue_id.clone());
        thread::spawn(move || {
            let api = confab_tests::Api::new(&base_url);
            api.get("/events", Some(&ada), &[("queue_id", queue_id.as_str()), ("last_event_id", "-1")]).ok()
        })
    };
    // The owner sends only once Ada's poll is parked, or the event is simply queued: both
    // must answer the poll, so the test does not depend on which comes first.
    let id = send(&server, &owner, "hello **Ada**");
    let body = waiting.join().expect("the poll answers");
    let got = body["events"].as_array().expect("events");
    assert_eq!(got.len(), 1, "{body}");
    assert_eq!(got[0]["type"], "message");
    assert_eq!(got[0]["id"], 0);
    assert_eq!(got[0]["message"]["id"], id);
    assert_eq!(got[0]["message"]["content"], "<p>hello <strong>Ada</strong></p>");
    assert_eq!(got[0]["flags"], json!([]));

    // Acknowledged events are gone; the sender's own message reaches their own queue.
    assert_eq!(events(&server, &ada, &queue_id, 0, true), Vec::<Value>::new());
    let (owner_queue, _) = register(&server, &owner, &[("event_types", r#"["message"]"#)]);
    send(&server, &owner, "again");
    let own = events(&server, &owner, &owner_queue, -1, true);
    assert_eq!(own[0]["message"]["content"], "again", "apply_markdown defaults to false");
    // Sent from an API client, so not marked read for its sender (spec 2.13).
    assert_eq!(own[0]["flags"], json!([]));
}

#[test]
fn unknown_and_deleted_queues_are_bad_event_queue_ids() {
    let (server, _, ada) = setup();
    let api = server.api();
    let missing = api
        .get("/events", Some(&ada), &[("queue_id", "nope"), ("dont_block", "true")])
        .error(400, "BAD_EVENT_QUEUE_ID");
    assert_eq!(
        missing,
        json!({"result": "error", "code": "BAD_EVENT_QUEUE_ID", "msg": "Bad event queue id: nope", "queue_id": "nope"})
    );

    let (queue_id, _) = register(&server, &ada, &[]);
    api.delete("/events", Some(&ada), &[("queue_id", queue_id.as_str())]).ok();
    let gone = api.get("/events", Some(&ada), &[("queue_id", queue_id.as_str()), ("dont_block", "true")]);
    assert_eq!(gone.error(400, "BAD_EVENT_QUEUE_ID")["msg"], format!("Bad event queue id: {queue_id}"));
    api.delete("/events", Some(&ada), &[("queue_id", queue_id.as_str())]).error(400, "BAD_EVENT_QUEUE_ID");
}

#[test]
fn a_queue_is_only_its_owners() {
    let (server, owner, ada) = setup();
    let (queue_id, _) = register(&server, &ada, &[]);
    let api = server.api();
    api.get("/events", Some(&owner), &[("queue_id", queue_id.as_str()), ("dont_block", "true")])
        .error(400, "BAD_EVENT_QUEUE_ID");
    api.delete("/events", Some(&owner), &[("queue_id", queue_id.as_str())]).error(400, "BAD_EVENT_QUEUE_ID");
    api.get("/events", None, &[("queue_id", queue_id.as_str())]).error(401, "UNAUTHORIZED");
}

#[test]
fn get_events_without_a_queue_registers_one() {
    let (server, _, ada) = setup();
    let body = server
        .api()
        .get("/events", Some(&ada), &[("dont_block", "true"), ("event_types", r#"["message"]"#)])
        .ok();
    assert_eq!(body["events"], json!([]));
    let queue_id = body["queue_id"].as_str().expect("a new queue");
    assert_eq!(events(&server, &ada, queue_id, -1, true), Vec::<Value>::new());
}

#[test]
fn event_types_filter_what_a_queue_gets() {
    let (server, owner, ada) = setup();
    let (reactions_only, _) = register(&server, &ada, &[("event_types", r#"["reaction"]"#)]);
    let (everything, _) = register(&server, &ada, &[]);
    let id = send(&server, &owner, "react to me");
    server.api().post(&format!("/messages/{id}/reactions"), Some(&owner), &[("emoji_name", "tada")]).ok();

    let got = events(&server, &ada, &reactions_only, -1, true);
    assert_eq!(got.len(), 1, "{got:?}");
    let reaction = &got[0];
    assert_eq!(reaction["type"], "reaction");
    assert_eq!(reaction["op"], "add");
    assert_eq!(reaction["message_id"], id);
    assert_eq!(reaction["emoji_name"], "tada");
    assert_eq!(reaction["emoji_code"], "1f389");
    assert_eq!(reaction["user"]["email"], "owner@confab.localhost");
    let all = events(&server, &ada, &everything, -1, true);
    let types: Vec<&str> = all.iter().map(|e| e["type"].as_str().unwrap_or_default()).collect();
    // The new organization's #general had no messages: its first one also updates the
    // channel's `first_message_id` (it is `is_recently_active` from the start).
    assert_eq!(types, vec!["message", "stream", "reaction"]);
}

#[test]
fn queues_survive_a_graceful_restart_but_not_a_crash() {
    let (mut server, owner, ada) = setup();
    let (queue_id, _) = register(&server, &ada, &[("event_types", r#"["message", "restart"]"#)]);
    send(&server, &owner, "before the restart");
    server.terminate();
    let server = server.start_again();

    let got = events(&server, &ada, &queue_id, -1, true);
    let types: Vec<&str> = got.iter().map(|e| e["type"].as_str().unwrap_or_default()).collect();
    assert_eq!(types, vec!["message", "restart"], "{got:?}");
    assert_eq!(got[0]["message"]["content"], "before the restart");
    let last = got[1]["id"].as_i64().expect("id");
    send(&server, &owner, "after the restart");
    let got = events(&server, &ada, &queue_id, last, true);
    assert_eq!(got[0]["message"]["content"], "after the restart");

    let server = server.restart();
    let lost =
        server.api().get("/events", Some(&ada), &[("queue_id", queue_id.as_str()), ("dont_block", "true")]);
    lost.error(400, "BAD_EVENT_QUEUE_ID");
}

#[test]
fn register_checks_its_parameters() {
    let (server, _, ada) = setup();
    let api = server.api();
    let bad_caps =
        api.post("/register", Some(&ada), &[("client_capabilities", r#"{"bulk_message_deletion": 1}"#)]);
    assert_eq!(
        bad_caps.error(400, "BAD_REQUEST")["msg"],
        "client_capabilities[\"bulk_message_deletion\"] is not a boolean"
    );
    api.post("/register", Some(&ada), &[("narrow", r#"[["stream"]]"#)]).error(400, "BAD_REQUEST");
    api.post("/register", Some(&ada), &[("event_types", "message")]).error(400, "BAD_REQUEST");
    // Without credentials, an organization that has not opened itself to spectators answers
    // as for missing credentials, whatever the parameters.
    api.post("/register", None, &[("client_gravatar", "true")]).error(401, "UNAUTHORIZED");
    api.post("/register", None, &[]).error(401, "UNAUTHORIZED");
}

#[test]
fn spectators_register_for_what_is_public() {
    let (server, owner, _ada) = setup();
    let api = server.api();
    api.patch("/realm", Some(&owner), &[("enable_spectator_access", "true")]).ok();
    api.patch("/realm/user_settings_defaults", Some(&owner), &[("emojiset", "text")]).ok();

    let refused = |params: &[(&str, &str)]| {
        api.post("/register", None, params).error(400, "BAD_REQUEST")["msg"].clone()
    };
    assert_eq!(
        refused(&[("client_gravatar", "true")]),
        "Invalid 'client_gravatar' parameter for anonymous request"
    );
    assert_eq!(
        refused(&[("client_autoavatar", "true")]),
        "Invalid 'client_gravatar' parameter for anonymous request"
    );
    assert_eq!(
        refused(&[("include_subscribers", "true")]),
        "Invalid 'include_subscribers' parameter for anonymous request"
    );

    let state = api.post("/register", None, &[]).ok();
    assert_eq!(state["queue_id"], Value::Null);
    assert_eq!(state["realm_users"], json!([]));
    assert_eq!(state["realm_user_groups"], json!([]));
    assert_eq!(state["presences"], json!({}));
    assert_eq!(state["subscriptions"], json!([]));
    assert_eq!(state["user_settings"]["emojiset"], "text", "the organization's defaults");
    assert!(state.get("user_id").is_none() && state.get("email").is_none(), "no person: {state}");
    assert_eq!(state["realm_enable_spectator_access"], true);
    assert!(state["zulip_feature_level"].is_u64());
}

/// A client that vanishes mid-poll (its connection closed, as when a laptop's network goes)
/// leaves an idle queue, which expires a timeout after the disconnect, as in Zulip; the
/// abandoned poll does not keep it alive until the next heartbeat.
#[test]
fn a_queue_whose_waiting_client_left_expires_after_the_timeout() {
    use std::io::Write as _;
    use std::time::Duration;

    let server =
        TestServer::start_with(env!("CARGO_BIN_EXE_confab-under-test"), &["--event-queue-timeout-secs", "1"]);
    let owner = server.owner();
    let (queue_id, _) = register(&server, &owner, &[]);
    let address = server.base_url.trim_start_matches("http://");
    let token = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        format!("{}:{}", owner.email, owner.api_key),
    );
    let mut poll = std::net::TcpStream::connect(address).expect("connects");
    write!(
        poll,
        "GET /api/v1/events?queue_id={queue_id}&last_event_id=-1 HTTP/1.1\r\nHost: {address}\r\n\
         Authorization: Basic {token}\r\n\r\n"
    )
    .expect("the poll is sent");
    // The poll waits (nothing happens for 45 seconds); then its client goes away.
    thread::sleep(Duration::from_millis(300));
    drop(poll);
    thread::sleep(Duration::from_millis(1_800));
    let params = [("queue_id", queue_id.as_str()), ("dont_block", "true")];
    let refused = server.api().get("/events", Some(&owner), &params).error(400, "BAD_EVENT_QUEUE_ID");
    assert_eq!(refused["queue_id"], queue_id.as_str());
}

/// A subscriber who joined after a message was sent holds no copy of it, yet may show it from
/// the channel's history: edits reach them flagged `read`, and deletions reach them, as
/// Zulip's `do_update_message` and `do_delete_messages` tell the channel's subscribers.
#[test]
fn edits_and_deletions_reach_subscribers_without_a_copy() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let id = send(&server, &owner, "before Ada came");
    let ada = server.api().create_user(&owner, "ada@example.com", "Ada");
    server.api().subscribe(&owner, &["general"], &["ada@example.com"]);
    let (queue_id, _) =
        register(&server, &ada, &[("event_types", r#"["update_message", "delete_message"]"#)]);

    let path = format!("/messages/{id}");
    server.api().patch(&path, Some(&owner), &[("content", "edited")]).ok();
    server.api().delete(&path, Some(&owner), &[]).ok();

    let events = events(&server, &ada, &queue_id, -1, true);
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(kinds, ["update_message", "delete_message"]);
    assert_eq!(events[0]["flags"], json!(["read"]));
    assert_eq!(events[0]["rendered_content"], "<p>edited</p>");
    // Without the bulk_message_deletion capability, one event per message.
    assert_eq!(events[1]["message_id"], json!(id));
}
