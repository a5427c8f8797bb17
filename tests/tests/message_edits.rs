//! Editing, moving, resolving and deleting messages (zulip-semantics §5), and their history.

use confab_tests::{Creds, TestServer, UploadFile};
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
    api.subscribe(&owner, &["general", "archive"], &["owner@confab.localhost", "ada@example.com"]);
    World { server, owner, ada }
}

impl World {
    fn send(&self, who: &Creds, stream: &str, topic: &str, content: &str) -> u64 {
        let params = [("type", "stream"), ("to", stream), ("topic", topic), ("content", content)];
        self.server.api().post("/messages", Some(who), &params).ok()["id"].as_u64().expect("id")
    }

    fn message(&self, who: &Creds, id: u64) -> Value {
        self.server.api().get(&format!("/messages/{id}"), Some(who), &[]).ok()["message"].clone()
    }

    fn topic(&self, who: &Creds, stream: &str, topic: &str) -> Vec<Value> {
        let narrow = json!([["channel", stream], ["topic", topic]]).to_string();
        let params =
            [("anchor", "newest"), ("num_before", "100"), ("num_after", "0"), ("narrow", narrow.as_str())];
        self.server.api().get("/messages", Some(who), &params).ok()["messages"]
            .as_array()
            .expect("messages")
            .clone()
    }

    fn patch(&self, who: &Creds, id: u64, params: &[(&str, &str)]) -> confab_tests::Reply {
        let url = format!("{}/api/v1/messages/{id}", self.server.base_url);
        let response = reqwest::blocking::Client::new()
            .patch(url)
            .basic_auth(&who.email, Some(&who.api_key))
            .form(params)
            .send()
            .expect("the server answers");
        let status = response.status().as_u16();
        confab_tests::Reply { status, body: response.json().expect("JSON") }
    }
}

fn ids(messages: &[Value]) -> Vec<u64> {
    messages.iter().map(|m| m["id"].as_u64().expect("id")).collect()
}

#[test]
fn two_content_edits_give_a_history_of_three_snapshots() {
    let world = world();
    let api = world.server.api();
    let id = world.send(&world.ada, "general", "plans", "Lunch at noon");
    let queue = api.post("/register", Some(&world.owner), &[("event_types", r#"["update_message"]"#)]).ok();
    world.patch(&world.ada, id, &[("content", "Lunch at one")]).ok();
    world.patch(&world.ada, id, &[("content", "Lunch at **two**")]).ok();
    // Feature level 284 took `prev_rendered_content_version` out of edits and their events.
    let events = api.queued(&world.owner, &queue)["events"].clone();
    assert_eq!(events[1]["orig_rendered_content"], "<p>Lunch at one</p>", "{events}");
    for event in events.as_array().expect("events") {
        assert!(event.get("prev_rendered_content_version").is_none(), "{event}");
    }

    let message = world.message(&world.owner, id);
    assert_eq!(message["content"], "<p>Lunch at <strong>two</strong></p>");
    assert!(message["last_edit_timestamp"].is_i64());
    let edit_history = message["edit_history"].as_array().expect("edit_history");
    assert_eq!(edit_history.len(), 2);
    assert_eq!(edit_history[0]["prev_content"], "Lunch at one", "newest first");
    assert_eq!(edit_history[1]["prev_content"], "Lunch at noon");
    assert!(edit_history.iter().all(|e| e.get("prev_rendered_content_version").is_none()), "{message}");

    let history = world.server.api().get(&format!("/messages/{id}/history"), Some(&world.owner), &[]).ok();
    let snapshots = history["message_history"].as_array().expect("message_history");
    assert_eq!(snapshots.len(), 3);
    assert_eq!(snapshots[0]["content"], "Lunch at noon");
    assert!(snapshots[0].get("prev_content").is_none(), "the original has only its own state");
    assert_eq!(snapshots[1]["prev_content"], "Lunch at noon");
    assert_eq!(snapshots[1]["content"], "Lunch at one");
    assert_eq!(snapshots[2]["prev_content"], "Lunch at one");
    assert_eq!(snapshots[2]["rendered_content"], "<p>Lunch at <strong>two</strong></p>");
    assert!(
        snapshots[2]["content_html_diff"].as_str().is_some_and(|d| d.contains("highlight_text_inserted")),
        "{}",
        snapshots[2]
    );
    for snapshot in snapshots {
        for field in ["topic", "content", "rendered_content", "timestamp", "user_id"] {
            assert!(snapshot.get(field).is_some(), "snapshot lacks {field}: {snapshot}");
        }
        assert!(snapshot.get("prev_rendered_content_version").is_none(), "{snapshot}");
    }
}

#[test]
fn an_organization_showing_only_moves_hides_content_edits_from_the_history() {
    let world = world();
    let id = world.send(&world.ada, "general", "plans", "Lunch at noon");
    world.patch(&world.ada, id, &[("content", "Lunch at one")]).ok();
    world.patch(&world.ada, id, &[("content", "Lunch at two"), ("topic", "lunch")]).ok();
    let api = world.server.api();
    api.patch("/realm", Some(&world.owner), &[("message_edit_history_visibility_policy", "moves")]).ok();
    let history = api.get(&format!("/messages/{id}/history"), Some(&world.owner), &[]).ok();
    let snapshots = history["message_history"].as_array().expect("message_history");
    // The original, and the rename without the content it carried (feature level 358).
    assert_eq!(snapshots.len(), 2, "{history}");
    assert_eq!(snapshots[1]["prev_topic"], "plans");
    for field in ["prev_content", "prev_rendered_content", "content_html_diff"] {
        assert!(snapshots[1].get(field).is_none(), "{field} shown: {}", snapshots[1]);
    }
}

#[test]
fn only_the_sender_edits_content_and_bad_edits_are_refused() {
    let world = world();
    let id = world.send(&world.ada, "general", "plans", "mine");
    let refused = world.patch(&world.owner, id, &[("content", "hijacked")]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "You don't have permission to edit this message");
    assert_eq!(world.patch(&world.ada, id, &[]).error(400, "BAD_REQUEST")["msg"], "Nothing to change");
    let mode = world
        .patch(&world.ada, id, &[("content", "x"), ("propagate_mode", "change_all")])
        .error(400, "BAD_REQUEST");
    assert_eq!(mode["msg"], "Invalid propagate_mode without topic edit");
    world.patch(&world.ada, id, &[("topic", "t"), ("propagate_mode", "sideways")]).error(400, "BAD_REQUEST");
    assert_eq!(
        world.patch(&world.ada, 999_999, &[("content", "x")]).error(400, "BAD_REQUEST")["msg"],
        "Invalid message(s)"
    );
    let history =
        world.server.api().get("/messages/999999/history", Some(&world.ada), &[]).error(400, "BAD_REQUEST");
    assert_eq!(history["msg"], "Invalid message(s)");

    let dm = world
        .server
        .api()
        .post("/messages", Some(&world.ada), &[("type", "private"), ("to", "[1]"), ("content", "hi")])
        .ok()["id"]
        .as_u64()
        .expect("id");
    let topic = world.patch(&world.ada, dm, &[("topic", "nope")]).error(400, "BAD_REQUEST");
    assert_eq!(topic["msg"], "Direct messages cannot have topics.");
    assert_eq!(world.message(&world.ada, id)["content"], "<p>mine</p>", "nothing was written");
}

#[test]
fn topic_moves_follow_the_propagate_mode() {
    let world = world();
    let sent: Vec<u64> = (0..4).map(|i| world.send(&world.ada, "general", "Old", &format!("m{i}"))).collect();

    world
        .patch(
            &world.owner,
            sent[1],
            &[
                ("topic", "one"),
                ("propagate_mode", "change_one"),
                ("send_notification_to_new_thread", "false"),
            ],
        )
        .ok();
    assert_eq!(ids(&world.topic(&world.owner, "general", "old")), vec![sent[0], sent[2], sent[3]]);
    world
        .patch(
            &world.owner,
            sent[2],
            &[
                ("topic", "later"),
                ("propagate_mode", "change_later"),
                ("send_notification_to_new_thread", "false"),
            ],
        )
        .ok();
    assert_eq!(ids(&world.topic(&world.owner, "general", "later")), vec![sent[2], sent[3]]);

    world
        .patch(
            &world.owner,
            sent[3],
            &[
                ("topic", "everything"),
                ("propagate_mode", "change_all"),
                ("send_notification_to_old_thread", "true"),
            ],
        )
        .ok();
    let moved = world.topic(&world.owner, "general", "everything");
    assert_eq!(ids(&moved[..2]), vec![sent[2], sent[3]], "change_all moves every message of the topic");
    let notice = &moved[2];
    assert_eq!(notice["sender_full_name"], "Notification Bot");
    assert!(
        notice["content"].as_str().is_some_and(|c| c.contains("This topic was moved here from")),
        "{notice}"
    );
    let old = world.topic(&world.owner, "general", "later");
    assert_eq!(old.len(), 1, "only the notice stays behind");
    assert!(old[0]["content"].as_str().is_some_and(|c| c.contains("This topic was moved to")), "{}", old[0]);

    let message = world.message(&world.owner, sent[3]);
    assert!(message["last_moved_timestamp"].is_i64());
    assert_eq!(message["edit_history"][0]["prev_topic"], "later");
    assert_eq!(message["edit_history"][0]["topic"], "everything");
    assert!(message.get("last_edit_timestamp").is_none(), "moves are not content edits");
}

#[test]
fn resolving_a_topic_posts_a_notice_and_is_not_a_move() {
    let world = world();
    let id = world.send(&world.ada, "general", "bug 12", "It crashes");
    world.patch(&world.ada, id, &[("topic", "✔ bug 12"), ("propagate_mode", "change_all")]).ok();
    let resolved = world.topic(&world.owner, "general", "✔ bug 12");
    assert_eq!(resolved.len(), 2);
    assert!(
        resolved[1]["content"].as_str().is_some_and(|c| c.contains("has marked this topic as resolved.")),
        "{}",
        resolved[1]
    );
    assert!(world.message(&world.owner, id).get("last_moved_timestamp").is_none(), "resolving is not a move");
    let narrow = r#"[{"operator": "is", "operand": "resolved"}]"#;
    let found = world
        .server
        .api()
        .get(
            "/messages",
            Some(&world.owner),
            &[("anchor", "newest"), ("num_before", "10"), ("num_after", "0"), ("narrow", narrow)],
        )
        .ok();
    assert_eq!(found["messages"].as_array().expect("messages").len(), 2);
}

#[test]
fn a_resolved_topic_notice_is_read_as_each_receiver_chose() {
    let world = world();
    let api = world.server.api();
    let grace = api.create_user(&world.owner, "grace@example.com", "Grace");
    api.subscribe(&world.owner, &["general"], &["grace@example.com"]);
    api.patch("/settings", Some(&world.owner), &[("resolved_topic_notice_auto_read_policy", "always")]).ok();
    api.patch("/settings", Some(&grace), &[("resolved_topic_notice_auto_read_policy", "never")]).ok();
    api.patch("/settings", Some(&grace), &[("resolved_topic_notice_auto_read_policy", "sometimes")])
        .error(400, "BAD_REQUEST");
    // Ada started the topic, so she follows it: her default `except_followed` leaves it unread.
    let id = world.send(&world.ada, "general", "bug 13", "It hangs");
    world.patch(&world.ada, id, &[("topic", "✔ bug 13"), ("propagate_mode", "change_all")]).ok();
    let notice_read = |who: &Creds| {
        let notice = world.topic(who, "general", "✔ bug 13")[1].clone();
        notice["flags"].as_array().expect("flags").contains(&json!("read"))
    };
    assert!(notice_read(&world.owner), "always");
    assert!(!notice_read(&world.ada), "except_followed, and Ada follows the topic");
    assert!(!notice_read(&grace), "never");
}

#[test]
fn messages_move_between_channels() {
    let world = world();
    let id = world.send(&world.ada, "general", "misfiled", "belongs elsewhere");
    let archive = world.server.api().get("/get_stream_id", Some(&world.owner), &[("stream", "archive")]).ok()
        ["stream_id"]
        .to_string();
    world
        .patch(
            &world.owner,
            id,
            &[("stream_id", archive.as_str()), ("send_notification_to_new_thread", "false")],
        )
        .ok();
    assert_eq!(ids(&world.topic(&world.owner, "archive", "misfiled")), vec![id]);
    assert!(world.topic(&world.owner, "general", "misfiled").is_empty());
    let message = world.message(&world.ada, id);
    assert_eq!(message["display_recipient"], "archive");
    assert_eq!(message["edit_history"][0]["stream"].to_string(), archive);
    let both =
        world.patch(&world.owner, id, &[("stream_id", "1"), ("content", "x")]).error(400, "BAD_REQUEST");
    assert_eq!(both["msg"], "Cannot change message content while changing channel");
}

#[test]
fn deleting_messages_and_topics() {
    let world = world();
    let api = world.server.api();
    let mine = world.send(&world.ada, "general", "t", "oops");
    let theirs = world.send(&world.owner, "general", "t", "owner's");
    let refused = api.delete(&format!("/messages/{theirs}"), Some(&world.ada), &[]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "You don't have permission to delete this message");
    api.delete(&format!("/messages/{mine}"), Some(&world.ada), &[]).ok();
    api.get(&format!("/messages/{mine}"), Some(&world.owner), &[]).error(400, "BAD_REQUEST");
    assert_eq!(ids(&world.topic(&world.owner, "general", "t")), vec![theirs]);

    world.send(&world.ada, "general", "doomed", "a");
    world.send(&world.ada, "general", "doomed", "b");
    let general =
        api.get("/get_stream_id", Some(&world.owner), &[("stream", "general")]).ok()["stream_id"].to_string();
    let topics = api.get(&format!("/users/me/{general}/topics"), Some(&world.ada), &[]).ok();
    let names: Vec<&str> = topics["topics"]
        .as_array()
        .expect("topics")
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, vec!["doomed", "t"], "most recent first");
    api.post(&format!("/streams/{general}/delete_topic"), Some(&world.ada), &[("topic_name", "doomed")])
        .error(400, "UNAUTHORIZED_PRINCIPAL");
    let done = api
        .post(&format!("/streams/{general}/delete_topic"), Some(&world.owner), &[("topic_name", "doomed")])
        .ok();
    assert_eq!(done["complete"], true);
    assert!(world.topic(&world.owner, "general", "doomed").is_empty());
    let search = api
        .get(
            "/messages",
            Some(&world.owner),
            &[
                ("anchor", "newest"),
                ("num_before", "10"),
                ("num_after", "0"),
                ("narrow", r#"[["search", "doomed"]]"#),
            ],
        )
        .ok();
    assert_eq!(search["messages"], json!([]), "deleted messages leave the search index");
}

/// The `delete_message` event reaches the user who deleted, even one who never received the
/// message (feature level 274): an administrator cleaning up a channel they are not in.
#[test]
fn whoever_deletes_a_message_hears_of_it() {
    let world = world();
    let api = world.server.api();
    let params = [("subscriptions", r#"[{"name": "lounge"}]"#)];
    api.post("/users/me/subscriptions", Some(&world.ada), &params).ok();
    let id = world.send(&world.ada, "lounge", "chat", "spam");
    let register = [
        ("event_types", r#"["delete_message"]"#),
        ("client_capabilities", r#"{"bulk_message_deletion": true}"#),
    ];
    let owner_queue = api.post("/register", Some(&world.owner), &register).ok();
    let ada_queue = api.post("/register", Some(&world.ada), &register).ok();
    api.delete(&format!("/messages/{id}"), Some(&world.owner), &[]).ok();
    for (who, queue) in [(&world.owner, &owner_queue), (&world.ada, &ada_queue)] {
        let events = api.queued(who, queue)["events"].clone();
        assert_eq!(events.as_array().map(Vec::len), Some(1), "{}: {events}", who.email);
        assert_eq!(events[0]["type"], "delete_message");
        assert_eq!(events[0]["message_ids"], json!([id]));
    }
}

#[test]
fn a_whole_topic_moved_keeps_its_muting() {
    let world = world();
    let api = world.server.api();
    let sent: Vec<u64> =
        (0..2).map(|i| world.send(&world.owner, "general", "plans", &format!("m{i}"))).collect();
    let general = api.get("/get_stream_id", Some(&world.ada), &[("stream", "general")]).ok()["stream_id"]
        .as_u64()
        .expect("id");
    let general_id = general.to_string();
    let mute = [("stream_id", general_id.as_str()), ("topic", "plans"), ("visibility_policy", "1")];
    api.post("/user_topics", Some(&world.ada), &mute).ok();
    let modern = api.post("/register", Some(&world.ada), &[("event_types", r#"["user_topic"]"#)]).ok();
    let legacy = api.post("/register", Some(&world.ada), &[("event_types", r#"["muted_topics"]"#)]).ok();

    // Part of the topic moves without its muting; the rest takes it along.
    world.patch(&world.owner, sent[0], &[("topic", "aside"), ("propagate_mode", "change_one")]).ok();
    world.patch(&world.owner, sent[1], &[("topic", "lunch"), ("propagate_mode", "change_all")]).ok();

    let topics: Vec<Value> = api.queued(&world.ada, &modern)["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| json!([e["topic_name"], e["visibility_policy"]]))
        .collect();
    assert_eq!(topics, vec![json!(["plans", 0]), json!(["lunch", 1])]);
    let legacy_events = api.queued(&world.ada, &legacy)["events"].clone();
    assert_eq!(legacy_events.as_array().map(Vec::len), Some(1), "{legacy_events}");
    let muted = &legacy_events[0]["muted_topics"];
    assert_eq!([&muted[0][0], &muted[0][1]], [&json!("general"), &json!("lunch")], "{muted}");

    let state = api.post("/register", Some(&world.ada), &[("event_types", r#"["user_topic"]"#)]).ok();
    let now: Vec<Value> =
        state["user_topics"].as_array().expect("list").iter().map(|t| t["topic_name"].clone()).collect();
    assert_eq!(now, vec![json!("lunch")]);
}

#[test]
fn moves_and_deletions_list_their_messages_in_ascending_order() {
    let world = world();
    let api = world.server.api();
    let sent: Vec<u64> =
        ["a", "b", "c"].iter().map(|c| world.send(&world.ada, "general", "plans", c)).collect();
    let queue = api
        .post(
            "/register",
            Some(&world.owner),
            &[
                ("event_types", r#"["update_message", "delete_message"]"#),
                ("client_capabilities", r#"{"bulk_message_deletion": true}"#),
            ],
        )
        .ok();
    // Moved from the newest message, deleted as a topic: feature level 393 sorts both lists.
    let quietly =
        [("topic", "later"), ("propagate_mode", "change_all"), ("send_notification_to_new_thread", "false")];
    world.patch(&world.owner, sent[2], &quietly).ok();
    let general =
        api.get("/get_stream_id", Some(&world.owner), &[("stream", "general")]).ok()["stream_id"].to_string();
    api.post(&format!("/streams/{general}/delete_topic"), Some(&world.owner), &[("topic_name", "later")])
        .ok();

    let events = api.queued(&world.owner, &queue)["events"].clone();
    let lists: Vec<(Value, Value)> = events
        .as_array()
        .expect("events")
        .iter()
        .map(|e| (e["type"].clone(), e["message_ids"].clone()))
        .collect();
    assert_eq!(
        lists,
        vec![(json!("update_message"), json!(sent)), (json!("delete_message"), json!(sent))],
        "{events}"
    );
}

#[test]
fn moving_out_of_a_channel_takes_the_organizations_or_the_channels_group() {
    let world = world();
    let api = world.server.api();
    let group = |name: &str| {
        let groups = api.get("/user_groups", Some(&world.owner), &[]).ok()["user_groups"].clone();
        groups.as_array().expect("list").iter().find(|g| g["name"] == name).expect("group")["id"].clone()
    };
    let stream_id = |name: &str| {
        api.get("/get_stream_id", Some(&world.owner), &[("stream", name)]).ok()["stream_id"].to_string()
    };
    let (general, archive) = (stream_id("general"), stream_id("archive"));
    let nobody = json!({"new": group("role:nobody")}).to_string();
    api.patch("/realm", Some(&world.owner), &[("can_move_messages_between_channels_group", nobody.as_str())])
        .ok();
    let id = world.send(&world.ada, "general", "misfiled", "belongs elsewhere");
    let move_it = || {
        world.patch(
            &world.ada,
            id,
            &[("stream_id", archive.as_str()), ("send_notification_to_new_thread", "false")],
        )
    };
    let refused = move_it().error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "You don't have permission to move this message");

    // Feature level 396: the channel's own group, nobody by default, widens the permission.
    let shown = |id: &str| api.get(&format!("/streams/{id}"), Some(&world.ada), &[]).ok()["stream"].clone();
    assert_eq!(shown(&general)["can_move_messages_out_of_channel_group"], group("role:nobody"));
    let ada_id = api.user_id(&world.ada);
    let ada_only = json!({"new": {"direct_members": [ada_id], "direct_subgroups": []}}).to_string();
    api.patch(
        &format!("/streams/{general}"),
        Some(&world.owner),
        &[("can_move_messages_out_of_channel_group", ada_only.as_str())],
    )
    .ok();
    assert_eq!(
        shown(&general)["can_move_messages_out_of_channel_group"],
        json!({"direct_members": [ada_id], "direct_subgroups": []})
    );
    move_it().ok();
    assert_eq!(world.message(&world.ada, id)["display_recipient"], "archive");
    // Out of `archive`, which left the group at its default, she may not move it back.
    let back = [("stream_id", general.as_str()), ("send_notification_to_new_thread", "false")];
    world.patch(&world.ada, id, &back).error(400, "BAD_REQUEST");
}

/// The SHA-256 of "Lunch at noon" and of "Lunch at one", as a client computes them.
const NOON_SHA256: &str = "8855a76aba6d2fa7802816fa62cbc154c0f3244be438a016e313e6ccdd18fc52";
const ONE_SHA256: &str = "dc98b4947801683669088ce1b771ee20b9523534a648c11fa8f43097fa860377";

/// Feature level 379: an edit names the content it was made from by its SHA-256; one made from
/// content that has changed since is refused, so a stale edit cannot overwrite a newer one.
#[test]
fn an_edit_made_from_old_content_is_refused() {
    let world = world();
    let id = world.send(&world.ada, "general", "plans", "Lunch at noon");
    world.patch(&world.ada, id, &[("content", "Lunch at one"), ("prev_content_sha256", NOON_SHA256)]).ok();

    let stale =
        world.patch(&world.ada, id, &[("content", "Lunch at two"), ("prev_content_sha256", NOON_SHA256)]);
    let refused = stale.error(400, "EXPECTATION_MISMATCH");
    assert_eq!(refused["msg"], "'prev_content_sha256' value does not match the expected value.");
    assert_eq!(world.message(&world.owner, id)["content"], "<p>Lunch at one</p>", "the newer edit stands");

    // Zulip checks the hash on moves too, so that the parameter means one thing.
    let moving = [("topic", "later"), ("prev_content_sha256", NOON_SHA256)];
    world.patch(&world.owner, id, &moving).error(400, "EXPECTATION_MISMATCH");
    world.patch(&world.ada, id, &[("content", "Lunch at two"), ("prev_content_sha256", ONE_SHA256)]).ok();
    assert_eq!(world.message(&world.owner, id)["content"], "<p>Lunch at two</p>");
}

/// Feature level 285: an edit's reply lists the editor's uploads it left linked from no
/// message (Zulip's `detached_uploads`), so the client can offer to delete them.
#[test]
fn an_edit_reports_the_uploads_it_left_unlinked() {
    let world = world();
    let api = world.server.api();
    let upload = |name: &str| {
        let file = UploadFile { name, content_type: None, bytes: b"minutes" };
        let reply = api.send_files(reqwest::Method::POST, "/user_uploads", Some(&world.ada), &[file]).ok();
        reply["url"].as_str().expect("url").to_owned()
    };
    let (alone, shared) = (upload("alone.txt"), upload("shared.txt"));
    let id = world.send(&world.ada, "general", "files", &format!("[a]({alone}) and [s]({shared})"));
    world.send(&world.ada, "general", "files", &format!("[s]({shared}) again"));

    let unshared = world.patch(&world.ada, id, &[("content", &format!("just [a]({alone})"))]).ok();
    assert_eq!(unshared["detached_uploads"], json!([]), "the other message still links the shared file");
    let edited = world.patch(&world.ada, id, &[("content", "no files")]).ok();
    let detached = edited["detached_uploads"].as_array().expect("detached_uploads");
    assert_eq!(detached.len(), 1, "{edited}");
    assert_eq!(detached[0]["name"], "alone.txt");
    assert_eq!(detached[0]["messages"], json!([]));
    assert!(alone.ends_with(detached[0]["path_id"].as_str().expect("path_id")));
    for field in ["id", "size", "create_time"] {
        assert!(detached[0][field].is_u64(), "{field} in {}", detached[0]);
    }
}

/// Feature levels 347 and 400: a `#**channel>topic**` link names the topic's newest message
/// (`/with/<id>`), so that it still finds the conversation after the topic moves.
#[test]
fn a_topic_link_names_the_newest_message_to_follow_moves() {
    let world = world();
    world.send(&world.owner, "general", "plans", "first");
    let newest = world.send(&world.owner, "general", "plans", "second");
    let linking =
        world.send(&world.ada, "general", "elsewhere", "see #**general>Plans** and #**general>nothing**");
    let content = world.message(&world.ada, linking)["content"].as_str().expect("content").to_owned();
    let general = world.message(&world.ada, newest)["stream_id"].as_u64().expect("stream_id");
    assert!(
        content.contains(&format!("href=\"/#narrow/channel/{general}-general/topic/Plans/with/{newest}\"")),
        "{content}"
    );
    assert!(
        content.contains(&format!("href=\"/#narrow/channel/{general}-general/topic/nothing\"")),
        "a topic without messages has no /with/: {content}"
    );
}
