//! Default channels (`POST`/`DELETE /default_streams`, `is_default_stream` when creating or
//! updating a channel): administrators choose public channels new users join; members (not
//! guests) learn the set from register's `realm_default_streams` and `default_streams` events.

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

fn setup() -> (TestServer, Creds, Creds) {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let ada = server.api().create_user(&owner, "ada@example.com", "Ada");
    (server, owner, ada)
}

fn channel(server: &TestServer, owner: &Creds, name: &str, private: bool) -> u64 {
    let none = json!([]).to_string();
    let private = private.to_string();
    let params = [("name", name), ("subscribers", none.as_str()), ("invite_only", private.as_str())];
    server.api().post("/channels/create", Some(owner), &params).ok()["id"].as_u64().expect("id")
}

fn defaults(server: &TestServer, who: &Creds) -> Value {
    let registered =
        server.api().post("/register", Some(who), &[("fetch_event_types", r#"["default_streams"]"#)]).ok();
    registered["realm_default_streams"].clone()
}

#[test]
fn an_administrator_adds_and_removes_default_channels() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let before = defaults(&server, &ada);
    let design = channel(&server, &owner, "design", false);
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["default_streams"]"#)]).ok();

    let id = design.to_string();
    api.post("/default_streams", Some(&owner), &[("stream_id", id.as_str())]).ok();
    let mut expected: Vec<u64> =
        before.as_array().expect("ids").iter().map(|v| v.as_u64().expect("id")).chain([design]).collect();
    expected.sort_unstable();
    assert_eq!(defaults(&server, &ada), json!(expected));
    let listed = api
        .get(
            "/streams",
            Some(&ada),
            &[("include_default", "true"), ("include_public", "false"), ("include_subscribed", "false")],
        )
        .ok();
    let listed: Vec<&Value> =
        listed["streams"].as_array().expect("list").iter().map(|s| &s["stream_id"]).collect();
    assert!(listed.contains(&&json!(design)), "{listed:?}");

    api.delete("/default_streams", Some(&owner), &[("stream_id", id.as_str())]).ok();
    assert_eq!(defaults(&server, &ada), before);

    let events = api.queued(&ada, &queue);
    assert_eq!(events["events"][0], json!({"id": 0, "type": "default_streams", "default_streams": expected}));
    assert_eq!(events["events"][1]["default_streams"], before);
}

#[test]
fn only_public_channels_of_the_organization_may_be_default() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let public = channel(&server, &owner, "public", false).to_string();
    // A subscribed owner has the private channel's content: only its privacy refuses it.
    let owner_id = api.get("/users/me", Some(&owner), &[]).ok()["user_id"].to_string();
    let subscribers = format!("[{owner_id}]");
    let params =
        [("name", "subscribed secret"), ("subscribers", subscribers.as_str()), ("invite_only", "true")];
    let secret = api.post("/channels/create", Some(&owner), &params).ok()["id"].to_string();

    let reply = api.post("/default_streams", Some(&owner), &[("stream_id", secret.as_str())]);
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "Private channels cannot be made default.");
    let reply = api.post("/default_streams", Some(&owner), &[("stream_id", "98765")]);
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "Invalid channel ID");
    let reply = api.post("/default_streams", Some(&ada), &[("stream_id", public.as_str())]);
    assert_eq!(reply.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");

    // A default channel cannot become private, whichever way it is asked.
    api.patch(&format!("/streams/{public}"), Some(&owner), &[("is_default_stream", "true")]).ok();
    let reply = api.patch(&format!("/streams/{public}"), Some(&owner), &[("is_private", "true")]);
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "A default channel cannot be private.");
    let reply = api.patch(&format!("/streams/{secret}"), Some(&owner), &[("is_default_stream", "true")]);
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "A default channel cannot be private.");
}

#[test]
fn guests_are_not_told_the_default_channels() {
    let (server, owner, _ada) = setup();
    let api = server.api();
    let design = channel(&server, &owner, "design", false).to_string();
    api.post("/default_streams", Some(&owner), &[("stream_id", design.as_str())]).ok();
    let guest = api.create_user(&owner, "guest@example.com", "Guest");
    let guest_id = api.get("/users/me", Some(&guest), &[]).ok()["user_id"].to_string();
    api.patch(&format!("/users/{guest_id}"), Some(&owner), &[("role", "600")]).ok();
    assert_eq!(defaults(&server, &guest), json!([]));
}

#[test]
fn channels_made_while_subscribing_can_be_default() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let wanted = json!([{"name": "welcome"}]).to_string();
    let params = [("subscriptions", wanted.as_str()), ("is_default_stream", "true")];
    let reply = api.post("/users/me/subscriptions", Some(&ada), &params);
    assert_eq!(reply.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");
    api.post("/users/me/subscriptions", Some(&owner), &params).ok();
    let id = api.get("/get_stream_id", Some(&owner), &[("stream", "welcome")]).ok()["stream_id"].clone();
    assert!(defaults(&server, &ada).as_array().expect("ids").contains(&id));
}
