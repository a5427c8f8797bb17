//! Limiting guests' access to users (Zulip's `can_access_all_users_group`, feature levels 225,
//! 228, 232 and 314). With the setting at `role:members`, a guest sees only the people they
//! share a channel or a direct message with, and bots; everyone else is "Unknown user".

use confab_tests::{Api, Creds, TestServer};
use serde_json::{Value, json};

/// The owner, Ada (a member who shares the channel `garden` with the guest), Bob (a member
/// who shares nothing with her) and Gwen, a guest subscribed to `garden` only.
struct Org {
    server: TestServer,
    owner: Creds,
    ada: Creds,
    bob: Creds,
    gwen: Creds,
    ada_id: u64,
    bob_id: u64,
    gwen_id: u64,
}

fn org() -> Org {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let gwen = api.create_user(&owner, "gwen@example.com", "Gwen");
    let (ada_id, bob_id, gwen_id) = (api.user_id(&ada), api.user_id(&bob), api.user_id(&gwen));
    api.patch(&format!("/users/{gwen_id}"), Some(&owner), &[("role", "600")]).ok();
    let gwen_only = json!([gwen_id]).to_string();
    api.delete(
        "/users/me/subscriptions",
        Some(&owner),
        &[("subscriptions", r#"["general"]"#), ("principals", gwen_only.as_str())],
    )
    .ok();
    api.subscribe(&owner, &["garden"], &["ada@example.com", "gwen@example.com"]);
    Org { server, owner, ada, bob, gwen, ada_id, bob_id, gwen_id }
}

fn group_id(api: &Api, who: &Creds, name: &str) -> u64 {
    let groups = api.get("/user_groups", Some(who), &[]).ok();
    let group = groups["user_groups"].as_array().expect("list").iter().find(|g| g["name"] == name).cloned();
    group.expect("group")["id"].as_u64().expect("id")
}

fn limit_guests(api: &Api, owner: &Creds) {
    let members = json!({"new": group_id(api, owner, "role:members")}).to_string();
    api.patch("/realm", Some(owner), &[("can_access_all_users_group", members.as_str())]).ok();
}

fn register(api: &Api, who: &Creds, capabilities: Value) -> Value {
    let capabilities = capabilities.to_string();
    api.post(
        "/register",
        Some(who),
        &[
            ("fetch_event_types", r#"["realm_user", "realm"]"#),
            ("client_capabilities", capabilities.as_str()),
        ],
    )
    .ok()
}

fn user_in(list: &Value, id: u64) -> Option<Value> {
    list.as_array().expect("a list").iter().find(|u| u["user_id"] == id).cloned()
}

fn events(api: &Api, who: &Creds, queue: &Value) -> Vec<Value> {
    api.queued(who, queue)["events"].as_array().expect("events").clone()
}

#[test]
fn the_setting_takes_everyone_or_members_and_register_tells_its_value() {
    let Org { server, owner, .. } = org();
    let api = server.api();
    let state = register(&api, &owner, json!({}));
    assert_eq!(state["realm_can_access_all_users_group"], group_id(&api, &owner, "role:everyone"));
    let rules = &state["server_supported_permission_settings"]["realm"]["can_access_all_users_group"];
    assert_eq!(rules["allowed_system_groups"], json!(["role:everyone", "role:members"]));
    assert_eq!(rules["require_system_group"], true);

    for refused in ["role:administrators", "role:nobody"] {
        let value = json!({"new": group_id(&api, &owner, refused)}).to_string();
        let answer = api
            .patch("/realm", Some(&owner), &[("can_access_all_users_group", value.as_str())])
            .error(400, "BAD_REQUEST");
        assert_eq!(
            answer["msg"],
            format!("'can_access_all_users_group' setting cannot be set to '{refused}' group.")
        );
    }
    let queue = register(&api, &owner, json!({}));
    limit_guests(&api, &owner);
    let members = group_id(&api, &owner, "role:members");
    let changed = events(&api, &owner, &queue);
    assert!(
        changed.iter().any(|e| e["type"] == "realm" && e["data"]["can_access_all_users_group"] == members),
        "{changed:?}"
    );
    assert_eq!(register(&api, &owner, json!({}))["realm_can_access_all_users_group"], members);
}

#[test]
fn a_limited_guest_sees_only_the_people_she_shares_a_channel_with() {
    let Org { server, owner, gwen, ada_id, bob_id, gwen_id, .. } = org();
    let api = server.api();
    // Before the limit, everyone sees everyone.
    assert!(
        user_in(&register(&api, &gwen, json!({}))["realm_users"], bob_id).expect("present")["full_name"]
            == "Bob"
    );
    limit_guests(&api, &owner);

    // Older clients get a placeholder that names nothing but the id.
    let state = register(&api, &gwen, json!({}));
    let bob = user_in(&state["realm_users"], bob_id).expect("Bob's placeholder");
    assert_eq!(bob["full_name"], "Unknown user");
    assert_eq!(bob["email"], format!("user{bob_id}@127.0.0.1"));
    assert_eq!(bob["avatar_url"], "/static/images/unknown-user-avatar.png");
    assert_eq!(bob["is_active"], true);
    assert_eq!(bob["date_joined"], "1970-01-01T00:00:00+00:00");
    assert_eq!(user_in(&state["realm_users"], ada_id).expect("present")["full_name"], "Ada");
    assert_eq!(user_in(&state["realm_users"], gwen_id).expect("present")["full_name"], "Gwen");
    // Bots are always seen.
    assert!(
        state["cross_realm_bots"].as_array().expect("present").iter().any(|b| b["is_system_bot"] == true)
    );

    // Clients with `user_list_incomplete` get no entry at all.
    let state = register(&api, &gwen, json!({"user_list_incomplete": true}));
    assert!(user_in(&state["realm_users"], bob_id).is_none());
    assert!(user_in(&state["realm_users"], ada_id).is_some());

    // GET /users leaves Bob out, GET /users/{id} refuses him.
    let members = api.get("/users", Some(&gwen), &[]).ok();
    assert!(user_in(&members["members"], bob_id).is_none());
    assert!(user_in(&members["members"], ada_id).is_some());
    let refused = api.get(&format!("/users/{bob_id}"), Some(&gwen), &[]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Insufficient permission");
    api.get(&format!("/users/{ada_id}"), Some(&gwen), &[]).ok();

    // The owner still sees Bob as he is.
    let state = register(&api, &owner, json!({}));
    assert_eq!(user_in(&state["realm_users"], bob_id).expect("present")["full_name"], "Bob");

    // The unknown avatar is served.
    let avatar = reqwest::blocking::get(format!("{}/static/images/unknown-user-avatar.png", server.base_url))
        .expect("the server answers");
    assert_eq!(avatar.status().as_u16(), 200);
    assert_eq!(avatar.headers()["content-type"], "image/png");
}

#[test]
fn messages_from_someone_she_cannot_see_come_from_unknown_user() {
    let Org { server, owner, ada, bob, gwen, bob_id, .. } = org();
    let api = server.api();
    limit_guests(&api, &owner);
    let gwen_queue = register(&api, &gwen, json!({}));
    let ada_queue = register(&api, &ada, json!({}));
    // Bob is not subscribed to `garden`, but members may post to a public channel.
    let sent = api
        .post(
            "/messages",
            Some(&bob),
            &[("type", "stream"), ("to", "garden"), ("topic", "roses"), ("content", "They bloom")],
        )
        .ok();
    let id = sent["id"].as_u64().expect("present");

    let hidden = |m: &Value| {
        assert_eq!(m["sender_id"], bob_id);
        assert_eq!(m["sender_full_name"], "Unknown user");
        assert_eq!(m["sender_email"], format!("user{bob_id}@127.0.0.1"));
        assert_eq!(m["avatar_url"], "/static/images/unknown-user-avatar.png");
    };
    let received = events(&api, &gwen, &gwen_queue);
    let event = received.iter().find(|e| e["type"] == "message").expect("the message event");
    hidden(&event["message"]);
    let fetched = api.get(&format!("/messages/{id}"), Some(&gwen), &[]).ok();
    hidden(&fetched["message"]);
    let page = api
        .get(
            "/messages",
            Some(&gwen),
            &[
                ("anchor", "newest"),
                ("num_before", "5"),
                ("num_after", "0"),
                ("narrow", r#"[["channel", "garden"]]"#),
            ],
        )
        .ok();
    hidden(
        page["messages"].as_array().expect("present").iter().find(|m| m["id"] == id).expect("in the page"),
    );

    // Ada, a member, sees who wrote.
    let seen = events(&api, &ada, &ada_queue);
    let event = seen.iter().find(|e| e["type"] == "message").expect("the message event");
    assert_eq!(event["message"]["sender_full_name"], "Bob");

    // Bob's reaction reaches her from "Unknown user" too, and Ada from Bob.
    let gwen_queue = register(&api, &gwen, json!({}));
    let ada_queue = register(&api, &ada, json!({}));
    api.post(&format!("/messages/{id}/reactions"), Some(&bob), &[("emoji_name", "rose")]).ok();
    let reaction =
        |received: Vec<Value>| received.into_iter().find(|e| e["type"] == "reaction").expect("reaction");
    let hers = reaction(events(&api, &gwen, &gwen_queue));
    assert_eq!(hers["user_id"], bob_id);
    assert_eq!(hers["user"]["full_name"], "Unknown user");
    assert_eq!(reaction(events(&api, &ada, &ada_queue))["user"]["full_name"], "Bob");
    let fetched = api.get(&format!("/messages/{id}"), Some(&gwen), &[]).ok();
    assert_eq!(fetched["message"]["reactions"][0]["user_id"], bob_id);
    assert_eq!(fetched["message"]["reactions"][0]["user"]["full_name"], "Unknown user");

    // Nor does she learn when he is online.
    let gwen_queue = register(&api, &gwen, json!({}));
    api.post("/users/me/presence", Some(&bob), &[("status", "active")]).ok();
    assert!(!events(&api, &gwen, &gwen_queue).iter().any(|e| e["type"] == "presence"));
    let state = api.post("/register", Some(&gwen), &[("fetch_event_types", r#"["presence"]"#)]).ok();
    assert!(state["presences"].get("bob@example.com").is_none(), "{}", state["presences"]);
    let refused = api.get(&format!("/users/{bob_id}/presence"), Some(&gwen), &[]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "No such user");
    api.get(&format!("/users/{bob_id}/presence"), Some(&ada), &[]).ok();
}

#[test]
fn direct_messages_need_access_and_bring_it() {
    let Org { server, owner, bob, gwen, bob_id, gwen_id, .. } = org();
    let api = server.api();
    limit_guests(&api, &owner);
    let to_bob = json!([bob_id]).to_string();
    let refused = api
        .post("/messages", Some(&gwen), &[("type", "direct"), ("to", to_bob.as_str()), ("content", "Hi")])
        .error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "You do not have permission to access some of the recipients.");

    // Bob writes to her first: she is told who he is before his message arrives.
    let queue = register(&api, &gwen, json!({}));
    let to_gwen = json!([gwen_id]).to_string();
    api.post("/messages", Some(&bob), &[("type", "direct"), ("to", to_gwen.as_str()), ("content", "Hello")])
        .ok();
    let received = events(&api, &gwen, &queue);
    let kinds: Vec<&str> = received.iter().map(|e| e["type"].as_str().unwrap_or_default()).collect();
    let introduced = received
        .iter()
        .position(|e| e["type"] == "realm_user" && e["op"] == "add" && e["person"]["user_id"] == bob_id)
        .unwrap_or_else(|| panic!("no realm_user add for Bob: {kinds:?}"));
    let message = received.iter().position(|e| e["type"] == "message").expect("the message");
    assert!(introduced < message, "{kinds:?}");
    assert_eq!(received[introduced]["person"]["full_name"], "Bob");
    assert_eq!(received[message]["message"]["sender_full_name"], "Bob");

    // From now on she sees him, and may answer.
    api.get(&format!("/users/{bob_id}"), Some(&gwen), &[]).ok();
    api.post("/messages", Some(&gwen), &[("type", "direct"), ("to", to_bob.as_str()), ("content", "Hi")])
        .ok();
}

#[test]
fn sharing_a_channel_brings_people_into_view_and_leaving_it_takes_them_away() {
    let Org { server, owner, gwen, bob_id, .. } = org();
    let api = server.api();
    limit_guests(&api, &owner);
    let queue = register(&api, &gwen, json!({}));
    api.subscribe(&owner, &["garden"], &["bob@example.com"]);
    let received = events(&api, &gwen, &queue);
    let added = received
        .iter()
        .find(|e| e["type"] == "realm_user" && e["op"] == "add" && e["person"]["user_id"] == bob_id)
        .unwrap_or_else(|| panic!("no realm_user add for Bob: {received:?}"));
    assert_eq!(added["person"]["full_name"], "Bob");
    assert!(received.iter().any(|e| e["type"] == "subscription" && e["op"] == "peer_add"));
    api.get(&format!("/users/{bob_id}"), Some(&gwen), &[]).ok();

    let queue = register(&api, &gwen, json!({}));
    let bob_only = json!([bob_id]).to_string();
    api.delete(
        "/users/me/subscriptions",
        Some(&owner),
        &[("subscriptions", r#"["garden"]"#), ("principals", bob_only.as_str())],
    )
    .ok();
    let received = events(&api, &gwen, &queue);
    let removed = received
        .iter()
        .find(|e| e["type"] == "realm_user" && e["op"] == "remove")
        .unwrap_or_else(|| panic!("no realm_user remove: {received:?}"));
    assert_eq!(removed["person"], json!({"user_id": bob_id, "full_name": "Unknown user"}));
    api.get(&format!("/users/{bob_id}"), Some(&gwen), &[]).error(400, "BAD_REQUEST");
}

#[test]
fn news_of_people_she_cannot_see_reaches_her_only_as_zulip_says() {
    let Org { server, owner, bob, gwen, ada_id, .. } = org();
    let api = server.api();
    limit_guests(&api, &owner);
    let older = register(&api, &gwen, json!({}));
    let newer = register(&api, &gwen, json!({"user_list_incomplete": true}));
    // Bob renames himself: she cannot see him, so she hears nothing.
    api.patch("/settings", Some(&bob), &[("full_name", "Robert")]).ok();
    // A newcomer joins `general`, which she is not in: older clients get a placeholder.
    let dave = api.create_user(&owner, "dave@example.com", "Dave");
    let dave_id = api.user_id(&dave);
    let for_older = events(&api, &gwen, &older);
    let for_newer = events(&api, &gwen, &newer);
    for received in [&for_older, &for_newer] {
        assert!(!received.iter().any(|e| e["type"] == "realm_user" && e["person"]["full_name"] == "Robert"));
        assert!(!received.iter().any(|e| e["type"] == "realm_user" && e["person"]["full_name"] == "Dave"));
    }
    let placeholder = for_older
        .iter()
        .find(|e| e["type"] == "realm_user" && e["op"] == "add")
        .unwrap_or_else(|| panic!("no placeholder: {for_older:?}"));
    assert_eq!(placeholder["person"]["user_id"], dave_id);
    assert_eq!(placeholder["person"]["full_name"], "Unknown user");
    assert!(placeholder["person"].get("placeholder").is_none());
    assert!(placeholder.get("placeholder").is_none());
    assert!(!for_newer.iter().any(|e| e["type"] == "realm_user" && e["op"] == "add"));

    // Ada, whom she sees, is heard of.
    let queue = register(&api, &gwen, json!({}));
    let ada_path = format!("/users/{ada_id}");
    api.patch(&ada_path, Some(&owner), &[("full_name", "Ada L.")]).ok();
    let received = events(&api, &gwen, &queue);
    assert!(received.iter().any(|e| e["type"] == "realm_user" && e["person"]["full_name"] == "Ada L."));

    // Reactivations reach only those who can see the user (feature level 303).
    let bob_id = api.user_id(&bob);
    for id in [bob_id, ada_id] {
        api.delete(&format!("/users/{id}"), Some(&owner), &[]).ok();
    }
    let queue = register(&api, &gwen, json!({}));
    for id in [bob_id, ada_id] {
        api.post(&format!("/users/{id}/reactivate"), Some(&owner), &[]).ok();
    }
    let reactivated: Vec<Value> = events(&api, &gwen, &queue)
        .into_iter()
        .filter(|e| e["type"] == "realm_user" && e["person"]["is_active"] == true)
        .map(|e| e["person"]["user_id"].clone())
        .collect();
    assert_eq!(reactivated, vec![json!(ada_id)]);
}
