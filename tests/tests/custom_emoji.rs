//! Custom emoji: uploaded, listed, shown (Markdown, reactions, the image at Zulip's URL) and
//! deactivated as Zulip does, with its refusals byte for byte.

use confab_tests::{Api, Creds, Reply, TINY_PNG, TestServer, UploadFile};
use reqwest::Method;
use serde_json::{Value, json};

fn png(name: &str) -> UploadFile<'_> {
    UploadFile { name, content_type: None, bytes: TINY_PNG }
}

fn upload(api: &Api, who: &Creds, name: &str, files: &[UploadFile<'_>]) -> Reply {
    api.send_files(Method::POST, &format!("/realm/emoji/{name}"), Some(who), files)
}

/// The organization's emoji by name.
fn emoji_named(api: &Api, who: &Creds, name: &str) -> Value {
    let listed = api.get("/realm/emoji", Some(who), &[]).ok();
    let all = listed["emoji"].as_object().expect("an object of emoji").clone();
    all.into_values().find(|e| e["name"] == name).unwrap_or(Value::Null)
}

fn send(api: &Api, who: &Creds, content: &str) -> u64 {
    let params = [("type", "stream"), ("to", "general"), ("topic", "emoji"), ("content", content)];
    api.post("/messages", Some(who), &params).ok()["id"].as_u64().expect("id")
}

#[test]
fn custom_emoji_are_added_shown_used_and_deactivated() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["realm_emoji"]"#)]).ok();
    assert_eq!(queue["realm_emoji"], json!({}));

    // Spaces count as underscores; the Python client sends no content type, so the file's
    // name tells it.
    upload(&api, &ada, "party%20parrot", &[png("parrot.png")]).ok();
    let emoji = emoji_named(&api, &owner, "party_parrot");
    let id = emoji["id"].as_str().expect("the id, as a string").to_owned();
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].clone();
    let source_url = emoji["source_url"].as_str().expect("source_url").to_owned();
    assert_eq!(
        emoji,
        json!({"id": id, "name": "party_parrot", "source_url": source_url, "deactivated": false,
               "author_id": ada_id, "still_url": null})
    );
    assert!(
        source_url.starts_with("/user_avatars/") && source_url.contains("/emoji/images/"),
        "{source_url}"
    );
    assert!(source_url.ends_with(".png"), "{source_url}");
    let events = api.queued(&ada, &queue)["events"].clone();
    assert_eq!(events[0]["type"], "realm_emoji");
    assert_eq!(events[0]["op"], "update");
    assert_eq!(events[0]["realm_emoji"][&id], emoji);
    let state = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["realm_emoji"]"#)]).ok();
    assert_eq!(state["realm_emoji"][&id], emoji);

    // The image, as uploaded, to anyone.
    let image =
        reqwest::blocking::get(format!("{}{source_url}", server.base_url)).expect("the server answers");
    assert_eq!(image.status(), 200);
    assert_eq!(image.headers()["content-type"], "image/png");
    assert_eq!(image.bytes().expect("bytes").as_ref(), TINY_PNG);

    // In Markdown, where `:party_parrot:` becomes the image.
    let shown = send(&api, &owner, "Hello :party_parrot:!");
    let html = api.get(&format!("/messages/{shown}"), Some(&owner), &[]).ok()["message"]["content"].clone();
    assert_eq!(
        html,
        format!(
            "<p>Hello <img alt=\":party_parrot:\" class=\"emoji\" src=\"{source_url}\" title=\"party parrot\">!</p>"
        )
    );

    // As a reaction, by name or by code.
    let reactions = format!("/messages/{shown}/reactions");
    api.post(&reactions, Some(&ada), &[("emoji_name", "party_parrot")]).ok();
    let by_code =
        [("emoji_name", "party_parrot"), ("emoji_code", id.as_str()), ("reaction_type", "realm_emoji")];
    api.post(&reactions, Some(&owner), &by_code).ok();
    let message = api.get(&format!("/messages/{shown}"), Some(&owner), &[]).ok();
    let reacted = &message["message"]["reactions"];
    assert_eq!(reacted.as_array().map(Vec::len), Some(2), "{reacted}");
    assert_eq!(reacted[0]["emoji_code"], id.as_str());
    assert_eq!(reacted[0]["reaction_type"], "realm_emoji");
    let wrong_name =
        [("emoji_name", "parrot"), ("emoji_code", id.as_str()), ("reaction_type", "realm_emoji")];
    let refused =
        api.post(&format!("/messages/{}/reactions", send(&api, &owner, "x")), Some(&ada), &wrong_name);
    assert_eq!(refused.error(400, "BAD_REQUEST")["msg"], "Invalid custom emoji name.");
    let unknown = [("emoji_name", "party_parrot"), ("emoji_code", "999"), ("reaction_type", "realm_emoji")];
    let refused = api.post(&reactions, Some(&ada), &unknown);
    assert_eq!(refused.error(400, "BAD_REQUEST")["msg"], "Invalid custom emoji.");

    // Only its author or an administrator deactivates it; it stays listed, and its image stays.
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let refused = api.delete("/realm/emoji/party_parrot", Some(&bob), &[]);
    assert_eq!(
        refused.error(400, "BAD_REQUEST")["msg"],
        "Must be an organization administrator or emoji author"
    );
    api.delete("/realm/emoji/party_parrot", Some(&ada), &[]).ok();
    assert_eq!(emoji_named(&api, &owner, "party_parrot")["deactivated"], true);
    let image =
        reqwest::blocking::get(format!("{}{source_url}", server.base_url)).expect("the server answers");
    assert_eq!(image.status(), 200);
    let refused = api.delete("/realm/emoji/party_parrot", Some(&owner), &[]);
    assert_eq!(refused.error(404, "BAD_REQUEST")["msg"], "Emoji 'party_parrot' does not exist");
    let later = send(&api, &owner, ":party_parrot:");
    let html = api.get(&format!("/messages/{later}"), Some(&owner), &[]).ok()["message"]["content"].clone();
    assert_eq!(html, "<p>:party_parrot:</p>");
    let refused = api.post(&format!("/messages/{later}/reactions"), Some(&owner), &by_code);
    assert_eq!(refused.error(400, "BAD_REQUEST")["msg"], "This custom emoji has been deactivated.");
    let refused =
        api.post(&format!("/messages/{later}/reactions"), Some(&owner), &[("emoji_name", "party_parrot")]);
    assert_eq!(refused.error(400, "BAD_REQUEST")["msg"], "Emoji 'party_parrot' does not exist");

    // The name is free again.
    upload(&api, &owner, "party_parrot", &[png("again.png")]).ok();
    let listed = api.get("/realm/emoji", Some(&ada), &[]).ok();
    assert_eq!(listed["emoji"].as_object().map(|all| all.len()), Some(2));
}

#[test]
fn uploads_are_refused_as_zulip_refuses_them() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let member = api.create_user(&owner, "member@example.com", "Member");
    let refused = |reply: Reply, msg: &str| assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], msg);

    refused(upload(&api, &owner, "%20", &[png("a.png")]), "Emoji name is missing");
    let names =
        "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.";
    refused(upload(&api, &owner, "my_EMoji", &[png("a.png")]), names);
    refused(upload(&api, &owner, "my_em*oji", &[png("a.png")]), names);
    refused(upload(&api, &owner, "my/emoji/with/forward/slash/", &[png("a.png")]), names);
    refused(
        upload(&api, &owner, "my_emoji_", &[png("a.png")]),
        "Emoji names must end with either a letter or digit.",
    );
    refused(upload(&api, &owner, "none", &[]), "You must upload exactly one file.");
    refused(upload(&api, &owner, "two", &[png("a.png"), png("b.png")]), "You must upload exactly one file.");
    refused(
        upload(&api, &member, "smile", &[png("a.png")]),
        "Only administrators can override default emoji.",
    );
    upload(&api, &owner, "smile", &[png("a.png")]).ok();
    refused(upload(&api, &member, "smile", &[png("a.png")]), "A custom emoji with this name already exists.");

    let mut big = TINY_PNG.to_vec();
    big.resize(5 * 1024 * 1024 + 1, 0);
    let big = UploadFile { name: "big.png", content_type: None, bytes: &big };
    refused(upload(&api, &owner, "big", &[big]), "Uploaded file is larger than the allowed limit of 5 MiB");
    let tiff = UploadFile { name: "a.tif", content_type: Some("image/tiff"), bytes: TINY_PNG };
    refused(upload(&api, &owner, "tiff", &[tiff]), "Invalid image format");
    let text = UploadFile { name: "notes.txt", content_type: None, bytes: b"hello" };
    refused(upload(&api, &owner, "text", &[text]), "Invalid image format");
    let fake =
        UploadFile { name: "fake.png", content_type: Some("image/png"), bytes: b"<svg onload=alert(1)>" };
    refused(upload(&api, &owner, "fake", &[fake]), "Could not decode image; did you upload an image file?");

    // Guests never; members only while the organization lets them (`can_add_custom_emoji_group`).
    let guest = api.create_user(&owner, "guest@example.com", "Guest");
    let guest_id = api.get("/users/me", Some(&guest), &[]).ok()["user_id"].to_string();
    api.patch(&format!("/users/{guest_id}"), Some(&owner), &[("role", "600")]).ok();
    refused(upload(&api, &guest, "guests", &[png("a.png")]), "Not allowed for guest users");
    let groups = api.get("/user_groups", Some(&owner), &[]).ok();
    let admins =
        groups["user_groups"].as_array().expect("groups").iter().find(|g| g["name"] == "role:administrators");
    let admins = admins.expect("role:administrators")["id"].to_string();
    let setting = format!(r#"{{"new": {admins}}}"#);
    api.patch("/realm", Some(&owner), &[("can_add_custom_emoji_group", setting.as_str())]).ok();
    refused(upload(&api, &member, "mine", &[png("a.png")]), "Insufficient permission");
    let state = api.post("/register", Some(&member), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(state["realm_can_add_custom_emoji_group"].to_string(), admins);
    upload(&api, &owner, "mine", &[png("a.png")]).ok();

    // Hostile names in the path answer with the error shape.
    let long = "X".repeat(5_000);
    for name in ["%00", "a%2F..", "..", "%2E%2E", "%F0%9F%98%80", "%ZZ", long.as_str()] {
        for reply in [
            upload(&api, &owner, name, &[png("a.png")]),
            api.delete(&format!("/realm/emoji/{name}"), Some(&owner), &[]),
        ] {
            assert!(reply.status < 500 && reply.body["result"] == "error", "{name}: {:?}", reply);
            assert!(reply.body["msg"].is_string() && reply.body["code"].is_string(), "{name}: {:?}", reply);
        }
    }

    let refused_delete = api.delete("/realm/emoji/nope", Some(&owner), &[]);
    assert_eq!(refused_delete.error(404, "BAD_REQUEST")["msg"], "Emoji 'nope' does not exist");
    let missing = reqwest::blocking::get(format!("{}/user_avatars/1/emoji/images/nope.png", server.base_url));
    assert_eq!(missing.expect("the server answers").status(), 404);
    let escape = reqwest::blocking::get(format!("{}/user_avatars/..%2F..%2Fconfab.redb", server.base_url));
    assert_eq!(escape.expect("the server answers").status(), 404);
}
