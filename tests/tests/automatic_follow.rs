//! Topics users come to follow or unmute by taking part in them, as Zulip's settings
//! `automatically_follow_topics_policy`, `automatically_unmute_topics_in_muted_streams_policy`
//! and `automatically_follow_topics_where_mentioned` say: the send response's
//! `automatic_new_visibility_policy`, the `user_topics` register shows, the `user_topic` events.

use confab_tests::{Api, Creds, TestServer};
use serde_json::{Value, json};

fn send(api: &Api, who: &Creds, topic: &str, content: &str) -> Value {
    let params = [("type", "stream"), ("to", "general"), ("topic", topic), ("content", content)];
    api.post("/messages", Some(who), &params).ok()
}

/// The topics of `#general` and their policies, as register shows them to `who`.
fn user_topics(api: &Api, who: &Creds) -> Vec<(Value, Value)> {
    let state = api.post("/register", Some(who), &[("fetch_event_types", r#"["user_topic"]"#)]).ok();
    state["user_topics"]
        .as_array()
        .expect("user_topics")
        .iter()
        .map(|t| (t["topic_name"].clone(), t["visibility_policy"].clone()))
        .collect()
}

/// Each queued event as (type, topic, policy); messages as ("message", subject, null).
fn queued(api: &Api, who: &Creds, queue: &Value) -> Vec<(Value, Value, Value)> {
    let events = api.queued(who, queue);
    events["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| match e["type"].as_str() {
            Some("message") => (e["type"].clone(), e["message"]["subject"].clone(), Value::Null),
            _ => (e["type"].clone(), e["topic_name"].clone(), e["visibility_policy"].clone()),
        })
        .collect()
}

fn event(kind: &str, topic: &str, policy: Value) -> (Value, Value, Value) {
    (json!(kind), json!(topic), policy)
}

#[test]
fn starting_sending_and_being_mentioned_follow_or_unmute_topics() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["user_topic", "message"]"#)]).ok();

    // Ada starts a topic: she follows it (Zulip's default), and the response says so.
    assert_eq!(send(&api, &ada, "plans", "lunch?")["automatic_new_visibility_policy"], 3);
    // Another message changes nothing, and the response has no such field.
    let again = send(&api, &ada, "plans", "anyone?");
    assert!(again.get("automatic_new_visibility_policy").is_none(), "{again}");

    // In a channel she muted, sending to a topic unmutes it (Zulip's default).
    let general = api.get("/get_stream_id", Some(&ada), &[("stream", "general")]).ok()["stream_id"].clone();
    let mute = json!([{"stream_id": general, "property": "is_muted", "value": true}]).to_string();
    api.post("/users/me/subscriptions/properties", Some(&ada), &[("subscription_data", mute.as_str())]).ok();
    send(&api, &owner, "standup", "status?");
    assert_eq!(send(&api, &ada, "standup", "done")["automatic_new_visibility_policy"], 2);

    // A mention follows the topic for the one mentioned; the owner's response tells only of
    // the owner's own policy (he started the topic).
    assert_eq!(send(&api, &owner, "design", "@**Ada** blue?")["automatic_new_visibility_policy"], 3);

    assert_eq!(
        user_topics(&api, &ada),
        [(json!("plans"), json!(3)), (json!("standup"), json!(2)), (json!("design"), json!(3))]
    );
    assert_eq!(
        queued(&api, &ada, &queue),
        [
            event("user_topic", "plans", json!(3)),
            event("message", "plans", Value::Null),
            event("message", "plans", Value::Null),
            event("message", "standup", Value::Null),
            event("user_topic", "standup", json!(2)),
            event("message", "standup", Value::Null),
            event("user_topic", "design", json!(3)),
            event("message", "design", Value::Null),
        ],
        "each change comes before its message"
    );

    // With the settings at "never", nothing changes.
    let never = [
        ("automatically_follow_topics_policy", "4"),
        ("automatically_unmute_topics_in_muted_streams_policy", "4"),
        ("automatically_follow_topics_where_mentioned", "false"),
    ];
    api.patch("/settings", Some(&ada), &never).ok();
    let quiet = send(&api, &ada, "later", "a new topic");
    assert!(quiet.get("automatic_new_visibility_policy").is_none(), "{quiet}");
    send(&api, &owner, "later", "@**Ada** and a mention");
    assert_eq!(user_topics(&api, &ada).len(), 3);
}

#[test]
fn reacting_follows_a_topic_for_those_who_follow_what_they_take_part_in() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    let id = send(&api, &owner, "plans", "lunch?")["id"].as_u64().expect("id");
    let react = || api.post(&format!("/messages/{id}/reactions"), Some(&ada), &[("emoji_name", "octopus")]);

    // With Zulip's defaults a reaction is no reason to follow.
    react().ok();
    assert_eq!(user_topics(&api, &ada), []);
    api.delete(&format!("/messages/{id}/reactions"), Some(&ada), &[("emoji_name", "octopus")]).ok();

    api.patch("/settings", Some(&ada), &[("automatically_follow_topics_policy", "1")]).ok();
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["user_topic", "reaction"]"#)]).ok();
    react().ok();
    assert_eq!(user_topics(&api, &ada), [(json!("plans"), json!(3))]);
    let kinds: Vec<Value> = api.queued(&ada, &queue)["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["type"].clone())
        .collect();
    assert_eq!(kinds, [json!("user_topic"), json!("reaction")]);
}
