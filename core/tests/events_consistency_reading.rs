//! Every mutation's events keep a client's state right (see `support::consistency`).
//! Reading: marking messages read and unread, one by one, by conversation, by narrow, all.

mod support;

use confab_core::api;
use support::consistency::{channel, check, run, world};
use support::{World, params};

/// A client that keeps unread counts, with what decides muting.
const UNREADS: &[(&str, &str)] = &[(
    "event_types",
    r#"["message", "update_message_flags", "delete_message", "subscription", "user_topic"]"#,
)];

/// Unread messages for Ada in every kind of conversation: two topics of `#general` (one
/// muted, with a wildcard mention), `#design`, a direct message and a group conversation.
fn unread_everywhere(w: &mut World) -> Vec<u64> {
    w.subscribe("owner@example.com", r#"[{"name": "design"}]"#, &[("principals", r#"["ada@example.com"]"#)]);
    let ada = w.actor("ada@example.com");
    let general = channel(w, "general").to_string();
    let mute = params(&[("stream_id", &general), ("topic", "quiet"), ("visibility_policy", "1")]);
    w.run(|s, now| api::user_topics::update_user_topic(s, &ada, &mute, now)).expect("muted");
    vec![
        w.stream("owner@example.com", "general", "plans", "@**Ada Lovelace** lunch?"),
        w.stream("owner@example.com", "general", "quiet", "@**all** shh"),
        w.stream("owner@example.com", "design", "fonts", "serif?"),
        w.dm("owner@example.com", r#"["ada@example.com"]"#, "psst"),
        w.dm("owner@example.com", r#"["ada@example.com", "bob@example.com"]"#, "all three"),
        w.dm("ada@example.com", r#"["ada@example.com"]"#, "note to self"),
    ]
}

fn flags(op: &str, flag: &str, ids: &[u64]) -> Vec<(&'static str, String)> {
    let ids = serde_json::json!(ids).to_string();
    vec![("messages", ids), ("op", op.to_owned()), ("flag", flag.to_owned())]
}

#[test]
fn reading_and_unreading_each_kind_of_conversation() {
    let mut w = world();
    let ids = unread_everywhere(&mut w);
    let ada = w.actor("ada@example.com");
    // The note to self is read already: it is marked unread first.
    for (op, which) in [("remove", &ids[5..]), ("add", &ids[..]), ("remove", &ids[..]), ("add", &ids[2..4])] {
        let pairs = flags(op, "read", which);
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        check(
            &mut w,
            "ada@example.com",
            UNREADS,
            run(|s, a, p, _| api::messages::update_message_flags(s, a, p), ada.clone(), &pairs),
        );
    }
}

#[test]
fn marking_a_topic_a_channel_and_everything_read() {
    let mut w = world();
    unread_everywhere(&mut w);
    let ada = w.actor("ada@example.com");
    let general = channel(&w, "general").to_string();
    let topic = [("stream_id", general.as_str()), ("topic_name", "Plans")];
    check(
        &mut w,
        "ada@example.com",
        UNREADS,
        run(|s, a, p, _| api::messages::mark_topic_as_read(s, a, p), ada.clone(), &topic),
    );
    let design = channel(&w, "design").to_string();
    check(
        &mut w,
        "ada@example.com",
        UNREADS,
        run(
            |s, a, p, _| api::messages::mark_stream_as_read(s, a, p),
            ada.clone(),
            &[("stream_id", design.as_str())],
        ),
    );
    check(&mut w, "ada@example.com", UNREADS, move |s, _| api::messages::mark_all_as_read(s, &ada));
}

#[test]
fn flags_for_a_narrow() {
    let mut w = world();
    unread_everywhere(&mut w);
    let ada = w.actor("ada@example.com");
    let register = &[(
        "event_types",
        r#"["message", "update_message_flags", "subscription", "user_topic", "starred_messages"]"#,
    )];
    for (narrow, op, flag) in [
        (r#"[{"operator": "channel", "operand": "general"}]"#, "add", "read"),
        (r#"[{"operator": "is", "operand": "dm"}]"#, "add", "starred"),
        (r#"[]"#, "remove", "read"),
        (r#"[{"operator": "is", "operand": "starred"}]"#, "remove", "starred"),
        (r#"[]"#, "add", "read"),
    ] {
        let pairs = [
            ("narrow", narrow),
            ("anchor", "oldest"),
            ("num_before", "0"),
            ("num_after", "1000"),
            ("op", op),
            ("flag", flag),
        ];
        check(
            &mut w,
            "ada@example.com",
            register,
            run(|s, a, p, _| api::messages::update_message_flags_for_narrow(s, a, p), ada.clone(), &pairs),
        );
    }
}

#[test]
fn starring_history_one_never_received() {
    let mut w = world();
    unread_everywhere(&mut w);
    // Bob is not in `#design`; its newest message is newer than any he has.
    let id = w.stream("owner@example.com", "design", "fonts", "sans?");
    let bob = w.actor("bob@example.com");
    let register = &[("event_types", r#"["message", "update_message_flags", "starred_messages"]"#)];
    for (op, flag) in [("add", "starred"), ("remove", "starred"), ("add", "read")] {
        let pairs = flags(op, flag, &[id]);
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        check(
            &mut w,
            "bob@example.com",
            register,
            run(|s, a, p, _| api::messages::update_message_flags(s, a, p), bob.clone(), &pairs),
        );
    }
}
