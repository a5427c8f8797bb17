//! Bots (`POST /bots`): users make bots they own, which act through their own API keys; keys
//! can be regenerated, bots deactivated, and outgoing-webhook bots keep their service.

use confab_tests::{Creds, TestServer};
use serde_json::json;

#[test]
fn users_make_bots_that_act_with_their_own_keys() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].clone();

    let made = api.post("/bots", Some(&ada), &[("full_name", "Helper"), ("short_name", "helper")]).ok();
    let host = server.base_url.trim_start_matches("http://").split(':').next().expect("host").to_owned();
    let bot = Creds {
        email: format!("helper-bot@{host}"),
        api_key: made["api_key"].as_str().expect("key").to_owned(),
    };
    let me = api.get("/users/me", Some(&bot), &[]).ok();
    assert_eq!(me["is_bot"], true);
    assert_eq!(me["bot_owner_id"], ada_id);
    assert_eq!(me["user_id"], made["user_id"]);

    let taken = api
        .post("/bots", Some(&ada), &[("full_name", "Again"), ("short_name", "helper-bot")])
        .error(400, "BAD_REQUEST");
    assert_eq!(taken["msg"], "Username already in use");
    let bad = api
        .post("/bots", Some(&ada), &[("full_name", "Odd"), ("short_name", "no spaces")])
        .error(400, "BAD_REQUEST");
    assert_eq!(bad["msg"], "Bad name or username");

    assert_eq!(api.get("/bots", Some(&ada), &[]).ok()["bots"].as_array().map(Vec::len), Some(1));
    assert_eq!(api.get("/bots", Some(&bob), &[]).ok()["bots"], json!([]));
    let id = made["user_id"].as_u64().expect("id");
    api.post(&format!("/bots/{id}/api_key/regenerate"), Some(&bob), &[]).error(400, "BAD_REQUEST");
    let fresh = api.post(&format!("/bots/{id}/api_key/regenerate"), Some(&ada), &[]).ok();
    api.get("/users/me", Some(&bot), &[]).error(401, "INVALID_API_KEY");
    let bot = Creds { api_key: fresh["api_key"].as_str().expect("key").to_owned(), ..bot };
    api.get("/users/me", Some(&bot), &[]).ok();

    api.delete(&format!("/bots/{id}"), Some(&ada), &[]).ok();
    api.get("/users/me", Some(&bot), &[]).error(401, "USER_DEACTIVATED");
}

#[test]
fn outgoing_webhook_bots_keep_their_service() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let params = [
        ("full_name", "Hook"),
        ("short_name", "hook"),
        ("bot_type", "3"),
        ("payload_url", "https://bots.example/hook"),
    ];
    api.post("/bots", Some(&owner), &params).ok();
    let bots = api.get("/bots", Some(&owner), &[]).ok();
    let services = bots["bots"][0]["services"].clone();
    assert_eq!(services[0]["base_url"], "https://bots.example/hook");
    assert_eq!(services[0]["token"].as_str().map(str::len), Some(32));
    // Zulip reads `payload_url` as JSON, and its own example sends it JSON-encoded.
    let encoded = [
        ("full_name", "Hook3"),
        ("short_name", "hook3"),
        ("bot_type", "3"),
        ("payload_url", r#""https://bots.example/encoded""#),
    ];
    let made = api.post("/bots", Some(&owner), &encoded).ok();
    let bots = api.get("/bots", Some(&owner), &[]).ok();
    let hook3 =
        bots["bots"].as_array().expect("bots").iter().find(|b| b["user_id"] == made["user_id"]).cloned();
    assert_eq!(hook3.expect("listed")["services"][0]["base_url"], "https://bots.example/encoded");
    let no_url = [("full_name", "Hook2"), ("short_name", "hook2"), ("bot_type", "3")];
    api.post("/bots", Some(&owner), &no_url).error(400, "REQUEST_VARIABLE_MISSING");
}

/// Ada, a member, and her bot `helper`.
struct AdasBot {
    server: TestServer,
    owner: Creds,
    owner_id: u64,
    ada: Creds,
    ada_id: u64,
    bot: Creds,
    bot_id: u64,
}

fn adas_bot() -> AdasBot {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let id = |who: &Creds| api.get("/users/me", Some(who), &[]).ok()["user_id"].as_u64().expect("id");
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let made = api.post("/bots", Some(&ada), &[("full_name", "Helper"), ("short_name", "helper")]).ok();
    let host = server.base_url.trim_start_matches("http://").split(':').next().expect("host").to_owned();
    let bot = Creds {
        email: format!("helper-bot@{host}"),
        api_key: made["api_key"].as_str().expect("key").to_owned(),
    };
    let (owner_id, ada_id) = (id(&owner), id(&ada));
    AdasBot { server, owner, owner_id, ada, ada_id, bot, bot_id: made["user_id"].as_u64().expect("id") }
}

#[test]
fn a_deactivated_owner_takes_their_bots_along_and_reactivation_leaves_them_deactivated() {
    let AdasBot { server, owner, ada, ada_id, bot, bot_id, .. } = adas_bot();
    let api = server.api();
    let queue = api.post("/register", Some(&owner), &[("event_types", r#"["realm_bot"]"#)]).ok();

    api.delete(&format!("/users/{ada_id}"), Some(&owner), &[]).ok();
    api.get("/users/me", Some(&bot), &[]).error(401, "USER_DEACTIVATED");
    assert_eq!(api.get(&format!("/users/{bot_id}"), Some(&owner), &[]).ok()["user"]["is_active"], false);
    assert_eq!(api.get("/bots", Some(&owner), &[]).ok()["bots"], json!([]));
    let events = api.queued(&owner, &queue)["events"].clone();
    assert_eq!(events[0]["bot"], json!({"user_id": bot_id, "is_active": false}));

    api.post(&format!("/users/{ada_id}/reactivate"), Some(&owner), &[]).ok();
    api.get("/users/me", Some(&ada), &[]).ok();
    api.get("/users/me", Some(&bot), &[]).error(401, "USER_DEACTIVATED");
    assert_eq!(api.get(&format!("/users/{bot_id}"), Some(&owner), &[]).ok()["user"]["is_active"], false);
}

#[test]
fn reactivating_a_bot_whose_owner_is_deactivated_makes_the_administrator_its_owner() {
    let AdasBot { server, owner, owner_id, ada, ada_id, bot, bot_id } = adas_bot();
    let api = server.api();
    api.delete(&format!("/users/{ada_id}"), Some(&owner), &[]).ok();
    let watching = [("event_types", r#"["realm_bot", "realm_user"]"#)];
    let queue = api.post("/register", Some(&owner), &watching).ok();

    // Ada is still away: the bot comes back as the owner's, who reactivated it.
    api.post(&format!("/users/{bot_id}/reactivate"), Some(&owner), &[]).ok();
    api.get("/users/me", Some(&bot), &[]).ok();
    let shown = api.get(&format!("/users/{bot_id}"), Some(&owner), &[]).ok();
    assert_eq!(shown["user"]["bot_owner_id"], owner_id);
    let bots = api.get("/bots", Some(&owner), &[]).ok();
    assert_eq!(bots["bots"][0]["owner_id"], owner_id);
    let events = api.queued(&owner, &queue)["events"].clone();
    let changes: Vec<_> = events.as_array().expect("events").iter().map(|e| (&e["type"], &e["op"])).collect();
    assert_eq!(
        changes,
        [
            (&json!("realm_user"), &json!("update")),
            (&json!("realm_bot"), &json!("update")),
            (&json!("realm_bot"), &json!("update")),
            (&json!("realm_user"), &json!("update")),
        ],
        "{events}"
    );
    assert_eq!(events[1]["bot"], json!({"user_id": bot_id, "is_active": true}));
    assert_eq!(events[2]["bot"], json!({"user_id": bot_id, "owner_id": owner_id}));
    assert_eq!(events[3]["person"], json!({"user_id": bot_id, "bot_owner_id": owner_id}));

    // Ada's return does not give it back.
    api.post(&format!("/users/{ada_id}/reactivate"), Some(&owner), &[]).ok();
    assert_eq!(api.get("/bots", Some(&ada), &[]).ok()["bots"], json!([]));
    let shown = api.get(&format!("/users/{bot_id}"), Some(&owner), &[]).ok();
    assert_eq!(shown["user"]["bot_owner_id"], owner_id);
}

#[test]
fn reactivating_a_bot_whose_owner_is_active_keeps_its_owner() {
    let AdasBot { server, owner, ada, ada_id, bot_id, .. } = adas_bot();
    let api = server.api();
    api.delete(&format!("/bots/{bot_id}"), Some(&ada), &[]).ok();
    api.post(&format!("/users/{bot_id}/reactivate"), Some(&owner), &[]).ok();
    let shown = api.get(&format!("/users/{bot_id}"), Some(&owner), &[]).ok();
    assert_eq!(shown["user"]["bot_owner_id"], ada_id);
    assert_eq!(api.get("/bots", Some(&ada), &[]).ok()["bots"][0]["user_id"], bot_id);
}

#[test]
fn a_bots_owner_renames_it_and_an_administrator_gives_it_away() {
    let AdasBot { server, owner, owner_id, ada, ada_id, bot_id, .. } = adas_bot();
    let api = server.api();
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["realm_bot", "realm_user"]"#)]).ok();
    let path = format!("/bots/{bot_id}");
    let renamed = api.patch(&path, Some(&ada), &[("full_name", "Butler")]).ok();
    assert_eq!(renamed["full_name"], "Butler");
    assert_eq!(renamed["bot_owner"], "ada@example.com");
    let events = api.queued(&ada, &queue)["events"].clone();
    assert_eq!(events[0]["bot"], json!({"user_id": bot_id, "full_name": "Butler"}));
    assert_eq!(events[1]["person"], json!({"user_id": bot_id, "full_name": "Butler"}));

    // Only its owner or an administrator may change it; a role change is for administrators.
    let grace = api.create_user(&owner, "grace@example.com", "Grace");
    api.patch(&path, Some(&grace), &[("full_name", "Mine")]).error(400, "BAD_REQUEST");
    let role = api.patch(&path, Some(&ada), &[("role", "200")]).error(400, "UNAUTHORIZED_PRINCIPAL");
    assert_eq!(role["msg"], "Must be an organization administrator");
    let nobody = api.patch(&path, Some(&owner), &[("bot_owner_id", "999999")]).error(400, "BAD_REQUEST");
    assert_eq!(nobody["msg"], "Failed to change owner, no such user");

    let given = api.patch(&path, Some(&owner), &[("bot_owner_id", owner_id.to_string().as_str())]).ok();
    assert_eq!(given["bot_owner"], "owner@confab.localhost");
    assert_eq!(
        api.get(&format!("/users/{bot_id}"), Some(&owner), &[]).ok()["user"]["bot_owner_id"],
        owner_id
    );
    // Ada no longer manages it.
    assert!(api.get("/bots", Some(&ada), &[]).ok()["bots"].as_array().is_some_and(Vec::is_empty));
    assert_ne!(owner_id, ada_id);
    // Default channels are not kept by Confab: they are reported as ignored.
    let ignored = api.patch(&path, Some(&owner), &[("default_sending_stream", "general")]).ok();
    assert_eq!(ignored["ignored_parameters_unsupported"], json!(["default_sending_stream"]));
}

#[test]
fn an_outgoing_webhook_bots_service_moves_to_a_new_url() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let params = [
        ("full_name", "Hook"),
        ("short_name", "hook"),
        ("bot_type", "3"),
        ("payload_url", "https://bots.example/a"),
    ];
    let id = api.post("/bots", Some(&owner), &params).ok()["user_id"].clone();
    let path = format!("/bots/{id}");
    let moved =
        api.patch(&path, Some(&owner), &[("service_payload_url", r#""https://bots.example/b""#)]).ok();
    assert_eq!(moved["service_payload_url"], "https://bots.example/b");
    let bots = api.get("/bots", Some(&owner), &[]).ok();
    assert_eq!(bots["bots"][0]["services"][0]["base_url"], "https://bots.example/b");
    api.patch(&path, Some(&owner), &[("service_payload_url", "ftp://x")]).error(400, "BAD_REQUEST");
}

#[test]
fn the_two_bot_creation_groups_decide_who_makes_which_bots() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let groups = api.get("/user_groups", Some(&owner), &[]).ok()["user_groups"].clone();
    let group = |name: &str| {
        groups.as_array().expect("list").iter().find(|g| g["name"] == name).expect("group")["id"].clone()
    };
    let set = |setting: &str, name: &str| {
        let change = json!({"new": group(name)}).to_string();
        api.patch("/realm", Some(&owner), &[(setting, change.as_str())]).ok();
    };
    let make = |who: &Creds, short: &str, bot_type: &str| {
        api.post("/bots", Some(who), &[("full_name", short), ("short_name", short), ("bot_type", bot_type)])
    };
    // Any bot for `can_create_bots_group`; `can_create_write_only_bots_group` adds incoming
    // webhooks (bot type 2) for its own members.
    set("can_create_bots_group", "role:administrators");
    let generic = make(&ada, "generic", "1").error(400, "BAD_REQUEST");
    assert_eq!(generic["msg"], "Insufficient permission");
    make(&ada, "outgoing", "3").error(400, "BAD_REQUEST");
    make(&ada, "hook", "2").ok();
    make(&owner, "owners", "1").ok();
    set("can_create_write_only_bots_group", "role:nobody");
    assert_eq!(make(&ada, "hook-two", "2").error(400, "BAD_REQUEST")["msg"], "Insufficient permission");
    // Administrators pass only through the groups, as in Zulip.
    set("can_create_bots_group", "role:nobody");
    assert_eq!(make(&owner, "nobodys", "1").error(400, "BAD_REQUEST")["msg"], "Insufficient permission");
}

#[test]
fn reactivating_a_bot_needs_the_power_to_make_it() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let made = api.post("/bots", Some(&owner), &[("full_name", "Helper"), ("short_name", "helper")]).ok();
    let bot_id = made["user_id"].as_u64().expect("id");
    api.delete(&format!("/bots/{bot_id}"), Some(&owner), &[]).ok();
    let groups = api.get("/user_groups", Some(&owner), &[]).ok()["user_groups"].clone();
    let nobody = groups.as_array().expect("list").iter().find(|g| g["name"] == "role:nobody").expect("group")
        ["id"]
        .clone();
    let change = json!({"new": nobody}).to_string();
    api.patch("/realm", Some(&owner), &[("can_create_bots_group", change.as_str())]).ok();
    // Zulip's `reactivate_user_backend` checks a bot as if it were made anew.
    let path = format!("/users/{bot_id}/reactivate");
    assert_eq!(
        api.post(&path, Some(&owner), &[]).error(400, "BAD_REQUEST")["msg"],
        "Insufficient permission"
    );
    let members =
        groups.as_array().expect("list").iter().find(|g| g["name"] == "role:members").expect("group")["id"]
            .clone();
    let change = json!({"new": members}).to_string();
    api.patch("/realm", Some(&owner), &[("can_create_bots_group", change.as_str())]).ok();
    api.post(&path, Some(&owner), &[]).ok();
}
