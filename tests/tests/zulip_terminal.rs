//! zulip-terminal 0.7.0 (from PyPI, unmodified) against Confab in tmux: it starts, shows the
//! channel list, shows a message another user sends while it runs, and sends a reply that the
//! other user's event queue receives.

use std::time::{Duration, Instant};

use confab_tests::terminal::Tmux;
use confab_tests::{TestServer, python};

/// Bounds only a failing wait; passing runs go on as soon as the condition holds.
const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn zulip_terminal_chats_with_confab() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada Lovelace");
    api.subscribe(&owner, &["general", "design"], &["owner@confab.localhost", "ada@example.com"]);
    api.post(
        "/messages",
        Some(&ada),
        &[
            ("type", "stream"),
            ("to", "general"),
            ("topic", "hello"),
            ("content", "First post before zt starts"),
        ],
    )
    .ok();

    let waiting_api = confab_tests::Api::new(&server.base_url);
    let register = [("event_types", r#"["message"]"#)];
    let queue_id =
        api.post("/register", Some(&ada), &register).ok()["queue_id"].as_str().expect("queue").to_owned();

    let zuliprc = server.data_dir.join("zuliprc");
    // zt writes its threads' tracebacks to stderr, which would draw over its screen: 0.7.0's
    // presence thread asserts when a server answers before zt's main loop exists (it expects
    // a slower server). They go to a file, shown if the test fails.
    let stderr = server.data_dir.join("zulip-term.stderr");
    let command = format!(
        "TERM=xterm-256color {} -c {} 2>{}",
        python::command("zulip-term").display(),
        zuliprc.display(),
        stderr.display()
    );
    let terminal = Tmux::start("zt", &command, 180, 45);
    let started = terminal.wait_for("First post before zt starts", LIMIT).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        started.contains("general") && started.contains("design"),
        "the channel list is shown:\n{started}"
    );

    api.post(
        "/messages",
        Some(&ada),
        &[("type", "stream"), ("to", "general"), ("topic", "hello"), ("content", "Ada writes while zt runs")],
    )
    .ok();
    terminal.wait_for("Ada writes while zt runs", LIMIT).unwrap_or_else(|e| panic!("{e}"));

    // zt starts with the channel list focused: move right to the messages, then `r` replies
    // to the focused message; the compose box names its channel after a border (`│# general`).
    terminal.keys(&["Right"]);
    terminal.keys(&["r"]);
    terminal.wait_for("│# general", LIMIT).unwrap_or_else(|e| panic!("{e}\n{}", zt_errors(&stderr)));
    terminal.type_text("Reply typed in zulip-terminal");
    terminal.keys(&["C-d"]);

    // Ada's client receives the reply as an event.
    let start = Instant::now();
    let mut last_event_id = "-1".to_owned();
    loop {
        let params = [("queue_id", queue_id.as_str()), ("last_event_id", last_event_id.as_str())];
        let body = waiting_api.get("/events", Some(&ada), &params).ok();
        let events = body["events"].as_array().expect("events").clone();
        let replied = events.iter().any(|e| {
            e["message"]["content"].as_str().is_some_and(|c| c.contains("Reply typed in zulip-terminal"))
                && e["message"]["sender_email"] == owner.email.as_str()
        });
        if replied {
            break;
        }
        if let Some(last) = events.last() {
            last_event_id = last["id"].to_string();
        }
        assert!(
            start.elapsed() < LIMIT,
            "the reply never arrived; the screen was:\n{}\n{}",
            terminal.screen(),
            zt_errors(&stderr)
        );
    }
}

fn zt_errors(path: &std::path::Path) -> String {
    format!("zulip-term's stderr:\n{}", std::fs::read_to_string(path).unwrap_or_default())
}
