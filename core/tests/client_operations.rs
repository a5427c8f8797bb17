//! Reads, stars, reactions, edits and deletions in the client engine: shown at once, confirmed
//! by the server's event without a second change, undone with the server's message when
//! refused, and kept for later when the server cannot be reached.

mod client_support;

use client_support::{events, new_engine, object, param, refused, success};

use confab_core::client::{
    Anchor, ChatMessage, Engine, MessageEdit, Method, NamedAnchor, NarrowTerm, Operation, OperationAnswer,
    PropagateMode, Reply, ServerError,
};
use serde_json::{Value, json};

const ME: u64 = 10;
const OTHER: u64 = 11;
const GENERAL: u64 = 3;

fn message(id: u64, topic: &str, flags: &[&str]) -> Value {
    json!({
        "id": id,
        "sender_id": OTHER,
        "sender_full_name": "Othello",
        "sender_email": "othello@example.com",
        "timestamp": 1_700_000_000 + id,
        "content": format!("<p>message {id}</p>"),
        "type": "stream",
        "stream_id": GENERAL,
        "subject": topic,
        "display_recipient": "general",
        "reactions": [],
        "flags": flags,
    })
}

/// A session registered as user 10, subscribed to #general, where 101 and 102 (topic lunch)
/// are unread and the narrows #general and #general > lunch are cached.
fn session() -> Engine {
    let mut engine = new_engine();
    let state = json!({
        "result": "success",
        "msg": "",
        "queue_id": "q1",
        "last_event_id": -1,
        "user_id": ME,
        "realm_users": [
            {"user_id": ME, "full_name": "Iago", "email": "me@example.com", "role": 400, "is_active": true},
            {"user_id": OTHER, "full_name": "Othello", "email": "othello@example.com", "role": 400, "is_active": true},
        ],
        "subscriptions": [{
            "stream_id": GENERAL, "name": "general", "description": "", "color": "#c2c2c2",
            "invite_only": false, "is_web_public": false, "is_muted": false, "in_home_view": true,
            "pin_to_top": false, "history_public_to_subscribers": true,
        }],
        "unread_msgs": {
            "count": 2,
            "streams": [{"stream_id": GENERAL, "topic": "lunch", "unread_message_ids": [101, 102]}],
            "pms": [], "huddles": [], "mentions": [], "old_unreads_missing": false,
        },
        "starred_messages": [],
        "max_message_id": 103,
        "user_topics": [],
        "realm_emoji": {},
        "recent_private_conversations": [],
    });
    engine.handle_register(Reply::Success(object(state)), 0.5);
    for narrow in [general(), lunch()] {
        let query = engine.messages_query(&narrow, newest(), 50, 0).expect("a narrow");
        let messages: Vec<Value> = [
            message(100, "lunch", &["read"]),
            message(101, "lunch", &[]),
            message(102, "lunch", &[]),
            message(103, "dinner", &["read"]),
        ]
        .into_iter()
        .filter(|m| narrow.len() == 1 || m["subject"] == "lunch")
        .collect();
        let answer = json!({
            "result": "success", "msg": "", "anchor": 103, "found_anchor": false,
            "found_oldest": true, "found_newest": true, "messages": messages,
        });
        engine.handle_messages(&query, Reply::Success(object(answer))).expect("fetched");
    }
    engine.take_changes();
    engine
}

fn term(operator: &str, operand: Value) -> NarrowTerm {
    NarrowTerm { operator: operator.into(), operand, negated: false }
}

fn general() -> Vec<NarrowTerm> {
    vec![term("channel", json!(GENERAL))]
}

fn lunch() -> Vec<NarrowTerm> {
    vec![term("channel", json!(GENERAL)), term("topic", json!("lunch"))]
}

fn newest() -> Anchor {
    Anchor::Named(NamedAnchor::Newest)
}

/// A narrow's messages, from the cache alone.
fn shown(engine: &Engine, narrow: &[NarrowTerm]) -> Vec<ChatMessage> {
    let query = engine.messages_query(narrow, newest(), 50, 0).expect("a narrow");
    engine.cached_messages(&query).expect("cached").messages
}

fn shown_message(engine: &Engine, id: u64) -> ChatMessage {
    shown(engine, &general()).into_iter().find(|m| m.id == id).expect("shown")
}

fn unread_in_general(engine: &Engine) -> u32 {
    engine.channels().iter().find(|c| c.stream_id == GENERAL).map_or(0, |c| c.unread_count)
}

#[test]
fn a_star_shows_at_once_and_goes_to_the_server() {
    let mut engine = session();
    let id = engine.set_starred(101, true);
    assert!(shown_message(&engine, 101).flags.contains(&"starred".to_owned()));
    assert_eq!(engine.state()["starred_messages"], json!([101]));
    let changes = engine.take_changes().expect("changes");
    assert!(changes.messages.contains(&101) && changes.operations);

    let (sent, request) = engine.next_operation().expect("a request");
    assert_eq!(sent, id);
    assert_eq!((request.method, request.path.as_str()), (Method::Post, "/api/v1/messages/flags"));
    assert_eq!((param(&request, "op"), param(&request, "flag")), (Some("add"), Some("starred")));
    assert_eq!(param(&request, "messages"), Some("[101]"));
    assert_eq!(engine.handle_operation_reply(id, success()), OperationAnswer::Accepted);
    assert!(engine.pending_operations().is_empty());
}

#[test]
fn reads_marked_before_a_flush_go_as_one_request() {
    let mut engine = session();
    assert_eq!(unread_in_general(&engine), 2);
    let first = engine.mark_read(&[101]).expect("unread");
    let second = engine.mark_read(&[102, 101]).expect("unread");
    assert_eq!(first, second);
    // Already read: nothing to do.
    assert_eq!(engine.mark_read(&[100, 103]), None);
    assert_eq!(unread_in_general(&engine), 0);
    assert!(shown_message(&engine, 102).flags.contains(&"read".to_owned()));

    let (id, request) = engine.next_operation().expect("one request");
    assert_eq!(param(&request, "messages"), Some("[101,102]"));
    assert_eq!((param(&request, "op"), param(&request, "flag")), (Some("add"), Some("read")));
    assert_eq!(engine.handle_operation_reply(id, success()), OperationAnswer::Accepted);
    assert!(engine.next_operation().is_none());
}

#[test]
fn the_servers_event_after_success_changes_nothing_further() {
    let mut engine = session();
    let read = engine.mark_read(&[101, 102]).expect("unread");
    let star = engine.set_starred(101, true);
    let react = engine.add_reaction(100, "octopus");
    let edit = engine.edit_message(
        100,
        MessageEdit { content: Some("**lunch** at noon".into()), ..Default::default() },
        1_700_000_500_000,
    );
    let delete = engine.delete_message(102);
    for id in [read, star, react, edit, delete] {
        let (sent, _) = engine.next_operation().expect("queued");
        assert_eq!(sent, id);
        assert_eq!(engine.handle_operation_reply(id, success()), OperationAnswer::Accepted);
    }
    let reaction = &shown_message(&engine, 100).reactions[0];
    assert_eq!(
        (reaction.emoji_code.as_str(), reaction.reaction_type.as_str(), reaction.user_id),
        ("1f419", "unicode_emoji", ME)
    );
    let before =
        (shown(&engine, &general()), shown(&engine, &lunch()), engine.state().clone(), engine.channels());

    let html = shown_message(&engine, 100).content;
    events(
        &mut engine,
        vec![
            json!({"type": "update_message_flags", "op": "add", "flag": "read", "messages": [101, 102], "all": false}),
            json!({"type": "update_message_flags", "op": "add", "flag": "starred", "messages": [101], "all": false}),
            json!({"type": "reaction", "op": "add", "message_id": 100, "user_id": ME, "emoji_name": "octopus",
                   "emoji_code": "1f419", "reaction_type": "unicode_emoji"}),
            json!({"type": "update_message", "user_id": ME, "message_id": 100, "message_ids": [100],
                   "rendered_content": html, "content": "**lunch** at noon", "is_me_message": false,
                   "edit_timestamp": 1_700_000_500, "flags": ["read"]}),
            json!({"type": "delete_message", "message_type": "stream", "stream_id": GENERAL, "topic": "lunch",
                   "message_ids": [102]}),
        ],
    );
    let after =
        (shown(&engine, &general()), shown(&engine, &lunch()), engine.state().clone(), engine.channels());
    assert_eq!(before, after);
    assert_eq!(engine.state()["starred_messages"], json!([101]));
    assert_eq!(shown_message(&engine, 101).flags, ["read", "starred"]);
    assert_eq!(engine.state()["unread_msgs"]["count"], json!(0));
}

#[test]
fn a_refused_edit_is_undone_with_the_servers_message() {
    let mut engine = session();
    let id = engine.edit_message(
        103,
        MessageEdit { content: Some("**soup**".into()), ..Default::default() },
        1_700_000_500_000,
    );
    let edited = shown_message(&engine, 103);
    assert_eq!(edited.content, "<p><strong>soup</strong></p>");
    assert_eq!(edited.last_edit_timestamp, Some(1_700_000_500));
    engine.take_changes();

    let (sent, request) = engine.next_operation().expect("a request");
    assert_eq!((sent, request.method, request.path.as_str()), (id, Method::Patch, "/api/v1/messages/103"));
    assert_eq!(param(&request, "content"), Some("**soup**"));
    let why = "The time limit for editing this message has passed";
    assert_eq!(
        engine.handle_operation_reply(id, refused(why)),
        OperationAnswer::Refused(ServerError { code: "BAD_REQUEST".into(), msg: why.into(), status: 400 })
    );

    let restored = shown_message(&engine, 103);
    assert_eq!(restored.content, "<p>message 103</p>");
    assert_eq!(restored.last_edit_timestamp, None);
    let changes = engine.take_changes().expect("changes");
    assert!(changes.messages.contains(&103));
    let refusal = &changes.refused_operations[0];
    assert_eq!(refusal.error.msg, why);
    assert!(matches!(refusal.operation, Operation::Edit { message_id: 103, .. }));
    assert!(engine.pending_operations().is_empty());
}

#[test]
fn a_refused_topic_move_puts_the_messages_back() {
    let mut engine = session();
    let id = engine.edit_message(
        101,
        MessageEdit {
            topic: Some("brunch".into()),
            propagate_mode: Some(PropagateMode::ChangeAll),
            ..Default::default()
        },
        1_700_000_500_000,
    );
    assert!(shown(&engine, &lunch()).is_empty());
    assert!(engine.topics(GENERAL).iter().any(|t| t.name == "brunch" && t.unread_count == 2));
    let (_, request) = engine.next_operation().expect("a request");
    assert_eq!(
        (param(&request, "topic"), param(&request, "propagate_mode")),
        (Some("brunch"), Some("change_all"))
    );

    engine.handle_operation_reply(id, refused("You don't have permission to move this message"));
    let ids: Vec<u64> = shown(&engine, &lunch()).iter().map(|m| m.id).collect();
    assert_eq!(ids, [100, 101, 102]);
    assert!(shown(&engine, &lunch()).iter().all(|m| m.last_moved_timestamp.is_none()));
    assert!(engine.topics(GENERAL).iter().any(|t| t.name == "lunch" && t.unread_count == 2));
    assert!(!engine.topics(GENERAL).iter().any(|t| t.name == "brunch" && t.unread_count > 0));
}

#[test]
fn a_refused_deletion_puts_the_message_back_in_every_cached_narrow() {
    let mut engine = session();
    let id = engine.delete_message(101);
    assert!(!shown(&engine, &general()).iter().any(|m| m.id == 101));
    assert!(!shown(&engine, &lunch()).iter().any(|m| m.id == 101));
    assert_eq!(unread_in_general(&engine), 1);
    let changes = engine.take_changes().expect("changes");
    assert_eq!(changes.narrows.len(), 2);

    let (_, request) = engine.next_operation().expect("a request");
    assert_eq!((request.method, request.path.as_str()), (Method::Delete, "/api/v1/messages/101"));
    engine.handle_operation_reply(id, refused("You don't have permission to delete this message"));
    assert!(shown(&engine, &general()).iter().any(|m| m.id == 101));
    assert!(shown(&engine, &lunch()).iter().any(|m| m.id == 101));
    assert_eq!(unread_in_general(&engine), 2);
    let changes = engine.take_changes().expect("changes");
    assert_eq!(changes.narrows.len(), 2);
    assert_eq!(changes.refused_operations[0].error.msg, "You don't have permission to delete this message");
}

#[test]
fn refused_reads_and_reactions_are_undone() {
    let mut engine = session();
    let read = engine.mark_read(&[101]).expect("unread");
    let react = engine.add_reaction(101, "octopus");
    assert_eq!(shown_message(&engine, 101).reactions.len(), 1);
    assert_eq!(unread_in_general(&engine), 1);
    engine.next_operation();
    engine.handle_operation_reply(read, refused("Invalid message(s)"));
    assert!(!shown_message(&engine, 101).flags.contains(&"read".to_owned()));
    assert_eq!(unread_in_general(&engine), 2);
    // The reaction queued after it still shows.
    assert_eq!(shown_message(&engine, 101).reactions.len(), 1);
    let (_, request) = engine.next_operation().expect("the reaction");
    assert_eq!(request.path, "/api/v1/messages/101/reactions");
    assert_eq!(
        (param(&request, "emoji_code"), param(&request, "reaction_type")),
        (Some("1f419"), Some("unicode_emoji"))
    );
    engine.handle_operation_reply(react, refused("Reaction already exists."));
    assert!(shown_message(&engine, 101).reactions.is_empty());
}

#[test]
fn an_unreachable_server_keeps_the_operation_for_later() {
    let mut engine = session();
    let id = engine.set_starred(101, true);
    engine.next_operation();
    assert_eq!(
        engine.handle_operation_reply(id, Reply::Unreachable("offline".into())),
        OperationAnswer::Later
    );
    assert!(shown_message(&engine, 101).flags.contains(&"starred".to_owned()));
    assert_eq!(engine.pending_operations().len(), 1);
    assert!(engine.pending_operations()[0].sent);
    // Offline: nothing is sent until the connection is back.
    events(&mut engine, vec![]);
    engine.handle_poll(Reply::Unreachable("offline".into()), 0, 0.5);
    assert!(engine.next_operation().is_none());
    engine.retry_now();
    events(&mut engine, vec![]);
    assert_eq!(engine.next_operation().map(|(sent, _)| sent), Some(id));
}

#[test]
fn messages_fetched_while_an_operation_waits_show_it() {
    let mut engine = session();
    engine.set_starred(101, true);
    engine.delete_message(102);
    // The server's copies do not show either yet.
    let query = engine.messages_query(&general(), newest(), 50, 0).expect("a narrow");
    let answer = json!({
        "result": "success", "msg": "", "anchor": 103, "found_anchor": false, "found_oldest": true,
        "found_newest": true,
        "messages": [message(100, "lunch", &["read"]), message(101, "lunch", &[]), message(102, "lunch", &[]), message(103, "dinner", &["read"])],
    });
    let page = engine.handle_messages(&query, Reply::Success(object(answer))).expect("fetched");
    let ids: Vec<u64> = page.messages.iter().map(|m| m.id).collect();
    assert_eq!(ids, [100, 101, 103]);
    assert!(page.messages[1].flags.contains(&"starred".to_owned()));
    assert!(shown_message(&engine, 101).flags.contains(&"starred".to_owned()));
}

#[test]
fn a_snapshot_keeps_the_operations_waiting() {
    let mut engine = session();
    let id = engine.set_starred(101, true);
    let restored = Engine::restore(&engine.snapshot()).expect("restored");
    assert_eq!(restored.pending_operations().len(), 1);
    assert_eq!(restored.pending_operations()[0].id, id);
    engine.take_changes();
}
