//! Every mutation's events keep a client's state right (see `support::consistency`).
//! Message edits: content (mentions come and go), topic renames, moves between channels in
//! the three propagate modes, resolving and unresolving.

mod support;

use confab_core::api;
use confab_core::ids::MessageId;
use confab_core::memory::MemoryStore;
use confab_core::store::Store as _;
use confab_core::{Actor, ApiResult, Outcome};
use support::consistency::{self, channel, check};
use support::{World, params};

/// A client that keeps unread counts, with what decides muting.
const UNREADS: &[(&str, &str)] = &[(
    "event_types",
    r#"["message", "update_message_flags", "delete_message", "update_message", "subscription", "user_topic"]"#,
)];

/// The shared world without the preference Ada has for `#general` > `hello`, which she
/// follows for having started it: these cases list every preference users have.
fn world() -> World {
    let mut w = consistency::world();
    set_policy(&mut w, "ada@example.com", "general", "hello", "0");
    w
}

fn edit(
    actor: &Actor,
    id: u64,
    pairs: &[(&str, &str)],
) -> impl FnOnce(&MemoryStore, i64) -> ApiResult<Outcome> {
    let (actor, p) = (actor.clone(), params(pairs));
    move |store, now| api::messages::update_message(store, &actor, MessageId(id), &p, now)
}

/// Ids of messages the owner writes to `#general` > `topic`, unread for Ada and Bob.
fn owner_writes(w: &mut World, topic: &str, count: usize) -> Vec<u64> {
    (0..count).map(|n| w.stream("owner@example.com", "general", topic, &format!("note {n}"))).collect()
}

#[test]
fn content_edits_bring_and_take_mentions() {
    let mut w = world();
    let bob = w.actor("bob@example.com");
    let id = w.stream("bob@example.com", "general", "plans", "lunch?");
    for content in ["@**Ada Lovelace** lunch?", "lunch?", "@**all** lunch?", "@*everyone* lunch?"] {
        for viewer in ["ada@example.com", "bob@example.com"] {
            check(&mut w, viewer, UNREADS, edit(&bob, id, &[("content", content)]));
        }
    }
    // In a muted topic a wildcard mention is no mention, and the message is not counted.
    let ada = w.actor("ada@example.com");
    let general = channel(&w, "general").to_string();
    let mute = params(&[("stream_id", &general), ("topic", "plans"), ("visibility_policy", "1")]);
    w.run(|s, now| api::user_topics::update_user_topic(s, &ada, &mute, now)).expect("muted");
    for content in ["@**all** dinner?", "@**Ada Lovelace** dinner?", "dinner?"] {
        check(&mut w, "ada@example.com", UNREADS, edit(&bob, id, &[("content", content)]));
    }
}

#[test]
fn topic_renames_move_unread_messages() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let ids = owner_writes(&mut w, "plans", 4);
    check(&mut w, "ada@example.com", UNREADS, edit(&owner, ids[0], &[("topic", "lunch")]));
    let later = [("topic", "dinner"), ("propagate_mode", "change_later")];
    check(&mut w, "ada@example.com", UNREADS, edit(&owner, ids[2], &later));
    // Into a topic that exists, spelled otherwise: the two are one topic.
    let all =
        [("topic", "Lunch"), ("propagate_mode", "change_all"), ("send_notification_to_old_thread", "true")];
    check(&mut w, "ada@example.com", UNREADS, edit(&owner, ids[3], &all));
    // One message into a muted topic, and out of it again (a part of a topic moves without
    // the topic's muting).
    let ada = w.actor("ada@example.com");
    let general = channel(&w, "general").to_string();
    w.stream("owner@example.com", "general", "quiet", "shh");
    let mute = params(&[("stream_id", &general), ("topic", "quiet"), ("visibility_policy", "1")]);
    w.run(|s, now| api::user_topics::update_user_topic(s, &ada, &mute, now)).expect("muted");
    let busy = owner_writes(&mut w, "busy", 2);
    let quiet = [("topic", "quiet"), ("propagate_mode", "change_one")];
    check(&mut w, "ada@example.com", UNREADS, edit(&owner, busy[0], &quiet));
    let out = [("topic", "loud"), ("propagate_mode", "change_one")];
    check(&mut w, "ada@example.com", UNREADS, edit(&owner, busy[0], &out));
}

/// A client of before `user_topic`, that keeps the muted topics list instead.
const LEGACY_UNREADS: &[(&str, &str)] = &[(
    "event_types",
    r#"["message", "update_message_flags", "delete_message", "update_message", "subscription", "muted_topics"]"#,
)];

/// Sets `who`'s policy for `#channel` > `topic`.
fn set_policy(w: &mut World, who: &str, channel_name: &str, topic: &str, policy: &str) {
    let actor = w.actor(who);
    let id = channel(w, channel_name).to_string();
    let p = params(&[("stream_id", &id), ("topic", topic), ("visibility_policy", policy)]);
    w.run(|s, now| api::user_topics::update_user_topic(s, &actor, &p, now)).expect("policy set");
}

/// `who`'s policies as (channel, topic, policy).
fn policies(w: &World, who: &str) -> Vec<(String, String, i64)> {
    let user = w.user_id(who);
    let all = api::user_topics::user_topics_json(&w.store, user, true).expect("user topics");
    let mut found: Vec<(String, String, i64)> = all
        .as_array()
        .expect("list")
        .iter()
        .map(|p| {
            let stream = confab_core::ids::StreamId(p["stream_id"].as_u64().expect("id"));
            let name = w.store.stream(stream).ok().flatten().expect("channel").name;
            (
                name,
                p["topic_name"].as_str().expect("topic").to_owned(),
                p["visibility_policy"].as_i64().expect("policy"),
            )
        })
        .collect();
    found.sort();
    found
}

fn policy(channel: &str, topic: &str, policy: i64) -> (String, String, i64) {
    (channel.to_owned(), topic.to_owned(), policy)
}

#[test]
fn a_whole_topic_takes_its_preferences_along() {
    for register in [UNREADS, LEGACY_UNREADS] {
        for viewer in ["ada@example.com", "bob@example.com"] {
            let mut w = world();
            let owner = w.actor("owner@example.com");
            let ids = owner_writes(&mut w, "plans", 3);
            set_policy(&mut w, "ada@example.com", "general", "plans", "1");
            set_policy(&mut w, "bob@example.com", "general", "plans", "3");

            // `change_all`: the whole topic, preferences and all.
            let all = [("topic", "lunch"), ("propagate_mode", "change_all")];
            let events = check(&mut w, viewer, register, edit(&owner, ids[1], &all));
            assert!(!events.is_empty(), "{viewer} hears of it");
            assert_eq!(policies(&w, "ada@example.com"), [policy("general", "lunch", 1)]);
            assert_eq!(policies(&w, "bob@example.com"), [policy("general", "lunch", 3)]);

            // `change_one` of one message of three: the topic stays, and its preferences.
            let one = [("topic", "dinner"), ("propagate_mode", "change_one")];
            check(&mut w, viewer, register, edit(&owner, ids[2], &one));
            assert_eq!(policies(&w, "ada@example.com"), [policy("general", "lunch", 1)]);

            // `change_later` from the first message is the whole topic too.
            let later = [("topic", "brunch"), ("propagate_mode", "change_later")];
            check(&mut w, viewer, register, edit(&owner, ids[0], &later));
            assert_eq!(policies(&w, "ada@example.com"), [policy("general", "brunch", 1)]);
            assert_eq!(policies(&w, "bob@example.com"), [policy("general", "brunch", 3)]);

            // So is `change_one` of the one message left; resolving moves the topic as well.
            check(&mut w, viewer, register, edit(&owner, ids[2], &[("topic", "supper")]));
            let resolve = [("topic", "✔ brunch"), ("propagate_mode", "change_all")];
            check(&mut w, viewer, register, edit(&owner, ids[0], &resolve));
            assert_eq!(policies(&w, "bob@example.com"), [policy("general", "✔ brunch", 3)]);
        }
    }
}

#[test]
fn moving_into_a_topic_with_preferences_merges_them() {
    for register in [UNREADS, LEGACY_UNREADS] {
        for viewer in ["ada@example.com", "bob@example.com"] {
            let mut w = world();
            let owner = w.actor("owner@example.com");
            let from = owner_writes(&mut w, "from", 1);
            owner_writes(&mut w, "into", 1);
            owner_writes(&mut w, "empty", 1);
            // Both muted stays muted; muted into nothing is nothing (the more visible wins).
            set_policy(&mut w, "ada@example.com", "general", "from", "1");
            set_policy(&mut w, "ada@example.com", "general", "into", "1");
            set_policy(&mut w, "bob@example.com", "general", "from", "1");
            let into = [("topic", "into"), ("propagate_mode", "change_all")];
            check(&mut w, viewer, register, edit(&owner, from[0], &into));
            assert_eq!(policies(&w, "ada@example.com"), [policy("general", "into", 1)]);
            assert_eq!(policies(&w, "bob@example.com"), []);

            // Followed beats muted; unmuted beats nothing.
            set_policy(&mut w, "bob@example.com", "general", "empty", "3");
            set_policy(&mut w, "ada@example.com", "general", "empty", "2");
            let back = [("topic", "empty"), ("propagate_mode", "change_all")];
            check(&mut w, viewer, register, edit(&owner, from[0], &back));
            assert_eq!(policies(&w, "ada@example.com"), [policy("general", "empty", 2)]);
            assert_eq!(policies(&w, "bob@example.com"), [policy("general", "empty", 3)]);
        }
    }
}

#[test]
fn a_preference_left_for_a_topic_without_messages_gives_way() {
    // Zulip keeps preferences for topics whose messages were all deleted; a topic moved there
    // brings its own (here, none).
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let ids = owner_writes(&mut w, "fresh", 1);
    set_policy(&mut w, "ada@example.com", "general", "ghost", "1");
    let to_ghost = [("topic", "ghost"), ("propagate_mode", "change_all")];
    check(&mut w, "ada@example.com", UNREADS, edit(&owner, ids[0], &to_ghost));
    assert_eq!(policies(&w, "ada@example.com"), []);
}

#[test]
fn resolving_and_unresolving_a_topic() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let ids = owner_writes(&mut w, "plans", 2);
    for topic in ["✔ plans", "plans"] {
        for viewer in ["ada@example.com", "owner@example.com"] {
            let pairs = [("topic", topic), ("propagate_mode", "change_all")];
            check(&mut w, viewer, UNREADS, edit(&owner, ids[1], &pairs));
            // The next viewer's turn: put it back first.
            if viewer == "ada@example.com" {
                let back = if topic == "plans" { "✔ plans" } else { "plans" };
                let undo = params(&[("topic", back), ("propagate_mode", "change_all")]);
                let owner = owner.clone();
                w.run(|s, now| api::messages::update_message(s, &owner, MessageId(ids[1]), &undo, now))
                    .expect("put back");
            }
        }
    }
}

#[test]
fn moves_between_channels() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    // Ada reads `#design` (muted), is not in `#random`, and may not read `#secret`.
    w.subscribe("owner@example.com", r#"[{"name": "design"}]"#, &[("principals", r#"["ada@example.com"]"#)]);
    w.subscribe("owner@example.com", r#"[{"name": "random"}]"#, &[]);
    w.subscribe("owner@example.com", r#"[{"name": "secret"}]"#, &[("invite_only", "true")]);
    let design = channel(&w, "design").to_string();
    let random = channel(&w, "random").to_string();
    let secret = channel(&w, "secret").to_string();
    for viewer in ["ada@example.com", "bob@example.com", "owner@example.com"] {
        let ids = owner_writes(&mut w, viewer, 6);
        let moves: [(&str, &str, u64); 4] = [
            (&design, "change_one", ids[0]),
            (&random, "change_later", ids[4]),
            (&secret, "change_all", ids[2]),
            (&design, "change_all", ids[1]),
        ];
        for (to, mode, id) in moves {
            let pairs = [("stream_id", to), ("propagate_mode", mode)];
            let events = check(&mut w, viewer, UNREADS, edit(&owner, id, &pairs));
            // Who may not follow the messages is told only that they are gone.
            if to == secret && viewer != "owner@example.com" {
                assert!(!events.is_empty(), "{viewer}");
                assert!(events.iter().all(|e| e["type"] == "delete_message"), "{viewer}: {events:?}");
            }
        }
    }
    let ada = w.actor("ada@example.com");
    let muted = format!(r#"[{{"stream_id": {design}, "property": "is_muted", "value": true}}]"#);
    let p = params(&[("subscription_data", &muted)]);
    w.run(|s, _| api::subscription_properties::update_subscription_settings(s, &ada, &p)).expect("muted");
    let ids = owner_writes(&mut w, "into the quiet", 2);
    let pairs = [("stream_id", design.as_str()), ("propagate_mode", "change_all")];
    check(&mut w, "ada@example.com", UNREADS, edit(&owner, ids[0], &pairs));
    let general = channel(&w, "general").to_string();
    let pairs = [("stream_id", general.as_str()), ("propagate_mode", "change_all")];
    check(&mut w, "ada@example.com", UNREADS, edit(&owner, ids[0], &pairs));
}

#[test]
fn a_topic_moved_between_channels_takes_preferences_only_where_they_can_follow() {
    for register in [UNREADS, LEGACY_UNREADS] {
        for viewer in ["ada@example.com", "bob@example.com"] {
            let mut w = world();
            let owner = w.actor("owner@example.com");
            w.subscribe(
                "owner@example.com",
                r#"[{"name": "design"}]"#,
                &[("principals", r#"["ada@example.com", "bob@example.com"]"#)],
            );
            w.subscribe(
                "owner@example.com",
                r#"[{"name": "secret"}]"#,
                &[("invite_only", "true"), ("principals", r#"["owner@example.com", "bob@example.com"]"#)],
            );
            let ids = owner_writes(&mut w, "plans", 2);
            set_policy(&mut w, "ada@example.com", "general", "plans", "3");
            set_policy(&mut w, "bob@example.com", "general", "plans", "1");
            let design = channel(&w, "design").to_string();
            let pairs = [("stream_id", design.as_str()), ("propagate_mode", "change_all")];
            check(&mut w, viewer, register, edit(&owner, ids[0], &pairs));
            assert_eq!(policies(&w, "ada@example.com"), [policy("design", "plans", 3)]);
            assert_eq!(policies(&w, "bob@example.com"), [policy("design", "plans", 1)]);

            // Ada cannot read `#secret`: for her the topic is gone, and her preference with it.
            // (A later message keeps her newest message where it was.)
            w.stream("owner@example.com", "general", "elsewhere", "still here");
            let secret = channel(&w, "secret").to_string();
            let pairs = [("stream_id", secret.as_str()), ("propagate_mode", "change_all")];
            check(&mut w, viewer, register, edit(&owner, ids[0], &pairs));
            assert_eq!(policies(&w, "ada@example.com"), []);
            assert_eq!(policies(&w, "bob@example.com"), [policy("secret", "plans", 1)]);
        }
    }
}
