//! A user's own settings (`PATCH /settings`): checked by type and choice, kept across
//! restarts, shown by register (in `user_settings`, and at top level for older clients), and
//! told to the user's clients in the modern and the legacy event forms.

use confab_tests::TestServer;
use serde_json::{Value, json};

#[test]
fn settings_are_checked_saved_and_announced() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let modern = api
        .post(
            "/register",
            Some(&owner),
            &[
                ("event_types", r#"["user_settings", "update_display_settings"]"#),
                ("client_capabilities", r#"{"user_settings_object": true}"#),
            ],
        )
        .ok();
    let legacy = api
        .post(
            "/register",
            Some(&owner),
            &[("event_types", r#"["user_settings", "update_display_settings"]"#)],
        )
        .ok();

    api.patch("/settings", Some(&owner), &[("twenty_four_hour_time", "true"), ("emojiset", "twitter")]).ok();
    let refused = api.patch("/settings", Some(&owner), &[("emojiset", "comic")]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Invalid emojiset");
    api.patch("/settings", Some(&owner), &[("color_scheme", "9")]).error(400, "BAD_REQUEST");
    api.patch("/settings", Some(&owner), &[("enter_sends", "yes")]).error(400, "BAD_REQUEST");
    let unknown = api.patch("/settings", Some(&owner), &[("favourite_colour", "blue")]).ok();
    assert_eq!(unknown["ignored_parameters_unsupported"], json!(["favourite_colour"]));

    let server = server.start_again_after_terminate();
    let api = server.api();
    let state = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["user_settings"]"#)]).ok();
    assert_eq!(state["user_settings"]["twenty_four_hour_time"], true);
    assert_eq!(state["user_settings"]["emojiset"], "twitter");
    assert_eq!(state["twenty_four_hour_time"], true, "legacy clients read it at top level");

    let events = |queue: &Value| -> Vec<Value> {
        let got = api.queued(&owner, queue);
        got["events"]
            .as_array()
            .expect("events")
            .iter()
            .map(|e| json!([e["type"], e["property"].as_str().or(e["setting_name"].as_str())]))
            .collect()
    };
    assert_eq!(
        events(&modern),
        vec![json!(["user_settings", "emojiset"]), json!(["user_settings", "twenty_four_hour_time"])]
    );
    assert_eq!(
        events(&legacy),
        vec![
            json!(["user_settings", "emojiset"]),
            json!(["update_display_settings", "emojiset"]),
            json!(["user_settings", "twenty_four_hour_time"]),
            json!(["update_display_settings", "twenty_four_hour_time"]),
        ]
    );
}

#[test]
fn the_name_and_time_zone_change_the_user_record() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    api.patch("/settings", Some(&owner), &[("full_name", "Grace Hopper"), ("timezone", "America/New_York")])
        .ok();
    let me = api.get("/users/me", Some(&owner), &[]).ok();
    assert_eq!(me["full_name"], "Grace Hopper");
    assert_eq!(me["timezone"], "America/New_York");
    api.patch("/settings", Some(&owner), &[("full_name", "")]).error(400, "BAD_REQUEST");
    api.patch("/settings", Some(&owner), &[("timezone", "Mars; rm -rf")]).error(400, "BAD_REQUEST");
}

#[test]
fn time_zones_are_iana_names_stored_as_their_zone_and_shown_to_everyone() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].clone();
    let watcher = api.post("/register", Some(&owner), &[("event_types", r#"["realm_user"]"#)]).ok();
    let own = api.post("/register", Some(&ada), &[("event_types", r#"["user_settings"]"#)]).ok();

    // A link of the database is stored as the zone it stands for, as Zulip does.
    api.patch("/settings", Some(&ada), &[("timezone", "Asia/Calcutta")]).ok();
    assert_eq!(api.get("/users/me", Some(&ada), &[]).ok()["timezone"], "Asia/Kolkata");
    let events = api.queued(&owner, &watcher)["events"].clone();
    assert_eq!(
        events[0],
        json!({"id": events[0]["id"], "type": "realm_user", "op": "update",
               "person": {"email": "ada@example.com", "user_id": ada_id, "timezone": "Asia/Kolkata"}})
    );
    let events = api.queued(&ada, &own)["events"].clone();
    assert_eq!(events[0]["property"], "timezone");
    assert_eq!(events[0]["value"], "Asia/Kolkata");
    // Setting the same zone again changes nothing and tells no one.
    api.patch("/settings", Some(&ada), &[("timezone", "Asia/Kolkata")]).ok();
    assert_eq!(api.queued(&owner, &watcher)["events"].as_array().map(Vec::len), Some(1));

    for bad in ["Mars/Olympus_Mons", "", "asia/kolkata", "Asia/Kolkata "] {
        let refused = api.patch("/settings", Some(&ada), &[("timezone", bad)]).error(400, "BAD_REQUEST");
        assert_eq!(refused["msg"], "Invalid timezone", "{bad:?}");
    }
    let state = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["realm_user"]"#)]).ok();
    let shown =
        state["realm_users"].as_array().expect("users").iter().find(|u| u["user_id"] == ada_id).cloned();
    assert_eq!(shown.expect("ada")["timezone"], "Asia/Kolkata");
}

#[test]
fn email_address_visibility_decides_who_sees_the_real_email() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let mo = api.create_user(&owner, "mo@example.com", "Mo");
    let gil = api.create_user(&owner, "gil@example.com", "Gil");
    let id_of = |who: &confab_tests::Creds| {
        api.get("/users/me", Some(who), &[]).ok()["user_id"].as_u64().expect("id")
    };
    let (ada_id, mo_id, gil_id) = (id_of(&ada), id_of(&mo), id_of(&gil));
    api.patch(&format!("/users/{mo_id}"), Some(&owner), &[("role", "300")]).ok();
    api.patch(&format!("/users/{gil_id}"), Some(&owner), &[("role", "600")]).ok();
    let register = |who: &confab_tests::Creds| {
        api.post("/register", Some(who), &[("event_types", r#"["realm_user"]"#)]).ok()
    };
    let (owner_queue, bob_queue) = (register(&owner), register(&bob));
    let seen_by =
        |who: &confab_tests::Creds| api.get(&format!("/users/{ada_id}"), Some(who), &[]).ok()["user"].clone();
    assert_eq!(seen_by(&gil)["delivery_email"], "ada@example.com", "everyone sees it by default");

    // Administrators only: the others see null and a stand-in API email.
    api.patch("/settings", Some(&ada), &[("email_address_visibility", "3")]).ok();
    let stand_in = format!("user{ada_id}@127.0.0.1");
    for (who, real) in [(&owner, true), (&mo, false), (&bob, false), (&gil, false), (&ada, true)] {
        let shown = seen_by(who);
        assert_eq!(shown["email"], stand_in.as_str());
        let expected = if real { json!("ada@example.com") } else { Value::Null };
        assert_eq!(shown["delivery_email"], expected, "as seen by {}", who.email);
    }
    let me = api.get("/users/me", Some(&ada), &[]).ok();
    assert_eq!(
        (me["email"].clone(), me["delivery_email"].clone()),
        (json!(stand_in), json!("ada@example.com"))
    );
    let state = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["user_settings"]"#)]).ok();
    assert_eq!(state["user_settings"]["email_address_visibility"], 3);

    let person = |events: &Value, at: usize| events[at]["person"].clone();
    let events = api.queued(&owner, &owner_queue)["events"].clone();
    assert_eq!(events.as_array().map(Vec::len), Some(1), "the owner could see it and still can");
    assert_eq!(person(&events, 0), json!({"user_id": ada_id, "new_email": stand_in}));
    let events = api.queued(&bob, &bob_queue)["events"].clone();
    assert_eq!(person(&events, 0), json!({"user_id": ada_id, "delivery_email": null}));
    assert_eq!(person(&events, 1), json!({"user_id": ada_id, "new_email": stand_in}));

    // Messages show the API email; the real one still logs in and names no one else.
    api.subscribe(&owner, &["general"], &[stand_in.as_str(), "bob@example.com"]);
    let sent = api.post(
        "/messages",
        Some(&ada),
        &[("type", "stream"), ("to", "general"), ("topic", "t"), ("content", "hi")],
    );
    let message = sent.ok()["id"].as_u64().expect("id");
    let shown = api.get(&format!("/messages/{message}"), Some(&bob), &[]).ok();
    assert_eq!(shown["message"]["sender_email"], stand_in.as_str());
    let key = api
        .post("/fetch_api_key", None, &[("username", "ada@example.com"), ("password", "s3cret-pass")])
        .ok();
    assert_eq!(key["email"], "ada@example.com");
    let to_stand_in = json!([stand_in]).to_string();
    api.post(
        "/messages",
        Some(&bob),
        &[("type", "private"), ("to", to_stand_in.as_str()), ("content", "hey")],
    )
    .ok();
    api.post(
        "/messages",
        Some(&bob),
        &[("type", "private"), ("to", r#"["ada@example.com"]"#), ("content", "x")],
    )
    .error(400, "BAD_REQUEST");
    api.get("/users/ada@example.com", Some(&owner), &[]).ok();
    assert_eq!(
        api.get("/users/ada@example.com", Some(&bob), &[]).error(400, "BAD_REQUEST")["msg"],
        "No such user"
    );
    api.get(&format!("/users/{stand_in}"), Some(&bob), &[]).ok();

    // Moderators, then members: each role sees what Zulip lets it see.
    api.patch("/settings", Some(&ada), &[("email_address_visibility", "5")]).ok();
    assert_eq!(seen_by(&mo)["delivery_email"], "ada@example.com");
    assert_eq!(seen_by(&bob)["delivery_email"], Value::Null);
    api.patch("/settings", Some(&ada), &[("email_address_visibility", "2")]).ok();
    assert_eq!(seen_by(&bob)["delivery_email"], "ada@example.com");
    assert_eq!(seen_by(&gil)["delivery_email"], Value::Null);
    api.patch("/settings", Some(&ada), &[("email_address_visibility", "4")]).ok();
    assert_eq!(seen_by(&owner)["delivery_email"], Value::Null);

    // Back to everyone: the real email is the API email again.
    api.queued(&bob, &bob_queue);
    api.patch("/settings", Some(&ada), &[("email_address_visibility", "1")]).ok();
    assert_eq!(seen_by(&bob)["email"], "ada@example.com");
    let events = api.queued(&bob, &bob_queue)["events"].clone();
    let last = events.as_array().expect("events").len();
    assert_eq!(person(&events, last - 2), json!({"user_id": ada_id, "delivery_email": "ada@example.com"}));
    assert_eq!(person(&events, last - 1), json!({"user_id": ada_id, "new_email": "ada@example.com"}));
    let refused =
        api.patch("/settings", Some(&ada), &[("email_address_visibility", "6")]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Invalid email_address_visibility");
}

/// The personal settings Zulip added from feature level 268 to 329 start at Zulip's defaults,
/// take only Zulip's choices, and change like every other setting.
#[test]
fn the_settings_of_levels_268_to_329_have_zulips_defaults_and_choices() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let queue = api
        .post(
            "/register",
            Some(&owner),
            &[
                ("event_types", r#"["user_settings"]"#),
                ("client_capabilities", r#"{"user_settings_object": true}"#),
            ],
        )
        .ok();
    let fetch = [("fetch_event_types", r#"["user_settings"]"#)];
    let settings = api.post("/register", Some(&owner), &fetch).ok()["user_settings"].clone();
    assert_eq!(settings["web_navigate_to_sent_message"], true, "268");
    assert_eq!(settings["web_channel_default_view"], 1, "269: the first topic");
    assert_eq!(settings["web_animate_image_previews"], "on_hover", "275");
    assert_eq!(settings["allow_private_data_export"], false, "293");
    assert_eq!(settings["web_suggest_update_timezone"], true, "329");

    // Four channel views since feature level 401; nothing else.
    for view in ["1", "2", "3", "4"] {
        api.patch("/settings", Some(&owner), &[("web_channel_default_view", view)]).ok();
    }
    let refused = |name: &str, value: &str| {
        api.patch("/settings", Some(&owner), &[(name, value)]).error(400, "BAD_REQUEST")["msg"].clone()
    };
    assert_eq!(refused("web_channel_default_view", "5"), "Invalid web_channel_default_view");
    assert_eq!(refused("web_channel_default_view", "0"), "Invalid web_channel_default_view");
    assert_eq!(refused("web_animate_image_previews", "sometimes"), "Invalid web_animate_image_previews");
    assert_eq!(refused("allow_private_data_export", "yes"), "allow_private_data_export is not valid JSON");
    let changes = [
        ("web_navigate_to_sent_message", "false"),
        ("web_animate_image_previews", "always"),
        ("allow_private_data_export", "true"),
        ("web_suggest_update_timezone", "false"),
    ];
    let reply = api.patch("/settings", Some(&owner), &changes).ok();
    assert!(reply.get("ignored_parameters_unsupported").is_none(), "{reply}");

    let settings = api.post("/register", Some(&owner), &fetch).ok()["user_settings"].clone();
    assert_eq!(settings["web_navigate_to_sent_message"], false);
    assert_eq!(settings["web_channel_default_view"], 4);
    assert_eq!(settings["web_animate_image_previews"], "always");
    assert_eq!(settings["allow_private_data_export"], true);
    assert_eq!(settings["web_suggest_update_timezone"], false);
    let mut told: Vec<Value> = api.queued(&owner, &queue)["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| json!([e["property"], e["value"]]))
        .collect();
    told.sort_by_key(Value::to_string);
    let mut expected = vec![
        json!(["web_channel_default_view", 2]),
        json!(["web_channel_default_view", 3]),
        json!(["web_channel_default_view", 4]),
        json!(["web_navigate_to_sent_message", false]),
        json!(["web_animate_image_previews", "always"]),
        json!(["allow_private_data_export", true]),
        json!(["web_suggest_update_timezone", false]),
    ];
    expected.sort_by_key(Value::to_string);
    assert_eq!(told, expected, "setting view 1 again changed nothing");
}

/// Onboarding: register's `onboarding_steps` holds only one-time notices (feature level 259),
/// none here, as on a Zulip server with the tutorial off; the old tutorial endpoint is gone
/// (282) and answers as any unknown endpoint does.
#[test]
fn onboarding_has_no_tutorial() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let state = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["onboarding_steps"]"#)]).ok();
    assert_eq!(state["onboarding_steps"], json!([]));
    assert!(state.get("hotspots").is_none(), "{state}");
    let gone = api
        .post("/users/me/tutorial_status", Some(&owner), &[("status", "finished")])
        .error(404, "BAD_REQUEST");
    assert_eq!(gone["msg"], "Invalid API endpoint");
}

#[test]
fn newer_web_settings_have_zulips_defaults_and_choices() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let settings = || {
        let state =
            api.post("/register", Some(&owner), &[("fetch_event_types", r#"["user_settings"]"#)]).ok();
        let settings = &state["user_settings"];
        [
            "hide_ai_features",
            "web_channel_default_view",
            "web_left_sidebar_unreads_count_summary",
            "web_left_sidebar_show_channel_folders",
        ]
        .map(|name| settings[name].clone())
    };
    // hide_ai_features (feature level 350), the channel view (1: the first topic), the
    // left sidebar's unread summary (398) and channel folders (411).
    assert_eq!(settings(), [json!(false), json!(1), json!(true), json!(true)]);

    let queue = api.post("/register", Some(&owner), &[("event_types", r#"["user_settings"]"#)]).ok();
    // 3, the list of topics (feature level 383), and 4, the top unread topic (401).
    for view in ["3", "4"] {
        api.patch("/settings", Some(&owner), &[("web_channel_default_view", view)]).ok();
    }
    let refused = api.patch("/settings", Some(&owner), &[("web_channel_default_view", "5")]);
    assert_eq!(refused.error(400, "BAD_REQUEST")["msg"], "Invalid web_channel_default_view");
    api.patch("/settings", Some(&owner), &[("hide_ai_features", "sometimes")]).error(400, "BAD_REQUEST");
    let changes = [
        ("hide_ai_features", "true"),
        ("web_left_sidebar_unreads_count_summary", "false"),
        ("web_left_sidebar_show_channel_folders", "false"),
    ];
    api.patch("/settings", Some(&owner), &changes).ok();
    assert_eq!(settings(), [json!(true), json!(4), json!(false), json!(false)]);

    let events = api.queued(&owner, &queue);
    let changed: Vec<Value> = events["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| json!([e["type"], e["op"], e["property"], e["value"]]))
        .collect();
    assert_eq!(
        changed,
        vec![
            json!(["user_settings", "update", "web_channel_default_view", 3]),
            json!(["user_settings", "update", "web_channel_default_view", 4]),
            json!(["user_settings", "update", "hide_ai_features", true]),
            json!(["user_settings", "update", "web_left_sidebar_show_channel_folders", false]),
            json!(["user_settings", "update", "web_left_sidebar_unreads_count_summary", false]),
        ]
    );
}

/// `dense_mode` was removed at feature level 364 (the font size and line height replaced it):
/// register has it nowhere and `PATCH /settings` ignores it, as Zulip does.
#[test]
fn dense_mode_is_gone() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let changed = api.patch("/settings", Some(&owner), &[("dense_mode", "false")]).ok();
    assert_eq!(changed["ignored_parameters_unsupported"], json!(["dense_mode"]));
    let state = api
        .post(
            "/register",
            Some(&owner),
            &[("fetch_event_types", r#"["user_settings", "update_display_settings"]"#)],
        )
        .ok();
    assert!(state["user_settings"].get("dense_mode").is_none(), "{}", state["user_settings"]);
    assert!(state.get("dense_mode").is_none());
}

/// Zulip's password change: `new_password` with the right `old_password`, a strong enough new
/// one, and the old password's attempts counted as logins are (5 per 30 minutes per username).
/// The API key stays.
#[test]
fn a_user_changes_their_password_with_the_old_one() {
    // Limited as any client is, so that the attempts count.
    let server = TestServer::start_rate_limited(env!("CARGO_BIN_EXE_confab-under-test"), &[]);
    let owner = server.owner();
    let old = server.owner_password.clone().expect("the owner's password");
    let api = server.api();
    let change = |old_password: &str, new_password: &str| {
        api.patch(
            "/settings",
            Some(&owner),
            &[("old_password", old_password), ("new_password", new_password)],
        )
    };
    let login = |password: &str| {
        api.post("/fetch_api_key", None, &[("username", owner.email.as_str()), ("password", password)])
    };

    assert_eq!(
        change("not it", "a new and long password").error(400, "BAD_REQUEST")["msg"],
        "Wrong password!"
    );
    assert_eq!(change(&old, "abc").error(400, "BAD_REQUEST")["msg"], "New password is too weak!");
    let changed = change(&old, "a new and long password").ok();
    assert!(changed.get("ignored_parameters_unsupported").is_none(), "{changed}");
    assert_eq!(login("a new and long password").ok()["api_key"], owner.api_key.as_str(), "the key stays");
    login(&old).error(401, "AUTHENTICATION_FAILED");

    // The login above failed once; four more wrong old passwords use up the five attempts.
    for _ in 0..4 {
        assert_eq!(
            change("guess", "another long password").error(400, "BAD_REQUEST")["msg"],
            "Wrong password!"
        );
    }
    let limited = change("a new and long password", "another long password").error(400, "BAD_REQUEST");
    let msg = limited["msg"].as_str().expect("msg");
    assert!(msg.starts_with("You're making too many attempts! Try again in "), "{msg}");
    // Other settings change without a password.
    api.patch("/settings", Some(&owner), &[("full_name", "Owner Renamed")]).ok();
}
