//! Zulip's limit on the Notification Bot's "subscribed you" messages: a request that
//! subscribes more than `MAX_BULK_NEW_SUBSCRIPTION_MESSAGES` users sends none.

mod support;

use confab_core::api;
use confab_core::api::subscriptions::MAX_BULK_NEW_SUBSCRIPTION_MESSAGES;
use confab_core::model::Role;
use confab_core::store::{Direction, MessageIndex, Store as _};
use serde_json::json;
use std::ops::Bound;
use support::{World, params};

/// The "subscribed you" messages a request caused: direct messages from the Notification Bot.
fn subscribe_and_count_notices(w: &mut World, principals: &[String]) -> (serde_json::Value, usize) {
    let owner = w.actor("owner@example.com");
    let principals = json!(principals).to_string();
    let p = params(&[("subscriptions", r#"[{"name": "general"}]"#), ("principals", principals.as_str())]);
    let before = messages(w);
    let reply = w.run(|s, now| api::subscriptions::subscribe(s, &owner, &p, now)).expect("subscribed");
    (reply, messages(w) - before)
}

fn messages(w: &World) -> usize {
    let index = MessageIndex::Realm(w.realm);
    w.store
        .message_ids(&index, Bound::Unbounded, Bound::Unbounded, Direction::Ascending)
        .expect("ids")
        .count()
}

#[test]
fn more_new_subscribers_than_the_limit_are_not_told() {
    let mut w = World::new();
    let emails: Vec<String> =
        (0..=MAX_BULK_NEW_SUBSCRIPTION_MESSAGES).map(|n| format!("user{n}@example.com")).collect();
    for email in &emails {
        w.add_user(email, "Someone", Role::Member);
    }
    // New users join #general as a default channel: take them out again.
    let owner = w.actor("owner@example.com");
    let everyone = json!(emails).to_string();
    let leave = params(&[("subscriptions", r#"["general"]"#), ("principals", everyone.as_str())]);
    w.run(|s, _| api::subscriptions::unsubscribe(s, &owner, &leave)).expect("left");

    let (reply, sent) = subscribe_and_count_notices(&mut w, &emails);
    assert_eq!(reply["subscribed"].as_object().expect("map").len(), MAX_BULK_NEW_SUBSCRIPTION_MESSAGES + 1);
    assert_eq!(reply["new_subscription_messages_sent"], false);
    assert_eq!(sent, 0);

    let leave = params(&[("subscriptions", r#"["general"]"#), ("principals", everyone.as_str())]);
    w.run(|s, _| api::subscriptions::unsubscribe(s, &owner, &leave)).expect("left");
    let (reply, sent) = subscribe_and_count_notices(&mut w, &emails[1..]);
    assert_eq!(reply["new_subscription_messages_sent"], true);
    assert_eq!(sent, MAX_BULK_NEW_SUBSCRIPTION_MESSAGES);
}
