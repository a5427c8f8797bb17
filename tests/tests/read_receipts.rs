//! `GET /messages/{message_id}/read_receipts` (feature level 137), with the organization's
//! `enable_read_receipts` and each reader's `send_read_receipts`.

use confab_tests::TestServer;
use serde_json::json;

#[test]
fn read_receipts_list_readers_who_share_them() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let grace = api.create_user(&owner, "grace@example.com", "Grace");
    let linus = api.create_user(&owner, "linus@example.com", "Linus");
    let emails = ["owner@confab.localhost", "ada@example.com", "grace@example.com", "linus@example.com"];
    api.subscribe(&owner, &["general"], &emails);
    let (ada_id, grace_id, linus_id) = (api.user_id(&ada), api.user_id(&grace), api.user_id(&linus));
    let params = [("type", "stream"), ("to", "general"), ("topic", "t"), ("content", "read me")];
    let id = api.post("/messages", Some(&owner), &params).ok()["id"].as_u64().expect("id");
    let path = format!("/messages/{id}/read_receipts");

    let off = api.get(&path, Some(&owner), &[]).error(400, "BAD_REQUEST");
    assert_eq!(off["msg"], "Read receipts are disabled in this organization.");
    api.patch("/realm", Some(&owner), &[("enable_read_receipts", "true")]).ok();
    assert_eq!(api.get(&path, Some(&owner), &[]).ok()["user_ids"], json!([]), "the sender is never listed");

    let messages = format!("[{id}]");
    for who in [&ada, &grace, &linus] {
        api.post(
            "/messages/flags",
            Some(who),
            &[("messages", messages.as_str()), ("op", "add"), ("flag", "read")],
        )
        .ok();
    }
    assert_eq!(api.get(&path, Some(&owner), &[]).ok()["user_ids"], json!([ada_id, grace_id, linus_id]));
    // Grace keeps her reading to herself; Linus muted the owner, who must not learn it.
    api.patch("/settings", Some(&grace), &[("send_read_receipts", "false")]).ok();
    let owner_id = api.user_id(&owner);
    api.post(&format!("/users/me/muted_users/{owner_id}"), Some(&linus), &[]).ok();
    assert_eq!(api.get(&path, Some(&owner), &[]).ok()["user_ids"], json!([ada_id]));
    // Linus is still listed for Ada, who is listed too: asking does not leave oneself out.
    assert_eq!(api.get(&path, Some(&ada), &[]).ok()["user_ids"], json!([ada_id, linus_id]));

    api.get("/messages/999999/read_receipts", Some(&owner), &[]).error(400, "BAD_REQUEST");
}
