//! Properties of the event-queue state machine under arbitrary sequences of operations: nothing
//! panics, event ids only increase, the timer always names the next due instant, and a saved
//! registry reads back to the same registry.

use std::collections::BTreeMap;

use confab_core::events::{
    ClientCapabilities, MessageVariants, Notification, Poll, PollTicket, QueueOptions, QueueOwner, Registry,
};
use confab_core::ids::{RealmId, StreamId, UserId};
use confab_core::model::MessageFlags;
use proptest::prelude::*;
use serde_json::json;

#[derive(Clone, Debug)]
enum Op {
    Register {
        queue: u8,
        user: u8,
        all_public: bool,
        narrow: u8,
        types: u8,
        caps: u16,
        guest: bool,
    },
    Message {
        receivers: u8,
        flags: u16,
        public: bool,
        private: bool,
        empty_topic: bool,
    },
    Other {
        users: u8,
        kind: u8,
    },
    /// A registered queue (by `pick`), unless `unknown`; `last`: 0 none, 1 the newest id seen,
    /// 2 one less, else `stray`.
    Get {
        pick: u8,
        unknown: bool,
        wrong_user: bool,
        last: u8,
        stray: i8,
        dont_block: bool,
    },
    Unpark {
        which: u8,
    },
    Delete {
        queue: u8,
        user: u8,
    },
    Advance {
        secs: u16,
    },
    Timeout,
    Restart,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..4u8, 0..3u8, any::<bool>(), 0..6u8, 0..4u8, any::<u16>(), proptest::bool::weighted(0.1)).prop_map(
            |(queue, user, all_public, narrow, types, caps, guest)| Op::Register {
                queue,
                user,
                all_public,
                narrow,
                types,
                caps,
                guest
            }
        ),
        3 => (any::<u8>(), any::<u16>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
            |(receivers, flags, public, private, empty_topic)| Op::Message { receivers, flags, public, private, empty_topic }
        ),
        2 => (any::<u8>(), 0..8u8).prop_map(|(users, kind)| Op::Other { users, kind }),
        4 => (any::<u8>(), proptest::bool::weighted(0.05), proptest::bool::weighted(0.05), 0..4u8, -2..30i8, any::<bool>())
            .prop_map(|(pick, unknown, wrong_user, last, stray, dont_block)| Op::Get { pick, unknown, wrong_user, last, stray, dont_block }),
        2 => any::<u8>().prop_map(|which| Op::Unpark { which }),
        1 => (0..5u8, 0..3u8).prop_map(|(queue, user)| Op::Delete { queue, user }),
        2 => prop_oneof![4 => 0..5u16, 4 => 40..50u16, 1 => 590..610u16].prop_map(|secs| Op::Advance { secs }),
        2 => Just(Op::Timeout),
        1 => Just(Op::Restart),
    ]
}

fn users(mask: u8) -> Vec<UserId> {
    (0..3u64).filter(|i| mask & (1 << i) != 0).map(UserId).collect()
}

fn options(all_public: bool, narrow: u8, types: u8, caps: u16) -> QueueOptions {
    let narrow = match narrow {
        0 => vec![],
        1 => vec![("stream".to_owned(), "general".to_owned())],
        2 => vec![("topic".to_owned(), "general chat".to_owned())],
        3 => vec![("is".to_owned(), "mentioned".to_owned())],
        4 => vec![("is".to_owned(), "followed".to_owned())],
        _ => vec![("sender".to_owned(), "u1@x".to_owned()), ("is".to_owned(), "dm".to_owned())],
    };
    let event_types = match types {
        0 => None,
        1 => Some(["message"].iter().map(|s| (*s).to_owned()).collect()),
        2 => Some(["update_display_settings", "delete_message"].iter().map(|s| (*s).to_owned()).collect()),
        _ => Some(Default::default()),
    };
    let bit = |i: u16| caps & (1 << i) != 0;
    let capabilities = ClientCapabilities {
        bulk_message_deletion: bit(0),
        stream_typing_notifications: bit(1),
        user_settings_object: bit(2),
        linkifier_url_template: bit(3),
        include_deactivated_groups: bit(4),
        archived_channels: bit(5),
        empty_topic_name: bit(6),
        ..Default::default()
    };
    QueueOptions {
        event_types,
        narrow,
        all_public_streams: all_public,
        apply_markdown: bit(7),
        client_gravatar: bit(8),
        slim_presence: bit(9),
        capabilities,
    }
}

fn other_body(kind: u8) -> serde_json::Value {
    match kind {
        0 => {
            json!({"type": "delete_message", "message_type": "stream", "message_ids": [1, 2, 3], "topic": ""})
        }
        1 => {
            json!({"type": "user_settings", "op": "update", "property": "high_contrast_mode", "value": true})
        }
        2 => json!({"type": "realm_linkifiers", "realm_linkifiers": []}),
        3 => json!({"type": "typing", "op": "start", "message_type": "stream", "stream_id": 1, "topic": ""}),
        4 => json!({"type": "update_message", "subject": "", "orig_subject": "x", "message_id": 1}),
        5 => json!({"type": "user_group", "op": "remove", "group_id": 1}),
        6 => json!({"type": "presence", "email": "a@x", "user_id": 1}),
        _ => json!("not even an object"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_sequence_of_operations_panics_or_breaks_an_invariant(ops in proptest::collection::vec(op(), 0..60)) {
        let mut reg = Registry::new();
        let mut now: i64 = 1_000;
        let mut tickets: Vec<(String, PollTicket)> = Vec::new();
        let mut message_id = 0u64;
        // Each queue's owner, and the newest event id its client has seen.
        let mut owners: BTreeMap<String, UserId> = BTreeMap::new();
        let mut seen: BTreeMap<String, i64> = BTreeMap::new();
        for op in ops {
            match op {
                Op::Register { queue, user, all_public, narrow, types, caps, guest } => {
                    let owner = QueueOwner { user: UserId(u64::from(user)), realm: RealmId(1), email: format!("u{user}@x"), is_guest: guest };
                    let id = format!("q{queue}");
                    let user = owner.user;
                    if reg.register(id.clone(), owner, options(all_public, narrow, types, caps), now).is_ok() {
                        owners.insert(id.clone(), user);
                        seen.insert(id, -1);
                    }
                }
                Op::Message { receivers, flags, public, private, empty_topic } => {
                    message_id += 1;
                    let topic = if empty_topic { "" } else { "lunch" };
                    let message = if private {
                        json!({"id": message_id, "type": "private", "subject": "", "sender_email": "u1@x", "display_recipient": []})
                    } else {
                        json!({"id": message_id, "type": "stream", "subject": topic, "sender_email": "u2@x", "display_recipient": "general"})
                    };
                    let receivers = users(receivers).into_iter().map(|u| (u, MessageFlags(u32::from(flags)))).collect();
                    reg.push(&Notification::Message {
                        realm: RealmId(1),
                        variants: MessageVariants::new(|m, g| { let mut v = message.clone(); v["shape"] = json!([m, g]); v }),
                        receivers,
                        stream_id: (!private).then_some(StreamId(1)),
                        public_stream: public && !private,
                        origin: None,
                    }, now);
                }
                Op::Other { users: mask, kind } => {
                    reg.push(&Notification::Other { users: users(mask), body: other_body(kind) }, now);
                    let personal = users(mask).into_iter().map(|u| (u, serde_json::Map::from_iter([("flags".to_owned(), json!([u.0]))]))).collect();
                    reg.push(&Notification::PerUser { users: personal, body: other_body(kind) }, now);
                }
                Op::Get { pick, unknown, wrong_user, last, stray, dont_block } => {
                    let id = match owners.keys().nth(usize::from(pick) % owners.len().max(1)) {
                        Some(id) if !unknown => id.clone(),
                        _ => "unknown".to_owned(),
                    };
                    let owner = owners.get(&id).copied().unwrap_or(UserId(0));
                    let user = if wrong_user { UserId(owner.0 + 1) } else { owner };
                    let newest_seen = seen.get(&id).copied().unwrap_or(-1);
                    let last = match last {
                        0 => None,
                        1 => Some(newest_seen),
                        2 => Some(newest_seen - 1),
                        _ => Some(i64::from(stray)),
                    };
                    match reg.get_events(&id, user, last, dont_block, now) {
                        Ok(Poll::Ready(events)) => {
                            let mut previous = last.unwrap_or(i64::MIN);
                            for event in &events {
                                let event_id = event["id"].as_i64().expect("every event has an id");
                                prop_assert!(event_id > previous, "ids increase: {events:?}");
                                previous = event_id;
                                let newest = seen.entry(id.clone()).or_insert(-1);
                                *newest = (*newest).max(event_id);
                            }
                        }
                        Ok(Poll::Wait { ticket, .. }) => tickets.push((id, ticket)),
                        Err(err) => prop_assert!(err.http_status() == 400, "{err:?}"),
                    }
                }
                Op::Unpark { which } => {
                    if !tickets.is_empty() {
                        let (id, ticket) = tickets.remove(usize::from(which) % tickets.len());
                        reg.unpark(&id, ticket, now);
                    }
                }
                Op::Delete { queue, user } => {
                    let _ = reg.delete(&format!("q{queue}"), UserId(u64::from(user)));
                }
                Op::Advance { secs } => now += i64::from(secs),
                Op::Timeout => {
                    reg.handle_timeout(now);
                    if let Some(due) = reg.poll_timeout() {
                        prop_assert!(due > now, "after handling, the next work is in the future");
                    }
                }
                Op::Restart => {
                    let saved = serde_json::to_string(&reg).expect("serializes");
                    reg = serde_json::from_str(&saved).expect("reads back");
                    prop_assert_eq!(serde_json::to_string(&reg).expect("serializes"), saved);
                    tickets.clear();
                }
            }
            prop_assert_eq!(reg.poll_timeout().is_some(), !reg.is_empty());
        }
    }

    #[test]
    fn arbitrary_saved_forms_never_panic(text in ".{0,200}") {
        let _ = serde_json::from_str::<Registry>(&text);
    }
}
