//! Uploads (spec 4.23) refused as Zulip refuses them, byte for byte, and claimed by the
//! messages that link them (the attachment list and its events).

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

/// Posts a multipart body with these files to `/api/v1/user_uploads`.
fn upload(server: &TestServer, who: &Creds, files: Vec<(&str, Vec<u8>)>) -> (u16, Value) {
    // A text field, so that a request without files is still a well-formed form.
    let mut form = reqwest::blocking::multipart::Form::new().text("client", "ConfabTests");
    for (index, (name, bytes)) in files.into_iter().enumerate() {
        let part = reqwest::blocking::multipart::Part::bytes(bytes).file_name(name.to_owned());
        form = form.part(format!("file{index}"), part);
    }
    let response = reqwest::blocking::Client::new()
        .post(format!("{}/api/v1/user_uploads", server.base_url))
        .basic_auth(&who.email, Some(&who.api_key))
        .multipart(form)
        .send()
        .expect("the server answers");
    let status = response.status().as_u16();
    (status, response.json().expect("JSON"))
}

#[test]
fn uploads_are_refused_as_zulip_refuses_them() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let (status, body) = upload(&server, &owner, vec![]);
    assert_eq!((status, body["msg"].clone()), (400, json!("You must specify a file to upload")));
    let (status, body) = upload(&server, &owner, vec![("a.txt", b"a".to_vec()), ("b.txt", b"b".to_vec())]);
    assert_eq!((status, body["msg"].clone()), (400, json!("You may only upload one file at a time")));
    let too_big = vec![0u8; 100 * 1024 * 1024 + 1];
    let (status, body) = upload(&server, &owner, vec![("big.bin", too_big)]);
    assert_eq!(
        (status, body["msg"].clone()),
        (400, json!("Uploaded file is larger than the allowed limit of 100 MiB"))
    );
}

/// Feature level 286: the reply's `filename` (and the attachment's `name`) is the name the
/// client uploaded the file as; only its URL uses the sanitized name.
#[test]
fn an_upload_keeps_the_name_the_client_gave_it() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let (status, body) = upload(&server, &owner, vec![("../../My Notes!.txt", b"notes".to_vec())]);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["filename"], "My Notes!.txt", "the name as uploaded, without the path");
    let url = body["url"].as_str().expect("url");
    assert!(url.ends_with("/My-Notes.txt"), "the URL names the sanitized file: {url}");
    let listed = server.api().get("/attachments", Some(&owner), &[]).ok();
    assert_eq!(listed["attachments"][0]["name"], "My Notes!.txt");
}

#[test]
fn messages_that_link_an_upload_claim_it() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    api.subscribe(&owner, &["general"], &["owner@confab.localhost"]);
    let queue = api.post("/register", Some(&owner), &[("event_types", r#"["attachment"]"#)]).ok();
    let (_, uploaded) = upload(&server, &owner, vec![("plan.txt", b"the plan".to_vec())]);
    let url = uploaded["url"].as_str().expect("url").to_owned();
    let content = format!("[plan]({url})");
    let params = [("type", "stream"), ("to", "general"), ("topic", "plans"), ("content", content.as_str())];
    let sent = api.post("/messages", Some(&owner), &params).ok()["id"].as_u64().expect("id");
    let found = api.get(&format!("/messages/{sent}"), Some(&owner), &[]).ok();
    assert!(found["message"]["content"].as_str().is_some_and(|c| c.contains(&url)), "{found}");
    let listed = api.get("/attachments", Some(&owner), &[]).ok();
    assert_eq!(listed["attachments"][0]["messages"][0]["id"], sent);
    assert_eq!(listed["attachments"][0]["name"], "plan.txt");
    assert_eq!(listed["upload_space_used"], 8);
    // Editing the link away releases the file.
    api.patch(&format!("/messages/{sent}"), Some(&owner), &[("content", "no plan")]).ok();
    assert_eq!(api.get("/attachments", Some(&owner), &[]).ok()["attachments"][0]["messages"], json!([]));
    let events = api.queued(&owner, &queue);
    let ops: Vec<&str> =
        events["events"].as_array().expect("events").iter().map(|e| e["op"].as_str().expect("op")).collect();
    assert_eq!(ops, ["add", "update", "update"]);
    assert_eq!(events["events"][0]["upload_space_used"], 8);
}
