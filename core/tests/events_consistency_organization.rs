//! Every mutation's events keep a client's state right (see `support::consistency`).
//! The organization: its settings, user groups, linkifiers and custom emoji.

mod support;

use confab_core::api;
use confab_core::images::ReceivedImage;
use support::consistency::{check, run, world};

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
