//! The organization data export (`/export/realm`, feature levels 295, 304 and 312):
//! administrators ask for a public or a consented full export, hear it start and finish,
//! download a `.tar.gz` of JSON files holding only what its type allows, and delete it;
//! they see whether each person consents, and hear when someone changes their mind.

use std::io::Read;
use std::time::{Duration, Instant};

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

/// The export's JSON files by name, downloaded with `who`'s credentials.
fn download(server: &TestServer, who: &Creds, url: &str) -> Result<Vec<(String, Value)>, u16> {
    let response = reqwest::blocking::Client::new()
        .get(url.replace(&url[..url.find("/user_uploads").expect("an upload URL")], &server.base_url))
        .basic_auth(&who.email, Some(&who.api_key))
        .send()
        .expect("the download answers");
    if response.status() != 200 {
        return Err(response.status().as_u16());
    }
    let bytes = response.bytes().expect("the file");
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&bytes[..]));
    let mut files = Vec::new();
    for entry in archive.entries().expect("a tar archive") {
        let mut entry = entry.expect("an entry");
        let name = entry.path().expect("a name").to_string_lossy().into_owned();
        let mut text = String::new();
        entry.read_to_string(&mut text).expect("JSON text");
        files.push((name, serde_json::from_str(&text).expect("JSON")));
    }
    Ok(files)
}

/// Waits (the export runs in the background) until the export is no longer pending.
fn finished(api: &confab_tests::Api, admin: &Creds, id: &Value) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let exports = api.get("/export/realm", Some(admin), &[]).ok()["exports"].clone();
        let export =
            exports.as_array().expect("exports").iter().find(|e| e["id"] == *id).expect("listed").clone();
        if export["pending"] == false {
            return export;
        }
        assert!(Instant::now() < deadline, "export {id} still pending: {export}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// What people (not the Notification Bot's channel notices) wrote, as the export holds it.
fn contents(files: &[(String, Value)]) -> Vec<String> {
    let file = |name: &str| &files.iter().find(|(path, _)| path.ends_with(name)).expect("a file").1;
    let bots: Vec<&Value> = file("/users.json")
        .as_array()
        .expect("users")
        .iter()
        .filter(|u| u["is_bot"] == true)
        .map(|u| &u["user_id"])
        .collect();
    let messages = file("/messages.json").as_array().expect("messages");
    messages
        .iter()
        .filter(|m| !bots.contains(&&m["sender_id"]))
        .map(|m| m["content"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn administrators_export_the_organization_as_its_type_allows() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let (owner_id, ada_id) = (api.user_id(&owner), api.user_id(&ada));
    api.patch(&format!("/users/{ada_id}"), Some(&owner), &[("role", "200")]).ok();
    api.subscribe(&owner, &["town square"], &["bob@example.com"]);
    let send = |who, to: &str, content: &str| {
        let kind = if to.contains('@') { "direct" } else { "stream" };
        let to = if to.contains('@') { format!("[\"{to}\"]") } else { to.to_owned() };
        api.post(
            "/messages",
            Some(who),
            &[("type", kind), ("to", &to), ("topic", "t"), ("content", content)],
        )
        .ok();
    };
    send(&owner, "town square", "public hello");
    send(&bob, "ada@example.com", "Bob's private word");
    send(&owner, "ada@example.com", "the owner's private note");

    // Members may not export; a type Zulip has not is refused; a full export needs an owner's consent.
    let refused = api.post("/export/realm", Some(&bob), &[]).error(400, "UNAUTHORIZED_PRINCIPAL");
    assert_eq!(refused["msg"], "Must be an organization administrator");
    let refused = api.post("/export/realm", Some(&ada), &[("export_type", "3")]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Invalid export_type");
    let refused = api.post("/export/realm", Some(&ada), &[("export_type", "2")]).error(400, "BAD_REQUEST");
    assert!(
        refused["msg"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Make sure at least one Organization Owner is consenting")
    );

    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["realm_export"]"#)]).ok();
    let bob_queue = api.post("/register", Some(&bob), &[("event_types", r#"["realm_export"]"#)]).ok();
    let public_id = api.post("/export/realm", Some(&ada), &[]).ok()["id"].clone();
    let public = finished(&api, &ada, &public_id);
    assert_eq!(public["export_type"], 1);
    assert_eq!(public["acting_user_id"], ada_id);
    assert_eq!(public["failed_timestamp"], Value::Null);
    let url = public["export_url"].as_str().expect("an export_url").to_owned();
    assert!(url.ends_with(".tar.gz"), "{url}");

    // Ada hears the export start (pending) and finish (with its URL); Bob hears nothing.
    let events = api.queued(&ada, &queue)["events"].clone();
    let shown: Vec<Value> =
        events.as_array().expect("events").iter().map(|e| e["exports"][0].clone()).collect();
    assert_eq!(shown.len(), 2, "{events}");
    assert_eq!((shown[0]["pending"].clone(), shown[0]["export_url"].clone()), (json!(true), Value::Null));
    assert_eq!(shown[1], public);
    assert_eq!(api.queued(&bob, &bob_queue)["events"], json!([]));

    let files = download(&server, &ada, &url).expect("an administrator downloads the export");
    let names: Vec<&str> =
        files.iter().map(|(name, _)| name.rsplit('/').next().unwrap_or_default()).collect();
    assert_eq!(names, ["realm.json", "users.json", "channels.json", "messages.json"]);
    assert_eq!(contents(&files), ["public hello"]);
    assert_eq!(
        download(&server, &bob, &url).err().map(|status| status >= 400),
        Some(true),
        "a member may not download it"
    );

    // A full export holds what the consenting owner received, never what only Bob and Ada saw.
    api.patch("/settings", Some(&owner), &[("allow_private_data_export", "true")]).ok();
    let full_id = api.post("/export/realm", Some(&owner), &[("export_type", "2")]).ok()["id"].clone();
    let full = finished(&api, &owner, &full_id);
    assert_eq!((full["export_type"].clone(), full["acting_user_id"].clone()), (json!(2), json!(owner_id)));
    let files =
        download(&server, &owner, full["export_url"].as_str().expect("export_url")).expect("downloaded");
    let mut held = contents(&files);
    held.sort();
    assert_eq!(held, ["public hello", "the owner's private note"]);

    // Deleting: only a finished export, once; its file goes.
    let path = format!("/export/realm/{public_id}");
    api.delete(&path, Some(&bob), &[]).error(400, "UNAUTHORIZED_PRINCIPAL");
    api.delete(&path, Some(&ada), &[]).ok();
    assert_eq!(api.delete(&path, Some(&ada), &[]).error(400, "BAD_REQUEST")["msg"], "Export already deleted");
    assert_eq!(
        api.delete("/export/realm/0", Some(&ada), &[]).error(400, "BAD_REQUEST")["msg"],
        "Invalid data export ID"
    );
    let deleted = finished(&api, &ada, &public_id);
    assert!(deleted["deleted_timestamp"].is_i64() && deleted["export_url"].is_null(), "{deleted}");
    assert_eq!(
        download(&server, &ada, &url).err().map(|status| status >= 400),
        Some(true),
        "the file is gone"
    );
    let events = api.queued(&ada, &queue)["events"].clone();
    let last = events.as_array().expect("events").last().expect("a deletion event").clone();
    assert_eq!(last["exports"][0], deleted);
}

#[test]
fn administrators_see_each_persons_export_consent_and_hear_it_change() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let (owner_id, ada_id, bob_id) = (api.user_id(&owner), api.user_id(&ada), api.user_id(&bob));
    api.patch(&format!("/users/{ada_id}"), Some(&owner), &[("role", "200")]).ok();
    api.post("/bots", Some(&owner), &[("full_name", "Helper"), ("short_name", "helper")]).ok();

    let consents = |who| {
        let mut listed = api.get("/export/realm/consents", Some(who), &[]).ok()["export_consents"]
            .as_array()
            .expect("export_consents")
            .clone();
        listed.sort_by_key(|c| c["user_id"].as_u64());
        Value::Array(listed)
    };
    // Bots are not asked: only the three people are listed, none consenting by default.
    assert_eq!(
        consents(&owner),
        json!([{"user_id": owner_id, "consented": false}, {"user_id": ada_id, "consented": false},
               {"user_id": bob_id, "consented": false}])
    );
    let refused = api.get("/export/realm/consents", Some(&bob), &[]).error(400, "UNAUTHORIZED_PRINCIPAL");
    assert_eq!(refused["msg"], "Must be an organization administrator");

    let listen =
        |who| api.post("/register", Some(who), &[("event_types", r#"["realm_export_consent"]"#)]).ok();
    let (owner_queue, ada_queue, bob_queue) = (listen(&owner), listen(&ada), listen(&bob));
    api.patch("/settings", Some(&bob), &[("allow_private_data_export", "true")]).ok();

    let expected = json!({"type": "realm_export_consent", "user_id": bob_id, "consented": true});
    for (admin, queue) in [(&owner, &owner_queue), (&ada, &ada_queue)] {
        let events = api.queued(admin, queue)["events"].clone();
        assert_eq!(events.as_array().map(Vec::len), Some(1), "{events}");
        let mut event = events[0].clone();
        event.as_object_mut().expect("event").remove("id");
        assert_eq!(event, expected);
    }
    // Zulip tells only administrators, the person themselves included only if one.
    assert_eq!(api.queued(&bob, &bob_queue)["events"], json!([]));
    assert_eq!(consents(&ada)[2], json!({"user_id": bob_id, "consented": true}));
}

#[test]
fn a_failed_export_is_marked_failed_and_five_a_week_is_the_limit() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    // A file where the exports' folder belongs: no export can be written.
    std::fs::create_dir_all(server.data_dir.join("uploads")).expect("uploads folder");
    std::fs::write(server.data_dir.join("uploads/exports"), b"in the way").expect("a file in the way");

    let id = api.post("/export/realm", Some(&owner), &[]).ok()["id"].clone();
    let failed = finished(&api, &owner, &id);
    assert!(failed["failed_timestamp"].is_i64() && failed["export_url"].is_null(), "{failed}");
    let refused = api.delete(&format!("/export/realm/{id}"), Some(&owner), &[]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Export failed, nothing to delete");

    for _ in 0..4 {
        api.post("/export/realm", Some(&owner), &[]).ok();
    }
    let refused = api.post("/export/realm", Some(&owner), &[]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Exceeded rate limit.");
}
