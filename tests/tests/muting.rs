//! Muting users and topics: a muted user's messages arrive read (and what they sent before
//! becomes read); topic preferences (muted, unmuted, followed) with `user_topic` events and the
//! legacy `muted_topics` list and endpoint; what they decide: `in:home`, `is:muted`,
//! `is:followed`, the first unread message and the unread count.

use confab_tests::{Api, Creds, TestServer};
use serde_json::{Value, json};

fn unread(api: &Api, who: &Creds) -> Vec<u64> {
    let params = [
        ("anchor", "newest"),
        ("num_before", "100"),
        ("num_after", "0"),
        ("narrow", r#"[["is", "unread"]]"#),
    ];
    let found = api.get("/messages", Some(who), &params).ok();
    found["messages"].as_array().expect("list").iter().map(|m| m["id"].as_u64().expect("id")).collect()
}

fn direct(api: &Api, from: &Creds, to: u64, content: &str) -> u64 {
    let to = json!([to]).to_string();
    let params = [("type", "direct"), ("to", to.as_str()), ("content", content)];
    api.post("/messages", Some(from), &params).ok()["id"].as_u64().expect("id")
}

#[test]
fn a_muted_users_messages_arrive_read() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let id = |who: &Creds| api.get("/users/me", Some(who), &[]).ok()["user_id"].as_u64().expect("id");
    let (ada_id, bob_id) = (id(&ada), id(&bob));
    let before = direct(&api, &bob, ada_id, "hi before");
    assert_eq!(unread(&api, &ada), vec![before]);
    let queue = api
        .post("/register", Some(&ada), &[("event_types", r#"["muted_users", "update_message_flags"]"#)])
        .ok();

    api.post(&format!("/users/me/muted_users/{bob_id}"), Some(&ada), &[]).ok();
    assert_eq!(unread(&api, &ada), Vec::<u64>::new(), "muting reads what they sent");
    direct(&api, &bob, ada_id, "hi after");
    assert_eq!(unread(&api, &ada), Vec::<u64>::new(), "and what they send");
    let registered = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["muted_users"]"#)]).ok();
    assert_eq!(registered["muted_users"][0]["id"], bob_id);
    let events = api.queued(&ada, &queue);
    assert_eq!(events["events"][0]["messages"], json!([before]));
    assert_eq!(events["events"][1]["type"], "muted_users");

    let refused =
        |reply: confab_tests::Reply| reply.error(400, "BAD_REQUEST")["msg"].as_str().expect("msg").to_owned();
    assert_eq!(
        refused(api.post(&format!("/users/me/muted_users/{bob_id}"), Some(&ada), &[])),
        "User already muted"
    );
    assert_eq!(
        refused(api.post(&format!("/users/me/muted_users/{ada_id}"), Some(&ada), &[])),
        "Cannot mute self"
    );
    assert_eq!(refused(api.post("/users/me/muted_users/98765", Some(&ada), &[])), "No such user");
    api.delete(&format!("/users/me/muted_users/{bob_id}"), Some(&ada), &[]).ok();
    assert_eq!(
        refused(api.delete(&format!("/users/me/muted_users/{bob_id}"), Some(&ada), &[])),
        "User is not muted"
    );
    let again = direct(&api, &bob, ada_id, "hi again");
    assert_eq!(unread(&api, &ada), vec![again]);
}

#[test]
fn topics_are_muted_followed_and_forgotten() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    api.subscribe(&owner, &["general"], &["owner@confab.localhost"]);
    let general = api.get("/get_stream_id", Some(&owner), &[("stream", "general")]).ok()["stream_id"].clone();
    let general_id = general.to_string();
    let queue =
        api.post("/register", Some(&owner), &[("event_types", r#"["user_topic", "muted_topics"]"#)]).ok();
    let legacy_queue = api.post("/register", Some(&owner), &[("event_types", r#"["muted_topics"]"#)]).ok();

    let set = |topic: &str, policy: &str| {
        api.post(
            "/user_topics",
            Some(&owner),
            &[("stream_id", general_id.as_str()), ("topic", topic), ("visibility_policy", policy)],
        )
    };
    set("Lunch", "1").ok();
    set("standup", "3").ok();
    let state = api
        .post("/register", Some(&owner), &[("fetch_event_types", r#"["user_topic", "muted_topics"]"#)])
        .ok();
    let topics: Vec<(Value, Value)> = state["user_topics"]
        .as_array()
        .expect("topics")
        .iter()
        .map(|t| (t["topic_name"].clone(), t["visibility_policy"].clone()))
        .collect();
    assert_eq!(topics, vec![(json!("Lunch"), json!(1)), (json!("standup"), json!(3))]);
    // The legacy list goes only to clients that do not follow `user_topic`, as in Zulip.
    assert!(state.get("muted_topics").is_none(), "{state}");
    let legacy = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["muted_topics"]"#)]).ok();
    assert_eq!(legacy["muted_topics"][0][0], "general");
    assert_eq!(legacy["muted_topics"][0][1], "Lunch");

    // The legacy endpoint unmutes by channel name, matching the topic case-insensitively.
    api.patch(
        "/users/me/subscriptions/muted_topics",
        Some(&owner),
        &[("stream", "general"), ("topic", "lunch"), ("op", "remove")],
    )
    .ok();
    // A client that knows `user_topic` gets only those; an older one the legacy list.
    let events = api.queued(&owner, &queue);
    let events = events["events"].as_array().expect("events");
    let kinds: Vec<(&Value, &Value)> = events.iter().map(|e| (&e["type"], &e["visibility_policy"])).collect();
    assert_eq!(
        kinds,
        [
            (&json!("user_topic"), &json!(1)),
            (&json!("user_topic"), &json!(3)),
            (&json!("user_topic"), &json!(0))
        ]
    );
    assert_eq!(events[0]["stream_id"], general);
    let legacy = api.queued(&owner, &legacy_queue);
    assert_eq!(legacy["events"][0]["muted_topics"][0][1], "Lunch");
    assert_eq!(legacy["events"][2]["muted_topics"], json!([]));

    assert_eq!(set("x", "7").error(400, "BAD_REQUEST")["msg"], "Invalid visibility_policy");
    let nowhere = [("stream_id", "98765"), ("topic", "x"), ("visibility_policy", "1")];
    assert_eq!(
        api.post("/user_topics", Some(&owner), &nowhere).error(400, "BAD_REQUEST")["msg"],
        "Invalid channel ID"
    );
}

#[test]
fn topic_preferences_decide_home_followed_and_first_unread() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    let general =
        api.get("/get_stream_id", Some(&owner), &[("stream", "general")]).ok()["stream_id"].to_string();
    api.post("/mark_all_as_read", Some(&owner), &[]).ok();
    let mut sent = Vec::new();
    for topic in ["Lunch", "standup"] {
        let params = [("type", "stream"), ("to", "general"), ("topic", topic), ("content", "news")];
        sent.push(api.post("/messages", Some(&ada), &params).ok()["id"].as_u64().expect("id"));
    }
    let [lunch, standup] = sent[..] else { unreachable!() };
    for (topic, policy) in [("lunch", "1"), ("standup", "3")] {
        let params = [("stream_id", general.as_str()), ("topic", topic), ("visibility_policy", policy)];
        api.post("/user_topics", Some(&owner), &params).ok();
    }
    let fetch = |narrow: &str, anchor: &str| -> Value {
        let params = [("anchor", anchor), ("num_before", "100"), ("num_after", "0"), ("narrow", narrow)];
        api.get("/messages", Some(&owner), &params).ok()
    };
    let ids = |reply: Value| -> Vec<u64> {
        let all = reply["messages"].as_array().expect("list").iter().map(|m| m["id"].as_u64().expect("id"));
        all.filter(|id| sent.contains(id)).collect()
    };
    assert_eq!(ids(fetch(r#"[["is", "followed"]]"#, "newest")), vec![standup]);
    assert_eq!(ids(fetch(r#"[["is", "muted"]]"#, "newest")), vec![lunch]);
    assert_eq!(ids(fetch(r#"[["in", "home"]]"#, "newest")), vec![standup]);
    // The muted topic is passed over when looking for the first unread message.
    assert_eq!(fetch("[]", "first_unread")["anchor"], standup);
    let state = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["message"]"#)]).ok();
    assert_eq!(state["unread_msgs"]["count"], 1, "{state}");
}

#[test]
fn register_names_the_empty_topic_as_each_client_can_read_it() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let general =
        api.get("/get_stream_id", Some(&owner), &[("stream", "general")]).ok()["stream_id"].to_string();
    let params = [("stream_id", general.as_str()), ("topic", ""), ("visibility_policy", "3")];
    api.post("/user_topics", Some(&owner), &params).ok();
    let topic_of = |caps: &str| {
        let state = api
            .post(
                "/register",
                Some(&owner),
                &[("fetch_event_types", r#"["user_topic"]"#), ("client_capabilities", caps)],
            )
            .ok();
        state["user_topics"][0]["topic_name"].clone()
    };
    // zulip-terminal declares no `empty_topic_name`: it reads "general chat", as its events say.
    assert_eq!(topic_of("{}"), "general chat");
    assert_eq!(topic_of(r#"{"empty_topic_name": true}"#), "");
}
