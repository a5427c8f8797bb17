//! Presence check-ins on simulated time: what a check-in records, where it falls in the
//! organization's presence sequence, what a client holding a `last_update_id` is sent, and who
//! hears of it at once.

mod support;

use confab_core::api::presence::{PresencePing, update_presence, update_presence_answer};
use confab_core::model::Role;
use confab_core::store::Store;
use serde_json::Value;
use support::{World, params};

/// Someone checks in, one second after the world's time; the answer as the host reads it after
/// the commit.
fn check_in(w: &mut World, email: &str, pairs: &[(&str, &str)]) -> Value {
    let actor = w.actor(email);
    let ping = PresencePing::parse(&params(pairs)).expect("valid");
    w.run(|s, now| update_presence(s, &actor, &ping, now)).expect("recorded");
    let answer = update_presence_answer(&w.store, &actor, &ping, w.now).expect("answered");
    Value::Object(answer.reply)
}

fn sequence(w: &World) -> u64 {
    w.store.presence_sequence(w.realm).expect("sequence")
}

fn world() -> World {
    let mut w = World::new();
    w.add_user("ada@example.com", "Ada Lovelace", Role::Member);
    w.add_user("bob@example.com", "Bob Builder", Role::Member);
    w
}

#[test]
fn a_check_in_moves_a_time_only_once_it_is_55_seconds_old() {
    let mut w = world();
    check_in(&mut w, "ada@example.com", &[("status", "active")]);
    let first = sequence(&w);
    let ada = w.user_id("ada@example.com");
    let seen = w.store.presence(ada).expect("read").expect("a presence");
    assert_eq!(seen.last_update_id, first);
    // A second window checking in within the minute writes nothing.
    w.now += 50;
    check_in(&mut w, "ada@example.com", &[("status", "active")]);
    assert_eq!(sequence(&w), first);
    assert_eq!(w.store.presence(ada).expect("read"), Some(seen));
    // Past 55 seconds both times move, as one change.
    w.now += 10;
    check_in(&mut w, "ada@example.com", &[("status", "active")]);
    let moved = w.store.presence(ada).expect("read").expect("a presence");
    assert_eq!((moved.last_active_time, moved.last_connected_time), (w.now, w.now));
    assert_eq!(moved.last_update_id, first + 1);
    // Idle moves only the connection time.
    w.now += 100;
    check_in(&mut w, "ada@example.com", &[("status", "idle")]);
    let idle = w.store.presence(ada).expect("read").expect("a presence");
    assert_eq!((idle.last_active_time, idle.last_connected_time), (moved.last_active_time, w.now));
    assert_eq!(idle.last_update_id, first + 2);
}

#[test]
fn a_client_holding_an_id_gets_only_later_changes() {
    let mut w = world();
    let everyone = check_in(&mut w, "ada@example.com", &[("status", "active"), ("last_update_id", "-1")]);
    let held = everyone["presence_last_update_id"].as_i64().expect("an id");
    assert_eq!(everyone["presences"].as_object().map(|p| p.len()), Some(1));
    check_in(&mut w, "bob@example.com", &[("status", "active")]);
    let bob = w.user_id("bob@example.com").to_string();
    let held_text = held.to_string();
    let delta = check_in(&mut w, "ada@example.com", &[("status", "active"), ("last_update_id", &held_text)]);
    let keys: Vec<&String> = delta["presences"].as_object().expect("presences").keys().collect();
    assert_eq!(keys, [&bob], "{delta}");
    assert_eq!(delta["presence_last_update_id"], sequence(&w));
    // Changes of any age are sent once the client holds data (`history_limit_days` is for the
    // first fetch).
    w.now += 30 * 86_400;
    check_in(&mut w, "bob@example.com", &[("status", "active")]);
    let later = check_in(
        &mut w,
        "owner@example.com",
        &[("status", "active"), ("last_update_id", &held_text), ("history_limit_days", "1")],
    );
    assert_eq!(later["presences"].as_object().map(|p| p.len()), Some(2), "{later}");
    // A deactivated user's presence is not shown, however recent.
    check_in(&mut w, "ada@example.com", &[("status", "active")]);
    let owner = w.actor("owner@example.com");
    let ada_id = w.user_id("ada@example.com");
    w.run(|s, _| confab_core::api::users::deactivate_user(s, &owner, ada_id)).expect("deactivated");
    let all = check_in(&mut w, "owner@example.com", &[("status", "active"), ("last_update_id", "-1")]);
    assert!(all["presences"].get(ada_id.to_string()).is_none(), "{all}");
    assert!(all["presences"].get(&bob).is_some(), "{all}");
}

#[test]
fn presence_events_stop_past_100_active_users() {
    let mut w = world();
    let events = |w: &mut World, email: &str| {
        let actor = w.actor(email);
        let ping = PresencePing::parse(&params(&[("status", "active")])).expect("valid");
        w.run_events(|s, now| update_presence(s, &actor, &ping, now)).expect("recorded")
    };
    assert_eq!(events(&mut w, "ada@example.com").len(), 1, "a small organization hears at once");
    for n in 0..100 {
        w.add_user(&format!("user{n}@example.com"), &format!("User {n}"), Role::Member);
    }
    assert_eq!(events(&mut w, "bob@example.com").len(), 0, "a large one polls");
}

#[test]
fn one_users_presence_reads_offline_past_the_threshold() {
    use confab_core::api::presence::get_user_presence;
    use confab_core::api::users::UserRef;
    let mut w = world();
    check_in(&mut w, "ada@example.com", &[("status", "active")]);
    let ada = w.user_id("ada@example.com");
    let bob = w.actor("bob@example.com");
    let read = |now: i64| {
        let outcome = get_user_presence(&w.store, &bob, UserRef::Id(ada), now).expect("answered");
        Value::Object(outcome.reply)["presence"].clone()
    };
    assert_eq!(read(w.now)["aggregated"]["status"], "active");
    // Zulip's OFFLINE_THRESHOLD_SECS is 140: the aggregate says offline, the client entry not.
    let later = read(w.now + 200);
    assert_eq!(later["aggregated"]["status"], "offline");
    assert_eq!(later["website"]["status"], "active");
}
