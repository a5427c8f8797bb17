//! A user's own records (spec 2.6–2.8, 4.8, 4.15, 4.17, 4.20, 4.21): drafts, saved snippets and
//! navigation views kept in step across the user's clients by events; push device tokens; bot
//! storage. Error texts are Zulip's, byte for byte.

use confab_tests::{Api, Creds, TestServer};
use serde_json::{Value, json};

fn setup() -> (TestServer, Creds, Creds) {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let ada = server.api().create_user(&owner, "ada@example.com", "Ada");
    (server, owner, ada)
}

fn error_text(reply: confab_tests::Reply, status: u16) -> String {
    reply.error(status, "BAD_REQUEST")["msg"].as_str().expect("msg").to_owned()
}

fn registered(api: &Api, who: &Creds, kind: &str) -> Value {
    api.post("/register", Some(who), &[("fetch_event_types", &json!([kind]).to_string())]).ok()
}

#[test]
fn drafts_are_created_edited_deleted_and_synchronized() {
    let (server, owner, ada) = setup();
    let api = server.api();
    api.subscribe(&owner, &["general"], &["ada@example.com"]);
    let general = api.get("/get_stream_id", Some(&ada), &[("stream", "general")]).ok()["stream_id"].clone();
    let owner_id = api.get("/users/me", Some(&owner), &[]).ok()["user_id"].clone();
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["drafts"]"#)]).ok();

    let drafts = json!([
        {"type": "stream", "to": [general], "topic": "lunch", "content": "Pizza?", "timestamp": 1700000000},
        {"type": "private", "to": [owner_id], "topic": "", "content": "psst"},
        {"type": "", "to": [], "topic": "", "content": "someday"}
    ])
    .to_string();
    let ids = api.post("/drafts", Some(&ada), &[("drafts", drafts.as_str())]).ok()["ids"].clone();
    let ids: Vec<u64> = ids.as_array().expect("ids").iter().map(|i| i.as_u64().expect("id")).collect();
    assert_eq!(ids.len(), 3);
    let listed = api.get("/drafts", Some(&ada), &[]).ok();
    assert_eq!(listed["count"], 3);
    assert_eq!(
        listed["drafts"][0],
        json!({"id": ids[0], "type": "stream", "to": [general], "topic": "lunch", "content": "Pizza?", "timestamp": 1700000000})
    );
    assert_eq!(listed["drafts"][1]["to"], json!([owner_id]));
    assert_eq!(registered(&api, &ada, "drafts")["drafts"], listed["drafts"]);
    assert_eq!(api.get("/drafts", Some(&owner), &[]).ok()["drafts"], json!([]), "drafts are their owner's");

    let edited =
        json!({"type": "stream", "to": [general], "topic": "lunch", "content": "Pizza at noon?"}).to_string();
    api.patch(&format!("/drafts/{}", ids[0]), Some(&ada), &[("draft", edited.as_str())]).ok();
    api.delete(&format!("/drafts/{}", ids[2]), Some(&ada), &[]).ok();
    let events = api.queued(&ada, &queue);
    let ops: Vec<&str> =
        events["events"].as_array().expect("events").iter().map(|e| e["op"].as_str().expect("op")).collect();
    assert_eq!(ops, ["add", "update", "remove"]);
    assert_eq!(events["events"][1]["draft"]["content"], "Pizza at noon?");
    assert_eq!(events["events"][2]["draft_id"], ids[2]);

    assert_eq!(
        error_text(api.patch("/drafts/99999", Some(&ada), &[("draft", edited.as_str())]), 404),
        "Draft does not exist"
    );
    assert_eq!(
        error_text(api.delete(&format!("/drafts/{}", ids[0]), Some(&owner), &[]), 404),
        "Draft does not exist"
    );
    let bad = |draft: Value| {
        let text = json!([draft]).to_string();
        error_text(api.post("/drafts", Some(&ada), &[("drafts", text.as_str())]), 400)
    };
    assert_eq!(
        bad(json!({"type": "stream", "to": [general], "topic": "a\u{0}b", "content": "x"})),
        "Topic must not contain null bytes"
    );
    assert_eq!(
        bad(json!({"type": "stream", "to": [general], "topic": "t", "content": "a\u{0}b"})),
        "Message must not contain null bytes"
    );
    assert_eq!(
        bad(json!({"type": "stream", "to": [], "topic": "t", "content": "x"})),
        "Must specify exactly 1 channel ID for channel messages"
    );
    assert_eq!(
        bad(json!({"type": "", "to": [], "topic": "", "content": "x", "timestamp": -5})),
        "Timestamp must not be negative."
    );
    // The form of each draft, in the texts of Zulip's parameter parsing.
    assert_eq!(
        bad(json!({"type": "dm", "to": [], "topic": "", "content": "x"})),
        r#"Invalid drafts[0]["type"]"#
    );
    assert_eq!(
        bad(json!({"type": "", "to": 5, "topic": "", "content": "x"})),
        r#"drafts[0]["to"] is not a list"#
    );
    assert_eq!(
        bad(json!({"type": "", "to": ["a"], "topic": "", "content": "x"})),
        r#"drafts[0]["to"][0] is not an integer"#
    );
    assert_eq!(
        bad(json!({"type": "", "to": [], "topic": 1, "content": "x"})),
        r#"drafts[0]["topic"] is not a string"#
    );
    assert_eq!(
        bad(json!({"type": "", "to": [], "topic": "", "content": "  "})),
        r#"drafts[0]["content"] cannot be blank"#
    );
    assert_eq!(
        bad(json!({"type": "", "to": [], "content": "x"})),
        r#"Missing 'drafts[0]["topic"]' argument"#
    );
    assert_eq!(
        bad(json!({"type": "", "to": [], "topic": "", "content": "x", "id": 5})),
        r#"Argument "id" at drafts[0]["id"] is unexpected"#
    );
    let blank = json!({"type": "", "to": [], "topic": "", "content": ""}).to_string();
    assert_eq!(
        error_text(api.patch("/drafts/99999", Some(&ada), &[("draft", blank.as_str())]), 400),
        r#"draft["content"] cannot be blank"#,
        "the form is checked before the draft is looked up"
    );

    // Stored as Zulip stores them: a conversation's other participants, a draft to nobody
    // unaddressed, the topic as typed.
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].clone();
    let more = json!([
        {"type": "private", "to": [ada_id, owner_id], "topic": "", "content": "both"},
        {"type": "private", "to": [], "topic": "", "content": "nobody"},
        {"type": "private", "to": [ada_id], "topic": "", "content": "note"},
        {"type": "stream", "to": [general], "topic": " lunch ", "content": "  padded  "}
    ])
    .to_string();
    let more = api.post("/drafts", Some(&ada), &[("drafts", more.as_str())]).ok()["ids"].clone();
    let listed = api.get("/drafts", Some(&ada), &[]).ok()["drafts"].clone();
    let find = |id: &Value| {
        listed.as_array().expect("drafts").iter().find(|d| d["id"] == *id).expect("draft").clone()
    };
    assert_eq!(find(&more[0])["to"], json!([owner_id]));
    assert_eq!((find(&more[1])["type"].clone(), find(&more[1])["to"].clone()), (json!(""), json!([])));
    assert_eq!(find(&more[2])["to"], json!([ada_id]));
    assert_eq!(
        (find(&more[3])["topic"].clone(), find(&more[3])["content"].clone()),
        (json!(" lunch "), json!("padded"))
    );

    let kept = json!([{"type": "", "to": [], "topic": "", "content": "kept"}]).to_string();
    api.post("/drafts", Some(&ada), &[("drafts", kept.as_str())]).ok();
    api.patch("/settings", Some(&ada), &[("enable_drafts_synchronization", "false")]).ok();
    assert_eq!(
        error_text(api.get("/drafts", Some(&ada), &[]), 400),
        "User has disabled synchronizing drafts."
    );
    // As in Zulip, turning synchronization off forgets the drafts the server kept.
    api.patch("/settings", Some(&ada), &[("enable_drafts_synchronization", "true")]).ok();
    assert_eq!(api.get("/drafts", Some(&ada), &[]).ok()["count"], 0);
}

#[test]
fn saved_snippets_keep_reusable_texts() {
    let (server, _owner, ada) = setup();
    let api = server.api();
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["saved_snippets"]"#)]).ok();
    let made = api
        .post("/saved_snippets", Some(&ada), &[("title", " Greeting "), ("content", "Hello **team**")])
        .ok();
    let id = made["saved_snippet_id"].as_u64().expect("id");
    let listed = api.get("/saved_snippets", Some(&ada), &[]).ok()["saved_snippets"].clone();
    assert_eq!(listed[0]["title"], "Greeting");
    assert_eq!(listed[0]["content"], "Hello **team**");
    assert_eq!(listed[0]["id"], id);
    assert!(listed[0]["date_created"].is_i64());
    api.patch(&format!("/saved_snippets/{id}"), Some(&ada), &[("title", "Hi")]).ok();
    api.delete(&format!("/saved_snippets/{id}"), Some(&ada), &[]).ok();
    let events = api.queued(&ada, &queue);
    assert_eq!(events["events"][0]["saved_snippet"]["title"], "Greeting");
    assert_eq!(events["events"][1]["saved_snippet"]["title"], "Hi");
    assert_eq!(
        events["events"][2],
        json!({"id": 2, "type": "saved_snippets", "op": "remove", "saved_snippet_id": id})
    );

    let create = |title: &str, content: &str| {
        api.post("/saved_snippets", Some(&ada), &[("title", title), ("content", content)])
    };
    assert_eq!(error_text(create("  ", "x"), 400), "Title cannot be empty.");
    assert_eq!(error_text(create("t", ""), 400), "Content cannot be empty.");
    assert_eq!(error_text(create(&"t".repeat(61), "x"), 400), "title is too long (limit: 60 characters)");
    assert_eq!(
        error_text(api.delete(&format!("/saved_snippets/{id}"), Some(&ada), &[]), 404),
        "Saved snippet does not exist."
    );
    // As in Zulip: what is sent is checked first, and an edit changing nothing succeeds unlooked.
    assert_eq!(
        error_text(api.patch("/saved_snippets/99999", Some(&ada), &[("title", " ")]), 400),
        "Title cannot be empty."
    );
    assert_eq!(
        error_text(api.patch("/saved_snippets/99999", Some(&ada), &[("title", "x")]), 404),
        "Saved snippet does not exist."
    );
    api.patch("/saved_snippets/99999", Some(&ada), &[]).ok();
}

#[test]
fn navigation_views_are_pinned_renamed_and_removed() {
    let (server, _owner, ada) = setup();
    let api = server.api();
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["navigation_view"]"#)]).ok();
    let add = |params: &[(&str, &str)]| api.post("/navigation_views", Some(&ada), params);
    add(&[("fragment", "narrow/is/starred"), ("is_pinned", "false")]).ok();
    add(&[("fragment", "narrow/channel/5-design"), ("is_pinned", "true"), ("name", "Design")]).ok();
    assert_eq!(
        api.get("/navigation_views", Some(&ada), &[]).ok()["navigation_views"],
        json!([
            {"fragment": "narrow/is/starred", "is_pinned": false, "name": null},
            {"fragment": "narrow/channel/5-design", "is_pinned": true, "name": "Design"}
        ])
    );
    api.patch("/navigation_views/narrow%2Fchannel%2F5-design", Some(&ada), &[("name", "Designers")]).ok();
    api.delete("/navigation_views/narrow%2Fis%2Fstarred", Some(&ada), &[]).ok();
    let events = api.queued(&ada, &queue);
    assert_eq!(events["events"][2]["data"], json!({"name": "Designers"}));
    assert_eq!(events["events"][3]["fragment"], "narrow/is/starred");
    assert_eq!(registered(&api, &ada, "navigation_view")["navigation_views"][0]["name"], "Designers");

    assert_eq!(
        error_text(add(&[("fragment", "  "), ("is_pinned", "true")]), 400),
        "fragment cannot be blank"
    );
    assert_eq!(
        error_text(
            add(&[("fragment", "narrow/channel/5-design"), ("is_pinned", "true"), ("name", "Again")]),
            400
        ),
        "Navigation view already exists."
    );
    assert_eq!(
        error_text(add(&[("fragment", "inbox"), ("is_pinned", "true"), ("name", "Mine")]), 400),
        "Built-in views cannot have a custom name."
    );
    assert_eq!(
        error_text(add(&[("fragment", "narrow/is/dm"), ("is_pinned", "true")]), 400),
        "Custom views must have a valid name."
    );
    assert_eq!(
        error_text(api.delete("/navigation_views/nowhere", Some(&ada), &[]), 404),
        "Navigation view does not exist."
    );
}

#[test]
fn push_tokens_are_registered_and_removed() {
    let (server, owner, ada) = setup();
    let api = server.api();
    api.post("/users/me/android_push_reg_id", Some(&ada), &[("token", "fcm-token-1")]).ok();
    api.delete("/users/me/android_push_reg_id", Some(&ada), &[("token", "fcm-token-1")]).ok();
    let apns = [("token", "c0ffee00c0ffee00"), ("appid", "org.zulip.Zulip")];
    api.post("/users/me/apns_device_token", Some(&ada), &apns).ok();
    // The device moves to the user who registers it last.
    api.post("/users/me/ios_push_device_token", Some(&owner), &apns).ok();
    let removal = [("token", "c0ffee00c0ffee00")];
    assert_eq!(
        error_text(api.delete("/users/me/ios_push_device_token", Some(&ada), &removal), 400),
        "Token does not exist"
    );
    api.delete("/users/me/ios_push_device_token", Some(&owner), &removal).ok();

    assert_eq!(
        error_text(api.post("/users/me/android_push_reg_id", Some(&ada), &[("token", "")]), 400),
        "Empty or invalid length token"
    );
    let long = "x".repeat(4097);
    assert_eq!(
        error_text(
            api.delete("/users/me/ios_push_device_token", Some(&ada), &[("token", long.as_str())]),
            400
        ),
        "Empty or invalid length token"
    );
    let bad = [("token", "xyz uses non-hex characters"), ("appid", "org.zulip.Zulip")];
    assert_eq!(
        error_text(api.post("/users/me/apns_device_token", Some(&ada), &bad), 400),
        "Invalid APNS token"
    );
}

#[test]
fn bots_keep_their_own_storage() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let made = api.post("/bots", Some(&owner), &[("full_name", "Keeper"), ("short_name", "keeper")]).ok();
    let host = server.base_url.trim_start_matches("http://").split(':').next().expect("host").to_owned();
    let bot =
        Creds { email: format!("keeper-bot@{host}"), api_key: made["api_key"].as_str().expect("key").into() };
    let storage = json!({"greeting": "hello", "count": "3"}).to_string();
    api.put("/bot_storage", Some(&bot), &[("storage", storage.as_str())]).ok();
    // People have no storage (Zulip's test_bot_storage_restrictions).
    assert_eq!(error_text(api.get("/bot_storage", Some(&ada), &[]), 400), "Must be a bot user");
    assert_eq!(
        error_text(api.put("/bot_storage", Some(&ada), &[("storage", "{}")]), 400),
        "Must be a bot user"
    );
    assert_eq!(error_text(api.delete("/bot_storage", Some(&ada), &[]), 400), "Must be a bot user");
    let not_text = json!({"foo": [1, 2, 3]}).to_string();
    assert_eq!(
        error_text(api.put("/bot_storage", Some(&bot), &[("storage", not_text.as_str())]), 400),
        r#"storage["foo"] is not a string"#
    );
    // An empty list of keys names them all.
    assert_eq!(
        api.get("/bot_storage", Some(&bot), &[("keys", "[]")]).ok()["storage"],
        json!({"greeting": "hello", "count": "3"})
    );
    assert_eq!(
        api.get("/bot_storage", Some(&bot), &[]).ok()["storage"],
        json!({"greeting": "hello", "count": "3"})
    );
    assert_eq!(
        api.get("/bot_storage", Some(&bot), &[("keys", r#"["count"]"#)]).ok()["storage"],
        json!({"count": "3"})
    );
    assert_eq!(
        error_text(api.get("/bot_storage", Some(&bot), &[("keys", r#"["missing"]"#)]), 400),
        "Key does not exist."
    );
    api.delete("/bot_storage", Some(&bot), &[("keys", r#"["count"]"#)]).ok();
    assert_eq!(api.get("/bot_storage", Some(&bot), &[]).ok()["storage"], json!({"greeting": "hello"}));
    let huge = json!({"big": "x".repeat(10_000_001)}).to_string();
    assert_eq!(
        error_text(api.put("/bot_storage", Some(&bot), &[("storage", huge.as_str())]), 400),
        "Request exceeds storage limit by 17 characters. The limit is 10000000 characters."
    );
    api.delete("/bot_storage", Some(&bot), &[]).ok();
    assert_eq!(api.get("/bot_storage", Some(&bot), &[]).ok()["storage"], json!({}));
}

#[test]
fn e2ee_push_registration_is_refused_as_by_a_server_without_push_notifications() {
    let (server, _, ada) = setup();
    let api = server.api();
    let path = "/mobile_push/register";
    let full = [
        ("token_kind", "fcm"),
        ("push_account_id", "2408"),
        ("push_public_key", "push-public-key"),
        ("bouncer_public_key", "bouncer-public-key"),
        ("encrypted_push_registration", "encrypted-push-registration-data"),
    ];
    let refused = api.post(path, Some(&ada), &full).error(400, "PUSH_SERVICE_NOT_CONFIGURED");
    assert_eq!(refused["msg"], "Server is not configured to use push notification service.");
    // The request is read first, as Zulip's typed endpoint reads it.
    api.post(path, Some(&ada), &[("push_account_id", "1")]).error(400, "REQUEST_VARIABLE_MISSING");
    let kind = api.post(path, Some(&ada), &[("token_kind", "gcm"), ("push_account_id", "1")]);
    assert_eq!(kind.error(400, "BAD_REQUEST")["msg"], "Invalid token_kind");
    // Nothing was registered: register's `push_devices` (its own event type) stays empty.
    let state = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["push_device"]"#)]).ok();
    assert_eq!(state["push_devices"], json!({}));
}
