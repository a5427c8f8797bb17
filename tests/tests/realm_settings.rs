//! The organization's settings (`PATCH /realm`): its group settings decide who may create
//! groups and channels, its topics policy applies to channels that inherit it, and clients
//! learn of changes through register and `realm` events.

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

fn group_id(server: &TestServer, who: &Creds, name: &str) -> Value {
    let groups = server.api().get("/user_groups", Some(who), &[]).ok();
    groups["user_groups"].as_array().expect("list").iter().find(|g| g["name"] == name).expect("group")["id"]
        .clone()
}

#[test]
fn group_settings_decide_who_may_create() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["realm"]"#)]).ok();
    let admins = group_id(&server, &owner, "role:administrators");
    let members = group_id(&server, &owner, "role:members");

    let stale = json!({"new": admins, "old": admins}).to_string();
    api.patch("/realm", Some(&owner), &[("can_create_groups", stale.as_str())])
        .error(400, "EXPECTATION_MISMATCH");
    let change = json!({"new": admins, "old": members}).to_string();
    api.patch("/realm", Some(&owner), &[("can_create_groups", change.as_str())]).ok();
    let params = [("name", "support"), ("description", ""), ("members", "[]")];
    assert_eq!(
        api.post("/user_groups/create", Some(&ada), &params).error(400, "BAD_REQUEST")["msg"],
        "Insufficient permission"
    );
    api.post("/user_groups/create", Some(&owner), &params).ok();

    let public = json!({"new": admins}).to_string();
    api.patch("/realm", Some(&owner), &[("can_create_public_channel_group", public.as_str())]).ok();
    let create = [("name", "design"), ("subscribers", "[]")];
    api.post("/channels/create", Some(&ada), &create).error(400, "BAD_REQUEST");
    api.post(
        "/channels/create",
        Some(&ada),
        &[("name", "design"), ("subscribers", "[]"), ("invite_only", "true")],
    )
    .ok();

    let state = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(state["realm_can_create_groups"], admins);
    assert_eq!(state["realm_can_create_private_channel_group"], members);
    let events = api.queued(&ada, &queue);
    assert_eq!(events["events"][0]["data"], json!({"can_create_groups": admins}));
    assert_eq!(events["events"][0]["op"], "update_dict");
}

#[test]
fn the_topics_policy_applies_to_channels_that_inherit_it() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    api.subscribe(&owner, &["general"], &["owner@confab.localhost"]);
    api.patch("/realm", Some(&owner), &[("topics_policy", "disable_empty_topic")]).ok();
    let params = [("type", "stream"), ("to", "general"), ("topic", ""), ("content", "hi")];
    let refused = api.post("/messages", Some(&owner), &params).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Sending messages to the general chat is not allowed in this channel.");
    let state = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(state["realm_topics_policy"], "disable_empty_topic");
    assert_eq!(state["realm_mandatory_topics"], true);
    api.patch("/realm", Some(&owner), &[("topics_policy", "sometimes")]).error(400, "BAD_REQUEST");
}

#[test]
fn message_permissions_follow_the_group_settings() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    let send = |who: &Creds, topic: &str| {
        let params = [("type", "stream"), ("to", "general"), ("topic", topic), ("content", "hi")];
        api.post("/messages", Some(who), &params).ok()["id"].as_u64().expect("id")
    };
    let theirs = send(&owner, "plans");
    api.delete(&format!("/messages/{theirs}"), Some(&ada), &[]).error(400, "BAD_REQUEST");
    let members = json!({"new": group_id(&server, &owner, "role:members")}).to_string();
    api.patch("/realm", Some(&owner), &[("can_delete_any_message_group", members.as_str())]).ok();
    api.delete(&format!("/messages/{theirs}"), Some(&ada), &[]).ok();

    let admins = json!({"new": group_id(&server, &owner, "role:administrators")}).to_string();
    api.patch("/realm", Some(&owner), &[("can_resolve_topics_group", admins.as_str())]).ok();
    let mine = send(&ada, "question");
    let resolve = [("topic", "✔ question"), ("propagate_mode", "change_all")];
    let refused = api.patch(&format!("/messages/{mine}"), Some(&ada), &resolve).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "You don't have permission to resolve topics");
    api.patch(&format!("/messages/{mine}"), Some(&owner), &resolve).ok();

    // Everyone deletes their own messages by default (`can_delete_own_message_group`, feature
    // level 291), until the organization narrows it.
    api.patch("/realm", Some(&owner), &[("can_delete_any_message_group", admins.as_str())]).ok();
    let draft = send(&ada, "drafts");
    let state = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(state["realm_can_delete_own_message_group"], group_id(&server, &owner, "role:everyone"));
    api.patch("/realm", Some(&owner), &[("can_delete_own_message_group", admins.as_str())]).ok();
    let refused = api.delete(&format!("/messages/{draft}"), Some(&ada), &[]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "You don't have permission to delete this message");
    let state = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(state["realm_can_delete_own_message_group"], group_id(&server, &owner, "role:administrators"));
    api.patch("/realm", Some(&owner), &[("can_delete_own_message_group", members.as_str())]).ok();
    api.delete(&format!("/messages/{draft}"), Some(&ada), &[]).ok();
}

#[test]
fn plain_properties_are_checked_stored_and_announced() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let registered = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(registered["realm_waiting_period_threshold"], 0);
    assert_eq!(registered["realm_invite_required"], true);
    // No upload quota, in MiB since feature level 251: `null`, as a server without one sends.
    assert_eq!(registered["realm_upload_quota_mib"], Value::Null);
    assert!(registered.get("realm_upload_quota").is_none(), "{registered}");
    // A new organization announces new channels in #general.
    let general = api.get("/get_stream_id", Some(&ada), &[("stream", "general")]).ok()["stream_id"].clone();
    assert_eq!(registered["realm_new_stream_announcements_stream_id"], general);

    api.subscribe(&owner, &["town"], &["owner@confab.localhost"]);
    let town = api.get("/get_stream_id", Some(&owner), &[("stream", "town")]).ok()["stream_id"].to_string();
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["realm"]"#)]).ok();
    let changes = [
        ("waiting_period_threshold", "3"),
        ("invite_required", "false"),
        ("default_language", "de"),
        ("new_stream_announcements_stream_id", town.as_str()),
    ];
    api.patch("/realm", Some(&owner), &changes).ok();
    let registered = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(registered["realm_waiting_period_threshold"], 3);
    assert_eq!(registered["realm_invite_required"], false);
    assert_eq!(registered["realm_default_language"], "de");
    assert_eq!(registered["realm_new_stream_announcements_stream_id"].to_string(), town);
    let events = api.queued(&ada, &queue);
    let events: Vec<(Value, Value)> = events["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| {
            assert_eq!((&e["type"], &e["op"]), (&json!("realm"), &json!("update")), "{e}");
            (e["property"].clone(), e["value"].clone())
        })
        .collect();
    assert_eq!(events.len(), 4, "{events:?}");
    assert!(events.contains(&(json!("waiting_period_threshold"), json!(3))));

    let refused = |params: &[(&str, &str)]| {
        api.patch("/realm", Some(&owner), params).error(400, "BAD_REQUEST")["msg"].clone()
    };
    assert_eq!(refused(&[("default_language", "english")]), "Invalid language 'english'");
    assert_eq!(refused(&[("video_chat_provider", "2")]), "Invalid video_chat_provider 2");
    assert_eq!(refused(&[("digest_weekday", "7")]), "Invalid digest_weekday");
    assert_eq!(refused(&[("signup_announcements_stream_id", "999999")]), "Invalid channel ID");
    let member = api.patch("/realm", Some(&ada), &[("invite_required", "true")]);
    assert_eq!(member.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");
}

#[test]
fn new_users_start_with_the_organizations_default_settings() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let fetch = [("fetch_event_types", r#"["realm_user_settings_defaults"]"#)];
    let queue =
        api.post("/register", Some(&owner), &[("event_types", r#"["realm_user_settings_defaults"]"#)]).ok();
    api.patch(
        "/realm/user_settings_defaults",
        Some(&owner),
        &[("twenty_four_hour_time", "true"), ("emojiset", "text")],
    )
    .ok();
    let defaults = api.post("/register", Some(&owner), &fetch).ok()["realm_user_settings_defaults"].clone();
    assert_eq!(defaults["twenty_four_hour_time"], true);
    assert_eq!(defaults["emojiset"], "text");
    assert!(defaults.get("timezone").is_none(), "{defaults}");
    let events = api.queued(&owner, &queue);
    // One event per setting, in the settings' order.
    assert_eq!(events["events"][0]["property"], "emojiset");
    assert_eq!(
        events["events"][1],
        json!({"id": 1, "type": "realm_user_settings_defaults", "op": "update", "property": "twenty_four_hour_time", "value": true})
    );

    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let settings = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["user_settings"]"#)]).ok();
    assert_eq!(settings["user_settings"]["twenty_four_hour_time"], true);
    assert_eq!(settings["user_settings"]["emojiset"], "text");
    // The owner's own settings are theirs: defaults apply to new users only.
    let own = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["user_settings"]"#)]).ok();
    assert_eq!(own["user_settings"]["twenty_four_hour_time"], false);

    let bad = api.patch("/realm/user_settings_defaults", Some(&owner), &[("emojiset", "wingdings")]);
    assert_eq!(bad.error(400, "BAD_REQUEST")["msg"], "Invalid emojiset");
    let ada_tries = api.patch("/realm/user_settings_defaults", Some(&ada), &[("emojiset", "google")]);
    ada_tries.error(400, "UNAUTHORIZED_PRINCIPAL");
}

#[test]
fn register_tells_each_user_what_the_group_settings_let_them_do() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let groups = api.get("/user_groups", Some(&owner), &[]).ok()["user_groups"].clone();
    let admins = groups
        .as_array()
        .expect("groups")
        .iter()
        .find(|g| g["name"] == "role:administrators")
        .expect("admins")["id"]
        .clone();
    let change = serde_json::json!({"new": admins}).to_string();
    api.patch("/realm", Some(&owner), &[("can_create_public_channel_group", change.as_str())]).ok();
    let state = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["realm_user"]"#)]).ok();
    assert_eq!(state["can_create_public_streams"], false);
    assert_eq!(state["can_create_private_streams"], true);
    assert_eq!(state["can_create_streams"], true);
    // Gone since feature level 341: clients read `realm_can_add_subscribers_group`.
    assert!(state.get("can_subscribe_other_users").is_none(), "{state}");
    // Members send email invitations by default (`can_invite_users_group`).
    assert_eq!(state["can_invite_others_to_realm"], true);
    let own = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["realm_user"]"#)]).ok();
    assert_eq!(own["can_create_public_streams"], true);
}

#[test]
fn group_settings_refuse_the_groups_zulip_refuses_and_register_says_which() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let state = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    let supported = &state["server_supported_permission_settings"];
    assert_eq!(supported["realm"]["can_create_web_public_channel_group"]["require_system_group"], true);
    assert_eq!(supported["stream"]["can_send_message_group"]["allow_everyone_group"], true);
    assert_eq!(supported["group"]["can_manage_group"]["default_group_name"], "group_creator");
    assert_eq!(state["realm_can_access_all_users_group"], group_id(&server, &owner, "role:everyone"));

    let internet = json!({"new": group_id(&server, &owner, "role:internet")}).to_string();
    let refused = api
        .patch("/realm", Some(&owner), &[("can_add_custom_emoji_group", internet.as_str())])
        .error(400, "BAD_REQUEST");
    assert_eq!(
        refused["msg"],
        "'can_add_custom_emoji_group' setting cannot be set to 'role:internet' group."
    );
    let everyone = json!({"new": group_id(&server, &owner, "role:everyone")}).to_string();
    let refused = api
        .patch("/realm", Some(&owner), &[("can_create_bots_group", everyone.as_str())])
        .error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "'can_create_bots_group' setting cannot be set to 'role:everyone' group.");
    let members = json!({"new": group_id(&server, &owner, "role:members")}).to_string();
    let refused = api
        .patch("/realm", Some(&owner), &[("can_create_web_public_channel_group", members.as_str())])
        .error(400, "BAD_REQUEST");
    assert_eq!(
        refused["msg"],
        "'can_create_web_public_channel_group' setting cannot be set to 'role:members' group."
    );
}

/// The organization's `*_policy` settings that group settings replaced (feature levels 264 to
/// 352) and `mandatory_topics` (392) are no longer parameters of `PATCH /realm`: Zulip's typed
/// endpoint ignores them like any unknown parameter, names them in
/// `ignored_parameters_unsupported`, and changes nothing, so no event carries them. Channels'
/// `stream_post_policy` and `is_announcement_only` parameters (333) go the same way on
/// `PATCH /streams/{id}` and on subscribe.
#[test]
fn removed_policies_are_ignored_parameters_and_no_event_carries_them() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let queue =
        api.post("/register", Some(&ada), &[("event_types", r#"["realm", "stream", "subscription"]"#)]).ok();
    let removed_realm_policies = [
        "create_public_stream_policy",          // 264
        "create_private_stream_policy",         // 266
        "private_message_policy",               // 270
        "create_web_public_stream_policy",      // 280
        "delete_own_message_policy",            // 291
        "user_group_edit_policy",               // 299
        "add_custom_emoji_policy",              // 307
        "move_messages_between_streams_policy", // 310
        "edit_topic_policy",                    // 316
        "invite_to_realm_policy",               // 321
        "invite_to_stream_policy",              // 341
        "bot_creation_policy",                  // 344
        "wildcard_mention_policy",              // 352
    ];
    for name in removed_realm_policies {
        // Any value: none is read, so none is refused.
        let reply = api.patch("/realm", Some(&owner), &[(name, "6")]).ok();
        assert_eq!(reply["ignored_parameters_unsupported"], json!([name]), "{name}");
    }
    let reply = api.patch("/realm", Some(&owner), &[("mandatory_topics", "true")]).ok();
    assert_eq!(reply["ignored_parameters_unsupported"], json!(["mandatory_topics"]));
    // Beside a setting that still exists, only the removed one is left out.
    let reply = api
        .patch("/realm", Some(&owner), &[("edit_topic_policy", "1"), ("waiting_period_threshold", "2")])
        .ok();
    assert_eq!(reply["ignored_parameters_unsupported"], json!(["edit_topic_policy"]));
    let state = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(state["realm_topics_policy"], "allow_empty_topic", "mandatory_topics changed nothing");
    assert!(state.get("realm_user_group_edit_policy").is_none(), "gone from register since 299");

    // The channel parameters of feature level 333.
    let created = api
        .post(
            "/users/me/subscriptions",
            Some(&owner),
            &[("subscriptions", r#"[{"name": "town"}]"#), ("stream_post_policy", "2")],
        )
        .ok();
    assert_eq!(created["ignored_parameters_unsupported"], json!(["stream_post_policy"]));
    let town = api.get("/get_stream_id", Some(&owner), &[("stream", "town")]).ok()["stream_id"].clone();
    let changes =
        [("description", "Town square"), ("is_announcement_only", "true"), ("stream_post_policy", "2")];
    let reply = api.patch(&format!("/streams/{town}"), Some(&owner), &changes).ok();
    assert_eq!(
        reply["ignored_parameters_unsupported"],
        json!(["is_announcement_only", "stream_post_policy"])
    );
    let events = api.queued(&ada, &queue)["events"].as_array().expect("events").clone();
    let realm_events: Vec<&Value> = events.iter().filter(|e| e["type"] == "realm").collect();
    assert_eq!(realm_events.len(), 1, "only the threshold changed: {realm_events:?}");
    assert_eq!(realm_events[0]["property"], "waiting_period_threshold");
    // The description changed last; the posting policy never did.
    let properties: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "stream" && e["op"] == "update")
        .map(|e| &e["property"])
        .collect();
    assert_eq!(properties.last(), Some(&&json!("description")), "{properties:?}");
    assert!(!properties.iter().any(|p| *p == "stream_post_policy" || *p == "is_announcement_only"));
    let send = [("type", "stream"), ("to", "town"), ("topic", "hello"), ("content", "Members still post")];
    api.post("/messages", Some(&ada), &send).ok();
}

#[test]
fn register_states_the_servers_limits_and_what_it_offers() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let fetch = |types: &str| api.post("/register", Some(&owner), &[("fetch_event_types", types)]).ok();
    let realm = fetch(r#"["realm"]"#);
    // Zulip's `PASSWORD_MAX_LENGTH` (feature level 338).
    assert_eq!(realm["password_max_length"], 100);
    // What old clients read instead of the empty topic (feature level 334).
    assert_eq!(realm["realm_empty_topic_display_name"], "general chat");
    // No summarization model is configured (feature level 350).
    assert_eq!(realm["server_can_summarize_topics"], false);
    // Zulip's `ChannelFolder` limits (feature level 410).
    assert_eq!(realm["max_channel_folder_name_length"], 60);
    assert_eq!(realm["max_channel_folder_description_length"], 1024);
    // These two come with their own event types, as in Zulip, not with `realm`.
    assert!(realm.get("navigation_tour_video_url").is_none(), "{realm}");
    assert!(realm.get("push_devices").is_none(), "{realm}");
    // The navigation tour video is disabled (null), as a server without one says (level 369).
    let onboarding = fetch(r#"["onboarding_steps"]"#);
    assert_eq!(onboarding["navigation_tour_video_url"], Value::Null);
    assert_eq!(onboarding["onboarding_steps"], json!([]));
    // No device is registered for end-to-end encrypted notifications (feature level 406).
    assert_eq!(fetch(r#"["push_device"]"#)["push_devices"], json!({}));
}

#[test]
fn the_deprecated_edit_history_flag_follows_the_visibility_policy() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let allowed = || {
        let state = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["realm"]"#)]).ok();
        (
            state["realm_message_edit_history_visibility_policy"].clone(),
            state["realm_allow_edit_history"].clone(),
        )
    };
    // Feature level 358: `realm_allow_edit_history` is false only when no history is shown.
    assert_eq!(allowed(), (json!("all"), json!(true)));
    for (policy, shown) in [("moves", true), ("none", false), ("all", true)] {
        api.patch("/realm", Some(&owner), &[("message_edit_history_visibility_policy", policy)]).ok();
        assert_eq!(allowed(), (json!(policy), json!(shown)));
    }
}

#[test]
fn the_guest_direct_message_warning_is_on_until_an_administrator_turns_it_off() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let warning = || {
        let state = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["realm"]"#)]).ok();
        state["realm_enable_guest_user_dm_warning"].clone()
    };
    // Feature level 348, Zulip's default.
    assert_eq!(warning(), true);
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["realm"]"#)]).ok();
    let member = api.patch("/realm", Some(&ada), &[("enable_guest_user_dm_warning", "false")]);
    member.error(400, "UNAUTHORIZED_PRINCIPAL");
    api.patch("/realm", Some(&owner), &[("enable_guest_user_dm_warning", "maybe")]).error(400, "BAD_REQUEST");
    api.patch("/realm", Some(&owner), &[("enable_guest_user_dm_warning", "false")]).ok();
    assert_eq!(warning(), false);
    let events = api.queued(&ada, &queue)["events"].clone();
    assert_eq!(events.as_array().map(Vec::len), Some(1), "{events}");
    let event = &events[0];
    assert_eq!(
        (&event["type"], &event["op"], &event["property"], &event["value"]),
        (&json!("realm"), &json!("update"), &json!("enable_guest_user_dm_warning"), &json!(false))
    );
}

#[test]
fn register_keeps_the_deprecated_policies_as_zulip_computes_them() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let realm = [("fetch_event_types", r#"["realm"]"#)];
    let policies = |state: &Value| {
        [
            "realm_create_public_stream_policy",
            "realm_create_private_stream_policy",
            "realm_create_web_public_stream_policy",
            "realm_wildcard_mention_policy",
        ]
        .map(|key| state[key].clone())
    };
    // Zulip's defaults: members (1), members (1), owners only (7), administrators (5, in the
    // wildcard enum). Zulip sends no `realm_edit_topic_policy` since feature level 316.
    let state = api.post("/register", Some(&owner), &realm).ok();
    assert_eq!(policies(&state), [json!(1), json!(1), json!(7), json!(5)]);
    assert!(state.get("realm_edit_topic_policy").is_none());

    let set = |setting: &str, group: &str| {
        let change = json!({"new": group_id(&server, &owner, group)}).to_string();
        api.patch("/realm", Some(&owner), &[(setting, change.as_str())]).ok();
    };
    set("can_create_public_channel_group", "role:fullmembers");
    set("can_create_private_channel_group", "role:moderators");
    set("can_create_web_public_channel_group", "role:nobody");
    set("can_mention_many_users_group", "role:moderators");
    let state = api.post("/register", Some(&owner), &realm).ok();
    assert_eq!(policies(&state), [json!(3), json!(4), json!(6), json!(7)]);

    // A group the old enums had no value for reads as the largest group they allowed: members,
    // moderators for web-public channels, everyone for wildcard mentions.
    set("can_create_public_channel_group", "role:owners");
    set("can_create_web_public_channel_group", "role:administrators");
    set("can_mention_many_users_group", "role:owners");
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let anonymous =
        json!({"new": {"direct_members": [api.user_id(&ada)], "direct_subgroups": []}}).to_string();
    api.patch("/realm", Some(&owner), &[("can_create_private_channel_group", anonymous.as_str())]).ok();
    let state = api.post("/register", Some(&ada), &realm).ok();
    assert_eq!(policies(&state), [json!(1), json!(1), json!(2), json!(1)]);
}

#[test]
fn who_may_summarize_topics_is_a_group_setting_though_no_summaries_exist() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["realm"]"#)]).ok();
    let realm = [("fetch_event_types", r#"["realm"]"#)];
    let state = api.post("/register", Some(&ada), &realm).ok();
    let everyone = group_id(&server, &owner, "role:everyone");
    assert_eq!(state["realm_can_summarize_topics_group"], everyone);
    assert_eq!(state["server_can_summarize_topics"], false);
    let rules = &state["server_supported_permission_settings"]["realm"]["can_summarize_topics_group"];
    assert_eq!(rules["allow_everyone_group"], true);
    assert_eq!(rules["default_group_name"], "role:everyone");

    let members = group_id(&server, &owner, "role:members");
    let change = json!({"new": members, "old": everyone}).to_string();
    let refused = api.patch("/realm", Some(&ada), &[("can_summarize_topics_group", change.as_str())]);
    refused.error(400, "UNAUTHORIZED_PRINCIPAL");
    let internet = json!({"new": group_id(&server, &owner, "role:internet")}).to_string();
    let refused = api
        .patch("/realm", Some(&owner), &[("can_summarize_topics_group", internet.as_str())])
        .error(400, "BAD_REQUEST");
    assert_eq!(
        refused["msg"],
        "'can_summarize_topics_group' setting cannot be set to 'role:internet' group."
    );
    api.patch("/realm", Some(&owner), &[("can_summarize_topics_group", change.as_str())]).ok();

    let events = api.queued(&ada, &queue)["events"].clone();
    assert_eq!(events.as_array().map(Vec::len), Some(1));
    assert_eq!(events[0]["op"], "update_dict");
    assert_eq!(events[0]["data"], json!({"can_summarize_topics_group": members}));
    let state = api.post("/register", Some(&ada), &realm).ok();
    assert_eq!(state["realm_can_summarize_topics_group"], members);
}

#[test]
fn e2ee_push_notifications_may_be_required_without_a_push_service() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let queue = api.post("/register", Some(&owner), &[("event_types", r#"["realm"]"#)]).ok();
    let realm = [("fetch_event_types", r#"["realm"]"#)];
    assert_eq!(
        api.post("/register", Some(&owner), &realm).ok()["realm_require_e2ee_push_notifications"],
        false
    );
    let bad = api.patch("/realm", Some(&owner), &[("require_e2ee_push_notifications", "maybe")]);
    bad.error(400, "BAD_REQUEST");
    api.patch("/realm", Some(&owner), &[("require_e2ee_push_notifications", "true")]).ok();
    let events = api.queued(&owner, &queue)["events"].clone();
    assert_eq!(
        events[0],
        json!({"type": "realm", "op": "update", "property": "require_e2ee_push_notifications", "value": true, "id": events[0]["id"]})
    );
    assert_eq!(
        api.post("/register", Some(&owner), &realm).ok()["realm_require_e2ee_push_notifications"],
        true
    );
}

#[test]
fn the_welcome_message_text_is_a_setting_an_administrator_can_try_out() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["realm"]"#)]).ok();
    let realm = [("fetch_event_types", r#"["realm"]"#)];
    assert_eq!(api.post("/register", Some(&ada), &realm).ok()["realm_welcome_message_custom_text"], "");

    let long = "x".repeat(8001);
    let refused = api
        .patch("/realm", Some(&owner), &[("welcome_message_custom_text", long.as_str())])
        .error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "welcome_message_custom_text is too long (limit: 8000 characters)");
    api.patch("/realm", Some(&ada), &[("welcome_message_custom_text", "Hi")])
        .error(400, "UNAUTHORIZED_PRINCIPAL");
    let text = "Welcome! Read **#rules** first.";
    api.patch("/realm", Some(&owner), &[("welcome_message_custom_text", text)]).ok();
    let events = api.queued(&ada, &queue)["events"].clone();
    assert_eq!(events[0]["property"], "welcome_message_custom_text");
    assert_eq!(events[0]["value"], text);
    assert_eq!(api.post("/register", Some(&ada), &realm).ok()["realm_welcome_message_custom_text"], text);

    // Trying it out: Zulip's Welcome Bot sends it to the administrator; Confab's sender is its
    // Notification Bot.
    let path = "/realm/test_welcome_bot_custom_message";
    let empty =
        api.post(path, Some(&owner), &[("welcome_message_custom_text", "")]).error(400, "BAD_REQUEST");
    assert_eq!(empty["msg"], "Message must not be empty");
    let too_long = api.post(path, Some(&owner), &[("welcome_message_custom_text", long.as_str())]);
    assert_eq!(
        too_long.error(400, "BAD_REQUEST")["msg"],
        "welcome_message_custom_text is too long (limit: 8000 characters)"
    );
    api.post(path, Some(&ada), &[("welcome_message_custom_text", "Hi")]).error(400, "UNAUTHORIZED_PRINCIPAL");
    api.post(path, Some(&owner), &[]).error(400, "REQUEST_VARIABLE_MISSING");
    let sent = api.post(path, Some(&owner), &[("welcome_message_custom_text", text)]).ok();
    let id = sent["message_id"].as_u64().expect("a message id");
    let message = api.get(&format!("/messages/{id}"), Some(&owner), &[]).ok()["message"].clone();
    assert_eq!(message["sender_email"], "notification-bot@confab.invalid");
    assert_eq!(message["type"], "private");
    assert_eq!(message["display_recipient"].as_array().map(Vec::len), Some(2));
    assert!(message["content"].as_str().is_some_and(|c| c.contains("<strong>")), "{message}");
}

/// `/calls/*` answer as a Zulip server with no video-call integration configured (feature
/// levels 337 and 353): Zoom refuses in Zulip's words; BigBlueButton's create answers a join
/// link, as Zulip's does whatever its settings, and the link then says BigBlueButton is not
/// configured.
#[test]
fn video_calls_answer_as_a_server_without_integrations() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let reply = api.post("/calls/zoom/create", Some(&owner), &[("is_video_call", "false")]);
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "Zoom credentials have not been configured");
    let reply = api.post("/calls/zoom/create", Some(&owner), &[("is_video_call", "maybe")]);
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "is_video_call is not valid JSON");

    let reply = api.post("/calls/bigbluebutton/create", Some(&owner), &[]);
    assert_eq!(reply.error(400, "REQUEST_VARIABLE_MISSING")["msg"], "Missing 'meeting_name' argument");
    let params = [("meeting_name", "Standup"), ("voice_only", "true")];
    let made = api.post("/calls/bigbluebutton/create", Some(&owner), &params).ok();
    let url = made["url"].as_str().expect("url");
    assert!(url.starts_with("/calls/bigbluebutton/join?bigbluebutton="), "{url}");
    let joined = reqwest::blocking::get(format!("{}{url}", server.base_url)).expect("answered");
    assert_eq!(joined.status().as_u16(), 400);
    let body: Value = joined.json().expect("json");
    assert_eq!(body["msg"], "BigBlueButton is not configured.");
    api.post("/calls/bigbluebutton/create", None, &params).error(401, "UNAUTHORIZED");
}
