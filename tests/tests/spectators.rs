//! Spectators: someone without an account reading what an organization made web-public, once
//! it enables spectator access. Besides register and `GET /messages` (in `event_queues.rs` and
//! `channels.rs`), Zulip opens one message (`GET /messages/{id}`), a channel's topics
//! (`GET /users/me/{id}/topics`), for web-public channels only, and the user directory
//! (`GET /users`, since feature level 387) to them; whatever else a
//! spectator asks for answers as if it did not exist, and every other endpoint as a request
//! without credentials.

use confab_tests::{Api, Creds, TestServer};
use serde_json::json;

/// Zulip's answer to a request that needed credentials.
const NOT_LOGGED_IN: &str = "Not logged in: API authentication or user session required";

/// An id nobody has.
const MISSING: &str = "987654321";

/// An organization with a web-public channel `open` (the notice of its creation, then topics
/// `lunch` and `plans`), a public channel `members` and a private one `secret`, each with a
/// message, and a direct message.
struct Organization {
    server: TestServer,
    owner: Creds,
    open: u64,
    members: u64,
    secret: u64,
    /// The messages of `open`: the Notification Bot's notice that it was created (topic
    /// `channel events`), then `lunch`, `plans`, `lunch` again.
    open_messages: [u64; 4],
    members_message: u64,
    secret_message: u64,
    direct_message: u64,
}

impl Organization {
    fn api(&self) -> Api {
        self.server.api()
    }

    fn enable_spectators(&self) {
        self.api().patch("/realm", Some(&self.owner), &[("enable_spectator_access", "true")]).ok();
    }
}

fn send(api: &Api, who: &Creds, to: &str, topic: &str, content: &str) -> u64 {
    let params = [("type", "stream"), ("to", to), ("topic", topic), ("content", content)];
    api.post("/messages", Some(who), &params).ok()["id"].as_u64().expect("id")
}

fn create_channel(api: &Api, owner: &Creds, name: &str, extra: &[(&str, &str)]) -> u64 {
    let me = api.get("/users/me", Some(owner), &[]).ok()["user_id"].to_string();
    let subscribers = format!("[{me}]");
    let mut params = vec![("name", name), ("subscribers", subscribers.as_str())];
    params.extend_from_slice(extra);
    api.post("/channels/create", Some(owner), &params).ok()["id"].as_u64().expect("id")
}

/// The organization, with spectator access on only while `open` is made web-public (an
/// organization needs it to make one), then off again: each test turns it on itself.
fn organization() -> Organization {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.patch("/realm", Some(&owner), &[("enable_spectator_access", "true")]).ok();
    let open = create_channel(&api, &owner, "open", &[("is_web_public", "true")]);
    api.patch("/realm", Some(&owner), &[("enable_spectator_access", "false")]).ok();
    let members = create_channel(&api, &owner, "members", &[]);
    let secret = create_channel(&api, &owner, "secret", &[("invite_only", "true")]);
    let oldest = [
        ("anchor", "oldest"),
        ("num_before", "0"),
        ("num_after", "1"),
        ("narrow", r#"[{"operator": "channel", "operand": "open"}]"#),
    ];
    let notice = api.get("/messages", Some(&owner), &oldest).ok()["messages"][0]["id"].as_u64();
    let open_messages = [
        notice.expect("the channel's creation notice"),
        send(&api, &owner, "open", "lunch", "Anyone may read *this*"),
        send(&api, &owner, "open", "plans", "And this"),
        send(&api, &owner, "open", "lunch", "Soup today"),
    ];
    let members_message = send(&api, &owner, "members", "lunch", "Members only");
    let secret_message = send(&api, &owner, "secret", "lunch", "Nobody else");
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].to_string();
    let to = format!("[{ada_id}]");
    let direct = [("type", "direct"), ("to", to.as_str()), ("content", "Just us")];
    let direct_message = api.post("/messages", Some(&owner), &direct).ok()["id"].as_u64().expect("id");
    Organization {
        server,
        owner,
        open,
        members,
        secret,
        open_messages,
        members_message,
        secret_message,
        direct_message,
    }
}

/// A request: method, path and parameters.
type Request<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

/// `GET /messages/{id}` without credentials.
fn read_message(api: &Api, id: &str, params: &[(&str, &str)]) -> confab_tests::Reply {
    api.get(&format!("/messages/{id}"), None, params)
}

/// `GET /users/me/{id}/topics` without credentials.
fn read_topics(api: &Api, id: &str) -> confab_tests::Reply {
    api.get(&format!("/users/me/{id}/topics"), None, &[])
}

#[test]
fn spectators_read_one_message_of_a_web_public_channel() {
    let org = organization();
    let api = org.api();
    let [_, lunch, ..] = org.open_messages;
    let lunch = lunch.to_string();

    // Without spectator access, a request without credentials is refused, whatever it asks.
    assert_eq!(read_message(&api, &lunch, &[]).error(401, "UNAUTHORIZED")["msg"], NOT_LOGGED_IN);
    read_message(&api, &lunch, &[("apply_markdown", "[")]).error(401, "UNAUTHORIZED");

    org.enable_spectators();
    let read = read_message(&api, &lunch, &[]).ok();
    assert_eq!(read["raw_content"], "Anyone may read *this*");
    let message = &read["message"];
    assert_eq!(message["content"], "<p>Anyone may read <em>this</em></p>");
    assert_eq!(message["display_recipient"], "open");
    assert_eq!(message["stream_id"], org.open);
    assert_eq!(message["subject"], "lunch");
    assert_eq!(message["flags"], json!(["read"]), "a spectator has no history of their own");
    let raw = read_message(&api, &lunch, &[("apply_markdown", "false")]).ok();
    assert_eq!(raw["message"]["content"], "Anyone may read *this*");
    let bad = [("apply_markdown", "maybe")];
    let members = api.get(&format!("/messages/{lunch}"), Some(&org.owner), &bad).error(400, "BAD_REQUEST");
    assert_eq!(read_message(&api, &lunch, &bad).error(400, "BAD_REQUEST"), members, "checked as anyone's");

    // Every other message answers as a missing one, and as a request without credentials, so
    // the answer never tells which messages exist.
    let missing = read_message(&api, MISSING, &[]).error(401, "UNAUTHORIZED");
    assert_eq!(missing["msg"], NOT_LOGGED_IN);
    for other in [org.members_message, org.secret_message, org.direct_message] {
        assert_eq!(read_message(&api, &other.to_string(), &[]).error(401, "UNAUTHORIZED"), missing);
    }
    for hostile in ["0", "-1", "abc", "1e3", "99999999999999999999999", "%00", "%20"] {
        assert_eq!(read_message(&api, hostile, &[]).error(401, "UNAUTHORIZED"), missing, "{hostile}");
    }

    // Spectators read web-public messages only: the same message, once its channel is no
    // longer web-public, answers as a missing one.
    let channel = format!("/streams/{}", org.open);
    api.patch(&channel, Some(&org.owner), &[("is_web_public", "false")]).ok();
    assert_eq!(read_message(&api, &lunch, &[]).error(401, "UNAUTHORIZED"), missing);
    api.patch(&channel, Some(&org.owner), &[("is_web_public", "true")]).ok();
    read_message(&api, &lunch, &[]).ok();

    // Members still read every message they may, with their own flags.
    let owners = api.get(&format!("/messages/{}", org.members_message), Some(&org.owner), &[]).ok();
    assert_eq!(owners["message"]["content"], "<p>Members only</p>");
}

#[test]
fn spectators_read_the_topics_of_a_web_public_channel() {
    let org = organization();
    let api = org.api();
    let open = org.open.to_string();
    assert_eq!(read_topics(&api, &open).error(401, "UNAUTHORIZED")["msg"], NOT_LOGGED_IN);
    read_topics(&api, "abc").error(401, "UNAUTHORIZED");

    org.enable_spectators();
    let [notice, _, plans, soup] = org.open_messages;
    let topics = read_topics(&api, &open).ok();
    assert_eq!(
        topics["topics"],
        json!([
            {"name": "lunch", "max_id": soup},
            {"name": "plans", "max_id": plans},
            {"name": "channel events", "max_id": notice},
        ]),
        "most recent first, each with its newest message"
    );

    // Any other channel answers as a missing one: `Invalid channel ID`, as in Zulip.
    let missing = read_topics(&api, MISSING).error(400, "BAD_REQUEST");
    assert_eq!(missing["msg"], "Invalid channel ID");
    for other in [org.members, org.secret] {
        assert_eq!(read_topics(&api, &other.to_string()).error(400, "BAD_REQUEST"), missing);
    }
    for hostile in ["0", "-1", "abc", "99999999999999999999999", "%00"] {
        assert_eq!(read_topics(&api, hostile).error(400, "BAD_REQUEST"), missing, "{hostile}");
    }
}

#[test]
fn spectators_may_ask_nothing_else() {
    let org = organization();
    org.enable_spectators();
    let api = org.api();
    let [_, lunch, ..] = org.open_messages;
    let open = org.open.to_string();
    let history = format!("/messages/{lunch}/history");
    let refused: [Request; 7] = [
        ("GET", history.as_str(), &[]),
        ("GET", "/users/me", &[]),
        ("GET", "/streams", &[("include_web_public", "true")]),
        ("GET", "/get_stream_id", &[("stream", "open")]),
        ("GET", "/messages/matches_narrow", &[("msg_ids", "[1]"), ("narrow", "[]")]),
        ("POST", "/messages", &[("type", "stream"), ("to", "open"), ("topic", "t"), ("content", "x")]),
        ("POST", "/messages/flags", &[("messages", "[1]"), ("op", "add"), ("flag", "read")]),
    ];
    for (method, path, params) in refused {
        let reply = match method {
            "GET" => api.get(path, None, params),
            _ => api.post(path, None, params),
        };
        assert_eq!(reply.error(401, "UNAUTHORIZED")["msg"], NOT_LOGGED_IN, "{method} {path}");
    }

    // Credentials that open nothing are refused as such, not read as a spectator's.
    let nobody = Creds { email: "nobody@example.com".into(), api_key: "x".repeat(32) };
    api.get(&format!("/messages/{lunch}"), Some(&nobody), &[]).error(401, "INVALID_API_KEY");
    api.get(&format!("/users/me/{open}/topics"), Some(&nobody), &[]).error(401, "INVALID_API_KEY");
}

#[test]
fn spectators_read_the_user_directory_without_real_emails() {
    let org = organization();
    let api = org.api();
    assert_eq!(api.get("/users", None, &[]).error(401, "UNAUTHORIZED")["msg"], NOT_LOGGED_IN);
    org.enable_spectators();
    let members = api.get("/users", None, &[]).ok()["members"].as_array().cloned().expect("members");
    let owner = members.iter().find(|m| m["email"] == org.owner.email).expect("the owner is listed");
    assert_eq!(owner["delivery_email"], json!(null));
    // `user_ids` picks users (feature level 384); ids of no one are passed over.
    let owner_id = owner["user_id"].clone();
    let picked = format!("[{owner_id}, {MISSING}]");
    let only = api.get("/users", None, &[("user_ids", picked.as_str())]).ok();
    assert_eq!(only["members"].as_array().map(Vec::len), Some(1));
    assert_eq!(only["members"][0]["user_id"], owner_id);
}

#[test]
fn spectators_see_every_message_as_read() {
    let org = organization();
    org.enable_spectators();
    let params = [
        ("anchor", "newest"),
        ("num_before", "10"),
        ("num_after", "0"),
        ("narrow", r#"[{"operator": "channels", "operand": "web-public"}]"#),
    ];
    let read = org.api().get("/messages", None, &params).ok();
    let messages = read["messages"].as_array().expect("messages");
    let ids: Vec<u64> = messages.iter().filter_map(|m| m["id"].as_u64()).collect();
    assert_eq!(ids, org.open_messages, "the web-public channel's messages, and only those");
    assert!(messages.iter().all(|m| m["flags"] == json!(["read"])), "{read}");
}
