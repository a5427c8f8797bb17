//! Avatars: a user's own image, uploaded and deleted as Zulip does, shown in user objects,
//! messages and `realm_user` events, and served at `/user_avatars/`.

use confab_tests::{Reply, TINY_PNG, TestServer, UploadFile};
use reqwest::Method;
use serde_json::json;

#[test]
fn an_uploaded_avatar_replaces_the_default_until_it_is_deleted() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general"], &["owner@confab.localhost", "ada@example.com"]);
    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].as_u64().expect("id");
    // `client_gravatar` is on by default: a default avatar is null, for the client to compute.
    let default_url = format!("/avatar/{ada_id}?v=1");
    let ada_in = |reply: serde_json::Value| reply["members"].as_array().expect("members").iter().find(|u| u["user_id"] == ada_id).cloned().expect("ada");
    assert_eq!(api.get(&format!("/users/{ada_id}"), Some(&owner), &[]).ok()["user"]["avatar_url"], json!(null));
    assert_eq!(ada_in(api.get("/users", Some(&owner), &[]).ok())["avatar_url"], json!(null));
    let without = [("client_gravatar", "false")];
    assert_eq!(api.get(&format!("/users/{ada_id}"), Some(&owner), &without).ok()["user"]["avatar_url"], default_url);
    assert_eq!(ada_in(api.get("/users", Some(&owner), &without).ok())["avatar_url"], default_url);
    let queue = api.post("/register", Some(&owner), &[("event_types", r#"["realm_user"]"#)]).ok();

    let files = [UploadFile { name: "me.png", content_type: None, bytes: TINY_PNG }];
    let set = api.send_files(Method::POST, "/users/me/avatar", Some(&ada), &files).ok();
    let url = set["avatar_url"].as_str().expect("avatar_url").to_owned();
    assert!(url.starts_with("/user_avatars/") && url.ends_with(".png"), "{url}");
    let image = reqwest::blocking::get(format!("{}{url}", server.base_url)).expect("the server answers");
    assert_eq!(image.status(), 200);
    assert_eq!(image.headers()["content-type"], "image/png");
    assert_eq!(image.bytes().expect("bytes").as_ref(), TINY_PNG);

    let events = api.queued(&owner, &queue)["events"].clone();
    assert_eq!(
        events[0],
        json!({"type": "realm_user", "op": "update", "id": events[0]["id"],
               "person": {"avatar_source": "U", "avatar_url": url, "avatar_url_medium": url,
                          "avatar_version": 2, "user_id": ada_id}})
    );
    let shown = api.get(&format!("/users/{ada_id}"), Some(&owner), &[]).ok();
    assert_eq!(
        (shown["user"]["avatar_url"].clone(), shown["user"]["avatar_version"].clone()),
        (json!(url), json!(2))
    );
    assert_eq!(ada_in(api.get("/users", Some(&owner), &[]).ok())["avatar_url"], url);
    let own = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["realm_user"]"#)]).ok();
    assert_eq!((own["avatar_source"].clone(), own["avatar_url"].clone()), (json!("U"), json!(url)));
    // Clients that compute default avatars still get uploaded ones.
    let listed = api.post("/register", Some(&owner), &[("client_gravatar", "true")]).ok();
    let ada_listed =
        listed["realm_users"].as_array().expect("users").iter().find(|u| u["user_id"] == ada_id).cloned();
    assert_eq!(ada_listed.expect("ada")["avatar_url"], url);
    let params = [("type", "stream"), ("to", "general"), ("topic", "t"), ("content", "hi")];
    let sent = api.post("/messages", Some(&ada), &params).ok()["id"].as_u64().expect("id");
    let message = api.get(&format!("/messages/{sent}"), Some(&owner), &[("client_gravatar", "true")]).ok();
    assert_eq!(message["message"]["avatar_url"], url);

    let deleted = api.delete("/users/me/avatar", Some(&ada), &[]).ok();
    assert_eq!(deleted["avatar_url"], format!("/avatar/{ada_id}?v=3"));
    let gone = reqwest::blocking::get(format!("{}{url}", server.base_url)).expect("the server answers");
    assert_eq!(gone.status(), 404, "the replaced image is removed");
    let own = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["realm_user"]"#)]).ok();
    assert_eq!((own["avatar_source"].clone(), own["avatar_version"].clone()), (json!("G"), json!(3)));
}

#[test]
fn avatars_are_refused_as_zulip_refuses_them() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let refused = |reply: Reply, msg: &str| assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], msg);
    let set =
        |files: &[UploadFile<'_>]| api.send_files(Method::POST, "/users/me/avatar", Some(&owner), files);
    let png = UploadFile { name: "me.png", content_type: None, bytes: TINY_PNG };
    refused(set(&[]), "You must upload exactly one avatar.");
    refused(set(&[png, png]), "You must upload exactly one avatar.");
    let mut big = TINY_PNG.to_vec();
    big.resize(5 * 1024 * 1024 + 1, 0);
    refused(
        set(&[UploadFile { name: "big.png", content_type: None, bytes: &big }]),
        "Uploaded file is larger than the allowed limit of 5 MiB",
    );
    refused(
        set(&[UploadFile { name: "me.bmp", content_type: Some("image/bmp"), bytes: TINY_PNG }]),
        "Invalid image format",
    );
    refused(
        set(&[UploadFile { name: "me.jpg", content_type: None, bytes: b"no jpeg here" }]),
        "Could not decode image; did you upload an image file?",
    );
    // Nothing changed.
    let own = api.get("/users/me", Some(&owner), &[]).ok();
    assert_eq!(own["avatar_version"], 1);
}

#[test]
fn the_avatar_route_serves_the_default_or_leads_to_the_upload() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let me = api.get("/users/me", Some(&owner), &[]).ok();
    let id = me["user_id"].as_u64().expect("id");
    let http = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let default = http.get(format!("{}/avatar/{id}", server.base_url)).send().expect("GET");
    assert_eq!(default.status().as_u16(), 200);
    assert_eq!(default.headers()["Content-Type"], "image/png");
    assert!(default.bytes().expect("bytes").starts_with(b"\x89PNG"), "a PNG image");

    let files = [UploadFile { name: "me.png", content_type: None, bytes: TINY_PNG }];
    let set = api.send_files(Method::POST, "/users/me/avatar", Some(&owner), &files).ok();
    let uploaded = http.get(format!("{}/avatar/{id}/medium", server.base_url)).send().expect("GET");
    assert_eq!(uploaded.status().as_u16(), 302);
    let location = uploaded.headers()["Location"].to_str().expect("text").to_owned();
    assert!(set["avatar_url"].as_str().is_some_and(|url| url.starts_with(&location)), "{set} {location}");
}
