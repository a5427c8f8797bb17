//! The Notification Bot's notices about channels, in Zulip's words: a new channel's creation in
//! its "channel events" topic, renames, descriptions, access and retention changes there too,
//! announcements of new channels, and direct messages to users someone else subscribed.

use confab_tests::{Api, Creds, TestServer};
use serde_json::{Value, json};

fn user_id(api: &Api, who: &Creds) -> u64 {
    api.get("/users/me", Some(who), &[]).ok()["user_id"].as_u64().expect("id")
}

/// The Markdown of the messages in a topic, oldest first.
fn topic(api: &Api, who: &Creds, channel: &str, topic: &str) -> Vec<String> {
    let narrow = json!([["channel", channel], ["topic", topic]]).to_string();
    let params = [
        ("anchor", "newest"),
        ("num_before", "20"),
        ("num_after", "0"),
        ("narrow", narrow.as_str()),
        ("apply_markdown", "false"),
    ];
    let found = api.get("/messages", Some(who), &params).ok();
    found["messages"]
        .as_array()
        .expect("list")
        .iter()
        .map(|m| m["content"].as_str().expect("text").to_owned())
        .collect()
}

#[test]
fn a_new_channel_says_who_made_it_and_what_it_is_for() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let me = user_id(&api, &owner);
    let subscribers = json!([me]).to_string();
    let params =
        [("name", "design"), ("description", "Making *things*"), ("subscribers", subscribers.as_str())];
    api.post("/channels/create", Some(&owner), &params).ok();
    let notices = topic(&api, &owner, "design", "channel events");
    assert_eq!(
        notices,
        [format!(
            "**Public** channel created by @_**Owner|{me}**. **Description:**\n```` quote\nMaking *things*\n````"
        )]
    );

    let params = [("name", "vault"), ("subscribers", subscribers.as_str()), ("invite_only", "true")];
    api.post("/channels/create", Some(&owner), &params).ok();
    assert_eq!(
        topic(&api, &owner, "vault", "channel events"),
        [format!(
            "**Private, protected history** channel created by @_**Owner|{me}**. **Description:**\n```` quote\n*No description.*\n````"
        )]
    );
}

#[test]
fn changes_to_a_channel_are_noted_in_its_channel_events_topic() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let me = user_id(&api, &owner);
    let subscribers = json!([me]).to_string();
    let made =
        api.post("/channels/create", Some(&owner), &[("name", "ops"), ("subscribers", subscribers.as_str())]);
    let id = made.ok()["id"].as_u64().expect("id");
    let path = format!("/streams/{id}");
    api.patch(&path, Some(&owner), &[("description", "Keeping the lights on")]).ok();
    api.patch(&path, Some(&owner), &[("new_name", "operations")]).ok();
    api.patch(&path, Some(&owner), &[("is_private", "true")]).ok();
    api.patch(&path, Some(&owner), &[("message_retention_days", "30")]).ok();
    let notices = topic(&api, &owner, "operations", "channel events");
    let by = format!("@_**Owner|{me}**");
    assert_eq!(notices.len(), 5, "{notices:#?}");
    assert_eq!(
        notices[1],
        format!(
            "{by} changed the description for this channel.\n\n* **Old description:**\n```` quote\n*No description.*\n````\n* **New description:**\n```` quote\nKeeping the lights on\n````"
        )
    );
    assert_eq!(notices[2], format!("{by} renamed channel **ops** to **operations**."));
    assert_eq!(
        notices[3],
        format!(
            "{by} changed the [access permissions](/help/channel-permissions) for this channel from **Public** to **Private, shared history**."
        )
    );
    assert_eq!(
        notices[4],
        format!(
            "{by} has changed the [message retention period](/help/message-retention-policy) for this channel:\n* **Old retention period**: Forever\n* **New retention period**: 30 days\n\nMessages in this channel will now be automatically deleted 30 days after they are sent."
        )
    );
}

#[test]
fn announced_channels_appear_in_the_announcement_channel() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let me = user_id(&api, &owner);
    api.subscribe(&owner, &["general"], &["owner@confab.localhost"]);
    let general =
        api.get("/get_stream_id", Some(&owner), &[("stream", "general")]).ok()["stream_id"].to_string();
    api.patch("/realm", Some(&owner), &[("new_stream_announcements_stream_id", general.as_str())]).ok();
    let subscribers = json!([me]).to_string();
    let params = [("name", "launch"), ("subscribers", subscribers.as_str()), ("announce", "true")];
    api.post("/channels/create", Some(&owner), &params).ok();
    assert_eq!(
        topic(&api, &owner, "general", "new channels"),
        [format!("@_**Owner|{me}** created a new channel #**launch**.")]
    );
}

#[test]
fn users_subscribed_by_someone_else_are_told() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let me = user_id(&api, &owner);
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let none = json!([]).to_string();
    for name in ["alpha", "beta"] {
        api.post("/channels/create", Some(&owner), &[("name", name), ("subscribers", none.as_str())]).ok();
    }
    let wanted = json!([{"name": "alpha"}, {"name": "beta"}]).to_string();
    let principals = json!(["ada@example.com"]).to_string();
    api.post(
        "/users/me/subscriptions",
        Some(&owner),
        &[("subscriptions", wanted.as_str()), ("principals", principals.as_str())],
    )
    .ok();
    let params = [
        ("anchor", "newest"),
        ("num_before", "5"),
        ("num_after", "0"),
        ("narrow", r#"[["is", "dm"]]"#),
        ("apply_markdown", "false"),
    ];
    let dms = api.get("/messages", Some(&ada), &params).ok();
    let dms: Vec<&Value> = dms["messages"].as_array().expect("list").iter().collect();
    assert_eq!(dms.len(), 1, "{dms:?}");
    assert_eq!(dms[0]["sender_full_name"], "Notification Bot");
    assert_eq!(
        dms[0]["content"],
        format!("@_**Owner|{me}** subscribed you to the following channels:\n\n* #**alpha**\n* #**beta**")
    );
}
