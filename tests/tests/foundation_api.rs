//! The foundation endpoints over HTTP against a real `confab` process: server settings, auth,
//! users, subscriptions, sending and reading messages, and bad input.

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

fn server() -> TestServer {
    TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"))
}

fn ids(messages: &Value) -> Vec<u64> {
    messages["messages"].as_array().expect("messages").iter().map(|m| m["id"].as_u64().expect("id")).collect()
}

#[test]
fn server_settings_answer_with_and_without_credentials_under_both_names() {
    let server = server();
    let api = server.api();
    for auth in [None, Some(&server.owner())] {
        let body = api.get("/server_settings", auth, &[]).ok();
        for field in [
            "zulip_version",
            "service_version",
            "zulip_feature_level",
            "service_feature_level",
            "zulip_merge_base",
            "service_merge_base",
            "authentication_methods",
            "external_authentication_methods",
            "push_notifications_enabled",
            "is_incompatible",
            "email_auth_enabled",
            "require_email_format_usernames",
            "realm_url",
            "realm_uri",
            "realm_name",
            "realm_icon",
            "realm_description",
            "realm_web_public_access_enabled",
        ] {
            assert!(body.get(field).is_some(), "server_settings lacks {field}: {body}");
        }
        assert_eq!(body["zulip_version"], body["service_version"]);
        assert_eq!(body["zulip_feature_level"], body["service_feature_level"]);
        assert_eq!(body["realm_url"], server.base_url.as_str());
        assert_eq!(body["realm_uri"], body["realm_url"]);
    }
}

#[test]
fn authentication_errors_have_zulips_codes_and_statuses() {
    let server = server();
    let api = server.api();
    let owner = server.owner();
    let body = api.get("/users/me", None, &[]).error(401, "UNAUTHORIZED");
    assert_eq!(body["msg"], "Not logged in: API authentication or user session required");
    let wrong = Creds { email: owner.email.clone(), api_key: "x".repeat(32) };
    assert_eq!(
        api.get("/users/me", Some(&wrong), &[]).error(401, "INVALID_API_KEY")["msg"],
        "Invalid API key"
    );
    let stranger = Creds { email: "nobody@example.com".into(), api_key: owner.api_key.clone() };
    api.get("/users/me", Some(&stranger), &[]).error(401, "INVALID_API_KEY");
    let me = api.get("/users/me", Some(&owner), &[]).ok();
    assert_eq!(me["email"], owner.email.as_str());
    assert_eq!(me["role"], 100);
    assert_eq!(me["is_owner"], true);
}

#[test]
fn administrators_create_users_who_fetch_their_keys_with_passwords() {
    let server = server();
    let api = server.api();
    let owner = server.owner();
    let created = api
        .post(
            "/users",
            Some(&owner),
            &[("email", "grace@example.com"), ("password", "hopper-1906"), ("full_name", "Grace Hopper")],
        )
        .ok();
    let user_id = created["user_id"].as_u64().expect("user_id");

    let fetched = api
        .post("/fetch_api_key", None, &[("username", "grace@example.com"), ("password", "hopper-1906")])
        .ok();
    assert_eq!(fetched["email"], "grace@example.com");
    assert_eq!(fetched["user_id"], user_id);
    let key = fetched["api_key"].as_str().expect("api_key");
    assert_eq!(key.len(), 32);
    assert!(key.chars().all(|c| c.is_ascii_alphanumeric()));

    let grace = Creds { email: "grace@example.com".into(), api_key: key.into() };
    assert_eq!(api.get("/users/me", Some(&grace), &[]).ok()["role"], 400);
    let by_id = api.get(&format!("/users/{user_id}"), Some(&grace), &[]).ok();
    assert_eq!(by_id["user"]["full_name"], "Grace Hopper");
    let by_email = api.get("/users/grace@example.com", Some(&owner), &[]).ok();
    assert_eq!(by_email["user"]["user_id"], user_id);
    let members = api.get("/users", Some(&grace), &[]).ok();
    assert_eq!(members["members"].as_array().expect("members").len(), 2);

    // Members may not create users; duplicates and bad emails are refused.
    let refused = api.post(
        "/users",
        Some(&grace),
        &[("email", "x@example.com"), ("password", "p"), ("full_name", "X")],
    );
    assert_eq!(refused.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");
    api.post(
        "/users",
        Some(&owner),
        &[("email", "GRACE@example.com"), ("password", "p"), ("full_name", "G")],
    )
    .error(400, "BAD_REQUEST");
    api.post("/users", Some(&owner), &[("email", "not-an-email"), ("password", "p"), ("full_name", "N")])
        .error(400, "BAD_REQUEST");
    api.get("/users/424242", Some(&owner), &[]).error(400, "BAD_REQUEST");
}

#[test]
fn wrong_passwords_are_refused_and_rate_limited_per_username() {
    let server = TestServer::start_rate_limited(env!("CARGO_BIN_EXE_confab-under-test"), &[]);
    let api = server.api();
    api.create_user(&server.owner(), "eve@example.com", "Eve");
    for _ in 0..5 {
        let body = api
            .post("/fetch_api_key", None, &[("username", "eve@example.com"), ("password", "guess")])
            .error(401, "AUTHENTICATION_FAILED");
        assert_eq!(body["msg"], "Your username or password is incorrect");
    }
    // The sixth attempt within thirty minutes is refused even with the right password.
    let limited = api
        .post("/fetch_api_key", None, &[("username", "eve@example.com"), ("password", "s3cret-pass")])
        .error(429, "RATE_LIMIT_HIT");
    assert!(limited["retry-after"].as_f64().is_some_and(|s| s > 0.0), "{limited}");
    api.post("/fetch_api_key", None, &[("username", "eve@example.com")])
        .error(400, "REQUEST_VARIABLE_MISSING");
}

#[test]
fn subscribing_creates_channels_and_lists_them() {
    let server = server();
    let api = server.api();
    let owner = server.owner();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let body = api
        .post(
            "/users/me/subscriptions",
            Some(&owner),
            &[
                ("subscriptions", r#"[{"name": "design", "description": "Making **things**"}]"#),
                ("principals", r#"["ada@example.com"]"#),
            ],
        )
        .ok();
    // Since feature level 289 the answer names users by id, not email.
    let ada_id = api.user_id(&ada).to_string();
    assert_eq!(body["subscribed"], json!({ada_id.clone(): ["design"]}));
    let again =
        api.post("/users/me/subscriptions", Some(&ada), &[("subscriptions", r#"[{"name": "Design"}]"#)]).ok();
    assert_eq!(again["already_subscribed"], json!({ada_id: ["design"]}));

    let subs = api.get("/users/me/subscriptions", Some(&ada), &[("include_subscribers", "true")]).ok();
    // Ada is also in #general, which every new user joins.
    let list = subs["subscriptions"].as_array().expect("subscriptions");
    let names: Vec<&Value> = list.iter().map(|s| &s["name"]).collect();
    assert_eq!(names, [&json!("general"), &json!("design")]);
    let sub = &list[1];
    assert_eq!(sub["rendered_description"], "<p>Making <strong>things</strong></p>");
    assert_eq!(sub["is_muted"], false);
    assert_eq!(sub["in_home_view"], true);
    assert!(sub["color"].as_str().is_some_and(|c| c.starts_with('#')));
    let subscriber_ids = sub["subscribers"].as_array().expect("subscribers");
    assert_eq!(subscriber_ids.len(), 1);

    let stream_id =
        api.get("/get_stream_id", Some(&owner), &[("stream", "design")]).ok()["stream_id"].clone();
    assert_eq!(stream_id, sub["stream_id"]);
    let streams = api.get("/streams", Some(&owner), &[]).ok();
    let names: Vec<&Value> =
        streams["streams"].as_array().expect("streams").iter().map(|s| &s["name"]).collect();
    assert_eq!(names, [&json!("general"), &json!("design")], "public channels are listed to everyone");
    api.get("/get_stream_id", Some(&owner), &[("stream", "nowhere")]).error(400, "BAD_REQUEST");

    let removed =
        api.delete("/users/me/subscriptions", Some(&ada), &[("subscriptions", r#"["design"]"#)]).ok();
    assert_eq!(removed["removed"], json!(["design"]));
    let removed_again =
        api.delete("/users/me/subscriptions", Some(&ada), &[("subscriptions", r#"["design"]"#)]).ok();
    assert_eq!(removed_again["not_removed"], json!(["design"]));
    api.delete("/users/me/subscriptions", Some(&ada), &[("subscriptions", r#"["nowhere"]"#)])
        .error(400, "STREAM_DOES_NOT_EXIST");
}

#[test]
fn private_channels_stay_private() {
    let server = server();
    let api = server.api();
    let owner = server.owner();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.post(
        "/users/me/subscriptions",
        Some(&owner),
        &[("subscriptions", r#"[{"name": "secret"}]"#), ("invite_only", "true")],
    )
    .ok();
    api.post(
        "/messages",
        Some(&owner),
        &[("type", "stream"), ("to", "secret"), ("topic", "t"), ("content", "hidden")],
    )
    .ok();
    let streams = api.get("/streams", Some(&ada), &[]).ok()["streams"].clone();
    let names: Vec<&Value> = streams.as_array().expect("streams").iter().map(|s| &s["name"]).collect();
    assert_eq!(names, [&json!("general")], "the private channel is not listed");
    api.post(
        "/messages",
        Some(&ada),
        &[("type", "stream"), ("to", "secret"), ("topic", "t"), ("content", "x")],
    )
    .error(400, "BAD_REQUEST");
    api.post("/users/me/subscriptions", Some(&ada), &[("subscriptions", r#"[{"name": "secret"}]"#)])
        .error(400, "BAD_REQUEST");
    let narrow = r#"[{"operator": "channel", "operand": "secret"}]"#;
    let seen = api
        .get(
            "/messages",
            Some(&ada),
            &[("anchor", "newest"), ("num_before", "10"), ("num_after", "0"), ("narrow", narrow)],
        )
        .ok();
    assert_eq!(seen["messages"], json!([]));
}

#[test]
fn channel_and_direct_messages_are_read_back_through_narrows() {
    let server = server();
    let api = server.api();
    let owner = server.owner();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    api.post(
        "/users/me/subscriptions",
        Some(&owner),
        &[
            ("subscriptions", r#"[{"name": "general"}]"#),
            ("principals", r#"["owner@confab.localhost", "ada@example.com", "bob@example.com"]"#),
        ],
    )
    .ok();

    let send = |who: &Creds, params: &[(&str, &str)]| {
        api.post("/messages", Some(who), params).ok()["id"].as_u64().expect("id")
    };
    let lunch =
        send(&owner, &[("type", "stream"), ("to", "general"), ("topic", "lunch"), ("content", "Pizza?")]);
    let by_id = send(&ada, &[("type", "channel"), ("to", "1"), ("subject", "Lunch"), ("content", "Yes")]);
    let other =
        send(&bob, &[("type", "stream"), ("to", "general"), ("topic", "standup"), ("content", "Done")]);
    let dm = send(&owner, &[("type", "private"), ("to", r#"["ada@example.com"]"#), ("content", "psst")]);
    let dm_by_id = send(&ada, &[("type", "direct"), ("to", "[1]"), ("content", "yes?")]);
    let group = send(
        &bob,
        &[
            ("type", "direct"),
            ("to", r#"["ada@example.com", "owner@confab.localhost"]"#),
            ("content", "all of us"),
        ],
    );
    assert!(
        lunch < by_id && by_id < other && other < dm && dm < dm_by_id && dm_by_id < group,
        "ids increase"
    );

    let fetch = |who: &Creds, narrow: &str| {
        api.get(
            "/messages",
            Some(who),
            &[("anchor", "newest"), ("num_before", "100"), ("num_after", "0"), ("narrow", narrow)],
        )
        .ok()
    };
    assert_eq!(
        ids(&fetch(&owner, r#"[["stream", "general"], ["topic", "lunch"]]"#)),
        vec![lunch, by_id],
        "topics match case-insensitively"
    );
    assert_eq!(
        ids(&fetch(&owner, r#"[{"operator": "channel", "operand": "general"}]"#)),
        vec![lunch, by_id, other]
    );
    assert_eq!(
        ids(&fetch(&owner, r#"[{"operator": "topic", "operand": "lunch", "negated": true}]"#)),
        vec![other, dm, dm_by_id, group]
    );
    assert_eq!(ids(&fetch(&owner, r#"[["pm-with", "ada@example.com"]]"#)), vec![dm, dm_by_id]);
    assert_eq!(ids(&fetch(&ada, r#"[{"operator": "dm", "operand": [1]}]"#)), vec![dm, dm_by_id]);
    assert_eq!(
        ids(&fetch(&ada, r#"[{"operator": "dm", "operand": "owner@confab.localhost,bob@example.com"}]"#)),
        vec![group]
    );
    assert_eq!(
        ids(&fetch(&owner, r#"[{"operator": "sender", "operand": "bob@example.com"}]"#)),
        vec![other, group]
    );
    assert_eq!(ids(&fetch(&bob, r#"[{"operator": "is", "operand": "dm"}]"#)), vec![group]);
    assert_eq!(ids(&fetch(&owner, r#"[{"operator": "search", "operand": "pizza"}]"#)), vec![lunch]);
    assert_eq!(ids(&fetch(&bob, "[]")), vec![lunch, by_id, other, group], "bob never sees the 1:1 messages");

    // Message fields (spec 2.3) as Ada sees her incoming 1:1 message.
    let ada_view = fetch(&ada, r#"[["pm-with", "owner@confab.localhost"]]"#);
    let incoming = &ada_view["messages"][0];
    for field in [
        "id",
        "type",
        "content",
        "content_type",
        "subject",
        "display_recipient",
        "recipient_id",
        "sender_id",
        "sender_email",
        "sender_full_name",
        "sender_realm_str",
        "avatar_url",
        "client",
        "is_me_message",
        "timestamp",
        "reactions",
        "submessages",
        "topic_links",
        "flags",
    ] {
        assert!(incoming.get(field).is_some(), "message lacks {field}: {incoming}");
    }
    assert_eq!(incoming["type"], "private");
    assert_eq!(incoming["subject"], "");
    assert_eq!(incoming["content"], "<p>psst</p>");
    assert_eq!(incoming["flags"], json!([]), "unread for the recipient");
    assert_eq!(
        incoming["recipient_id"], ada_view["messages"][1]["recipient_id"],
        "one recipient_id per conversation, both directions"
    );

    // An API client's own message starts unread for its sender; read_by_sender overrides.
    let own = fetch(&owner, &format!(r#"[{{"operator": "id", "operand": {lunch}}}]"#));
    assert_eq!(own["messages"][0]["flags"], json!([]));
    let read = send(
        &owner,
        &[
            ("type", "stream"),
            ("to", "general"),
            ("topic", "x"),
            ("content", "y"),
            ("read_by_sender", "true"),
        ],
    );
    let read_view = fetch(&owner, &format!(r#"[{{"operator": "id", "operand": {read}}}]"#));
    assert_eq!(read_view["messages"][0]["flags"], json!(["read"]));
    assert_eq!(
        ids(&fetch(&owner, r#"[["is", "unread"]]"#)),
        vec![lunch, by_id, other, dm, dm_by_id, group],
        "everything but the read_by_sender message is unread for the owner"
    );

    let single = api.get(&format!("/messages/{lunch}"), Some(&ada), &[]).ok();
    assert_eq!(single["raw_content"], "Pizza?");
    assert_eq!(single["message"]["content"], "<p>Pizza?</p>");
    let raw = api.get(&format!("/messages/{lunch}"), Some(&ada), &[("apply_markdown", "false")]).ok();
    assert_eq!(raw["message"]["content"], "Pizza?");
    assert_eq!(raw["message"]["content_type"], "text/x-markdown");
    api.get(&format!("/messages/{dm}"), Some(&bob), &[]).error(400, "BAD_REQUEST");
}

#[test]
fn anchors_and_found_flags_follow_zulip() {
    let server = server();
    let api = server.api();
    let owner = server.owner();
    api.post("/users/me/subscriptions", Some(&owner), &[("subscriptions", r#"[{"name": "general"}]"#)]).ok();
    let sent: Vec<u64> = (0..5)
        .map(|i| {
            let content = format!("message {i}");
            api.post(
                "/messages",
                Some(&owner),
                &[("type", "stream"), ("to", "general"), ("topic", "t"), ("content", content.as_str())],
            )
            .ok()["id"]
                .as_u64()
                .expect("id")
        })
        .collect();
    // In the topic, so that the Notification Bot's notice of the channel's creation stays out.
    let get = |params: &[(&str, &str)]| {
        let mut params = params.to_vec();
        params.push(("narrow", r#"[["topic", "t"]]"#));
        api.get("/messages", Some(&owner), &params).ok()
    };
    let middle = sent[2].to_string();

    let around = get(&[("anchor", middle.as_str()), ("num_before", "1"), ("num_after", "1")]);
    assert_eq!(ids(&around), vec![sent[1], sent[2], sent[3]]);
    assert_eq!(
        (around["found_anchor"].clone(), around["found_oldest"].clone(), around["found_newest"].clone()),
        (json!(true), json!(false), json!(false))
    );
    assert_eq!(around["anchor"], sent[2]);

    let exclusive = get(&[
        ("anchor", middle.as_str()),
        ("num_before", "1"),
        ("num_after", "1"),
        ("include_anchor", "false"),
    ]);
    assert_eq!(ids(&exclusive), vec![sent[1], sent[3]]);
    assert_eq!(exclusive["found_anchor"], false);

    let oldest = get(&[("anchor", "oldest"), ("num_before", "0"), ("num_after", "2")]);
    assert_eq!(ids(&oldest), vec![sent[0], sent[1]]);
    assert_eq!((oldest["found_oldest"].clone(), oldest["found_newest"].clone()), (json!(true), json!(false)));

    let newest = get(&[("anchor", "newest"), ("num_before", "10"), ("num_after", "0")]);
    assert_eq!(ids(&newest), sent);
    assert_eq!((newest["found_oldest"].clone(), newest["found_newest"].clone()), (json!(true), json!(true)));

    // Every message is unread for an API sender, so first_unread is the first message.
    let first_unread = get(&[("anchor", "first_unread"), ("num_before", "0"), ("num_after", "1")]);
    assert_eq!(first_unread["anchor"], sent[0]);
    let legacy = get(&[("use_first_unread_anchor", "true"), ("num_before", "0"), ("num_after", "1")]);
    assert_eq!(ids(&legacy), vec![sent[0], sent[1]], "the anchor and one message after it");

    let listed = get(&[("message_ids", &format!("[{}, {}, 999999]", sent[4], sent[0]))]);
    assert_eq!(ids(&listed), vec![sent[0], sent[4]]);
    assert!(listed.get("anchor").is_none());

    let both = api
        .get("/messages", Some(&owner), &[("message_ids", "[1]"), ("anchor", "newest")])
        .error(400, "BAD_REQUEST");
    assert_eq!(both["msg"], "Unsupported parameter combination: message_ids, anchor");
    api.get(
        "/messages",
        Some(&owner),
        &[("anchor", "newest"), ("num_before", "4000"), ("num_after", "1001")],
    )
    .error(400, "BAD_REQUEST");
    api.get("/messages", Some(&owner), &[("anchor", "sideways"), ("num_before", "1"), ("num_after", "1")])
        .error(400, "BAD_REQUEST");
    api.get("/messages", Some(&owner), &[("num_before", "1"), ("num_after", "1")])
        .error(400, "REQUEST_VARIABLE_MISSING");
}

/// Counts every message the owner can see, to prove a refused request wrote nothing.
fn visible_message_count(server: &TestServer) -> usize {
    let body = server
        .api()
        .get(
            "/messages",
            Some(&server.owner()),
            &[("anchor", "newest"), ("num_before", "5000"), ("num_after", "0")],
        )
        .ok();
    body["messages"].as_array().expect("messages").len()
}

#[test]
fn bad_input_gets_the_error_shape_and_writes_nothing() {
    let server = server();
    let api = server.api();
    let owner = server.owner();
    api.post("/users/me/subscriptions", Some(&owner), &[("subscriptions", r#"[{"name": "general"}]"#)]).ok();
    api.post(
        "/messages",
        Some(&owner),
        &[("type", "stream"), ("to", "general"), ("topic", "t"), ("content", "first")],
    )
    .ok();
    let before = visible_message_count(&server);
    let streams_before = api.get("/streams", Some(&owner), &[]).ok();

    let missing = api
        .post("/messages", Some(&owner), &[("type", "stream"), ("to", "general"), ("topic", "t")])
        .error(400, "REQUEST_VARIABLE_MISSING");
    assert_eq!(missing["msg"], "Missing 'content' argument");
    assert_eq!(missing["var_name"], "content");
    let malformed = api
        .post("/users/me/subscriptions", Some(&owner), &[("subscriptions", r#"[{"name": "new-one""#)])
        .error(400, "BAD_REQUEST");
    assert_eq!(malformed["msg"], "subscriptions is not valid JSON");
    let narrow = api
        .get(
            "/messages",
            Some(&owner),
            &[("anchor", "newest"), ("num_before", "1"), ("num_after", "0"), ("narrow", "[[")],
        )
        .error(400, "BAD_REQUEST");
    assert_eq!(narrow["msg"], "narrow is not valid JSON");
    let unknown = api
        .post(
            "/messages",
            Some(&owner),
            &[("type", "stream"), ("to", "atlantis"), ("topic", "t"), ("content", "x")],
        )
        .error(400, "STREAM_DOES_NOT_EXIST");
    assert_eq!(unknown["msg"], "Channel 'atlantis' does not exist");
    assert_eq!(unknown["stream"], "atlantis");
    let unknown_id = api
        .post(
            "/messages",
            Some(&owner),
            &[("type", "stream"), ("to", "9999"), ("topic", "t"), ("content", "x")],
        )
        .error(400, "STREAM_DOES_NOT_EXIST");
    assert_eq!(unknown_id["stream_id"], 9999);
    let nobody = api
        .post(
            "/messages",
            Some(&owner),
            &[("type", "private"), ("to", r#"["ghost@example.com"]"#), ("content", "boo")],
        )
        .error(400, "BAD_REQUEST");
    assert_eq!(nobody["msg"], "Invalid email 'ghost@example.com'");
    let nobody_id = api
        .post("/messages", Some(&owner), &[("type", "private"), ("to", "[4242]"), ("content", "boo")])
        .error(400, "BAD_REQUEST");
    assert_eq!(nobody_id["msg"], "Invalid user ID 4242");
    api.post(
        "/messages",
        Some(&owner),
        &[("type", "stream"), ("to", "general"), ("topic", "t"), ("content", "   ")],
    )
    .error(400, "BAD_REQUEST");
    api.post(
        "/messages",
        Some(&owner),
        &[("type", "stream"), ("to", "general"), ("topic", "t"), ("content", "a\0b")],
    )
    .error(400, "BAD_REQUEST");
    api.post("/messages", Some(&owner), &[("type", "carrier-pigeon"), ("to", "general"), ("content", "x")])
        .error(400, "BAD_REQUEST");
    api.post(
        "/messages",
        Some(&owner),
        &[
            ("type", "stream"),
            ("to", "general"),
            ("topic", "t"),
            ("content", "x"),
            ("read_by_sender", "maybe"),
        ],
    )
    .error(400, "BAD_REQUEST");
    let bad_narrow = api
        .get(
            "/messages",
            Some(&owner),
            &[
                ("anchor", "newest"),
                ("num_before", "1"),
                ("num_after", "0"),
                ("narrow", r#"[["bogus", "x"]]"#),
            ],
        )
        .error(400, "BAD_NARROW");
    assert!(
        bad_narrow["msg"].as_str().is_some_and(|m| m.starts_with("Invalid narrow operator")),
        "{bad_narrow}"
    );
    api.get("/messages", Some(&owner), &[("anchor", "newest"), ("num_before", "x"), ("num_after", "0")])
        .error(400, "BAD_REQUEST");
    api.get("/messages/not-a-number", Some(&owner), &[]).error(400, "BAD_REQUEST");
    api.get("/no/such/endpoint", Some(&owner), &[]).error(404, "BAD_REQUEST");

    assert_eq!(visible_message_count(&server), before, "no refused request wrote a message");
    assert_eq!(
        api.get("/streams", Some(&owner), &[]).ok(),
        streams_before,
        "no refused request made a channel"
    );
}

#[test]
fn unknown_parameters_are_reported_and_bodies_over_the_limit_refused() {
    let server = server();
    let api = server.api();
    let owner = server.owner();
    let body = api.get("/users/me", Some(&owner), &[("color", "blue"), ("size", "9")]).ok();
    assert_eq!(body["ignored_parameters_unsupported"], json!(["color", "size"]));
    let plain = api.get("/users/me", Some(&owner), &[]).ok();
    assert!(plain.get("ignored_parameters_unsupported").is_none());

    let huge = "x".repeat(26 * 1024 * 1024);
    let response = reqwest::blocking::Client::new()
        .post(format!("{}/api/v1/messages", server.base_url))
        .basic_auth(&owner.email, Some(&owner.api_key))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(format!("content={huge}"))
        .send()
        .expect("the server answers");
    assert_eq!(response.status().as_u16(), 413);
    let body: Value = response.json().expect("JSON");
    assert_eq!(body["result"], "error");
}

#[test]
fn multipart_and_delete_bodies_carry_parameters_as_zulip_js_and_python_send_them() {
    let server = server();
    let owner = server.owner();
    let http = reqwest::blocking::Client::new();
    let url = format!("{}/api/v1", server.base_url);
    let form = reqwest::blocking::multipart::Form::new().text("subscriptions", r#"[{"name": "multipart"}]"#);
    let body: Value = http
        .post(format!("{url}/users/me/subscriptions"))
        .basic_auth(&owner.email, Some(&owner.api_key))
        .multipart(form)
        .send()
        .expect("answer")
        .json()
        .expect("JSON");
    let owner_id = server.api().user_id(&owner).to_string();
    assert_eq!(body["subscribed"], json!({owner_id: ["multipart"]}));
    // The Python client sends DELETE parameters as a form body.
    let body: Value = http
        .delete(format!("{url}/users/me/subscriptions"))
        .basic_auth(&owner.email, Some(&owner.api_key))
        .form(&[("subscriptions", r#"["multipart"]"#)])
        .send()
        .expect("answer")
        .json()
        .expect("JSON");
    assert_eq!(body["removed"], json!(["multipart"]));
}

#[test]
fn deactivated_users_are_locked_out_until_reactivated() {
    let server = server();
    let api = server.api();
    let owner = server.owner();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].as_u64().expect("id").to_string();

    api.delete(&format!("/users/{ada_id}"), Some(&ada), &[]).error(400, "UNAUTHORIZED_PRINCIPAL");
    api.delete(&format!("/users/{ada_id}"), Some(&owner), &[]).ok();
    let locked = api.get("/users/me", Some(&ada), &[]).error(401, "USER_DEACTIVATED");
    assert_eq!(locked["msg"], "Account is deactivated");
    let refused =
        api.post("/fetch_api_key", None, &[("username", "ada@example.com"), ("password", "s3cret-pass")]);
    refused.error(401, "USER_DEACTIVATED");
    api.post(
        "/messages",
        Some(&owner),
        &[("type", "private"), ("to", "[\"ada@example.com\"]"), ("content", "hi")],
    )
    .error(400, "BAD_REQUEST");

    let last = api.delete("/users/me", Some(&owner), &[]).error(400, "CANNOT_DEACTIVATE_LAST_USER");
    assert_eq!(last["msg"], "Cannot deactivate the only organization owner.");

    api.post(&format!("/users/{ada_id}/reactivate"), Some(&owner), &[]).ok();
    api.get("/users/me", Some(&ada), &[]).ok();
    // Zulip's view has no refusal for an active user: reactivating again is a success.
    api.post(&format!("/users/{ada_id}/reactivate"), Some(&owner), &[]).ok();
    api.get("/users/me", Some(&ada), &[]).ok();
}

#[test]
fn the_empty_topic_reads_general_chat_unless_the_client_allows_it() {
    let server = server();
    let api = server.api();
    let owner = server.owner();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general"], &["ada@example.com"]);
    let general = api.get("/get_stream_id", Some(&owner), &[("stream", "general")]).ok()["stream_id"].clone();
    let send = |who: &Creds, topic: &str| {
        let params = [("type", "stream"), ("to", "general"), ("topic", topic), ("content", "Soon")];
        api.post("/messages", Some(who), &params).ok()["id"].clone()
    };
    let plans = send(&owner, "plans");
    // Moved into the empty topic ("general chat"), so its edit history names it too.
    api.patch(&format!("/messages/{plans}"), Some(&owner), &[("topic", "")]).ok();
    let unread = send(&ada, "");

    // Feature level 334: each read takes `allow_empty_topic_name`, false by default.
    for (allow, topic) in [(None, "general chat"), (Some("false"), "general chat"), (Some("true"), "")] {
        let with = |params: &[(&'static str, &'static str)]| -> Vec<(&'static str, &'static str)> {
            let mut params = params.to_vec();
            params.extend(allow.map(|a| ("allow_empty_topic_name", a)));
            params
        };
        let page = api
            .get(
                "/messages",
                Some(&owner),
                &with(&[
                    ("anchor", "newest"),
                    ("num_before", "5"),
                    ("num_after", "0"),
                    ("narrow", r#"[["channel", "general"]]"#),
                ]),
            )
            .ok();
        let moved =
            page["messages"].as_array().expect("messages").iter().find(|m| m["id"] == plans).expect("moved");
        assert_eq!(moved["subject"], topic, "{moved}");
        assert_eq!(
            (&moved["edit_history"][0]["prev_topic"], &moved["edit_history"][0]["topic"]),
            (&json!("plans"), &json!(topic))
        );

        let single = api.get(&format!("/messages/{unread}"), Some(&owner), &with(&[])).ok();
        assert_eq!(single["message"]["subject"], topic, "{single}");

        let history = api.get(&format!("/messages/{plans}/history"), Some(&owner), &with(&[])).ok();
        let snapshots = history["message_history"].as_array().expect("message_history");
        assert_eq!(
            snapshots.iter().map(|s| s["topic"].clone()).collect::<Vec<_>>(),
            vec![json!("plans"), json!(topic)]
        );
        assert_eq!(snapshots[1]["prev_topic"], "plans");

        let topics = api.get(&format!("/users/me/{general}/topics"), Some(&owner), &with(&[])).ok();
        assert_eq!(topics["topics"][0]["name"], topic, "{topics}");
    }

    // register's `unread_msgs` follows the `empty_topic_name` capability instead.
    for (capabilities, topic) in [("{}", "general chat"), (r#"{"empty_topic_name": true}"#, "")] {
        let state = api
            .post(
                "/register",
                Some(&owner),
                &[
                    ("fetch_event_types", r#"["message", "update_message_flags"]"#),
                    ("client_capabilities", capabilities),
                ],
            )
            .ok();
        let streams = &state["unread_msgs"]["streams"];
        assert_eq!(streams[0]["topic"], topic, "{streams}");
        // The moved message and its notice are unread too: this test client is no human's.
        let ids = streams[0]["unread_message_ids"].as_array().expect("ids");
        assert!(ids.contains(&plans) && ids.contains(&unread), "{streams}");
    }
}
