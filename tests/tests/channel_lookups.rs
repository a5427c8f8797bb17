//! Small questions about channels: whether a user is subscribed to one
//! (`GET /users/{user_id}/subscriptions/{stream_id}`) and its email address, which a server
//! without an email gateway does not have (`GET /streams/{stream_id}/email_address`).

use confab_tests::TestServer;
use serde_json::json;

#[test]
fn anyone_may_ask_whether_a_user_is_subscribed_to_a_channel_they_can_read() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let grace = api.create_user(&owner, "grace@example.com", "Grace");
    api.subscribe(&owner, &["design"], &["ada@example.com"]);
    let secret = r#"[{"name": "secret"}]"#;
    api.post("/users/me/subscriptions", Some(&owner), &[("subscriptions", secret), ("invite_only", "true")])
        .ok();
    let id_of =
        |name: &str| api.get("/get_stream_id", Some(&owner), &[("stream", name)]).ok()["stream_id"].clone();
    let (design, secret) = (id_of("design"), id_of("secret"));
    let (ada_id, owner_id) = (api.user_id(&ada), api.user_id(&owner));

    let asks = |who, user: u64, stream: &serde_json::Value| {
        api.get(&format!("/users/{user}/subscriptions/{stream}"), Some(who), &[])
    };
    assert_eq!(asks(&grace, ada_id, &design).ok()["is_subscribed"], json!(true));
    assert_eq!(asks(&grace, owner_id, &design).ok()["is_subscribed"], json!(false));
    // A private channel Grace cannot read is, for her, no channel at all; not for the owner.
    assert_eq!(asks(&grace, owner_id, &secret).error(400, "BAD_REQUEST")["msg"], "Invalid channel ID");
    assert_eq!(asks(&owner, owner_id, &secret).ok()["is_subscribed"], json!(true));
    assert_eq!(asks(&grace, 999_999, &design).error(400, "BAD_REQUEST")["msg"], "No such user");
    asks(&grace, ada_id, &json!(999_999)).error(400, "BAD_REQUEST");
}

#[test]
fn channels_have_no_email_address_without_an_email_gateway() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let general = api.get("/get_stream_id", Some(&owner), &[("stream", "general")]).ok()["stream_id"].clone();
    let path = format!("/streams/{general}/email_address");
    let refused = api.get(&path, Some(&owner), &[]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "This server has no email gateway: channels have no email address.");
    // Zulip's access checks come first.
    let unknown = api.get("/streams/999999/email_address", Some(&owner), &[]).error(400, "BAD_REQUEST");
    assert_eq!(unknown["msg"], "Invalid channel ID");
    let no_bot = api.get(&path, Some(&owner), &[("sender_id", "999999")]).error(400, "BAD_REQUEST");
    assert_eq!(no_bot["msg"], "No such bot");
}
