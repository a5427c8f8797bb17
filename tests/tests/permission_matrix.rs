//! Who may do what, by role (zulip-semantics §6.2, Zulip's defaults): for each gated action
//! and each role, allowed or refused, and refusals in the error shape.

use confab_tests::{Api, Creds, TINY_PNG, TestServer, UploadFile};

const ROLES: [(&str, &str); 5] =
    [("owner", "100"), ("administrator", "200"), ("moderator", "300"), ("member", "400"), ("guest", "600")];

struct Org {
    server: TestServer,
    owner: Creds,
    general_message: u64,
}

fn org() -> Org {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    api.subscribe(&owner, &["general", "elsewhere"], &["owner@confab.localhost"]);
    let params = [("type", "stream"), ("to", "general"), ("topic", "t"), ("content", "the owner's words")];
    let general_message = api.post("/messages", Some(&owner), &params).ok()["id"].as_u64().expect("id");
    Org { server, owner, general_message }
}

/// A user with the role, subscribed to #general.
fn with_role(org: &Org, name: &str, role: &str) -> Creds {
    let api = org.server.api();
    let email = format!("{name}@example.com");
    let user = api.create_user(&org.owner, &email, name);
    let id = api.get("/users/me", Some(&user), &[]).ok()["user_id"].clone();
    if role != "400" {
        api.patch(&format!("/users/{id}"), Some(&org.owner), &[("role", role)]).ok();
    }
    api.subscribe(&org.owner, &["general"], &[email.as_str()]);
    user
}

/// An action a user tries, and whether it succeeded (refusals must have the error shape).
type Action = fn(&Api, &Org, &Creds, usize) -> bool;

fn succeeded(reply: confab_tests::Reply) -> bool {
    if reply.status == 200 {
        return true;
    }
    assert!(reply.status == 400 || reply.status == 403, "refusal status {}: {}", reply.status, reply.body);
    assert_eq!(reply.body["result"], "error");
    assert!(reply.body["code"].is_string() && reply.body["msg"].is_string(), "{}", reply.body);
    false
}

fn create_public_channel(api: &Api, _: &Org, who: &Creds, n: usize) -> bool {
    succeeded(api.post(
        "/channels/create",
        Some(who),
        &[("name", &format!("public{n}")), ("subscribers", "[]")],
    ))
}

fn create_private_channel(api: &Api, _: &Org, who: &Creds, n: usize) -> bool {
    let name = format!("private{n}");
    succeeded(api.post(
        "/channels/create",
        Some(who),
        &[("name", name.as_str()), ("subscribers", "[]"), ("invite_only", "true")],
    ))
}

fn create_user_group(api: &Api, _: &Org, who: &Creds, n: usize) -> bool {
    let name = format!("group{n}");
    succeeded(api.post(
        "/user_groups/create",
        Some(who),
        &[("name", name.as_str()), ("description", ""), ("members", "[]")],
    ))
}

fn add_linkifier(api: &Api, _: &Org, who: &Creds, n: usize) -> bool {
    let pattern = format!("T{n}-(?P<id>[0-9]+)");
    succeeded(api.post(
        "/realm/filters",
        Some(who),
        &[("pattern", pattern.as_str()), ("url_template", "https://t.example/{id}")],
    ))
}

fn add_custom_profile_field(api: &Api, _: &Org, who: &Creds, n: usize) -> bool {
    let name = format!("Field {n}");
    succeeded(api.post("/realm/profile_fields", Some(who), &[("name", name.as_str()), ("field_type", "1")]))
}

/// Sets the user's own value of a field only administrators may fill in.
fn set_admin_only_profile_value(api: &Api, org: &Org, who: &Creds, n: usize) -> bool {
    let name = format!("Badge {n}");
    let params = [("name", name.as_str()), ("field_type", "1"), ("editable_by_user", "false")];
    let field = api.post("/realm/profile_fields", Some(&org.owner), &params).ok()["id"].clone();
    let data = format!(r#"[{{"id": {field}, "value": "gold"}}]"#);
    succeeded(api.patch("/users/me/profile_data", Some(who), &[("data", data.as_str())]))
}

fn change_organization(api: &Api, _: &Org, who: &Creds, n: usize) -> bool {
    succeeded(api.patch("/realm", Some(who), &[("description", &format!("version {n}"))]))
}

fn delete_anothers_message(api: &Api, org: &Org, who: &Creds, _: usize) -> bool {
    succeeded(api.delete(&format!("/messages/{}", org.general_message), Some(who), &[]))
}

fn create_bot(api: &Api, _: &Org, who: &Creds, n: usize) -> bool {
    succeeded(api.post(
        "/bots",
        Some(who),
        &[("full_name", &format!("Bot {n}")), ("short_name", &format!("b{n}"))],
    ))
}

fn rename_anothers_topic(api: &Api, org: &Org, who: &Creds, n: usize) -> bool {
    let topic = format!("renamed {n}");
    succeeded(api.patch(
        &format!("/messages/{}", org.general_message),
        Some(who),
        &[("topic", topic.as_str())],
    ))
}

fn move_to_another_channel(api: &Api, org: &Org, who: &Creds, _: usize) -> bool {
    let params = [("type", "stream"), ("to", "general"), ("topic", "to move"), ("content", "move me")];
    let Some(id) = api.post("/messages", Some(who), &params).body["id"].as_u64() else { return false };
    let elsewhere =
        api.get("/get_stream_id", Some(&org.owner), &[("stream", "elsewhere")]).ok()["stream_id"].to_string();
    succeeded(api.patch(&format!("/messages/{id}"), Some(who), &[("stream_id", elsewhere.as_str())]))
}

fn archive_channel(api: &Api, org: &Org, who: &Creds, _: usize) -> bool {
    let fresh = api.post(
        "/channels/create",
        Some(&org.owner),
        &[("name", &format!("archive-{}", who.email)), ("subscribers", "[]")],
    );
    let id = fresh.ok()["id"].as_u64().expect("id");
    succeeded(api.delete(&format!("/streams/{id}"), Some(who), &[]))
}

fn add_custom_emoji(api: &Api, _: &Org, who: &Creds, n: usize) -> bool {
    let image = UploadFile { name: "e.png", content_type: None, bytes: TINY_PNG };
    succeeded(api.send_files(reqwest::Method::POST, &format!("/realm/emoji/emoji{n}"), Some(who), &[image]))
}

#[test]
fn each_role_may_do_what_zulip_allows_by_default() {
    let org = org();
    let api = org.server.api();
    let users: Vec<(&str, Creds)> = ROLES
        .iter()
        .map(|(name, role)| {
            (*name, if *role == "100" { org.owner.clone() } else { with_role(&org, name, role) })
        })
        .collect();
    //                                          owner  admin  moderator member guest
    let table: Vec<(&str, Action, [bool; 5])> = vec![
        ("create a public channel", create_public_channel, [true, true, true, true, false]),
        ("create a private channel", create_private_channel, [true, true, true, true, false]),
        ("create a user group", create_user_group, [true, true, true, true, false]),
        ("add a linkifier", add_linkifier, [true, true, false, false, false]),
        ("change organization settings", change_organization, [true, true, false, false, false]),
        ("add a custom profile field", add_custom_profile_field, [true, true, false, false, false]),
        (
            "fill in an admin-only profile field",
            set_admin_only_profile_value,
            [true, true, false, false, false],
        ),
        ("create a bot", create_bot, [true, true, true, true, false]),
        ("archive a channel", archive_channel, [true, true, false, false, false]),
        ("move a message to another channel", move_to_another_channel, [true, true, true, true, false]),
        ("add a custom emoji", add_custom_emoji, [true, true, true, true, false]),
    ];
    let mut n = 0;
    for (what, action, expected) in &table {
        for ((role, user), allowed) in users.iter().zip(expected) {
            n += 1;
            assert_eq!(action(&api, &org, user, n), *allowed, "{role}: {what}");
        }
    }
    // Renaming someone else's topic is everyone's (`can_move_messages_between_topics_group`),
    // within the time limit; deleting someone else's message is administrators' only.
    for ((role, user), allowed) in users.iter().zip([true, true, true, true, true]).rev() {
        n += 1;
        assert_eq!(rename_anothers_topic(&api, &org, user, n), allowed, "{role}: rename a topic");
    }
    let deleted =
        users.iter().rev().map(|(_, user)| delete_anothers_message(&api, &org, user, 0)).collect::<Vec<_>>();
    assert_eq!(
        deleted,
        vec![false, false, false, true, false],
        "guest, member, moderator refused; the admin deletes it"
    );
}
