//! Every mutation's events keep a client's state right (see `support::consistency`).
//! Accounts: users created, deactivated (by an administrator or themselves) and reactivated,
//! roles changed; bots added, given new keys, deactivated and reactivated (by a new owner when
//! theirs is deactivated).

mod support;

use confab_core::api;
use confab_core::api::bots::BotSecrets;
use confab_core::api::users::NewUser;
use confab_core::model::Role;
use support::consistency::{channel, check, run, world};
use support::params;

/// A client that follows users and what their roles decide.
const PEOPLE: &[(&str, &str)] = &[(
    "event_types",
    r#"["realm_user", "realm_user_groups", "user_group", "realm_bot", "stream", "subscription", "default_streams"]"#,
)];

fn with_gravatar(gravatar: &'static str) -> Vec<(&'static str, &'static str)> {
    let mut register = PEOPLE.to_vec();
    register.push(("client_gravatar", gravatar));
    register
}

fn new_user(email: &str, role: Role) -> NewUser {
    NewUser {
        email: email.into(),
        full_name: "Cleo Coder".into(),
        role,
        bot_type: None,
        bot_owner_id: None,
        api_key: "c".repeat(32),
        password_hash: None,
    }
}

#[test]
fn creating_users() {
    for gravatar in ["true", "false"] {
        let mut w = world();
        let register = with_gravatar(gravatar);
        for (n, role) in [Role::Member, Role::Guest, Role::Administrator].into_iter().enumerate() {
            let owner = w.actor("owner@example.com");
            let new = new_user(&format!("cleo{n}@example.com"), role);
            let viewer = if n == 1 { "owner@example.com" } else { "ada@example.com" };
            check(&mut w, viewer, &register, move |s, now| api::users::create_user(s, &owner, new, now));
        }
    }
}

#[test]
fn deactivating_and_reactivating() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let members = format!(r#"[{}]"#, w.user_id("bob@example.com"));
    let group = [("name", "support"), ("description", "Helpers"), ("members", members.as_str())];
    w.run(|s, now| {
        api::user_groups::create_user_group(
            s,
            &owner,
            &confab_core::params::Params::from_pairs(
                group.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
            ),
            now,
        )
    })
    .expect("group");
    let bob = w.user_id("bob@example.com");
    for viewer in ["ada@example.com", "owner@example.com"] {
        let owner = w.actor("owner@example.com");
        check(&mut w, viewer, PEOPLE, move |s, _| api::users::deactivate_user(s, &owner, bob));
        let owner = w.actor("owner@example.com");
        check(&mut w, viewer, PEOPLE, move |s, _| api::users::reactivate_user(s, &owner, bob));
    }
    for viewer in ["ada@example.com", "bob@example.com"] {
        let owner = w.actor("owner@example.com");
        let ada = w.actor("ada@example.com");
        if viewer == "bob@example.com" {
            w.run(|s, _| api::users::reactivate_user(s, &owner, ada.user.id)).expect("back");
        }
        let ada = w.actor("ada@example.com");
        check(&mut w, viewer, PEOPLE, move |s, _| api::users::deactivate_own_user(s, &ada));
    }
}

#[test]
fn changing_roles() {
    let mut w = world();
    // What a role decides: a private channel, Bob's email (for administrators only), the
    // owner's bot, web-public channels (moderators and up), the default channels (not for
    // guests).
    w.subscribe("owner@example.com", r#"[{"name": "secret"}]"#, &[("invite_only", "true")]);
    let owner = w.actor("owner@example.com");
    let general = channel(&w, "general").to_string();
    let p = params(&[("stream_id", &general)]);
    w.run(|s, _| api::default_channels::add_default_stream(s, &owner, &p)).expect("default");
    let bob = w.actor("bob@example.com");
    let p = params(&[("email_address_visibility", "3")]);
    w.run(|s, _| api::settings::update_settings(s, &bob, &p)).expect("hidden");
    let secrets = BotSecrets { api_key: "b".repeat(32), service_token: "t".repeat(32) };
    let p = params(&[("full_name", "Helper"), ("short_name", "helper")]);
    w.run(|s, now| api::bots::add_bot(s, &owner, &p, secrets, now)).expect("bot");
    let moderators = r#"{"new": 3}"#;
    let p =
        params(&[("enable_spectator_access", "true"), ("can_create_web_public_channel_group", moderators)]);
    w.run(|s, _| api::realm::update_realm(s, &owner, &p)).expect("web-public channels");

    let register = [
        (
            "event_types",
            r#"["realm_user", "realm_user_groups", "user_group", "realm_bot", "stream", "subscription", "default_streams", "realm"]"#,
        ),
        ("include_subscribers", "true"),
    ];
    let ada_id = w.user_id("ada@example.com");
    // Each change seen by Ada herself, then each by Bob.
    for viewer in ["ada@example.com", "bob@example.com"] {
        for role in ["200", "300", "400", "600", "400", "100", "600", "400"] {
            let owner = w.actor("owner@example.com");
            check(
                &mut w,
                viewer,
                &register,
                run(
                    move |s, a, p, _| {
                        api::user_updates::update_user(s, a, api::users::UserRef::Id(ada_id), p)
                    },
                    owner,
                    &[("role", role)],
                ),
            );
        }
    }
}

#[test]
fn bots() {
    let mut w = world();
    for (n, viewer) in ["ada@example.com", "bob@example.com", "owner@example.com"].into_iter().enumerate() {
        let ada = w.actor("ada@example.com");
        let short = format!("helper{n}");
        let secrets = BotSecrets { api_key: "b".repeat(32), service_token: "t".repeat(32) };
        let events = check(
            &mut w,
            viewer,
            PEOPLE,
            run(
                move |s, a, p, now| api::bots::add_bot(s, a, p, secrets, now),
                ada.clone(),
                &[("full_name", "Helper"), ("short_name", short.as_str())],
            ),
        );
        let bot = events.iter().find_map(|e| e["person"]["user_id"].as_u64()).expect("the bot's id");
        let bot = confab_core::ids::UserId(bot);
        let key = "n".repeat(32);
        check(
            &mut w,
            viewer,
            PEOPLE,
            run(move |s, a, _, _| api::bots::regenerate_bot_api_key(s, a, bot, key), ada.clone(), &[]),
        );
        check(
            &mut w,
            viewer,
            PEOPLE,
            run(move |s, a, _, _| api::bots::deactivate_bot(s, a, bot), ada.clone(), &[]),
        );
        let owner = w.actor("owner@example.com");
        check(&mut w, viewer, PEOPLE, move |s, _| api::users::reactivate_user(s, &owner, bot));
        let owner = w.actor("owner@example.com");
        check(&mut w, viewer, PEOPLE, move |s, _| api::users::deactivate_user(s, &owner, bot));
    }
}

/// Ada with two bots of her own, one of them in a group beside her and Bob.
fn ada_with_bots(w: &mut support::World) -> [confab_core::ids::UserId; 2] {
    let ada = w.actor("ada@example.com");
    let mut bots = Vec::new();
    for short in ["helper", "hook"] {
        let secrets = BotSecrets { api_key: "b".repeat(32), service_token: "t".repeat(32) };
        let p = params(&[("full_name", "Helper"), ("short_name", short)]);
        let reply = w.run(|s, now| api::bots::add_bot(s, &ada, &p, secrets, now)).expect("bot");
        bots.push(confab_core::ids::UserId(reply["user_id"].as_u64().expect("id")));
    }
    let members = format!("[{}, {}, {}]", ada.user.id, bots[0], w.user_id("bob@example.com"));
    let p = params(&[("name", "support"), ("description", "Helpers"), ("members", members.as_str())]);
    w.run(|s, now| api::user_groups::create_user_group(s, &ada, &p, now)).expect("group");
    [bots[0], bots[1]]
}

fn is_active(w: &support::World, user: confab_core::ids::UserId) -> bool {
    use confab_core::store::Store as _;
    w.store.user(user).ok().flatten().expect("user").is_active
}

#[test]
fn deactivating_a_user_deactivates_their_bots_and_reactivating_leaves_them_so() {
    for viewer in ["owner@example.com", "bob@example.com", "ada@example.com"] {
        let mut w = world();
        let bots = ada_with_bots(&mut w);
        let ada = w.actor("ada@example.com");
        let owner = w.actor("owner@example.com");
        let events = if viewer == "ada@example.com" {
            check(&mut w, viewer, PEOPLE, move |s, _| api::users::deactivate_own_user(s, &ada))
        } else {
            let id = ada.user.id;
            check(&mut w, viewer, PEOPLE, move |s, _| api::users::deactivate_user(s, &owner, id))
        };
        assert!(bots.iter().all(|bot| !is_active(&w, *bot)), "{viewer}: the bots went with Ada");
        let deactivated: Vec<u64> = events
            .iter()
            .filter(|e| e["type"] == "realm_user" && e["person"]["is_active"] == false)
            .filter_map(|e| e["person"]["user_id"].as_u64())
            .collect();
        let ada_id = w.user_id("ada@example.com");
        assert_eq!(deactivated, [bots[0].0, bots[1].0, ada_id.0], "{viewer}: the bots first, as in Zulip");

        // A deactivated user's client is gone; others see her come back alone.
        let onlooker = if viewer == "ada@example.com" { "bob@example.com" } else { viewer };
        let owner = w.actor("owner@example.com");
        check(&mut w, onlooker, PEOPLE, move |s, _| api::users::reactivate_user(s, &owner, ada_id));
        assert!(is_active(&w, ada_id));
        assert!(bots.iter().all(|bot| !is_active(&w, *bot)), "{viewer}: the bots stay deactivated");
    }
}

fn owner_of(w: &support::World, bot: confab_core::ids::UserId) -> Option<confab_core::ids::UserId> {
    use confab_core::store::Store as _;
    w.store.user(bot).ok().flatten().expect("bot").bot_owner_id
}

#[test]
fn reactivating_a_bot_whose_owner_is_deactivated_makes_the_administrator_its_owner() {
    // The owner, or Bob made an administrator, brings back one of Ada's bots while Ada is
    // away; each administrator watches (they list every bot), and so does a member who lists
    // none.
    let cases = [
        ("owner@example.com", "owner@example.com", true),
        ("owner@example.com", "bob@example.com", false),
        ("bob@example.com", "bob@example.com", true),
        ("bob@example.com", "owner@example.com", true),
        ("bob@example.com", "cleo@example.com", false),
    ];
    for (administrator, viewer, lists_bots) in cases {
        let mut w = world();
        w.add_user("cleo@example.com", "Cleo Coder", Role::Member);
        let owner = w.actor("owner@example.com");
        if administrator == "bob@example.com" {
            let bob = w.user_id("bob@example.com");
            let p = params(&[("role", "200")]);
            w.run(|s, _| api::user_updates::update_user(s, &owner, api::users::UserRef::Id(bob), &p))
                .expect("an administrator");
        }
        let bots = ada_with_bots(&mut w);
        let ada = w.user_id("ada@example.com");
        w.run(|s, _| api::users::deactivate_user(s, &owner, ada)).expect("Ada leaves with her bots");

        let admin = w.actor(administrator);
        let admin_id = admin.user.id;
        let events =
            check(&mut w, viewer, PEOPLE, move |s, _| api::users::reactivate_user(s, &admin, bots[0]));
        assert!(is_active(&w, bots[0]));
        assert_eq!(owner_of(&w, bots[0]), Some(admin_id), "{administrator} owns it now");
        if lists_bots {
            let changed =
                events.iter().find(|e| e["type"] == "realm_bot" && e["bot"].get("owner_id").is_some());
            assert_eq!(changed.expect("the change of owner")["bot"]["owner_id"], admin_id.0, "{viewer}");
        }
        assert!(
            events.iter().any(|e| e["type"] == "realm_user" && e["person"]["bot_owner_id"] == admin_id.0),
            "{viewer}: {events:?}"
        );
        assert!(!is_active(&w, bots[1]), "the other bot stays deactivated");
        assert_eq!(owner_of(&w, bots[1]), Some(ada), "and Ada's");

        // When Ada comes back, the bot stays with its new owner.
        let owner = w.actor("owner@example.com");
        check(&mut w, viewer, PEOPLE, move |s, _| api::users::reactivate_user(s, &owner, ada));
        assert_eq!(owner_of(&w, bots[0]), Some(admin_id));
    }
}

#[test]
fn reactivating_a_bot_whose_owner_is_active_keeps_its_owner() {
    let mut w = world();
    let bots = ada_with_bots(&mut w);
    let ada = w.actor("ada@example.com");
    let bot = bots[0];
    w.run(|s, _| api::bots::deactivate_bot(s, &ada, bot)).expect("deactivated");
    for viewer in ["ada@example.com", "owner@example.com"] {
        let owner = w.actor("owner@example.com");
        let events = check(&mut w, viewer, PEOPLE, move |s, _| api::users::reactivate_user(s, &owner, bot));
        assert_eq!(owner_of(&w, bot), Some(ada.user.id));
        assert!(
            !events
                .iter()
                .any(|e| e["bot"].get("owner_id").is_some() || e["person"].get("bot_owner_id").is_some())
        );
        let owner = w.actor("owner@example.com");
        w.run(|s, _| api::users::deactivate_user(s, &owner, bot)).expect("deactivated again");
    }
}

#[test]
fn channels_left_earlier_come_back_as_unsubscribed_when_a_role_opens_them_again() {
    for subscribers in ["true", "false"] {
        for null in ["true", "false"] {
            let mut w = world();
            // Ada was in the private `#secret`, with a color of her own, and in the public
            // `#town`, and left both.
            let ada_email = r#"["ada@example.com"]"#;
            w.subscribe(
                "owner@example.com",
                r#"[{"name": "secret"}]"#,
                &[("invite_only", "true"), ("principals", ada_email)],
            );
            w.subscribe("owner@example.com", r#"[{"name": "town"}]"#, &[("principals", ada_email)]);
            let ada = w.actor("ada@example.com");
            let secret = channel(&w, "secret").to_string();
            let red = format!(r##"[{{"stream_id": {secret}, "property": "color", "value": "#ff0000"}}]"##);
            let p = params(&[("subscription_data", &red)]);
            w.run(|s, _| api::subscription_properties::update_subscription_settings(s, &ada, &p))
                .expect("color");
            let p = params(&[("subscriptions", r#"["secret", "town"]"#)]);
            w.run(|s, _| api::subscriptions::unsubscribe(s, &ada, &p)).expect("left");

            let capabilities = format!(r#"{{"notification_settings_null": {null}}}"#);
            let register = [
                (
                    "event_types",
                    r#"["realm_user", "stream", "subscription", "default_streams", "realm_bot"]"#,
                ),
                ("include_subscribers", subscribers),
                ("client_capabilities", capabilities.as_str()),
            ];
            let ada_id = ada.user.id;
            // Administrator (both back), member (the public one), guest (neither), member.
            let steps: [(&str, &[&str]); 4] =
                [("200", &["secret", "town"]), ("400", &["town"]), ("600", &[]), ("400", &["town"])];
            for (role, expected) in steps {
                let owner = w.actor("owner@example.com");
                check(
                    &mut w,
                    "ada@example.com",
                    &register,
                    run(
                        move |s, a, p, _| {
                            api::user_updates::update_user(s, a, api::users::UserRef::Id(ada_id), p)
                        },
                        owner,
                        &[("role", role)],
                    ),
                );
                let state = support::consistency::state(&w, "ada@example.com", &register);
                let mut unsubscribed: Vec<&str> = state["unsubscribed"]
                    .as_array()
                    .expect("list")
                    .iter()
                    .filter_map(|s| s["name"].as_str())
                    .collect();
                unsubscribed.sort_unstable();
                assert_eq!(unsubscribed, expected, "role {role}");
                if role == "200" {
                    let secret = state["unsubscribed"]
                        .as_array()
                        .expect("list")
                        .iter()
                        .find(|s| s["name"] == "secret");
                    assert_eq!(secret.expect("secret")["color"], "#ff0000", "her own color");
                }
            }
        }
    }
}
