//! `POST /realm/deactivate`: an owner closes the organization; everyone hears of it, and every
//! request and login after answers `REALM_DEACTIVATED`.

use confab_tests::TestServer;
use serde_json::json;

#[test]
fn an_owner_deactivates_the_organization_and_it_is_closed_to_everyone() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let state = api.post("/register", Some(&ada), &[("event_types", r#"["realm"]"#)]).ok();
    assert_eq!(state["server_min_deactivated_realm_deletion_days"], 14);
    assert_eq!(state["server_max_deactivated_realm_deletion_days"], json!(null));

    let refused = api.post("/realm/deactivate", Some(&ada), &[]).error(400, "UNAUTHORIZED_PRINCIPAL");
    assert_eq!(refused["msg"], "Must be an organization owner");
    let soon = api
        .post("/realm/deactivate", Some(&owner), &[("deletion_delay_days", "3")])
        .error(400, "BAD_REQUEST");
    assert_eq!(soon["msg"], "Data deletion time must be at least 14 days in the future.");

    let events = api.queued(&ada, &state)["events"].clone();
    assert!(events.as_array().is_some_and(Vec::is_empty), "{events}");
    api.post("/realm/deactivate", Some(&owner), &[("deletion_delay_days", "30")]).ok();

    let closed = api.get("/users/me", Some(&ada), &[]).error(401, "REALM_DEACTIVATED");
    assert_eq!(closed["msg"], "This organization has been deactivated");
    let login =
        api.post("/fetch_api_key", None, &[("username", "ada@example.com"), ("password", "s3cret-pass")]);
    login.error(401, "REALM_DEACTIVATED");
}
