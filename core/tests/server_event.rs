//! Events read as `ServerEvent`: typed where the applier reads them, whole otherwise, and
//! always written back as they came (the consistency tests check every event the server emits;
//! these check the fallbacks).

use confab_core::events::server_event::{FlagOp, SubscriptionEvent};
use confab_core::events::{ServerEvent, apply_event};
use serde_json::{Map, Value, json};

fn round_trip(event: &Value) -> ServerEvent {
    let parsed = ServerEvent::parse(event.clone());
    assert_eq!(&serde_json::to_value(&parsed).expect("serializes"), event);
    parsed
}

#[test]
fn known_events_are_typed_and_keep_their_other_fields() {
    let event = json!({"type": "update_message_flags", "op": "add", "operation": "add", "flag": "read",
        "messages": [4, 5], "all": false, "id": 7});
    let ServerEvent::UpdateMessageFlags(flags) = round_trip(&event) else { panic!("typed") };
    assert_eq!((flags.op, flags.messages), (FlagOp::Add, vec![4, 5]));
    assert_eq!(flags.rest.get("id"), Some(&json!(7)));

    let event =
        json!({"type": "subscription", "op": "peer_add", "stream_ids": [1], "user_ids": [2], "id": 0});
    assert!(matches!(round_trip(&event), ServerEvent::Subscription(SubscriptionEvent::PeerAdd(_))));
}

#[test]
fn unknown_types_ops_and_shapes_fall_back_whole() {
    for event in [
        json!({"type": "heartbeat", "id": 1}),
        json!({"type": "some_future_type", "op": "add", "id": 2}),
        // A known type with an `op` this version does not know.
        json!({"type": "subscription", "op": "some_future_op", "stream_ids": [1], "id": 3}),
        // A known type in a shape it cannot read.
        json!({"type": "reaction", "op": "add", "message_id": "not a number", "id": 4}),
    ] {
        assert!(round_trip(&event).is_other(), "{event}");
    }
}

#[test]
fn events_of_unknown_types_change_no_state() {
    let mut state: Map<String, Value> = json!({"max_message_id": 3}).as_object().cloned().unwrap_or_default();
    let before = state.clone();
    apply_event(&mut state, &json!({"type": "message", "op": "something new"}), 1);
    apply_event(&mut state, &json!({"type": "some_future_type"}), 1);
    assert_eq!(state, before);
}
