//! Missed-message emails on a controlled clock: who gets one, when the batch is due, what it
//! says, and that what was read meanwhile is left out.

mod support;

use confab_core::api::missed_messages::send_due_emails;
use confab_core::emails::OutgoingEmail;
use confab_core::model::Role;
use confab_core::subdomains::Site;
use confab_core::{Event, api};
use support::{World, params};

fn world() -> World {
    let mut world = World::new();
    world.add_user("ada@example.com", "Ada Lovelace", Role::Member);
    world.add_user("bob@example.com", "Bob Babbage", Role::Member);
    let everyone = r#"["owner@example.com", "ada@example.com", "bob@example.com"]"#;
    world.subscribe("owner@example.com", r#"[{"name": "general"}]"#, &[("principals", everyone)]);
    world
}

fn site() -> Site {
    Site::new("http", "chat.example.com").expect("site")
}

/// Sends Ada's due batch at `now`, applying it; the emails it sends.
fn send_due(world: &mut World, now: i64) -> Vec<OutgoingEmail> {
    let ada = world.user_id("ada@example.com");
    let outcome = send_due_emails(&world.store, &site(), ada, now).expect("no storage fault");
    world.store.apply_all(&outcome.changes);
    outcome.events.into_iter().filter_map(|e| if let Event::Email(e) = e { Some(e) } else { None }).collect()
}

fn scheduled(events: &[Event]) -> Vec<i64> {
    events
        .iter()
        .filter_map(|e| if let Event::EmailsScheduled { due, .. } = e { Some(*due) } else { None })
        .collect()
}

#[test]
fn a_batch_of_dms_and_mentions_is_mailed_per_conversation_after_the_batching_period() {
    let mut world = world();
    let owner = world.actor("owner@example.com");
    let dm = params(&[("type", "private"), ("to", "[\"ada@example.com\"]"), ("content", "Lunch at noon?")]);
    let events = world.run_events(|s, now| api::messages::send_message(s, &owner, &dm, now)).expect("sent");
    // Ada was never seen online: away. Her batch opens, due after Zulip's default 2 minutes.
    let opened = scheduled(&events);
    assert_eq!(opened, vec![world.now + 120]);
    let due = opened[0];

    world.stream("bob@example.com", "general", "plans", "@**Ada Lovelace** can you review?");
    world.stream("bob@example.com", "general", "plans", "No mention here");
    let dm2 = params(&[("type", "private"), ("to", "[\"ada@example.com\"]"), ("content", "Or one?")]);
    let events = world.run_events(|s, now| api::messages::send_message(s, &owner, &dm2, now)).expect("sent");
    assert!(scheduled(&events).is_empty(), "the second message joins the open batch");

    assert!(send_due(&mut world, due - 1).is_empty(), "not due yet");
    let mut emails = send_due(&mut world, due);
    emails.sort_by(|a, b| a.subject.cmp(&b.subject));
    assert_eq!(emails.len(), 2, "{emails:?}");
    let (topic, dms) = (&emails[0], &emails[1]);
    assert_eq!(dms.to, "ada@example.com");
    assert_eq!(dms.subject, "DMs with Olive Owner");
    assert!(dms.body.contains("Olive Owner:\nLunch at noon?\n\nOlive Owner:\nOr one?"), "{}", dms.body);
    assert!(dms.body.contains("http://chat.example.com/#narrow/dm/"), "{}", dms.body);
    assert_eq!(topic.subject, "#general > plans");
    assert!(topic.body.contains("Bob Babbage:\n@**Ada Lovelace** can you review?"), "{}", topic.body);
    assert!(!topic.body.contains("No mention here"), "{}", topic.body);
    // Sent once.
    assert!(send_due(&mut world, due + 1000).is_empty());
}

#[test]
fn what_was_read_in_the_meantime_is_not_mailed_and_present_users_get_no_batch() {
    let mut world = world();
    let id = world.dm("owner@example.com", "[\"ada@example.com\"]", "Are you there?");
    let ada = world.actor("ada@example.com");
    let read = params(&[("messages", &format!("[{id}]")), ("op", "add"), ("flag", "read")]);
    world.run(|s, _| api::messages::update_message_flags(s, &ada, &read)).expect("read");
    let later = world.now + 1000;
    assert!(send_due(&mut world, later).is_empty());

    // Present (active in the last 140 seconds): no batch.
    let active = api::presence::PresencePing::parse(&params(&[("status", "active")])).expect("ping");
    world.run(|s, now| api::presence::update_presence(s, &ada, &active, now)).expect("presence");
    let owner = world.actor("owner@example.com");
    let dm = params(&[("type", "private"), ("to", "[\"ada@example.com\"]"), ("content", "Hi again")]);
    let events = world.run_events(|s, now| api::messages::send_message(s, &owner, &dm, now)).expect("sent");
    assert!(scheduled(&events).is_empty());

    // Turned off: no batch either, however long she is away.
    let off = params(&[("enable_offline_email_notifications", "false")]);
    world.run(|s, _| api::settings::update_settings(s, &ada, &off)).expect("setting");
    world.now += 1000;
    let events = world.run_events(|s, now| api::messages::send_message(s, &owner, &dm, now)).expect("sent");
    assert!(scheduled(&events).is_empty());
}
