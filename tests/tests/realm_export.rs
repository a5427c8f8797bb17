//! The organization data export's consents (`GET /export/realm/consents`, feature level 295;
//! the `realm_export_consent` event, 312): administrators see whether each person allows
//! their private data in an export, and hear when someone changes their mind.

use confab_tests::TestServer;
use serde_json::{Value, json};

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
