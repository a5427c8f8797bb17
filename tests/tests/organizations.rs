//! Several organizations on one server (issue 5): the Host header picks the organization
//! (`SUB.HOST`, the root at `HOST`), server settings follow it, credentials work only on their
//! own organization, and an id from another organization answers exactly like a missing id.

use std::path::Path;
use std::process::{Command, Output};

use confab_tests::{Api, Creds, Reply, TINY_PNG, TestServer, UploadFile};
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_confab-under-test");
/// The server's external host; nothing resolves it, requests carry it in their Host header.
const HOST: &str = "confab.test";
const LEAR: &str = "lear.confab.test";

/// `confab create-realm` on a data directory, and the database its server keeps its data in
/// (`store`: `TestServer::store_args`).
fn create_realm(data_dir: &Path, store: &[String], subdomain: &str, name: &str, owner_email: &str) -> Output {
    Command::new(BINARY)
        .arg("create-realm")
        .arg("--data-dir")
        .arg(data_dir)
        .args(store)
        .args(["--subdomain", subdomain, "--name", name, "--owner-email", owner_email])
        .args(["--owner-password", "crown-and-sceptre"])
        .output()
        .expect("confab runs")
}

/// The owner's credentials printed by `create-realm`.
fn created_owner(output: &Output, email: &str) -> Creds {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed = String::from_utf8_lossy(&output.stdout);
    let key = printed.lines().find_map(|l| l.strip_prefix("API key: ")).expect("the key is printed");
    Creds { email: email.to_owned(), api_key: key.to_owned() }
}

fn on(server: &TestServer, host: &str) -> Api {
    server.api().with_host(host)
}

/// The organization made at first start on the root, and `lear` made with `create-realm`.
struct TwoOrganizations {
    server: TestServer,
    root_owner: Creds,
    root_owner_password: String,
    lear_owner: Creds,
}

impl TwoOrganizations {
    fn start() -> TwoOrganizations {
        let mut server = TestServer::start_with(BINARY, &["--external-host", HOST]);
        let root_owner = server.owner();
        let root_owner_password = server.owner_password.clone().expect("the first start prints it");
        assert!(server.terminate().success());
        let lear_owner = created_owner(
            &create_realm(&server.data_dir, &server.store_args(), "lear", "Lear", "king@lear.example"),
            "king@lear.example",
        );
        let server = server.start_again();
        TwoOrganizations { server, root_owner, root_owner_password, lear_owner }
    }

    fn root(&self) -> Api {
        on(&self.server, HOST)
    }

    fn lear(&self) -> Api {
        on(&self.server, LEAR)
    }
}

fn user_id(api: &Api, who: &Creds) -> u64 {
    api.get("/users/me", Some(who), &[]).ok()["user_id"].as_u64().expect("user_id")
}

#[test]
fn the_host_header_names_the_organization() {
    let orgs = TwoOrganizations::start();
    let root = orgs.root().get("/users/me", Some(&orgs.root_owner), &[]).ok();
    assert_eq!(root["email"], "owner@confab.localhost");
    let lear = orgs.lear().get("/users/me", Some(&orgs.lear_owner), &[]).ok();
    assert_eq!(lear["email"], "king@lear.example");
    assert_eq!(lear["role"], 100, "the creator of an organization is its owner");

    // Hosts compare case-insensitively; HOST names no port, so any port is accepted; `www` is
    // the root.
    for host in ["CONFAB.test", "confab.test:8080", "www.confab.test"] {
        on(&orgs.server, host).get("/users/me", Some(&orgs.root_owner), &[]).ok();
    }
    for host in ["Lear.Confab.Test", "lear.confab.test:443"] {
        on(&orgs.server, host).get("/users/me", Some(&orgs.lear_owner), &[]).ok();
    }

    // Each organization sees only its own people.
    let emails = |api: Api, who: &Creds| -> Vec<String> {
        let members = api.get("/users", Some(who), &[]).ok()["members"].as_array().expect("members").clone();
        members.iter().map(|m| m["email"].as_str().expect("email").to_owned()).collect()
    };
    let lear_people = emails(orgs.lear(), &orgs.lear_owner);
    assert!(lear_people.contains(&"king@lear.example".to_owned()), "{lear_people:?}");
    assert!(!lear_people.contains(&"owner@confab.localhost".to_owned()), "{lear_people:?}");
}

#[test]
fn server_settings_and_register_give_each_organization_its_own_url() {
    let orgs = TwoOrganizations::start();
    let root = orgs.root().get("/server_settings", None, &[]).ok();
    assert_eq!(root["realm_url"], "http://confab.test");
    assert_eq!(root["realm_uri"], "http://confab.test");
    assert_eq!(root["realm_name"], "Confab");
    let lear = orgs.lear().get("/server_settings", None, &[]).ok();
    assert_eq!(lear["realm_url"], "http://lear.confab.test");
    assert_eq!(lear["realm_uri"], "http://lear.confab.test");
    assert_eq!(lear["realm_name"], "Lear");
    assert_eq!(lear["realm_icon"], "http://lear.confab.test/static/images/logo/zulip-icon-128x128.png");

    let params = [("fetch_event_types", r#"["realm"]"#)];
    let state = orgs.lear().post("/register", Some(&orgs.lear_owner), &params).ok();
    assert_eq!(state["realm_url"], "http://lear.confab.test");
    assert_eq!(state["realm_uri"], "http://lear.confab.test");
    assert_eq!(state["realm_name"], "Lear");
    let state = orgs.root().post("/register", Some(&orgs.root_owner), &params).ok();
    assert_eq!(state["realm_url"], "http://confab.test");
}

/// What Zulip's `do_create_realm` leaves in a new organization, less the Welcome Bot's
/// onboarding channels: `general`, public and default, where new channels and Zulip updates
/// are announced, with the first owner subscribed and no messages yet.
fn assert_starts_with_general(api: &Api, owner: &Creds) {
    let streams = api.get("/streams", Some(owner), &[]).ok()["streams"].clone();
    let [general] = streams.as_array().expect("streams").as_slice() else {
        panic!("one channel: {streams}");
    };
    assert_eq!(general["name"], "general");
    assert_eq!(general["description"], "For team-wide conversations");
    assert_eq!(general["invite_only"], false);
    assert_eq!(general["is_web_public"], false);
    assert_eq!(general["history_public_to_subscribers"], true);
    assert_eq!(general["creator_id"], json!(null));
    assert_eq!(general["first_message_id"], json!(null), "no creation notice: {general}");
    let id = general["stream_id"].clone();

    let subscriptions = api.get("/users/me/subscriptions", Some(owner), &[]).ok()["subscriptions"].clone();
    let names: Vec<&Value> =
        subscriptions.as_array().expect("subscriptions").iter().map(|s| &s["name"]).collect();
    assert_eq!(names, [&json!("general")]);

    let params = [("fetch_event_types", r#"["realm", "default_streams"]"#)];
    let state = api.post("/register", Some(owner), &params).ok();
    assert_eq!(state["realm_default_streams"], json!([id]));
    assert_eq!(state["realm_new_stream_announcements_stream_id"], id);
    assert_eq!(state["realm_zulip_update_announcements_stream_id"], id);
    assert_eq!(state["realm_signup_announcements_stream_id"], -1);

    let sent = [("type", "stream"), ("to", "general"), ("topic", "hello"), ("content", "First!")];
    api.post("/messages", Some(owner), &sent).ok();
}

#[test]
fn a_new_organization_starts_with_general_and_its_owner_subscribed() {
    let orgs = TwoOrganizations::start();
    assert_starts_with_general(&orgs.root(), &orgs.root_owner);
    assert_starts_with_general(&orgs.lear(), &orgs.lear_owner);
    // New users join it: it is a default channel.
    let fool = orgs.lear().create_user(&orgs.lear_owner, "fool@lear.example", "Fool");
    let subscriptions = orgs.lear().get("/users/me/subscriptions", Some(&fool), &[]).ok();
    assert_eq!(subscriptions["subscriptions"][0]["name"], "general");
}

#[test]
fn organization_urls_use_the_external_scheme() {
    let server = TestServer::start_with(BINARY, &["--external-host", HOST, "--external-scheme", "https"]);
    let settings = on(&server, HOST).get("/server_settings", None, &[]).ok();
    assert_eq!(settings["realm_url"], "https://confab.test");
    let zuliprc = std::fs::read_to_string(server.data_dir.join("zuliprc")).expect("zuliprc");
    assert!(zuliprc.contains("site=https://confab.test\n"), "{zuliprc}");
}

#[test]
fn the_root_of_a_server_whose_organizations_are_all_on_subdomains_has_no_realm_fields() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let data_dir = dir.path().join("data");
    created_owner(&create_realm(&data_dir, &[], "lear", "Lear", "king@lear.example"), "king@lear.example");
    created_owner(
        &create_realm(&data_dir, &[], "hamlet", "Elsinore", "prince@hamlet.example"),
        "prince@hamlet.example",
    );
    let server = TestServer::spawn(Path::new(BINARY), &data_dir, "127.0.0.1:0", &["--external-host", HOST]);
    assert!(server.owner.is_none(), "no organization is made on the root of a prepared directory");
    assert!(!data_dir.join("zuliprc").exists());

    let root = on(&server, HOST).get("/server_settings", None, &[]).ok();
    for field in ["realm_name", "realm_icon", "realm_description"] {
        assert!(root.get(field).is_none(), "{field} on the root: {root}");
    }
    // As Zulip answers there: the root's URL, and no web-public access.
    assert_eq!(root["realm_url"], "http://confab.test");
    assert_eq!(root["realm_uri"], "http://confab.test");
    assert_eq!(root["realm_web_public_access_enabled"], false);
    assert_eq!(root["zulip_feature_level"], root["service_feature_level"]);
    assert_eq!(root["authentication_methods"]["password"], true);

    let hamlet = on(&server, "hamlet.confab.test").get("/server_settings", None, &[]).ok();
    assert_eq!(hamlet["realm_name"], "Elsinore");
    assert_eq!(hamlet["realm_url"], "http://hamlet.confab.test");

    // Logging in needs an organization.
    let login = [("username", "king@lear.example"), ("password", "crown-and-sceptre")];
    let refused = on(&server, HOST).post("/fetch_api_key", None, &login).error(404, "NONEXISTENT_SUBDOMAIN");
    assert_eq!(refused["msg"], "Invalid subdomain");
    on(&server, LEAR).post("/fetch_api_key", None, &login).ok();
}

#[test]
fn a_host_without_an_organization_answers_as_zulip_does_for_an_unknown_organization() {
    let orgs = TwoOrganizations::start();
    let loopback = orgs.server.base_url.trim_start_matches("http://").to_owned();
    let long = format!("{}.confab.test", "x".repeat(4000));
    let unknown = [
        "hamlet.confab.test",
        "elsewhere.example",
        "confab.test.example",
        "confab.test:port",
        &long,
        &loopback,
    ];
    for host in unknown {
        let api = on(&orgs.server, host);
        let settings = api.get("/server_settings", None, &[]).error(400, "BAD_REQUEST");
        assert_eq!(settings["msg"], "Invalid subdomain", "{host}");
        let login = [("username", "owner@confab.localhost"), ("password", "whatever")];
        let login = api.post("/fetch_api_key", None, &login).error(404, "NONEXISTENT_SUBDOMAIN");
        assert_eq!(login["msg"], "Invalid subdomain", "{host}");
        let spectator = api.post("/register", None, &[]).error(404, "NONEXISTENT_SUBDOMAIN");
        assert_eq!(spectator["msg"], "Invalid subdomain", "{host}");
        // Real credentials of some organization: refused as belonging elsewhere.
        let elsewhere = api.get("/users/me", Some(&orgs.root_owner), &[]).error(401, "UNAUTHORIZED");
        assert_eq!(elsewhere["msg"], "Account is not associated with this subdomain", "{host}");
        let nobody = Creds { email: "owner@confab.localhost".into(), api_key: "x".repeat(32) };
        api.get("/users/me", Some(&nobody), &[]).error(401, "INVALID_API_KEY");
        api.get("/users/me", None, &[]).error(401, "UNAUTHORIZED");
    }
}

#[test]
fn credentials_of_one_organization_are_refused_on_another() {
    let orgs = TwoOrganizations::start();
    for (api, who) in [(orgs.lear(), &orgs.root_owner), (orgs.root(), &orgs.lear_owner)] {
        for reply in [
            api.get("/users/me", Some(who), &[]),
            api.post("/register", Some(who), &[]),
            api.get("/events", Some(who), &[]),
            api.post(
                "/messages",
                Some(who),
                &[("type", "stream"), ("to", "general"), ("topic", "t"), ("content", "x")],
            ),
        ] {
            let body = reply.error(401, "UNAUTHORIZED");
            assert_eq!(body["msg"], "Account is not associated with this subdomain");
        }
    }

    // One email, two accounts: each key and each password opens only its own organization.
    let ada_root = orgs.root().create_user(&orgs.root_owner, "ada@example.com", "Ada of Confab");
    let ada_lear = orgs.lear().create_user(&orgs.lear_owner, "ada@example.com", "Ada of Lear");
    assert_ne!(ada_root.api_key, ada_lear.api_key);
    assert_eq!(orgs.root().get("/users/me", Some(&ada_root), &[]).ok()["full_name"], "Ada of Confab");
    assert_eq!(orgs.lear().get("/users/me", Some(&ada_lear), &[]).ok()["full_name"], "Ada of Lear");
    orgs.lear().get("/users/me", Some(&ada_root), &[]).error(401, "UNAUTHORIZED");
    orgs.root().get("/users/me", Some(&ada_lear), &[]).error(401, "UNAUTHORIZED");
    let fetched = orgs
        .lear()
        .post("/fetch_api_key", None, &[("username", "ada@example.com"), ("password", "s3cret-pass")])
        .ok();
    assert_eq!(fetched["api_key"], ada_lear.api_key.as_str());

    // The root's owner cannot log in on lear, where no account has that email.
    let login = [("username", "owner@confab.localhost"), ("password", orgs.root_owner_password.as_str())];
    orgs.root().post("/fetch_api_key", None, &login).ok();
    orgs.lear().post("/fetch_api_key", None, &login).error(401, "AUTHENTICATION_FAILED");
}

/// Objects of organization lear, made by its people.
struct LearObjects {
    fool: Creds,
    user: u64,
    stream: u64,
    message: u64,
    direct_message: u64,
    linkifier: u64,
    group: u64,
    folder: u64,
    /// A draft of the fool's: personal records share one id sequence.
    draft: u64,
    profile_field: u64,
    scheduled: u64,
    reminder: u64,
    queue: String,
    /// The custom emoji `storm`.
    emoji: u64,
}

fn lear_objects(orgs: &TwoOrganizations) -> LearObjects {
    let lear = orgs.lear();
    let king = &orgs.lear_owner;
    let fool = lear.create_user(king, "fool@lear.example", "Fool");
    let user = user_id(&lear, &fool);
    let subscribers = json!([user_id(&lear, king), user]).to_string();
    lear.post("/channels/create", Some(king), &[("name", "heath"), ("subscribers", subscribers.as_str())])
        .ok();
    let stream = lear.get("/get_stream_id", Some(king), &[("stream", "heath")]).ok()["stream_id"]
        .as_u64()
        .expect("id");
    let sent = lear.post(
        "/messages",
        Some(king),
        &[("type", "stream"), ("to", "heath"), ("topic", "storm"), ("content", "Blow, winds")],
    );
    let message = sent.ok()["id"].as_u64().expect("id");
    let to = json!([user]).to_string();
    let sent =
        lear.post("/messages", Some(king), &[("type", "direct"), ("to", to.as_str()), ("content", "Nuncle")]);
    let direct_message = sent.ok()["id"].as_u64().expect("id");
    lear.post(&format!("/messages/{message}/reactions"), Some(&fool), &[("emoji_name", "cloud")]).ok();
    let linkifier = lear
        .post(
            "/realm/filters",
            Some(king),
            &[("pattern", "#(?P<id>[0-9]+)"), ("url_template", "https://lear.example/{id}")],
        )
        .ok()["id"]
        .as_u64()
        .expect("id");
    let members = json!([user]).to_string();
    let group = lear
        .post(
            "/user_groups/create",
            Some(king),
            &[("name", "fools"), ("description", "Motley"), ("members", members.as_str())],
        )
        .ok()["group_id"]
        .as_u64()
        .expect("group_id");
    let profile_field =
        lear.post("/realm/profile_fields", Some(king), &[("name", "Role"), ("field_type", "1")]).ok()["id"]
            .as_u64()
            .expect("id");
    let folder = lear.post("/channel_folders/create", Some(king), &[("name", "Moors"), ("description", "")]);
    let folder = folder.ok()["channel_folder_id"].as_u64().expect("channel_folder_id");
    let far = ("scheduled_delivery_timestamp", FAR_FUTURE);
    let scheduled = lear
        .post(
            "/scheduled_messages",
            Some(&fool),
            &[("type", "stream"), ("to", &stream.to_string()), ("topic", "storm"), ("content", "Later"), far],
        )
        .ok()["scheduled_message_id"]
        .as_u64()
        .expect("scheduled_message_id");
    let reminder = lear
        .post("/reminders", Some(&fool), &[("message_id", &message.to_string()), far])
        .ok()["reminder_id"]
        .as_u64()
        .expect("reminder_id");
    lear.post("/users/me/presence", Some(&fool), &[("status", "active")]).ok();
    let queue =
        lear.post("/register", Some(&fool), &[]).ok()["queue_id"].as_str().expect("queue_id").to_owned();
    let drafts = r#"[{"type": "", "to": [], "topic": "", "content": "A fool's draft"}]"#;
    let draft =
        lear.post("/drafts", Some(&fool), &[("drafts", drafts)]).ok()["ids"][0].as_u64().expect("draft id");
    let image = UploadFile { name: "storm.png", content_type: None, bytes: TINY_PNG };
    lear.send_files(reqwest::Method::POST, "/realm/emoji/storm", Some(king), &[image]).ok();
    let listed = lear.get("/realm/emoji", Some(king), &[]).ok();
    let emoji = listed["emoji"].as_object().and_then(|all| all.keys().next().cloned()).expect("storm");
    let emoji = emoji.parse().expect("a numeric id");
    LearObjects {
        fool,
        user,
        stream,
        message,
        direct_message,
        linkifier,
        group,
        folder,
        draft,
        queue,
        emoji,
        profile_field,
        scheduled,
        reminder,
    }
}

/// A delivery time no test waits for (2100-01-01).
const FAR_FUTURE: &str = "4102444800";

/// A request naming an id: method, path and parameters, where `{id}` stands for the id under
/// test and `{general}`, `{message}`, `{group}`, `{everyone}` and `{userfield}` for the root's
/// own channel, message, groups and person-picker profile field.
type Probe<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

const USER_PROBES: &[Probe] = &[
    ("GET", "/users/{id}/status", &[]),
    ("POST", "/users/me/muted_users/{id}", &[]),
    ("GET", "/users/{id}", &[]),
    ("PATCH", "/users/{id}", &[("full_name", "Renamed")]),
    ("DELETE", "/users/{id}", &[]),
    ("POST", "/users/{id}/reactivate", &[]),
    ("GET", "/users/{id}/presence", &[]),
    ("POST", "/messages", &[("type", "direct"), ("to", "[{id}]"), ("content", "x")]),
    ("POST", "/typing", &[("op", "start"), ("to", "[{id}]")]),
    (
        "POST",
        "/users/me/subscriptions",
        &[("subscriptions", r#"[{"name": "general"}]"#), ("principals", "[{id}]")],
    ),
    ("DELETE", "/users/me/subscriptions", &[("subscriptions", r#"["general"]"#), ("principals", "[{id}]")]),
    ("POST", "/channels/create", &[("name", "newly"), ("subscribers", "[{id}]")]),
    ("POST", "/user_groups/create", &[("name", "g"), ("description", "d"), ("members", "[{id}]")]),
    (
        "PATCH",
        "/user_groups/{group}",
        &[("can_mention_group", r#"{"new": {"direct_members": [{id}], "direct_subgroups": []}}"#)],
    ),
    ("POST", "/user_groups/{group}/members", &[("add", "[{id}]")]),
    ("GET", "/user_groups/{everyone}/members/{id}", &[]),
    ("PATCH", "/users/me/profile_data", &[("data", r#"[{"id": {userfield}, "value": [{id}]}]"#)]),
    ("GET", "/users/{id}", &[("include_custom_profile_fields", "true")]),
    (
        "POST",
        "/scheduled_messages",
        &[
            ("type", "direct"),
            ("to", "[{id}]"),
            ("content", "x"),
            ("scheduled_delivery_timestamp", FAR_FUTURE),
        ],
    ),
];

const PROFILE_FIELD_PROBES: &[Probe] = &[
    ("PATCH", "/realm/profile_fields/{id}", &[("name", "Mine now")]),
    ("DELETE", "/realm/profile_fields/{id}", &[]),
    ("PATCH", "/realm/profile_fields", &[("order", "[{id}]")]),
    ("PATCH", "/users/me/profile_data", &[("data", r#"[{"id": {id}, "value": "x"}]"#)]),
    ("DELETE", "/users/me/profile_data", &[("data", "[{id}]")]),
];

const CHANNEL_PROBES: &[Probe] = &[
    ("GET", "/streams/{id}", &[]),
    ("PATCH", "/streams/{id}", &[("description", "mine now")]),
    ("DELETE", "/streams/{id}", &[]),
    ("GET", "/streams/{id}/members", &[]),
    ("GET", "/users/me/{id}/topics", &[]),
    ("POST", "/streams/{id}/delete_topic", &[("topic_name", "storm")]),
    ("POST", "/messages", &[("type", "stream"), ("to", "{id}"), ("topic", "t"), ("content", "x")]),
    (
        "POST",
        "/scheduled_messages",
        &[
            ("type", "stream"),
            ("to", "{id}"),
            ("topic", "t"),
            ("content", "x"),
            ("scheduled_delivery_timestamp", FAR_FUTURE),
        ],
    ),
    ("POST", "/typing", &[("op", "start"), ("type", "stream"), ("stream_id", "{id}"), ("topic", "storm")]),
    ("POST", "/mark_stream_as_read", &[("stream_id", "{id}")]),
    ("POST", "/mark_topic_as_read", &[("stream_id", "{id}"), ("topic_name", "storm")]),
    (
        "POST",
        "/users/me/subscriptions/properties",
        &[("subscription_data", r#"[{"stream_id": {id}, "property": "pin_to_top", "value": true}]"#)],
    ),
    ("PATCH", "/realm", &[("moderation_request_channel_id", "{id}")]),
    ("POST", "/default_streams", &[("stream_id", "{id}")]),
    ("DELETE", "/default_streams", &[("stream_id", "{id}")]),
    ("POST", "/user_topics", &[("stream_id", "{id}"), ("topic", "storm"), ("visibility_policy", "1")]),
    ("PATCH", "/messages/{message}", &[("stream_id", "{id}")]),
    (
        "POST",
        "/messages/flags/narrow",
        &[
            ("anchor", "oldest"),
            ("num_before", "0"),
            ("num_after", "10"),
            ("op", "add"),
            ("flag", "starred"),
            ("narrow", r#"[{"operator": "channel", "operand": {id}}]"#),
        ],
    ),
];

const MESSAGE_PROBES: &[Probe] = &[
    ("GET", "/messages/{id}", &[]),
    ("PATCH", "/messages/{id}", &[("content", "mine now")]),
    ("PATCH", "/messages/{id}", &[("stream_id", "{general}")]),
    ("DELETE", "/messages/{id}", &[]),
    ("GET", "/messages/{id}/history", &[]),
    ("POST", "/messages/{id}/reactions", &[("emoji_name", "octopus")]),
    ("DELETE", "/messages/{id}/reactions", &[("emoji_name", "cloud")]),
    ("POST", "/messages/{id}/report", &[("report_type", "spam")]),
    ("POST", "/submessage", &[("message_id", "{id}"), ("msg_type", "widget"), ("content", "{}")]),
    ("POST", "/messages/flags", &[("messages", "[{id}]"), ("op", "add"), ("flag", "starred")]),
    ("POST", "/messages/flags", &[("messages", "[{id}]"), ("op", "remove"), ("flag", "read")]),
    ("GET", "/messages", &[("message_ids", "[{id}]")]),
    ("GET", "/messages/matches_narrow", &[("msg_ids", "[{id}]"), ("narrow", "[]")]),
    ("POST", "/reminders", &[("message_id", "{id}"), ("scheduled_delivery_timestamp", FAR_FUTURE)]),
];

/// Narrows naming an id, each probed through `GET /messages`.
const USER_NARROWS: &[&str] =
    &[r#"[{"operator": "sender", "operand": {id}}]"#, r#"[{"operator": "dm", "operand": [{id}]}]"#];

const CHANNEL_NARROWS: &[&str] = &[r#"[{"operator": "channel", "operand": {id}}]"#];

const MESSAGE_NARROWS: &[&str] =
    &[r#"[{"operator": "id", "operand": {id}}]"#, r#"[{"operator": "with", "operand": {id}}]"#];

const LINKIFIER_PROBES: &[Probe] = &[
    (
        "PATCH",
        "/realm/filters/{id}",
        &[("pattern", "#(?P<ticket>[0-9]+)"), ("url_template", "https://x.example/{ticket}")],
    ),
    ("DELETE", "/realm/filters/{id}", &[]),
    ("PATCH", "/realm/linkifiers", &[("ordered_linkifier_ids", "[{id}]")]),
];

const GROUP_PROBES: &[Probe] = &[
    ("PATCH", "/user_groups/{id}", &[("description", "mine now")]),
    ("POST", "/user_groups/{id}/deactivate", &[]),
    ("GET", "/user_groups/{id}/members", &[]),
    ("POST", "/user_groups/{id}/members", &[("add", "[]"), ("delete", "[]")]),
    ("GET", "/user_groups/{id}/subgroups", &[]),
    ("POST", "/user_groups/{id}/subgroups", &[("add", "[]")]),
    ("POST", "/user_groups/{group}/subgroups", &[("add", "[{id}]")]),
    (
        "POST",
        "/user_groups/create",
        &[("name", "g"), ("description", "d"), ("members", "[]"), ("subgroups", "[{id}]")],
    ),
    ("PATCH", "/user_groups/{group}", &[("can_mention_group", r#"{"new": {id}}"#)]),
    (
        "POST",
        "/channels/create",
        &[("name", "newly"), ("subscribers", "[]"), ("can_send_message_group", "{id}")],
    ),
];

const RECORD_PROBES: &[Probe] = &[
    ("PATCH", "/drafts/{id}", &[("draft", r#"{"type": "", "to": [], "topic": "", "content": "mine now"}"#)]),
    ("DELETE", "/drafts/{id}", &[]),
    ("PATCH", "/saved_snippets/{id}", &[("title", "mine now")]),
    ("DELETE", "/saved_snippets/{id}", &[]),
];

const FOLDER_PROBES: &[Probe] = &[
    ("PATCH", "/channel_folders/{id}", &[("name", "mine now")]),
    ("PATCH", "/channel_folders", &[("order", "[{id}]")]),
    ("PATCH", "/streams/{general}", &[("folder_id", "{id}")]),
    ("POST", "/channels/create", &[("name", "foldered"), ("subscribers", "[]"), ("folder_id", "{id}")]),
];

/// Custom emoji by name (the names in paths and parameters).
const EMOJI_NAME_PROBES: &[Probe] = &[
    ("DELETE", "/realm/emoji/{id}", &[]),
    ("POST", "/messages/{message}/reactions", &[("emoji_name", "{id}")]),
    ("POST", "/users/me/status", &[("emoji_name", "{id}")]),
];

/// Custom emoji by id (their `emoji_code`).
const EMOJI_ID_PROBES: &[Probe] = &[
    (
        "POST",
        "/messages/{message}/reactions",
        &[("emoji_name", "storm"), ("emoji_code", "{id}"), ("reaction_type", "realm_emoji")],
    ),
    (
        "POST",
        "/users/me/status",
        &[("emoji_name", "storm"), ("emoji_code", "{id}"), ("reaction_type", "realm_emoji")],
    ),
];
const SCHEDULED_PROBES: &[Probe] = &[
    ("PATCH", "/scheduled_messages/{id}", &[("content", "mine now")]),
    ("PATCH", "/scheduled_messages/{id}", &[("scheduled_delivery_timestamp", FAR_FUTURE)]),
    ("DELETE", "/scheduled_messages/{id}", &[]),
];

const REMINDER_PROBES: &[Probe] = &[("DELETE", "/reminders/{id}", &[])];

const QUEUE_PROBES: &[Probe] = &[
    ("GET", "/events", &[("queue_id", "{id}"), ("last_event_id", "-1"), ("dont_block", "true")]),
    ("DELETE", "/events", &[("queue_id", "{id}")]),
];

/// Makes a probe's request about `id`, `places` filling in the other placeholders.
fn send_probe(api: &Api, who: &Creds, probe: Probe, id: &str, places: &[(&str, &str)]) -> Reply {
    let fill = |text: &str| {
        places.iter().fold(text.replace("{id}", id), |text, (name, value)| text.replace(name, value))
    };
    let (method, path, params) = probe;
    let path = fill(path);
    let params: Vec<(&str, String)> = params.iter().map(|(name, value)| (*name, fill(value))).collect();
    let params: Vec<(&str, &str)> = params.iter().map(|(name, value)| (*name, value.as_str())).collect();
    match method {
        "GET" => api.get(&path, Some(who), &params),
        "POST" => api.post(&path, Some(who), &params),
        "PATCH" => api.patch(&path, Some(who), &params),
        "DELETE" => api.delete(&path, Some(who), &params),
        other => panic!("no method {other}"),
    }
}

#[test]
fn an_id_from_another_organization_answers_exactly_like_a_missing_id() {
    let orgs = TwoOrganizations::start();
    let ids = lear_objects(&orgs);
    let root = orgs.root();
    let owner = &orgs.root_owner;
    // The root's owner may do anything to the root's own objects, so only the id decides; with
    // a moderation channel, reports reach the message.
    root.subscribe(owner, &["general"], &["owner@confab.localhost"]);
    let general =
        root.get("/get_stream_id", Some(owner), &[("stream", "general")]).ok()["stream_id"].to_string();
    root.patch("/realm", Some(owner), &[("moderation_request_channel_id", general.as_str())]).ok();
    let own_message = root
        .post(
            "/messages",
            Some(owner),
            &[("type", "stream"), ("to", "general"), ("topic", "t"), ("content", "mine")],
        )
        .ok()["id"]
        .to_string();
    let group = root
        .post(
            "/user_groups/create",
            Some(owner),
            &[("name", "stewards"), ("description", "d"), ("members", "[]")],
        )
        .ok()["group_id"]
        .to_string();
    let groups = root.get("/user_groups", Some(owner), &[]).ok();
    let everyone =
        groups["user_groups"].as_array().expect("groups").iter().find(|g| g["name"] == "role:everyone");
    let everyone = everyone.expect("role:everyone")["id"].to_string();
    let userfield = root
        .post("/realm/profile_fields", Some(owner), &[("name", "Mentor"), ("field_type", "6")])
        .ok()["id"]
        .to_string();

    // Ids nobody has, of a shape no reply contains by accident.
    let numeric_missing = "987654321";
    let queue_missing = "00000000-0000-0000-0000-000000000000";
    let kinds: [(String, &str, &[Probe], &[&str]); 14] = [
        (ids.user.to_string(), numeric_missing, USER_PROBES, USER_NARROWS),
        (ids.stream.to_string(), numeric_missing, CHANNEL_PROBES, CHANNEL_NARROWS),
        (ids.message.to_string(), numeric_missing, MESSAGE_PROBES, MESSAGE_NARROWS),
        (ids.direct_message.to_string(), numeric_missing, MESSAGE_PROBES, MESSAGE_NARROWS),
        (ids.linkifier.to_string(), numeric_missing, LINKIFIER_PROBES, &[]),
        (ids.group.to_string(), numeric_missing, GROUP_PROBES, &[]),
        (ids.folder.to_string(), numeric_missing, FOLDER_PROBES, &[]),
        (ids.draft.to_string(), numeric_missing, RECORD_PROBES, &[]),
        (ids.profile_field.to_string(), numeric_missing, PROFILE_FIELD_PROBES, &[]),
        (ids.scheduled.to_string(), numeric_missing, SCHEDULED_PROBES, &[]),
        (ids.reminder.to_string(), numeric_missing, REMINDER_PROBES, &[]),
        (ids.queue.clone(), queue_missing, QUEUE_PROBES, &[]),
        ("storm".to_owned(), "nosuchemoji", EMOJI_NAME_PROBES, &[]),
        (ids.emoji.to_string(), numeric_missing, EMOJI_ID_PROBES, &[]),
    ];
    let places = [
        ("{general}", general.as_str()),
        ("{message}", own_message.as_str()),
        ("{group}", group.as_str()),
        ("{everyone}", everyone.as_str()),
        ("{userfield}", userfield.as_str()),
    ];
    for (lear_id, missing_id, probes, narrows) in &kinds {
        let narrow_params: Vec<[(&str, &str); 4]> = narrows
            .iter()
            .map(|narrow| {
                [("anchor", "newest"), ("num_before", "10"), ("num_after", "0"), ("narrow", narrow)]
            })
            .collect();
        let narrow_probes = narrow_params.iter().map(|params| ("GET", "/messages", params.as_slice()));
        for probe in probes.iter().copied().chain(narrow_probes) {
            let missing = send_probe(&root, owner, probe, missing_id, &places);
            let lear = send_probe(&root, owner, probe, lear_id, &places);
            assert_eq!(lear.status, missing.status, "{probe:?}: {} vs {}", lear.body, missing.body);
            let missing_body = missing.body.to_string().replace(missing_id, lear_id);
            assert_eq!(lear.body.to_string(), missing_body, "{probe:?}");
        }
    }

    // Lear's objects are as they were.
    let lear = orgs.lear();
    let king = &orgs.lear_owner;
    let message = lear.get(&format!("/messages/{}", ids.message), Some(king), &[]).ok();
    assert_eq!(message["raw_content"], "Blow, winds");
    assert_eq!(message["message"]["reactions"].as_array().map(Vec::len), Some(1));
    assert_eq!(message["message"]["stream_id"], ids.stream);
    let stream = lear.get(&format!("/streams/{}", ids.stream), Some(king), &[]).ok();
    assert_eq!(stream["stream"]["is_archived"], false);
    assert_eq!(stream["stream"]["description"], "");
    let linkifiers = lear.get("/realm/linkifiers", Some(king), &[]).ok();
    assert_eq!(linkifiers["linkifiers"][0]["url_template"], "https://lear.example/{id}");
    let fool = lear.get(&format!("/users/{}", ids.user), Some(king), &[]).ok();
    assert_eq!(fool["user"]["full_name"], "Fool");
    assert_eq!(fool["user"]["is_active"], true);
    let members = lear.get(&format!("/user_groups/{}/members", ids.group), Some(king), &[]).ok();
    assert_eq!(members["members"], json!([ids.user]));
    let fields = lear.get("/realm/profile_fields", Some(king), &[]).ok();
    assert_eq!(fields["custom_fields"][0]["name"], "Role");
    let scheduled = lear.get("/scheduled_messages", Some(&ids.fool), &[]).ok();
    assert_eq!(scheduled["scheduled_messages"][0]["content"], "Later");
    let reminders = lear.get("/reminders", Some(&ids.fool), &[]).ok();
    assert_eq!(reminders["reminders"][0]["reminder_id"], ids.reminder);
    let poll = [("queue_id", ids.queue.as_str()), ("last_event_id", "-1"), ("dont_block", "true")];
    lear.get("/events", Some(&ids.fool), &poll).ok();
    let emoji = lear.get("/realm/emoji", Some(king), &[]).ok();
    assert_eq!(emoji["emoji"][ids.emoji.to_string()]["deactivated"], false);

    // Lear's emoji is not the root's, in its list or its Markdown.
    assert_eq!(root.get("/realm/emoji", Some(owner), &[]).ok()["emoji"], json!({}));
    let rendered = root.post("/messages/render", Some(owner), &[("content", ":storm:")]).ok();
    assert_eq!(rendered["rendered"], "<p>:storm:</p>");
}

#[test]
fn lists_and_events_show_only_the_organizations_own() {
    let orgs = TwoOrganizations::start();
    let root = orgs.root();
    let owner = &orgs.root_owner;
    // A queue that asks for every public channel's messages, registered before lear is busy.
    let queue = root.post("/register", Some(owner), &[("all_public_streams", "true")]).ok();
    let queue_id = queue["queue_id"].as_str().expect("queue_id").to_owned();
    let ids = lear_objects(&orgs);
    root.subscribe(owner, &["town"], &["owner@confab.localhost"]);

    let poll = [("queue_id", queue_id.as_str()), ("last_event_id", "-1"), ("dont_block", "true")];
    let events = root.get("/events", Some(owner), &poll).ok()["events"].clone();
    let events = events.as_array().expect("events");
    assert!(events.iter().any(|e| e["type"] == "subscription"), "the root's own events arrive: {events:?}");
    let text = serde_json::to_string(events).expect("JSON");
    for lear_thing in ["heath", "Blow, winds", "fool@lear.example", "fools", "lear.example/{id}"] {
        assert!(!text.contains(lear_thing), "{lear_thing} reached the root: {text}");
    }

    let presence = root.get("/realm/presence", Some(owner), &[]).ok();
    assert!(presence["presences"].get("fool@lear.example").is_none(), "{presence}");
    let users = root.get("/users", Some(owner), &[]).ok().to_string();
    assert!(!users.contains("lear.example"), "{users}");
    let streams = root.get("/streams", Some(owner), &[]).ok().to_string();
    assert!(!streams.contains("heath"), "{streams}");
    let linkifiers = root.get("/realm/linkifiers", Some(owner), &[]).ok();
    assert_eq!(linkifiers["linkifiers"], json!([]));
    let groups = root.get("/user_groups", Some(owner), &[]).ok().to_string();
    assert!(!groups.contains("fools"), "{groups}");
    let search = [
        ("anchor", "newest"),
        ("num_before", "50"),
        ("num_after", "0"),
        ("narrow", r#"[["search", "winds"]]"#),
    ];
    assert_eq!(root.get("/messages", Some(owner), &search).ok()["messages"], json!([]));
    let everything = [
        ("anchor", "newest"),
        ("num_before", "50"),
        ("num_after", "0"),
        ("narrow", r#"[["channels", "public"]]"#),
    ];
    let messages = root.get("/messages", Some(owner), &everything).ok()["messages"].to_string();
    assert!(!messages.contains("Blow, winds"), "{messages}");
    // Lear's own people do see it all.
    let lear_search = orgs.lear().get("/messages", Some(&ids.fool), &search).ok();
    assert_eq!(lear_search["messages"].as_array().map(Vec::len), Some(1));
}

#[test]
fn spectators_read_only_the_organization_the_host_names() {
    let orgs = TwoOrganizations::start();
    let (lear, king) = (orgs.lear(), &orgs.lear_owner);
    let root = orgs.root();
    for (api, owner) in [(&lear, king), (&root, &orgs.root_owner)] {
        api.patch("/realm", Some(owner), &[("enable_spectator_access", "true")]).ok();
    }
    let king_id = user_id(&lear, king).to_string();
    let subscribers = format!("[{king_id}]");
    let heath = [("name", "heath"), ("subscribers", subscribers.as_str()), ("is_web_public", "true")];
    let stream = lear.post("/channels/create", Some(king), &heath).ok()["id"].to_string();
    let said = [("type", "stream"), ("to", "heath"), ("topic", "storm"), ("content", "Blow, winds")];
    let message = lear.post("/messages", Some(king), &said).ok()["id"].to_string();

    // Lear's spectators read them; the root's, asking for the same ids, get what an id nobody
    // has gets.
    let message_path = |id: &str| format!("/messages/{id}");
    let topics_path = |id: &str| format!("/users/me/{id}/topics");
    assert_eq!(lear.get(&message_path(&message), None, &[]).ok()["raw_content"], "Blow, winds");
    assert_eq!(lear.get(&topics_path(&stream), None, &[]).ok()["topics"][0]["name"], "storm");
    let missing = "987654321";
    for (lears, nobodys) in
        [(message_path(&message), message_path(missing)), (topics_path(&stream), topics_path(missing))]
    {
        let asked = root.get(&lears, None, &[]);
        let nobody = root.get(&nobodys, None, &[]);
        assert!(asked.status >= 400, "{}", asked.body);
        assert_eq!((asked.status, asked.body), (nobody.status, nobody.body), "{nobodys}");
    }
    let web_public = [
        ("anchor", "newest"),
        ("num_before", "50"),
        ("num_after", "0"),
        ("narrow", r#"[["channels", "web-public"]]"#),
    ];
    let seen = root.get("/messages", None, &web_public).ok()["messages"].to_string();
    assert!(!seen.contains("Blow, winds"), "{seen}");
    let seen = root.post("/register", None, &[]).ok()["streams"].to_string();
    assert!(!seen.contains("heath"), "{seen}");
}
