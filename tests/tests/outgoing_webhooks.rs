//! Outgoing webhooks (spec 4.22): a mention of an outgoing-webhook bot in a channel, or a direct
//! message to it, makes the server post Zulip's payload to the bot's service; the service's
//! `{"content": ...}` is posted back by the bot, `{"response_not_required": true}` posts
//! nothing, and a service that fails is reported to the bot's owner. Loopback targets are
//! refused unless `--allow-outgoing-to` opens them.

use std::time::{Duration, Instant};

use confab_tests::fake_service::FakeService;
use confab_tests::{Api, Creds, TestServer};
use serde_json::{Value, json};

fn start_allowing_loopback() -> TestServer {
    TestServer::start_with(env!("CARGO_BIN_EXE_confab-under-test"), &["--allow-outgoing-to", "127.0.0.0/8"])
}

/// Makes an outgoing-webhook bot owned by `owner`: its user id and service token.
fn outgoing_bot(api: &Api, owner: &Creds, name: &str, url: &str) -> (u64, String) {
    let params = [("full_name", name), ("short_name", name), ("bot_type", "3"), ("payload_url", url)];
    let id = api.post("/bots", Some(owner), &params).ok()["user_id"].as_u64().expect("id");
    let bots = api.get("/bots", Some(owner), &[]).ok();
    let bot =
        bots["bots"].as_array().expect("bots").iter().find(|b| b["user_id"] == id).expect("bot").clone();
    (id, bot["services"][0]["token"].as_str().expect("token").to_owned())
}

/// Waits for messages matching `narrow` until `wanted` says yes; the server delivers on its own
/// time, so this polls with a generous limit.
fn wait_for_messages(api: &Api, who: &Creds, narrow: &str, wanted: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let params = [("anchor", "newest"), ("num_before", "50"), ("num_after", "0"), ("narrow", narrow)];
        let found =
            api.get("/messages", Some(who), &params).ok()["messages"].as_array().expect("list").clone();
        if wanted(&found) || Instant::now() > deadline {
            return found;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The Notification Bot's direct messages to `who`, waited for.
fn notices_to(api: &Api, who: &Creds) -> Vec<String> {
    let from_bot = |m: &Value| m["sender_full_name"] == "Notification Bot";
    let narrow = r#"[{"operator": "is", "operand": "dm"}]"#;
    let messages = wait_for_messages(api, who, narrow, |m| m.iter().any(from_bot));
    messages
        .iter()
        .filter(|m| from_bot(m))
        .map(|m| m["content"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn a_mention_posts_zulips_payload_and_the_answer_is_the_bots_reply() {
    let server = start_allowing_loopback();
    let owner = server.owner();
    let api = server.api();
    let service = FakeService::start(vec![(200, r#"{"content": "pong from **Echo**"}"#)]);
    let (bot_id, token) = outgoing_bot(&api, &owner, "echo", &service.url);
    api.subscribe(&owner, &["general"], &["owner@confab.localhost"]);
    let sent = api.post(
        "/messages",
        Some(&owner),
        &[("type", "stream"), ("to", "general"), ("topic", "pings"), ("content", "@**echo** ping")],
    );
    let message_id = sent.ok()["id"].clone();

    let payload = service.next();
    assert_eq!(payload["trigger"], "mention");
    assert_eq!(payload["token"], token);
    assert_eq!(payload["data"], "@**echo** ping");
    assert_eq!(payload["bot_full_name"], "echo");
    assert!(payload["bot_email"].as_str().is_some_and(|e| e.starts_with("echo-bot@")), "{payload}");
    let message = &payload["message"];
    assert_eq!(message["id"], message_id);
    assert_eq!(message["content"], "@**echo** ping");
    assert_eq!(message["display_recipient"], "general");
    assert_eq!(message["subject"], "pings");
    assert!(message["rendered_content"].as_str().is_some_and(|h| h.contains("user-mention")), "{message}");
    assert!(message.get("flags").is_none(), "{message}");

    let narrow =
        r#"[{"operator": "channel", "operand": "general"}, {"operator": "topic", "operand": "pings"}]"#;
    let messages = wait_for_messages(&api, &owner, narrow, |m| m.len() == 2);
    let reply = &messages[1];
    assert_eq!(reply["sender_id"], bot_id);
    assert_eq!(reply["content"], "<p>pong from <strong>Echo</strong></p>");
    assert_eq!(reply["client"], "OutgoingWebhookResponse");
}

#[test]
fn direct_messages_wake_the_bot_and_it_may_stay_silent() {
    let server = start_allowing_loopback();
    let owner = server.owner();
    let api = server.api();
    let service = FakeService::start(vec![
        (200, r#"{"response_not_required": true}"#),
        (200, r#"{"content": "second"}"#),
    ]);
    let (bot_id, _) = outgoing_bot(&api, &owner, "quiet", &service.url);
    let to = json!([bot_id]).to_string();
    for content in ["first", "again"] {
        api.post("/messages", Some(&owner), &[("type", "direct"), ("to", to.as_str()), ("content", content)])
            .ok();
        let payload = service.next();
        assert_eq!(payload["trigger"], "direct_message");
        assert_eq!(payload["data"], content);
    }
    let narrow = format!(r#"[{{"operator": "dm", "operand": [{bot_id}]}}]"#);
    let messages = wait_for_messages(&api, &owner, &narrow, |m| m.len() == 3);
    let from_bot: Vec<&Value> = messages.iter().filter(|m| m["sender_id"] == bot_id).collect();
    assert_eq!(from_bot.len(), 1, "{messages:?}");
    assert_eq!(from_bot[0]["content"], "<p>second</p>");
}

#[test]
fn messages_from_bots_wake_no_bot() {
    let server = start_allowing_loopback();
    let owner = server.owner();
    let api = server.api();
    let service = FakeService::start(vec![(200, r#"{"content": "woken"}"#)]);
    let (bot_id, _) = outgoing_bot(&api, &owner, "listener", &service.url);
    let made = api.post("/bots", Some(&owner), &[("full_name", "Chatty"), ("short_name", "chatty")]).ok();
    let host = server.base_url.trim_start_matches("http://").split(':').next().expect("host").to_owned();
    let chatty =
        Creds { email: format!("chatty-bot@{host}"), api_key: made["api_key"].as_str().expect("key").into() };
    let to = json!([bot_id]).to_string();
    api.post("/messages", Some(&chatty), &[("type", "direct"), ("to", to.as_str()), ("content", "hi bot")])
        .ok();
    // Then a human's message: the service's first request must be about it.
    api.post(
        "/messages",
        Some(&owner),
        &[("type", "direct"), ("to", to.as_str()), ("content", "hi from a human")],
    )
    .ok();
    assert_eq!(service.next()["data"], "hi from a human");
}

#[test]
fn a_failing_service_is_reported_to_the_bots_owner() {
    let server = start_allowing_loopback();
    let owner = server.owner();
    let api = server.api();
    let service = FakeService::start(vec![(404, r#"{"error": "no such hook"}"#)]);
    let (bot_id, _) = outgoing_bot(&api, &owner, "broken", &service.url);
    let to = json!([bot_id]).to_string();
    api.post(
        "/messages",
        Some(&owner),
        &[("type", "direct"), ("to", to.as_str()), ("content", "are you there")],
    )
    .ok();
    service.next();
    let notices = notices_to(&api, &owner);
    let text = notices.last().expect("a notice to the owner").as_str();
    assert!(text.contains("to your bot"), "{text}");
    assert!(text.contains("triggered an outgoing webhook."), "{text}");
    assert!(text.contains("status code <em>404</em>"), "{text}");
    assert!(text.contains("no such hook"), "{text}");
}

#[test]
fn loopback_services_are_refused_unless_allowed() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let service = FakeService::start(vec![(200, r#"{"content": "should never be asked"}"#)]);
    let (bot_id, _) = outgoing_bot(&api, &owner, "inside", &service.url);
    let to = json!([bot_id]).to_string();
    api.post("/messages", Some(&owner), &[("type", "direct"), ("to", to.as_str()), ("content", "reach in")])
        .ok();
    let notices = notices_to(&api, &owner);
    let text = notices.last().expect("a notice to the owner");
    assert!(text.contains("is not allowed for outgoing requests"), "{text}");
    assert!(service.received.try_recv().is_err(), "the service was reached");
}
