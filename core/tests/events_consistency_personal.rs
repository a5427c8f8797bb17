//! Every mutation's events keep a client's state right (see `support::consistency`).
//! A user's own records: drafts, snippets, navigation views, muting.

mod support;

use confab_core::api;
use confab_core::store::Store as _;
use serde_json::Value;
use support::consistency::{check, run, state, world};
use support::params;

#[test]
fn drafts_snippets_and_navigation_views() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let register = &[("event_types", r#"["drafts", "saved_snippets", "navigation_view"]"#)];
    let drafts = r#"[{"type": "", "to": [], "topic": "", "content": "someday"}, {"type": "", "to": [], "topic": "", "content": "later"}]"#;
    check(
        &mut w,
        "ada@example.com",
        register,
        run(api::drafts::create_drafts, ada.clone(), &[("drafts", drafts)]),
    );
    let draft = w.store.records(ada.user.id, confab_core::model::RecordKind::Draft).expect("drafts")[0].0;
    let edited = r#"{"type": "", "to": [], "topic": "", "content": "tomorrow"}"#;
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, now| api::drafts::edit_draft(s, a, draft, p, now),
            ada.clone(),
            &[("draft", edited)],
        ),
    );
    check(
        &mut w,
        "ada@example.com",
        register,
        run(move |s, a, _, _| api::drafts::delete_draft(s, a, draft), ada.clone(), &[]),
    );
    let snippet = [("title", "Hi"), ("content", "Hello")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(api::saved_snippets::create_saved_snippet, ada.clone(), &snippet),
    );
    let snippet_id =
        w.store.records(ada.user.id, confab_core::model::RecordKind::SavedSnippet).expect("snippets")[0].0;
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, _| api::saved_snippets::edit_saved_snippet(s, a, snippet_id, p),
            ada.clone(),
            &[("content", "Hey")],
        ),
    );
    let view = [("fragment", "narrow/is/starred"), ("is_pinned", "true")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(|s, a, p, _| api::navigation_views::add_navigation_view(s, a, p), ada.clone(), &view),
    );
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::navigation_views::update_navigation_view(s, a, "narrow/is/starred", p),
            ada.clone(),
            &[("is_pinned", "false")],
        ),
    );
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, _, _| api::navigation_views::remove_navigation_view(s, a, "narrow/is/starred"),
            ada.clone(),
            &[],
        ),
    );

    // Turning synchronization off makes the server forget the drafts it kept, without events
    // for each: clients keep their own.
    let kept = r#"[{"type": "", "to": [], "topic": "", "content": "kept"}]"#;
    w.run(|s, now| api::drafts::create_drafts(s, &ada, &params(&[("drafts", kept)]), now)).expect("draft");
    let with_settings = &[("event_types", r#"["drafts", "user_settings"]"#)];
    let off = [("enable_drafts_synchronization", "false")];
    check(
        &mut w,
        "ada@example.com",
        with_settings,
        run(|s, a, p, _| api::settings::update_settings(s, a, p), ada.clone(), &off),
    );
    assert!(w.store.records(ada.user.id, confab_core::model::RecordKind::Draft).expect("drafts").is_empty());
}

#[test]
fn muting_users_and_topics() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let bob_id = w.user_id("bob@example.com");
    let register = &[(
        "event_types",
        r#"["muted_users", "user_topic", "muted_topics", "message", "update_message_flags"]"#,
    )];
    check(&mut w, "ada@example.com", register, move |s, now| {
        api::muted_users::mute_user(s, &ada, bob_id, now)
    });
    let ada = w.actor("ada@example.com");
    let general = w.store.stream_by_name(w.realm, "general").ok().flatten().expect("general").to_string();
    for policy in ["1", "3", "0"] {
        let pairs = [("stream_id", general.as_str()), ("topic", "hello"), ("visibility_policy", policy)];
        check(
            &mut w,
            "ada@example.com",
            register,
            run(api::user_topics::update_user_topic, ada.clone(), &pairs),
        );
    }
    let legacy = [("event_types", r#"["muted_topics"]"#)];
    let mute = [("stream", "general"), ("topic", "hello"), ("op", "add")];
    check(&mut w, "ada@example.com", &legacy, run(api::user_topics::mute_topic, ada.clone(), &mute));
    check(&mut w, "ada@example.com", register, move |s, _| api::muted_users::unmute_user(s, &ada, bob_id));
}

#[test]
fn removing_alert_words_snippets_and_reminders() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let register = &[("event_types", r#"["alert_words", "saved_snippets", "reminders"]"#)];
    let words = params(&[("alert_words", r#"["lunch", "coffee"]"#)]);
    w.run(|s, _| api::alert_words::add_alert_words(s, &ada, &words)).expect("words");
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::alert_words::remove_alert_words(s, a, p),
            ada.clone(),
            &[("alert_words", r#"["lunch"]"#)],
        ),
    );
    let snippet = params(&[("title", "Hi"), ("content", "Hello")]);
    w.run(|s, now| api::saved_snippets::create_saved_snippet(s, &ada, &snippet, now)).expect("snippet");
    let snippet =
        w.store.records(ada.user.id, confab_core::model::RecordKind::SavedSnippet).expect("snippets")[0].0;
    check(
        &mut w,
        "ada@example.com",
        register,
        run(move |s, a, _, _| api::saved_snippets::delete_saved_snippet(s, a, snippet), ada.clone(), &[]),
    );
    let message = w.stream("bob@example.com", "general", "hello", "remind me").to_string();
    let at = (w.now + 1_000).to_string();
    let reminder = params(&[("message_id", &message), ("scheduled_delivery_timestamp", &at)]);
    let reply =
        w.run(|s, now| api::reminders::create_message_reminder(s, &ada, &reminder, now)).expect("reminder");
    let reminder = confab_core::ids::ScheduledMessageId(reply["reminder_id"].as_u64().expect("id"));
    check(
        &mut w,
        "ada@example.com",
        register,
        run(move |s, a, _, _| api::reminders::delete_reminder(s, a, reminder), ada, &[]),
    );
}

#[test]
fn every_topic_visibility_policy() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let general = w.store.stream_by_name(w.realm, "general").ok().flatten().expect("general").to_string();
    // Unread for Ada: a message, and a mention (a direct one: how muting changes a wildcard
    // mention is beyond what register's shape can follow, see `apply_event`).
    w.stream("owner@example.com", "general", "plans", "unread for Ada");
    w.stream("owner@example.com", "general", "plans", "@**Ada Lovelace** and a mention");
    // Muting the channel makes unmuting a topic mean something.
    let muted = format!(r#"[{{"stream_id": {general}, "property": "is_muted", "value": true}}]"#);
    let p = params(&[("subscription_data", &muted)]);
    w.run(|s, _| api::subscription_properties::update_subscription_settings(s, &ada, &p)).expect("muted");
    let register = &[("event_types", r#"["user_topic", "message", "update_message_flags", "subscription"]"#)];
    for policy in ["2", "3", "1", "0", "3", "2"] {
        let pairs = [("stream_id", general.as_str()), ("topic", "Plans"), ("visibility_policy", policy)];
        check(
            &mut w,
            "ada@example.com",
            register,
            run(api::user_topics::update_user_topic, ada.clone(), &pairs),
        );
    }
    // Legacy clients know muted topics only: back to a plain topic in an unmuted channel.
    let inherit = params(&[("stream_id", &general), ("topic", "plans"), ("visibility_policy", "0")]);
    let now = w.now;
    w.run(|s, _| api::user_topics::update_user_topic(s, &ada, &inherit, now)).expect("inherit");
    let unmuted = format!(r#"[{{"stream_id": {general}, "property": "is_muted", "value": false}}]"#);
    let p = params(&[("subscription_data", &unmuted)]);
    w.run(|s, _| api::subscription_properties::update_subscription_settings(s, &ada, &p)).expect("unmuted");
    let legacy = [("event_types", r#"["muted_topics", "message", "update_message_flags", "subscription"]"#)];
    for op in ["add", "remove"] {
        let pairs = [("stream", "general"), ("topic", "plans"), ("op", op)];
        check(&mut w, "ada@example.com", &legacy, run(api::user_topics::mute_topic, ada.clone(), &pairs));
    }
}

#[test]
fn legacy_settings_for_older_clients() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let legacy = r#"{"notification_settings_null": false, "user_settings_object": false}"#;
    for event_types in [
        r#"["update_display_settings", "update_global_notifications"]"#,
        r#"["user_settings", "update_display_settings", "update_global_notifications"]"#,
        r#"["user_settings"]"#,
    ] {
        let register = [("event_types", event_types), ("client_capabilities", legacy)];
        for pairs in [
            [("twenty_four_hour_time", "true")],
            [("enable_sounds", "false")],
            [("timezone", "Europe/Paris")],
            [("web_font_size_px", "16")],
        ] {
            let events = check(
                &mut w,
                "ada@example.com",
                &register,
                run(|s, a, p, _| api::settings::update_settings(s, a, p), ada.clone(), &pairs),
            );
            // Settings newer than feature level 89 have no legacy event.
            let has_legacy = pairs[0].0 != "web_font_size_px";
            assert_eq!(!events.is_empty(), has_legacy || event_types.contains("user_settings"), "{pairs:?}");
        }
        // Back to the defaults for the next client.
        let p = params(&[
            ("twenty_four_hour_time", "false"),
            ("enable_sounds", "true"),
            ("timezone", "UTC"),
            ("web_font_size_px", "14"),
        ]);
        w.run(|s, _| api::settings::update_settings(s, &ada, &p)).expect("defaults");
    }
}

#[test]
fn channel_notification_settings_with_and_without_null() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let general = w.store.stream_by_name(w.realm, "general").ok().flatten().expect("general");
    // Ada wants desktop and email notifications for channel messages: what her unset channel
    // settings stand for.
    let p = params(&[
        ("enable_stream_desktop_notifications", "true"),
        ("enable_stream_email_notifications", "true"),
    ]);
    w.run(|s, _| api::settings::update_settings(s, &ada, &p)).expect("settings");
    for null in ["true", "false"] {
        let capabilities = format!(r#"{{"notification_settings_null": {null}}}"#);
        let register = [
            ("event_types", r#"["subscription", "stream"]"#),
            ("client_capabilities", capabilities.as_str()),
        ];
        for value in ["true", "false"] {
            let data = format!(
                r#"[{{"stream_id": {general}, "property": "desktop_notifications", "value": {value}}}]"#
            );
            check(
                &mut w,
                "ada@example.com",
                &register,
                run(
                    |s, a, p, _| api::subscription_properties::update_subscription_settings(s, a, p),
                    ada.clone(),
                    &[("subscription_data", data.as_str())],
                ),
            );
        }
        // A new subscription, whose settings are all unset: a client that cannot read null
        // reads Ada's own settings there, except `wildcard_mentions_notify` (as Zulip).
        let name = format!(r#"[{{"name": "new{null}"}}]"#);
        let events = check(
            &mut w,
            "ada@example.com",
            &register,
            run(api::subscriptions::subscribe, ada.clone(), &[("subscriptions", name.as_str())]),
        );
        let added = events.iter().find(|e| e["op"] == "add").expect("the subscription");
        let shown = &added["subscriptions"][0];
        let (on, off) = if null == "true" { (Value::Null, Value::Null) } else { (true.into(), false.into()) };
        assert_eq!(
            [&shown["desktop_notifications"], &shown["email_notifications"], &shown["push_notifications"]],
            [&on, &on, &off],
            "{null}"
        );
        assert_eq!(shown["wildcard_mentions_notify"], Value::Null);
        assert!(added.get("inherited_notifications").is_none(), "the carried values are not sent");
    }
}

#[test]
fn channel_notification_defaults_reach_clients_without_null_when_they_register_again() {
    // Zulip sends no subscription event when a personal setting changes, so such a client sees
    // the new value only in a new register (Zulip's `handle_stream_notifications_compatibility`
    // says as much); clients that read null have nothing to update.
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let register = [
        ("event_types", r#"["subscription", "user_settings"]"#),
        ("client_capabilities", r#"{"notification_settings_null": false}"#),
    ];
    let desktop =
        |state: &serde_json::Map<String, Value>| state["subscriptions"][0]["desktop_notifications"].clone();
    assert_eq!(desktop(&state(&w, "ada@example.com", &register)), false);
    let p = params(&[("enable_stream_desktop_notifications", "true")]);
    let events = w.run_events(|s, _| api::settings::update_settings(s, &ada, &p)).expect("settings");
    let kinds: Vec<&Value> = events
        .iter()
        .filter_map(|e| match e {
            confab_core::Event::Other { body, .. } => Some(&body["type"]),
            _ => None,
        })
        .collect();
    assert!(!kinds.iter().any(|k| *k == "subscription"), "{kinds:?}");
    assert_eq!(desktop(&state(&w, "ada@example.com", &register)), true);
}
