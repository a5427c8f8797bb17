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
