//! Presence (legacy and slim answers) and typing notifications.

use confab_tests::TestServer;
use serde_json::json;

#[test]
fn presence_answers_in_the_legacy_and_slim_forms() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.post("/users/me/presence", Some(&ada), &[("status", "active"), ("new_user_input", "true")]).ok();
    let legacy = api.post("/users/me/presence", Some(&owner), &[("status", "idle")]).ok();
    assert!(legacy["server_timestamp"].is_number());
    let ada_presence = &legacy["presences"]["ada@example.com"];
    assert_eq!(ada_presence["aggregated"]["status"], "active", "{legacy}");
    assert_eq!(ada_presence["website"]["client"], "website");
    assert_eq!(ada_presence["website"]["pushable"], false);

    let slim =
        api.post("/users/me/presence", Some(&owner), &[("status", "active"), ("slim_presence", "true")]).ok();
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].to_string();
    assert!(slim["presences"][&ada_id]["active_timestamp"].is_i64(), "{slim}");
    assert!(slim["presences"][&ada_id]["idle_timestamp"].is_i64(), "{slim}");
    let ping =
        api.post("/users/me/presence", Some(&owner), &[("status", "active"), ("ping_only", "true")]).ok();
    assert!(ping.get("presences").is_none());

    let realm = api.get("/realm/presence", Some(&owner), &[]).ok();
    assert!(realm["presences"]["ada@example.com"].is_object());
    let one = api.get("/users/ada@example.com/presence", Some(&owner), &[]).ok();
    assert_eq!(one["presence"]["aggregated"]["status"], "active");
    // One user's presence leaves out what the client was and whether it takes pushes.
    let by_id = api.get(&format!("/users/{ada_id}/presence"), Some(&owner), &[]).ok();
    for entry in ["aggregated", "website"] {
        let keys: Vec<&String> = by_id["presence"][entry].as_object().expect(entry).keys().collect();
        assert_eq!(keys, ["status", "timestamp"], "{by_id}");
    }
    let bot = api.post("/bots", Some(&owner), &[("full_name", "Bot"), ("short_name", "pbot")]).ok();
    let bot_id = bot["user_id"].to_string();
    let refused = api.get(&format!("/users/{bot_id}/presence"), Some(&owner), &[]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Presence is not supported for bot users.");
    let grace = api.create_user(&owner, "grace@example.com", "Grace");
    let grace_id = api.user_id(&grace);
    let none = api.get(&format!("/users/{grace_id}/presence"), Some(&owner), &[]).error(400, "BAD_REQUEST");
    assert_eq!(none["msg"], format!("No presence data for {grace_id}"));
    let none = api.get("/users/grace@example.com/presence", Some(&owner), &[]).error(400, "BAD_REQUEST");
    assert_eq!(none["msg"], "No presence data for grace@example.com");
    api.post("/users/me/presence", Some(&owner), &[("status", "asleep")]).error(400, "BAD_REQUEST");
    api.post("/users/me/presence", Some(&owner), &[]).error(400, "REQUEST_VARIABLE_MISSING");
}

#[test]
fn typing_notifications_are_checked() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].to_string();
    // zulip-terminal sends no type: direct is the default.
    let to = format!("[{ada_id}]");
    assert_eq!(
        api.post("/typing", Some(&owner), &[("op", "start"), ("to", to.as_str())]).ok()["result"],
        json!("success")
    );
    api.post("/typing", Some(&owner), &[("op", "stop"), ("to", r#"["ada@example.com"]"#)]).ok();
    api.post("/typing", Some(&owner), &[("op", "pause"), ("to", to.as_str())]).error(400, "BAD_REQUEST");
    api.post("/typing", Some(&owner), &[("op", "start"), ("to", "[4242]")]).error(400, "BAD_REQUEST");
    api.post("/users/me/subscriptions", Some(&owner), &[("subscriptions", r#"[{"name": "general"}]"#)]).ok();
    let stream_id =
        api.get("/get_stream_id", Some(&owner), &[("stream", "general")]).ok()["stream_id"].to_string();
    api.post(
        "/typing",
        Some(&owner),
        &[("op", "start"), ("type", "stream"), ("stream_id", stream_id.as_str()), ("topic", "t")],
    )
    .ok();
    api.post(
        "/typing",
        Some(&owner),
        &[("op", "start"), ("type", "stream"), ("stream_id", "4242"), ("topic", "t")],
    )
    .error(400, "BAD_REQUEST");
}

/// The events a queue got since the last call, heartbeats aside: each call acknowledges what
/// the queue held (`last_event_id`).
fn typing_events(
    api: &confab_tests::Api,
    who: &confab_tests::Creds,
    queue: &mut serde_json::Value,
) -> Vec<serde_json::Value> {
    let queue_id = queue["queue_id"].as_str().expect("queue_id").to_owned();
    let last = queue["last_event_id"].to_string();
    let params = [("queue_id", queue_id.as_str()), ("last_event_id", last.as_str()), ("dont_block", "true")];
    let events =
        api.get("/events", Some(who), &params).ok()["events"].as_array().cloned().unwrap_or_default();
    if let Some(newest) = events.last() {
        queue["last_event_id"] = newest["id"].clone();
    }
    events.into_iter().filter(|e| e["type"] != "heartbeat").collect()
}

#[test]
fn typing_reaches_those_who_want_it_and_edits_have_their_own() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let grace = api.create_user(&owner, "grace@example.com", "Grace");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com", "grace@example.com"]);
    let (owner_id, ada_id, grace_id) = (api.user_id(&owner), api.user_id(&ada), api.user_id(&grace));
    // Ada does not want typing notices (feature level 253).
    api.patch("/settings", Some(&ada), &[("receives_typing_notifications", "false")]).ok();
    let capabilities = r#"{"stream_typing_notifications": true, "empty_topic_name": true}"#;
    let register = |who| {
        api.post(
            "/register",
            Some(who),
            &[("event_types", r#"["typing", "typing_edit_message"]"#), ("client_capabilities", capabilities)],
        )
        .ok()
    };
    let (mut owner_queue, mut ada_queue, mut grace_queue) =
        (register(&owner), register(&ada), register(&grace));

    let to = format!("[{ada_id}, {grace_id}]");
    api.post("/typing", Some(&owner), &[("op", "start"), ("to", to.as_str())]).ok();
    assert!(typing_events(&api, &ada, &mut ada_queue).is_empty());
    let heard = typing_events(&api, &grace, &mut grace_queue);
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert_eq!(heard[0]["sender"]["user_id"], owner_id);
    // As in Zulip, the typist's own clients hear of it too.
    assert_eq!(typing_events(&api, &owner, &mut owner_queue).len(), 1);

    // "(no topic)" is the empty topic, as messages store it (feature level 372).
    let general =
        api.get("/get_stream_id", Some(&owner), &[("stream", "general")]).ok()["stream_id"].to_string();
    let channel =
        [("op", "start"), ("type", "channel"), ("stream_id", general.as_str()), ("topic", "(no topic)")];
    api.post("/typing", Some(&owner), &channel).ok();
    assert_eq!(typing_events(&api, &grace, &mut grace_queue)[0]["topic"], "");
    assert!(typing_events(&api, &ada, &mut ada_queue).is_empty());
    typing_events(&api, &owner, &mut owner_queue);

    // Editing a message has its own notice, to the channel's subscribers (feature level 351).
    let sent = api
        .post(
            "/messages",
            Some(&owner),
            &[("type", "stream"), ("to", "general"), ("topic", "plans"), ("content", "draft")],
        )
        .ok()["id"]
        .as_u64()
        .expect("id");
    api.post(&format!("/messages/{sent}/typing"), Some(&owner), &[("op", "start")]).ok();
    let editing = typing_events(&api, &grace, &mut grace_queue);
    assert_eq!(
        editing,
        [json!({"type": "typing_edit_message", "op": "start", "sender_id": owner_id, "message_id": sent,
                "recipient": {"type": "channel", "channel_id": general.parse::<u64>().expect("id"), "topic": "plans"},
                "id": editing[0]["id"]})]
    );
    let refused = api
        .post(&format!("/messages/{sent}/typing"), Some(&grace), &[("op", "start")])
        .error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "You don't have permission to edit this message");
    api.post(&format!("/messages/{sent}/typing"), Some(&owner), &[("op", "pause")]).error(400, "BAD_REQUEST");
    api.post("/messages/999999/typing", Some(&owner), &[("op", "start")]).error(400, "BAD_REQUEST");

    // A typist who turned their notices off is told so.
    api.patch("/settings", Some(&grace), &[("send_private_typing_notifications", "false")]).ok();
    let to = format!("[{owner_id}]");
    let off =
        api.post("/typing", Some(&grace), &[("op", "start"), ("to", to.as_str())]).error(400, "BAD_REQUEST");
    assert_eq!(off["msg"], "User has disabled typing notifications for direct messages");
}
