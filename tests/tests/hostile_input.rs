//! Bad input never breaks the server: every endpoint, given hostile values for each of its
//! parameters, answers with the error shape (or a success) and never a 500.

use confab_tests::{Creds, TestServer};
use reqwest::Method;

/// Values that have broken parsers elsewhere: empty, wrong types, truncated and nested JSON,
/// huge and negative numbers, NUL, lone surrogate escapes, very long text.
fn hostile_values() -> Vec<String> {
    vec![
        String::new(),
        "null".into(),
        "[".into(),
        "{}".into(),
        "[]".into(),
        "[[]]".into(),
        r#"[{"operator": 1, "operand": null}]"#.into(),
        r#"[{"name": null}]"#.into(),
        "-1".into(),
        "0".into(),
        "99999999999999999999999999".into(),
        "1e308".into(),
        "true".into(),
        "\u{0}".into(),
        r#""\ud800""#.into(),
        "[".repeat(10_000),
        "x".repeat(100_000),
        "✔ ".into(),
        "newest".into(),
    ]
}

/// Each endpoint and the parameters it reads.
fn endpoints(
    message_id: u64,
    stream_id: u64,
    scheduled_id: u64,
) -> Vec<(&'static str, String, Vec<&'static str>)> {
    let m = |path: &str| {
        path.replace("{m}", &message_id.to_string())
            .replace("{s}", &stream_id.to_string())
            .replace("{sm}", &scheduled_id.to_string())
    };
    vec![
        (
            "GET",
            m("/messages"),
            vec![
                "anchor",
                "num_before",
                "num_after",
                "narrow",
                "message_ids",
                "include_anchor",
                "apply_markdown",
                "client_gravatar",
                "use_first_unread_anchor",
            ],
        ),
        ("POST", m("/messages"), vec!["type", "to", "topic", "subject", "content", "read_by_sender"]),
        ("GET", m("/messages/{m}"), vec!["apply_markdown", "allow_empty_topic_name"]),
        (
            "PATCH",
            m("/messages/{m}"),
            vec!["content", "topic", "stream_id", "propagate_mode", "send_notification_to_old_thread"],
        ),
        ("DELETE", m("/messages/{m}"), vec!["x"]),
        ("GET", m("/messages/{m}/history"), vec!["allow_empty_topic_name"]),
        ("POST", m("/messages/{m}/report"), vec!["report_type", "description"]),
        ("POST", m("/messages/{m}/reactions"), vec!["emoji_name", "emoji_code", "reaction_type"]),
        ("DELETE", m("/messages/{m}/reactions"), vec!["emoji_name", "emoji_code", "reaction_type"]),
        ("POST", m("/messages/flags"), vec!["messages", "op", "flag"]),
        (
            "POST",
            m("/messages/flags/narrow"),
            vec!["anchor", "num_before", "num_after", "narrow", "op", "flag", "include_anchor"],
        ),
        ("POST", m("/messages/render"), vec!["content"]),
        ("GET", m("/messages/matches_narrow"), vec!["msg_ids", "narrow"]),
        ("POST", m("/mark_all_as_read"), vec!["x"]),
        ("POST", m("/mark_stream_as_read"), vec!["stream_id"]),
        ("POST", m("/mark_topic_as_read"), vec!["stream_id", "topic_name"]),
        ("GET", m("/users/me/{s}/topics"), vec!["allow_empty_topic_name"]),
        ("POST", m("/streams/{s}/delete_topic"), vec!["topic_name"]),
        ("GET", m("/users/me/subscriptions"), vec!["include_subscribers"]),
        (
            "POST",
            m("/users/me/subscriptions"),
            vec!["subscriptions", "principals", "invite_only", "authorization_errors_fatal"],
        ),
        ("DELETE", m("/users/me/subscriptions"), vec!["subscriptions", "principals"]),
        ("POST", m("/users/me/subscriptions/properties"), vec!["subscription_data"]),
        (
            "POST",
            m("/register"),
            vec!["event_types", "narrow", "client_capabilities", "include_subscribers", "apply_markdown"],
        ),
        // Without `dont_block` a valid fetch would wait for events, which is right but slow.
        ("GET", m("/events?dont_block=true"), vec!["queue_id", "last_event_id", "dont_block"]),
        ("DELETE", m("/events"), vec!["queue_id"]),
        ("GET", m("/streams"), vec!["include_public", "include_all", "exclude_archived"]),
        ("GET", m("/get_stream_id"), vec!["stream"]),
        ("POST", m("/users"), vec!["email", "password", "full_name"]),
        ("GET", m("/users/x"), vec!["x"]),
        ("PATCH", m("/users/1"), vec!["full_name", "role"]),
        ("POST", m("/bots"), vec!["full_name", "short_name", "bot_type", "payload_url", "interface_type"]),
        ("GET", m("/bots"), vec!["x"]),
        ("POST", m("/bots/x/api_key/regenerate"), vec!["x"]),
        (
            "PATCH",
            m("/realm"),
            vec![
                "name",
                "message_content_edit_limit_seconds",
                "moderation_request_channel_id",
                "topics_policy",
                "can_create_groups",
                "can_manage_all_groups",
            ],
        ),
        (
            "POST",
            m("/users/me/presence"),
            vec![
                "status",
                "ping_only",
                "new_user_input",
                "slim_presence",
                "last_update_id",
                "history_limit_days",
            ],
        ),
        ("GET", m("/realm/presence"), vec!["x"]),
        ("POST", m("/users/me/alert_words"), vec!["alert_words"]),
        ("DELETE", m("/users/me/alert_words"), vec!["alert_words"]),
        (
            "PATCH",
            m("/settings"),
            vec![
                "full_name",
                "timezone",
                "emojiset",
                "color_scheme",
                "enter_sends",
                "web_font_size_px",
                "email_address_visibility",
            ],
        ),
        ("GET", m("/users/x/presence"), vec!["x"]),
        ("POST", m("/typing"), vec!["type", "op", "to", "stream_id", "topic"]),
        (
            "POST",
            m("/channels/create"),
            vec![
                "name",
                "subscribers",
                "description",
                "invite_only",
                "topics_policy",
                "message_retention_days",
                "can_send_message_group",
                "folder_id",
            ],
        ),
        ("GET", m("/streams/{s}"), vec!["x"]),
        ("GET", m("/streams/{s}/members"), vec!["x"]),
        (
            "PATCH",
            m("/streams/{s}"),
            vec![
                "new_name",
                "description",
                "is_private",
                "topics_policy",
                "message_retention_days",
                "can_send_message_group",
                "is_default_stream",
                "folder_id",
            ],
        ),
        ("GET", m("/user_groups"), vec!["include_deactivated_groups"]),
        (
            "POST",
            m("/user_groups/create"),
            vec!["name", "description", "members", "subgroups", "can_manage_group", "can_mention_group"],
        ),
        ("PATCH", m("/user_groups/1"), vec!["name", "description", "can_manage_group", "can_join_group"]),
        ("POST", m("/user_groups/1/deactivate"), vec!["x"]),
        ("POST", m("/user_groups/1/members"), vec!["add", "delete", "add_subgroups", "delete_subgroups"]),
        ("POST", m("/user_groups/1/subgroups"), vec!["add", "delete"]),
        ("GET", m("/user_groups/1/members"), vec!["direct_member_only"]),
        ("GET", m("/user_groups/1/members/1"), vec!["direct_member_only"]),
        ("GET", m("/user_groups/x/subgroups"), vec!["direct_subgroup_only"]),
        ("GET", m("/realm/linkifiers"), vec!["x"]),
        ("POST", m("/default_streams"), vec!["stream_id"]),
        ("GET", m("/drafts"), vec!["x"]),
        ("POST", m("/drafts"), vec!["drafts"]),
        ("PATCH", m("/drafts/1"), vec!["draft"]),
        ("DELETE", m("/drafts/x"), vec!["x"]),
        ("POST", m("/saved_snippets"), vec!["title", "content"]),
        ("PATCH", m("/saved_snippets/1"), vec!["title", "content"]),
        ("DELETE", m("/saved_snippets/1"), vec!["x"]),
        ("POST", m("/navigation_views"), vec!["fragment", "is_pinned", "name"]),
        ("PATCH", m("/navigation_views/inbox"), vec!["is_pinned", "name"]),
        ("DELETE", m("/navigation_views/inbox"), vec!["x"]),
        ("POST", m("/users/me/android_push_reg_id"), vec!["token"]),
        ("DELETE", m("/users/me/android_push_reg_id"), vec!["token"]),
        ("POST", m("/users/me/apns_device_token"), vec!["token", "appid"]),
        ("DELETE", m("/users/me/ios_push_device_token"), vec!["token"]),
        ("GET", m("/bot_storage"), vec!["keys"]),
        ("POST", m("/user_uploads"), vec!["file"]),
        ("GET", m("/attachments"), vec!["x"]),
        ("DELETE", m("/attachments/1"), vec!["x"]),
        ("GET", m("/user_uploads/1/ab/cd/x.txt"), vec!["x"]),
        (
            "POST",
            m("/users/me/status"),
            vec!["status_text", "emoji_name", "emoji_code", "reaction_type", "away"],
        ),
        ("GET", m("/users/1/status"), vec!["x"]),
        ("GET", m("/realm/emoji"), vec!["x"]),
        ("POST", m("/realm/emoji/hostile"), vec!["file", "emoji_name"]),
        ("DELETE", m("/realm/emoji/hostile"), vec!["x"]),
        ("POST", m("/users/me/avatar"), vec!["file"]),
        ("DELETE", m("/users/me/avatar"), vec!["x"]),
        ("DELETE", m("/bot_storage"), vec!["keys"]),
        (
            "PATCH",
            m("/realm"),
            vec![
                "waiting_period_threshold",
                "default_language",
                "jitsi_server_url",
                "signup_announcements_stream_id",
            ],
        ),
        ("PATCH", m("/realm/user_settings_defaults"), vec!["emojiset", "web_font_size_px", "enter_sends"]),
        ("DELETE", m("/default_streams"), vec!["stream_id"]),
        ("GET", m("/channel_folders"), vec!["include_archived"]),
        ("PATCH", m("/channel_folders"), vec!["order"]),
        ("POST", m("/channel_folders/create"), vec!["name", "description"]),
        ("PATCH", m("/channel_folders/1"), vec!["name", "description", "is_archived"]),
        ("PATCH", m("/realm/linkifiers"), vec!["ordered_linkifier_ids"]),
        ("POST", m("/realm/filters"), vec!["pattern", "url_template"]),
        ("PATCH", m("/realm/filters/1"), vec!["pattern", "url_template"]),
        ("DELETE", m("/realm/filters/1"), vec!["x"]),
        ("POST", m("/fetch_api_key"), vec!["username", "password"]),
        ("GET", m("/server_settings"), vec!["x"]),
        ("DELETE", m("/streams/{s}"), vec!["x"]),
        ("GET", m("/realm/profile_fields"), vec!["x"]),
        (
            "POST",
            m("/realm/profile_fields"),
            vec![
                "name",
                "hint",
                "field_type",
                "field_data",
                "display_in_profile_summary",
                "required",
                "editable_by_user",
            ],
        ),
        ("PATCH", m("/realm/profile_fields"), vec!["order"]),
        (
            "PATCH",
            m("/realm/profile_fields/1"),
            vec!["name", "hint", "field_data", "display_in_profile_summary", "required", "editable_by_user"],
        ),
        ("DELETE", m("/realm/profile_fields/x"), vec!["x"]),
        ("PATCH", m("/users/me/profile_data"), vec!["data"]),
        ("DELETE", m("/users/me/profile_data"), vec!["data"]),
        ("PATCH", m("/users/1"), vec!["profile_data"]),
        ("GET", m("/users"), vec!["include_custom_profile_fields"]),
        ("GET", m("/scheduled_messages"), vec!["x"]),
        (
            "POST",
            m("/scheduled_messages"),
            vec!["type", "to", "topic", "content", "scheduled_delivery_timestamp", "read_by_sender"],
        ),
        (
            "PATCH",
            m("/scheduled_messages/{sm}"),
            vec!["type", "to", "topic", "content", "scheduled_delivery_timestamp"],
        ),
        ("DELETE", m("/scheduled_messages/{sm}"), vec!["x"]),
        ("GET", m("/reminders"), vec!["x"]),
        ("POST", m("/reminders"), vec!["message_id", "scheduled_delivery_timestamp", "note"]),
        ("DELETE", m("/reminders/{sm}"), vec!["x"]),
    ]
}

/// Sends every hostile value as each named parameter of one endpoint, as `who` (without
/// credentials for `None`), and requires an answer in the API's shape below 500 each time.
/// Returns how many requests were sent.
fn send_hostile_values(
    http: &reqwest::blocking::Client,
    base_url: &str,
    who: Option<&Creds>,
    method: &str,
    path: &str,
    names: &[&str],
) -> usize {
    let mut requests = 0;
    for name in names {
        for value in hostile_values() {
            // URLs this long are refused by the client itself; bodies carry them.
            if method == "GET" && value.len() > 8_000 {
                continue;
            }
            let url = format!("{base_url}/api/v1{path}");
            let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
            let mut request = http.request(method.clone(), &url);
            if let Some(who) = who {
                request = request.basic_auth(&who.email, Some(&who.api_key));
            }
            let params = [(*name, value.as_str())];
            request =
                if method == reqwest::Method::GET { request.query(&params) } else { request.form(&params) };
            let response = request.send().expect("the server answers");
            let status = response.status().as_u16();
            let text = response.text().expect("body");
            let shown: String = value.chars().take(40).collect();
            assert!(status < 500, "{method} {path} {name}={shown:?} gave {status}: {text}");
            let body: serde_json::Value = serde_json::from_str(&text)
                .unwrap_or_else(|_| panic!("{method} {path} {name}: not JSON: {text}"));
            assert!(
                body["result"] == "success"
                    || (body["result"] == "error" && body["code"].is_string() && body["msg"].is_string()),
                "{method} {path}: {body}"
            );
            requests += 1;
        }
    }
    requests
}

#[test]
fn no_hostile_value_produces_a_server_error() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner: Creds = server.owner();
    let api = server.api();
    api.post("/users/me/subscriptions", Some(&owner), &[("subscriptions", r#"[{"name": "general"}]"#)]).ok();
    let message = api
        .post(
            "/messages",
            Some(&owner),
            &[("type", "stream"), ("to", "general"), ("topic", "t"), ("content", "x")],
        )
        .ok();
    let message_id = message["id"].as_u64().expect("id");
    let stream_id = api.get("/get_stream_id", Some(&owner), &[("stream", "general")]).ok()["stream_id"]
        .as_u64()
        .expect("id");
    // Far in the future, so that edits reach every check and nothing is sent meanwhile.
    let scheduled = api
        .post(
            "/scheduled_messages",
            Some(&owner),
            &[
                ("type", "stream"),
                ("to", &stream_id.to_string()),
                ("topic", "t"),
                ("content", "later"),
                ("scheduled_delivery_timestamp", "4102444800"),
            ],
        )
        .ok();
    let scheduled_id = scheduled["scheduled_message_id"].as_u64().expect("id");
    let http = reqwest::blocking::Client::new();
    let mut requests = 0;
    // Widgets: hostile changes to a poll and to a to-do list, any parameter of a submessage,
    // and a hostile `widget_content` on a send. First, while the channel takes messages.
    let to = stream_id.to_string();
    for command in ["/poll Q?\na\nb", "/todo T\nx: y"] {
        let params = [("type", "stream"), ("to", to.as_str()), ("topic", "w"), ("content", command)];
        let widget = api.post("/messages", Some(&owner), &params).ok()["id"].as_u64().expect("id");
        let path = format!("/submessage?message_id={widget}&msg_type=widget");
        requests += send_hostile_values(&http, &server.base_url, Some(&owner), "POST", &path, &["content"]);
    }
    for (path, names) in [
        ("/submessage".to_owned(), vec!["message_id", "msg_type", "content"]),
        (format!("/messages?type=stream&to={to}&topic=w&content=x"), vec!["widget_content"]),
    ] {
        requests += send_hostile_values(&http, &server.base_url, Some(&owner), "POST", &path, &names);
    }
    for (method, path, names) in endpoints(message_id, stream_id, scheduled_id) {
        requests += send_hostile_values(&http, &server.base_url, Some(&owner), method, &path, &names);
    }
    assert!(requests > 1000, "{requests} requests were sent");
    // And the server still works.
    api.get("/users/me", Some(&owner), &[]).ok();
}

/// Bot storage answers people with a refusal before reading anything, so its parameters are
/// tried with a bot's credentials.
#[test]
fn bot_storage_takes_hostile_values_from_bots() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner: Creds = server.owner();
    let api = server.api();
    let made = api.post("/bots", Some(&owner), &[("full_name", "Keeper"), ("short_name", "keeper")]).ok();
    let host = server.base_url.trim_start_matches("http://").split(':').next().expect("host").to_owned();
    let bot =
        Creds { email: format!("keeper-bot@{host}"), api_key: made["api_key"].as_str().expect("key").into() };
    let http = reqwest::blocking::Client::new();
    let mut requests = 0;
    for (method, names) in [("GET", ["keys"]), ("PUT", ["storage"]), ("DELETE", ["keys"])] {
        requests += send_hostile_values(&http, &server.base_url, Some(&bot), method, "/bot_storage", &names);
    }
    assert!(requests > 30, "{requests} requests were sent");
    api.get("/bot_storage", Some(&bot), &[]).ok();
}

/// The endpoints open to spectators take the same values from someone without credentials, in
/// an organization that admits spectators and has a web-public channel to read.
#[test]
fn spectators_endpoints_take_hostile_values() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner: Creds = server.owner();
    let api = server.api();
    api.patch("/realm", Some(&owner), &[("enable_spectator_access", "true")]).ok();
    let me = api.get("/users/me", Some(&owner), &[]).ok()["user_id"].to_string();
    let subscribers = format!("[{me}]");
    let open = [("name", "open"), ("subscribers", subscribers.as_str()), ("is_web_public", "true")];
    let stream_id = api.post("/channels/create", Some(&owner), &open).ok()["id"].to_string();
    let said = [("type", "stream"), ("to", "open"), ("topic", "t"), ("content", "x")];
    let message_id = api.post("/messages", Some(&owner), &said).ok()["id"].to_string();
    let endpoints: [(&str, String, &[&str]); 4] = [
        (
            "GET",
            "/messages".into(),
            &[
                "anchor",
                "num_before",
                "num_after",
                "narrow",
                "message_ids",
                "apply_markdown",
                "client_gravatar",
            ],
        ),
        ("GET", format!("/messages/{message_id}"), &["apply_markdown", "allow_empty_topic_name"]),
        ("GET", format!("/users/me/{stream_id}/topics"), &["allow_empty_topic_name"]),
        ("POST", "/register".into(), &["event_types", "narrow", "client_gravatar", "include_subscribers"]),
    ];
    let http = reqwest::blocking::Client::new();
    let mut requests = 0;
    for (method, path, names) in endpoints {
        requests += send_hostile_values(&http, &server.base_url, None, method, &path, names);
    }
    // And as path segments.
    for value in hostile_values().iter().filter(|v| v.len() < 1_000) {
        let segment: String = value.bytes().map(|b| format!("%{b:02X}")).collect();
        for path in [format!("/messages/{segment}"), format!("/users/me/{segment}/topics")] {
            let reply = api.get(&path, None, &[]);
            assert!(reply.status < 500 && reply.body["result"] == "error", "{path}: {}", reply.body);
            requests += 1;
        }
    }
    assert!(requests > 100, "{requests} requests were sent");
    api.get(&format!("/messages/{message_id}"), None, &[]).ok();
}

/// Content longer than a message may be: the preview refuses it with Zulip's parameter error,
/// a send keeps its first 10,000 characters.
#[test]
fn over_long_content_is_refused_by_render_and_truncated_by_send() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner: Creds = server.owner();
    let api = server.api();
    let long = "*a* ".repeat(2_501);
    let refused =
        api.post("/messages/render", Some(&owner), &[("content", long.as_str())]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "content is too long (limit: 10000 characters)");
    let fits = "*a* ".repeat(2_500);
    api.post("/messages/render", Some(&owner), &[("content", fits.as_str())]).ok();

    let said = [("type", "stream"), ("to", "general"), ("topic", "t"), ("content", long.as_str())];
    let id = api.post("/messages", Some(&owner), &said).ok()["id"].to_string();
    let raw = api.get(&format!("/messages/{id}"), Some(&owner), &[("apply_markdown", "false")]).ok();
    let content = raw["message"]["content"].as_str().expect("content");
    assert_eq!(content.chars().count(), 10_000);
    assert!(content.ends_with("\n[message truncated]"));
}

/// Narrows are bounded in terms, operand length and size before they are parsed, on every
/// endpoint that reads one.
#[test]
fn narrows_beyond_the_limits_are_refused() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner: Creds = server.owner();
    let api = server.api();
    let terms = |n: usize| format!("[{}]", vec![r#"["search","x"]"#; n].join(","));
    let long_operand = format!(r#"[["search","{}"]]"#, "x".repeat(1_001));
    let huge = format!(r#"[["search","{}"]]"#, "x".repeat(300_000));
    let flags = |narrow: &str| {
        api.post(
            "/messages/flags/narrow",
            Some(&owner),
            &[
                ("narrow", narrow),
                ("anchor", "newest"),
                ("num_before", "1"),
                ("num_after", "0"),
                ("op", "add"),
                ("flag", "read"),
            ],
        )
    };
    let fetch = |narrow: &str| {
        api.get(
            "/messages",
            Some(&owner),
            &[("narrow", narrow), ("anchor", "newest"), ("num_before", "1"), ("num_after", "0")],
        )
    };
    let register = |narrow: &str| api.post("/register", Some(&owner), &[("narrow", narrow)]);

    let within = terms(100);
    flags(&within).ok();
    fetch(&within).ok();
    let at_limit = format!(r#"[["search","{}"]]"#, "x".repeat(1_000));
    fetch(&at_limit).ok();
    for (narrow, msg) in [
        (terms(101), "narrow has too many terms (limit: 100)"),
        (long_operand, "narrow[0] operand is too long (limit: 1000 characters)"),
        (huge, "narrow is too long (limit: 262144 bytes)"),
    ] {
        assert_eq!(flags(&narrow).error(400, "BAD_REQUEST")["msg"], msg);
        assert_eq!(register(&narrow).error(400, "BAD_REQUEST")["msg"], msg);
        // A query string that long is over the request head's own limit.
        if narrow.len() < 8_000 {
            assert_eq!(fetch(&narrow).error(400, "BAD_REQUEST")["msg"], msg);
        }
    }
}

/// Sends raw bytes on a fresh connection and reads until the server closes it (or a whole
/// answer with a body has arrived): the status line, the headers and the body.
fn raw_exchange(base_url: &str, request: &[u8]) -> (String, String) {
    use std::io::{Read, Write};
    let address = base_url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).expect("connects");
    stream.write_all(request).expect("the request is written");
    let mut received = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => received.extend_from_slice(&chunk[..n]),
        }
        let text = String::from_utf8_lossy(&received);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_owned())
                })
                .and_then(|v| v.parse::<usize>().ok());
            if length.is_some_and(|length| body.len() >= length && !head.starts_with("HTTP/1.1 100")) {
                break;
            }
        }
    }
    let text = String::from_utf8_lossy(&received).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (head.to_owned(), body.to_owned())
}

/// Asserts a Zulip-shaped error answer with this status.
fn assert_zulip_error(head: &str, body: &str, status: u16) -> serde_json::Value {
    assert!(head.starts_with(&format!("HTTP/1.1 {status} ")), "{head}");
    assert!(head.to_ascii_lowercase().contains("content-type: application/json"), "{head}");
    let body: serde_json::Value =
        serde_json::from_str(body).unwrap_or_else(|_| panic!("JSON body: {body:?}"));
    assert_eq!(body["result"], "error", "{body}");
    assert!(body["msg"].is_string() && body["code"].is_string(), "{body}");
    body
}

#[test]
fn protocol_errors_answer_in_zulips_shape() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let host = server.base_url.trim_start_matches("http://").to_owned();
    // RFC 9112, section 3.2: an HTTP/1.1 request without Host, or any with two, is a 400.
    let (head, body) = raw_exchange(&server.base_url, b"GET /api/v1/server_settings HTTP/1.1\r\n\r\n");
    assert_eq!(assert_zulip_error(&head, &body, 400)["msg"], "Missing Host header");
    let two = format!("GET /api/v1/server_settings HTTP/1.1\r\nHost: {host}\r\nHost: evil.example\r\n\r\n");
    let (head, body) = raw_exchange(&server.base_url, two.as_bytes());
    assert_eq!(assert_zulip_error(&head, &body, 400)["msg"], "More than one Host header");
    let old = b"GET /api/v1/server_settings HTTP/1.0\r\n\r\n";
    let (head, body) = raw_exchange(&server.base_url, old);
    assert!(!body.contains("Host header"), "HTTP/1.0 may leave Host out: {head}\n{body}");

    // A 2 GB body announced with `Expect: 100-continue` is refused before the client sends it.
    let expecting = format!(
        "POST /api/v1/user_uploads HTTP/1.1\r\nHost: {host}\r\nExpect: 100-continue\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 2147483648\r\n\r\n"
    );
    let (head, body) = raw_exchange(&server.base_url, expecting.as_bytes());
    assert!(!head.contains("100 Continue"), "{head}");
    assert_zulip_error(&head, &body, 413);
    // The same for a form body over the limit of bodies held in memory.
    let form = format!(
        "POST /api/v1/messages HTTP/1.1\r\nHost: {host}\r\nExpect: 100-continue\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 30000000\r\n\r\n"
    );
    let (head, body) = raw_exchange(&server.base_url, form.as_bytes());
    assert!(!head.contains("100 Continue"), "{head}");
    assert_zulip_error(&head, &body, 413);

    // Request header fields too large.
    let huge = format!(
        "GET /api/v1/server_settings HTTP/1.1\r\nHost: {host}\r\nX-Filler: {}\r\n\r\n",
        "a".repeat(70_000)
    );
    let (head, body) = raw_exchange(&server.base_url, huge.as_bytes());
    assert_zulip_error(&head, &body, 431);

    // A path segment that is not UTF-8.
    let (head, body) = raw_exchange(
        &server.base_url,
        format!("GET /api/v1/users/%FF HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
    );
    assert_eq!(assert_zulip_error(&head, &body, 400)["code"], "BAD_REQUEST");

    // A multipart body without a boundary, and one cut short.
    let owner = server.owner();
    let http = reqwest::blocking::Client::new();
    for (content_type, body) in [
        ("multipart/form-data", "content=x".to_owned()),
        (
            "multipart/form-data; boundary=b",
            "--b\r\nContent-Disposition: form-data; name=\"content\"\r\n\r\nx".to_owned(),
        ),
    ] {
        let response = http
            .post(format!("{}/api/v1/messages", server.base_url))
            .basic_auth(&owner.email, Some(&owner.api_key))
            .header("Content-Type", content_type)
            .body(body)
            .send()
            .expect("the server answers");
        assert_eq!(response.status().as_u16(), 400);
        let body: serde_json::Value = response.json().expect("a JSON body");
        assert_eq!(body["code"], "BAD_REQUEST", "{body}");
        assert_eq!(body["msg"], "Malformed multipart body");
    }
}

#[test]
fn nul_bytes_are_refused_in_status_text_and_user_group_names() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let api = server.api();
    let owner = server.owner();
    let refused = api.post("/users/me/status", Some(&owner), &[("status_text", "out\u{0}now")]);
    assert_eq!(refused.error(400, "BAD_REQUEST")["msg"], "status_text contains NULL (0x00) characters.");
    let me = api.user_id(&owner).to_string();
    let members = format!("[{me}]");
    let created = api.post(
        "/user_groups/create",
        Some(&owner),
        &[("name", "a\u{0}b"), ("description", "d"), ("members", &members)],
    );
    assert_eq!(
        created.error(400, "BAD_REQUEST")["msg"],
        "User group name 'a\u{0}b' contains NULL (0x00) characters."
    );
    let described = api.post(
        "/user_groups/create",
        Some(&owner),
        &[("name", "ab"), ("description", "d\u{0}"), ("members", &members)],
    );
    assert_eq!(
        described.error(400, "BAD_REQUEST")["msg"],
        "User group description contains NULL (0x00) characters."
    );
    let group = api
        .post(
            "/user_groups/create",
            Some(&owner),
            &[("name", "ok"), ("description", "d"), ("members", &members)],
        )
        .ok();
    let id = group["group_id"].as_u64().expect("group_id");
    let renamed = api.patch(&format!("/user_groups/{id}"), Some(&owner), &[("name", "o\u{0}k")]);
    renamed.error(400, "BAD_REQUEST");
}

/// Every text field an organization stores refuses NUL, which Zulip's database cannot hold:
/// with the field's own message where Zulip has one, otherwise "... contains NULL (0x00)
/// characters.". Nothing is stored.
#[test]
fn nul_bytes_are_refused_in_every_stored_text_field() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let api = server.api();
    let owner = server.owner();
    let channel =
        api.get("/get_stream_id", Some(&owner), &[("stream", "general")]).ok()["stream_id"].to_string();
    let sent = [("type", "stream"), ("to", "general"), ("topic", "t"), ("content", "hello")];
    let message = api.post("/messages", Some(&owner), &sent).ok()["id"].as_u64().expect("id").to_string();
    let nul = "a\u{0}b";
    let word_list = serde_json::json!([nul]).to_string();
    let new_channel = serde_json::json!([{"name": "fresh", "description": nul}]).to_string();
    // Each: the request, and the message of its refusal.
    type Case<'a> = (Method, String, Vec<(&'a str, &'a str)>, &'a str);
    let cases: Vec<Case> = vec![
        (
            Method::PATCH,
            format!("/streams/{channel}"),
            vec![("description", nul)],
            "Channel description contains NULL (0x00) characters.",
        ),
        (
            Method::POST,
            "/users/me/subscriptions".into(),
            vec![("subscriptions", &new_channel)],
            "Channel description contains NULL (0x00) characters.",
        ),
        (
            Method::PATCH,
            format!("/messages/{message}"),
            vec![("content", nul)],
            "Message must not contain null bytes",
        ),
        (Method::PATCH, "/realm".into(), vec![("name", nul)], "name contains NULL (0x00) characters."),
        (
            Method::PATCH,
            "/realm".into(),
            vec![("description", nul)],
            "description contains NULL (0x00) characters.",
        ),
        (
            Method::POST,
            "/realm/profile_fields".into(),
            vec![("name", nul), ("field_type", "1")],
            "name contains NULL (0x00) characters.",
        ),
        (
            Method::POST,
            "/users/me/alert_words".into(),
            vec![("alert_words", &word_list)],
            "alert_words[0] contains NULL (0x00) characters.",
        ),
        (
            Method::POST,
            "/saved_snippets".into(),
            vec![("title", nul), ("content", "x")],
            "title contains NULL (0x00) characters.",
        ),
        (
            Method::POST,
            "/saved_snippets".into(),
            vec![("title", "x"), ("content", nul)],
            "content contains NULL (0x00) characters.",
        ),
        (
            Method::POST,
            "/realm/filters".into(),
            vec![("pattern", "#(?P<id>[0-9]+)\u{0}"), ("url_template", "https://example.com/{id}")],
            "pattern contains NULL (0x00) characters.",
        ),
        (
            Method::POST,
            "/realm/playgrounds".into(),
            vec![("name", nul), ("pygments_language", "py"), ("url_template", "https://example.com/{code}")],
            "name contains NULL (0x00) characters.",
        ),
        (
            Method::POST,
            "/channel_folders/create".into(),
            vec![("name", "folder"), ("description", nul)],
            "description contains NULL (0x00) characters.",
        ),
        (
            Method::POST,
            "/navigation_views".into(),
            vec![("fragment", nul), ("is_pinned", "true")],
            "fragment contains NULL (0x00) characters.",
        ),
    ];
    for (method, path, params, expected) in cases {
        let (reply, _) = api.exchange(method.clone(), &path, Some(&owner), &params);
        assert_eq!(reply.status, 400, "{method} {path} {params:?}: {}", reply.body);
        assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], expected, "{method} {path} {params:?}");
    }
    let realm = api.get("/server_settings", None, &[]).ok();
    assert!(!realm["realm_name"].as_str().expect("realm_name").contains('\u{0}'));
    let stored = api.get(&format!("/messages/{message}"), Some(&owner), &[("apply_markdown", "false")]).ok();
    assert_eq!(stored["message"]["content"], "hello");
}
