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
