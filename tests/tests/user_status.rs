//! A user's status (spec 4.7): text and emoji shown to the whole organization, `away` kept as
//! the inverse of `presence_enabled`, Zulip's error texts byte for byte.

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

#[test]
fn a_status_is_set_shown_and_cleared() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].as_u64().expect("id");
    let queue =
        api.post("/register", Some(&owner), &[("event_types", r#"["user_status", "user_settings"]"#)]).ok();

    api.post(
        "/users/me/status",
        Some(&ada),
        &[("status_text", " In a meeting "), ("emoji_name", "calendar")],
    )
    .ok();
    let status = api.get(&format!("/users/{ada_id}/status"), Some(&owner), &[]).ok()["status"].clone();
    assert_eq!(
        status,
        json!({"status_text": "In a meeting", "emoji_name": "calendar", "emoji_code": "1f4c5", "reaction_type": "unicode_emoji"})
    );
    api.post("/users/me/status", Some(&ada), &[("away", "true")]).ok();
    let registered = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["user_status"]"#)]).ok();
    assert_eq!(registered["user_status"][ada_id.to_string()]["away"], true);
    let own = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["user_settings"]"#)]).ok();
    assert_eq!(own["user_settings"]["presence_enabled"], false, "away is presence turned off");

    api.post("/users/me/status", Some(&ada), &[("status_text", ""), ("emoji_name", ""), ("away", "false")])
        .ok();
    let status = api.get(&format!("/users/{ada_id}/status"), Some(&owner), &[]).ok()["status"].clone();
    assert_eq!(status, json!({}));

    let events = api.queued(&owner, &queue);
    let events: Vec<&Value> = events["events"].as_array().expect("events").iter().collect();
    assert_eq!(
        *events[0],
        json!({"id": 0, "type": "user_status", "user_id": ada_id, "status_text": "In a meeting", "emoji_name": "calendar", "emoji_code": "1f4c5", "reaction_type": "unicode_emoji"})
    );
    assert_eq!(events[1]["away"], true);
}

#[test]
fn status_errors_are_zulips() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let refused = |params: &[(&str, &str)]| {
        api.post("/users/me/status", Some(&owner), params).error(400, "BAD_REQUEST")["msg"]
            .as_str()
            .expect("msg")
            .to_owned()
    };
    assert_eq!(refused(&[]), "Client did not pass any new values.");
    let long = "x".repeat(61);
    assert_eq!(refused(&[("status_text", long.as_str())]), "status_text is too long (limit: 60 characters)");
    // An emoji code or type alone is no new value; with one, the name is required (Zulip's
    // order, zerver/tests/test_user_status.py).
    assert_eq!(refused(&[("emoji_code", "1f4c6")]), "Client did not pass any new values.");
    assert_eq!(
        refused(&[("status_text", "In a meeting"), ("emoji_code", "1f4bb")]),
        "Client must pass emoji_name if they pass either emoji_code or reaction_type."
    );
    assert_eq!(
        refused(&[("away", "true"), ("reaction_type", "unicode_emoji")]),
        "Client must pass emoji_name if they pass either emoji_code or reaction_type."
    );
    assert_eq!(refused(&[("emoji_name", "no_such_emoji")]), "Emoji 'no_such_emoji' does not exist");
    assert_eq!(
        refused(&[("status_text", "In a meeting"), ("emoji_code", "1f4bb"), ("emoji_name", "invalid")]),
        "Emoji 'invalid' does not exist"
    );
    // A code sent with the name is used as sent, and must be the name's.
    assert_eq!(
        refused(&[("status_text", "In a meeting"), ("emoji_code", "1f4bb"), ("emoji_name", "car")]),
        "Invalid emoji name."
    );
    // So is a type: the name's code is then checked as a custom emoji.
    assert_eq!(refused(&[("emoji_name", "car"), ("reaction_type", "realm_emoji")]), "Invalid custom emoji.");
    assert_eq!(
        refused(&[("emoji_name", "octopus"), ("emoji_code", "1f4c6"), ("reaction_type", "unicode_emoji")]),
        "Invalid emoji name."
    );
    assert_eq!(
        refused(&[("emoji_name", "octopus"), ("emoji_code", "999"), ("reaction_type", "realm_emoji")]),
        "Invalid custom emoji."
    );
    api.get("/users/98765/status", Some(&owner), &[]).error(400, "BAD_REQUEST");

    // Bots have no status of their own and set none (Zulip's `human_users_only` and
    // `access_user_by_id`); a deactivated user's status is not shown.
    let made = api.post("/bots", Some(&owner), &[("full_name", "Helper"), ("short_name", "helper")]).ok();
    let host = server.base_url.trim_start_matches("http://").split(':').next().expect("host").to_owned();
    let bot = Creds {
        email: format!("helper-bot@{host}"),
        api_key: made["api_key"].as_str().expect("key").to_owned(),
    };
    let set = [("status_text", "Beep")];
    assert_eq!(
        api.post("/users/me/status", Some(&bot), &set).error(400, "BAD_REQUEST")["msg"],
        "This endpoint does not accept bot requests."
    );
    let bot_status = api.get(&format!("/users/{}/status", made["user_id"]), Some(&owner), &[]);
    assert_eq!(bot_status.error(400, "BAD_REQUEST")["msg"], "No such user");
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].clone();
    api.delete(&format!("/users/{ada_id}"), Some(&owner), &[]).ok();
    let gone = api.get(&format!("/users/{ada_id}/status"), Some(&owner), &[]);
    assert_eq!(gone.error(400, "BAD_REQUEST")["msg"], "User is deactivated");
}

#[test]
fn an_administrator_sets_someone_elses_status() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let grace = api.create_user(&owner, "grace@example.com", "Grace");
    let ada_id = api.user_id(&ada);
    let queue = api.post("/register", Some(&grace), &[("event_types", r#"["user_status"]"#)]).ok();
    let path = format!("/users/{ada_id}/status");
    api.post(&path, Some(&owner), &[("status_text", "On leave")]).ok();
    assert_eq!(api.get(&path, Some(&grace), &[]).ok()["status"], json!({"status_text": "On leave"}));
    let events: Value = api.queued(&grace, &queue)["events"].clone();
    assert_eq!(events[0]["user_id"], ada_id);
    assert_eq!(events[0]["status_text"], "On leave");
    let refused = api.post(&path, Some(&grace), &[("status_text", "Back")]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Insufficient permission");
    api.post(&path, Some(&owner), &[]).error(400, "BAD_REQUEST");
}
