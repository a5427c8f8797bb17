//! Creating channels (spec 4.4) and the channel rules that follow from their settings: who may
//! post (`can_send_message_group`), `topics_policy`, default channels and retention.

use confab_tests::{Creds, Reply, TestServer};
use serde_json::{Value, json};

/// A request's parameters.
type Params<'a> = Vec<(&'a str, &'a str)>;

fn setup() -> (TestServer, Creds, Creds, u64, u64) {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let id = |who: &Creds| api.get("/users/me", Some(who), &[]).ok()["user_id"].as_u64().expect("id");
    let (owner_id, ada_id) = (id(&owner), id(&ada));
    (server, owner, ada, owner_id, ada_id)
}

fn create(server: &TestServer, who: &Creds, params: &[(&str, &str)]) -> Reply {
    server.api().post("/channels/create", Some(who), params)
}

fn channel(server: &TestServer, who: &Creds, id: u64) -> Value {
    let streams = server.api().get("/streams", Some(who), &[]).ok();
    streams["streams"]
        .as_array()
        .expect("list")
        .iter()
        .find(|s| s["stream_id"] == id)
        .cloned()
        .expect("listed")
}

fn system_group(server: &TestServer, who: &Creds, name: &str) -> Value {
    let groups = server.api().get("/user_groups", Some(who), &[]).ok();
    groups["user_groups"].as_array().expect("list").iter().find(|g| g["name"] == name).expect("group")["id"]
        .clone()
}

fn send(server: &TestServer, who: &Creds, to: &str, topic: &str) -> Reply {
    let params = [("type", "stream"), ("to", to), ("topic", topic), ("content", "hello")];
    server.api().post("/messages", Some(who), &params)
}

#[test]
fn a_new_channel_has_its_subscribers_and_zulips_default_settings() {
    let (server, owner, ada, owner_id, ada_id) = setup();
    let api = server.api();
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["stream", "subscription"]"#)]).ok();
    let subscribers = json!([owner_id, ada_id]).to_string();
    let id = create(
        &server,
        &owner,
        &[("name", "design"), ("description", "Making *things*"), ("subscribers", subscribers.as_str())],
    )
    .ok()["id"]
        .as_u64()
        .expect("id");
    let shown = channel(&server, &ada, id);
    assert_eq!(shown["name"], "design");
    assert_eq!(shown["rendered_description"], "<p>Making <em>things</em></p>");
    assert_eq!(shown["creator_id"], owner_id);
    assert_eq!(shown["topics_policy"], "inherit");
    assert_eq!(shown["history_public_to_subscribers"], true);
    assert_eq!(
        shown["can_administer_channel_group"],
        json!({"direct_members": [owner_id], "direct_subgroups": []})
    );
    assert_eq!(shown["can_send_message_group"], system_group(&server, &ada, "role:everyone"));
    assert_eq!(shown["can_remove_subscribers_group"], system_group(&server, &ada, "role:administrators"));

    let subs = api.get("/users/me/subscriptions", Some(&ada), &[]).ok();
    assert!(subs["subscriptions"].as_array().expect("list").iter().any(|s| s["stream_id"] == id));
    let events = api.queued(&ada, &queue);
    let kinds: Vec<(Value, Value)> = events["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| (e["type"].clone(), e["op"].clone()))
        .collect();
    // The Notification Bot's creation notice is the channel's first message, which updates
    // its `first_message_id`; a new channel is `is_recently_active` from the start (level 323),
    // so that does not change.
    assert_eq!(
        kinds,
        vec![
            (json!("stream"), json!("create")),
            (json!("subscription"), json!("add")),
            (json!("stream"), json!("update")),
        ]
    );
    assert_eq!(events["events"][0]["streams"][0]["is_recently_active"], true);
    assert_eq!(events["events"][2]["property"], "first_message_id");
    assert_eq!(shown["is_recently_active"], true);
}

#[test]
fn creation_checks_every_parameter() {
    let (server, owner, ada, _, ada_id) = setup();
    let me = json!([ada_id]).to_string();
    let me = me.as_str();
    create(&server, &ada, &[("name", "design"), ("subscribers", me)]).ok();
    let cases: Vec<(Params, &str, &str)> = vec![
        (vec![("name", "Design"), ("subscribers", me)], "BAD_REQUEST", "Channel 'Design' already exists"),
        (vec![("name", "ops"), ("subscribers", "[999]")], "BAD_REQUEST", "Invalid user ID: 999"),
        (
            vec![("name", "ops"), ("subscribers", me), ("is_default_stream", "true")],
            "UNAUTHORIZED_PRINCIPAL",
            "Must be an organization administrator",
        ),
        (
            vec![("name", "ops"), ("subscribers", me), ("message_retention_days", "30")],
            "UNAUTHORIZED_PRINCIPAL",
            "Must be an organization owner",
        ),
        (
            vec![("name", "ops"), ("subscribers", me), ("topics_policy", "sometimes")],
            "BAD_REQUEST",
            "Invalid topics_policy",
        ),
        (
            vec![("name", "ops"), ("subscribers", me), ("is_web_public", "true")],
            "BAD_REQUEST",
            "Web-public channels are not enabled.",
        ),
        (vec![("name", ""), ("subscribers", me)], "BAD_REQUEST", "Channel name can't be empty."),
    ];
    for (params, code, msg) in cases {
        let refused = create(&server, &ada, &params).error(400, code);
        assert_eq!(refused["msg"], msg, "{params:?}");
    }
    let private_default =
        [("name", "ops"), ("subscribers", me), ("is_default_stream", "true"), ("invite_only", "true")];
    assert_eq!(
        create(&server, &owner, &private_default).error(400, "BAD_REQUEST")["msg"],
        "A default channel cannot be private."
    );
    create(
        &server,
        &owner,
        &[("name", "archive"), ("subscribers", "[]"), ("message_retention_days", "unlimited")],
    )
    .ok();
}

#[test]
fn channel_settings_decide_who_posts_where() {
    let (server, owner, ada, owner_id, ada_id) = setup();
    let both = json!([owner_id, ada_id]).to_string();
    let owner_only = json!({"direct_members": [owner_id], "direct_subgroups": []}).to_string();
    let announce = [
        ("name", "announce"),
        ("subscribers", both.as_str()),
        ("can_send_message_group", owner_only.as_str()),
    ];
    create(&server, &owner, &announce).ok();
    assert_eq!(
        send(&server, &ada, "announce", "news").error(400, "BAD_REQUEST")["msg"],
        "You do not have permission to post in this channel."
    );
    send(&server, &owner, "announce", "news").ok();

    create(
        &server,
        &owner,
        &[("name", "topics"), ("subscribers", both.as_str()), ("topics_policy", "disable_empty_topic")],
    )
    .ok();
    let empty = send(&server, &ada, "topics", "").error(400, "BAD_REQUEST");
    assert_eq!(empty["msg"], "Sending messages to the general chat is not allowed in this channel.");
    send(&server, &ada, "topics", "named").ok();

    create(
        &server,
        &owner,
        &[("name", "chat"), ("subscribers", both.as_str()), ("topics_policy", "empty_topic_only")],
    )
    .ok();
    assert_eq!(
        send(&server, &ada, "chat", "named").error(400, "BAD_REQUEST")["msg"],
        "Only the general chat topic is allowed in this channel."
    );
    send(&server, &ada, "chat", "").ok();
}

fn patch(server: &TestServer, who: &Creds, id: u64, params: &[(&str, &str)]) -> Reply {
    server.api().patch(&format!("/streams/{id}"), Some(who), params)
}

#[test]
fn channel_administrators_change_and_archive_channels() {
    let (server, owner, ada, owner_id, ada_id) = setup();
    let api = server.api();
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let everyone = json!([owner_id, ada_id]).to_string();
    // Ada created the channel, so she administers it; Bob does not.
    let id = create(&server, &ada, &[("name", "design"), ("subscribers", everyone.as_str())]).ok()["id"]
        .as_u64()
        .expect("id");
    let queue = api
        .post(
            "/register",
            Some(&owner),
            &[("event_types", r#"["stream"]"#), ("client_capabilities", r#"{"archived_channels": true}"#)],
        )
        .ok();
    let legacy = api.post("/register", Some(&owner), &[("event_types", r#"["stream"]"#)]).ok();

    let refused = patch(&server, &bob, id, &[("description", "mine")]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "You do not have permission to administer this channel.");
    patch(&server, &ada, id, &[("new_name", "Design team"), ("description", "We make **things**")]).ok();
    let shown = api.get(&format!("/streams/{id}"), Some(&bob), &[]).ok()["stream"].clone();
    assert_eq!(shown["name"], "Design team");
    assert_eq!(shown["rendered_description"], "<p>We make <strong>things</strong></p>");
    let members = api.get(&format!("/streams/{id}/members"), Some(&bob), &[]).ok();
    assert_eq!(members["subscribers"], json!([owner_id, ada_id]));
    assert_eq!(patch(&server, &ada, id, &[]).error(400, "BAD_REQUEST")["msg"], "No new data supplied");

    api.delete(&format!("/streams/{id}"), Some(&bob), &[]).error(400, "BAD_REQUEST");
    api.delete(&format!("/streams/{id}"), Some(&owner), &[]).ok();
    assert_eq!(api.get(&format!("/streams/{id}"), Some(&ada), &[]).ok()["stream"]["is_archived"], true);
    let refused = send(&server, &ada, "Design team", "t").error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Not authorized to send to channel 'Design team'");
    // `GET /streams` leaves archived channels out unless `exclude_archived` is false (315).
    let listed = |params: &[(&str, &str)]| -> Vec<u64> {
        api.get("/streams", Some(&owner), params).ok()["streams"]
            .as_array()
            .expect("streams")
            .iter()
            .map(|s| s["stream_id"].as_u64().expect("stream_id"))
            .collect()
    };
    assert!(!listed(&[]).contains(&id));
    assert!(!listed(&[("exclude_archived", "true")]).contains(&id));
    let with_archived = listed(&[("exclude_archived", "false")]);
    assert!(with_archived.contains(&id) && with_archived.len() == listed(&[]).len() + 1, "{with_archived:?}");

    let ops = |queue: &Value| -> Vec<(Value, Value)> {
        let got = api.queued(&owner, queue);
        got["events"]
            .as_array()
            .expect("events")
            .iter()
            .map(|e| (e["op"].clone(), e["property"].clone()))
            .collect()
    };
    assert_eq!(
        ops(&queue),
        vec![
            (json!("update"), json!("name")),
            (json!("update"), json!("description")),
            (json!("update"), json!("is_archived"))
        ]
    );
    assert_eq!(
        ops(&legacy),
        vec![
            (json!("update"), json!("name")),
            (json!("update"), json!("description")),
            (json!("delete"), Value::Null)
        ]
    );
}

#[test]
fn private_channels_are_invisible_to_outsiders() {
    let (server, owner, ada, owner_id, _) = setup();
    let only_owner = json!([owner_id]).to_string();
    let id = create(
        &server,
        &owner,
        &[("name", "secret"), ("subscribers", only_owner.as_str()), ("invite_only", "true")],
    )
    .ok()["id"]
        .as_u64()
        .expect("id");
    let api = server.api();
    assert_eq!(
        api.get(&format!("/streams/{id}"), Some(&ada), &[]).error(400, "BAD_REQUEST")["msg"],
        "Invalid channel ID"
    );
    api.get(&format!("/streams/{id}/members"), Some(&ada), &[]).error(400, "BAD_REQUEST");
    api.get("/streams/999999", Some(&ada), &[]).error(400, "BAD_REQUEST");
}

#[test]
fn new_users_join_the_default_channels() {
    let (server, owner, _, owner_id, _) = setup();
    let me = json!([owner_id]).to_string();
    create(
        &server,
        &owner,
        &[("name", "welcome"), ("subscribers", me.as_str()), ("is_default_stream", "true")],
    )
    .ok();
    create(&server, &owner, &[("name", "elsewhere"), ("subscribers", me.as_str())]).ok();
    let bob = server.api().create_user(&owner, "bob@example.com", "Bob");
    let subs = server.api().get("/users/me/subscriptions", Some(&bob), &[]).ok();
    let names: Vec<&str> =
        subs["subscriptions"].as_array().expect("list").iter().filter_map(|s| s["name"].as_str()).collect();
    // #general too: every organization starts with it as a default channel.
    assert_eq!(names, vec!["general", "welcome"]);
}

#[test]
fn web_public_channels_need_spectator_access_and_the_right_group() {
    let (server, owner, ada, owner_id, _) = setup();
    let api = server.api();
    let me = json!([owner_id]).to_string();
    let web_public = [("name", "open"), ("subscribers", me.as_str()), ("is_web_public", "true")];
    assert_eq!(
        create(&server, &owner, &web_public).error(400, "BAD_REQUEST")["msg"],
        "Web-public channels are not enabled."
    );
    api.patch("/realm", Some(&owner), &[("enable_spectator_access", "true")]).ok();
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].to_string();
    api.patch(&format!("/users/{ada_id}"), Some(&owner), &[("role", "200")]).ok();
    let hers = [("name", "hers"), ("subscribers", "[]"), ("is_web_public", "true")];
    assert_eq!(
        create(&server, &ada, &hers).error(400, "BAD_REQUEST")["msg"],
        "Insufficient permission",
        "owners only by default"
    );
    let private = [
        ("name", "closed"),
        ("subscribers", me.as_str()),
        ("is_web_public", "true"),
        ("invite_only", "true"),
    ];
    assert_eq!(create(&server, &owner, &private).error(400, "BAD_REQUEST")["msg"], "Invalid parameters");
    let id = create(&server, &owner, &web_public).ok()["id"].as_u64().expect("id");
    assert_eq!(channel(&server, &owner, id)["is_web_public"], true);

    // Spectators see it when they register.
    let spectator = api.post("/register", None, &[]).ok();
    let names: Vec<&Value> =
        spectator["streams"].as_array().expect("streams").iter().map(|s| &s["name"]).collect();
    assert_eq!(names, [&json!("open")]);

    // And read it, and nothing else, without an account.
    let said = [("type", "stream"), ("to", "open"), ("topic", "hello"), ("content", "Anyone may read this")];
    api.post("/messages", Some(&owner), &said).ok();
    api.subscribe(&owner, &["members only"], &["owner@confab.localhost"]);
    let hidden =
        [("type", "stream"), ("to", "members only"), ("topic", "hello"), ("content", "Not for spectators")];
    api.post("/messages", Some(&owner), &hidden).ok();
    let read = |narrow: &str| {
        let params = [("anchor", "newest"), ("num_before", "50"), ("num_after", "0"), ("narrow", narrow)];
        api.get("/messages", None, &params)
    };
    let seen = read(r#"[{"operator": "channels", "operand": "web-public"}]"#).ok();
    let contents: Vec<&Value> =
        seen["messages"].as_array().expect("messages").iter().map(|m| &m["content"]).collect();
    assert!(contents.contains(&&json!("<p>Anyone may read this</p>")), "{contents:?}");
    assert!(
        seen["messages"].as_array().expect("messages").iter().all(|m| m["display_recipient"] == "open"),
        "{seen}"
    );
    // Without saying `channels:web-public`, a request without credentials is refused.
    read(r#"[["channel", "open"]]"#).error(401, "UNAUTHORIZED");
    read(r#"[["channels", "web-public"], ["is", "starred"]]"#).error(401, "UNAUTHORIZED");

    let path = format!("/streams/{id}");
    assert_eq!(
        api.patch(&path, Some(&owner), &[("is_private", "true")]).error(400, "BAD_REQUEST")["msg"],
        "Invalid parameters"
    );
    api.patch(&path, Some(&owner), &[("is_web_public", "false")]).ok();
    assert_eq!(channel(&server, &owner, id)["is_web_public"], false);
}

#[test]
fn administrators_bring_archived_channels_back() {
    let (server, owner, ada, owner_id, ada_id) = setup();
    let api = server.api();
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let both = json!([owner_id, ada_id]).to_string();
    // Ada created the channel, so she administers it; Bob does not.
    let id = create(&server, &ada, &[("name", "design"), ("subscribers", both.as_str())]).ok()["id"]
        .as_u64()
        .expect("id");
    refused(patch(&server, &ada, id, &[("is_archived", "false")]), "Channel is not currently deactivated");
    api.delete(&format!("/streams/{id}"), Some(&owner), &[]).ok();
    let keeps = api
        .post(
            "/register",
            Some(&owner),
            &[
                ("event_types", r#"["stream", "subscription"]"#),
                ("client_capabilities", r#"{"archived_channels": true}"#),
            ],
        )
        .ok();
    let dropped = api.post("/register", Some(&ada), &[("event_types", r#"["stream", "subscription"]"#)]).ok();
    assert!(!dropped["subscriptions"].as_array().expect("list").iter().any(|s| s["stream_id"] == id));

    refused(
        patch(&server, &bob, id, &[("is_archived", "false")]),
        "You do not have permission to administer this channel.",
    );
    patch(&server, &ada, id, &[("is_archived", "false")]).ok();
    assert_eq!(channel(&server, &bob, id)["is_archived"], false);
    refused(patch(&server, &ada, id, &[("is_archived", "false")]), "Channel is not currently deactivated");
    send(&server, &ada, "design", "back").ok();

    // Clients that kept the channel are told it is active again; the others get it back, and
    // subscribers their subscription.
    let kept = api.queued(&owner, &keeps)["events"].clone();
    assert_eq!(
        kept,
        json!([{"id": 0, "type": "stream", "op": "update", "stream_id": id, "name": "design",
            "property": "is_archived", "value": false}])
    );
    let back = api.queued(&ada, &dropped)["events"].clone();
    let back = back.as_array().expect("events");
    assert_eq!((back[0]["type"].clone(), back[0]["op"].clone()), (json!("stream"), json!("create")));
    assert_eq!(back[0]["streams"][0]["stream_id"], id);
    assert_eq!(back[0]["streams"][0]["is_archived"], false);
    assert!(back[0].get("archived").is_none(), "the mark is not sent: {}", back[0]);
    assert_eq!((back[1]["type"].clone(), back[1]["op"].clone()), (json!("subscription"), json!("add")));
    assert_eq!(back[1]["subscriptions"][0]["subscribers"], json!([owner_id, ada_id]));
    let state = api.post("/register", Some(&ada), &[("event_types", r#"["subscription"]"#)]).ok();
    assert!(state["subscriptions"].as_array().expect("list").iter().any(|s| s["stream_id"] == id));

    // The Notification Bot says so in the channel.
    let narrow = r#"[{"operator": "channel", "operand": "design"}, {"operator": "topic", "operand": "channel events"}]"#;
    let params = [
        ("anchor", "newest"),
        ("num_before", "1"),
        ("num_after", "0"),
        ("narrow", narrow),
        ("apply_markdown", "false"),
    ];
    let notice = api.get("/messages", Some(&ada), &params).ok()["messages"][0].clone();
    assert_eq!(notice["content"], "Channel #**design** has been unarchived.");

    // A private channel nobody is subscribed to stays archived.
    let nobody = create(
        &server,
        &owner,
        &[("name", "empty"), ("subscribers", "[]"), ("invite_only", "true")],
    )
    .ok()["id"]
        .as_u64()
        .expect("id");
    api.delete(&format!("/streams/{nobody}"), Some(&owner), &[]).ok();
    refused(
        patch(&server, &owner, nobody, &[("is_archived", "false")]),
        "Channel is private and have no subscribers",
    );
}

#[test]
fn channels_count_their_subscribers_and_derive_the_old_posting_policy() {
    let (server, owner, ada, owner_id, ada_id) = setup();
    let api = server.api();
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["stream", "subscription"]"#)]).ok();
    let both = json!([owner_id, ada_id]).to_string();
    let id = create(&server, &owner, &[("name", "design"), ("subscribers", both.as_str())]).ok()["id"]
        .as_u64()
        .expect("id");
    let events = api.queued(&ada, &queue)["events"].clone();
    // As Zulip: the channel is announced before anyone joins it; subscribers learn the count.
    assert_eq!(events[0]["streams"][0]["subscriber_count"], 0);
    assert_eq!(events[1]["subscriptions"][0]["subscriber_count"], 2);
    assert_eq!(channel(&server, &ada, id)["subscriber_count"], 2);

    let shown = channel(&server, &ada, id);
    assert_eq!(
        (shown["stream_post_policy"].clone(), shown["is_announcement_only"].clone()),
        (json!(1), json!(false))
    );
    let owner_only = json!({"direct_members": [owner_id], "direct_subgroups": []}).to_string();
    let watching = api.post("/register", Some(&ada), &[("event_types", r#"["stream"]"#)]).ok();
    for (group, policy) in [
        (system_group(&server, &owner, "role:administrators").to_string(), 2),
        (system_group(&server, &owner, "role:fullmembers").to_string(), 3),
        (system_group(&server, &owner, "role:moderators").to_string(), 4),
        (system_group(&server, &owner, "role:owners").to_string(), 1),
        (system_group(&server, &owner, "role:members").to_string(), 1),
        (owner_only.clone(), 1),
    ] {
        patch(&server, &owner, id, &[("can_send_message_group", &format!(r#"{{"new": {group}}}"#))]).ok();
        let shown = channel(&server, &ada, id);
        assert_eq!(shown["stream_post_policy"], policy, "{group}");
        assert_eq!(shown["is_announcement_only"], policy == 2, "{group}");
    }
    // Each change of the derived value is announced with the setting, as Zulip does.
    let changes: Vec<(Value, Value)> = api.queued(&ada, &watching)["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| (e["property"].clone(), e["value"].clone()))
        .filter(|(property, _)| property != "can_send_message_group")
        .collect();
    assert_eq!(
        changes,
        vec![
            (json!("stream_post_policy"), json!(2)),
            (json!("is_announcement_only"), json!(true)),
            (json!("stream_post_policy"), json!(3)),
            (json!("is_announcement_only"), json!(false)),
            (json!("stream_post_policy"), json!(4)),
            (json!("is_announcement_only"), json!(false)),
            (json!("stream_post_policy"), json!(1)),
            (json!("is_announcement_only"), json!(false)),
        ]
    );
}

fn refused(reply: Reply, msg: &str) {
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], msg);
}

#[test]
fn archived_channels_stay_readable_and_keep_their_subscriptions_and_privacy_editable() {
    let (server, owner, ada, owner_id, ada_id) = setup();
    let api = server.api();
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let bob_id = api.user_id(&bob);
    api.patch("/realm", Some(&owner), &[("enable_read_receipts", "true")]).ok();
    let both = json!([owner_id, ada_id]).to_string();
    let id = create(&server, &owner, &[("name", "design"), ("subscribers", both.as_str())]).ok()["id"]
        .as_u64()
        .expect("id");
    let said = send(&server, &owner, "design", "plans").ok()["id"].as_u64().expect("id");
    api.delete(&format!("/streams/{id}"), Some(&owner), &[]).ok();

    // Feature level 360: its messages are still read by id, with their read receipts.
    let message = api.get(&format!("/messages/{said}"), Some(&ada), &[]).ok()["message"].clone();
    assert_eq!(message["content"], "<p>hello</p>");
    api.get(&format!("/messages/{said}/read_receipts"), Some(&ada), &[]).ok();

    // Feature level 362: subscribers are added and removed as in an active channel...
    let members =
        || api.get(&format!("/streams/{id}/members"), Some(&owner), &[]).ok()["subscribers"].clone();
    let bob_in = json!([bob_id]).to_string();
    let add = [("subscriptions", r#"[{"name": "design"}]"#), ("principals", bob_in.as_str())];
    api.post("/users/me/subscriptions", Some(&owner), &add).ok();
    assert_eq!(members(), json!([owner_id, ada_id, bob_id]));
    let remove = [("subscriptions", r#"["design"]"#), ("principals", bob_in.as_str())];
    api.delete("/users/me/subscriptions", Some(&owner), &remove).ok();
    assert_eq!(members(), json!([owner_id, ada_id]));
    // ...and the channel turns private and public again while archived.
    let privacy = || {
        let shown = api.get(&format!("/streams/{id}"), Some(&owner), &[]).ok()["stream"].clone();
        (shown["invite_only"].clone(), shown["is_archived"].clone())
    };
    patch(&server, &owner, id, &[("is_private", "true")]).ok();
    assert_eq!(privacy(), (json!(true), json!(true)));
    patch(&server, &owner, id, &[("is_private", "false")]).ok();
    assert_eq!(privacy(), (json!(false), json!(true)));
}
