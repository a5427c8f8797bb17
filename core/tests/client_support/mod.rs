//! Driving a client `Engine` in tests as a host would: server answers made from JSON, events
//! delivered as one poll, and a look at the requests the engine hands out.

#![allow(dead_code)]

use confab_core::client::{Engine, EngineOptions, HttpRequest, Reply, ServerError, SessionCredentials};
use serde_json::{Map, Value, json};

/// A session of `me@example.com` that has not registered yet.
pub fn new_engine() -> Engine {
    let credentials = SessionCredentials {
        site: "https://chat.example.com".into(),
        email: "me@example.com".into(),
        api_key: "k".into(),
    };
    Engine::new(credentials, EngineOptions::default())
}

/// A JSON object literal as the map a `Reply` carries.
pub fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

pub fn success() -> Reply {
    Reply::Success(object(json!({"result": "success", "msg": ""})))
}

pub fn refused(msg: &str) -> Reply {
    Reply::Refused(ServerError { code: "BAD_REQUEST".into(), msg: msg.into(), status: 400 })
}

/// A request's parameter, if it has it.
pub fn param<'a>(request: &'a HttpRequest, name: &str) -> Option<&'a str> {
    request.params.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

/// Delivers events to the engine as one poll's answer, numbered from 0.
pub fn events(engine: &mut Engine, events: Vec<Value>) {
    let events: Vec<Value> = events
        .into_iter()
        .enumerate()
        .map(|(i, mut event)| {
            event["id"] = json!(i);
            event
        })
        .collect();
    engine.handle_poll(
        Reply::Success(object(json!({"result": "success", "msg": "", "events": events}))),
        0,
        0.5,
    );
}

/// A session of user 10 that registered (queue `q1`) in an organization of one, with nothing
/// subscribed.
pub fn registered() -> Engine {
    let mut engine = new_engine();
    let state = json!({
        "result": "success", "msg": "", "queue_id": "q1", "last_event_id": -1, "user_id": 10,
        "realm_users": [{"user_id": 10, "full_name": "Iago", "email": "me@example.com", "role": 400, "is_active": true}],
        "subscriptions": [], "unsubscribed": [], "never_subscribed": [],
        "unread_msgs": {"count": 0, "streams": [], "pms": [], "huddles": [], "mentions": [], "old_unreads_missing": false},
        "starred_messages": [], "max_message_id": 0, "user_topics": [], "realm_emoji": {},
        "recent_private_conversations": [],
    });
    engine.handle_register(Reply::Success(object(state)), 0.5);
    engine
}
