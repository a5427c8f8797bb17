//! Every mutation's events keep a client's state right, as Zulip's `test_events` checks: the
//! state from register, with the mutation's events applied by `events::apply_event`, equals the
//! state register gives after the mutation. Events travel the real path: the command's events,
//! `api::notifications`, a registry queue with the client's options, a fetch.

mod support;

use confab_core::api::notifications::notifications;
use confab_core::api::register::{initial_state, parse_register_params};
use confab_core::events::{Poll, QueueOwner, Registry, apply_event};
use confab_core::images::ReceivedImage;
use confab_core::memory::MemoryStore;
use confab_core::model::Role;
use confab_core::store::Store as _;
use confab_core::subdomains::Site;
use confab_core::{ApiResult, Outcome, api};
use serde_json::{Map, Value};
use support::{World, params};

/// The organization every case starts from: the owner, Ada and Bob in `#general`, where Ada
/// has written once (so the channel's first message exists before any case).
fn world() -> World {
    let mut world = World::new();
    world.add_user("ada@example.com", "Ada Lovelace", Role::Member);
    world.add_user("bob@example.com", "Bob Builder", Role::Member);
    let everyone = r#"["owner@example.com", "ada@example.com", "bob@example.com"]"#;
    world.subscribe("owner@example.com", r#"[{"name": "general"}]"#, &[("principals", everyone)]);
    world.stream("ada@example.com", "general", "hello", "first");
    world
}

fn state(world: &World, viewer: &str, register: &[(&str, &str)]) -> Map<String, Value> {
    let actor = world.actor(viewer);
    let options = parse_register_params(&params(register), true).expect("options");
    let site = Site::new("http", "chat.example.com").expect("site");
    initial_state(&world.store, &actor, &site, &options, world.now).expect("state")
}

/// Sorts what register returns in an order of its own choosing, so states compare by content.
fn normalized(mut state: Map<String, Value>) -> Map<String, Value> {
    state.remove("server_timestamp");
    fn sort(value: &mut Value) {
        match value {
            Value::Array(items) => {
                items.iter_mut().for_each(sort);
                items.sort_by_key(|item| item.to_string());
            }
            Value::Object(fields) => fields.values_mut().for_each(sort),
            _ => {}
        }
    }
    for value in state.values_mut() {
        sort(value);
    }
    state
}

/// Registers `viewer` with `register` options, runs `mutation`, delivers its events to the
/// queue, applies them to the first state and compares with a fresh one.
fn check(
    world: &mut World,
    viewer: &str,
    register: &[(&str, &str)],
    mutation: impl FnOnce(&MemoryStore, i64) -> ApiResult<Outcome>,
) -> Vec<Value> {
    let actor = world.actor(viewer);
    let options = parse_register_params(&params(register), true).expect("options");
    let mut registry = Registry::new();
    let owner = QueueOwner {
        user: actor.user.id,
        realm: actor.realm.id,
        email: actor.user.email.clone(),
        is_guest: actor.user.is_guest(),
    };
    registry.register("q".into(), owner, options.queue_options(), world.now).expect("queue");
    let mut applied = state(world, viewer, register);

    let events = world.run_events(mutation).expect("the mutation succeeds");
    for notification in notifications(&world.store, &events).expect("notifications") {
        registry.push(&notification, world.now);
    }
    let Ok(Poll::Ready(delivered)) = registry.get_events("q", actor.user.id, None, true, world.now) else {
        panic!("a fetch with dont_block answers");
    };
    for event in &delivered {
        apply_event(&mut applied, event, actor.user.id.0);
    }
    let fresh = state(world, viewer, register);
    assert_eq!(normalized(applied), normalized(fresh), "events: {delivered:#?}");
    delivered
}

fn run(
    f: impl FnOnce(&MemoryStore, &confab_core::Actor, &confab_core::params::Params, i64) -> ApiResult<Outcome>,
    actor: confab_core::Actor,
    pairs: &[(&str, &str)],
) -> impl FnOnce(&MemoryStore, i64) -> ApiResult<Outcome> {
    let p = params(pairs);
    move |store, now| f(store, &actor, &p, now)
}

const MESSAGES: &[(&str, &str)] =
    &[("event_types", r#"["message", "update_message_flags", "delete_message"]"#)];

#[test]
fn sending_channel_and_direct_messages() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    for pairs in [
        vec![
            ("type", "stream"),
            ("to", "general"),
            ("topic", "plans"),
            ("content", "@**Ada Lovelace** lunch?"),
        ],
        vec![("type", "private"), ("to", r#"["ada@example.com"]"#), ("content", "psst")],
        vec![
            ("type", "private"),
            ("to", r#"["ada@example.com", "bob@example.com"]"#),
            ("content", "all three"),
        ],
    ] {
        let events = check(
            &mut w,
            "ada@example.com",
            MESSAGES,
            run(api::messages::send_message, owner.clone(), &pairs),
        );
        assert_eq!(events.len(), 1);
    }
}

#[test]
fn reading_starring_and_deleting() {
    let mut w = world();
    let id = w.stream("owner@example.com", "general", "plans", "lunch?").to_string();
    // Deleting the newest message would lower `max_message_id`, which no client can follow.
    w.stream("owner@example.com", "general", "plans", "anyone?");
    let ids = format!("[{id}]");
    let ada = w.actor("ada@example.com");
    let register =
        &[("event_types", r#"["message", "update_message_flags", "delete_message", "starred_messages"]"#)];
    for (op, flag) in [("add", "starred"), ("add", "read"), ("remove", "read"), ("remove", "starred")] {
        let pairs = [("messages", ids.as_str()), ("op", op), ("flag", flag)];
        check(
            &mut w,
            "ada@example.com",
            register,
            run(|s, a, p, _| api::messages::update_message_flags(s, a, p), ada.clone(), &pairs),
        );
    }
    let owner = w.actor("owner@example.com");
    let message = confab_core::ids::MessageId(id.parse().expect("id"));
    check(&mut w, "ada@example.com", register, move |s, now| {
        api::messages::delete_message(s, &owner, message, now)
    });
}

#[test]
fn subscriptions_and_channels() {
    let mut w = world();
    let register = &[("event_types", r#"["subscription", "stream"]"#), ("include_subscribers", "true")];
    let ada = w.actor("ada@example.com");
    let join = [("subscriptions", r#"[{"name": "design"}]"#)];
    check(&mut w, "ada@example.com", register, run(api::subscriptions::subscribe, ada.clone(), &join));
    let mute = r#"[{"stream_id": 1, "property": "is_muted", "value": true}]"#.to_owned();
    let general = w.store.stream_by_name(w.realm, "general").ok().flatten().expect("general");
    let mute = mute.replace("\"stream_id\": 1", &format!("\"stream_id\": {general}"));
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::subscription_properties::update_subscription_settings(s, a, p),
            ada.clone(),
            &[("subscription_data", mute.as_str())],
        ),
    );
    let owner = w.actor("owner@example.com");
    let subscribers = format!("[{}]", w.user_id("owner@example.com"));
    let create = [("name", "announcements"), ("subscribers", subscribers.as_str())];
    check(&mut w, "ada@example.com", register, run(api::channels::create_channel, owner.clone(), &create));
    let describe = [("description", "All the news")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(move |s, a, p, now| api::channel_admin::update_stream(s, a, general, p, now), owner, &describe),
    );
}

#[test]
fn organization_users_groups_and_settings() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let realm = [(
        "event_types",
        r#"["realm", "realm_user", "user_group", "realm_linkifiers", "alert_words", "user_settings"]"#,
    )];
    check(
        &mut w,
        "ada@example.com",
        &realm,
        run(|s, a, p, _| api::realm::update_realm(s, a, p), owner.clone(), &[("name", "Renamed")]),
    );
    let ada_id = w.user_id("ada@example.com");
    let rename = [("full_name", "Augusta Ada")];
    check(
        &mut w,
        "ada@example.com",
        &realm,
        run(move |s, a, p, _| api::user_updates::update_user(s, a, ada_id, p), owner.clone(), &rename),
    );
    let members = format!("[{ada_id}]");
    let group = [("name", "support"), ("description", "Helpers"), ("members", members.as_str())];
    check(&mut w, "ada@example.com", &realm, run(api::user_groups::create_user_group, owner.clone(), &group));
    let linkifier = [("pattern", "#(?P<id>[0-9]+)"), ("url_template", "https://tracker.example/{id}")];
    check(
        &mut w,
        "ada@example.com",
        &realm,
        run(|s, a, p, _| api::linkifiers::add_linkifier(s, a, p), owner.clone(), &linkifier),
    );
    let ada = w.actor("ada@example.com");
    check(
        &mut w,
        "ada@example.com",
        &realm,
        run(
            |s, a, p, _| api::alert_words::add_alert_words(s, a, p),
            ada.clone(),
            &[("alert_words", r#"["lunch"]"#)],
        ),
    );
    check(
        &mut w,
        "ada@example.com",
        &realm,
        run(|s, a, p, _| api::settings::update_settings(s, a, p), ada, &[("emojiset", "twitter")]),
    );
    let bob_id = w.user_id("bob@example.com");
    check(&mut w, "ada@example.com", &realm, move |s, _| api::users::deactivate_user(s, &owner, bob_id));
}

#[test]
fn channel_folders_and_default_channels() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let register = &[("event_types", r#"["channel_folder", "default_streams", "stream", "subscription"]"#)];
    for name in ["Teams", "Projects"] {
        let folder = [("name", name), ("description", "*Grouped*")];
        check(
            &mut w,
            "ada@example.com",
            register,
            run(api::channel_folders::create_channel_folder, owner.clone(), &folder),
        );
    }
    let folders = w.store.channel_folders(w.realm).expect("folders");
    let (teams, projects) = (folders[0].id, folders[1].id);
    let order = format!("[{projects}, {teams}]");
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::channel_folders::reorder_channel_folders(s, a, p),
            owner.clone(),
            &[("order", order.as_str())],
        ),
    );
    let rename = [("name", "People"), ("is_archived", "true")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, _| api::channel_folders::update_channel_folder(s, a, teams, p),
            owner.clone(),
            &rename,
        ),
    );
    let general = w.store.stream_by_name(w.realm, "general").ok().flatten().expect("general");
    let into_folder = projects.to_string();
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, now| api::channel_admin::update_stream(s, a, general, p, now),
            owner.clone(),
            &[("folder_id", into_folder.as_str())],
        ),
    );
    let id = general.to_string();
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::default_channels::add_default_stream(s, a, p),
            owner.clone(),
            &[("stream_id", id.as_str())],
        ),
    );
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::default_channels::remove_default_stream(s, a, p),
            owner,
            &[("stream_id", id.as_str())],
        ),
    );
}

#[test]
fn organization_properties_and_user_defaults() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let register = &[("event_types", r#"["realm", "realm_user_settings_defaults"]"#)];
    let properties =
        [("waiting_period_threshold", "5"), ("enable_read_receipts", "true"), ("name", "Renamed")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(|s, a, p, _| api::realm::update_realm(s, a, p), owner.clone(), &properties),
    );
    // A command sees its organization as committed (the server refreshes the actor).
    let owner = w.actor("owner@example.com");
    let defaults = [("twenty_four_hour_time", "true"), ("web_font_size_px", "16")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::realm_user_defaults::update_realm_user_settings_defaults(s, a, p),
            owner,
            &defaults,
        ),
    );
}

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
fn user_status() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let register = &[("event_types", r#"["user_status", "user_settings"]"#)];
    let set = [("status_text", "Lunch"), ("emoji_name", "octopus")];
    check(
        &mut w,
        "bob@example.com",
        register,
        run(|s, a, p, _| api::user_status::update_status(s, a, p), ada.clone(), &set),
    );
    check(
        &mut w,
        "ada@example.com",
        register,
        run(|s, a, p, _| api::user_status::update_status(s, a, p), ada.clone(), &[("away", "true")]),
    );
    let ada = w.actor("ada@example.com");
    let clear = [("status_text", ""), ("emoji_name", ""), ("away", "false")];
    check(
        &mut w,
        "bob@example.com",
        register,
        run(|s, a, p, _| api::user_status::update_status(s, a, p), ada, &clear),
    );
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
fn custom_emoji() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let png = || ReceivedImage {
        content_type: Some("image/png".into()),
        size: 100,
        head: b"\x89PNG\r\n\x1a\n".to_vec(),
    };
    let register = &[("event_types", r#"["realm_emoji"]"#)];
    let upload = owner.clone();
    check(&mut w, "ada@example.com", register, move |s, _| {
        api::realm_emoji::upload_custom_emoji(s, &upload, "party", &[png()], "a.png")
    });
    let upload = owner.clone();
    check(&mut w, "ada@example.com", register, move |s, _| {
        api::realm_emoji::upload_custom_emoji(s, &upload, "tada", &[png()], "b.png")
    });
    check(&mut w, "ada@example.com", register, move |s, _| {
        api::realm_emoji::deactivate_custom_emoji(s, &owner, "party")
    });
}

#[test]
fn avatars() {
    let png = ReceivedImage {
        content_type: Some("image/png".into()),
        size: 100,
        head: b"\x89PNG\r\n\x1a\n".to_vec(),
    };
    for gravatar in ["true", "false"] {
        let mut w = world();
        let register = [("event_types", r#"["realm_user"]"#), ("client_gravatar", gravatar)];
        for viewer in ["ada@example.com", "bob@example.com"] {
            let ada = w.actor("ada@example.com");
            let image = png.clone();
            check(&mut w, viewer, &register, move |s, _| {
                api::avatars::set_avatar(s, &ada, &[image], "x.png")
            });
            let ada = w.actor("ada@example.com");
            check(&mut w, viewer, &register, move |s, _| api::avatars::delete_avatar(s, &ada));
        }
    }
}

#[test]
fn custom_profile_fields_and_values() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let register = &[("event_types", r#"["custom_profile_fields", "realm_user"]"#)];
    let create = |pairs: &'static [(&'static str, &'static str)]| {
        run(
            |s, a, p, _| api::custom_profile_fields::create_custom_profile_field(s, a, p),
            owner.clone(),
            pairs,
        )
    };
    check(&mut w, "ada@example.com", register, create(&[("name", "Team"), ("field_type", "1")]));
    let editors = r#"{"vim": {"text": "Vim", "order": "1"}, "emacs": {"text": "Emacs", "order": "2"}}"#;
    let select = [("name", "Editor"), ("field_type", "3"), ("field_data", editors)];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::custom_profile_fields::create_custom_profile_field(s, a, p),
            owner.clone(),
            &select,
        ),
    );
    let fields = w.store.profile_fields(w.realm).expect("fields");
    let (team, editor) = (fields[0].id, fields[1].id);

    let ada = w.actor("ada@example.com");
    let data = format!(r#"[{{"id": {team}, "value": "**Core**"}}, {{"id": {editor}, "value": "vim"}}]"#);
    let events = check(
        &mut w,
        "bob@example.com",
        register,
        run(
            |s, a, p, _| api::custom_profile_fields::values::update_profile_data(s, a, p),
            ada.clone(),
            &[("data", data.as_str())],
        ),
    );
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["person"]["custom_profile_field"]["rendered_value"], "<p><strong>Core</strong></p>");

    // Taking the option out of the list clears the values that chose it.
    let only_emacs = r#"{"emacs": {"text": "Emacs", "order": "1"}}"#;
    check(&mut w, "bob@example.com", register, move |s, _| {
        api::custom_profile_fields::update_custom_profile_field(
            s,
            &owner,
            editor,
            &params(&[("field_data", only_emacs)]),
        )
    });
    let ids = format!("[{team}]");
    check(
        &mut w,
        "bob@example.com",
        register,
        run(
            |s, a, p, _| api::custom_profile_fields::values::remove_profile_data(s, a, p),
            ada.clone(),
            &[("data", ids.as_str())],
        ),
    );
    let owner = w.actor("owner@example.com");
    let ada_id = w.user_id("ada@example.com");
    let data = format!(r#"[{{"id": {team}, "value": "Ops"}}]"#);
    let set = [("profile_data", data.as_str())];
    check(
        &mut w,
        "bob@example.com",
        register,
        run(move |s, a, p, _| api::user_updates::update_user(s, a, ada_id, p), owner.clone(), &set),
    );
    check(&mut w, "bob@example.com", register, move |s, _| {
        api::custom_profile_fields::remove_custom_profile_field(s, &owner, team)
    });
}

#[test]
fn time_zones_and_email_visibility() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let register = &[("event_types", r#"["realm_user", "user_settings"]"#)];
    let settings = |pairs: &'static [(&'static str, &'static str)]| {
        run(|s, a, p, _| api::settings::update_settings(s, a, p), ada.clone(), pairs)
    };
    check(&mut w, "bob@example.com", register, settings(&[("timezone", "US/Eastern")]));
    for viewer in ["bob@example.com", "owner@example.com", "ada@example.com"] {
        let ada = w.actor("ada@example.com");
        let hidden = run(
            |s, a, p, _| api::settings::update_settings(s, a, p),
            ada,
            &[("email_address_visibility", "3")],
        );
        let events = check(&mut w, viewer, register, hidden);
        assert!(!events.is_empty(), "{viewer} hears of it");
        let ada = w.actor("ada@example.com");
        let shown = run(
            |s, a, p, _| api::settings::update_settings(s, a, p),
            ada,
            &[("email_address_visibility", "1")],
        );
        check(&mut w, viewer, register, shown);
    }
}

#[test]
fn scheduled_messages_and_reminders() {
    use confab_core::api::scheduled_delivery::{LATE_CUTOFF_SECONDS, deliver_scheduled_message};
    use confab_core::ids::ScheduledMessageId;

    let mut w = world();
    let register =
        &[("event_types", r#"["scheduled_messages", "reminders", "message", "update_message_flags"]"#)];
    let ada = w.actor("ada@example.com");
    let at = w.now + 1_000;
    let general = w.store.stream_by_name(w.realm, "general").ok().flatten().expect("general").to_string();
    let (at_s, later_s) = (at.to_string(), (at + 500).to_string());
    let bob = format!("[{}]", w.user_id("bob@example.com"));
    let mut ids = Vec::new();
    for pairs in [
        vec![
            ("type", "stream"),
            ("to", general.as_str()),
            ("topic", "plans"),
            ("content", "Lunch?"),
            ("scheduled_delivery_timestamp", at_s.as_str()),
        ],
        vec![
            ("type", "direct"),
            ("to", bob.as_str()),
            ("content", "psst"),
            ("scheduled_delivery_timestamp", &later_s),
        ],
    ] {
        let events = check(
            &mut w,
            "ada@example.com",
            register,
            run(api::scheduled_messages::create_scheduled_message, ada.clone(), &pairs),
        );
        ids.push(ScheduledMessageId(
            events[0]["scheduled_messages"][0]["scheduled_message_id"].as_u64().expect("id"),
        ));
    }
    let (lunch, psst) = (ids[0], ids[1]);
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, now| api::scheduled_messages::update_scheduled_message(s, a, psst, p, now),
            ada.clone(),
            &[("content", "psst!"), ("scheduled_delivery_timestamp", at_s.as_str())],
        ),
    );
    let first = w.stream("bob@example.com", "general", "hello", "remind me").to_string();
    let events = check(
        &mut w,
        "ada@example.com",
        register,
        run(
            api::reminders::create_message_reminder,
            ada.clone(),
            &[("message_id", first.as_str()), ("scheduled_delivery_timestamp", at_s.as_str())],
        ),
    );
    let reminder = ScheduledMessageId(events[0]["reminders"][0]["reminder_id"].as_u64().expect("id"));

    // Deliveries: one sent, one too late (failed, with Notification Bot's notice), the reminder.
    let site = Site::new("http", "chat.example.com").expect("site");
    for (id, when) in [(lunch, at), (psst, at + LATE_CUTOFF_SECONDS + 1), (reminder, at)] {
        let site = site.clone();
        check(&mut w, "ada@example.com", register, move |s, _| deliver_scheduled_message(s, &site, id, when));
    }
    // The failed one, given a new time, is pending again.
    let retry_at = (at + 2_000).to_string();
    let retry = [("content", "again"), ("scheduled_delivery_timestamp", retry_at.as_str())];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, now| api::scheduled_messages::update_scheduled_message(s, a, psst, p, now),
            ada.clone(),
            &retry,
        ),
    );
    check(&mut w, "ada@example.com", register, move |s, _| {
        api::scheduled_messages::delete_scheduled_message(s, &ada, psst)
    });
}

#[test]
fn unread_counts_leave_muted_conversations_out() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let owner = w.actor("owner@example.com");
    w.subscribe("owner@example.com", r#"[{"name": "design"}]"#, &[("principals", r#"["ada@example.com"]"#)]);
    let general = w.store.stream_by_name(w.realm, "general").ok().flatten().expect("general").to_string();
    let design = w.store.stream_by_name(w.realm, "design").ok().flatten().expect("design").to_string();
    let mute_design = format!(r#"[{{"stream_id": {design}, "property": "is_muted", "value": true}}]"#);
    let p = params(&[("subscription_data", &mute_design)]);
    w.run(|s, _| api::subscription_properties::update_subscription_settings(s, &ada, &p)).expect("muted");
    for (channel, topic, policy) in [(&general, "Quiet", "1"), (&design, "colours", "3")] {
        let p = params(&[("stream_id", channel), ("topic", topic), ("visibility_policy", policy)]);
        let now = w.now;
        w.run(|s, _| api::user_topics::update_user_topic(s, &ada, &p, now)).expect("topic preference");
    }
    let register = &[("event_types", r#"["message", "update_message_flags", "subscription", "user_topic"]"#)];
    let mut sent = Vec::new();
    for (channel, topic) in
        [("general", "quiet"), ("design", "fonts"), ("design", "Colours"), ("general", "loud")]
    {
        let pairs = [("type", "stream"), ("to", channel), ("topic", topic), ("content", "@**all** look")];
        let events = check(
            &mut w,
            "ada@example.com",
            register,
            run(api::messages::send_message, owner.clone(), &pairs),
        );
        sent.push(events[0]["message"]["id"].as_u64().expect("id"));
    }
    let read = serde_json::json!(sent).to_string();
    let pairs = [("messages", read.as_str()), ("op", "add"), ("flag", "read")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(|s, a, p, _| api::messages::update_message_flags(s, a, p), ada, &pairs),
    );
}
