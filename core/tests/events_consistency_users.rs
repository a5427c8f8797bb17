//! Every mutation's events keep a client's state right (see `support::consistency`).
//! Users: accounts, avatars, profile fields, time zones, email visibility and status.

mod support;

use confab_core::api;
use confab_core::images::ReceivedImage;
use confab_core::store::Store as _;
use support::consistency::{check, run, world};
use support::params;

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
        run(
            move |s, a, p, _| api::user_updates::update_user(s, a, api::users::UserRef::Id(ada_id), p),
            owner.clone(),
            &set,
        ),
    );
    check(&mut w, "bob@example.com", register, move |s, _| {
        api::custom_profile_fields::remove_custom_profile_field(s, &owner, team)
    });
}

#[test]
fn avatars() {
    let png = ReceivedImage {
        content_type: Some("image/png".into()),
        size: 100,
        head: b"\x89PNG\r\n\x1a\n".to_vec(),
        exceeds_pixel_limit: false,
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

/// A presence check-in's write, as the host runs it through the writer.
fn check_in(
    store: &confab_core::memory::MemoryStore,
    actor: &confab_core::Actor,
    params: &confab_core::params::Params,
    now: i64,
) -> confab_core::ApiResult<confab_core::Outcome> {
    api::presence::update_presence(store, actor, &api::presence::PresencePing::parse(params)?, now)
}

#[test]
fn presence_in_every_form() {
    let forms: [&[(&str, &str)]; 4] = [
        &[("event_types", r#"["presence", "realm_user"]"#)],
        &[("event_types", r#"["presence", "realm_user"]"#), ("slim_presence", "true")],
        &[
            ("event_types", r#"["presence", "realm_user"]"#),
            ("slim_presence", "true"),
            (
                "client_capabilities",
                r#"{"notification_settings_null": true, "simplified_presence_events": true}"#,
            ),
        ],
        &[
            ("event_types", r#"["presence", "realm_user"]"#),
            (
                "client_capabilities",
                r#"{"notification_settings_null": true, "simplified_presence_events": true}"#,
            ),
        ],
    ];
    for register in forms {
        let mut w = world();
        // Bob is online already, so the state has a presence in its form.
        let bob = w.actor("bob@example.com");
        w.run(|s, now| check_in(s, &bob, &params(&[("status", "active")]), now)).expect("online");
        let ada = w.actor("ada@example.com");
        // Ada comes online, goes idle, comes back: each is an event (a check-in that changes
        // nothing others see is none, and others' state follows it only by polling).
        for status in ["active", "idle", "active"] {
            // Idle shows once the last activity is more than 70 seconds old.
            w.now += 100;
            let events =
                check(&mut w, "bob@example.com", register, run(check_in, ada.clone(), &[("status", status)]));
            assert_eq!(events.len(), 1, "{register:?}: {status}");
        }
    }
}

#[test]
fn an_administrator_changes_a_users_email() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    w.run(|s, _| {
        api::special_permissions::change_special_permission(
            s,
            &owner.user,
            api::special_permissions::CAN_CHANGE_USER_EMAILS,
            true,
        )
    })
    .expect("the operator's grant");
    let ada_id = w.user_id("ada@example.com");
    let register = &[("event_types", r#"["realm_user"]"#)];
    // Seen by another member and by an administrator. (The harness finds its viewer by email,
    // so it cannot watch the user whose email changes.)
    for (viewer, email) in
        [("bob@example.com", "ada@new.example"), ("owner@example.com", "ada@newer.example")]
    {
        let change = [("new_email", email)];
        check(
            &mut w,
            viewer,
            register,
            run(
                move |s, a, p, _| api::user_updates::update_user(s, a, api::users::UserRef::Id(ada_id), p),
                owner.clone(),
                &change,
            ),
        );
    }
}
