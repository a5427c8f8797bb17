//! Linkifiers (spec 2.10, 4.18) and reactions (4.13) over HTTP: administrators manage
//! linkifiers, which apply in order and survive a restart; reactions follow Zulip's emoji
//! rules and its exact errors.

use confab_tests::{Creds, TestServer};
use serde_json::json;

fn setup() -> (TestServer, Creds, Creds) {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    (server, owner, ada)
}

fn send(server: &TestServer, who: &Creds, topic: &str, content: &str) -> u64 {
    let params = [("type", "stream"), ("to", "general"), ("topic", topic), ("content", content)];
    server.api().post("/messages", Some(who), &params).ok()["id"].as_u64().expect("id")
}

fn message(server: &TestServer, who: &Creds, id: u64) -> serde_json::Value {
    server.api().get(&format!("/messages/{id}"), Some(who), &[]).ok()["message"].clone()
}

#[test]
fn administrators_manage_linkifiers_in_order() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let issue = [("pattern", "#(?P<id>[0-9]+)"), ("url_template", "https://tracker.example/{id}")];
    let refused = api.post("/realm/filters", Some(&ada), &issue).error(400, "UNAUTHORIZED_PRINCIPAL");
    assert_eq!(refused["msg"], "Must be an organization administrator");
    let first = api.post("/realm/filters", Some(&owner), &issue).ok()["id"].as_u64().expect("id");
    let ticket = [("pattern", "#(?P<id>[0-9]{3})"), ("url_template", "https://tickets.example/{id}")];
    let second = api.post("/realm/filters", Some(&owner), &ticket).ok()["id"].as_u64().expect("id");

    let bad = api
        .post(
            "/realm/filters",
            Some(&owner),
            &[("pattern", "(?P<id>[0-9]+"), ("url_template", "https://x/{id}")],
        )
        .error(400, "BAD_REQUEST");
    assert!(bad["msg"].as_str().unwrap_or_default().starts_with("Bad regular expression"), "{bad}");
    api.post("/realm/filters", Some(&owner), &[("pattern", "#(?P<id>[0-9]+)")])
        .error(400, "REQUEST_VARIABLE_MISSING");

    // The first linkifier in the list wins.
    let id = send(&server, &owner, "t", "see #123");
    assert!(
        message(&server, &ada, id)["content"]
            .as_str()
            .unwrap_or_default()
            .contains("https://tracker.example/123")
    );
    let order = json!([second, first]).to_string();
    api.patch("/realm/linkifiers", Some(&ada), &[("ordered_linkifier_ids", &order)])
        .error(400, "UNAUTHORIZED_PRINCIPAL");
    api.patch("/realm/linkifiers", Some(&owner), &[("ordered_linkifier_ids", &json!([second]).to_string())])
        .error(400, "BAD_REQUEST");
    api.patch("/realm/linkifiers", Some(&owner), &[("ordered_linkifier_ids", &order)]).ok();
    let id = send(&server, &owner, "t", "see #456");
    assert!(
        message(&server, &ada, id)["content"]
            .as_str()
            .unwrap_or_default()
            .contains("https://tickets.example/456")
    );

    let server = server.restart();
    let api = server.api();
    let listed = api.get("/realm/linkifiers", Some(&ada), &[]).ok();
    assert_eq!(
        listed["linkifiers"],
        json!([
            {"id": second, "pattern": "#(?P<id>[0-9]{3})", "url_template": "https://tickets.example/{id}"},
            {"id": first, "pattern": "#(?P<id>[0-9]+)", "url_template": "https://tracker.example/{id}"},
        ])
    );
    let edit = [("pattern", "T(?P<id>[0-9]+)"), ("url_template", "https://t.example/{id}")];
    api.patch(&format!("/realm/filters/{first}"), Some(&owner), &edit).ok();
    api.delete(&format!("/realm/filters/{second}"), Some(&owner), &[]).ok();
    let gone = api.delete(&format!("/realm/filters/{second}"), Some(&owner), &[]).error(400, "BAD_REQUEST");
    assert_eq!(gone["msg"], "Linkifier not found.");
    let listed = api.get("/realm/linkifiers", Some(&owner), &[]).ok();
    assert_eq!(
        listed["linkifiers"],
        json!([{"id": first, "pattern": "T(?P<id>[0-9]+)", "url_template": "https://t.example/{id}"}])
    );
}

#[test]
fn reactions_follow_zulips_emoji_rules() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let id = send(&server, &owner, "t", "lunch?");
    let path = format!("/messages/{id}/reactions");
    // By name alone, by alias, and with the full triple.
    api.post(&path, Some(&ada), &[("emoji_name", "thumbs_up")]).ok();
    let alias = [("emoji_name", "+1"), ("emoji_code", "1f44d"), ("reaction_type", "unicode_emoji")];
    api.post(&path, Some(&owner), &alias).ok();
    // The same emoji under another name is the same reaction.
    api.post(&path, Some(&ada), &[("emoji_name", "+1")]).error(400, "REACTION_ALREADY_EXISTS");
    let wrong_name = [("emoji_name", "smile"), ("emoji_code", "1f419"), ("reaction_type", "unicode_emoji")];
    let wrong = api.post(&path, Some(&ada), &wrong_name).error(400, "BAD_REQUEST");
    assert_eq!(wrong["msg"], "Invalid emoji name.");
    let custom = [("emoji_name", "parrot"), ("emoji_code", "7"), ("reaction_type", "realm_emoji")];
    assert_eq!(
        api.post(&path, Some(&ada), &custom).error(400, "BAD_REQUEST")["msg"],
        "Invalid custom emoji."
    );
    let odd = [("emoji_name", "smile"), ("emoji_code", "1f642"), ("reaction_type", "sticker")];
    assert_eq!(api.post(&path, Some(&ada), &odd).error(400, "BAD_REQUEST")["msg"], "Invalid emoji type.");
    let none = api.delete(&path, Some(&ada), &[]).error(400, "BAD_REQUEST");
    assert_eq!(
        none["msg"],
        "At least one of the following arguments must be present: emoji_name, emoji_code"
    );

    let reactions = message(&server, &ada, id)["reactions"].clone();
    let seen: Vec<(String, u64)> = reactions
        .as_array()
        .expect("reactions")
        .iter()
        .map(|r| {
            (
                r["emoji_name"].as_str().unwrap_or_default().to_owned(),
                r["user_id"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].as_u64().expect("id");
    let owner_id = api.get("/users/me", Some(&owner), &[]).ok()["user_id"].as_u64().expect("id");
    assert_eq!(seen, vec![("thumbs_up".to_owned(), ada_id), ("+1".to_owned(), owner_id)]);

    // Reactions are stored: they survive a restart, and a removal is durable too.
    let server = server.restart();
    let api = server.api();
    api.delete(&path, Some(&ada), &[("emoji_name", "thumbs_up")]).ok();
    let left = message(&server, &owner, id)["reactions"].clone();
    assert_eq!(left.as_array().map(Vec::len), Some(1), "{left}");
    let missing = api
        .post("/messages/999999/reactions", Some(&ada), &[("emoji_name", "smile")])
        .error(400, "BAD_REQUEST");
    assert_eq!(missing["msg"], "Invalid message(s)");
}

#[test]
fn reacting_to_unreceived_history_makes_it_historical() {
    let (server, owner, _) = setup();
    let api = server.api();
    let id = send(&server, &owner, "t", "before Bob joined");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    api.post(&format!("/messages/{id}/reactions"), Some(&bob), &[("emoji_name", "wave")]).ok();
    let flags = message(&server, &bob, id)["flags"].clone();
    assert_eq!(flags, json!(["read", "historical"]));
}

/// The `has:reaction` narrow (feature level 249) finds the messages that have a reaction, its
/// negation the others; removing the last reaction takes a message out.
#[test]
fn has_reaction_narrows_to_messages_with_reactions() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let liked = send(&server, &owner, "plans", "lunch?");
    let ignored = send(&server, &owner, "plans", "anyone?");
    let path = format!("/messages/{liked}/reactions");
    api.post(&path, Some(&ada), &[("emoji_name", "thumbs_up")]).ok();
    let found = |negated: bool| -> Vec<u64> {
        let narrow = json!([
            {"operator": "channel", "operand": "general"},
            {"operator": "topic", "operand": "plans"},
            {"operator": "has", "operand": "reaction", "negated": negated},
        ])
        .to_string();
        let params =
            [("anchor", "oldest"), ("num_before", "0"), ("num_after", "10"), ("narrow", narrow.as_str())];
        api.get("/messages", Some(&owner), &params).ok()["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|m| m["id"].as_u64().expect("id"))
            .collect()
    };
    assert_eq!(found(false), vec![liked]);
    assert_eq!(found(true), vec![ignored]);
    api.delete(&path, Some(&ada), &[("emoji_name", "thumbs_up")]).ok();
    assert_eq!(found(false), Vec::<u64>::new());
}
