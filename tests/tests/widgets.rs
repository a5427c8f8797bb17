//! Zulip's widgets over HTTP: a `/poll` or `/todo` message carries its `widget` submessage,
//! `POST /submessage` adds votes, options and struck tasks with Zulip's checks and texts, the
//! users who can see the message hear each one as a `submessage` event, and every message
//! object lists its submessages (in id order, kept across a restart).

use confab_tests::{Api, Creds, TestServer};
use serde_json::{Value, json};

struct Org {
    server: TestServer,
    owner: Creds,
    ada: Creds,
    bob: Creds,
}

fn org() -> Org {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com", "bob@example.com"]);
    Org { server, owner, ada, bob }
}

fn send(api: &Api, who: &Creds, content: &str) -> u64 {
    let params = [("type", "stream"), ("to", "general"), ("topic", "plans"), ("content", content)];
    api.post("/messages", Some(who), &params).ok()["id"].as_u64().expect("id")
}

fn submessage(api: &Api, who: &Creds, message_id: u64, content: &Value) -> confab_tests::Reply {
    let (id, content) = (message_id.to_string(), content.to_string());
    api.post("/submessage", Some(who), &[("message_id", &id), ("msg_type", "widget"), ("content", &content)])
}

fn message(api: &Api, who: &Creds, id: u64) -> Value {
    api.get(&format!("/messages/{id}"), Some(who), &[]).ok()["message"].clone()
}

/// A message's submessages as `(sender, content as JSON)`, checking each one's fields.
fn contents(message: &Value) -> Vec<(u64, Value)> {
    let list = message["submessages"].as_array().expect("submessages");
    let ids: Vec<u64> = list.iter().map(|s| s["id"].as_u64().expect("an id")).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "in id order: {ids:?}");
    list.iter()
        .map(|s| {
            assert_eq!(s["message_id"], message["id"], "{s}");
            assert_eq!(s["msg_type"], "widget", "{s}");
            let keys: Vec<&String> = s.as_object().expect("an object").keys().collect();
            assert_eq!(keys, ["content", "id", "message_id", "msg_type", "sender_id"], "{s}");
            let content = serde_json::from_str(s["content"].as_str().expect("content")).expect("JSON");
            (s["sender_id"].as_u64().expect("sender_id"), content)
        })
        .collect()
}

/// The `submessage` events a queue holds, as `(sender, content as JSON)`, checking their shape.
fn submessage_events(events: &Value, message_id: u64) -> Vec<(u64, Value)> {
    let mut ids = Vec::new();
    let found = events["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["type"] == "submessage")
        .map(|e| {
            let keys: Vec<&String> = e.as_object().expect("an object").keys().collect();
            assert_eq!(
                keys,
                ["content", "id", "message_id", "msg_type", "sender_id", "submessage_id", "type"],
                "{e}"
            );
            assert_eq!(e["message_id"], message_id, "{e}");
            assert_eq!(e["msg_type"], "widget", "{e}");
            ids.push(e["submessage_id"].as_u64().expect("submessage_id"));
            let content = serde_json::from_str(e["content"].as_str().expect("content")).expect("JSON");
            (e["sender_id"].as_u64().expect("sender_id"), content)
        })
        .collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    found
}

#[test]
fn two_users_vote_on_a_poll_and_both_queues_hear_every_change() {
    let Org { server, owner, ada, bob } = org();
    let api = server.api();
    let (owner_id, ada_id, bob_id) = (api.user_id(&owner), api.user_id(&ada), api.user_id(&bob));
    // Ada's client takes every event; Bob's only submessages.
    let ada_queue = api.post("/register", Some(&ada), &[]).ok();
    let bob_queue = api.post("/register", Some(&bob), &[("event_types", r#"["submessage"]"#)]).ok();

    let poll = send(&api, &owner, "/poll Where do we eat?\n- Pizza\n- Soup\n\n");
    let widget = json!({"widget_type": "poll", "extra_data": {"question": "Where do we eat?", "options": ["Pizza", "Soup"]}});
    let stored = message(&api, &ada, poll);
    assert_eq!(contents(&stored), [(owner_id, widget.clone())]);
    // Written as Zulip's `json.dumps` writes it.
    assert_eq!(
        stored["submessages"][0]["content"],
        r#"{"widget_type": "poll", "extra_data": {"question": "Where do we eat?", "options": ["Pizza", "Soup"]}}"#
    );

    let vote = |key: &str, vote: i64| json!({"type": "vote", "key": key, "vote": vote});
    submessage(&api, &ada, poll, &vote("canned,0", 1)).ok();
    let salad = json!({"type": "new_option", "idx": 1, "option": "Salad"});
    submessage(&api, &bob, poll, &salad).ok();
    let bobs_option = format!("{bob_id},1");
    submessage(&api, &bob, poll, &vote(&bobs_option, 1)).ok();
    submessage(&api, &ada, poll, &vote(&bobs_option, 1)).ok();
    submessage(&api, &ada, poll, &vote("canned,0", -1)).ok();
    let changes = vec![
        (ada_id, vote("canned,0", 1)),
        (bob_id, salad),
        (bob_id, vote(&bobs_option, 1)),
        (ada_id, vote(&bobs_option, 1)),
        (ada_id, vote("canned,0", -1)),
    ];

    // Ada's queue: the message with its widget, then every change.
    let ada_events = api.queued(&ada, &ada_queue);
    let message_event = ada_events["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["type"] == "message")
        .expect("the poll's message event");
    assert_eq!(contents(&message_event["message"]), [(owner_id, widget.clone())]);
    assert_eq!(submessage_events(&ada_events, poll), changes);
    // Bob's queue, which asked only for submessages: every change, his own included.
    let bob_events = api.queued(&bob, &bob_queue);
    assert!(bob_events["events"].as_array().expect("events").iter().all(|e| e["type"] == "submessage"));
    assert_eq!(submessage_events(&bob_events, poll), changes);

    // Fetching the messages lists them all, in the order they were added.
    let mut all = vec![(owner_id, widget)];
    all.extend(changes);
    let narrow = json!([{"operator": "topic", "operand": "plans"}]).to_string();
    let fetched = api
        .get(
            "/messages",
            Some(&bob),
            &[("anchor", "newest"), ("num_before", "5"), ("num_after", "0"), ("narrow", &narrow)],
        )
        .ok();
    let fetched = fetched["messages"].as_array().expect("messages").last().expect("the poll").clone();
    assert_eq!(fetched["id"], poll);
    assert_eq!(contents(&fetched), all);

    // Stored: a restart keeps them, and new ones still take higher ids.
    let server = server.restart();
    let api = server.api();
    assert_eq!(contents(&message(&api, &owner, poll)), all);
    let question = json!({"type": "question", "question": "Where do we eat on Friday?"});
    submessage(&api, &owner, poll, &question).ok();
    all.push((owner_id, question));
    assert_eq!(contents(&message(&api, &ada, poll)), all);
}

#[test]
fn bad_submessages_get_zulips_errors() {
    let Org { server, owner, ada, bob } = org();
    let api = server.api();
    let poll = send(&api, &owner, "/poll Tabs or spaces?\ntabs\nspaces").to_string();
    let post = |who: Option<&Creds>, message_id: &str, msg_type: &str, content: &str| {
        api.post(
            "/submessage",
            who,
            &[("message_id", message_id), ("msg_type", msg_type), ("content", content)],
        )
    };
    let refused = |who: &Creds, message_id: &str, content: &str, msg: &str| {
        let body = post(Some(who), message_id, "widget", content).error(400, "BAD_REQUEST");
        assert_eq!(body["msg"], msg, "{content}");
    };
    let cases = [
        ("bogus", "Invalid json for submessage"),
        ("[]", "poll data is not a dict"),
        (r#"{"type": "bogus"}"#, "Unknown type for poll data: bogus"),
        (r#"{"type": "vote"}"#, "key key is missing from poll data"),
        (r#"{"type": "vote", "key": "1,1,", "vote": 99}"#, r#"Invalid poll data["vote"]"#),
        (r#"{"type": "vote", "key": "1,1", "vote": 1, "extra": 1}"#, "Unexpected arguments: extra"),
        (r#"{"type": "new_option", "idx": 1001, "option": "pizza"}"#, r#"poll data["idx"] is too large"#),
        (
            r#"{"type": "new_option", "idx": "bogus", "option": "maybe"}"#,
            r#"poll data["idx"] is not an integer"#,
        ),
        (
            r#"{"type": "question", "question": "Vim or Emacs?"}"#,
            "You can't edit a question unless you are the author.",
        ),
    ];
    for (content, msg) in cases {
        refused(&ada, &poll, content, msg);
    }
    // Missing or malformed parameters, and messages one cannot see.
    let missing = |params: &[(&str, &str)], msg: &str| {
        let body = api.post("/submessage", Some(&ada), params).error(400, "REQUEST_VARIABLE_MISSING");
        assert_eq!(body["msg"], msg);
    };
    missing(&[("msg_type", "widget"), ("content", "{}")], "Missing 'message_id' argument");
    missing(&[("message_id", &poll), ("content", "{}")], "Missing 'msg_type' argument");
    missing(&[("message_id", &poll), ("msg_type", "widget")], "Missing 'content' argument");
    post(Some(&ada), "x", "widget", "{}").error(400, "BAD_REQUEST");
    for unknown in ["999999", "-1", "0"] {
        refused(&ada, unknown, "{}", "Invalid message(s)");
    }
    let params = [("type", "private"), ("to", "[\"owner@confab.localhost\"]"), ("content", "/poll secret?")];
    let direct = api.post("/messages", Some(&ada), &params).ok()["id"].as_u64().expect("id").to_string();
    let vote = r#"{"type": "vote", "key": "canned,0", "vote": 1}"#;
    refused(&bob, &direct, vote, "Invalid message(s)");
    post(Some(&owner), &direct, "widget", vote).ok();
    post(None, &poll, "widget", vote).error(401, "UNAUTHORIZED");

    // A plain message: only its sender may start its submessages; then anyone may add any JSON.
    let plain = send(&api, &owner, "just text").to_string();
    let salary = r#"{"name": "alice", "salary": 20}"#;
    let body = post(Some(&bob), &plain, "whatever", salary).error(400, "BAD_REQUEST");
    assert_eq!(body["msg"], "You cannot attach a submessage to this message.");
    post(Some(&owner), &plain, "whatever", salary).ok();
    post(Some(&bob), &plain, "whatever", "[1, 2]").ok();
    let listed = message(&api, &bob, plain.parse().expect("an id"))["submessages"].clone();
    assert_eq!(listed.as_array().map(Vec::len), Some(2), "{listed}");
    assert_eq!(listed[0]["msg_type"], "whatever");
    assert_eq!(listed[1]["content"], "[1, 2]", "kept as sent");

    // A widget's content cannot be edited, nor a message with submessages; its topic can.
    let edit =
        |id: &str, params: &[(&str, &str)]| api.patch(&format!("/messages/{id}"), Some(&owner), params);
    let body = edit(&poll, &[("content", "/poll changed?")]).error(400, "BAD_REQUEST");
    assert_eq!(body["msg"], "Widgets cannot be edited.");
    assert_eq!(
        edit(&plain, &[("content", "more")]).error(400, "BAD_REQUEST")["msg"],
        "Widgets cannot be edited."
    );
    edit(&poll, &[("topic", "elsewhere")]).ok();

    // Nothing refused was stored: the poll has its widget alone.
    let poll_id: u64 = poll.parse().expect("an id");
    assert_eq!(message(&api, &ada, poll_id)["submessages"].as_array().map(Vec::len), Some(1));
    // A deleted message takes its submessages with it.
    api.delete(&format!("/messages/{poll}"), Some(&owner), &[]).ok();
    refused(&ada, &poll, vote, "Invalid message(s)");
}

#[test]
fn todo_lists_and_widget_content() {
    let Org { server, owner, ada, bob: _ } = org();
    let api = server.api();
    let owner_id = api.user_id(&owner);
    let todo = send(&api, &owner, "/todo Chores\ndishes: tonight\n* laundry");
    let widget = json!({
        "widget_type": "todo",
        "extra_data": {"task_list_title": "Chores", "tasks": [{"task": "dishes", "desc": "tonight"}, {"task": "laundry", "desc": ""}]},
    });
    assert_eq!(contents(&message(&api, &ada, todo)), [(owner_id, widget)]);
    let strike = json!({"type": "strike", "key": "0,canned"});
    submessage(&api, &ada, todo, &strike).ok();
    let task = json!({"type": "new_task", "key": 2, "task": "groceries", "desc": "", "completed": false});
    submessage(&api, &ada, todo, &task).ok();
    let title = json!({"type": "new_task_list_title", "title": "Mine now"});
    let refused = submessage(&api, &ada, todo, &title).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "You can't edit the task list title unless you are the author.");
    let bad_key = json!({"type": "strike", "key": 999});
    assert_eq!(
        submessage(&api, &ada, todo, &bad_key).error(400, "BAD_REQUEST")["msg"],
        r#"todo data["key"] is not a string"#
    );
    submessage(&api, &owner, todo, &title).ok();
    assert_eq!(message(&api, &owner, todo)["submessages"].as_array().map(Vec::len), Some(4));

    // An API client's `widget_content`: Zulip takes only `zform` from clients.
    let zform = json!({"widget_type": "zform", "extra_data": {"type": "choices", "heading": "Pick", "choices": [{"short_name": "A", "long_name": "Apples", "reply": "apples"}]}});
    let with_widget = |content: &str, widget: &str| {
        let params = [
            ("type", "stream"),
            ("to", "general"),
            ("topic", "bots"),
            ("content", content),
            ("widget_content", widget),
        ];
        api.post("/messages", Some(&owner), &params)
    };
    let sent = with_widget("/poll ignored?", &zform.to_string()).ok();
    assert_eq!(sent.get("ignored_parameters_unsupported"), None, "{sent}");
    let id = sent["id"].as_u64().expect("id");
    assert_eq!(contents(&message(&api, &ada, id)), [(owner_id, zform)]);
    let refusals = [
        ("{{{{{{", "Widgets: API programmer sent invalid JSON content"),
        (r#"{"color": "red"}"#, "Widgets: widget_type is not in widget_content"),
        (r#"{"widget_type": "poll", "extra_data": {}}"#, "Widgets: unknown widget type: poll"),
        (
            r#"{"widget_type": "zform", "extra_data": {"type": "choices"}}"#,
            "Widgets: heading key is missing from extra_data",
        ),
    ];
    for (widget, msg) in refusals {
        assert_eq!(with_widget("hello", widget).error(400, "BAD_REQUEST")["msg"], msg, "{widget}");
    }
    // Only the command's first word counts.
    let plain = send(&api, &owner, "let's /poll later");
    assert_eq!(message(&api, &ada, plain)["submessages"], json!([]));
}
