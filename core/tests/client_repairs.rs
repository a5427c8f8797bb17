//! Repairs in the client engine: after a deletion, the values Zulip's server reads again from
//! its database (`max_message_id`, and the newest message of a direct conversation in
//! `recent_private_conversations`) are asked of the server with `GET /messages`, and the state
//! takes its answer, as a fresh register would show it.

mod client_support;

use client_support::{events, new_engine, object, param};

use confab_core::client::{Engine, HttpRequest, Method, Reply, ServerError};
use confab_core::client::{RepairId, Sending};
use serde_json::{Value, json};

const ME: u64 = 10;
const OTTO: u64 = 11;
const CORDELIA: u64 = 12;

/// A session registered as user 10 whose newest message is 205, a direct message with Otto;
/// 204 is the newest of the group conversation with Otto and Cordelia, 150 the only message
/// of the user's conversation with themselves.
fn session() -> Engine {
    let mut engine = new_engine();
    let state = json!({
        "result": "success", "msg": "", "queue_id": "q1", "last_event_id": -1, "user_id": ME,
        "max_message_id": 205,
        "recent_private_conversations": [
            {"user_ids": [OTTO], "max_message_id": 205},
            {"user_ids": [OTTO, CORDELIA], "max_message_id": 204},
            {"user_ids": [], "max_message_id": 150},
        ],
        "unread_msgs": {"count": 0, "streams": [], "pms": [], "huddles": [], "mentions": [], "old_unreads_missing": false},
    });
    engine.handle_register(Reply::Success(object(state)), 0.5);
    engine.take_changes();
    engine
}

fn direct_deletion(ids: &[u64]) -> Value {
    json!({"type": "delete_message", "message_type": "private", "message_ids": ids})
}

fn direct_message(id: u64, participants: &[u64]) -> Value {
    let recipients: Vec<Value> = participants
        .iter()
        .map(|u| json!({"id": u, "email": format!("u{u}@example.com"), "full_name": "U"}))
        .collect();
    json!({"type": "message", "flags": ["read"], "message": {
        "id": id, "sender_id": OTTO, "sender_full_name": "Otto", "sender_email": "u11@example.com",
        "timestamp": 1_700_000_000 + id, "content": "<p>hi</p>", "type": "private", "subject": "",
        "display_recipient": recipients, "reactions": [],
    }})
}

/// The server's answer to a repair: its newest message, or none.
fn newest(id: Option<u64>) -> Reply {
    let messages: Vec<Value> = id.into_iter().map(|id| json!({"id": id})).collect();
    Reply::Success(object(json!({
        "result": "success", "msg": "", "anchor": id.unwrap_or(0), "found_anchor": false,
        "found_oldest": true, "found_newest": true, "messages": messages,
    })))
}

fn narrow(request: &HttpRequest) -> Value {
    serde_json::from_str(param(request, "narrow").expect("a narrow")).expect("JSON")
}

fn asked(engine: &mut Engine) -> Vec<(RepairId, HttpRequest)> {
    std::iter::from_fn(|| engine.next_repair()).collect()
}

fn conversations(engine: &Engine) -> Value {
    engine.state()["recent_private_conversations"].clone()
}

#[test]
fn deleting_the_newest_dm_of_a_conversation_asks_the_server_and_takes_its_answer() {
    let mut engine = session();
    events(&mut engine, vec![direct_deletion(&[204])]);
    let [(id, request)] = asked(&mut engine).try_into().expect("one repair");
    assert_eq!((request.method, request.path.as_str()), (Method::Get, "/api/v1/messages"));
    assert_eq!(narrow(&request), json!([{"operator": "dm", "operand": [OTTO, CORDELIA], "negated": false}]));
    assert_eq!(
        (param(&request, "anchor"), param(&request, "num_before"), param(&request, "num_after")),
        (Some("204"), Some("1"), Some("0")),
        "the message before the deleted one: newer ones come as events"
    );
    // Until the answer, the state shows what it had.
    assert_eq!(conversations(&engine)[1]["max_message_id"], 204);

    engine.take_changes();
    assert_eq!(engine.handle_repair(id, newest(Some(120))), Sending::Next);
    assert_eq!(
        conversations(&engine),
        json!([
            {"user_ids": [OTTO], "max_message_id": 205},
            {"user_ids": [], "max_message_id": 150},
            {"user_ids": [OTTO, CORDELIA], "max_message_id": 120},
        ])
    );
    assert!(engine.take_changes().is_some_and(|c| c.conversations));
    assert_eq!(engine.state()["max_message_id"], 205, "the newest message was not deleted");
}

#[test]
fn deleting_the_only_message_of_a_conversation_removes_it() {
    let mut engine = session();
    events(&mut engine, vec![direct_deletion(&[150])]);
    let [(id, request)] = asked(&mut engine).try_into().expect("one repair");
    // The conversation with oneself lists no others; its narrow names the user.
    assert_eq!(narrow(&request), json!([{"operator": "dm", "operand": [ME], "negated": false}]));
    engine.handle_repair(id, newest(None));
    assert_eq!(
        conversations(&engine),
        json!([
            {"user_ids": [OTTO], "max_message_id": 205},
            {"user_ids": [OTTO, CORDELIA], "max_message_id": 204},
        ])
    );
}

#[test]
fn deleting_the_newest_message_lowers_max_message_id_after_the_answer() {
    let mut engine = session();
    events(&mut engine, vec![direct_deletion(&[205])]);
    let repairs = asked(&mut engine);
    assert_eq!(repairs.len(), 2, "the newest message, and Otto's conversation");
    for (id, request) in repairs {
        let answer = if narrow(&request) == json!([]) { 204 } else { 180 };
        engine.handle_repair(id, newest(Some(answer)));
    }
    assert_eq!(engine.state()["max_message_id"], 204);
    assert_eq!(
        conversations(&engine),
        json!([
            {"user_ids": [OTTO, CORDELIA], "max_message_id": 204},
            {"user_ids": [OTTO], "max_message_id": 180},
            {"user_ids": [], "max_message_id": 150},
        ])
    );
}

#[test]
fn a_batch_asks_once_per_value() {
    let mut engine = session();
    events(&mut engine, vec![direct_deletion(&[205, 204, 203]), direct_deletion(&[202])]);
    let narrows: Vec<Value> = asked(&mut engine).iter().map(|(_, request)| narrow(request)).collect();
    assert_eq!(narrows.len(), 3, "{narrows:?}");
    assert!(narrows.contains(&json!([])));
}

#[test]
fn deleting_an_older_message_asks_nothing() {
    let mut engine = session();
    events(
        &mut engine,
        vec![
            direct_deletion(&[170]),
            json!({"type": "delete_message", "message_type": "stream", "message_ids": [171], "stream_id": 3, "topic": "t"}),
        ],
    );
    assert!(engine.next_repair().is_none());
}

#[test]
fn an_unreachable_server_keeps_the_repair_queued() {
    let mut engine = session();
    events(&mut engine, vec![direct_deletion(&[204])]);
    let (id, request) = engine.next_repair().expect("a repair");
    assert!(engine.next_repair().is_none(), "asked once at a time");
    assert_eq!(engine.handle_repair(id, Reply::Unreachable("offline".into())), Sending::Later);
    assert_eq!(conversations(&engine)[1]["max_message_id"], 204);
    assert_eq!(engine.next_repair(), Some((id, request)));
    engine.handle_repair(id, newest(Some(120)));
    assert_eq!(conversations(&engine)[2]["max_message_id"], 120);
}

#[test]
fn a_refused_repair_is_dropped() {
    let mut engine = session();
    events(&mut engine, vec![direct_deletion(&[204])]);
    let (id, _) = engine.next_repair().expect("a repair");
    let refusal =
        ServerError { code: "BAD_NARROW".into(), msg: "Invalid user in dm narrow".into(), status: 400 };
    assert_eq!(engine.handle_repair(id, Reply::Refused(refusal)), Sending::Next);
    assert!(engine.next_repair().is_none());
}

#[test]
fn a_newer_message_while_asking_is_not_undone_by_the_answer() {
    let mut engine = session();
    events(&mut engine, vec![direct_deletion(&[205])]);
    let repairs = asked(&mut engine);
    events(&mut engine, vec![direct_message(206, &[ME, OTTO])]);
    for (id, _) in repairs {
        engine.handle_repair(id, newest(Some(204)));
    }
    assert_eq!(engine.state()["max_message_id"], 206);
    assert_eq!(conversations(&engine)[0], json!({"user_ids": [OTTO], "max_message_id": 206}));
}

#[test]
fn a_newer_message_before_asking_makes_the_repair_needless() {
    let mut engine = session();
    events(&mut engine, vec![direct_deletion(&[205]), direct_message(206, &[ME, OTTO])]);
    assert!(engine.next_repair().is_none());
}

#[test]
fn an_answer_naming_a_message_deleted_meanwhile_is_asked_again() {
    let mut engine = session();
    events(&mut engine, vec![direct_deletion(&[205])]);
    let repairs = asked(&mut engine);
    events(&mut engine, vec![direct_deletion(&[203])]);
    for (id, _) in repairs {
        engine.handle_repair(id, newest(Some(203)));
    }
    assert_eq!(engine.state()["max_message_id"], 205, "not the deleted 203");
    let again = asked(&mut engine);
    assert_eq!(again.len(), 2);
    for (id, _) in again {
        engine.handle_repair(id, newest(Some(202)));
    }
    assert_eq!(engine.state()["max_message_id"], 202);
}

#[test]
fn a_copy_of_an_older_message_while_asking_counts() {
    let mut engine = session();
    events(&mut engine, vec![direct_deletion(&[205])]);
    let repairs = asked(&mut engine);
    // Starring a message of a channel's history gives the user a copy of it.
    events(
        &mut engine,
        vec![json!({"type": "update_message_flags", "op": "add", "flag": "starred", "messages": [190]})],
    );
    for (id, _) in repairs {
        engine.handle_repair(id, newest(Some(160)));
    }
    assert_eq!(engine.state()["max_message_id"], 190);
    assert_eq!(
        conversations(&engine)[1],
        json!({"user_ids": [OTTO], "max_message_id": 160}),
        "not a direct message"
    );
}

#[test]
fn a_register_forgets_repairs_and_a_snapshot_keeps_them() {
    let mut engine = session();
    events(&mut engine, vec![direct_deletion(&[204])]);
    let (id, _) = engine.next_repair().expect("a repair");
    let mut restored = Engine::restore(&engine.snapshot()).expect("a snapshot");
    restored.handle_poll(
        Reply::Success(object(json!({"result": "success", "msg": "", "events": []}))),
        0,
        0.5,
    );
    let (again, request) = restored.next_repair().expect("asked again after a restore");
    assert_eq!(again, id);
    assert_eq!(narrow(&request), json!([{"operator": "dm", "operand": [OTTO, CORDELIA], "negated": false}]));

    let fresh = object(
        json!({"result": "success", "msg": "", "queue_id": "q2", "last_event_id": -1, "user_id": ME, "max_message_id": 205, "recent_private_conversations": []}),
    );
    engine.handle_register(Reply::Success(fresh), 0.5);
    assert!(engine.next_repair().is_none());
    // An answer still out when the state was fetched anew changes nothing.
    engine.handle_repair(id, newest(Some(1)));
    assert_eq!(engine.state()["max_message_id"], 205);
}
