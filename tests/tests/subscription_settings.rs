//! A user's own channel settings (spec 4.3): muting (with the legacy `in_home_view`), pinning,
//! colors and notification settings, each change told to the user's clients, and nothing
//! changed when any part of a request is refused.

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

fn setup() -> (TestServer, Creds, u64, u64) {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    api.subscribe(&owner, &["general", "random"], &["owner@confab.localhost"]);
    let id =
        |name: &str| api.get("/get_stream_id", Some(&owner), &[("stream", name)]).ok()["stream_id"].as_u64();
    let (general, random) = (id("general").expect("id"), id("random").expect("id"));
    (server, owner, general, random)
}

fn update(server: &TestServer, who: &Creds, data: Value) -> confab_tests::Reply {
    let data = data.to_string();
    server.api().post(
        "/users/me/subscriptions/properties",
        Some(who),
        &[("subscription_data", data.as_str())],
    )
}

fn subscription(server: &TestServer, who: &Creds, stream_id: u64) -> Value {
    let subs = server.api().get("/users/me/subscriptions", Some(who), &[]).ok();
    subs["subscriptions"]
        .as_array()
        .expect("list")
        .iter()
        .find(|s| s["stream_id"] == stream_id)
        .cloned()
        .expect("subscribed")
}

#[test]
fn muting_pinning_and_colors_are_saved_and_announced() {
    let (server, owner, general, random) = setup();
    let api = server.api();
    let queue = api.post("/register", Some(&owner), &[("event_types", r#"["subscription"]"#)]).ok();
    let queue_id = queue["queue_id"].as_str().expect("queue");

    update(
        &server,
        &owner,
        json!([
            {"stream_id": general, "property": "in_home_view", "value": false},
            {"stream_id": random, "property": "pin_to_top", "value": true},
            {"stream_id": random, "property": "color", "value": "#f00f00"},
            {"stream_id": random, "property": "desktop_notifications", "value": true},
        ]),
    )
    .ok();
    let muted = subscription(&server, &owner, general);
    assert_eq!((muted["is_muted"].clone(), muted["in_home_view"].clone()), (json!(true), json!(false)));
    let pinned = subscription(&server, &owner, random);
    assert_eq!(pinned["pin_to_top"], true);
    assert_eq!(pinned["color"], "#f00f00");
    assert_eq!(pinned["desktop_notifications"], true);

    let events = api.get("/events", Some(&owner), &[("queue_id", queue_id), ("dont_block", "true")]).ok();
    let seen: Vec<(Value, Value, Value)> = events["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| (e["stream_id"].clone(), e["property"].clone(), e["value"].clone()))
        .collect();
    assert_eq!(
        seen,
        vec![
            (json!(general), json!("is_muted"), json!(true)),
            (json!(general), json!("in_home_view"), json!(false)),
            (json!(random), json!("pin_to_top"), json!(true)),
            (json!(random), json!("color"), json!("#f00f00")),
            (json!(random), json!("desktop_notifications"), json!(true)),
        ]
    );
}

#[test]
fn a_refused_change_changes_nothing() {
    let (server, owner, general, _) = setup();
    let api = server.api();
    let cases = [
        (
            json!([{"stream_id": general, "property": "is_muted", "value": "yes"}]),
            "is_muted is not a boolean",
        ),
        (
            json!([{"stream_id": general, "property": "color", "value": "red"}]),
            "color is not a valid hex color code",
        ),
        (
            json!([{"stream_id": general, "property": "volume", "value": 11}]),
            "Unknown subscription property: volume",
        ),
        (json!([{"stream_id": 999, "property": "pin_to_top", "value": true}]), "Invalid channel ID"),
    ];
    for (data, msg) in cases {
        assert_eq!(update(&server, &owner, data).error(400, "BAD_REQUEST")["msg"], msg);
    }
    api.delete("/users/me/subscriptions", Some(&owner), &[("subscriptions", r#"["random"]"#)]).ok();
    let random = api.get("/get_stream_id", Some(&owner), &[("stream", "random")]).ok()["stream_id"].clone();
    let both = json!([
        {"stream_id": general, "property": "pin_to_top", "value": true},
        {"stream_id": random, "property": "pin_to_top", "value": true},
    ]);
    let refused = update(&server, &owner, both).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], format!("Not subscribed to channel ID {random}"));
    assert_eq!(subscription(&server, &owner, general)["pin_to_top"], false, "the first change was not made");
}

#[test]
fn clients_that_cannot_read_null_see_unset_settings_as_the_users_own() {
    let (server, owner, general, _) = setup();
    let api = server.api();
    let without_null = [
        ("event_types", r#"["subscription"]"#),
        ("client_capabilities", r#"{"notification_settings_null": false}"#),
    ];
    let with_null = [
        ("event_types", r#"["subscription"]"#),
        ("client_capabilities", r#"{"notification_settings_null": true}"#),
    ];
    let shown = |state: &Value| -> Value {
        let sub = state["subscriptions"]
            .as_array()
            .expect("subscriptions")
            .iter()
            .find(|s| s["stream_id"] == general)
            .cloned()
            .expect("general");
        json!([sub["desktop_notifications"], sub["push_notifications"], sub["wildcard_mentions_notify"]])
    };
    assert_eq!(shown(&api.post("/register", Some(&owner), &without_null).ok()), json!([false, false, null]));

    api.patch("/settings", Some(&owner), &[("enable_stream_push_notifications", "true")]).ok();
    let old = api.post("/register", Some(&owner), &without_null).ok();
    assert_eq!(shown(&old), json!([false, true, null]), "wildcard_mentions_notify stays null, as in Zulip");
    assert_eq!(shown(&api.post("/register", Some(&owner), &with_null).ok()), json!([null, null, null]));

    // A new subscription's event reads the same way for such a client.
    api.subscribe(&owner, &["fresh"], &["owner@confab.localhost"]);
    let events = api.queued(&owner, &old)["events"].clone();
    let added =
        events.as_array().expect("events").iter().find(|e| e["op"] == "add").cloned().expect("an add event");
    assert_eq!(added["subscriptions"][0]["push_notifications"], true, "{added}");
    assert_eq!(added["subscriptions"][0]["desktop_notifications"], false, "{added}");
    assert!(added.get("inherited_notifications").is_none(), "{added}");
}
