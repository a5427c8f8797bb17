//! Register's and `GET /users/me/subscriptions`' `include_subscribers=partial` (spec 2.5, feature
//! level 412): small channels list every subscriber; channels of 250 or more list
//! `partial_subscribers`, the bots and the recently active.

mod support;

use confab_core::api::register::{PARTIAL_SUBSCRIBERS_THRESHOLD, initial_state, parse_register_params};
use confab_core::model::Role;
use confab_core::subdomains::Site;
use support::{World, params};

fn subscriptions(world: &World, include: &str) -> serde_json::Value {
    let actor = world.actor("owner@example.com");
    let options = parse_register_params(
        &params(&[("include_subscribers", include), ("fetch_event_types", r#"["subscription"]"#)]),
        true,
    )
    .expect("options");
    let site = Site::new("http", "chat.example.com").expect("site");
    let state = initial_state(&world.store, &actor, &site, &options, world.now).expect("state");
    state["subscriptions"].clone()
}

#[test]
fn big_channels_list_partial_subscribers() {
    let mut world = World::new();
    let mut emails = vec!["owner@example.com".to_owned()];
    for n in 0..PARTIAL_SUBSCRIBERS_THRESHOLD {
        let email = format!("user{n}@example.com");
        world.add_user(&email, &format!("User {n}"), Role::Member);
        emails.push(email);
    }
    let principals = serde_json::to_string(&emails).expect("json");
    world.subscribe("owner@example.com", r#"[{"name": "everyone"}]"#, &[("principals", principals.as_str())]);
    world.subscribe("owner@example.com", r#"[{"name": "small"}]"#, &[]);

    let full = subscriptions(&world, "true");
    let big = full.as_array().expect("list").iter().find(|s| s["name"] == "everyone").expect("subscribed");
    assert_eq!(big["subscribers"].as_array().map(Vec::len), Some(PARTIAL_SUBSCRIBERS_THRESHOLD + 1));

    let partial = subscriptions(&world, "partial");
    let big = partial.as_array().expect("list").iter().find(|s| s["name"] == "everyone").expect("subscribed");
    assert!(big.get("subscribers").is_none(), "{big}");
    assert_eq!(
        big["partial_subscribers"],
        serde_json::json!([]),
        "nobody has been active, and there are no bots"
    );
    let small = partial.as_array().expect("list").iter().find(|s| s["name"] == "small").expect("subscribed");
    assert_eq!(small["subscribers"].as_array().map(Vec::len), Some(1));

    // `GET /users/me/subscriptions` answers the same.
    let actor = world.actor("owner@example.com");
    let listed = confab_core::api::subscriptions::get_subscriptions(
        &world.store,
        &actor,
        &params(&[("include_subscribers", "partial")]),
        world.now,
    )
    .expect("listed");
    let lists = |subs: &serde_json::Value| -> Vec<(serde_json::Value, serde_json::Value)> {
        let subs = subs.as_array().expect("list");
        subs.iter().map(|s| (s["subscribers"].clone(), s["partial_subscribers"].clone())).collect()
    };
    assert_eq!(lists(&listed.reply["subscriptions"]), lists(&partial));
}
