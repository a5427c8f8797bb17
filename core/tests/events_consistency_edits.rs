//! Every mutation's events keep a client's state right (see `support::consistency`).
//! Message edits: content (mentions come and go), topic renames, moves between channels in
//! the three propagate modes, resolving and unresolving.

mod support;

use confab_core::api;
use confab_core::ids::MessageId;
use confab_core::memory::MemoryStore;
use confab_core::{Actor, ApiResult, Outcome};
use support::consistency::{channel, check, world};
use support::{World, params};

/// A client that keeps unread counts, with what decides muting.
const UNREADS: &[(&str, &str)] = &[(
    "event_types",
    r#"["message", "update_message_flags", "delete_message", "update_message", "subscription", "user_topic"]"#,
)];

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
    // Into a muted topic, and out of it again.
    let ada = w.actor("ada@example.com");
    let general = channel(&w, "general").to_string();
    let mute = params(&[("stream_id", &general), ("topic", "quiet"), ("visibility_policy", "1")]);
    w.run(|s, now| api::user_topics::update_user_topic(s, &ada, &mute, now)).expect("muted");
    let quiet = [("topic", "quiet"), ("propagate_mode", "change_all")];
    check(&mut w, "ada@example.com", UNREADS, edit(&owner, ids[0], &quiet));
    let out = [("topic", "loud"), ("propagate_mode", "change_all")];
    check(&mut w, "ada@example.com", UNREADS, edit(&owner, ids[0], &out));
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
