//! Every narrow operator of zulip-semantics §2, positive and negated, in both wire forms, on
//! one small organization. Each case: who asks, the narrow, and the messages (by label) they
//! get back.

mod support;

use std::collections::BTreeMap;

use confab_core::api;
use confab_core::model::Role;
use confab_core::store::Store;
use serde_json::json;
use support::{World, params};

/// The organization every case runs against, with labelled messages.
fn fixture() -> (World, BTreeMap<&'static str, u64>) {
    let mut w = World::new();
    w.add_user("ada@example.com", "Ada Lovelace", Role::Member);
    w.add_user("bob@example.com", "Bob Builder", Role::Member);
    w.add_user("gus@example.com", "Gus Guest", Role::Guest);
    let all = r#"["owner@example.com", "ada@example.com", "bob@example.com"]"#;
    w.subscribe("owner@example.com", r#"[{"name": "general"}, {"name": "design"}]"#, &[("principals", all)]);
    w.subscribe(
        "owner@example.com",
        r#"[{"name": "secret"}]"#,
        &[("invite_only", "true"), ("principals", r#"["owner@example.com", "ada@example.com"]"#)],
    );
    // Ada follows no topic for starting it: the cases give her the preferences they test.
    let ada = w.actor("ada@example.com");
    let never = params(&[("automatically_follow_topics_policy", "4")]);
    w.run(|s, _| api::settings::update_settings(s, &ada, &never)).expect("setting changed");
    let mut m = BTreeMap::new();
    m.insert(
        "lunch",
        w.stream("owner@example.com", "general", "Lunch", "Pizza at noon? [menu](https://pizza.example)"),
    );
    m.insert("lunch2", w.stream("ada@example.com", "general", "lunch", "Yes, pizza!"));
    m.insert(
        "standup",
        w.stream("bob@example.com", "general", "standup", "Done with ![plan](https://x.example/plan.png)"),
    );
    m.insert("design", w.stream("ada@example.com", "design", "✔ colours", "Blue it is"));
    m.insert("secret", w.stream("owner@example.com", "secret", "plans", "Top secret pizza"));
    m.insert("dm_ada", w.dm("owner@example.com", r#"["ada@example.com"]"#, "psst"));
    m.insert("dm_back", w.dm("ada@example.com", r#"["owner@example.com"]"#, "what?"));
    m.insert(
        "group",
        w.dm("bob@example.com", r#"["ada@example.com", "owner@example.com"]"#, "all three of us"),
    );
    m.insert("self", w.dm("owner@example.com", r#"["owner@example.com"]"#, "note to self"));
    // Ada stars one message and reacts to another; she has read everything but the standup.
    let ada = w.actor("ada@example.com");
    let star = params(&[("messages", &format!("[{}]", m["lunch"])), ("op", "add"), ("flag", "starred")]);
    w.run(|s, _| api::messages::update_message_flags(s, &ada, &star)).expect("starred");
    let unread_ones: Vec<u64> =
        m.iter().filter(|(k, _)| !["standup", "self"].contains(k)).map(|(_, v)| *v).collect();
    let read = params(&[("messages", &json!(unread_ones).to_string()), ("op", "add"), ("flag", "read")]);
    w.run(|s, _| api::messages::update_message_flags(s, &ada, &read)).expect("read");
    (w, m)
}

#[test]
fn every_operator_positive_and_negated() {
    let (w, m) = fixture();
    let ids = |labels: &[&str]| -> Vec<u64> {
        let mut ids: Vec<u64> = labels.iter().map(|l| m[l]).collect();
        ids.sort_unstable();
        ids
    };
    let general_id = w.store.stream_by_name(w.realm, "general").ok().flatten().expect("general").0;
    let ada_id = w.user_id("ada@example.com").0;
    let cases: Vec<(&str, String, Vec<u64>)> = vec![
        ("ada", r#"[["stream", "general"]]"#.into(), ids(&["lunch", "lunch2", "standup"])),
        (
            "ada",
            format!(r#"[{{"operator": "channel", "operand": {general_id}}}]"#),
            ids(&["lunch", "lunch2", "standup"]),
        ),
        (
            "ada",
            r#"[{"operator": "channel", "operand": "general", "negated": true}]"#.into(),
            ids(&["design", "secret", "dm_ada", "dm_back", "group"]),
        ),
        ("ada", r#"[["channel", "general"], ["topic", "LUNCH"]]"#.into(), ids(&["lunch", "lunch2"])),
        (
            "ada",
            r#"[{"operator": "topic", "operand": "lunch", "negated": true}]"#.into(),
            ids(&["standup", "design", "secret", "dm_ada", "dm_back", "group"]),
        ),
        ("ada", r#"[["channels", "public"]]"#.into(), ids(&["lunch", "lunch2", "standup", "design"])),
        (
            "ada",
            r#"[{"operator": "channels", "operand": "public", "negated": true}]"#.into(),
            ids(&["secret", "dm_ada", "dm_back", "group"]),
        ),
        ("ada", r#"[["dm", "owner@example.com"]]"#.into(), ids(&["dm_ada", "dm_back"])),
        (
            "ada",
            r#"[{"operator": "pm-with", "operand": "owner@example.com", "negated": true}]"#.into(),
            ids(&["lunch", "lunch2", "standup", "design", "secret", "group"]),
        ),
        ("ada", r#"[["dm", "owner@example.com,bob@example.com"]]"#.into(), ids(&["group"])),
        ("owner", r#"[["dm", "owner@example.com"]]"#.into(), ids(&["self"])),
        ("owner", r#"[["dm-including", "ada@example.com"]]"#.into(), ids(&["dm_ada", "dm_back", "group"])),
        (
            "owner",
            r#"[{"operator": "dm-including", "operand": "bob@example.com", "negated": true}]"#.into(),
            ids(&["lunch", "lunch2", "standup", "design", "secret", "dm_ada", "dm_back", "self"]),
        ),
        ("owner", r#"[["group-pm-with", "bob@example.com"]]"#.into(), ids(&["group"])),
        ("ada", r#"[["sender", "bob@example.com"]]"#.into(), ids(&["standup", "group"])),
        (
            "ada",
            format!(r#"[{{"operator": "sender", "operand": {ada_id}, "negated": true}}]"#),
            ids(&["lunch", "standup", "secret", "dm_ada", "group"]),
        ),
        ("ada", r#"[["is", "dm"]]"#.into(), ids(&["dm_ada", "dm_back", "group"])),
        ("ada", r#"[["is", "private"]]"#.into(), ids(&["dm_ada", "dm_back", "group"])),
        (
            "ada",
            r#"[{"operator": "is", "operand": "dm", "negated": true}]"#.into(),
            ids(&["lunch", "lunch2", "standup", "design", "secret"]),
        ),
        ("ada", r#"[["is", "starred"]]"#.into(), ids(&["lunch"])),
        (
            "ada",
            r#"[{"operator": "is", "operand": "starred", "negated": true}]"#.into(),
            ids(&["lunch2", "standup", "design", "secret", "dm_ada", "dm_back", "group"]),
        ),
        ("ada", r#"[["is", "unread"]]"#.into(), ids(&["standup"])),
        (
            "ada",
            r#"[{"operator": "is", "operand": "unread", "negated": true}]"#.into(),
            ids(&["lunch", "lunch2", "design", "secret", "dm_ada", "dm_back", "group"]),
        ),
        ("ada", r#"[["is", "mentioned"]]"#.into(), ids(&[])),
        ("ada", r#"[["is", "alerted"]]"#.into(), ids(&[])),
        ("ada", r#"[["is", "resolved"]]"#.into(), ids(&["design"])),
        (
            "ada",
            r#"[{"operator": "is", "operand": "resolved", "negated": true}]"#.into(),
            ids(&["lunch", "lunch2", "standup", "secret", "dm_ada", "dm_back", "group"]),
        ),
        ("ada", r#"[["is", "followed"]]"#.into(), ids(&[])),
        ("ada", r#"[["is", "muted"]]"#.into(), ids(&[])),
        (
            "ada",
            r#"[["in", "home"]]"#.into(),
            ids(&["lunch", "lunch2", "standup", "design", "secret", "dm_ada", "dm_back", "group"]),
        ),
        (
            "ada",
            r#"[["in", "all"]]"#.into(),
            ids(&["lunch", "lunch2", "standup", "design", "secret", "dm_ada", "dm_back", "group"]),
        ),
        ("ada", r#"[["has", "link"]]"#.into(), ids(&["lunch", "standup"])),
        (
            "ada",
            r#"[{"operator": "has", "operand": "link", "negated": true}]"#.into(),
            ids(&["lunch2", "design", "secret", "dm_ada", "dm_back", "group"]),
        ),
        ("ada", r#"[["has", "image"]]"#.into(), ids(&["standup"])),
        ("ada", r#"[["has", "attachment"]]"#.into(), ids(&[])),
        ("ada", r#"[["has", "reaction"]]"#.into(), ids(&[])),
        ("ada", format!(r#"[["id", "{}"]]"#, m["design"]), ids(&["design"])),
        (
            "ada",
            format!(r#"[{{"operator": "id", "operand": {}, "negated": true}}]"#, m["design"]),
            ids(&["lunch", "lunch2", "standup", "secret", "dm_ada", "dm_back", "group"]),
        ),
        (
            "ada",
            format!(r#"[["near", "{}"]]"#, m["design"]),
            ids(&["lunch", "lunch2", "standup", "design", "secret", "dm_ada", "dm_back", "group"]),
        ),
        ("ada", format!(r#"[["with", "{}"]]"#, m["lunch2"]), ids(&["lunch", "lunch2"])),
        (
            "ada",
            format!(r#"[["channel", "design"], ["with", "{}"]]"#, m["dm_back"]),
            ids(&["dm_ada", "dm_back"]),
        ),
        ("ada", r#"[["search", "pizza"]]"#.into(), ids(&["lunch", "lunch2", "secret"])),
        ("ada", r#"[["search", "\"at noon\""]]"#.into(), ids(&["lunch"])),
        (
            "ada",
            r#"[{"operator": "search", "operand": "pizza", "negated": true}]"#.into(),
            ids(&["standup", "design", "dm_ada", "dm_back", "group"]),
        ),
        ("ada", r#"[["channel", "general"], ["search", "PIZZA"]]"#.into(), ids(&["lunch", "lunch2"])),
        // Bob is not in #secret: its history stays hidden from him.
        ("bob", r#"[["search", "pizza"]]"#.into(), ids(&["lunch", "lunch2"])),
        // The guest was never subscribed: a public channel's history is not his.
        ("gus", r#"[["channel", "general"]]"#.into(), ids(&[])),
        ("gus", r#"[["channels", "public"]]"#.into(), ids(&[])),
    ];
    for (who, narrow, expected) in cases {
        let email = format!("{who}@example.com");
        let mut got = w.narrow(&email, &narrow).unwrap_or_else(|e| panic!("{who} {narrow}: {e}"));
        // The Notification Bot's notices about the fixture's new channels are not cases.
        got.retain(|id| m.values().any(|labelled| labelled == id));
        assert_eq!(got, expected, "{who} asked for {narrow}");
    }
}

#[test]
fn invalid_narrows_are_bad_narrow_errors() {
    let (w, m) = fixture();
    let cases: Vec<(String, &str)> = vec![
        (r#"[["bogus", "x"]]"#.into(), "Invalid narrow operator: unknown operator bogus"),
        (r#"[["is", "sleepy"]]"#.into(), "Invalid narrow operator: unknown 'is' operand sleepy"),
        (r#"[["has", "cats"]]"#.into(), "Invalid narrow operator: unknown 'has' operand cats"),
        (r#"[["channel", "nowhere"]]"#.into(), "Invalid narrow operator: unknown channel"),
        (r#"[["sender", "ghost@example.com"]]"#.into(), "Invalid narrow operator: unknown user"),
        (r#"[["id", "x"]]"#.into(), "Invalid message ID"),
        (r#"[["search", "  "]]"#.into(), "Invalid narrow operand for search"),
        (
            r#"[["channel", "general"], ["dm", "ada@example.com"]]"#.into(),
            "No message can be both a channel message and direct message",
        ),
        (r#"[["with", "999999"]]"#.into(), "Invalid 'with' operator"),
        (format!(r#"[["with", "{0}"], ["with", "{0}"]]"#, m["lunch"]), "Duplicate 'with' operators."),
    ];
    for (narrow, msg) in cases {
        let err = w.narrow("ada@example.com", &narrow).expect_err(&narrow);
        assert_eq!(err.code.wire(), "BAD_NARROW", "{narrow}");
        assert_eq!(err.msg, msg, "{narrow}");
    }
    let malformed = w.narrow("ada@example.com", "[[").expect_err("malformed");
    assert_eq!((malformed.code.wire(), malformed.msg.as_str()), ("BAD_REQUEST", "narrow is not valid JSON"));
}

/// What a user muted, unmuted and followed decides `in:home`, `is:muted` and `is:followed`,
/// the first unread message and the unread counts, as in Zulip (`exclude_stream_and_topic_mutes`,
/// zulip-semantics §2 and §3.3): a muted topic is muted anywhere; a muted channel's topics are
/// muted unless unmuted or followed; topics match case-insensitively.
#[test]
fn topic_preferences_and_channel_muting_decide_what_is_muted() {
    let (mut w, m) = fixture();
    let ada = w.actor("ada@example.com");
    let stream = |w: &World, name: &str| w.store.stream_by_name(w.realm, name).ok().flatten().expect(name).0;
    let (general, design, secret) = (stream(&w, "general"), stream(&w, "design"), stream(&w, "secret"));
    let now = w.now;
    for (channel, topic, policy) in
        [(general, "LUNCH", "1"), (general, "standup", "3"), (secret, "Plans", "2")]
    {
        let p =
            params(&[("stream_id", &channel.to_string()), ("topic", topic), ("visibility_policy", policy)]);
        w.run(|s, _| api::user_topics::update_user_topic(s, &ada, &p, now)).expect("topic preference");
    }
    let mute = format!(
        r#"[{{"stream_id": {design}, "property": "is_muted", "value": true}}, {{"stream_id": {secret}, "property": "is_muted", "value": true}}]"#
    );
    let p = params(&[("subscription_data", &mute)]);
    w.run(|s, _| api::subscription_properties::update_subscription_settings(s, &ada, &p)).expect("muted");

    let ids = |labels: &[&str]| -> Vec<u64> {
        let mut ids: Vec<u64> = labels.iter().map(|l| m[l]).collect();
        ids.sort_unstable();
        ids
    };
    let home = ids(&["standup", "secret", "dm_ada", "dm_back", "group"]);
    let cases: Vec<(&str, Vec<u64>)> = vec![
        (r#"[["is", "followed"]]"#, ids(&["standup"])),
        (r#"[{"operator": "is", "operand": "followed", "negated": true}]"#, {
            ids(&["lunch", "lunch2", "design", "secret", "dm_ada", "dm_back", "group"])
        }),
        (r#"[["is", "muted"]]"#, ids(&["lunch", "lunch2", "design"])),
        (r#"[{"operator": "is", "operand": "muted", "negated": true}]"#, home.clone()),
        (r#"[["in", "home"]]"#, home),
        (r#"[{"operator": "in", "operand": "home", "negated": true}]"#, ids(&["lunch", "lunch2", "design"])),
        (r#"[["channel", "general"], ["is", "muted"]]"#, ids(&["lunch", "lunch2"])),
    ];
    for (narrow, expected) in cases {
        let mut got = w.narrow("ada@example.com", narrow).unwrap_or_else(|e| panic!("{narrow}: {e}"));
        got.retain(|id| m.values().any(|labelled| labelled == id));
        assert_eq!(got, expected, "ada asked for {narrow}");
    }

    // Ada reads everything, then marks all of #general unread again.
    w.run(|s, _| api::messages::mark_all_as_read(s, &ada)).expect("all read");
    let general_ids = json!(ids(&["lunch", "lunch2", "standup"])).to_string();
    let p = params(&[("messages", &general_ids), ("op", "remove"), ("flag", "read")]);
    w.run(|s, _| api::messages::update_message_flags(s, &ada, &p)).expect("unread");
    let first_unread = |w: &World, narrow: &str| -> u64 {
        let p = params(&[
            ("anchor", "first_unread"),
            ("num_before", "0"),
            ("num_after", "0"),
            ("narrow", narrow),
        ]);
        let reply = api::messages::get_messages(&w.store, &ada, &p).expect("messages").reply_values();
        reply["anchor"].as_u64().expect("anchor")
    };
    // The muted topic is passed over, in the channel's view and everywhere else.
    assert_eq!(first_unread(&w, "[]"), m["standup"]);
    assert_eq!(first_unread(&w, r#"[["channel", "general"]]"#), m["standup"]);
    // Zulip passes over it in its own view too, which then opens at the newest message.
    assert_eq!(first_unread(&w, r#"[["channel", "general"], ["topic", "lunch"]]"#), 10_000_000_000_000_000);
    // A muted channel's own view is not muted: only its muted topics would be.
    let p = params(&[("messages", &format!("[{}]", m["design"])), ("op", "remove"), ("flag", "read")]);
    w.run(|s, _| api::messages::update_message_flags(s, &ada, &p)).expect("unread");
    assert_eq!(first_unread(&w, r#"[["channel", "design"]]"#), m["design"]);

    // Unread counts leave muted conversations out (the muted topic in #general, the muted
    // channel #design) but still list them.
    let user = w.store.user(w.user_id("ada@example.com")).ok().flatten().expect("ada");
    let unread = api::unread::unread_msgs(&w.store, &user, false).expect("unread");
    assert_eq!(unread["count"], 1, "{unread}");
    let listed: usize = unread["streams"]
        .as_array()
        .expect("streams")
        .iter()
        .map(|s| s["unread_message_ids"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(listed, 4, "{unread}");
}
