//! Flags and unread (spec 2.13, 4.9, 4.11): which flags users change, how `read` behaves in
//! channels they left, and the narrow form.

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

struct World {
    server: TestServer,
    owner: Creds,
    ada: Creds,
}

fn world() -> World {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general", "random"], &["owner@confab.localhost", "ada@example.com"]);
    // The Notification Bot announced the new channels; those notices are read and out of the way.
    api.post("/mark_all_as_read", Some(&ada), &[]).ok();
    World { server, owner, ada }
}

fn send(world: &World, stream: &str, topic: &str, content: &str) -> u64 {
    let params = [("type", "stream"), ("to", stream), ("topic", topic), ("content", content)];
    world.server.api().post("/messages", Some(&world.owner), &params).ok()["id"].as_u64().expect("id")
}

fn flags_of(world: &World, who: &Creds, id: u64) -> Value {
    world.server.api().get(&format!("/messages/{id}"), Some(who), &[]).ok()["message"]["flags"].clone()
}

fn unread_ids(world: &World, who: &Creds) -> Vec<u64> {
    let params = [
        ("anchor", "newest"),
        ("num_before", "100"),
        ("num_after", "0"),
        ("narrow", r#"[["is", "unread"]]"#),
    ];
    let body = world.server.api().get("/messages", Some(who), &params).ok();
    body["messages"].as_array().expect("messages").iter().map(|m| m["id"].as_u64().expect("id")).collect()
}

#[test]
fn users_add_and_remove_their_own_flags() {
    let world = world();
    let api = world.server.api();
    let first = send(&world, "general", "a", "one");
    let second = send(&world, "general", "a", "two");
    let ids = format!("[{first}, {second}]");

    let body = api
        .post(
            "/messages/flags",
            Some(&world.ada),
            &[("messages", ids.as_str()), ("op", "add"), ("flag", "starred")],
        )
        .ok();
    assert_eq!(body["messages"], json!([first, second]));
    assert!(body.get("ignored_because_not_subscribed_channels").is_none(), "only for removing read");
    assert_eq!(flags_of(&world, &world.ada, first), json!(["starred"]));
    let again = api
        .post(
            "/messages/flags",
            Some(&world.ada),
            &[("messages", ids.as_str()), ("op", "add"), ("flag", "starred")],
        )
        .ok();
    assert_eq!(again["messages"], json!([]), "messages already starred are not changed");
    assert_eq!(flags_of(&world, &world.owner, first), json!([]), "flags are per user");

    api.post(
        "/messages/flags",
        Some(&world.ada),
        &[("messages", ids.as_str()), ("op", "add"), ("flag", "read")],
    )
    .ok();
    assert_eq!(unread_ids(&world, &world.ada), Vec::<u64>::new());
    let body = api
        .post(
            "/messages/flags",
            Some(&world.ada),
            &[("messages", &format!("[{first}]")), ("op", "remove"), ("flag", "read")],
        )
        .ok();
    assert_eq!(body["messages"], json!([first]));
    assert_eq!(body["ignored_because_not_subscribed_channels"], json!([]));
    assert_eq!(unread_ids(&world, &world.ada), vec![first]);
}

#[test]
fn flags_users_cannot_change_are_refused_with_zulips_texts() {
    let world = world();
    let api = world.server.api();
    let id = send(&world, "general", "a", "one").to_string();
    let messages = format!("[{id}]");
    let cases = [
        (("add", "mentioned"), "Flag not editable: 'mentioned'"),
        (("add", "historical"), "Flag not editable: 'historical'"),
        (("add", "shiny"), "Invalid flag: 'shiny'"),
        (("toggle", "read"), "Invalid message flag operation: 'toggle'"),
    ];
    for ((op, flag), msg) in cases {
        let body = api
            .post(
                "/messages/flags",
                Some(&world.ada),
                &[("messages", messages.as_str()), ("op", op), ("flag", flag)],
            )
            .error(400, "BAD_REQUEST");
        assert_eq!(body["msg"], msg);
    }
    let missing = api
        .post(
            "/messages/flags",
            Some(&world.ada),
            &[("messages", "[999999]"), ("op", "add"), ("flag", "read")],
        )
        .error(400, "BAD_REQUEST");
    assert_eq!(missing["msg"], "Invalid message(s)");
    api.post("/messages/flags", Some(&world.ada), &[("op", "add"), ("flag", "read")])
        .error(400, "REQUEST_VARIABLE_MISSING");
}

#[test]
fn unread_lives_only_in_subscribed_channels() {
    let world = world();
    let api = world.server.api();
    let id = send(&world, "random", "a", "hello");
    api.post(
        "/messages/flags",
        Some(&world.ada),
        &[("messages", &format!("[{id}]")), ("op", "add"), ("flag", "read")],
    )
    .ok();
    api.delete("/users/me/subscriptions", Some(&world.ada), &[("subscriptions", r#"["random"]"#)]).ok();
    let body = api
        .post(
            "/messages/flags",
            Some(&world.ada),
            &[("messages", &format!("[{id}]")), ("op", "remove"), ("flag", "read")],
        )
        .ok();
    assert_eq!(body["messages"], json!([]));
    let random_id =
        api.get("/get_stream_id", Some(&world.ada), &[("stream", "random")]).ok()["stream_id"].clone();
    assert_eq!(body["ignored_because_not_subscribed_channels"], json!([random_id]));

    // Starring a public-channel message the user never received makes it historical.
    let later = send(&world, "random", "b", "after she left");
    api.post(
        "/messages/flags",
        Some(&world.ada),
        &[("messages", &format!("[{later}]")), ("op", "add"), ("flag", "starred")],
    )
    .ok();
    assert_eq!(flags_of(&world, &world.ada, later), json!(["read", "starred", "historical"]));
}

#[test]
fn flags_on_a_narrow_report_their_range_and_counts() {
    let world = world();
    let api = world.server.api();
    let general: Vec<u64> = (0..4).map(|i| send(&world, "general", "t", &format!("g{i}"))).collect();
    let random = send(&world, "random", "t", "r");
    let params = [
        ("anchor", "oldest"),
        ("num_before", "0"),
        ("num_after", "1000"),
        (
            "narrow",
            r#"[{"operator": "channel", "operand": "general"}, {"operator": "topic", "operand": "t"}]"#,
        ),
        ("op", "add"),
        ("flag", "read"),
    ];
    let body = api.post("/messages/flags/narrow", Some(&world.ada), &params).ok();
    assert_eq!(body["processed_count"], 4);
    assert_eq!(body["updated_count"], 4);
    assert_eq!(body["first_processed_id"], general[0]);
    assert_eq!(body["last_processed_id"], general[3]);
    assert_eq!((body["found_oldest"].clone(), body["found_newest"].clone()), (json!(true), json!(true)));
    assert!(body.get("ignored_because_not_subscribed_channels").is_none());
    assert_eq!(unread_ids(&world, &world.ada), vec![random], "only the other channel stays unread");

    let again = api.post("/messages/flags/narrow", Some(&world.ada), &params).ok();
    assert_eq!((again["processed_count"].clone(), again["updated_count"].clone()), (json!(4), json!(0)));

    let empty = [
        ("anchor", "newest"),
        ("num_before", "10"),
        ("num_after", "0"),
        ("narrow", r#"[["topic", "nothing here"]]"#),
        ("op", "add"),
        ("flag", "starred"),
    ];
    let none = api.post("/messages/flags/narrow", Some(&world.ada), &empty).ok();
    assert_eq!(none["processed_count"], 0);
    assert_eq!(none["first_processed_id"], Value::Null);
    assert_eq!(none["last_processed_id"], Value::Null);
}

#[test]
fn mark_as_read_endpoints_clear_unread_by_channel_topic_and_all() {
    let world = world();
    let api = world.server.api();
    let general_a = send(&world, "general", "alpha", "1");
    let general_b = send(&world, "general", "beta", "2");
    let random = send(&world, "random", "gamma", "3");
    let general_id =
        api.get("/get_stream_id", Some(&world.ada), &[("stream", "general")]).ok()["stream_id"].to_string();
    assert_eq!(unread_ids(&world, &world.ada), vec![general_a, general_b, random]);

    api.post(
        "/mark_topic_as_read",
        Some(&world.ada),
        &[("stream_id", general_id.as_str()), ("topic_name", "ALPHA")],
    )
    .ok();
    assert_eq!(unread_ids(&world, &world.ada), vec![general_b, random]);
    let none = api
        .post(
            "/mark_topic_as_read",
            Some(&world.ada),
            &[("stream_id", general_id.as_str()), ("topic_name", "delta")],
        )
        .error(400, "BAD_REQUEST");
    assert_eq!(none["msg"], "No such topic 'delta'");
    api.post("/mark_stream_as_read", Some(&world.ada), &[("stream_id", general_id.as_str())]).ok();
    assert_eq!(unread_ids(&world, &world.ada), vec![random]);
    api.post("/mark_stream_as_read", Some(&world.ada), &[("stream_id", "4242")]).error(400, "BAD_REQUEST");
    let all = api.post("/mark_all_as_read", Some(&world.ada), &[]).ok();
    assert_eq!(all["complete"], true);
    assert_eq!(unread_ids(&world, &world.ada), Vec::<u64>::new());
}
