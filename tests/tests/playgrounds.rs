//! Code playgrounds (`POST`/`DELETE /realm/playgrounds`): administrators add and remove them,
//! with Zulip's checks; register's `realm_playgrounds` and the `realm_playgrounds` event carry
//! the list.

use confab_tests::TestServer;
use serde_json::json;

#[test]
fn administrators_add_and_remove_code_playgrounds() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["realm_playgrounds"]"#)]).ok();
    assert_eq!(queue["realm_playgrounds"], json!([]));

    let python = [
        ("name", "Python playground"),
        ("pygments_language", "Python"),
        ("url_template", "https://python.example.com?code={code}"),
    ];
    let id = api.post("/realm/playgrounds", Some(&owner), &python).ok()["id"].clone();
    let listed = json!([{"id": id, "name": "Python playground", "pygments_language": "Python",
                         "url_template": "https://python.example.com?code={code}"}]);
    let events = api.queued(&ada, &queue)["events"].clone();
    assert_eq!(events[0]["realm_playgrounds"], listed);
    let fresh = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["realm_playgrounds"]"#)]).ok();
    assert_eq!(fresh["realm_playgrounds"], listed);

    let refused = |params: &[(&str, &str)], msg: &str| {
        assert_eq!(
            api.post("/realm/playgrounds", Some(&owner), params).error(400, "BAD_REQUEST")["msg"],
            msg
        );
    };
    refused(&python, "Realm playground with this Realm, Pygments language and Name already exists.");
    refused(
        &[("name", "X"), ("pygments_language", "Py$thon"), ("url_template", "https://x.example/{code}")],
        "Invalid characters in pygments language",
    );
    refused(
        &[("name", "X"), ("pygments_language", "Rust"), ("url_template", "https://x.example/{id}")],
        "Missing the required variable \"code\" in the URL template",
    );
    refused(
        &[("name", "X"), ("pygments_language", "Rust"), ("url_template", "https://x.example/{code}/{id}")],
        "\"code\" should be the only variable present in the URL template",
    );
    refused(
        &[("name", "X"), ("pygments_language", "Rust"), ("url_template", "https://x.example/{code")],
        "Invalid URL template.",
    );
    api.post("/realm/playgrounds", Some(&ada), &python).error(400, "UNAUTHORIZED_PRINCIPAL");

    api.delete(&format!("/realm/playgrounds/{id}"), Some(&ada), &[]).error(400, "UNAUTHORIZED_PRINCIPAL");
    api.delete(&format!("/realm/playgrounds/{id}"), Some(&owner), &[]).ok();
    let gone = api.delete(&format!("/realm/playgrounds/{id}"), Some(&owner), &[]).error(400, "BAD_REQUEST");
    assert_eq!(gone["msg"], "Invalid playground");
    let events = api.queued(&ada, &queue)["events"].clone();
    assert_eq!(events.as_array().and_then(|e| e.last()).expect("event")["realm_playgrounds"], json!([]));
}
