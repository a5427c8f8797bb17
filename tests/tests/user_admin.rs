//! Administrators change accounts (spec 2.11; zulip-semantics §6.1): names and roles, with
//! owners protected, roles moving users between system groups, and deactivated users leaving
//! their groups.

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

fn user_id(server: &TestServer, who: &Creds) -> u64 {
    server.api().get("/users/me", Some(who), &[]).ok()["user_id"].as_u64().expect("id")
}

fn group(server: &TestServer, who: &Creds, name: &str) -> Value {
    let groups = server.api().get("/user_groups", Some(who), &[]).ok();
    groups["user_groups"]
        .as_array()
        .expect("list")
        .iter()
        .find(|g| g["name"] == name)
        .cloned()
        .expect("group")
}

#[test]
fn roles_change_under_owner_protection() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let (owner_id, ada_id, bob_id) =
        (user_id(&server, &owner), user_id(&server, &ada), user_id(&server, &bob));
    let queue = api.post("/register", Some(&bob), &[("event_types", r#"["realm_user"]"#)]).ok();

    let refused = api
        .patch(&format!("/users/{ada_id}"), Some(&bob), &[("role", "200")])
        .error(400, "UNAUTHORIZED_PRINCIPAL");
    assert_eq!(refused["msg"], "Must be an organization administrator");
    api.patch(&format!("/users/{ada_id}"), Some(&owner), &[("role", "200")]).ok();
    assert_eq!(api.get(&format!("/users/{ada_id}"), Some(&bob), &[]).ok()["user"]["role"], 200);
    assert_eq!(group(&server, &bob, "role:administrators")["members"], json!([ada_id]));

    // An administrator may not make or unmake owners; the only owner stays an owner.
    let owner_only = api
        .patch(&format!("/users/{bob_id}"), Some(&ada), &[("role", "100")])
        .error(400, "UNAUTHORIZED_PRINCIPAL");
    assert_eq!(owner_only["msg"], "Must be an organization owner");
    let last =
        api.patch(&format!("/users/{owner_id}"), Some(&owner), &[("role", "400")]).error(400, "BAD_REQUEST");
    assert_eq!(last["msg"], "The owner permission cannot be removed from the only organization owner.");
    assert_eq!(
        api.patch(&format!("/users/{bob_id}"), Some(&ada), &[("role", "250")]).error(400, "BAD_REQUEST")["msg"],
        "Invalid role"
    );
    api.patch("/users/999999", Some(&ada), &[("full_name", "Nobody")]).error(400, "BAD_REQUEST");

    api.patch(&format!("/users/{bob_id}"), Some(&ada), &[("full_name", "Robert")]).ok();
    let events = api.queued(&bob, &queue);
    let people: Vec<Value> =
        events["events"].as_array().expect("events").iter().map(|e| e["person"].clone()).collect();
    assert_eq!(
        people,
        vec![json!({"user_id": ada_id, "role": 200}), json!({"user_id": bob_id, "full_name": "Robert"})]
    );
}

#[test]
fn deactivated_users_are_hidden_in_their_groups_and_come_back_with_reactivation() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let (ada_id, bob_id) = (user_id(&server, &ada), user_id(&server, &bob));
    let members = json!([ada_id, bob_id]).to_string();
    let support = api
        .post(
            "/user_groups/create",
            Some(&owner),
            &[("name", "support"), ("description", ""), ("members", members.as_str())],
        )
        .ok()["group_id"]
        .clone();
    let queue = api.post("/register", Some(&bob), &[("event_types", r#"["user_group"]"#)]).ok();
    api.delete(&format!("/users/{ada_id}"), Some(&owner), &[]).ok();
    assert_eq!(group(&server, &owner, "support")["members"], json!([bob_id]));
    // A change to the group while she is away keeps her membership.
    let carol = api.create_user(&owner, "carol@example.com", "Carol");
    let carol_id = user_id(&server, &carol);
    let add = json!([carol_id]).to_string();
    api.post(&format!("/user_groups/{support}/members"), Some(&owner), &[("add", add.as_str())]).ok();
    api.post(&format!("/users/{ada_id}/reactivate"), Some(&owner), &[]).ok();
    let mut back: Vec<u64> = group(&server, &owner, "support")["members"]
        .as_array()
        .expect("list")
        .iter()
        .map(|m| m.as_u64().expect("id"))
        .collect();
    back.sort_unstable();
    assert_eq!(back, vec![ada_id, bob_id, carol_id], "reactivation brings her back (level 303)");
    let members = group(&server, &owner, "role:members")["members"].clone();
    assert!(members.as_array().expect("list").contains(&json!(ada_id)), "back in role:members: {members}");

    let events = api.queued(&bob, &queue)["events"].clone();
    let support_events: Vec<(Value, Value)> = events
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["group_id"] == support)
        .map(|e| (e["op"].clone(), e["user_ids"].clone()))
        .collect();
    assert_eq!(
        support_events,
        vec![
            (json!("remove_members"), json!([ada_id])),
            (json!("add_members"), json!([carol_id])),
            (json!("add_members"), json!([ada_id])),
        ]
    );
}

#[test]
fn a_new_administrator_gets_back_the_private_channels_they_left_as_unsubscribed() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let ada_id = user_id(&server, &ada);
    let subscriptions = json!([{"name": "secret"}]).to_string();
    let principals = json!(["ada@example.com"]).to_string();
    api.post(
        "/users/me/subscriptions",
        Some(&owner),
        &[("subscriptions", &subscriptions), ("principals", &principals), ("invite_only", "true")],
    )
    .ok();
    api.delete("/users/me/subscriptions", Some(&ada), &[("subscriptions", r#"["secret"]"#)]).ok();
    let register = [("event_types", r#"["stream", "subscription"]"#)];
    let queue = api.post("/register", Some(&ada), &register).ok();
    let names = |list: &Value| -> Vec<Value> {
        list.as_array().expect("list").iter().map(|s| s["name"].clone()).collect()
    };
    assert_eq!(names(&queue["unsubscribed"]), Vec::<Value>::new(), "a member does not see it");

    api.patch(&format!("/users/{ada_id}"), Some(&owner), &[("role", "200")]).ok();
    let state = api.post("/register", Some(&ada), &register).ok();
    assert_eq!(names(&state["unsubscribed"]), vec![json!("secret")]);
    assert!(!names(&state["never_subscribed"]).contains(&json!("secret")));
    let events = api.queued(&ada, &queue)["events"].clone();
    let created = events
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["type"] == "stream" && e["op"] == "create")
        .cloned()
        .expect("the channel appears");
    assert_eq!(names(&created["streams"]), vec![json!("secret")]);
    assert_eq!(names(&created["unsubscribed"]), vec![json!("secret")], "{created}");
    assert!(created.get("inherited_notifications").is_none(), "{created}");
}

#[test]
fn administrators_and_owners_are_moderators_too() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let ada_id = user_id(&server, &ada);
    let flags = |who: &Creds| {
        let state = api.post("/register", Some(who), &[("fetch_event_types", r#"["realm_user"]"#)]).ok();
        [&state["is_owner"], &state["is_admin"], &state["is_moderator"]].map(Value::clone)
    };
    // Feature level 380: `is_moderator` is true from moderator up, as `is_admin` is for owners.
    assert_eq!(flags(&owner), [json!(true), json!(true), json!(true)]);
    for (role, admin, moderator) in [("400", false, false), ("300", false, true), ("200", true, true)] {
        api.patch(&format!("/users/{ada_id}"), Some(&owner), &[("role", role)]).ok();
        assert_eq!(flags(&ada), [json!(false), json!(admin), json!(moderator)], "role {role}");
    }
}

/// Runs `confab grant-permission` on a stopped server's data directory.
fn grant_permission(server: &TestServer, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_confab-under-test"))
        .arg("grant-permission")
        .arg("--data-dir")
        .arg(&server.data_dir)
        .args(server.store_args())
        .args(args)
        .output()
        .expect("confab runs")
}

#[test]
fn an_administrator_the_operator_allowed_changes_a_users_email() {
    let mut server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let carl = api.create_user(&owner, "carl@example.com", "Carl");
    let (ada_id, carl_id) = (user_id(&server, &ada), user_id(&server, &carl));
    api.delete(&format!("/users/{carl_id}"), Some(&owner), &[]).ok();
    let by_id = format!("/users/{ada_id}");

    // Zulip's special permission comes from the server's operator, never from a role.
    let refused =
        api.patch(&by_id, Some(&owner), &[("new_email", "ada@new.example")]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "User not authorized to change user emails");
    api.patch(&by_id, Some(&bob), &[("new_email", "ada@new.example")]).error(400, "UNAUTHORIZED_PRINCIPAL");
    server.terminate();
    let granted = grant_permission(&server, &["--email", "owner@confab.localhost", "can_change_user_emails"]);
    assert!(granted.status.success(), "{}", String::from_utf8_lossy(&granted.stderr));
    assert_eq!(
        String::from_utf8_lossy(&granted.stdout).trim(),
        "owner@confab.localhost changed to have can_change_user_emails permission."
    );
    let again = grant_permission(&server, &["--email", "owner@confab.localhost", "can_change_user_emails"]);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr)
            .contains("User can already change user emails for this realm.")
    );
    let server = server.start_again();
    let api = server.api();

    let refused = |email: &str| {
        api.patch(&by_id, Some(&owner), &[("new_email", email)]).error(400, "BAD_REQUEST")["msg"].clone()
    };
    assert_eq!(refused("not an address"), "Invalid new email address.");
    assert_eq!(refused("BOB@example.com"), "New email value error: Already has an account.");
    assert_eq!(refused("carl@example.com"), "New email value error: Account has been deactivated.");
    assert_eq!(
        refused("notification-bot@confab.invalid"),
        "New email value error: Reserved for system bots."
    );

    let watching = api.post("/register", Some(&bob), &[("event_types", r#"["realm_user"]"#)]).ok();
    // `PATCH /users/{email}` finds the user as `GET /users/{email}` does.
    api.patch("/users/ada@example.com", Some(&owner), &[("new_email", "ada@new.example")]).ok();
    let shown = api.get(&by_id, Some(&owner), &[]).ok()["user"].clone();
    assert_eq!(shown["delivery_email"], "ada@new.example");
    api.get("/users/ada@example.com", Some(&owner), &[]).error(400, "BAD_REQUEST");
    let renamed = Creds { email: "ada@new.example".into(), api_key: ada.api_key.clone() };
    assert_eq!(api.get("/users/me", Some(&renamed), &[]).ok()["user_id"], ada_id);

    // Those who may see the real address learn it; when everyone may, the API email changes
    // for everyone too (Zulip's `do_change_user_delivery_email`).
    let events = api.queued(&bob, &watching)["events"].clone();
    assert_eq!(events[0]["person"], json!({"user_id": ada_id, "delivery_email": "ada@new.example"}));
    if shown["email"] == "ada@new.example" {
        assert_eq!(events[1]["person"], json!({"user_id": ada_id, "new_email": "ada@new.example"}));
    }
    assert_eq!(
        events.as_array().map(Vec::len),
        Some(if shown["email"] == "ada@new.example" { 2 } else { 1 })
    );
    // The same address again changes nothing; other fields still need new data.
    api.patch(&by_id, Some(&owner), &[("new_email", "ada@new.example")]).ok();
    api.patch("/users/nobody@example.com", Some(&owner), &[("full_name", "X")]).error(400, "BAD_REQUEST");
}
