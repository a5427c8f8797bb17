//! Every mutation's events keep a client's state right (see `support::consistency`).
//! The organization: its settings, user groups, linkifiers and custom emoji.

mod support;

use confab_core::api;
use confab_core::ids::UserGroupId;
use confab_core::images::ReceivedImage;
use confab_core::store::Store as _;
use support::consistency::{check, run, world};
use support::{World, params};

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
        run(
            move |s, a, p, _| api::user_updates::update_user(s, a, api::users::UserRef::Id(ada_id), p),
            owner.clone(),
            &rename,
        ),
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
fn custom_emoji() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let png = || ReceivedImage {
        content_type: Some("image/png".into()),
        size: 100,
        head: b"\x89PNG\r\n\x1a\n".to_vec(),
        exceeds_pixel_limit: false,
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

/// A group of the world's organization by name.
fn group_id(w: &World, name: &str) -> u64 {
    let groups = w.store.user_groups(w.realm).expect("groups");
    groups.iter().find(|g| g.name == name).expect("group exists").id.0
}

#[test]
fn who_may_create_channels_follows_the_group_settings() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let register = &[("event_types", r#"["realm", "realm_user", "realm_user_groups", "user_group"]"#)];
    let ada_id = w.user_id("ada@example.com");
    let members = format!("[{ada_id}]");
    let group = [("name", "publishers"), ("members", members.as_str()), ("description", "")];
    w.run(|s, now| api::user_groups::create_user_group(s, &owner, &params(&group), now)).expect("group");
    let publishers = group_id(&w, "publishers");
    let anonymous = format!(r#"{{"new": {{"direct_members": [], "direct_subgroups": [{publishers}]}}}}"#);
    let named = format!(r#"{{"new": {publishers}}}"#);
    // Each command acts on the organization as committed, as the server refreshes the actor.
    let update = |w: &World, pairs: &[(&str, &str)]| {
        run(|s, a, p, _| api::realm::update_realm(s, a, p), w.actor("owner@example.com"), pairs)
    };
    let members = |w: &World, op: &str| {
        let group = UserGroupId(publishers);
        let f = move |s: &_, a: &_, p: &_, _| api::user_groups::update_user_group_members(s, a, group, p);
        run(f, w.actor("owner@example.com"), &[(op, members.as_str())])
    };
    for viewer in ["ada@example.com", "owner@example.com"] {
        let spectators = update(&w, &[("enable_spectator_access", "true")]);
        check(&mut w, viewer, register, spectators);
        // Web-public channels take a system group (Zulip's `require_system_group`); public
        // ones take any group, so the group's members decide.
        let moderators = group_id(&w, "role:moderators").to_string();
        let to =
            update(&w, &[("can_create_web_public_channel_group", &format!(r#"{{"new": {moderators}}}"#))]);
        check(&mut w, viewer, register, to);
        for setting in [&anonymous, &named] {
            let to = update(&w, &[("can_create_public_channel_group", setting)]);
            check(&mut w, viewer, register, to);
            for op in ["delete", "add"] {
                let change = members(&w, op);
                check(&mut w, viewer, register, change);
            }
        }
        let no_spectators = update(&w, &[("enable_spectator_access", "false")]);
        check(&mut w, viewer, register, no_spectators);
    }
}

#[test]
fn user_groups() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let (ada, bob) = (w.user_id("ada@example.com"), w.user_id("bob@example.com"));
    for name in ["support", "oncall"] {
        let members = format!("[{ada}]");
        let group = [("name", name), ("members", members.as_str()), ("description", "")];
        w.run(|s, now| api::user_groups::create_user_group(s, &owner, &params(&group), now)).expect("group");
    }
    let (support, oncall) = (UserGroupId(group_id(&w, "support")), UserGroupId(group_id(&w, "oncall")));
    for capabilities in [
        r#"{"notification_settings_null": true}"#,
        r#"{"notification_settings_null": true, "include_deactivated_groups": true}"#,
    ] {
        let register = [
            ("event_types", r#"["realm_user_groups", "user_group"]"#),
            ("client_capabilities", capabilities),
        ];
        let viewer = "bob@example.com";
        let moderators = r#"{"new": 3}"#;
        for pairs in [
            vec![("name", "helpers"), ("description", "We help")],
            vec![("can_mention_group", moderators)],
            vec![("name", "support")],
        ] {
            check(
                &mut w,
                viewer,
                &register,
                run(
                    move |s, a, p, _| api::user_groups::update_user_group(s, a, support, p),
                    owner.clone(),
                    &pairs,
                ),
            );
        }
        let add = format!("[{bob}]");
        let oncall_id = format!("[{}]", oncall.0);
        for pairs in [
            vec![("add", add.as_str())],
            vec![("delete", add.as_str()), ("add_subgroups", oncall_id.as_str())],
            vec![("delete_subgroups", oncall_id.as_str())],
        ] {
            check(
                &mut w,
                viewer,
                &register,
                run(
                    move |s, a, p, _| api::user_groups::update_user_group_members(s, a, support, p),
                    owner.clone(),
                    &pairs,
                ),
            );
        }
        for (op, ids) in [("add", &oncall_id), ("delete", &oncall_id)] {
            let pairs = [(op, ids.as_str())];
            check(
                &mut w,
                viewer,
                &register,
                run(
                    move |s, a, p, _| api::user_groups::update_user_group_subgroups(s, a, support, p),
                    owner.clone(),
                    &pairs,
                ),
            );
        }
    }
    // Deactivating, seen by a client that keeps deactivated groups and one that does not.
    for (capabilities, group) in [
        (r#"{"notification_settings_null": true}"#, support),
        (r#"{"notification_settings_null": true, "include_deactivated_groups": true}"#, oncall),
    ] {
        let register = [
            ("event_types", r#"["realm_user_groups", "user_group"]"#),
            ("client_capabilities", capabilities),
        ];
        check(
            &mut w,
            "bob@example.com",
            &register,
            run(move |s, a, _, _| api::user_groups::deactivate_user_group(s, a, group), owner.clone(), &[]),
        );
    }
}

#[test]
fn anonymous_settings_lose_deactivated_users_until_they_return() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let bob = w.user_id("bob@example.com");
    let ada = w.user_id("ada@example.com");
    let members = format!("[{ada}]");
    let group = [("name", "support"), ("members", members.as_str()), ("description", "")];
    w.run(|s, now| api::user_groups::create_user_group(s, &owner, &params(&group), now)).expect("group");
    let support = UserGroupId(group_id(&w, "support"));
    let named = format!(r#"{{"new": {{"direct_members": [{bob}], "direct_subgroups": [{}]}}}}"#, support.0);
    w.run(|s, _| api::realm::update_realm(s, &owner, &params(&[("can_create_groups", named.as_str())])))
        .expect("realm setting");
    w.run(|s, _| {
        api::user_groups::update_user_group(
            s,
            &owner,
            support,
            &params(&[("can_manage_group", named.as_str())]),
        )
    })
    .expect("group setting");
    let register = [("event_types", r#"["realm", "realm_user", "realm_user_groups", "user_group"]"#)];
    let deactivate = w.actor("owner@example.com");
    check(&mut w, "ada@example.com", &register, move |s, _| api::users::deactivate_user(s, &deactivate, bob));
    let reactivate = w.actor("owner@example.com");
    check(&mut w, "ada@example.com", &register, move |s, _| api::users::reactivate_user(s, &reactivate, bob));
}

#[test]
fn linkifiers() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let register = &[
        ("event_types", r#"["realm_linkifiers"]"#),
        ("client_capabilities", r#"{"notification_settings_null": true, "linkifier_url_template": true}"#),
    ];
    for (pattern, url) in [
        ("#(?P<id>[0-9]+)", "https://tracker.example/{id}"),
        ("PR(?P<id>[0-9]+)", "https://code.example/{id}"),
    ] {
        let pairs = [("pattern", pattern), ("url_template", url)];
        check(
            &mut w,
            "ada@example.com",
            register,
            run(|s, a, p, _| api::linkifiers::add_linkifier(s, a, p), owner.clone(), &pairs),
        );
    }
    let ids: Vec<u64> = w.store.linkifiers(w.realm).expect("linkifiers").iter().map(|l| l.id).collect();
    let (first, second) = (ids[0], ids[1]);
    let edit = [("pattern", "T(?P<id>[0-9]+)"), ("url_template", "https://tracker.example/t/{id}")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(move |s, a, p, _| api::linkifiers::update_linkifier(s, a, first, p), owner.clone(), &edit),
    );
    let order = format!("[{second}, {first}]");
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::linkifiers::reorder_linkifiers(s, a, p),
            owner.clone(),
            &[("ordered_linkifier_ids", order.as_str())],
        ),
    );
    check(
        &mut w,
        "ada@example.com",
        register,
        run(move |s, a, _, _| api::linkifiers::remove_linkifier(s, a, first), owner, &[]),
    );
}

#[test]
fn reordering_custom_profile_fields() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    for name in ["Team", "Desk"] {
        let p = params(&[("name", name), ("field_type", "1")]);
        w.run(|s, _| api::custom_profile_fields::create_custom_profile_field(s, &owner, &p)).expect("field");
    }
    let ids: Vec<u64> = w.store.profile_fields(w.realm).expect("fields").iter().map(|f| f.id).collect();
    let order = format!("[{}, {}]", ids[1], ids[0]);
    let register = &[("event_types", r#"["custom_profile_fields"]"#)];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::custom_profile_fields::reorder_custom_profile_fields(s, a, p),
            owner,
            &[("order", order.as_str())],
        ),
    );
}
