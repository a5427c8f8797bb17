//! Every mutation's events keep a client's state right (see `support::consistency`).
//! Messages: sending, flags, deletion, unread counts, scheduled messages and reminders.

mod support;

use confab_core::api;
use confab_core::store::Store as _;
use confab_core::subdomains::Site;
use support::consistency::{MESSAGES, channel, check, run, world};
use support::params;

#[test]
fn sending_channel_and_direct_messages() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    for pairs in [
        vec![
            ("type", "stream"),
            ("to", "general"),
            ("topic", "plans"),
            ("content", "@**Ada Lovelace** lunch?"),
        ],
        vec![("type", "private"), ("to", r#"["ada@example.com"]"#), ("content", "psst")],
        vec![
            ("type", "private"),
            ("to", r#"["ada@example.com", "bob@example.com"]"#),
            ("content", "all three"),
        ],
    ] {
        let events = check(
            &mut w,
            "ada@example.com",
            MESSAGES,
            run(api::messages::send_message, owner.clone(), &pairs),
        );
        assert_eq!(events.len(), 1);
    }
}

/// Feature level 327: a 1:1 direct message names its conversation by one `recipient_id` on
/// both sides, the sender's view (the receiver's personal recipient) and the receiver's (the
/// sender's), as `GET /messages` does.
#[test]
fn both_sides_of_a_direct_message_name_the_conversation_alike() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let ada = w.actor("ada@example.com");
    let pairs = [("type", "private"), ("to", r#"["ada@example.com"]"#), ("content", "psst")];
    let received =
        check(&mut w, "ada@example.com", MESSAGES, run(api::messages::send_message, owner.clone(), &pairs));
    assert_eq!(received[0]["message"]["recipient_id"], owner.user.personal_recipient.0, "Ada's view");
    let sent = check(&mut w, "owner@example.com", MESSAGES, run(api::messages::send_message, owner, &pairs));
    assert_eq!(sent[0]["message"]["recipient_id"], ada.user.personal_recipient.0, "the sender's view");
}

#[test]
fn reading_starring_and_deleting() {
    let mut w = world();
    let id = w.stream("owner@example.com", "general", "plans", "lunch?").to_string();
    // Deleting the newest message would lower `max_message_id`, which no client can follow.
    w.stream("owner@example.com", "general", "plans", "anyone?");
    let ids = format!("[{id}]");
    let ada = w.actor("ada@example.com");
    let register =
        &[("event_types", r#"["message", "update_message_flags", "delete_message", "starred_messages"]"#)];
    for (op, flag) in [("add", "starred"), ("add", "read"), ("remove", "read"), ("remove", "starred")] {
        let pairs = [("messages", ids.as_str()), ("op", op), ("flag", flag)];
        check(
            &mut w,
            "ada@example.com",
            register,
            run(|s, a, p, _| api::messages::update_message_flags(s, a, p), ada.clone(), &pairs),
        );
    }
    let owner = w.actor("owner@example.com");
    let message = confab_core::ids::MessageId(id.parse().expect("id"));
    check(&mut w, "ada@example.com", register, move |s, now| {
        api::messages::delete_message(s, &owner, message, now)
    });
}

#[test]
fn unread_counts_leave_muted_conversations_out() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let owner = w.actor("owner@example.com");
    w.subscribe("owner@example.com", r#"[{"name": "design"}]"#, &[("principals", r#"["ada@example.com"]"#)]);
    let general = w.store.stream_by_name(w.realm, "general").ok().flatten().expect("general").to_string();
    let design = w.store.stream_by_name(w.realm, "design").ok().flatten().expect("design").to_string();
    let mute_design = format!(r#"[{{"stream_id": {design}, "property": "is_muted", "value": true}}]"#);
    let p = params(&[("subscription_data", &mute_design)]);
    w.run(|s, _| api::subscription_properties::update_subscription_settings(s, &ada, &p)).expect("muted");
    for (channel, topic, policy) in [(&general, "Quiet", "1"), (&design, "colours", "3")] {
        let p = params(&[("stream_id", channel), ("topic", topic), ("visibility_policy", policy)]);
        let now = w.now;
        w.run(|s, _| api::user_topics::update_user_topic(s, &ada, &p, now)).expect("topic preference");
    }
    let register = &[("event_types", r#"["message", "update_message_flags", "subscription", "user_topic"]"#)];
    let mut sent = Vec::new();
    for (channel, topic) in
        [("general", "quiet"), ("design", "fonts"), ("design", "Colours"), ("general", "loud")]
    {
        let pairs = [("type", "stream"), ("to", channel), ("topic", topic), ("content", "@**all** look")];
        let events = check(
            &mut w,
            "ada@example.com",
            register,
            run(api::messages::send_message, owner.clone(), &pairs),
        );
        sent.push(events[0]["message"]["id"].as_u64().expect("id"));
    }
    let read = serde_json::json!(sent).to_string();
    let pairs = [("messages", read.as_str()), ("op", "add"), ("flag", "read")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(|s, a, p, _| api::messages::update_message_flags(s, a, p), ada, &pairs),
    );
}

#[test]
fn scheduled_messages_and_reminders() {
    use confab_core::api::scheduled_delivery::{LATE_CUTOFF_SECONDS, deliver_scheduled_message};
    use confab_core::ids::ScheduledMessageId;

    let mut w = world();
    let register =
        &[("event_types", r#"["scheduled_messages", "reminders", "message", "update_message_flags"]"#)];
    let ada = w.actor("ada@example.com");
    let at = w.now + 1_000;
    let general = w.store.stream_by_name(w.realm, "general").ok().flatten().expect("general").to_string();
    let (at_s, later_s) = (at.to_string(), (at + 500).to_string());
    let bob = format!("[{}]", w.user_id("bob@example.com"));
    let mut ids = Vec::new();
    for pairs in [
        vec![
            ("type", "stream"),
            ("to", general.as_str()),
            ("topic", "plans"),
            ("content", "Lunch?"),
            ("scheduled_delivery_timestamp", at_s.as_str()),
        ],
        vec![
            ("type", "direct"),
            ("to", bob.as_str()),
            ("content", "psst"),
            ("scheduled_delivery_timestamp", &later_s),
        ],
    ] {
        let events = check(
            &mut w,
            "ada@example.com",
            register,
            run(api::scheduled_messages::create_scheduled_message, ada.clone(), &pairs),
        );
        ids.push(ScheduledMessageId(
            events[0]["scheduled_messages"][0]["scheduled_message_id"].as_u64().expect("id"),
        ));
    }
    let (lunch, psst) = (ids[0], ids[1]);
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, now| api::scheduled_messages::update_scheduled_message(s, a, psst, p, now),
            ada.clone(),
            &[("content", "psst!"), ("scheduled_delivery_timestamp", at_s.as_str())],
        ),
    );
    let first = w.stream("bob@example.com", "general", "hello", "remind me").to_string();
    let events = check(
        &mut w,
        "ada@example.com",
        register,
        run(
            api::reminders::create_message_reminder,
            ada.clone(),
            &[("message_id", first.as_str()), ("scheduled_delivery_timestamp", at_s.as_str())],
        ),
    );
    let reminder = ScheduledMessageId(events[0]["reminders"][0]["reminder_id"].as_u64().expect("id"));

    // Deliveries: one sent, one too late (failed, with Notification Bot's notice), the reminder.
    let site = Site::new("http", "chat.example.com").expect("site");
    for (id, when) in [(lunch, at), (psst, at + LATE_CUTOFF_SECONDS + 1), (reminder, at)] {
        let site = site.clone();
        check(&mut w, "ada@example.com", register, move |s, _| deliver_scheduled_message(s, &site, id, when));
    }
    // The failed one, given a new time, is pending again.
    let retry_at = (at + 2_000).to_string();
    let retry = [("content", "again"), ("scheduled_delivery_timestamp", retry_at.as_str())];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, now| api::scheduled_messages::update_scheduled_message(s, a, psst, p, now),
            ada.clone(),
            &retry,
        ),
    );
    check(&mut w, "ada@example.com", register, move |s, _| {
        api::scheduled_messages::delete_scheduled_message(s, &ada, psst)
    });
}

#[test]
fn reactions_leave_state_alone() {
    let mut w = world();
    w.subscribe("owner@example.com", r#"[{"name": "design"}]"#, &[]);
    let received = w.stream("owner@example.com", "general", "plans", "lunch?");
    // Bob is not in `#design`: reacting gives him his first copy of its newest message.
    let history = w.stream("owner@example.com", "design", "fonts", "serif?");
    let register = &[("event_types", r#"["reaction", "message", "update_message_flags"]"#)];
    for id in [received, history] {
        for (viewer, reactor) in
            [("bob@example.com", "bob@example.com"), ("owner@example.com", "bob@example.com")]
        {
            for op in ["add", "remove"] {
                let actor = w.actor(reactor);
                let p = params(&[("emoji_name", "octopus")]);
                let message = confab_core::ids::MessageId(id);
                check(&mut w, viewer, register, move |s, now| match op {
                    "add" => api::messages::add_reaction(s, &actor, message, &p, now),
                    _ => api::messages::remove_reaction(s, &actor, message, &p),
                });
            }
        }
    }
}

#[test]
fn polls_and_their_votes_keep_state_in_step() {
    let mut w = world();
    // The poll's message event carries its widget; votes and options change no register state
    // (but may follow the voter's topic, which `user_topic` events keep in step).
    let register = &[("event_types", r#"["message", "submessage", "user_topic", "update_message_flags"]"#)];
    let owner = w.actor("owner@example.com");
    let general = channel(&w, "general").to_string();
    let poll_params = vec![
        ("type", "stream"),
        ("to", general.as_str()),
        ("topic", "lunch"),
        ("content", "/poll Where?\nsoup\nsalad"),
    ];
    let events =
        check(&mut w, "bob@example.com", register, run(api::messages::send_message, owner, &poll_params));
    let poll = events
        .iter()
        .find_map(|e| e["message"]["id"].as_u64().filter(|_| e["type"] == "message"))
        .expect("the poll's message event");
    let vote = r#"{"type": "vote", "key": "canned,0", "vote": 1}"#;
    let option = r#"{"type": "new_option", "idx": 1, "option": "bread"}"#;
    for (voter, content) in
        [("bob@example.com", vote), ("ada@example.com", option), ("owner@example.com", vote)]
    {
        let id = poll.to_string();
        let pairs = vec![("message_id", id.as_str()), ("msg_type", "widget"), ("content", content)];
        let actor = w.actor(voter);
        let events =
            check(&mut w, "bob@example.com", register, run(api::messages::process_submessage, actor, &pairs));
        assert!(events.iter().any(|e| e["type"] == "submessage"), "{events:?}");
    }
}

#[test]
fn typing_changes_nothing() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let general = channel(&w, "general").to_string();
    let register = &[
        ("event_types", r#"["typing"]"#),
        (
            "client_capabilities",
            r#"{"notification_settings_null": true, "stream_typing_notifications": true}"#,
        ),
    ];
    for pairs in [
        vec![("op", "start"), ("to", r#"["bob@example.com"]"#)],
        vec![("op", "stop"), ("to", r#"["bob@example.com"]"#)],
        vec![("op", "start"), ("type", "stream"), ("stream_id", general.as_str()), ("topic", "plans")],
    ] {
        let events = check(
            &mut w,
            "bob@example.com",
            register,
            run(|s, a, p, _| api::typing::set_typing_status(s, a, p), ada.clone(), &pairs),
        );
        assert_eq!(events.len(), 1, "Bob hears of it");
    }
}

#[test]
fn uploads_are_not_in_register() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let register = &[("event_types", r#"["attachment", "message"]"#)];
    let path = format!("{}/ab/cdefghijklmnopqrstuvwxyz/notes.txt", w.realm);
    let upload = ada.clone();
    let events = check(&mut w, "ada@example.com", register, move |s, now| {
        api::uploads::record_upload(s, &upload, path, "notes.txt", "text/plain", 12, None, now)
    });
    let id = events[0]["attachment"]["id"].as_u64().expect("attachment id");
    let link = format!("[notes](/user_uploads/{}/ab/cdefghijklmnopqrstuvwxyz/notes.txt)", w.realm);
    let pairs = [("type", "stream"), ("to", "general"), ("topic", "files"), ("content", link.as_str())];
    let events =
        check(&mut w, "ada@example.com", register, run(api::messages::send_message, ada.clone(), &pairs));
    assert!(events.iter().any(|e| e["type"] == "attachment"), "{events:?}");
    check(&mut w, "ada@example.com", register, move |s, _| api::uploads::remove_attachment(s, &ada, id));
}

#[test]
fn deleting_a_topic() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    w.stream("owner@example.com", "general", "plans", "lunch?");
    w.stream("bob@example.com", "general", "Plans", "@**Ada Lovelace** yes");
    // Deleting the newest message would lower `max_message_id`, which no client can follow.
    w.stream("owner@example.com", "general", "later", "kept");
    let general = channel(&w, "general");
    let register = &[
        ("event_types", r#"["message", "update_message_flags", "delete_message", "stream"]"#),
        ("client_capabilities", r#"{"notification_settings_null": true, "bulk_message_deletion": true}"#),
    ];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, _| api::messages::delete_topic(s, a, general, p),
            owner.clone(),
            &[("topic_name", "plans")],
        ),
    );
    // The channel's first message goes with its topic.
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, _| api::messages::delete_topic(s, a, general, p),
            owner,
            &[("topic_name", "hello")],
        ),
    );
}

/// Register sorts `unread_msgs`' conversations and `starred_messages`; events that bring a
/// conversation or a star out of that order must put it in its place, as the exact comparison
/// of those lists checks.
#[test]
fn new_conversations_and_stars_keep_registers_order() {
    let mut w = world();
    let older = w.stream("owner@example.com", "general", "zebras", "first").to_string();
    let newer = w.stream("owner@example.com", "general", "apples", "second").to_string();
    let bob = w.actor("bob@example.com");
    let owner = w.actor("owner@example.com");
    // Bob's id is above the owner's: the owner's conversation goes first though it comes last.
    for (sender, to) in [(&bob, "ada@example.com"), (&owner, "ada@example.com")] {
        let pairs = [("type", "private"), ("to", to), ("content", "psst")];
        check(&mut w, "ada@example.com", MESSAGES, run(api::messages::send_message, sender.clone(), &pairs));
    }
    let pairs = [("type", "stream"), ("to", "general"), ("topic", "Mangoes"), ("content", "third")];
    check(&mut w, "ada@example.com", MESSAGES, run(api::messages::send_message, owner.clone(), &pairs));
    let ada = w.actor("ada@example.com");
    let register = &[("event_types", r#"["message", "update_message_flags", "starred_messages"]"#)];
    for id in [&newer, &older] {
        let ids = format!("[{id}]");
        let pairs = [("messages", ids.as_str()), ("op", "add"), ("flag", "starred")];
        check(
            &mut w,
            "ada@example.com",
            register,
            run(|s, a, p, _| api::messages::update_message_flags(s, a, p), ada.clone(), &pairs),
        );
    }
}
