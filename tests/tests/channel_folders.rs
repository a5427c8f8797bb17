//! Channel folders: administrators create, rename, describe, reorder and archive them; channels
//! name their folder (`folder_id`); everyone learns of changes through `channel_folder` events.

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

fn setup() -> (TestServer, Creds, Creds) {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let ada = server.api().create_user(&owner, "ada@example.com", "Ada");
    (server, owner, ada)
}

fn create(server: &TestServer, who: &Creds, name: &str) -> u64 {
    let reply =
        server.api().post("/channel_folders/create", Some(who), &[("name", name), ("description", "")]);
    reply.ok()["channel_folder_id"].as_u64().expect("id")
}

fn folders(server: &TestServer, who: &Creds, include_archived: bool) -> Vec<Value> {
    let flag = include_archived.to_string();
    let reply = server.api().get("/channel_folders", Some(who), &[("include_archived", flag.as_str())]).ok();
    reply["channel_folders"].as_array().expect("list").clone()
}

fn names(list: &[Value]) -> Vec<&str> {
    list.iter().map(|f| f["name"].as_str().expect("name")).collect()
}

#[test]
fn an_administrator_creates_a_folder_that_everyone_sees() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["channel_folder"]"#)]).ok();
    let reply = api.post(
        "/channel_folders/create",
        Some(&owner),
        &[("name", "Engineering"), ("description", "Where *builders* talk")],
    );
    let id = reply.ok()["channel_folder_id"].as_u64().expect("id");
    let listed = folders(&server, &ada, false);
    assert_eq!(listed.len(), 1);
    let folder = &listed[0];
    assert_eq!(folder["id"], id);
    assert_eq!(folder["name"], "Engineering");
    assert_eq!(folder["description"], "Where *builders* talk");
    assert_eq!(folder["rendered_description"], "<p>Where <em>builders</em> talk</p>");
    assert_eq!(folder["is_archived"], false);
    assert!(folder["creator_id"].is_u64() && folder["date_created"].is_i64(), "{folder}");

    let events = api.queued(&ada, &queue);
    assert_eq!(events["events"][0]["type"], "channel_folder");
    assert_eq!(events["events"][0]["op"], "add");
    assert_eq!(&events["events"][0]["channel_folder"], folder);

    let registered =
        api.post("/register", Some(&ada), &[("fetch_event_types", r#"["channel_folder"]"#)]).ok();
    assert_eq!(registered["channel_folders"], json!(listed));
}

#[test]
fn folder_names_are_checked_as_zulip_does() {
    let (server, owner, ada) = setup();
    let api = server.api();
    create(&server, &owner, "Support");
    let attempt = |who: &Creds, name: &str| {
        api.post("/channel_folders/create", Some(who), &[("name", name), ("description", "")])
    };
    assert_eq!(attempt(&owner, "  ").error(400, "BAD_REQUEST")["msg"], "Channel folder name can't be empty.");
    assert_eq!(
        attempt(&owner, "support").error(400, "BAD_REQUEST")["msg"],
        "Channel folder 'support' already exists"
    );
    assert_eq!(
        attempt(&owner, "a\u{0}b").error(400, "BAD_REQUEST")["msg"],
        "Invalid character in channel folder name, at position 2."
    );
    assert_eq!(
        attempt(&owner, &"x".repeat(61)).error(400, "BAD_REQUEST")["msg"],
        "name is too long (limit: 60 characters)"
    );
    assert_eq!(
        attempt(&ada, "Mine").error(400, "UNAUTHORIZED_PRINCIPAL")["msg"],
        "Must be an organization administrator"
    );
    let missing = api.post("/channel_folders/create", Some(&owner), &[("name", "No description")]);
    assert_eq!(missing.error(400, "REQUEST_VARIABLE_MISSING")["msg"], "Missing 'description' argument");
}

#[test]
fn folders_are_renamed_described_and_reordered() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let first = create(&server, &owner, "First");
    let second = create(&server, &owner, "Second");
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["channel_folder"]"#)]).ok();

    let path = format!("/channel_folders/{first}");
    api.patch(&path, Some(&owner), &[("name", "Primary"), ("description", "**Top**")]).ok();
    let order = json!([second, first]).to_string();
    api.patch("/channel_folders", Some(&owner), &[("order", order.as_str())]).ok();
    assert_eq!(names(&folders(&server, &ada, false)), ["Second", "Primary"]);

    let events = api.queued(&ada, &queue);
    assert_eq!(
        events["events"][0],
        json!({"id": 0, "type": "channel_folder", "op": "update", "channel_folder_id": first,
               "data": {"name": "Primary", "description": "**Top**", "rendered_description": "<p><strong>Top</strong></p>"}})
    );
    assert_eq!(events["events"][1]["op"], "reorder");
    assert_eq!(events["events"][1]["order"], json!([second, first]));

    let incomplete = json!([second]).to_string();
    let reply = api.patch("/channel_folders", Some(&owner), &[("order", incomplete.as_str())]);
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "Invalid order mapping.");
    let reply = api.patch("/channel_folders/999", Some(&owner), &[("name", "Nope")]);
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "Invalid channel folder ID");
    let reply = api.patch(&path, Some(&ada), &[("name", "Mine")]);
    assert_eq!(reply.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");
}

#[test]
fn channels_go_into_folders_and_a_folder_in_use_cannot_be_archived() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let folder = create(&server, &owner, "Teams").to_string();
    let me = json!([]).to_string();
    let created = api.post(
        "/channels/create",
        Some(&owner),
        &[("name", "design"), ("subscribers", me.as_str()), ("folder_id", folder.as_str())],
    );
    let channel = created.ok()["id"].as_u64().expect("id");
    let shown = api.get(&format!("/streams/{channel}"), Some(&ada), &[]).ok();
    assert_eq!(shown["stream"]["folder_id"], folder.parse::<u64>().expect("id"));

    let archive = |archived: &str| {
        api.patch(&format!("/channel_folders/{folder}"), Some(&owner), &[("is_archived", archived)])
    };
    assert_eq!(
        archive("true").error(400, "BAD_REQUEST")["msg"],
        "You need to remove all the channels from this folder to archive it."
    );

    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["stream", "channel_folder"]"#)]).ok();
    api.patch(&format!("/streams/{channel}"), Some(&owner), &[("folder_id", "null")]).ok();
    archive("true").ok();
    assert!(folders(&server, &ada, false).is_empty());
    assert_eq!(folders(&server, &ada, true)[0]["is_archived"], true);
    let events = api.queued(&ada, &queue);
    assert_eq!(events["events"][0]["type"], "stream");
    assert_eq!(events["events"][0]["property"], "folder_id");
    assert_eq!(events["events"][0]["value"], Value::Null);
    assert_eq!(events["events"][1]["data"], json!({"is_archived": true}));

    let reply = api.patch(&format!("/streams/{channel}"), Some(&owner), &[("folder_id", "4242")]);
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "Invalid channel folder ID");
}

#[test]
fn subscribing_puts_only_the_channels_it_creates_into_a_folder() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let folder = create(&server, &owner, "Teams");
    let folder_id = folder.to_string();
    let subscribe = |folder_id: &str| {
        let channels = r#"[{"name": "design"}, {"name": "general"}]"#;
        api.post(
            "/users/me/subscriptions",
            Some(&ada),
            &[("subscriptions", channels), ("folder_id", folder_id)],
        )
    };
    let refused = subscribe("4242").error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Invalid channel folder ID");
    // Feature level 389: `design` is new and goes into the folder; `general` stays where it was.
    subscribe(&folder_id).ok();
    let subscriptions = api.get("/users/me/subscriptions", Some(&ada), &[]).ok()["subscriptions"].clone();
    let folder_of = |name: &str| {
        subscriptions.as_array().expect("list").iter().find(|s| s["name"] == name).expect("subscribed")["folder_id"]
            .clone()
    };
    assert_eq!(folder_of("design"), json!(folder));
    assert_eq!(folder_of("general"), Value::Null);
}
