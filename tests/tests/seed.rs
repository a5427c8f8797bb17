//! The benchmarks' seeder (`confab_tests::seed`) on a small shape: the directory it writes is
//! one `confab serve` opens, the benchmark user logs in with its password and sees what the
//! seeder says it made.

use confab_tests::seed::{self, BENCH_PASSWORD, Shape};
use confab_tests::{Creds, TestServer};

#[test]
fn a_seeded_directory_serves_the_organization_it_describes() {
    let shape = Shape { channels: 30, users: 300, messages: 3_000, bench_channels: 12, ..Shape::LARGE };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data_dir = dir.path().join("data");
    let seeded = seed::seed(&data_dir, shape).expect("seeding succeeds");
    let server = TestServer::spawn(
        std::path::Path::new(env!("CARGO_BIN_EXE_confab-under-test")),
        &data_dir,
        "127.0.0.1:0",
        &[],
    );
    assert!(server.owner.is_none(), "the seeded organization is the root's; no other is made");
    let api = server.api();

    let key =
        api.post("/fetch_api_key", None, &[("username", &seeded.email), ("password", BENCH_PASSWORD)]).ok();
    assert_eq!(key["api_key"], seeded.api_key.as_str());
    let user = Creds { email: seeded.email.clone(), api_key: seeded.api_key.clone() };
    let state = api.post("/register", Some(&user), &[("apply_markdown", "true")]).ok();

    let people = state["realm_users"].as_array().expect("realm_users").len();
    assert!(people >= shape.users, "{people} users");
    let subscriptions = state["subscriptions"].as_array().expect("subscriptions");
    assert_eq!(subscriptions.len(), shape.bench_channels);
    assert_eq!(seeded.summary["bench_channels"], shape.bench_channels);
    let channels =
        subscriptions.len() + state["never_subscribed"].as_array().expect("never_subscribed").len();
    // The shape's channels and the public channel of two where send costs are measured.
    let private = seeded.summary["private_channels"].as_u64().expect("private_channels") as usize;
    assert_eq!(channels, shape.channels + 1 - private, "private channels the user is not in are not listed");

    let unread = &state["unread_msgs"];
    assert_eq!(unread["count"], seeded.summary["bench_unread"], "{unread}");
    assert!(unread["count"].as_u64().is_some_and(|n| n > 0), "some messages are unread");
    // Message ids: the seeded messages, a creation notice in each channel but general, and the
    // send-cost channel's. The newest the user received is among the last of them (the very
    // last may be in a channel the user is not in).
    let total = shape.messages + shape.channels;
    assert!(
        state["max_message_id"].as_u64().is_some_and(|id| (shape.messages..=total).contains(&(id as usize))),
        "{}",
        state["max_message_id"]
    );

    // The history reads back, Markdown rendered, through the ordinary fetch.
    let narrow = r#"[{"operator":"channel","operand":"general"}]"#;
    let page = api
        .get(
            "/messages",
            Some(&user),
            &[("anchor", "newest"), ("num_before", "50"), ("num_after", "0"), ("narrow", narrow)],
        )
        .ok();
    let messages = page["messages"].as_array().expect("messages");
    assert!(!messages.is_empty());
    assert!(messages.iter().all(|m| m["content"].as_str().is_some_and(|c| c.starts_with('<'))));
}
