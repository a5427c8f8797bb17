//! Every mutation's events keep a client's state right (see `support::consistency`).
//! A user's own records: drafts, snippets, navigation views, muting.

mod support;

use confab_core::api;
use confab_core::store::Store as _;
use support::consistency::{check, run, world};
use support::params;

#[test]
fn drafts_snippets_and_navigation_views() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let register = &[("event_types", r#"["drafts", "saved_snippets", "navigation_view"]"#)];
    let drafts = r#"[{"type": "", "to": [], "topic": "", "content": "someday"}, {"type": "", "to": [], "topic": "", "content": "later"}]"#;
    check(
        &mut w,
        "ada@example.com",
        register,
        run(api::drafts::create_drafts, ada.clone(), &[("drafts", drafts)]),
    );
    let draft = w.store.records(ada.user.id, confab_core::model::RecordKind::Draft).expect("drafts")[0].0;
    let edited = r#"{"type": "", "to": [], "topic": "", "content": "tomorrow"}"#;
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, now| api::drafts::edit_draft(s, a, draft, p, now),
            ada.clone(),
            &[("draft", edited)],
        ),
    );
    check(
        &mut w,
        "ada@example.com",
        register,
        run(move |s, a, _, _| api::drafts::delete_draft(s, a, draft), ada.clone(), &[]),
    );
    let snippet = [("title", "Hi"), ("content", "Hello")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(api::saved_snippets::create_saved_snippet, ada.clone(), &snippet),
    );
    let snippet_id =
        w.store.records(ada.user.id, confab_core::model::RecordKind::SavedSnippet).expect("snippets")[0].0;
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, _| api::saved_snippets::edit_saved_snippet(s, a, snippet_id, p),
            ada.clone(),
            &[("content", "Hey")],
        ),
    );
    let view = [("fragment", "narrow/is/starred"), ("is_pinned", "true")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(|s, a, p, _| api::navigation_views::add_navigation_view(s, a, p), ada.clone(), &view),
    );
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::navigation_views::update_navigation_view(s, a, "narrow/is/starred", p),
            ada.clone(),
            &[("is_pinned", "false")],
        ),
    );
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, _, _| api::navigation_views::remove_navigation_view(s, a, "narrow/is/starred"),
            ada.clone(),
            &[],
        ),
    );

    // Turning synchronization off makes the server forget the drafts it kept, without events
    // for each: clients keep their own.
    let kept = r#"[{"type": "", "to": [], "topic": "", "content": "kept"}]"#;
    w.run(|s, now| api::drafts::create_drafts(s, &ada, &params(&[("drafts", kept)]), now)).expect("draft");
    let with_settings = &[("event_types", r#"["drafts", "user_settings"]"#)];
    let off = [("enable_drafts_synchronization", "false")];
    check(
        &mut w,
        "ada@example.com",
        with_settings,
        run(|s, a, p, _| api::settings::update_settings(s, a, p), ada.clone(), &off),
    );
    assert!(w.store.records(ada.user.id, confab_core::model::RecordKind::Draft).expect("drafts").is_empty());
}

#[test]
fn muting_users_and_topics() {
    let mut w = world();
    let ada = w.actor("ada@example.com");
    let bob_id = w.user_id("bob@example.com");
    let register = &[(
        "event_types",
        r#"["muted_users", "user_topic", "muted_topics", "message", "update_message_flags"]"#,
    )];
    check(&mut w, "ada@example.com", register, move |s, now| {
        api::muted_users::mute_user(s, &ada, bob_id, now)
    });
    let ada = w.actor("ada@example.com");
    let general = w.store.stream_by_name(w.realm, "general").ok().flatten().expect("general").to_string();
    for policy in ["1", "3", "0"] {
        let pairs = [("stream_id", general.as_str()), ("topic", "hello"), ("visibility_policy", policy)];
        check(
            &mut w,
            "ada@example.com",
            register,
            run(api::user_topics::update_user_topic, ada.clone(), &pairs),
        );
    }
    let legacy = [("event_types", r#"["muted_topics"]"#)];
    let mute = [("stream", "general"), ("topic", "hello"), ("op", "add")];
    check(&mut w, "ada@example.com", &legacy, run(api::user_topics::mute_topic, ada.clone(), &mute));
    check(&mut w, "ada@example.com", register, move |s, _| api::muted_users::unmute_user(s, &ada, bob_id));
}
