//! The organization's settings (`PATCH /realm`): its group settings decide who may create
//! groups and channels, its topics policy applies to channels that inherit it, and clients
//! learn of changes through register and `realm` events.

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

fn group_id(server: &TestServer, who: &Creds, name: &str) -> Value {
    let groups = server.api().get("/user_groups", Some(who), &[]).ok();
    groups["user_groups"].as_array().expect("list").iter().find(|g| g["name"] == name).expect("group")["id"]
        .clone()
}

#[test]
fn group_settings_decide_who_may_create() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["realm"]"#)]).ok();
    let admins = group_id(&server, &owner, "role:administrators");
    let members = group_id(&server, &owner, "role:members");

    let stale = json!({"new": admins, "old": admins}).to_string();
    api.patch("/realm", Some(&owner), &[("can_create_groups", stale.as_str())])
        .error(400, "EXPECTATION_MISMATCH");
    let change = json!({"new": admins, "old": members}).to_string();
    api.patch("/realm", Some(&owner), &[("can_create_groups", change.as_str())]).ok();
    let params = [("name", "support"), ("description", ""), ("members", "[]")];
    assert_eq!(
        api.post("/user_groups/create", Some(&ada), &params).error(400, "BAD_REQUEST")["msg"],
        "Insufficient permission"
    );
    api.post("/user_groups/create", Some(&owner), &params).ok();

    let public = json!({"new": admins}).to_string();
    api.patch("/realm", Some(&owner), &[("can_create_public_channel_group", public.as_str())]).ok();
    let create = [("name", "design"), ("subscribers", "[]")];
    api.post("/channels/create", Some(&ada), &create).error(400, "BAD_REQUEST");
    api.post(
        "/channels/create",
        Some(&ada),
        &[("name", "design"), ("subscribers", "[]"), ("invite_only", "true")],
    )
    .ok();

    let state = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(state["realm_can_create_groups"], admins);
    assert_eq!(state["realm_can_create_private_channel_group"], members);
    let events = api.queued(&ada, &queue);
    assert_eq!(events["events"][0]["data"], json!({"can_create_groups": admins}));
    assert_eq!(events["events"][0]["op"], "update_dict");
}

#[test]
fn the_topics_policy_applies_to_channels_that_inherit_it() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    api.subscribe(&owner, &["general"], &["owner@confab.localhost"]);
    api.patch("/realm", Some(&owner), &[("topics_policy", "disable_empty_topic")]).ok();
    let params = [("type", "stream"), ("to", "general"), ("topic", ""), ("content", "hi")];
    let refused = api.post("/messages", Some(&owner), &params).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Sending messages to the general chat is not allowed in this channel.");
    let state = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(state["realm_topics_policy"], "disable_empty_topic");
    assert_eq!(state["realm_mandatory_topics"], true);
    api.patch("/realm", Some(&owner), &[("topics_policy", "sometimes")]).error(400, "BAD_REQUEST");
}

#[test]
fn message_permissions_follow_the_group_settings() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    let send = |who: &Creds, topic: &str| {
        let params = [("type", "stream"), ("to", "general"), ("topic", topic), ("content", "hi")];
        api.post("/messages", Some(who), &params).ok()["id"].as_u64().expect("id")
    };
    let theirs = send(&owner, "plans");
    api.delete(&format!("/messages/{theirs}"), Some(&ada), &[]).error(400, "BAD_REQUEST");
    let members = json!({"new": group_id(&server, &owner, "role:members")}).to_string();
    api.patch("/realm", Some(&owner), &[("can_delete_any_message_group", members.as_str())]).ok();
    api.delete(&format!("/messages/{theirs}"), Some(&ada), &[]).ok();

    let admins = json!({"new": group_id(&server, &owner, "role:administrators")}).to_string();
    api.patch("/realm", Some(&owner), &[("can_resolve_topics_group", admins.as_str())]).ok();
    let mine = send(&ada, "question");
    let resolve = [("topic", "✔ question"), ("propagate_mode", "change_all")];
    let refused = api.patch(&format!("/messages/{mine}"), Some(&ada), &resolve).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "You don't have permission to resolve topics");
    api.patch(&format!("/messages/{mine}"), Some(&owner), &resolve).ok();
}
