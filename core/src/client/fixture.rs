//! The organization the engine's unit tests look at, named after Zulip's own test users and
//! channels, so that tests can use Zulip's examples as they are.

use serde_json::{Value, json};

use super::{Engine, EngineOptions, NarrowTerm, Reply, SessionCredentials};

pub const ME: u64 = 10;
pub const IAGO: u64 = 8;
pub const OTHELLO: u64 = 9;
pub const HAMLET: u64 = 11;
pub const CORDELIA: u64 = 12;
pub const ZOE: u64 = 13;
pub const WELCOME_BOT: u64 = 20;

pub const GENERAL: u64 = 12;
pub const VERONA: u64 = 13;
pub const DESIGN: u64 = 14;
pub const DENMARK: u64 = 15;
pub const SCOTLAND: u64 = 16;
pub const ROME: u64 = 17;

fn user(id: u64, name: &str, email: &str) -> Value {
    json!({"user_id": id, "full_name": name, "email": email, "delivery_email": email, "role": 400,
           "is_active": true, "is_bot": false, "avatar_url": null})
}

fn channel(id: u64, name: &str, description: &str) -> Value {
    json!({"stream_id": id, "name": name, "description": description, "color": "#76ce90",
           "invite_only": false, "is_web_public": false, "is_muted": false, "in_home_view": true,
           "pin_to_top": false, "history_public_to_subscribers": true, "is_archived": false,
           "stream_weekly_traffic": 0})
}

/// The register state of Desdemona (user 10): subscribed to general, Verona, a muted
/// "design team" and a pinned Rome; she left Denmark and never joined Scotland.
pub fn state() -> Value {
    let mut design = channel(DESIGN, "design team", "Pixels and fonts");
    design["is_muted"] = json!(true);
    let mut rome = channel(ROME, "Rome", "The eternal city");
    rome["pin_to_top"] = json!(true);
    let mut bot = user(WELCOME_BOT, "Welcome Bot", "welcome-bot@zulip.com");
    bot["is_bot"] = json!(true);
    json!({
        "result": "success", "msg": "", "queue_id": "q1", "last_event_id": -1, "user_id": ME,
        "realm_users": [
            user(ME, "Desdemona", "desdemona@zulip.com"),
            user(IAGO, "Iago", "iago@zulip.com"),
            user(OTHELLO, "Othello, the Moor of Venice", "othello@zulip.com"),
            user(HAMLET, "King Hamlet", "hamlet@zulip.com"),
            user(CORDELIA, "Cordelia, Lear's daughter", "cordelia@zulip.com"),
            user(ZOE, "Zoë Ashworth", "zoe@zulip.com"),
            bot,
        ],
        "realm_non_active_users": [], "cross_realm_bots": [],
        "subscriptions": [
            channel(GENERAL, "general", "For team-wide conversations"),
            channel(VERONA, "Verona", "A city in Italy"),
            design,
            rome,
        ],
        "unsubscribed": [channel(DENMARK, "Denmark", "Something is rotten")],
        "never_subscribed": [channel(SCOTLAND, "Scotland", "Highlands")],
        "unread_msgs": {"count": 0, "streams": [], "pms": [], "huddles": [], "mentions": [], "old_unreads_missing": false},
        "starred_messages": [], "max_message_id": 0, "user_topics": [],
        "realm_emoji": {
            "1": {"id": "1", "name": "green_tick", "source_url": "/user_avatars/2/emoji/images/1.png", "deactivated": false},
            "2": {"id": "2", "name": "old_logo", "source_url": "/user_avatars/2/emoji/images/2.png", "deactivated": true},
        },
        "realm_user_groups": [],
        "recent_private_conversations": [],
        "presences": {}, "server_timestamp": 1_700_000_000.0,
    })
}

/// A registered session on a state.
pub fn engine_with(state: Value) -> Engine {
    let credentials = SessionCredentials {
        site: "https://chat.example.com".into(),
        email: "desdemona@zulip.com".into(),
        api_key: "k".into(),
    };
    let mut engine = Engine::new(credentials, EngineOptions::default());
    let Value::Object(state) = state else { panic!("a state is an object") };
    engine.handle_register(Reply::Success(state), 0.5);
    engine
}

/// A registered session on [`state`].
pub fn engine() -> Engine {
    engine_with(state())
}

/// Zulip's system groups, as register lists them (ids 1 to 8, each inside the next).
pub fn system_groups() -> Value {
    let names = [
        "role:owners",
        "role:administrators",
        "role:moderators",
        "role:fullmembers",
        "role:members",
        "role:everyone",
        "role:internet",
        "role:nobody",
    ];
    let groups: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let id = i as u64 + 1;
            let inner: Vec<u64> = if (2..=7).contains(&id) { vec![id - 1] } else { vec![] };
            json!({"id": id, "name": name, "description": "", "members": [], "direct_subgroup_ids": inner,
                   "is_system_group": true, "deactivated": false})
        })
        .collect();
    Value::from(groups)
}

/// A channel message as the server sends it.
pub fn channel_message(id: u64, sender: u64, stream_id: u64, topic: &str, timestamp: i64) -> Value {
    json!({"id": id, "sender_id": sender, "sender_full_name": "", "sender_email": "", "timestamp": timestamp,
           "content": "<p>hi</p>", "type": "stream", "stream_id": stream_id, "subject": topic,
           "display_recipient": "", "reactions": [], "flags": ["read"]})
}

/// A direct message between the user and another person.
pub fn direct_message(id: u64, sender: u64, other: u64, timestamp: i64) -> Value {
    json!({"id": id, "sender_id": sender, "sender_full_name": "", "sender_email": "", "timestamp": timestamp,
           "content": "<p>hi</p>", "type": "private", "subject": "",
           "display_recipient": [{"id": ME, "email": "desdemona@zulip.com", "full_name": "Desdemona"},
                                 {"id": other, "email": "", "full_name": ""}],
           "reactions": [], "flags": ["read"]})
}

/// Puts messages in the engine's cache, as fetched.
pub fn cache(engine: &mut Engine, messages: Vec<Value>) {
    use super::{Anchor, NamedAnchor};
    let query = engine.messages_query(&[], Anchor::Named(NamedAnchor::Newest), 100, 0).expect("a narrow");
    let reply = json!({"result": "success", "msg": "", "messages": messages,
                       "found_anchor": false, "found_oldest": true, "found_newest": true});
    let Value::Object(reply) = reply else { unreachable!() };
    engine.handle_messages(&query, Reply::Success(reply)).expect("messages");
}

/// A narrow term as a client writes it.
pub fn term(operator: &str, operand: Value) -> NarrowTerm {
    NarrowTerm { operator: operator.into(), operand, negated: false }
}

/// A negated narrow term.
pub fn not(operator: &str, operand: Value) -> NarrowTerm {
    NarrowTerm { operator: operator.into(), operand, negated: true }
}
