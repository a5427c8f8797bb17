//! Scheduled messages and reminders: created, listed, edited and cancelled by their owner alone,
//! with Zulip's errors and events; sent by the server at their time as their sender would send
//! them (after a restart too); reminders from Notification Bot. Waiting for a delivery polls
//! with a generous limit and asserts nothing about how fast it came.

use confab_tests::{Api, Creds, TestServer, eventually, unix_now};
use serde_json::{Value, json};

fn user_id(api: &Api, who: &Creds) -> u64 {
    api.get("/users/me", Some(who), &[]).ok()["user_id"].as_u64().expect("user_id")
}

fn stream_id(api: &Api, who: &Creds, name: &str) -> u64 {
    api.get("/get_stream_id", Some(who), &[("stream", name)]).ok()["stream_id"].as_u64().expect("stream_id")
}

fn scheduled(api: &Api, who: &Creds) -> Vec<Value> {
    api.get("/scheduled_messages", Some(who), &[]).ok()["scheduled_messages"]
        .as_array()
        .expect("list")
        .clone()
}

fn schedule(api: &Api, who: &Creds, params: &[(&str, &str)]) -> u64 {
    api.post("/scheduled_messages", Some(who), params).ok()["scheduled_message_id"].as_u64().expect("id")
}

/// The newest messages of a narrow, as `who` sees them.
fn newest(api: &Api, who: &Creds, narrow: &Value) -> Vec<Value> {
    let narrow = narrow.to_string();
    let params =
        [("anchor", "newest"), ("num_before", "20"), ("num_after", "0"), ("narrow", narrow.as_str())];
    api.get("/messages", Some(who), &params).ok()["messages"].as_array().expect("messages").clone()
}

fn error_msg(reply: confab_tests::Reply, status: u16) -> String {
    reply.error(status, "BAD_REQUEST")["msg"].as_str().expect("msg").to_owned()
}

#[test]
fn scheduled_messages_are_created_listed_edited_and_cancelled_by_their_owner() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    let general = stream_id(&api, &owner, "general");
    let ada_id = user_id(&api, &ada);
    let queue = api.post("/register", Some(&owner), &[("event_types", r#"["scheduled_messages"]"#)]).ok();
    assert_eq!(queue["scheduled_messages"], json!([]));

    let later = unix_now() + 86_400;
    let (later_s, general_s, ada_s) = (later.to_string(), general.to_string(), format!("[{ada_id}]"));
    let to_channel = schedule(
        &api,
        &owner,
        &[
            ("type", "channel"),
            ("to", &general_s),
            ("topic", "lunch"),
            ("content", "Lunch at **noon**?"),
            ("scheduled_delivery_timestamp", &later_s),
        ],
    );
    let sooner = (later - 60).to_string();
    let to_ada = schedule(
        &api,
        &owner,
        &[("type", "direct"), ("to", &ada_s), ("content", "psst"), ("scheduled_delivery_timestamp", &sooner)],
    );
    assert_eq!(
        scheduled(&api, &owner),
        vec![
            json!({
                "scheduled_message_id": to_ada,
                "type": "private",
                "to": [ada_id],
                "content": "psst",
                "rendered_content": "<p>psst</p>",
                "scheduled_delivery_timestamp": later - 60,
                "failed": false,
            }),
            json!({
                "scheduled_message_id": to_channel,
                "type": "stream",
                "to": general,
                "topic": "lunch",
                "content": "Lunch at **noon**?",
                "rendered_content": "<p>Lunch at <strong>noon</strong>?</p>",
                "scheduled_delivery_timestamp": later,
                "failed": false,
            }),
        ],
        "soonest first"
    );
    assert_eq!(scheduled(&api, &ada), Vec::<Value>::new(), "only the sender sees them");

    // Zulip's refusals, byte for byte.
    let past = (unix_now() - 60).to_string();
    let refuse = |params: &[(&str, &str)]| api.post("/scheduled_messages", Some(&owner), params);
    let base = |to: &'static str| {
        vec![("type", "direct"), ("to", to), ("content", "x"), ("scheduled_delivery_timestamp", "9999999999")]
    };
    assert_eq!(
        error_msg(
            refuse(&[
                ("type", "direct"),
                ("to", &ada_s),
                ("content", "x"),
                ("scheduled_delivery_timestamp", &past)
            ]),
            400
        ),
        "Scheduled delivery time must be in the future."
    );
    let mut bad_type = base("[1]");
    bad_type[0] = ("type", "letter");
    assert_eq!(error_msg(refuse(&bad_type), 400), "Invalid type");
    assert_eq!(error_msg(refuse(&base(r#"["ada@example.com"]"#)), 400), "to[\"int\"] is not an integer");
    assert_eq!(error_msg(refuse(&base("7")), 400), "Invalid data type for recipients");
    assert_eq!(error_msg(refuse(&base("[987654]")), 400), "Invalid user ID 987654");
    let channel = |to: &'static str| {
        vec![
            ("type", "stream"),
            ("to", to),
            ("topic", "t"),
            ("content", "x"),
            ("scheduled_delivery_timestamp", "9999999999"),
        ]
    };
    assert_eq!(error_msg(refuse(&channel("[1]")), 400), "Invalid data type for channel ID");
    let missing = refuse(&channel("987654")).error(400, "STREAM_DOES_NOT_EXIST");
    assert_eq!(missing["msg"], "Channel with ID '987654' does not exist");
    let no_content =
        refuse(&[("type", "direct"), ("to", &ada_s), ("scheduled_delivery_timestamp", "9999999999")]);
    assert_eq!(no_content.error(400, "REQUEST_VARIABLE_MISSING")["msg"], "Missing 'content' argument");

    // Edits.
    let path = format!("/scheduled_messages/{to_channel}");
    let edit = |params: &[(&str, &str)]| api.patch(&path, Some(&owner), params);
    assert_eq!(error_msg(edit(&[]), 400), "Nothing to change");
    assert_eq!(
        error_msg(edit(&[("type", "direct")]), 400),
        "Recipient required when updating type of scheduled message."
    );
    assert_eq!(
        error_msg(edit(&[("type", "channel"), ("to", &general_s)]), 400),
        "Topic required when updating scheduled message type to channel."
    );
    assert_eq!(
        error_msg(edit(&[("scheduled_delivery_timestamp", &past)]), 400),
        "Scheduled delivery time must be in the future."
    );
    edit(&[("content", "Lunch at *one*?"), ("topic", "food")]).ok();
    let edited = scheduled(&api, &owner).into_iter().find(|s| s["scheduled_message_id"] == to_channel);
    let edited = edited.expect("still scheduled");
    assert_eq!(edited["rendered_content"], "<p>Lunch at <em>one</em>?</p>");
    assert_eq!(edited["topic"], "food");
    edit(&[("type", "direct"), ("to", &ada_s), ("topic", "ignored")]).ok();
    let edited = scheduled(&api, &owner).into_iter().find(|s| s["scheduled_message_id"] == to_channel);
    let edited = edited.expect("still scheduled");
    assert_eq!((edited["type"].as_str(), edited["to"].clone()), (Some("private"), json!([ada_id])));
    assert!(edited.get("topic").is_none(), "{edited}");

    // Someone else's, or nobody's, does not exist.
    let theirs = api.delete(&path, Some(&ada), &[]);
    assert_eq!(error_msg(theirs, 404), "Scheduled message does not exist");
    let nobodys = api.patch("/scheduled_messages/987654", Some(&owner), &[("content", "x")]);
    assert_eq!(error_msg(nobodys, 404), "Scheduled message does not exist");
    api.delete(&path, Some(&owner), &[]).ok();
    assert_eq!(error_msg(api.delete(&path, Some(&owner), &[]), 404), "Scheduled message does not exist");
    assert_eq!(scheduled(&api, &owner).len(), 1);

    let events = api.queued(&owner, &queue)["events"].as_array().expect("events").clone();
    let ops: Vec<(&str, &str)> =
        events.iter().map(|e| (e["type"].as_str().unwrap_or(""), e["op"].as_str().unwrap_or(""))).collect();
    let s = "scheduled_messages";
    assert_eq!(ops, [(s, "add"), (s, "add"), (s, "update"), (s, "update"), (s, "remove")]);
    assert_eq!(events[0]["scheduled_messages"][0]["scheduled_message_id"], to_channel);
    assert_eq!(events[3]["scheduled_message"]["type"], "private");
    assert_eq!(events[4]["scheduled_message_id"], to_channel);
    let registered =
        api.post("/register", Some(&owner), &[("fetch_event_types", r#"["scheduled_messages"]"#)]);
    assert_eq!(registered.ok()["scheduled_messages"][0]["scheduled_message_id"], to_ada);
}

#[test]
fn the_server_sends_a_scheduled_message_at_its_time_as_its_sender() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    let general = stream_id(&api, &owner, "general").to_string();
    let owner_id = user_id(&api, &owner);
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["message"]"#)]).ok();
    let own_queue = api.post("/register", Some(&owner), &[("event_types", r#"["scheduled_messages"]"#)]).ok();

    let soon = (unix_now() + 2).to_string();
    let id = schedule(
        &api,
        &owner,
        &[
            ("type", "stream"),
            ("to", &general),
            ("topic", "launch"),
            ("content", "We are **live**"),
            ("scheduled_delivery_timestamp", &soon),
            ("read_by_sender", "true"),
        ],
    );
    let narrow =
        json!([{"operator": "channel", "operand": "general"}, {"operator": "topic", "operand": "launch"}]);
    let sent = eventually("the scheduled message", || newest(&api, &ada, &narrow).into_iter().next());
    assert_eq!(sent["sender_id"], owner_id);
    assert_eq!(sent["content"], "<p>We are <strong>live</strong></p>");
    assert!(sent["timestamp"].as_i64().expect("timestamp") >= soon.parse::<i64>().expect("number"));
    assert_eq!(scheduled(&api, &owner), Vec::<Value>::new(), "a sent message leaves the list");
    let own_copy = api.get(&format!("/messages/{}", sent["id"]), Some(&owner), &[]).ok();
    assert_eq!(own_copy["message"]["flags"], json!(["read"]), "read_by_sender");
    let ada_events = api.queued(&ada, &queue)["events"].as_array().expect("events").clone();
    assert!(
        ada_events.iter().any(|e| e["type"] == "message" && e["message"]["id"] == sent["id"]),
        "{ada_events:?}"
    );
    let own_events = api.queued(&owner, &own_queue)["events"].as_array().expect("events").clone();
    let removed = own_events.last().expect("events");
    assert_eq!((&removed["op"], &removed["scheduled_message_id"]), (&json!("remove"), &json!(id)));
    // A late edit is told so.
    let late = api.patch(&format!("/scheduled_messages/{id}"), Some(&owner), &[("content", "x")]);
    assert_eq!(error_msg(late, 400), "Scheduled message was already sent");
}

#[test]
fn scheduled_messages_survive_a_restart_and_those_due_meanwhile_are_sent_at_startup() {
    let mut server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let ada_id = format!("[{}]", user_id(&api, &ada));
    let due_at = unix_now() + 2;
    let (soon, later) = (due_at.to_string(), (unix_now() + 86_400).to_string());
    schedule(
        &api,
        &owner,
        &[
            ("type", "direct"),
            ("to", &ada_id),
            ("content", "while you were out"),
            ("scheduled_delivery_timestamp", &soon),
        ],
    );
    let kept = schedule(
        &api,
        &owner,
        &[
            ("type", "direct"),
            ("to", &ada_id),
            ("content", "tomorrow"),
            ("scheduled_delivery_timestamp", &later),
        ],
    );
    server.terminate();
    // Down until the first one is due.
    eventually("its time to pass", || (unix_now() > due_at).then_some(()));
    let server = server.start_again();
    let api = server.api();
    let narrow = json!([{"operator": "is", "operand": "dm"}]);
    let sent = eventually("the message due while the server was down", || {
        newest(&api, &ada, &narrow).into_iter().find(|m| m["content"] == "<p>while you were out</p>")
    });
    assert_eq!(sent["sender_email"], "owner@confab.localhost");
    let left = scheduled(&api, &owner);
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["scheduled_message_id"], kept);
}

#[test]
fn a_message_that_can_no_longer_be_sent_fails_and_its_owner_is_told() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    api.subscribe(&owner, &["doomed"], &["owner@confab.localhost"]);
    let doomed = stream_id(&api, &owner, "doomed");
    let queue = api.post("/register", Some(&owner), &[("event_types", r#"["scheduled_messages"]"#)]).ok();
    let soon = unix_now() + 2;
    let id = schedule(
        &api,
        &owner,
        &[
            ("type", "stream"),
            ("to", &doomed.to_string()),
            ("topic", "t"),
            ("content", "into the void"),
            ("scheduled_delivery_timestamp", &soon.to_string()),
        ],
    );
    api.delete(&format!("/streams/{doomed}"), Some(&owner), &[]).ok();
    let failed = eventually("the failed delivery", || {
        scheduled(&api, &owner).into_iter().find(|s| s["failed"] == true)
    });
    assert_eq!(failed["scheduled_message_id"], id);
    let notice = eventually("Notification Bot's notice", || {
        newest(&api, &owner, &json!([{"operator": "is", "operand": "dm"}])).into_iter().next()
    });
    assert_eq!(notice["sender_full_name"], "Notification Bot");
    let when = api.get(&format!("/messages/{}", notice["id"]), Some(&owner), &[]).ok()["raw_content"].clone();
    let expected = format!(
        "The message you scheduled for <time:{}> was not sent because of the following error:\n\n\
         > Not authorized to send to channel 'doomed'\n\n[View scheduled messages](#scheduled)",
        iso8601(soon)
    );
    assert_eq!(when, expected);
    let events = api.queued(&owner, &queue)["events"].as_array().expect("events").clone();
    let update = events.iter().find(|e| e["op"] == "update").expect("an update event");
    assert_eq!(update["scheduled_message"]["failed"], true);

    // A failed message needs a new time, which makes it pending again.
    let path = format!("/scheduled_messages/{id}");
    let no_time = api.patch(&path, Some(&owner), &[("content", "again")]);
    assert_eq!(error_msg(no_time, 400), "Scheduled delivery time must be in the future.");
    let later = (unix_now() + 86_400).to_string();
    let retry = api.patch(&path, Some(&owner), &[("scheduled_delivery_timestamp", later.as_str())]);
    retry.ok();
    assert_eq!(scheduled(&api, &owner)[0]["failed"], false);
}

/// `2024-01-02T03:04:05+00:00` for UNIX seconds, as Zulip's `<time:...>` syntax writes them.
fn iso8601(unix: i64) -> String {
    confab_core::time::iso8601(unix)
}

#[test]
fn reminders_come_from_notification_bot_quoting_and_linking_the_message() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    let general = stream_id(&api, &owner, "general");
    let ada_id = user_id(&api, &ada);
    let owner_id = user_id(&api, &owner);
    let said = api
        .post(
            "/messages",
            Some(&ada),
            &[("type", "stream"), ("to", "general"), ("topic", "plans"), ("content", "Ship it")],
        )
        .ok()["id"]
        .as_u64()
        .expect("id");
    let queue = api.post("/register", Some(&owner), &[("event_types", r#"["reminders"]"#)]).ok();
    assert_eq!(queue["reminders"], json!([]));
    let realm = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(realm["max_reminder_note_length"], 1000);

    let soon = unix_now() + 2;
    let (said_s, soon_s) = (said.to_string(), soon.to_string());
    let reminder = api
        .post(
            "/reminders",
            Some(&owner),
            &[
                ("message_id", &said_s),
                ("scheduled_delivery_timestamp", &soon_s),
                ("note", "check the build\n"),
            ],
        )
        .ok()["reminder_id"]
        .as_u64()
        .expect("reminder_id");
    let expected = format!(
        "You requested a reminder for #**general>plans@{said}**. Note:\n > check the build\n\n\
         @_**Ada|{ada_id}** [said]({}/#narrow/channel/{general}-general/topic/plans/near/{said}):\n\
         ```quote\nShip it\n```",
        server.base_url
    );
    let listed = api.get("/reminders", Some(&owner), &[]).ok()["reminders"].clone();
    assert_eq!(listed[0]["reminder_id"], reminder);
    assert_eq!(listed[0]["type"], "private");
    assert_eq!(listed[0]["to"], json!([owner_id]));
    assert_eq!(listed[0]["content"], expected);
    assert_eq!(listed[0]["reminder_target_message_id"], said);
    assert_eq!(listed[0]["scheduled_delivery_timestamp"], soon);
    assert_eq!(listed[0]["failed"], false);
    assert_eq!(scheduled(&api, &owner), Vec::<Value>::new(), "reminders are listed apart");

    // Refusals.
    let far = "9999999999";
    let refuse = |params: &[(&str, &str)]| api.post("/reminders", Some(&owner), params);
    let past = (unix_now() - 60).to_string();
    assert_eq!(
        error_msg(refuse(&[("message_id", &said_s), ("scheduled_delivery_timestamp", &past)]), 400),
        "Scheduled delivery time must be in the future."
    );
    assert_eq!(
        error_msg(refuse(&[("message_id", "987654"), ("scheduled_delivery_timestamp", far)]), 400),
        "Invalid message(s)"
    );
    let long = "n".repeat(1001);
    assert_eq!(
        error_msg(
            refuse(&[("message_id", &said_s), ("scheduled_delivery_timestamp", far), ("note", &long)]),
            400
        ),
        "Maximum reminder note length: 1000 characters"
    );
    let other = refuse(&[("message_id", &said_s), ("scheduled_delivery_timestamp", far)]).ok()["reminder_id"]
        .as_u64()
        .expect("id");
    let theirs = api.delete(&format!("/reminders/{other}"), Some(&ada), &[]);
    assert_eq!(error_msg(theirs, 404), "Reminder does not exist");
    api.delete(&format!("/reminders/{other}"), Some(&owner), &[]).ok();
    let again = api.delete(&format!("/reminders/{other}"), Some(&owner), &[]);
    assert_eq!(error_msg(again, 404), "Reminder does not exist");

    let narrow = json!([{"operator": "is", "operand": "dm"}]);
    let sent = eventually("the reminder", || newest(&api, &owner, &narrow).into_iter().next());
    assert_eq!(sent["sender_full_name"], "Notification Bot");
    let raw = api.get(&format!("/messages/{}", sent["id"]), Some(&owner), &[]).ok()["raw_content"].clone();
    assert_eq!(raw, expected);
    assert_eq!(api.get("/reminders", Some(&owner), &[]).ok()["reminders"], json!([]));
    let events = api.queued(&owner, &queue)["events"].as_array().expect("events").clone();
    let ops: Vec<&str> = events.iter().filter_map(|e| e["op"].as_str()).collect();
    assert_eq!(ops, ["add", "add", "remove", "remove"]);
    assert_eq!(events[3]["reminder_id"], reminder);
}
