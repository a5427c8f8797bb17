//! The consistency harness, as Zulip's `test_events` does it: the state from register, with a
//! mutation's events applied by `events::apply_server_event`, must equal the state register gives
//! after the mutation. Events travel the real path: the command's events,
//! `api::notifications`, a registry queue with the client's options, a fetch.

use confab_core::api::notifications::notifications;
use confab_core::api::register::{initial_state, parse_register_params};
use confab_core::events::{Poll, QueueOwner, Registry, ServerEvent, apply_server_event};
use confab_core::ids::StreamId;
use confab_core::memory::MemoryStore;
use confab_core::model::Role;
use confab_core::params::Params;
use confab_core::store::Store as _;
use confab_core::subdomains::Site;
use confab_core::{Actor, ApiResult, Outcome};
use serde_json::{Map, Value};

use super::{World, params};

/// The organization every case starts from: the owner, Ada and Bob in `#general`, where Ada
/// has written once (so the channel's first message exists before any case).
pub fn world() -> World {
    let mut world = World::new();
    world.add_user("ada@example.com", "Ada Lovelace", Role::Member);
    world.add_user("bob@example.com", "Bob Builder", Role::Member);
    let everyone = r#"["owner@example.com", "ada@example.com", "bob@example.com"]"#;
    world.subscribe("owner@example.com", r#"[{"name": "general"}]"#, &[("principals", everyone)]);
    world.stream("ada@example.com", "general", "hello", "first");
    world
}

/// The id of a channel of the world's organization.
pub fn channel(world: &World, name: &str) -> StreamId {
    world.store.stream_by_name(world.realm, name).ok().flatten().expect("channel exists")
}

pub fn state(world: &World, viewer: &str, register: &[(&str, &str)]) -> Map<String, Value> {
    let actor = world.actor(viewer);
    let options = parse_register_params(&params(register), true).expect("options");
    let site = Site::new("http", "chat.example.com").expect("site");
    initial_state(&world.store, &actor, &site, &options, world.now).expect("state")
}

/// Puts the arrays whose order Zulip leaves undefined in one order, so states compare by
/// content there; every other array is compared as it is, since its order is part of what
/// `apply_event` must keep (`unread_msgs` groups sorted by conversation, ids ascending,
/// `recent_private_conversations` newest first, `starred_messages` ascending, drafts by edit
/// time, scheduled messages by delivery time, linkifiers and profile fields in their order).
pub fn normalized(mut state: Map<String, Value>) -> Map<String, Value> {
    state.remove("server_timestamp");
    // Where the client's presence polling starts: events carry no sequence number, so a state
    // kept by events keeps its register's (its next check-in is sent the changes again).
    state.remove("presence_last_update_id");
    // Channel lists: clients look channels up by id, and Zulip's own `test_events` compares
    // `subscriptions` and `unsubscribed` keyed by name. Subscribers are a set.
    // `subscriber_count` is compared only where the state holds the list it counts: without
    // it, a client cannot count from peer events (Zulip's `apply_event` does not try).
    for key in ["streams", "subscriptions", "unsubscribed", "never_subscribed"] {
        if let Some(Value::Array(channels)) = state.get_mut(key) {
            for channel in channels.iter_mut() {
                if let Some(Value::Array(subscribers)) = channel.get_mut("subscribers") {
                    sort_by(subscribers, |u| u.as_u64());
                } else if let Value::Object(fields) = channel {
                    fields.remove("subscriber_count");
                }
            }
            sort_by(channels, |c| c["stream_id"].as_u64());
        }
    }
    // User records: Zulip keeps them in a dict by user id (`raw_users`), so their order is
    // whatever its query gave; clients look users up by id. Zulip's `test_events` keys bots by
    // email.
    for key in ["realm_users", "realm_non_active_users", "realm_bots"] {
        if let Some(Value::Array(users)) = state.get_mut(key) {
            sort_by(users, |u| u["user_id"].as_u64());
        }
    }
    // Zulip's raw unread data holds mentions as a set and lists them as the set iterates.
    if let Some(Value::Array(mentions)) = state.get_mut("unread_msgs").and_then(|u| u.get_mut("mentions")) {
        sort_by(mentions, Value::as_u64);
    }
    state
}

fn sort_by<K: Ord>(items: &mut [Value], key: impl Fn(&Value) -> K) {
    items.sort_by_key(|item| key(item));
}

/// Registers `viewer` with `register` options, runs `mutation`, delivers its events to the
/// queue, applies them to the first state and compares with a fresh one.
pub fn check(
    world: &mut World,
    viewer: &str,
    register: &[(&str, &str)],
    mutation: impl FnOnce(&MemoryStore, i64) -> ApiResult<Outcome>,
) -> Vec<Value> {
    let actor = world.actor(viewer);
    let options = parse_register_params(&params(register), true).expect("options");
    let mut registry = Registry::new();
    let owner = QueueOwner {
        user: actor.user.id,
        realm: actor.realm.id,
        email: actor.user.email.clone(),
        is_guest: actor.user.is_guest(),
    };
    registry.register("q".into(), owner, options.queue_options(), world.now).expect("queue");
    let mut applied = state(world, viewer, register);

    let events = world.run_events(mutation).expect("the mutation succeeds");
    for notification in notifications(&world.store, &events).expect("notifications") {
        registry.push(&notification, world.now);
    }
    let Ok(Poll::Ready(delivered)) = registry.get_events("q", actor.user.id, None, true, world.now) else {
        panic!("a fetch with dont_block answers");
    };
    for event in &delivered {
        apply_server_event(&mut applied, &typed(event), actor.user.id.0);
    }
    let fresh = state(world, viewer, register);
    let (applied, fresh) = (normalized(applied), normalized(fresh));
    if applied != fresh {
        panic!(
            "{viewer}'s state after events differs from register's:\n{}events: {delivered:#?}",
            differences(&applied, &fresh)
        );
    }
    delivered
}

/// Event types the applier has no variant for: they change nothing register shows.
const UNTYPED: &[&str] = &["attachment", "heartbeat", "restart", "web_reload_client"];

/// An event read as a [`ServerEvent`], which must give back exactly the JSON it came from, and
/// be one of the typed variants unless its type is one the applier leaves alone.
fn typed(event: &Value) -> ServerEvent {
    let parsed = ServerEvent::parse(event.clone());
    let kind = event["type"].as_str().unwrap_or_default();
    assert!(
        !parsed.is_other() || UNTYPED.contains(&kind),
        "no ServerEvent variant reads this event: {event:#}"
    );
    let back = serde_json::to_value(&parsed).expect("an event serializes");
    assert_eq!(&back, event, "the event does not round-trip through ServerEvent");
    parsed
}

/// The top-level keys where two states differ, each with both values.
fn differences(applied: &Map<String, Value>, fresh: &Map<String, Value>) -> String {
    let keys: std::collections::BTreeSet<&String> = applied.keys().chain(fresh.keys()).collect();
    let mut out = String::new();
    for key in keys.into_iter().filter(|k| applied.get(*k) != fresh.get(*k)) {
        out.push_str(&format!(
            "{key}:\n  applied: {}\n  fresh:   {}\n",
            applied.get(key).map_or("(absent)".into(), Value::to_string),
            fresh.get(key).map_or("(absent)".into(), Value::to_string),
        ));
    }
    out
}

/// A command of the common shape (store, actor, parameters, now) as a mutation for [`check`].
/// The parameters are read at once, so the mutation borrows nothing.
pub fn run<F>(
    f: F,
    actor: Actor,
    pairs: &[(&str, &str)],
) -> impl FnOnce(&MemoryStore, i64) -> ApiResult<Outcome> + use<F>
where
    F: FnOnce(&MemoryStore, &Actor, &Params, i64) -> ApiResult<Outcome>,
{
    let p = params(pairs);
    move |store, now| f(store, &actor, &p, now)
}

/// What a client that follows messages and their flags registers for.
pub const MESSAGES: &[(&str, &str)] =
    &[("event_types", r#"["message", "update_message_flags", "delete_message"]"#)];
