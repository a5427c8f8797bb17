//! A user's own settings (`PATCH /settings`): checked by type and choice, kept across
//! restarts, shown by register (in `user_settings`, and at top level for older clients), and
//! told to the user's clients in the modern and the legacy event forms.

use confab_tests::TestServer;
use serde_json::{Value, json};

#[test]
fn settings_are_checked_saved_and_announced() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let modern = api
        .post(
            "/register",
            Some(&owner),
            &[
                ("event_types", r#"["user_settings", "update_display_settings"]"#),
                ("client_capabilities", r#"{"user_settings_object": true}"#),
            ],
        )
        .ok();
    let legacy = api
        .post(
            "/register",
            Some(&owner),
            &[("event_types", r#"["user_settings", "update_display_settings"]"#)],
        )
        .ok();

    api.patch("/settings", Some(&owner), &[("twenty_four_hour_time", "true"), ("emojiset", "twitter")]).ok();
    let refused = api.patch("/settings", Some(&owner), &[("emojiset", "comic")]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Invalid emojiset");
    api.patch("/settings", Some(&owner), &[("color_scheme", "9")]).error(400, "BAD_REQUEST");
    api.patch("/settings", Some(&owner), &[("enter_sends", "yes")]).error(400, "BAD_REQUEST");
    let unknown = api.patch("/settings", Some(&owner), &[("favourite_colour", "blue")]).ok();
    assert_eq!(unknown["ignored_parameters_unsupported"], json!(["favourite_colour"]));

    let server = server.start_again_after_terminate();
    let api = server.api();
    let state = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["user_settings"]"#)]).ok();
    assert_eq!(state["user_settings"]["twenty_four_hour_time"], true);
    assert_eq!(state["user_settings"]["emojiset"], "twitter");
    assert_eq!(state["twenty_four_hour_time"], true, "legacy clients read it at top level");

    let events = |queue: &Value| -> Vec<Value> {
        let got = api.queued(&owner, queue);
        got["events"]
            .as_array()
            .expect("events")
            .iter()
            .map(|e| json!([e["type"], e["property"].as_str().or(e["setting_name"].as_str())]))
            .collect()
    };
    assert_eq!(
        events(&modern),
        vec![json!(["user_settings", "emojiset"]), json!(["user_settings", "twenty_four_hour_time"])]
    );
    assert_eq!(
        events(&legacy),
        vec![
            json!(["user_settings", "emojiset"]),
            json!(["update_display_settings", "emojiset"]),
            json!(["user_settings", "twenty_four_hour_time"]),
            json!(["update_display_settings", "twenty_four_hour_time"]),
        ]
    );
}

#[test]
fn the_name_and_time_zone_change_the_user_record() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    api.patch("/settings", Some(&owner), &[("full_name", "Grace Hopper"), ("timezone", "America/New_York")])
        .ok();
    let me = api.get("/users/me", Some(&owner), &[]).ok();
    assert_eq!(me["full_name"], "Grace Hopper");
    assert_eq!(me["timezone"], "America/New_York");
    api.patch("/settings", Some(&owner), &[("full_name", "")]).error(400, "BAD_REQUEST");
    api.patch("/settings", Some(&owner), &[("timezone", "Mars; rm -rf")]).error(400, "BAD_REQUEST");
}

#[test]
fn time_zones_are_iana_names_stored_as_their_zone_and_shown_to_everyone() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].clone();
    let watcher = api.post("/register", Some(&owner), &[("event_types", r#"["realm_user"]"#)]).ok();
    let own = api.post("/register", Some(&ada), &[("event_types", r#"["user_settings"]"#)]).ok();

    // A link of the database is stored as the zone it stands for, as Zulip does.
    api.patch("/settings", Some(&ada), &[("timezone", "Asia/Calcutta")]).ok();
    assert_eq!(api.get("/users/me", Some(&ada), &[]).ok()["timezone"], "Asia/Kolkata");
    let events = api.queued(&owner, &watcher)["events"].clone();
    assert_eq!(
        events[0],
        json!({"id": events[0]["id"], "type": "realm_user", "op": "update",
               "person": {"email": "ada@example.com", "user_id": ada_id, "timezone": "Asia/Kolkata"}})
    );
    let events = api.queued(&ada, &own)["events"].clone();
    assert_eq!(events[0]["property"], "timezone");
    assert_eq!(events[0]["value"], "Asia/Kolkata");
    // Setting the same zone again changes nothing and tells no one.
    api.patch("/settings", Some(&ada), &[("timezone", "Asia/Kolkata")]).ok();
    assert_eq!(api.queued(&owner, &watcher)["events"].as_array().map(Vec::len), Some(1));

    for bad in ["Mars/Olympus_Mons", "", "asia/kolkata", "Asia/Kolkata "] {
        let refused = api.patch("/settings", Some(&ada), &[("timezone", bad)]).error(400, "BAD_REQUEST");
        assert_eq!(refused["msg"], "Invalid timezone", "{bad:?}");
    }
    let state = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["realm_user"]"#)]).ok();
    let shown =
        state["realm_users"].as_array().expect("users").iter().find(|u| u["user_id"] == ada_id).cloned();
    assert_eq!(shown.expect("ada")["timezone"], "Asia/Kolkata");
}
