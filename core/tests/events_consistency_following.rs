//! Every mutation's events keep a client's state right (see `support::consistency`).
//! Topics users come to follow or unmute by taking part in them: starting a topic, sending to
//! a topic of a muted channel, being mentioned, reacting; and users whose settings say never.
//! Each change reaches the user's clients before the message or reaction that caused it.

mod support;

use confab_core::api;
use confab_core::ids::MessageId;
use confab_core::memory::MemoryStore;
use confab_core::model::Role;
use confab_core::{Actor, ApiResult, Outcome};
use serde_json::Value;
use support::consistency::{channel, check, run, world};
use support::{World, params};

/// A client that keeps unread counts and topic preferences.
const FOLLOWING: &[(&str, &str)] =
    &[("event_types", r#"["message", "update_message_flags", "subscription", "user_topic", "reaction"]"#)];

/// A client of before `user_topic`, that keeps the muted topics list instead.
const LEGACY: &[(&str, &str)] =
    &[("event_types", r#"["message", "update_message_flags", "subscription", "muted_topics", "reaction"]"#)];

fn types(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["type"].as_str().unwrap_or_default()).collect()
}

/// `who`'s policy for `#general` > `topic` (0 without one).
fn policy(w: &World, who: &str, topic: &str) -> i64 {
    let general = channel(w, "general");
    let all = api::user_topics::user_topics_json(&w.store, w.user_id(who), true).expect("user topics");
    all.as_array()
        .expect("list")
        .iter()
        .find(|p| p["stream_id"] == general.0 && p["topic_name"].as_str() == Some(topic))
        .and_then(|p| p["visibility_policy"].as_i64())
        .unwrap_or_default()
}

fn change_settings(w: &mut World, who: &str, pairs: &[(&str, &str)]) {
    let actor = w.actor(who);
    let p = params(pairs);
    w.run(|s, _| api::settings::update_settings(s, &actor, &p)).expect("settings changed");
}

fn set_policy(w: &mut World, who: &str, topic: &str, policy: &str) {
    let actor = w.actor(who);
    let general = channel(w, "general").to_string();
    let p = params(&[("stream_id", &general), ("topic", topic), ("visibility_policy", policy)]);
    w.run(|s, now| api::user_topics::update_user_topic(s, &actor, &p, now)).expect("policy set");
}

fn mute_general(w: &mut World, who: &str) {
    let actor = w.actor(who);
    let general = channel(w, "general");
    let muted = format!(r#"[{{"stream_id": {general}, "property": "is_muted", "value": true}}]"#);
    let p = params(&[("subscription_data", &muted)]);
    w.run(|s, _| api::subscription_properties::update_subscription_settings(s, &actor, &p)).expect("muted");
}

fn to_general(topic: &str, content: &str) -> Vec<(&'static str, String)> {
    vec![
        ("type", "stream".into()),
        ("to", "general".into()),
        ("topic", topic.into()),
        ("content", content.into()),
    ]
}

fn send(
    w: &mut World,
    sender: &str,
    viewer: &str,
    register: &[(&str, &str)],
    pairs: &[(&'static str, String)],
) -> Vec<Value> {
    let actor = w.actor(sender);
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    check(w, viewer, register, run(api::messages::send_message, actor, &pairs))
}

fn react(actor: Actor, message: u64) -> impl FnOnce(&MemoryStore, i64) -> ApiResult<Outcome> {
    let p = params(&[("emoji_name", "octopus")]);
    move |store, now| api::messages::add_reaction(store, &actor, MessageId(message), &p, now)
}

#[test]
fn starting_a_topic_follows_it() {
    for (register, change) in [(FOLLOWING, "user_topic"), (LEGACY, "muted_topics")] {
        let mut w = world();
        let events =
            send(&mut w, "bob@example.com", "bob@example.com", register, &to_general("plans", "lunch?"));
        assert_eq!(types(&events), [change, "message"], "the policy comes first");
        assert_eq!(policy(&w, "bob@example.com", "plans"), 3);

        // Sending to it again, or to a topic someone else started, changes nothing.
        for topic in ["Plans", "hello"] {
            let events =
                send(&mut w, "bob@example.com", "bob@example.com", register, &to_general(topic, "more"));
            assert_eq!(types(&events), ["message"], "{topic}");
        }
        assert_eq!(policy(&w, "bob@example.com", "hello"), 0);
    }
}

#[test]
fn sending_to_a_topic_of_a_muted_channel_unmutes_it() {
    // Only `user_topic` clients: the legacy muted list cannot say that a topic of a muted
    // channel is unmuted.
    let mut w = world();
    w.stream("owner@example.com", "general", "plans", "lunch?");
    w.stream("owner@example.com", "general", "quiet", "shh");
    mute_general(&mut w, "bob@example.com");
    set_policy(&mut w, "bob@example.com", "quiet", "1");
    // Bob's unread messages there count again once the topic is unmuted.
    for topic in ["plans", "quiet"] {
        let events =
            send(&mut w, "bob@example.com", "bob@example.com", FOLLOWING, &to_general(topic, "me too"));
        assert_eq!(types(&events), ["user_topic", "message"], "{topic}");
        assert_eq!(policy(&w, "bob@example.com", topic), 2, "{topic}");
    }
}

#[test]
fn being_mentioned_follows_the_topic() {
    for (register, change) in [(FOLLOWING, "user_topic"), (LEGACY, "muted_topics")] {
        let mut w = world();
        w.stream("owner@example.com", "general", "plans", "lunch?");
        let events = send(
            &mut w,
            "owner@example.com",
            "bob@example.com",
            register,
            &to_general("plans", "@**Bob Builder** lunch?"),
        );
        assert_eq!(types(&events), [change, "message"]);
        assert_eq!(policy(&w, "bob@example.com", "plans"), 3);

        // Through a group too; a topic Bob muted stays muted, and wildcards follow nothing.
        let owner = w.actor("owner@example.com");
        let bob = w.user_id("bob@example.com");
        let p = params(&[("name", "builders"), ("description", "B"), ("members", &format!("[{bob}]"))]);
        w.run(|s, now| api::user_groups::create_user_group(s, &owner, &p, now)).expect("group");
        set_policy(&mut w, "bob@example.com", "quiet", "1");
        for (topic, content, followed) in [
            ("dinner", "@*builders* dinner?", 3),
            ("quiet", "@**Bob Builder** shh", 1),
            ("breakfast", "@**all** breakfast?", 0),
            ("brunch", "@_**Bob Builder** silently", 0),
        ] {
            let events =
                send(&mut w, "owner@example.com", "bob@example.com", register, &to_general(topic, content));
            assert_eq!(policy(&w, "bob@example.com", topic), followed, "{content}");
            assert_eq!(events.len(), if followed == 3 { 2 } else { 1 }, "{content}");
        }
        // Only those who receive the message: Cy, not in the channel, follows nothing. (New
        // users join #general, a default channel; Cy leaves it.)
        w.add_user("cy@example.com", "Cy Young", Role::Member);
        let cy = w.actor("cy@example.com");
        let leave = params(&[("subscriptions", r#"["general"]"#)]);
        w.run(|s, _| api::subscriptions::unsubscribe(s, &cy, &leave)).expect("Cy leaves #general");
        send(
            &mut w,
            "owner@example.com",
            "bob@example.com",
            register,
            &to_general("plans", "@**Cy Young**?"),
        );
        assert_eq!(policy(&w, "cy@example.com", "plans"), 0);
    }
}

#[test]
fn reacting_follows_the_topic_for_those_who_take_part() {
    let mut w = world();
    let first = w.stream("owner@example.com", "general", "plans", "lunch?");
    change_settings(&mut w, "bob@example.com", &[("automatically_follow_topics_policy", "1")]);
    let bob = w.actor("bob@example.com");
    let events = check(&mut w, "bob@example.com", FOLLOWING, react(bob, first));
    assert_eq!(types(&events), ["user_topic", "reaction"]);
    assert_eq!(policy(&w, "bob@example.com", "plans"), 3);

    // Ada reacts with Zulip's defaults: reacting is not sending, so nothing changes.
    let ada = w.actor("ada@example.com");
    let events = check(&mut w, "ada@example.com", FOLLOWING, react(ada, first));
    assert_eq!(types(&events), ["reaction"]);
    assert_eq!(policy(&w, "ada@example.com", "plans"), 0);
}

#[test]
fn users_whose_settings_say_never_keep_their_topics_as_they_are() {
    let mut w = world();
    mute_general(&mut w, "bob@example.com");
    change_settings(
        &mut w,
        "bob@example.com",
        &[
            ("automatically_follow_topics_policy", "4"),
            ("automatically_unmute_topics_in_muted_streams_policy", "4"),
            ("automatically_follow_topics_where_mentioned", "false"),
        ],
    );
    let started =
        send(&mut w, "bob@example.com", "bob@example.com", FOLLOWING, &to_general("plans", "lunch?"));
    let mentioned = send(
        &mut w,
        "owner@example.com",
        "bob@example.com",
        FOLLOWING,
        &to_general("plans", "@**Bob Builder** yes"),
    );
    assert_eq!((types(&started), types(&mentioned)), (vec!["message"], vec!["message"]));
    assert_eq!(policy(&w, "bob@example.com", "plans"), 0);
}
