//! User groups (spec 2.9, 4.12; zulip-semantics §6): system groups by role, creating and
//! managing groups under their permission settings, members and subgroups, group mentions,
//! and the events that tell clients.

use confab_tests::{Creds, Reply, TestServer};
use serde_json::{Value, json};

struct World {
    server: TestServer,
    owner: Creds,
    ada: Creds,
    bob: Creds,
    ids: Ids,
}

struct Ids {
    owner: u64,
    ada: u64,
    bob: u64,
}

fn world() -> World {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada Lovelace");
    let bob = api.create_user(&owner, "bob@example.com", "Bob Builder");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com", "bob@example.com"]);
    let id = |who: &Creds| api.get("/users/me", Some(who), &[]).ok()["user_id"].as_u64().expect("id");
    let ids = Ids { owner: id(&owner), ada: id(&ada), bob: id(&bob) };
    World { server, owner, ada, bob, ids }
}

fn groups(w: &World, params: &[(&str, &str)]) -> Vec<Value> {
    w.server.api().get("/user_groups", Some(&w.ada), params).ok()["user_groups"]
        .as_array()
        .expect("list")
        .clone()
}

fn group_named(w: &World, name: &str) -> Value {
    groups(w, &[("include_deactivated_groups", "true")])
        .into_iter()
        .find(|g| g["name"] == name)
        .expect("group")
}

fn create(w: &World, who: &Creds, name: &str, members: &[u64]) -> Reply {
    let members = json!(members).to_string();
    let params = [("name", name), ("description", "A group"), ("members", members.as_str())];
    w.server.api().post("/user_groups/create", Some(who), &params)
}

fn members(w: &World, group: u64, direct_only: bool) -> Value {
    let direct = direct_only.to_string();
    let path = format!("/user_groups/{group}/members");
    w.server.api().get(&path, Some(&w.ada), &[("direct_member_only", direct.as_str())]).ok()["members"]
        .clone()
}

#[test]
fn system_groups_follow_roles() {
    let w = world();
    let owners = group_named(&w, "role:owners");
    assert_eq!(owners["is_system_group"], true);
    assert_eq!(owners["members"], json!([w.ids.owner]));
    let admins = group_named(&w, "role:administrators");
    assert_eq!(admins["direct_subgroup_ids"], json!([owners["id"]]));
    let members_group = group_named(&w, "role:members")["id"].as_u64().expect("id");
    let everyone = members(&w, members_group, false);
    for id in [w.ids.owner, w.ids.ada, w.ids.bob] {
        assert!(everyone.as_array().expect("list").contains(&json!(id)), "{everyone}");
    }
    assert_eq!(group_named(&w, "role:nobody")["members"], json!([]));
    let names: Vec<String> = groups(&w, &[])
        .iter()
        .filter(|g| g["is_system_group"] == true)
        .map(|g| g["name"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(names.len(), 8, "{names:?}");
}

#[test]
fn creating_a_group_checks_its_name_and_members() {
    let w = world();
    let id = create(&w, &w.ada, "support", &[w.ids.ada]).ok()["group_id"].as_u64().expect("group_id");
    let group = group_named(&w, "support");
    assert_eq!(group["id"], id);
    assert_eq!(group["members"], json!([w.ids.ada]));
    assert_eq!(group["creator_id"], w.ids.ada);
    assert!(group["date_created"].as_i64().is_some_and(|t| t > 1_700_000_000), "{group}");
    assert_eq!(group["can_manage_group"], json!({"direct_members": [w.ids.ada], "direct_subgroups": []}));
    assert_eq!(group["can_mention_group"], group_named(&w, "role:everyone")["id"]);

    let cases = [
        ("Support", "User group 'Support' already exists."),
        ("@ops", "User group name cannot start with '@'."),
        ("role:ops", "User group name cannot start with 'role:'."),
        ("   ", "User group name cannot be empty."),
    ];
    for (name, msg) in cases {
        assert_eq!(create(&w, &w.ada, name, &[]).error(400, "BAD_REQUEST")["msg"], msg, "{name}");
    }
    let long = "x".repeat(101);
    assert_eq!(
        create(&w, &w.ada, &long, &[]).error(400, "BAD_REQUEST")["msg"],
        "User group name cannot exceed 100 characters."
    );
    assert_eq!(create(&w, &w.ada, "ops", &[999]).error(400, "BAD_REQUEST")["msg"], "Invalid user ID: 999");
    let internet = group_named(&w, "role:internet")["id"].to_string();
    let params =
        [("name", "ops"), ("description", ""), ("members", "[]"), ("can_manage_group", internet.as_str())];
    let refused = w.server.api().post("/user_groups/create", Some(&w.ada), &params).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "'can_manage_group' setting cannot be set to 'role:internet' group.");
}

#[test]
fn only_managers_change_a_group() {
    let w = world();
    let api = w.server.api();
    let id = create(&w, &w.ada, "support", &[w.ids.ada]).ok()["group_id"].as_u64().expect("group_id");
    let path = format!("/user_groups/{id}/members");
    let add_bob = json!([w.ids.bob]).to_string();
    // Bob may neither add himself (can_join_group is nobody) nor rename the group.
    let refused = api.post(&path, Some(&w.bob), &[("add", add_bob.as_str())]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Insufficient permission");
    api.patch(&format!("/user_groups/{id}"), Some(&w.bob), &[("name", "help")]).error(400, "BAD_REQUEST");
    // Ada manages her group; the owner manages every group.
    api.post(&path, Some(&w.ada), &[("add", add_bob.as_str())]).ok();
    assert_eq!(members(&w, id, true), json!([w.ids.ada, w.ids.bob]));
    let again = api.post(&path, Some(&w.ada), &[("add", add_bob.as_str())]).error(400, "BAD_REQUEST");
    assert_eq!(again["msg"], format!("User {} is already a member of this group", w.ids.bob));
    // Members may leave (can_leave_group is everyone).
    api.post(&path, Some(&w.bob), &[("delete", add_bob.as_str())]).ok();
    api.patch(&format!("/user_groups/{id}"), Some(&w.owner), &[("name", "helpdesk")]).ok();
    assert_eq!(group_named(&w, "helpdesk")["id"], id);
    let not_current = group_named(&w, "role:nobody")["id"].clone();
    let stale = json!({"new": {"direct_members": [w.ids.bob], "direct_subgroups": []}, "old": not_current})
        .to_string();
    let mismatch =
        api.patch(&format!("/user_groups/{id}"), Some(&w.ada), &[("can_manage_group", stale.as_str())]);
    mismatch.error(400, "EXPECTATION_MISMATCH");
    let system = group_named(&w, "role:members")["id"].clone();
    api.patch(&format!("/user_groups/{system}"), Some(&w.owner), &[("name", "all")])
        .error(400, "BAD_REQUEST");
}

#[test]
fn subgroups_nest_without_cycles() {
    let w = world();
    let api = w.server.api();
    let outer = create(&w, &w.ada, "outer", &[w.ids.ada]).ok()["group_id"].as_u64().expect("id");
    let inner = create(&w, &w.ada, "inner", &[w.ids.bob]).ok()["group_id"].as_u64().expect("id");
    let inner_list = json!([inner]).to_string();
    api.post(&format!("/user_groups/{outer}/subgroups"), Some(&w.ada), &[("add", inner_list.as_str())]).ok();
    assert_eq!(members(&w, outer, false), json!([w.ids.ada, w.ids.bob]));
    assert_eq!(members(&w, outer, true), json!([w.ids.ada]));
    let is_member = api.get(&format!("/user_groups/{outer}/members/{}", w.ids.bob), Some(&w.ada), &[]).ok();
    assert_eq!(is_member["is_user_group_member"], true);
    let outer_list = json!([outer]).to_string();
    let cycle =
        api.post(&format!("/user_groups/{inner}/subgroups"), Some(&w.ada), &[("add", outer_list.as_str())]);
    assert_eq!(
        cycle.error(400, "BAD_REQUEST")["msg"],
        format!("User group {inner} is already a subgroup of one of the passed subgroups.")
    );
    let subgroups = api.get(&format!("/user_groups/{outer}/subgroups"), Some(&w.ada), &[]).ok();
    assert_eq!(subgroups["subgroups"], json!([inner]));

    // A group in use cannot be deactivated, and the answer says where it is used; an unused
    // one can, and leaves the default list.
    let deactivate = |id: u64| api.post(&format!("/user_groups/{id}/deactivate"), Some(&w.ada), &[]);
    let in_use = deactivate(inner).error(400, "CANNOT_DEACTIVATE_GROUP_IN_USE");
    assert_eq!(in_use["msg"], "Cannot deactivate user group in use.");
    assert_eq!(in_use["objections"], json!([{"type": "subgroup", "supergroup_ids": [outer]}]));
    // Since feature level 294 a group is deactivated, never deleted: only PATCH is routed.
    let deleted = api.delete(&format!("/user_groups/{outer}"), Some(&w.ada), &[]).error(405, "BAD_REQUEST");
    assert_eq!(deleted["msg"], "Method Not Allowed");
    deactivate(outer).ok();
    assert!(groups(&w, &[]).iter().all(|g| g["id"] != outer));
    assert_eq!(group_named(&w, "outer")["deactivated"], true);
}

#[test]
fn a_group_named_in_a_setting_stays_active_until_freed_and_a_deactivated_group_comes_back() {
    let w = world();
    let api = w.server.api();
    let helpers = create(&w, &w.ada, "helpers", &[w.ids.bob]).ok()["group_id"].as_u64().expect("id");
    let change = json!({"new": helpers}).to_string();
    api.patch("/realm", Some(&w.owner), &[("can_add_custom_emoji_group", change.as_str())]).ok();
    let created =
        [("name", "help"), ("subscribers", "[]"), ("can_remove_subscribers_group", &helpers.to_string())];
    let help = api.post("/channels/create", Some(&w.owner), &created).ok()["id"].clone();
    let named = helpers.to_string();
    let mentioners = [
        ("name", "mentioners"),
        ("description", ""),
        ("members", "[]"),
        ("can_mention_group", named.as_str()),
    ];
    let mentioners = api.post("/user_groups/create", Some(&w.ada), &mentioners).ok()["group_id"].clone();
    let deactivate = |id: u64| api.post(&format!("/user_groups/{id}/deactivate"), Some(&w.ada), &[]);
    let in_use = deactivate(helpers).error(400, "CANNOT_DEACTIVATE_GROUP_IN_USE");
    assert_eq!(
        in_use["objections"],
        json!([
            {"type": "channel", "channel_id": help, "settings": ["can_remove_subscribers_group"]},
            {"type": "user_group", "group_id": mentioners, "settings": ["can_mention_group"]},
            {"type": "realm", "settings": ["can_add_custom_emoji_group"]},
        ])
    );
    let members = group_named(&w, "role:members")["id"].clone();
    let change = json!({"new": members}).to_string();
    api.patch("/realm", Some(&w.owner), &[("can_add_custom_emoji_group", change.as_str())]).ok();
    api.patch(
        &format!("/streams/{help}"),
        Some(&w.owner),
        &[("can_remove_subscribers_group", change.as_str())],
    )
    .ok();
    api.patch(&format!("/user_groups/{mentioners}"), Some(&w.ada), &[("can_mention_group", change.as_str())])
        .ok();
    deactivate(helpers).ok();

    // Deactivated, it still takes edits and members (feature levels 340 and 391).
    let path = format!("/user_groups/{helpers}");
    api.patch(&path, Some(&w.ada), &[("description", "Retired")]).ok();
    let add = json!([w.ids.owner]).to_string();
    api.post(&format!("{path}/members"), Some(&w.ada), &[("add", add.as_str())]).ok();

    // `deactivated: false` brings it back (feature level 386): clients that kept it hear an
    // update, the others get the group again.
    let keeps = api
        .post(
            "/register",
            Some(&w.bob),
            &[
                ("event_types", r#"["user_group"]"#),
                ("client_capabilities", r#"{"include_deactivated_groups": true}"#),
            ],
        )
        .ok();
    let drops = api.post("/register", Some(&w.owner), &[("event_types", r#"["user_group"]"#)]).ok();
    api.patch(&path, Some(&w.ada), &[("deactivated", "false")]).ok();
    assert_eq!(group_named(&w, "helpers")["deactivated"], false);
    assert!(groups(&w, &[]).iter().any(|g| g["id"] == helpers));
    let kept = api.queued(&w.bob, &keeps)["events"].clone();
    assert_eq!(kept[0]["op"], "update", "{kept}");
    assert_eq!(kept[0]["data"], json!({"deactivated": false}));
    assert_eq!(kept.as_array().map(Vec::len), Some(1), "{kept}");
    let dropped = api.queued(&w.owner, &drops)["events"].clone();
    assert_eq!(dropped[0]["op"], "add", "{dropped}");
    assert_eq!(dropped[0]["group"]["id"], helpers);
    assert!(dropped[0].get("reactivated").is_none(), "the mark is never sent");
    assert_eq!(dropped.as_array().map(Vec::len), Some(1), "{dropped}");
}

#[test]
fn group_mentions_reach_members_who_may_be_mentioned() {
    let w = world();
    let api = w.server.api();
    let queue = api.post("/register", Some(&w.bob), &[("event_types", r#"["user_group"]"#)]).ok();
    let id = create(&w, &w.ada, "support", &[w.ids.bob]).ok()["group_id"].as_u64().expect("id");
    let events = api
        .get(
            "/events",
            Some(&w.bob),
            &[("queue_id", queue["queue_id"].as_str().expect("q")), ("dont_block", "true")],
        )
        .ok();
    assert_eq!(events["events"][0]["op"], "add");
    assert_eq!(events["events"][0]["group"]["id"], id);

    let sent = api
        .post(
            "/messages",
            Some(&w.ada),
            &[("type", "stream"), ("to", "general"), ("topic", "help"), ("content", "@*support* please")],
        )
        .ok();
    let message = api.get(&format!("/messages/{}", sent["id"]), Some(&w.bob), &[]).ok()["message"].clone();
    assert_eq!(message["flags"], json!(["mentioned"]));
    assert!(
        message["content"].as_str().unwrap_or_default().contains(&format!("data-user-group-id=\"{id}\"")),
        "{message}"
    );

    let nobody = group_named(&w, "role:nobody")["id"].clone();
    // At our feature level a setting changes as `{"new": ..., "old": ...}`; a bare id is refused
    // with Zulip's text.
    let bare = api
        .patch(
            &format!("/user_groups/{id}"),
            Some(&w.ada),
            &[("can_mention_group", nobody.to_string().as_str())],
        )
        .error(400, "BAD_REQUEST");
    assert_eq!(bare["msg"], "can_mention_group does not have the expected format");
    let change = json!({"new": nobody}).to_string();
    api.patch(&format!("/user_groups/{id}"), Some(&w.ada), &[("can_mention_group", change.as_str())]).ok();
    let refused = api
        .post(
            "/messages",
            Some(&w.ada),
            &[("type", "stream"), ("to", "general"), ("topic", "help"), ("content", "@*support* again")],
        )
        .error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "You are not allowed to mention user group 'support'.");
    // A silent mention notifies no one and needs no permission.
    api.post(
        "/messages",
        Some(&w.ada),
        &[("type", "stream"), ("to", "general"), ("topic", "help"), ("content", "@_*support* fyi")],
    )
    .ok();
}

#[test]
fn groups_survive_a_restart() {
    let w = world();
    create(&w, &w.ada, "support", &[w.ids.ada]).ok();
    let World { server, ada, .. } = w;
    let server = server.restart();
    let list = server.api().get("/user_groups", Some(&ada), &[]).ok();
    assert!(list["user_groups"].as_array().expect("list").iter().any(|g| g["name"] == "support"));
}

/// The membership settings of feature levels 301 to 324 start at Zulip's defaults, are given
/// at creation (with `subgroups`, 311), shown on the group and in its `add` event, changed by
/// `PATCH` as `{new, old}`, and decide who may change the members: `can_join_group` and
/// `can_leave_group` oneself, `can_add_members_group` and `can_remove_members_group` anyone.
#[test]
fn membership_settings_are_given_at_creation_changed_and_obeyed() {
    let w = world();
    let api = w.server.api();
    let carol = api.create_user(&w.owner, "carol@example.com", "Carol");
    let carol_id = api.user_id(&carol);
    let system = |name: &str| group_named(&w, name)["id"].clone();
    let (members_group, everyone, nobody) =
        (system("role:members"), system("role:everyone"), system("role:nobody"));
    let only = |id: u64| json!({"direct_members": [id], "direct_subgroups": []});

    let plain = create(&w, &w.ada, "plain", &[w.ids.ada]).ok()["group_id"].as_u64().expect("id");
    let defaults = group_named(&w, "plain");
    assert_eq!(defaults["can_add_members_group"], only(w.ids.ada), "the creator");
    assert_eq!(defaults["can_join_group"], nobody);
    assert_eq!(defaults["can_leave_group"], everyone);
    assert_eq!(defaults["can_remove_members_group"], nobody);

    let queue = api.post("/register", Some(&w.bob), &[("event_types", r#"["user_group"]"#)]).ok();
    let members = json!([w.ids.ada]).to_string();
    let subgroups = json!([plain]).to_string();
    let bob_only = only(w.ids.bob).to_string();
    let (joinable, unleavable) = (members_group.to_string(), nobody.to_string());
    let params = [
        ("name", "helpers"),
        ("description", "Helping"),
        ("members", members.as_str()),
        ("subgroups", subgroups.as_str()),
        ("can_join_group", joinable.as_str()),
        ("can_leave_group", unleavable.as_str()),
        ("can_add_members_group", bob_only.as_str()),
        ("can_remove_members_group", bob_only.as_str()),
    ];
    let id = api.post("/user_groups/create", Some(&w.ada), &params).ok()["group_id"].as_u64().expect("id");
    let helpers = group_named(&w, "helpers");
    assert_eq!(helpers["direct_subgroup_ids"], json!([plain]));
    assert_eq!(helpers["can_join_group"], members_group);
    assert_eq!(helpers["can_leave_group"], nobody);
    assert_eq!(helpers["can_add_members_group"], only(w.ids.bob));
    assert_eq!(helpers["can_remove_members_group"], only(w.ids.bob));
    let added = api.queued(&w.bob, &queue)["events"][0].clone();
    assert_eq!(added["op"], "add", "{added}");
    for setting in ["can_join_group", "can_leave_group", "can_add_members_group", "can_remove_members_group"]
    {
        assert_eq!(added["group"][setting], helpers[setting], "{setting}");
    }
    assert_eq!(added["group"]["direct_subgroup_ids"], json!([plain]));

    // Carol, a member of the organization, joins by herself but may not leave; Bob, named in
    // both member settings, adds and removes others.
    let path = format!("/user_groups/{id}/members");
    let list = |id: u64| json!([id]).to_string();
    let change = |who: &Creds, op: &str, user: u64| api.post(&path, Some(who), &[(op, list(user).as_str())]);
    change(&carol, "add", carol_id).ok();
    let refused = change(&carol, "delete", carol_id).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Insufficient permission");
    change(&carol, "add", w.ids.owner).error(400, "BAD_REQUEST");
    change(&w.bob, "add", w.ids.owner).ok();
    change(&w.bob, "delete", w.ids.owner).ok();

    // Each setting changes as {new, old}, and every client hears it.
    let patch = |setting: &str, new: &Value, old: &Value| {
        let value = json!({"new": new, "old": old}).to_string();
        api.patch(&format!("/user_groups/{id}"), Some(&w.ada), &[(setting, value.as_str())])
    };
    patch("can_leave_group", &everyone, &nobody).ok();
    change(&carol, "delete", carol_id).ok();
    patch("can_join_group", &nobody, &members_group).ok();
    change(&carol, "add", carol_id).error(400, "BAD_REQUEST");
    patch("can_add_members_group", &nobody, &only(w.ids.bob)).ok();
    change(&w.bob, "add", w.ids.owner).error(400, "BAD_REQUEST");
    patch("can_remove_members_group", &nobody, &only(w.ids.bob)).ok();
    change(&w.bob, "delete", w.ids.ada).error(400, "BAD_REQUEST");
    patch("can_remove_members_group", &everyone, &members_group).error(400, "EXPECTATION_MISMATCH");
    let helpers = group_named(&w, "helpers");
    for (setting, value) in [
        ("can_leave_group", &everyone),
        ("can_join_group", &nobody),
        ("can_add_members_group", &nobody),
        ("can_remove_members_group", &nobody),
    ] {
        assert_eq!(&helpers[setting], value, "{setting}");
    }
    let updates: Vec<Value> = api.queued(&w.bob, &queue)["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["op"] == "update")
        .map(|e| e["data"].clone())
        .collect();
    assert_eq!(
        updates,
        vec![
            json!({"can_leave_group": everyone}),
            json!({"can_join_group": nobody}),
            json!({"can_add_members_group": nobody}),
            json!({"can_remove_members_group": nobody}),
        ]
    );
}

/// A deactivated user is neither a new member nor a member to remove (feature level 303):
/// Zulip looks members up among active users only.
#[test]
fn deactivated_users_are_neither_added_to_groups_nor_removed_from_them() {
    let w = world();
    let api = w.server.api();
    let dave = api.create_user(&w.owner, "dave@example.com", "Dave");
    let dave_id = api.user_id(&dave);
    let id = create(&w, &w.ada, "support", &[w.ids.ada, dave_id]).ok()["group_id"].as_u64().expect("id");
    api.delete(&format!("/users/{dave_id}"), Some(&w.owner), &[]).ok();
    let invalid = format!("Invalid user ID: {dave_id}");
    assert_eq!(create(&w, &w.ada, "others", &[dave_id]).error(400, "BAD_REQUEST")["msg"], invalid);
    let dave_list = json!([dave_id]).to_string();
    let path = format!("/user_groups/{id}/members");
    for op in ["add", "delete"] {
        let refused = api.post(&path, Some(&w.ada), &[(op, dave_list.as_str())]).error(400, "BAD_REQUEST");
        assert_eq!(refused["msg"], invalid, "{op}");
    }
}

#[test]
fn clients_that_dropped_deactivated_groups_hear_nothing_of_their_changes() {
    let w = world();
    let api = w.server.api();
    let helpers = create(&w, &w.ada, "helpers", &[w.ids.bob]).ok()["group_id"].as_u64().expect("id");
    api.post(&format!("/user_groups/{helpers}/deactivate"), Some(&w.ada), &[]).ok();
    let keeps = api
        .post(
            "/register",
            Some(&w.bob),
            &[
                ("event_types", r#"["user_group"]"#),
                ("client_capabilities", r#"{"include_deactivated_groups": true}"#),
            ],
        )
        .ok();
    let drops = api.post("/register", Some(&w.owner), &[("event_types", r#"["user_group"]"#)]).ok();
    let path = format!("/user_groups/{helpers}");
    api.patch(&path, Some(&w.ada), &[("name", "retired helpers"), ("description", "Gone")]).ok();
    let moderators = group_named(&w, "role:moderators")["id"].clone();
    let change = json!({"new": moderators}).to_string();
    api.patch(&path, Some(&w.ada), &[("can_mention_group", change.as_str())]).ok();

    let kept = api.queued(&w.bob, &keeps)["events"].clone();
    assert_eq!(kept.as_array().map(Vec::len), Some(2), "{kept}");
    assert_eq!(kept[0]["data"], json!({"name": "retired helpers", "description": "Gone"}));
    assert_eq!(kept[1]["data"], json!({"can_mention_group": moderators}));
    assert!(kept[0].get("deactivated_group").is_none(), "the mark is never sent");
    // The other client has no such group, and hears of none of it (feature level 294).
    let queue = drops["queue_id"].as_str().expect("queue");
    let last = drops["last_event_id"].to_string();
    let heartbeat = api
        .get(
            "/events",
            Some(&w.owner),
            &[("queue_id", queue), ("last_event_id", &last), ("dont_block", "true")],
        )
        .ok();
    assert_eq!(heartbeat["events"], json!([]));
}

#[test]
fn anonymous_settings_leave_out_deactivated_users_until_they_return() {
    let w = world();
    let api = w.server.api();
    let helpers = create(&w, &w.ada, "helpers", &[w.ids.ada]).ok()["group_id"].as_u64().expect("id");
    let bob_and_helpers =
        json!({"new": {"direct_members": [w.ids.bob], "direct_subgroups": [helpers]}}).to_string();
    api.patch("/realm", Some(&w.owner), &[("can_create_groups", bob_and_helpers.as_str())]).ok();
    api.patch(
        &format!("/user_groups/{helpers}"),
        Some(&w.ada),
        &[("can_manage_group", bob_and_helpers.as_str())],
    )
    .ok();
    let anonymous = |members: &[u64]| json!({"direct_members": members, "direct_subgroups": [helpers]});
    let realm = [("fetch_event_types", r#"["realm", "realm_user_groups"]"#)];

    let watching = api
        .post("/register", Some(&w.ada), &[("event_types", r#"["realm", "user_group", "realm_user"]"#)])
        .ok();
    api.delete(&format!("/users/{}", w.ids.bob), Some(&w.owner), &[]).ok();
    let state = api.post("/register", Some(&w.ada), &realm).ok();
    assert_eq!(state["realm_can_create_groups"], anonymous(&[]));
    assert_eq!(group_named(&w, "helpers")["can_manage_group"], anonymous(&[]));
    // A change names the old value as clients were shown it.
    let stale = json!({"old": anonymous(&[w.ids.bob]), "new": anonymous(&[w.ids.ada])}).to_string();
    let refused = api.patch("/realm", Some(&w.owner), &[("can_create_groups", stale.as_str())]);
    assert_eq!(refused.error(400, "BAD_REQUEST")["msg"], format!("Invalid user ID: {}", w.ids.bob));

    api.post(&format!("/users/{}/reactivate", w.ids.bob), Some(&w.owner), &[]).ok();
    let state = api.post("/register", Some(&w.ada), &realm).ok();
    assert_eq!(state["realm_can_create_groups"], anonymous(&[w.ids.bob]));
    assert_eq!(group_named(&w, "helpers")["can_manage_group"], anonymous(&[w.ids.bob]));

    // Deactivation told clients only that Bob is inactive (they drop him themselves, as Zulip's
    // do); reactivation tells each setting's value again.
    let events = api.queued(&w.ada, &watching)["events"].clone();
    let ops: Vec<(Value, Value)> =
        events.as_array().expect("events").iter().map(|e| (e["type"].clone(), e["op"].clone())).collect();
    assert_eq!(ops[0], (json!("realm_user"), json!("update")), "{events}");
    assert_eq!(events[0]["person"], json!({"user_id": w.ids.bob, "is_active": false}));
    let after: Vec<&Value> =
        events.as_array().expect("events").iter().skip_while(|e| e["person"]["is_active"] != true).collect();
    assert!(
        after.iter().any(|e| e["type"] == "realm"
            && e["op"] == "update_dict"
            && e["data"] == json!({"can_create_groups": anonymous(&[w.ids.bob])})),
        "{events}"
    );
    assert!(
        after.iter().any(|e| e["type"] == "user_group"
            && e["op"] == "update"
            && e["group_id"] == helpers
            && e["data"] == json!({"can_manage_group": anonymous(&[w.ids.bob])})),
        "{events}"
    );

    // Deactivated again, the value clients were shown is the one a change must name.
    api.delete(&format!("/users/{}", w.ids.bob), Some(&w.owner), &[]).ok();
    let members = group_named(&w, "role:members")["id"].clone();
    let change = json!({"old": anonymous(&[]), "new": members}).to_string();
    api.patch("/realm", Some(&w.owner), &[("can_create_groups", change.as_str())]).ok();
}

#[test]
fn guests_never_remove_others_from_a_group_but_may_leave_it() {
    let w = world();
    let api = w.server.api();
    let gus = api.create_user(&w.owner, "gus@example.com", "Gus");
    let gus_id = api.user_id(&gus);
    api.patch(&format!("/users/{gus_id}"), Some(&w.owner), &[("role", "600")]).ok();
    let helpers = create(&w, &w.ada, "helpers", &[w.ids.bob, gus_id]).ok()["group_id"].as_u64().expect("id");
    let path = format!("/user_groups/{helpers}");
    let gus_may = json!({"new": {"direct_members": [gus_id, w.ids.bob], "direct_subgroups": []}}).to_string();
    api.patch(&path, Some(&w.ada), &[("can_remove_members_group", gus_may.as_str())]).ok();
    let remove = |who: &Creds, user: u64| {
        let ids = json!([user]).to_string();
        api.post(&format!("{path}/members"), Some(who), &[("delete", ids.as_str())])
    };
    // The setting names Gus, but guests never hold it (Zulip's `allow_everyone_group=False`).
    assert_eq!(remove(&gus, w.ids.bob).error(400, "BAD_REQUEST")["msg"], "Insufficient permission");
    // Leaving is `can_leave_group`'s, which everyone holds by default, guests included.
    remove(&gus, gus_id).ok();
    // Bob, a member named by the same setting, may remove others.
    let ada_in = json!([w.ids.ada]).to_string();
    api.post(&format!("{path}/members"), Some(&w.ada), &[("add", ada_in.as_str())]).ok();
    remove(&w.bob, w.ids.ada).ok();
}
