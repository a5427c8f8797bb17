//! The engine's browser code in a real browser: `cargo test -p confab-web --target
//! wasm32-unknown-unknown` runs these in headless Chromium through wasm-bindgen-test-runner
//! and ChromeDriver (`scripts/test` sets `CHROMEDRIVER`; `webdriver.json` holds Chromium's
//! flags). They use the browser's own `fetch`, timers, `AbortController` and `URLSearchParams`,
//! which Node's tests cannot vouch for.

#![cfg(target_arch = "wasm32")]

use confab_web::{Client, LiveState};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn json(text: &str) -> JsValue {
    js_sys::JSON::parse(text).expect("test JSON parses")
}

fn field(value: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(value, &name.into()).expect("an object")
}

fn text(value: &JsValue) -> String {
    value.as_string().unwrap_or_else(|| format!("{value:?}"))
}

/// A port nothing listens on, so every request is refused at once.
const UNREACHABLE: &str = r#"{"site": "http://127.0.0.1:9", "email": "iago@example.com", "apiKey": "key"}"#;

#[wasm_bindgen_test]
fn previews_render_as_the_server_renders() {
    let client = Client::new(json(UNREACHABLE), None).expect("a client");
    let rendering = client.render_preview("**bold** and `code`").expect("a rendering");
    assert_eq!(text(&field(&rendering, "html")), "<p><strong>bold</strong> and <code>code</code></p>");
}

#[wasm_bindgen_test]
async fn offline_a_session_keeps_its_sends_and_closes_cleanly() {
    let client = Client::new(json(UNREACHABLE), Some(json(r#"{"maxRetryMs": 50}"#))).expect("a client");
    JsFuture::from(client.start()).await.expect("start resolves even offline");
    assert_eq!(text(&client.connection().expect("a state")), "offline");

    let local_id = client
        .send(json(r#"{"type": "channel", "stream_id": 1, "topic": "plans"}"#), "*soon*".into())
        .expect("queued");
    let outbox: js_sys::Array = client.outbox().expect("an outbox").into();
    assert_eq!(outbox.length(), 1);
    assert_eq!(text(&field(&outbox.get(0), "local_id")), local_id);
    assert_eq!(text(&field(&outbox.get(0), "html")), "<p><em>soon</em></p>");

    // A reload: the snapshot brings the unsent message back.
    let restored = Client::restore(&client.snapshot()).expect("restores");
    let outbox: js_sys::Array = restored.outbox().expect("an outbox").into();
    assert_eq!(outbox.length(), 1);

    JsFuture::from(client.close()).await.expect("close resolves");
    assert_eq!(text(&client.connection().expect("a state")), "closed");
}

#[wasm_bindgen_test]
async fn an_answer_from_something_else_than_the_api_is_an_error_not_a_login() {
    // The test runner's own page server answers, but not as the Zulip API does.
    let origin = web_sys_origin();
    let login = Client::login(origin, "iago@example.com".into(), "secret".into(), None);
    let refused = JsFuture::from(login).await.expect_err("no credentials from a page server");
    assert!(!text(&field(&refused, "message")).is_empty());
}

#[wasm_bindgen_test]
fn a_snapshot_from_a_newer_package_is_refused() {
    let newer = br#"{"format": 999}"#;
    let refused = Client::restore(newer).err().expect("refused");
    assert!(text(&field(&refused, "message")).contains("newer"), "{}", text(&field(&refused, "message")));
}

#[wasm_bindgen_test]
fn live_state_follows_events_in_place() {
    let state = json(
        r#"{"max_message_id": 4, "unread_msgs": {"count": 0, "pms": [], "streams": [], "huddles": [], "mentions": [], "old_unreads_missing": false}}"#,
    );
    let mut live = LiveState::new(state, 8.0).expect("a state");
    live.apply(json(
        r#"{"type": "message", "id": 0, "flags": [], "message": {"id": 5, "type": "private", "sender_id": 9,
            "display_recipient": [{"id": 8}, {"id": 9}], "subject": "", "content": "<p>hi</p>", "timestamp": 1}}"#,
    ))
    .expect("applies");
    assert_eq!(live.get("max_message_id").expect("a value").as_f64(), Some(5.0));
}

#[wasm_bindgen_test]
fn widgets_fold_and_check_as_the_server_does() {
    let poll = confab_web::widget_command("/poll Lunch?\nsoup").expect("a poll");
    let submessages = json(&format!(
        r#"[{{"id": 2, "message_id": 5, "sender_id": 8, "msg_type": "widget", "content": "{{\"type\": \"vote\", \"key\": \"canned,0\", \"vote\": 1}}"}},
            {{"id": 1, "message_id": 5, "sender_id": 9, "msg_type": "widget", "content": {}}}]"#,
        js_sys::JSON::stringify(&JsValue::from_str(&poll)).expect("a string").as_string().expect("text")
    ));
    let state = confab_web::widget_state(9.0, submessages, 8.0).expect("a state");
    assert_eq!(text(&field(&state, "widget_type")), "poll");
    assert_eq!(text(&field(&state, "question")), "Lunch?");
    let options: js_sys::Array = field(&state, "options").into();
    assert_eq!(field(&options.get(0), "current_user_vote").as_bool(), Some(true));
    assert_eq!(
        confab_web::check_submessage(Some("poll".into()), r#"{"type": "vote"}"#, false).as_deref(),
        Some("key key is missing from poll data")
    );
    assert_eq!(confab_web::check_submessage(None, "{}", false), None);
}

/// `location.origin` of the page the tests run in.
fn web_sys_origin() -> String {
    let location = field(&js_sys::global(), "location");
    text(&field(&location, "origin"))
}
