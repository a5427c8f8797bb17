//! Channels' `is_recently_active` on a controlled clock: true when made and when a message
//! arrives or is moved in, false when the weekly sweep finds no message in 180 days, each change
//! told by a `stream` `update` event to those who see the channel.

mod support;

use confab_core::api;
use confab_core::api::channel_activity::{INACTIVE_AFTER_DAYS, next_sweep_at, sweep_quiet_channels};
use confab_core::ids::{MessageId, StreamId};
use confab_core::store::Store as _;
use confab_core::{Event, Outcome};
use serde_json::{Value, json};
use support::{World, params};

const DAY: i64 = 86_400;

fn world() -> World {
    let mut world = World::new();
    world.add_user("ada@example.com", "Ada Lovelace", confab_core::model::Role::Member);
    let everyone = r#"["owner@example.com", "ada@example.com"]"#;
    world.subscribe(
        "owner@example.com",
        r#"[{"name": "general"}, {"name": "design"}]"#,
        &[("principals", everyone)],
    );
    world
}

fn stream_id(world: &World, name: &str) -> StreamId {
    world.store.stream_by_name(world.realm, name).ok().flatten().expect("channel")
}

/// What Ada's client is told: `is_recently_active` of each channel, by name.
fn shown(world: &World) -> Vec<(String, Value)> {
    let ada = world.actor("ada@example.com");
    let reply = api::streams::get_streams(&world.store, &ada, &params(&[])).expect("streams");
    let mut shown: Vec<(String, Value)> = reply.reply_values()["streams"]
        .as_array()
        .expect("streams")
        .iter()
        .map(|s| (s["name"].as_str().expect("name").to_owned(), s["is_recently_active"].clone()))
        .collect();
    shown.sort_by(|a, b| a.0.cmp(&b.0));
    shown
}

fn active(names: &[(&str, bool)]) -> Vec<(String, Value)> {
    names.iter().map(|(n, a)| ((*n).to_owned(), json!(a))).collect()
}

/// The activity events of an outcome, as `(channel id, value, hears it)` for Ada.
fn activity_events(world: &World, outcome: &Outcome) -> Vec<(Value, Value, bool)> {
    let ada = world.user_id("ada@example.com");
    outcome
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Other { users, body } if body["property"] == "is_recently_active" => {
                assert_eq!((&body["type"], &body["op"]), (&json!("stream"), &json!("update")));
                Some((body["stream_id"].clone(), body["value"].clone(), users.contains(&ada)))
            }
            _ => None,
        })
        .collect()
}

/// Runs the sweep at `now` and applies it, as the host's task does.
fn sweep(world: &mut World, now: i64) -> Outcome {
    world.now = now;
    let outcome = sweep_quiet_channels(&world.store, now).expect("sweep");
    world.store.apply_all(&outcome.changes);
    outcome
}

fn send_at(world: &mut World, now: i64, channel: &str) -> (MessageId, Outcome) {
    world.now = now;
    let owner = world.actor("owner@example.com");
    let p = params(&[("type", "stream"), ("to", channel), ("topic", "news"), ("content", "Hello")]);
    let outcome = api::messages::send_message(&world.store, &owner, &p, now).expect("sent");
    world.store.apply_all(&outcome.changes);
    let id = outcome.reply["id"].as_u64().expect("id");
    (MessageId(id), outcome)
}

#[test]
fn channels_go_quiet_after_180_days_without_messages_and_wake_with_the_next_one() {
    let mut w = world();
    let start = w.now;
    assert_eq!(shown(&w), active(&[("design", true), ("general", true)]), "new channels are active");
    let (_, first) = send_at(&mut w, start, "general");
    assert_eq!(activity_events(&w, &first), vec![], "an active channel stays so quietly");

    // Within the period the sweep keeps both (#design has its creation notice).
    let outcome = sweep(&mut w, start + (INACTIVE_AFTER_DAYS - 1) * DAY);
    assert!(outcome.changes.is_empty() && outcome.events.is_empty(), "{:?}", outcome.events);
    let design = stream_id(&w, "design");
    let general = stream_id(&w, "general");

    let outcome = sweep(&mut w, start + INACTIVE_AFTER_DAYS * DAY + 1);
    let mut told = activity_events(&w, &outcome);
    told.sort_by_key(|(id, _, _)| id.as_u64());
    assert_eq!(told, vec![(json!(general), json!(false), true), (json!(design), json!(false), true)]);
    assert_eq!(shown(&w), active(&[("design", false), ("general", false)]));
    let again = sweep(&mut w, start + (INACTIVE_AFTER_DAYS + 7) * DAY);
    assert!(again.changes.is_empty() && again.events.is_empty(), "a quiet channel is told once");

    let (_, woke) = send_at(&mut w, start + (INACTIVE_AFTER_DAYS + 8) * DAY, "design");
    let told = activity_events(&w, &woke);
    assert_eq!(told, vec![(json!(design), json!(true), true)]);
    assert_eq!(shown(&w), active(&[("design", true), ("general", false)]));
}

#[test]
fn a_channel_that_never_had_a_message_goes_quiet_at_the_next_sweep() {
    // A new organization's #general is made without a creation notice.
    let mut w = World::new();
    w.add_user("ada@example.com", "Ada Lovelace", confab_core::model::Role::Member);
    let general = stream_id(&w, "general");
    let tomorrow = w.now + DAY;
    let outcome = sweep(&mut w, tomorrow);
    // Zulip's sweep asks for a message in the period, and a channel without any has none.
    let quiet: Vec<Value> = activity_events(&w, &outcome).into_iter().map(|(id, _, _)| id).collect();
    assert_eq!(quiet, vec![json!(general)]);
}

#[test]
fn moving_recent_messages_into_a_quiet_channel_wakes_it() {
    let mut w = world();
    let start = w.now;
    let (old, _) = send_at(&mut w, start, "design");
    let later = start + (INACTIVE_AFTER_DAYS + 1) * DAY;
    sweep(&mut w, later);
    assert_eq!(shown(&w), active(&[("design", false), ("general", false)]));

    let owner = w.actor("owner@example.com");
    let general = stream_id(&w, "general").to_string();
    // An old message moved in leaves the channel quiet.
    let moving = params(&[("stream_id", general.as_str()), ("send_notification_to_new_thread", "false")]);
    let outcome = api::messages::update_message(&w.store, &owner, old, &moving, later).expect("moved");
    w.store.apply_all(&outcome.changes);
    assert_eq!(activity_events(&w, &outcome), vec![]);
    assert_eq!(shown(&w), active(&[("design", false), ("general", false)]));

    // A recent one wakes it, with one event.
    let (recent, _) = send_at(&mut w, later, "design");
    let outcome = api::messages::update_message(&w.store, &owner, recent, &moving, later).expect("moved");
    w.store.apply_all(&outcome.changes);
    assert_eq!(activity_events(&w, &outcome), vec![(json!(stream_id(&w, "general")), json!(true), true)]);
    assert_eq!(shown(&w), active(&[("design", true), ("general", true)]));
}

#[test]
fn the_host_sweeps_weekly() {
    let now = 1_795_400_000; // a Sunday evening
    let next = next_sweep_at(now);
    assert!(next > now && next - now <= 7 * DAY);
    assert_eq!(next_sweep_at(next), next + 7 * DAY);
}
