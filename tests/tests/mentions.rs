//! What a message's mentions do to its recipients' flags (zulip-semantics §1.3): direct
//! mentions, channel and topic wildcards, recomputed on edit, and Zulip's limit on wildcards
//! in big channels.

use confab_tests::{Creds, TestServer};
use serde_json::json;

fn send(server: &TestServer, who: &Creds, topic: &str, content: &str) -> serde_json::Value {
    let params = [("type", "stream"), ("to", "general"), ("topic", topic), ("content", content)];
    server.api().post("/messages", Some(who), &params).body
}

fn flags(server: &TestServer, who: &Creds, id: &serde_json::Value) -> serde_json::Value {
    server.api().get(&format!("/messages/{id}"), Some(who), &[]).ok()["message"]["flags"].clone()
}

#[test]
fn wildcards_reach_the_channel_or_the_topics_participants() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada Lovelace");
    let bob = api.create_user(&owner, "bob@example.com", "Bob Builder");
    server.api().subscribe(
        &owner,
        &["general"],
        &["owner@confab.localhost", "ada@example.com", "bob@example.com"],
    );

    let all = send(&server, &owner, "plans", "@**all** meeting at noon")["id"].clone();
    assert_eq!(flags(&server, &bob, &all), json!(["stream_wildcard_mentioned", "wildcard_mentioned"]));
    let silent = send(&server, &owner, "plans", "@_**all** no ping")["id"].clone();
    assert_eq!(flags(&server, &bob, &silent), json!([]));

    // Ada takes part in "plans"; Bob only reads it.
    send(&server, &ada, "plans", "I'll come");
    let topic = send(&server, &owner, "plans", "@**topic** moved to 1pm")["id"].clone();
    assert_eq!(flags(&server, &ada, &topic), json!(["topic_wildcard_mentioned", "wildcard_mentioned"]));
    assert_eq!(flags(&server, &bob, &topic), json!([]));

    // An edit recomputes the flags: Bob gains a mention, the wildcard is gone for Ada.
    let path = format!("/messages/{topic}");
    api.patch(&path, Some(&owner), &[("content", "@**Bob Builder** moved to 1pm")]).ok();
    assert_eq!(flags(&server, &bob, &topic), json!(["mentioned"]));
    assert_eq!(flags(&server, &ada, &topic), json!([]));
    let found = api
        .get(
            "/messages",
            Some(&bob),
            &[
                ("anchor", "newest"),
                ("num_before", "10"),
                ("num_after", "0"),
                ("narrow", r#"[["is", "mentioned"]]"#),
            ],
        )
        .ok();
    // `is:mentioned` counts wildcard mentions too, as in Zulip.
    let ids: Vec<&serde_json::Value> =
        found["messages"].as_array().expect("messages").iter().map(|m| &m["id"]).collect();
    assert_eq!(ids, vec![&all, &topic], "{found}");
}

#[test]
fn channel_wildcards_in_big_channels_need_an_administrator() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let mut emails = vec!["owner@confab.localhost".to_owned()];
    let mut members = Vec::new();
    for n in 0..15 {
        let email = format!("user{n}@example.com");
        members.push(api.create_user(&owner, &email, &format!("User {n}")));
        emails.push(email);
    }
    let emails: Vec<&str> = emails.iter().map(String::as_str).collect();
    server.api().subscribe(&owner, &["general"], &emails);

    let refused = send(&server, &members[0], "t", "@**everyone** hi");
    assert_eq!(refused["code"], "STREAM_WILDCARD_MENTION_NOT_ALLOWED", "{refused}");
    assert_eq!(
        refused["msg"],
        "You do not have permission to use channel wildcard mentions in this channel."
    );
    // Silent wildcards notify no one and are always allowed; administrators may always ping.
    assert_eq!(send(&server, &members[0], "t", "@_**everyone** hi")["result"], "success");
    assert_eq!(send(&server, &owner, "t", "@**everyone** hi")["result"], "success");
}

#[test]
fn system_groups_are_mentioned_silently_by_anyone() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada Lovelace");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    let groups = api.get("/user_groups", Some(&owner), &[]).ok()["user_groups"].clone();
    let admins =
        groups.as_array().expect("list").iter().find(|g| g["name"] == "role:administrators").expect("group")
            ["id"]
            .clone();

    // Feature level 333: the group's display name, without `@`, and no one is notified.
    let sent = send(&server, &ada, "t", "ask @_*role:administrators*");
    assert_eq!(sent["result"], "success", "{sent}");
    let shown = api.get(&format!("/messages/{}", sent["id"]), Some(&owner), &[]).ok()["message"].clone();
    assert_eq!(
        shown["content"],
        format!(
            r#"<p>ask <span class="user-group-mention silent" data-user-group-id="{admins}">Administrators</span></p>"#
        )
    );
    assert_eq!(flags(&server, &owner, &sent["id"]), json!([]));
}
