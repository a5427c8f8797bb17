//! Who may send direct messages (feature level 270): the organization's
//! `direct_message_permission_group` authorizes conversations and `direct_message_initiator_group`
//! starts them, with Zulip's refusals.

use confab_tests::{Api, Creds, TestServer};
use serde_json::json;

fn dm(api: &Api, from: &Creds, to: &[u64]) -> confab_tests::Reply {
    let to = json!(to).to_string();
    api.post("/messages", Some(from), &[("type", "direct"), ("to", to.as_str()), ("content", "hello")])
}

fn system_group(api: &Api, who: &Creds, name: &str) -> serde_json::Value {
    let groups = api.get("/user_groups", Some(who), &[]).ok()["user_groups"].clone();
    groups.as_array().expect("groups").iter().find(|g| g["name"] == name).expect("system group")["id"].clone()
}

#[test]
fn direct_messages_follow_the_organizations_two_permissions() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let (owner_id, ada_id, bob_id) = (api.user_id(&owner), api.user_id(&ada), api.user_id(&bob));
    let set = |name: &str, group: &str| {
        let change = json!({"new": system_group(&api, &owner, group)}).to_string();
        api.patch("/realm", Some(&owner), &[(name, change.as_str())]).ok();
    };

    // Only administrators may start conversations: members may answer, not begin.
    set("direct_message_initiator_group", "role:administrators");
    let refused = dm(&api, &ada, &[bob_id]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "You do not have permission to initiate direct message conversations.");
    dm(&api, &owner, &[ada_id]).ok();
    dm(&api, &ada, &[owner_id]).ok();
    // Writing to oneself is always allowed.
    dm(&api, &ada, &[ada_id]).ok();

    // Only administrators authorize conversations: one must take part.
    set("direct_message_initiator_group", "role:everyone");
    set("direct_message_permission_group", "role:administrators");
    let refused = dm(&api, &ada, &[bob_id]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "This conversation does not include any users who can authorize it.");
    dm(&api, &ada, &[bob_id, owner_id]).ok();

    set("direct_message_permission_group", "role:nobody");
    let refused = dm(&api, &ada, &[owner_id]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Direct messages are disabled in this organization.");
}
