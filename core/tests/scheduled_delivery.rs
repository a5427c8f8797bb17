//! When scheduled messages and reminders fall due and what sending them does, on a controlled
//! clock: core's timeout handling, as the host's delivery task drives it.

mod support;

use confab_core::api::scheduled_delivery::{
    LATE_CUTOFF_SECONDS, deliver_scheduled_message, due_deliveries, next_delivery_at,
};
use confab_core::ids::{ScheduledMessageId, StreamId};
use confab_core::model::{DeliveryState, ScheduledMessage};
use confab_core::store::{Change, Store as _};
use confab_core::subdomains::Site;
use confab_core::{Event, Outcome, api};
use serde_json::Value;
use support::{World, params};

fn world() -> World {
    let mut world = World::new();
    world.add_user("ada@example.com", "Ada Lovelace", confab_core::model::Role::Member);
    let everyone = r#"["owner@example.com", "ada@example.com"]"#;
    world.subscribe("owner@example.com", r#"[{"name": "general"}]"#, &[("principals", everyone)]);
    world
}

fn general(world: &World) -> StreamId {
    world.store.stream_by_name(world.realm, "general").ok().flatten().expect("general")
}

/// Schedules a message from `email` to #general for `at`.
fn schedule(world: &mut World, email: &str, at: i64, content: &str) -> ScheduledMessageId {
    let actor = world.actor(email);
    let (to, at) = (general(world).to_string(), at.to_string());
    let p = params(&[
        ("type", "stream"),
        ("to", &to),
        ("topic", "plans"),
        ("content", content),
        ("scheduled_delivery_timestamp", &at),
    ]);
    let reply = world
        .run(|s, now| api::scheduled_messages::create_scheduled_message(s, &actor, &p, now))
        .expect("scheduled");
    ScheduledMessageId(reply["scheduled_message_id"].as_u64().expect("id"))
}

fn site() -> Site {
    Site::new("http", "chat.example.com").expect("site")
}

/// Delivers at `now` and applies the outcome, as the writer does.
fn deliver(world: &mut World, id: ScheduledMessageId, now: i64) -> Outcome {
    let outcome = deliver_scheduled_message(&world.store, &site(), id, now).expect("no storage fault");
    world.store.apply_all(&outcome.changes);
    outcome
}

fn stored(world: &World, id: ScheduledMessageId) -> ScheduledMessage {
    world.store.scheduled_message(id).ok().flatten().expect("stored")
}

fn bodies(outcome: &Outcome) -> Vec<&Value> {
    outcome
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Other { body, .. } => Some(body),
            Event::Message { .. }
            | Event::OutgoingWebhook { .. }
            | Event::Email(_)
            | Event::EmailsScheduled { .. } => None,
        })
        .collect()
}

fn sent_messages(outcome: &Outcome) -> Vec<&confab_core::model::Message> {
    outcome
        .changes
        .iter()
        .filter_map(|c| match c {
            Change::InsertMessage { message, .. } => Some(message),
            _ => None,
        })
        .collect()
}

#[test]
fn nothing_is_due_before_its_time_and_the_soonest_goes_first() {
    let mut w = world();
    let t = w.now + 1_000;
    assert_eq!(next_delivery_at(&w.store).ok(), Some(None), "nothing scheduled");
    let late = schedule(&mut w, "ada@example.com", t + 50, "late");
    let soon = schedule(&mut w, "owner@example.com", t, "soon");
    let also_late = schedule(&mut w, "owner@example.com", t + 50, "also late");
    assert_eq!(next_delivery_at(&w.store).ok(), Some(Some(t)));
    assert_eq!(due_deliveries(&w.store, t - 1).ok(), Some(vec![]));
    assert_eq!(due_deliveries(&w.store, t).ok(), Some(vec![soon]));
    assert_eq!(due_deliveries(&w.store, t + 50).ok(), Some(vec![soon, late, also_late]), "by time, then id");

    // A cancelled message is no longer due; a new time moves it.
    let owner = w.actor("owner@example.com");
    w.run(|s, _| api::scheduled_messages::delete_scheduled_message(s, &owner, soon)).expect("deleted");
    let ada = w.actor("ada@example.com");
    let earlier = params(&[("scheduled_delivery_timestamp", &(t + 10).to_string())]);
    w.run(|s, now| api::scheduled_messages::update_scheduled_message(s, &ada, late, &earlier, now))
        .expect("moved");
    assert_eq!(next_delivery_at(&w.store).ok(), Some(Some(t + 10)));
    assert_eq!(due_deliveries(&w.store, t + 50).ok(), Some(vec![late, also_late]));
}

#[test]
fn a_due_message_is_sent_as_its_sender_at_that_moment_and_once() {
    let mut w = world();
    let t = w.now + 1_000;
    let id = schedule(&mut w, "ada@example.com", t, "Ship **it**");
    assert!(deliver(&mut w, id, t - 1).changes.is_empty(), "not before its time");

    let outcome = deliver(&mut w, id, t + 3);
    let sent = sent_messages(&outcome);
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].sender_id, w.user_id("ada@example.com"));
    assert_eq!(sent[0].timestamp, t + 3);
    assert_eq!(sent[0].rendered_content.html(), "<p>Ship <strong>it</strong></p>");
    assert_eq!(stored(&w, id).state, DeliveryState::Delivered { message_id: sent[0].id });
    assert!(outcome.events.iter().any(|e| matches!(e, Event::Message { .. })));
    // Sent as Ada sends: she starts the topic, so she follows it (before the message); it is
    // the new organization's #general's first message, so clients learn its
    // `first_message_id` (it is active from the start); then her clients drop the scheduled
    // message.
    let kinds: Vec<&Value> = bodies(&outcome).iter().map(|b| &b["type"]).collect();
    assert_eq!(kinds, ["muted_topics", "user_topic", "stream", "scheduled_messages"]);
    assert_eq!(bodies(&outcome)[1]["visibility_policy"], 3);
    assert_eq!(bodies(&outcome)[2]["property"], "first_message_id");
    assert_eq!(bodies(&outcome)[2]["value"], sent[0].id.0);
    assert_eq!(bodies(&outcome)[3]["op"], "remove");
    assert_eq!(due_deliveries(&w.store, t + 100).ok(), Some(vec![]));
    assert!(deliver(&mut w, id, t + 4).changes.is_empty(), "sent once");
}

#[test]
fn permissions_are_checked_again_when_it_is_sent() {
    let mut w = world();
    let t = w.now + 1_000;
    let id = schedule(&mut w, "ada@example.com", t, "hello");
    let owner = w.actor("owner@example.com");
    let stream = general(&w);
    w.run(|s, _| api::channel_admin::archive_stream(s, &owner, stream)).expect("archived");

    let outcome = deliver(&mut w, id, t);
    let reason = "Not authorized to send to channel 'general'";
    assert_eq!(stored(&w, id).state, DeliveryState::Failed { message: reason.to_owned() });
    let update = bodies(&outcome);
    assert_eq!(
        (update[0]["op"].as_str(), update[0]["scheduled_message"]["failed"].as_bool()),
        (Some("update"), Some(true))
    );
    let notice = sent_messages(&outcome);
    assert_eq!(notice.len(), 1, "Notification Bot tells the sender");
    assert_eq!(
        Some(notice[0].sender_id),
        w.store.realm(w.realm).ok().flatten().and_then(|r| r.notification_bot)
    );
    assert!(notice[0].content.contains(&format!("\n\n> {reason}\n\n")), "{}", notice[0].content);
    assert_eq!(due_deliveries(&w.store, t + 100).ok(), Some(vec![]), "a failed message waits for a new time");
}

#[test]
fn a_message_too_late_fails_but_a_reminder_is_sent_however_late() {
    let mut w = world();
    let t = w.now + 1_000;
    let id = schedule(&mut w, "ada@example.com", t, "stale news");
    deliver(&mut w, id, t + LATE_CUTOFF_SECONDS + 1);
    let reason = "Message could not be sent at the scheduled time.".to_owned();
    assert_eq!(stored(&w, id).state, DeliveryState::Failed { message: reason });

    let said = w.stream("owner@example.com", "general", "plans", "Ship it");
    let ada = w.actor("ada@example.com");
    let (said, at) = (said.to_string(), t.to_string());
    let p = params(&[("message_id", &said), ("scheduled_delivery_timestamp", &at)]);
    let reply =
        w.run(|s, now| api::reminders::create_message_reminder(s, &ada, &p, now)).expect("reminder created");
    let reminder = ScheduledMessageId(reply["reminder_id"].as_u64().expect("id"));
    let outcome = deliver(&mut w, reminder, t + 86_400);
    let sent = sent_messages(&outcome);
    assert_eq!(sent.len(), 1);
    assert!(sent[0].content.starts_with(&format!("You requested a reminder for #**general>plans@{said}**.")));
    assert_eq!(
        bodies(&outcome)[0],
        &serde_json::json!({"type": "reminders", "op": "remove", "reminder_id": reminder})
    );
    assert!(matches!(stored(&w, reminder).state, DeliveryState::Delivered { .. }));
}

#[test]
fn a_deactivated_sender_fails_silently() {
    let mut w = world();
    let t = w.now + 1_000;
    let id = schedule(&mut w, "ada@example.com", t, "hello");
    let owner = w.actor("owner@example.com");
    let ada = w.user_id("ada@example.com");
    w.run(|s, _| api::users::deactivate_user(s, &owner, ada)).expect("deactivated");
    let outcome = deliver(&mut w, id, t);
    assert_eq!(stored(&w, id).state, DeliveryState::Failed { message: "Account is deactivated".to_owned() });
    assert!(outcome.events.is_empty(), "nobody to tell");
    assert!(sent_messages(&outcome).is_empty());
}

#[test]
fn reminders_say_what_zulip_says() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let (owner_id, ada_id) = (w.user_id("owner@example.com"), w.user_id("ada@example.com"));
    let remind = |w: &mut World, message: u64, note: Option<&str>| {
        let (message, at) = (message.to_string(), (w.now + 1_000).to_string());
        let mut pairs = vec![("message_id", message.as_str()), ("scheduled_delivery_timestamp", at.as_str())];
        pairs.extend(note.map(|n| ("note", n)));
        let p = params(&pairs);
        let reply =
            w.run(|s, now| api::reminders::create_message_reminder(s, &ada, &p, now)).expect("created");
        stored(w, ScheduledMessageId(reply["reminder_id"].as_u64().expect("id"))).content
    };
    let dm = w.dm("owner@example.com", r#"["ada@example.com"]"#, "Psst\n```\ncode\n```");
    assert_eq!(
        remind(&mut w, dm, Some("\nreply soon  ")),
        format!(
            "You requested a reminder for the following direct message. Note:\n > reply soon\n\n\
             @_**Olive Owner|{owner_id}** [said](http://chat.example.com/#narrow/dm/{owner_id},{ada_id}/near/{dm}):\n\
             ````quote\nPsst\n```\ncode\n```\n````"
        ),
        "a fence longer than the quoted message's"
    );
    let poll = w.stream("owner@example.com", "general", "a*b", "/poll Lunch?");
    let general = general(&w);
    assert_eq!(
        remind(&mut w, poll, None),
        format!(
            "You requested a reminder for [#general > a&#42;b @ 💬](#narrow/channel/{general}-general/topic/a*b/near/{poll}).\n\n\
             @_**Olive Owner|{owner_id}** [sent](http://chat.example.com/#narrow/channel/{general}-general/topic/a*b/near/{poll}) a poll."
        )
    );
}
