//! Reports to moderators (spec 4.14), rendering previews and narrow matching.

use confab_tests::{Creds, TestServer};
use serde_json::json;

fn setup() -> (TestServer, Creds, Creds, u64) {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general", "mods"], &["owner@confab.localhost", "ada@example.com"]);
    let id = api
        .post(
            "/messages",
            Some(&owner),
            &[("type", "stream"), ("to", "general"), ("topic", "lunch"), ("content", "Buy cheap pills")],
        )
        .ok()["id"]
        .as_u64()
        .expect("id");
    (server, owner, ada, id)
}

#[test]
fn reports_go_to_the_moderation_channel_once_one_is_set() {
    let (server, owner, ada, id) = setup();
    let api = server.api();
    let path = format!("/messages/{id}/report");
    let off = api.post(&path, Some(&ada), &[("report_type", "spam")]).error(400, "BAD_REQUEST");
    assert_eq!(off["msg"], "Moderation request channel must be specified to enable message reporting.");

    let mods = api.get("/get_stream_id", Some(&owner), &[("stream", "mods")]).ok()["stream_id"].to_string();
    api.post("/realm", Some(&ada), &[]).error(405, "BAD_REQUEST");
    let patch = |who: &Creds, params: &[(&str, &str)]| {
        let response = reqwest::blocking::Client::new()
            .patch(format!("{}/api/v1/realm", server.base_url))
            .basic_auth(&who.email, Some(&who.api_key))
            .form(params)
            .send()
            .expect("answer");
        confab_tests::Reply { status: response.status().as_u16(), body: response.json().expect("JSON") }
    };
    patch(&ada, &[("moderation_request_channel_id", mods.as_str())]).error(400, "UNAUTHORIZED_PRINCIPAL");
    patch(&owner, &[("moderation_request_channel_id", mods.as_str())]).ok();

    let other = api.post(&path, Some(&ada), &[("report_type", "other")]).error(400, "BAD_REQUEST");
    assert_eq!(other["msg"], "For reason=other, an explanation must be provided.");
    let long = "x".repeat(1001);
    let too_long = api
        .post(&path, Some(&ada), &[("report_type", "spam"), ("description", long.as_str())])
        .error(400, "BAD_REQUEST");
    assert_eq!(too_long["msg"], "description is too long (limit: 1000 characters)");
    api.post(&path, Some(&ada), &[("report_type", "rude")]).error(400, "BAD_REQUEST");
    api.post(&path, Some(&ada), &[("report_type", "spam"), ("description", "selling pills")]).ok();
    // Zulip's own names for the parameters work too.
    api.post(&path, Some(&ada), &[("reason", "other"), ("explanation", "again")]).ok();

    let narrow = r#"[["channel", "mods"], ["topic", "Owner's moderation requests"]]"#;
    let notices = api
        .get(
            "/messages",
            Some(&owner),
            &[("anchor", "newest"), ("num_before", "10"), ("num_after", "0"), ("narrow", narrow)],
        )
        .ok();
    let notices = notices["messages"].as_array().expect("messages");
    assert_eq!(notices.len(), 2);
    assert_eq!(notices[0]["sender_full_name"], "Notification Bot");
    assert_eq!(notices[0]["subject"], "Owner's moderation requests");
    let content = notices[0]["content"].as_str().expect("content");
    assert!(content.contains("selling pills") && content.contains("spam"), "{content}");
}

#[test]
fn render_previews_and_matches_narrow_highlights() {
    let (server, owner, _ada, id) = setup();
    let api = server.api();
    let rendered = api.post("/messages/render", Some(&owner), &[("content", "**bold**")]).ok();
    assert_eq!(rendered["rendered"], "<p><strong>bold</strong></p>");
    api.post("/messages/render", Some(&owner), &[]).error(400, "REQUEST_VARIABLE_MISSING");

    let ids = format!("[{id}, 424242]");
    let matched = api
        .get(
            "/messages/matches_narrow",
            Some(&owner),
            &[("msg_ids", ids.as_str()), ("narrow", r#"[["search", "pills"]]"#)],
        )
        .ok();
    assert_eq!(
        matched["messages"],
        json!({id.to_string(): {"match_content": "<p>Buy cheap <span class=\"highlight\">pills</span></p>", "match_subject": "lunch"}})
    );
    let none = api
        .get(
            "/messages/matches_narrow",
            Some(&owner),
            &[("msg_ids", ids.as_str()), ("narrow", r#"[["search", "cake"]]"#)],
        )
        .ok();
    assert_eq!(none["messages"], json!({}));
}

#[test]
fn links_to_the_organization_itself_are_relative() {
    let (server, owner, _, _) = setup();
    let content = format!("see {}/#narrow/channel/1-general", server.base_url);
    let rendered = server.api().post("/messages/render", Some(&owner), &[("content", content.as_str())]).ok();
    // As in Zulip: the text stays as typed; the link stays inside the web app.
    let expected = format!(
        "<p>see <a href=\"#narrow/channel/1-general\">{}/#narrow/channel/1-general</a></p>",
        server.base_url
    );
    assert_eq!(rendered["rendered"], expected);
}
