//! Alert words: each user's own list (added and removed case-insensitively, announced to
//! their clients), and the `has_alert_word` flag on messages that contain one (`is:alerted`),
//! decided again when a message is edited.

use confab_tests::TestServer;
use serde_json::json;

#[test]
fn alert_words_flag_the_messages_that_contain_them() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["alert_words"]"#)]).ok();
    assert_eq!(queue["alert_words"], json!([]));

    let added = api
        .post("/users/me/alert_words", Some(&ada), &[("alert_words", r#"["Lunch", " deploy ", ""]"#)])
        .ok();
    assert_eq!(added["alert_words"], json!(["Lunch", "deploy"]));
    api.post("/users/me/alert_words", Some(&ada), &[("alert_words", r#"["lunch"]"#)]).ok();
    assert_eq!(
        api.get("/users/me/alert_words", Some(&ada), &[]).ok()["alert_words"],
        json!(["Lunch", "deploy"])
    );
    let long = json!(["x".repeat(101)]).to_string();
    let refused = api
        .post("/users/me/alert_words", Some(&ada), &[("alert_words", long.as_str())])
        .error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "alert_words[0] is too long (limit: 100 characters)");
    let events = api.queued(&ada, &queue);
    assert_eq!(events["events"][0]["alert_words"], json!(["Lunch", "deploy"]));

    let send = |content: &str| {
        let params = [("type", "stream"), ("to", "general"), ("topic", "t"), ("content", content)];
        api.post("/messages", Some(&owner), &params).ok()["id"].as_u64().expect("id")
    };
    let flags =
        |id: u64| api.get(&format!("/messages/{id}"), Some(&ada), &[]).ok()["message"]["flags"].clone();
    let hit = send("Who wants LUNCH?");
    let code_only = send("```\nlunch\n```");
    let inside_word = send("a lunchbox");
    assert_eq!(flags(hit), json!(["has_alert_word"]));
    assert_eq!(flags(code_only), json!([]), "words in code blocks do not count");
    assert_eq!(flags(inside_word), json!([]), "words must stand alone");
    let alerted = api
        .get(
            "/messages",
            Some(&ada),
            &[
                ("anchor", "newest"),
                ("num_before", "10"),
                ("num_after", "0"),
                ("narrow", r#"[["is", "alerted"]]"#),
            ],
        )
        .ok();
    assert_eq!(alerted["messages"].as_array().map(Vec::len), Some(1));

    // An edit decides again.
    api.patch(&format!("/messages/{hit}"), Some(&owner), &[("content", "Who wants dinner?")]).ok();
    assert_eq!(flags(hit), json!([]));
    api.patch(&format!("/messages/{inside_word}"), Some(&owner), &[("content", "time to deploy")]).ok();
    assert_eq!(flags(inside_word), json!(["has_alert_word"]));

    let left = api.delete("/users/me/alert_words", Some(&ada), &[("alert_words", r#"["LUNCH"]"#)]).ok();
    assert_eq!(left["alert_words"], json!(["deploy"]));
}
