//! Following events into cached narrows where the consistency test against a fresh session
//! found the engine apart from the server: a flag added goes where the server lists it, and a
//! channel message the user gets a copy of (by starring it) joins the narrows of their own
//! messages.

mod client_support;

use client_support::{events, new_engine, object};

use confab_core::client::{Anchor, ChatMessage, Engine, NamedAnchor, NarrowTerm, Reply};
use serde_json::{Value, json};

const ME: u64 = 10;
const OTHER: u64 = 11;
const GENERAL: u64 = 3;

fn message(id: u64, stream_id: u64, name: &str, flags: &[&str]) -> Value {
    json!({
        "id": id, "sender_id": OTHER, "sender_full_name": "Othello", "sender_email": "othello@example.com",
        "timestamp": 1_700_000_000 + id, "content": format!("<p>message {id}</p>"), "type": "stream",
        "stream_id": stream_id, "subject": "lunch", "display_recipient": name, "reactions": [], "flags": flags,
    })
}

fn channel(stream_id: u64, name: &str) -> Value {
    json!({
        "stream_id": stream_id, "name": name, "description": "", "color": "#c2c2c2", "invite_only": false,
        "is_web_public": false, "is_muted": false, "in_home_view": true, "pin_to_top": false,
        "history_public_to_subscribers": true,
    })
}

fn all_messages() -> Vec<NarrowTerm> {
    Vec::new()
}

fn general() -> Vec<NarrowTerm> {
    vec![NarrowTerm { operator: "channel".into(), operand: json!(GENERAL), negated: false }]
}

fn newest() -> Anchor {
    Anchor::Named(NamedAnchor::Newest)
}

/// A session of user 10, subscribed to #general since after message 100 (which it reads from
/// the channel's history) and before 101 and 102; all messages and #general are cached.
fn session() -> Engine {
    let mut engine = new_engine();
    let state = json!({
        "result": "success", "msg": "", "queue_id": "q1", "last_event_id": -1, "user_id": ME,
        "realm_users": [
            {"user_id": ME, "full_name": "Iago", "email": "me@example.com", "role": 400, "is_active": true},
            {"user_id": OTHER, "full_name": "Othello", "email": "othello@example.com", "role": 400, "is_active": true},
        ],
        "subscriptions": [channel(GENERAL, "general")], "unsubscribed": [], "never_subscribed": [],
        "unread_msgs": {"count": 0, "streams": [], "pms": [], "huddles": [], "mentions": [], "old_unreads_missing": false},
        "starred_messages": [], "max_message_id": 102, "user_topics": [], "realm_emoji": {},
        "recent_private_conversations": [],
    });
    engine.handle_register(Reply::Success(object(state)), 0.5);
    let received =
        || vec![message(101, GENERAL, "general", &["read"]), message(102, GENERAL, "general", &["read"])];
    let mut history = vec![message(100, GENERAL, "general", &["read", "historical"])];
    history.extend(received());
    let pages = [(all_messages(), received()), (general(), history)];
    for (narrow, messages) in pages {
        let query = engine.messages_query(&narrow, newest(), 50, 0).expect("a narrow");
        let answer = json!({
            "result": "success", "msg": "", "anchor": 102, "found_anchor": false,
            "found_oldest": true, "found_newest": true, "messages": messages,
        });
        engine.handle_messages(&query, Reply::Success(object(answer))).expect("fetched");
    }
    engine
}

/// A narrow's messages from the cache, or `None` when it must be fetched.
fn cached(engine: &Engine, narrow: &[NarrowTerm]) -> Option<Vec<ChatMessage>> {
    let query = engine.messages_query(narrow, newest(), 50, 0).expect("a narrow");
    engine.cached_messages(&query).map(|page| page.messages)
}

fn flag_event(flag: &str, ids: &[u64]) -> Value {
    json!({"type": "update_message_flags", "op": "add", "flag": flag, "messages": ids, "all": false})
}

#[test]
fn an_added_flag_goes_where_the_server_lists_it() {
    let mut engine = session();
    events(&mut engine, vec![flag_event("starred", &[101])]);
    let shown = cached(&engine, &all_messages()).expect("cached");
    assert_eq!(shown[0].flags, ["read", "starred"]);
    let detail = json!({"102": {"type": "stream", "stream_id": GENERAL, "topic": "lunch"}});
    events(
        &mut engine,
        vec![
            json!({"type": "update_message_flags", "op": "remove", "flag": "read", "messages": [102], "message_details": detail}),
        ],
    );
    events(&mut engine, vec![flag_event("mentioned", &[102]), flag_event("read", &[102])]);
    let shown = cached(&engine, &all_messages()).expect("cached");
    assert_eq!(shown[1].flags, ["read", "mentioned"], "bit order, not the order they came in");
}

#[test]
fn starring_a_message_of_a_channels_history_puts_it_among_the_users_messages() {
    let mut engine = session();
    assert_eq!(cached(&engine, &all_messages()).expect("cached").len(), 2);
    events(&mut engine, vec![flag_event("starred", &[100])]);
    let ids: Vec<u64> = cached(&engine, &all_messages()).expect("cached").iter().map(|m| m.id).collect();
    assert_eq!(ids, [100, 101, 102]);
}

#[test]
fn a_copy_of_a_message_the_cache_never_saw_makes_the_narrow_fetched_again() {
    let mut engine = session();
    // 99 is older than all cached messages, but the narrow's window reaches its oldest message.
    events(&mut engine, vec![flag_event("starred", &[99])]);
    assert!(cached(&engine, &all_messages()).is_none());
    assert!(cached(&engine, &general()).is_some(), "a channel's history is not the user's copies");
}

#[test]
fn a_channel_the_user_only_reads_is_not_cached() {
    let mut engine = session();
    events(
        &mut engine,
        vec![
            json!({"type": "subscription", "op": "remove", "subscriptions": [{"stream_id": GENERAL, "name": "general"}]}),
        ],
    );
    // Edits, moves and deletions of its messages no longer reach the user.
    assert!(cached(&engine, &general()).is_none());
    let query = engine.messages_query(&general(), Anchor::Id(100), 50, 50).expect("a narrow");
    assert!(engine.cached_messages(&query).is_none());
}

#[test]
fn a_widget_folds_the_submessages_its_message_and_events_bring() {
    let mut engine = session();
    let mut poll = message(103, GENERAL, "general", &[]);
    poll["submessages"] = json!([{
        "id": 7, "message_id": 103, "sender_id": OTHER, "msg_type": "widget",
        "content": r#"{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["soup", "salad"]}}"#,
    }]);
    let submessage = |id: u64, sender: u64, content: &str| {
        json!({
            "type": "submessage", "msg_type": "widget", "message_id": 103, "submessage_id": id,
            "sender_id": sender, "content": content,
        })
    };
    let vote = r#"{"type": "vote", "key": "canned,1", "vote": 1}"#;
    events(
        &mut engine,
        vec![
            json!({"type": "message", "message": poll, "flags": []}),
            submessage(9, ME, vote),
            submessage(8, OTHER, vote),
            // The same submessage twice counts once.
            submessage(9, ME, vote),
            // A message the cache does not hold changes nothing.
            json!({"type": "submessage", "msg_type": "widget", "message_id": 5, "submessage_id": 10, "sender_id": ME, "content": vote}),
        ],
    );
    let shown = cached(&engine, &all_messages()).expect("cached");
    let ids: Vec<u64> = shown.last().expect("the poll").submessages.iter().map(|s| s.id).collect();
    assert_eq!(ids, [7, 8, 9], "in id order");
    let Some(confab_core::widgets::WidgetState::Poll(state)) = engine.widget(103) else {
        panic!("a poll: {:?}", engine.widget(103))
    };
    assert_eq!(state.question, "Lunch?");
    let tally: Vec<(&str, Vec<u64>, bool)> =
        state.options.iter().map(|o| (o.option.as_str(), o.voters.clone(), o.current_user_vote)).collect();
    assert_eq!(tally, [("soup", vec![], false), ("salad", vec![OTHER, ME], true)]);
    assert_eq!(engine.widget(102), None, "not a widget");
    assert_eq!(engine.widget(5), None, "not cached");
}
