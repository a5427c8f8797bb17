//! Every mutation's events keep a client's state right (see `support::consistency`).
//! Channels: subscriptions, channel settings, folders, default channels and their groups.

mod support;

use confab_core::api;
use confab_core::store::Store as _;
use support::consistency::{channel, check, run, world};

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
fn default_channel_groups() {
    let mut w = world();
    w.subscribe("owner@example.com", r#"[{"name": "design"}, {"name": "art"}]"#, &[]);
    let register = &[("event_types", r#"["default_stream_groups", "stream"]"#)];
    let create =
        [("group_name", "Makers"), ("description", "Hands on"), ("stream_names", r#"["design", "art"]"#)];
    let actor = w.actor("owner@example.com");
    check(
        &mut w,
        "ada@example.com",
        register,
        run(|s, a, p, _| api::default_channel_groups::create_default_stream_group(s, a, p), actor, &create),
    );
    let id = w.actor("owner@example.com").realm.settings.default_channel_groups[0].id;
    let actor = w.actor("owner@example.com");
    let rename = [("new_group_name", "Crafts"), ("new_description", "Still hands on")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, _| api::default_channel_groups::update_default_stream_group_info(s, a, id, p),
            actor,
            &rename,
        ),
    );
    let actor = w.actor("owner@example.com");
    let remove = [("op", "remove"), ("stream_names", r#"["art"]"#)];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, _| api::default_channel_groups::update_default_stream_group_streams(s, a, id, p),
            actor,
            &remove,
        ),
    );
    let design = w.store.stream_by_name(w.realm, "design").ok().flatten().expect("design");
    let actor = w.actor("owner@example.com");
    check(
        &mut w,
        "ada@example.com",
        register,
        run(move |s, a, _, _| api::channel_admin::archive_stream(s, a, design), actor, &[]),
    );
    // Becoming a guest empties the list, as register shows a guest none.
    let actor = w.actor("owner@example.com");
    let ada = w.user_id("ada@example.com");
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, _| api::user_updates::update_user(s, a, api::users::UserRef::Id(ada), p),
            actor,
            &[("role", "600")],
        ),
    );
    let actor = w.actor("owner@example.com");
    check(
        &mut w,
        "owner@example.com",
        register,
        run(move |s, a, _, _| api::default_channel_groups::remove_default_stream_group(s, a, id), actor, &[]),
    );
}

#[test]
fn channels_going_quiet_and_waking() {
    let mut w = world();
    w.subscribe("owner@example.com", r#"[{"name": "design"}]"#, &[]);
    let register = &[("event_types", r#"["stream", "message"]"#)];
    let half_a_year_on = w.now + 181 * 86_400;
    check(&mut w, "ada@example.com", register, move |s, _| {
        api::channel_activity::sweep_quiet_channels(s, half_a_year_on)
    });
    let owner = w.actor("owner@example.com");
    let send = [("type", "stream"), ("to", "design"), ("topic", "back"), ("content", "Awake")];
    check(&mut w, "ada@example.com", register, run(api::messages::send_message, owner, &send));
}

/// A client that follows channels, their subscribers and unread counts.
const CHANNELS: &[(&str, &str)] = &[
    ("event_types", r#"["subscription", "stream", "message", "update_message_flags", "default_streams"]"#),
    ("include_subscribers", "true"),
];

#[test]
fn leaving_a_channel() {
    let mut w = world();
    w.subscribe(
        "owner@example.com",
        r#"[{"name": "secret"}]"#,
        &[("invite_only", "true"), ("principals", r#"["ada@example.com", "owner@example.com"]"#)],
    );
    w.stream("owner@example.com", "general", "plans", "unread for Ada");
    w.stream("owner@example.com", "secret", "plans", "unread for Ada too");
    for name in ["general", "secret"] {
        let ada = w.actor("ada@example.com");
        let leave = format!(r#"["{name}"]"#);
        for viewer in ["bob@example.com", "owner@example.com"] {
            // Others see Ada go (Bob cannot see the private channel at all).
            let ada = ada.clone();
            let leave = leave.clone();
            check(
                &mut w,
                viewer,
                CHANNELS,
                run(
                    |s, a, p, _| api::subscriptions::unsubscribe(s, a, p),
                    ada,
                    &[("subscriptions", leave.as_str())],
                ),
            );
            w.subscribe(
                "owner@example.com",
                &format!(r#"[{{"name": "{name}"}}]"#),
                &[("principals", r#"["ada@example.com"]"#)],
            );
        }
        check(
            &mut w,
            "ada@example.com",
            CHANNELS,
            run(
                |s, a, p, _| api::subscriptions::unsubscribe(s, a, p),
                ada,
                &[("subscriptions", leave.as_str())],
            ),
        );
    }
}

#[test]
fn an_administrator_adds_and_removes_someone_else() {
    let mut w = world();
    w.subscribe("owner@example.com", r#"[{"name": "design"}]"#, &[]);
    w.subscribe("owner@example.com", r#"[{"name": "secret"}]"#, &[("invite_only", "true")]);
    let owner = w.actor("owner@example.com");
    for name in ["design", "secret"] {
        let channels = format!(r#"[{{"name": "{name}"}}]"#);
        let names = format!(r#"["{name}"]"#);
        for viewer in ["ada@example.com", "bob@example.com", "owner@example.com"] {
            let add = [("subscriptions", channels.as_str()), ("principals", r#"["bob@example.com"]"#)];
            check(&mut w, viewer, CHANNELS, run(api::subscriptions::subscribe, owner.clone(), &add));
            let remove = [("subscriptions", names.as_str()), ("principals", r#"["bob@example.com"]"#)];
            check(
                &mut w,
                viewer,
                CHANNELS,
                run(|s, a, p, _| api::subscriptions::unsubscribe(s, a, p), owner.clone(), &remove),
            );
        }
    }
}

#[test]
fn archiving_a_channel() {
    for capabilities in [
        r#"{"notification_settings_null": true}"#,
        r#"{"notification_settings_null": true, "archived_channels": true}"#,
    ] {
        let mut w = world();
        let owner = w.actor("owner@example.com");
        w.subscribe(
            "owner@example.com",
            r#"[{"name": "design"}]"#,
            &[("principals", r#"["ada@example.com"]"#), ("is_default_stream", "true")],
        );
        w.subscribe("owner@example.com", r#"[{"name": "random"}]"#, &[]);
        w.stream("owner@example.com", "design", "fonts", "serif?");
        let mut register = CHANNELS.to_vec();
        register.push(("client_capabilities", capabilities));
        for (name, viewer) in [("design", "ada@example.com"), ("random", "bob@example.com")] {
            let id = channel(&w, name);
            check(
                &mut w,
                viewer,
                &register,
                run(move |s, a, _, _| api::channel_admin::archive_stream(s, a, id), owner.clone(), &[]),
            );
        }
    }
}

#[test]
fn muting_a_channel_changes_what_counts() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    w.stream("owner@example.com", "general", "plans", "unread for Ada");
    let general = channel(&w, "general");
    for muted in ["true", "false"] {
        let data = format!(r#"[{{"stream_id": {general}, "property": "is_muted", "value": {muted}}}]"#);
        check(
            &mut w,
            "ada@example.com",
            CHANNELS,
            run(
                |s, a, p, _| api::subscription_properties::update_subscription_settings(s, a, p),
                ada.clone(),
                &[("subscription_data", data.as_str())],
            ),
        );
    }
}

#[test]
fn unarchiving_a_channel() {
    for capabilities in [r#"{}"#, r#"{"archived_channels": true}"#] {
        for include_subscribers in ["true", "false"] {
            let mut w = world();
            let owner = w.actor("owner@example.com");
            w.subscribe(
                "owner@example.com",
                r#"[{"name": "design"}]"#,
                &[("principals", r#"["ada@example.com", "bob@example.com"]"#)],
            );
            // Bob left: the channel comes back to him as one he was subscribed to once.
            let bob = w.actor("bob@example.com");
            w.run(|s, _| {
                api::subscriptions::unsubscribe(
                    s,
                    &bob,
                    &support::params(&[("subscriptions", r#"["design"]"#)]),
                )
            })
            .expect("Bob leaves");
            w.stream("ada@example.com", "design", "fonts", "serif?");
            let id = channel(&w, "design");
            w.run(|s, _| api::channel_admin::archive_stream(s, &owner, id)).expect("archived");
            let register = [
                ("event_types", r#"["subscription", "stream", "message"]"#),
                ("include_subscribers", include_subscribers),
                ("client_capabilities", capabilities),
            ];
            for viewer in ["ada@example.com", "bob@example.com", "owner@example.com"] {
                check(
                    &mut w,
                    viewer,
                    &register,
                    run(
                        move |s, a, p, now| api::channel_admin::update_stream(s, a, id, p, now),
                        owner.clone(),
                        &[("is_archived", "false")],
                    ),
                );
                w.run(|s, _| api::channel_admin::archive_stream(s, &owner, id)).expect("archived again");
            }
        }
    }
}

#[test]
fn deactivating_and_reactivating_a_subscriber() {
    for include_subscribers in ["true", "false"] {
        let mut w = world();
        let owner = w.actor("owner@example.com");
        w.subscribe(
            "owner@example.com",
            r#"[{"name": "design"}]"#,
            &[("principals", r#"["bob@example.com"]"#)],
        );
        let archived = channel(&w, "design");
        w.run(|s, _| api::channel_admin::archive_stream(s, &owner, archived)).expect("archived");
        let register = [
            ("event_types", r#"["subscription", "stream", "realm_user"]"#),
            ("include_subscribers", include_subscribers),
            ("client_capabilities", r#"{"archived_channels": true}"#),
        ];
        let bob = w.user_id("bob@example.com");
        check(
            &mut w,
            "ada@example.com",
            &register,
            run(move |s, a, _, _| api::users::deactivate_user(s, a, bob), owner.clone(), &[]),
        );
        check(
            &mut w,
            "ada@example.com",
            &register,
            run(move |s, a, _, _| api::users::reactivate_user(s, a, bob), owner.clone(), &[]),
        );
    }
}

#[test]
fn channel_groups_open_private_channels() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let (ada, bob) = (w.user_id("ada@example.com"), w.user_id("bob@example.com"));
    let register = &[("event_types", r#"["subscription", "stream"]"#), ("include_subscribers", "true")];
    // Ada administers the channel without being subscribed; Bob may subscribe himself.
    let administer = format!(r#"{{"direct_members": [{ada}], "direct_subgroups": []}}"#);
    let subscribe = format!(r#"{{"direct_members": [{bob}], "direct_subgroups": []}}"#);
    let owner_only = format!("[{}]", w.user_id("owner@example.com"));
    let create = [
        ("name", "secret"),
        ("subscribers", owner_only.as_str()),
        ("invite_only", "true"),
        ("history_public_to_subscribers", "true"),
        ("can_administer_channel_group", administer.as_str()),
        ("can_subscribe_group", subscribe.as_str()),
    ];
    for viewer in ["ada@example.com", "bob@example.com"] {
        check(&mut w, viewer, register, run(api::channels::create_channel, owner.clone(), &create));
        let id = channel(&w, "secret");
        w.run(|s, _| api::channel_admin::archive_stream(s, &owner, id)).expect("archived");
        let renamed = format!("old secret {viewer}");
        w.run(|s, now| {
            api::channel_admin::update_stream(s, &owner, id, &support::params(&[("new_name", &renamed)]), now)
        })
        .expect("renamed");
    }
    check(&mut w, "ada@example.com", register, run(api::channels::create_channel, owner.clone(), &create));
    let id = channel(&w, "secret");
    let bob_actor = w.actor("bob@example.com");
    let join = [("subscriptions", r#"[{"name": "secret"}]"#)];
    for viewer in ["ada@example.com", "bob@example.com", "owner@example.com"] {
        check(&mut w, viewer, register, run(api::subscriptions::subscribe, bob_actor.clone(), &join));
        let leave = [("subscriptions", r#"["secret"]"#)];
        check(
            &mut w,
            viewer,
            register,
            run(|s, a, p, _| api::subscriptions::unsubscribe(s, a, p), bob_actor.clone(), &leave),
        );
    }
    let ada_actor = w.actor("ada@example.com");
    let describe = [("description", "Ada's now")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(move |s, a, p, now| api::channel_admin::update_stream(s, a, id, p, now), ada_actor, &describe),
    );
}

#[test]
fn changing_who_sees_a_channel() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let ada = w.user_id("ada@example.com");
    // Bob was subscribed once: the channel comes back to him as one he left.
    w.subscribe("owner@example.com", r#"[{"name": "design"}]"#, &[("principals", r#"["bob@example.com"]"#)]);
    let bob_actor = w.actor("bob@example.com");
    w.run(|s, _| {
        api::subscriptions::unsubscribe(
            s,
            &bob_actor,
            &support::params(&[("subscriptions", r#"["design"]"#)]),
        )
    })
    .expect("Bob leaves");
    w.subscribe("owner@example.com", r#"[{"name": "design"}]"#, &[]);
    let id = channel(&w, "design");
    let update = move |pairs: &[(&str, &str)]| {
        let owner = owner.clone();
        run(move |s, a, p, now| api::channel_admin::update_stream(s, a, id, p, now), owner, pairs)
    };
    let admins = format!(r#"{{"new": {{"direct_members": [{ada}], "direct_subgroups": []}}}}"#);
    let nobody_else = r#"{"new": {"direct_members": [], "direct_subgroups": []}}"#;
    let administrators = {
        let groups = w.store.user_groups(w.realm).expect("groups");
        let id = groups.iter().find(|g| g.name == "role:administrators").expect("group").id;
        format!(r#"{{"new": {id}}}"#)
    };
    for register in [CHANNELS, &[("event_types", r#"["subscription", "stream"]"#)][..]] {
        for viewer in ["ada@example.com", "bob@example.com"] {
            check(&mut w, viewer, register, update(&[("is_private", "true")]));
            check(&mut w, viewer, register, update(&[("can_administer_channel_group", &admins)]));
            check(&mut w, viewer, register, update(&[("can_send_message_group", &administrators)]));
            check(&mut w, viewer, register, update(&[("can_administer_channel_group", nobody_else)]));
            check(&mut w, viewer, register, update(&[("is_private", "false")]));
            let everyone = {
                let groups = w.store.user_groups(w.realm).expect("groups");
                let id = groups.iter().find(|g| g.name == "role:everyone").expect("group").id;
                format!(r#"{{"new": {id}}}"#)
            };
            check(&mut w, viewer, register, update(&[("can_send_message_group", &everyone)]));
        }
    }
}
