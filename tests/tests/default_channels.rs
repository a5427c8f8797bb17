//! Default channels (`POST`/`DELETE /default_streams`, `is_default_stream` when creating or
//! updating a channel): administrators choose public channels new users join; members (not
//! guests) learn the set from register's `realm_default_streams` and `default_streams` events.
//! Default channel groups (`/default_stream_groups/...`): named sets of channels, managed by
//! administrators, told to members by `realm_default_stream_groups` and
//! `default_stream_groups` events.

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

fn setup() -> (TestServer, Creds, Creds) {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let ada = server.api().create_user(&owner, "ada@example.com", "Ada");
    (server, owner, ada)
}

fn channel(server: &TestServer, owner: &Creds, name: &str, private: bool) -> u64 {
    let none = json!([]).to_string();
    let private = private.to_string();
    let params = [("name", name), ("subscribers", none.as_str()), ("invite_only", private.as_str())];
    server.api().post("/channels/create", Some(owner), &params).ok()["id"].as_u64().expect("id")
}

fn defaults(server: &TestServer, who: &Creds) -> Value {
    let registered =
        server.api().post("/register", Some(who), &[("fetch_event_types", r#"["default_streams"]"#)]).ok();
    registered["realm_default_streams"].clone()
}

#[test]
fn an_administrator_adds_and_removes_default_channels() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let before = defaults(&server, &ada);
    let design = channel(&server, &owner, "design", false);
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["default_streams"]"#)]).ok();

    let id = design.to_string();
    api.post("/default_streams", Some(&owner), &[("stream_id", id.as_str())]).ok();
    let mut expected: Vec<u64> =
        before.as_array().expect("ids").iter().map(|v| v.as_u64().expect("id")).chain([design]).collect();
    expected.sort_unstable();
    assert_eq!(defaults(&server, &ada), json!(expected));
    let listed = api
        .get(
            "/streams",
            Some(&ada),
            &[("include_default", "true"), ("include_public", "false"), ("include_subscribed", "false")],
        )
        .ok();
    let listed: Vec<&Value> =
        listed["streams"].as_array().expect("list").iter().map(|s| &s["stream_id"]).collect();
    assert!(listed.contains(&&json!(design)), "{listed:?}");

    api.delete("/default_streams", Some(&owner), &[("stream_id", id.as_str())]).ok();
    assert_eq!(defaults(&server, &ada), before);

    let events = api.queued(&ada, &queue);
    assert_eq!(events["events"][0], json!({"id": 0, "type": "default_streams", "default_streams": expected}));
    assert_eq!(events["events"][1]["default_streams"], before);
}

#[test]
fn only_public_channels_of_the_organization_may_be_default() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let public = channel(&server, &owner, "public", false).to_string();
    // A subscribed owner has the private channel's content: only its privacy refuses it.
    let owner_id = api.get("/users/me", Some(&owner), &[]).ok()["user_id"].to_string();
    let subscribers = format!("[{owner_id}]");
    let params =
        [("name", "subscribed secret"), ("subscribers", subscribers.as_str()), ("invite_only", "true")];
    let secret = api.post("/channels/create", Some(&owner), &params).ok()["id"].to_string();

    let reply = api.post("/default_streams", Some(&owner), &[("stream_id", secret.as_str())]);
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "Private channels cannot be made default.");
    let reply = api.post("/default_streams", Some(&owner), &[("stream_id", "98765")]);
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "Invalid channel ID");
    let reply = api.post("/default_streams", Some(&ada), &[("stream_id", public.as_str())]);
    assert_eq!(reply.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");

    // A default channel cannot become private, whichever way it is asked.
    api.patch(&format!("/streams/{public}"), Some(&owner), &[("is_default_stream", "true")]).ok();
    let reply = api.patch(&format!("/streams/{public}"), Some(&owner), &[("is_private", "true")]);
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "A default channel cannot be private.");
    let reply = api.patch(&format!("/streams/{secret}"), Some(&owner), &[("is_default_stream", "true")]);
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "A default channel cannot be private.");
}

#[test]
fn guests_are_not_told_the_default_channels() {
    let (server, owner, _ada) = setup();
    let api = server.api();
    let design = channel(&server, &owner, "design", false).to_string();
    api.post("/default_streams", Some(&owner), &[("stream_id", design.as_str())]).ok();
    let guest = api.create_user(&owner, "guest@example.com", "Guest");
    let guest_id = api.get("/users/me", Some(&guest), &[]).ok()["user_id"].to_string();
    api.patch(&format!("/users/{guest_id}"), Some(&owner), &[("role", "600")]).ok();
    assert_eq!(defaults(&server, &guest), json!([]));
}

#[test]
fn channels_made_while_subscribing_can_be_default() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let wanted = json!([{"name": "welcome"}]).to_string();
    let params = [("subscriptions", wanted.as_str()), ("is_default_stream", "true")];
    let reply = api.post("/users/me/subscriptions", Some(&ada), &params);
    assert_eq!(reply.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");
    api.post("/users/me/subscriptions", Some(&owner), &params).ok();
    let id = api.get("/get_stream_id", Some(&owner), &[("stream", "welcome")]).ok()["stream_id"].clone();
    assert!(defaults(&server, &ada).as_array().expect("ids").contains(&id));
}

fn groups(server: &TestServer, who: &Creds) -> Value {
    let registered = server
        .api()
        .post("/register", Some(who), &[("fetch_event_types", r#"["default_stream_groups"]"#)])
        .ok();
    registered["realm_default_stream_groups"].clone()
}

#[test]
fn an_administrator_manages_default_channel_groups_that_everyone_but_guests_is_told_of() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let (zebra, apple, pear) = (
        channel(&server, &owner, "zebra", false),
        channel(&server, &owner, "apple", false),
        channel(&server, &owner, "pear", false),
    );
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["default_stream_groups"]"#)]).ok();

    let names = json!(["zebra", "apple"]).to_string();
    let params =
        [("group_name", "Design"), ("description", "For designers"), ("stream_names", names.as_str())];
    api.post("/default_stream_groups/create", Some(&owner), &params).ok();
    let made = groups(&server, &ada);
    let id = made[0]["id"].as_u64().expect("group id");
    // Channels are ids (feature level 330), ordered by channel name.
    let design =
        json!({"name": "Design", "id": id, "description": "For designers", "streams": [apple, zebra]});
    assert_eq!(made, json!([design]));

    let path = format!("/default_stream_groups/{id}");
    api.patch(&path, Some(&owner), &[("new_group_name", "Craft"), ("new_description", "Makers")]).ok();
    let add = json!(["pear"]).to_string();
    let streams_path = format!("{path}/streams");
    api.patch(&streams_path, Some(&owner), &[("op", "add"), ("stream_names", add.as_str())]).ok();
    let craft = json!({"name": "Craft", "id": id, "description": "Makers", "streams": [apple, pear, zebra]});
    assert_eq!(groups(&server, &ada), json!([craft]));
    let remove = json!(["zebra", "apple"]).to_string();
    api.patch(&streams_path, Some(&owner), &[("op", "remove"), ("stream_names", remove.as_str())]).ok();

    // Groups are sorted by name.
    let params = [("group_name", "Backend"), ("description", ""), ("stream_names", "[]")];
    api.post("/default_stream_groups/create", Some(&owner), &params).ok();
    let backend = groups(&server, &ada)[0].clone();
    assert_eq!(backend["name"], "Backend");
    let craft = json!({"name": "Craft", "id": id, "description": "Makers", "streams": [pear]});
    assert_eq!(groups(&server, &ada), json!([backend, craft]));

    // Each change is one event with every group; a rename with a new description is two.
    let events = api.queued(&ada, &queue)["events"].clone();
    let events = events.as_array().expect("events");
    assert!(events.iter().all(|e| e["type"] == "default_stream_groups"), "{events:?}");
    let lists: Vec<&Value> = events.iter().map(|e| &e["default_stream_groups"]).collect();
    assert_eq!(lists.len(), 6, "{events:?}");
    assert_eq!(lists[0], &json!([design]));
    assert_eq!(
        (&lists[1][0]["name"], &lists[1][0]["description"]),
        (&json!("Craft"), &json!("For designers"))
    );
    assert_eq!(lists[2][0]["description"], "Makers");
    assert_eq!(lists[3][0]["streams"], json!([apple, pear, zebra]));
    assert_eq!(lists[4][0]["streams"], json!([pear]));
    assert_eq!(lists[5], &json!([backend, craft]));

    // They are kept across a restart, and can be deleted.
    let server = server.restart();
    let api = server.api();
    assert_eq!(groups(&server, &ada), json!([backend, craft]));
    api.delete(&path, Some(&owner), &[]).ok();
    assert_eq!(groups(&server, &ada), json!([backend]));

    let guest = api.create_user(&owner, "guest@example.com", "Guest");
    let guest_id = api.get("/users/me", Some(&guest), &[]).ok()["user_id"].to_string();
    api.patch(&format!("/users/{guest_id}"), Some(&owner), &[("role", "600")]).ok();
    assert_eq!(groups(&server, &guest), json!([]));
}

#[test]
fn default_channel_groups_refuse_what_zulip_refuses() {
    let (server, owner, ada) = setup();
    let api = server.api();
    channel(&server, &owner, "design", false);
    channel(&server, &owner, "hidden", true);
    let chosen = channel(&server, &owner, "chosen", false).to_string();
    api.post("/default_streams", Some(&owner), &[("stream_id", chosen.as_str())]).ok();
    let create = |who: &Creds, name: &str, description: &str, streams: Value| {
        let streams = streams.to_string();
        let params = [("group_name", name), ("description", description), ("stream_names", streams.as_str())];
        api.post("/default_stream_groups/create", Some(who), &params)
    };
    let refused = |reply: confab_tests::Reply| reply.error(400, "BAD_REQUEST")["msg"].clone();

    let reply = create(&ada, "Design", "", json!(["design"]));
    assert_eq!(reply.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");
    assert_eq!(refused(create(&owner, "Design", "", json!(["nowhere"]))), "Invalid channel name 'nowhere'");
    // The owner is no subscriber of the private channel, so cannot reach its content.
    assert_eq!(refused(create(&owner, "Design", "", json!(["hidden"]))), "Invalid channel name 'hidden'");
    assert_eq!(
        refused(create(&owner, "Design", "", json!(["design", "chosen"]))),
        "'chosen' is a default channel and cannot be added to 'Design'"
    );
    assert_eq!(refused(create(&owner, "  ", "", json!([]))), "Invalid default channel group name '  '");
    assert_eq!(
        refused(create(&owner, &"n".repeat(61), "", json!([]))),
        "Default channel group name too long (limit: 60 characters)"
    );
    let reply =
        api.post("/default_stream_groups/create", Some(&owner), &[("group_name", "x"), ("description", "")]);
    assert_eq!(reply.error(400, "REQUEST_VARIABLE_MISSING")["msg"], "Missing 'stream_names' argument");
    create(&owner, "Design", "", json!(["design", "design"])).ok();
    assert_eq!(
        refused(create(&owner, "Design", "", json!([]))),
        "Default channel group 'Design' already exists"
    );
    let id = groups(&server, &owner)[0]["id"].as_u64().expect("id");
    create(&owner, "Other", "", json!([])).ok();
    assert_eq!(
        groups(&server, &owner)[0]["streams"].as_array().expect("ids").len(),
        1,
        "named twice, held once"
    );

    let path = format!("/default_stream_groups/{id}");
    let reply = api.patch(&path, Some(&ada), &[("new_group_name", "Mine")]);
    assert_eq!(reply.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");
    let neither = "You must pass \"new_description\" or \"new_group_name\".";
    assert_eq!(refused(api.patch(&path, Some(&owner), &[])), neither);
    assert_eq!(
        refused(api.patch(&path, Some(&owner), &[("new_group_name", ""), ("new_description", "")])),
        neither
    );
    let reply = api.patch("/default_stream_groups/98765", Some(&owner), &[("new_group_name", "Mine")]);
    assert_eq!(refused(reply), "Default channel group with id '98765' does not exist.");
    let reply = api.patch(&path, Some(&owner), &[("new_group_name", "Design")]);
    assert_eq!(refused(reply), "This default channel group is already named 'Design'");
    let reply = api.patch(&path, Some(&owner), &[("new_group_name", "Other")]);
    assert_eq!(refused(reply), "Default channel group 'Other' already exists");

    let streams = format!("{path}/streams");
    let change = |op: &str, names: Value| {
        let names = names.to_string();
        api.patch(&streams, Some(&owner), &[("op", op), ("stream_names", names.as_str())])
    };
    assert_eq!(
        refused(change("add", json!(["design"]))),
        "Channel 'design' is already present in default channel group 'Design'"
    );
    assert_eq!(
        refused(change("add", json!(["chosen"]))),
        "'chosen' is a default channel and cannot be added to 'Design'"
    );
    assert_eq!(
        refused(change("remove", json!(["chosen"]))),
        "Channel 'chosen' is not present in default channel group 'Design'"
    );
    assert_eq!(
        refused(change("swap", json!(["design"]))),
        "Invalid value for \"op\". Specify one of \"add\" or \"remove\"."
    );
    assert_eq!(refused(change("add", json!(["nowhere"]))), "Invalid channel name 'nowhere'");
    let reply = api.patch(
        "/default_stream_groups/98765/streams",
        Some(&owner),
        &[("op", "add"), ("stream_names", "[]")],
    );
    assert_eq!(refused(reply), "Default channel group with id '98765' does not exist.");

    let reply = api.delete("/default_stream_groups/98765", Some(&owner), &[]);
    assert_eq!(refused(reply), "Default channel group with id '98765' does not exist.");
    let reply = api.delete(&path, Some(&ada), &[]);
    assert_eq!(reply.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");
    // A group id is a number in Zulip's route: anything else is no endpoint.
    let reply = api.delete("/default_stream_groups/design", Some(&owner), &[]);
    assert_eq!(reply.error(404, "BAD_REQUEST")["msg"], "Invalid API endpoint");
    // Nothing refused changed anything.
    let design = groups(&server, &owner)[0].clone();
    assert_eq!((&design["name"], &design["description"]), (&json!("Design"), &json!("")));
}

#[test]
fn an_archived_channel_leaves_its_default_channel_groups() {
    let (server, owner, ada) = setup();
    let api = server.api();
    let design = channel(&server, &owner, "design", false);
    let art = channel(&server, &owner, "art", false);
    for name in ["One", "Two"] {
        let params = [("group_name", name), ("description", ""), ("stream_names", r#"["design", "art"]"#)];
        api.post("/default_stream_groups/create", Some(&owner), &params).ok();
    }
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["default_stream_groups"]"#)]).ok();
    api.delete(&format!("/streams/{design}"), Some(&owner), &[]).ok();
    let after = groups(&server, &ada);
    assert_eq!(
        after.as_array().map(|all| all.iter().map(|g| g["streams"].clone()).collect::<Vec<_>>()),
        Some(vec![json!([art]), json!([art])])
    );
    // As Zulip, one event per group the channel left.
    let events = api.queued(&ada, &queue)["events"].clone();
    assert_eq!(events.as_array().expect("events").len(), 2, "{events}");
    assert_eq!(events[1]["default_stream_groups"], after);
    // An archived channel cannot be put back into a group.
    let reply = api.patch(
        &format!("/default_stream_groups/{}/streams", after[0]["id"]),
        Some(&owner),
        &[("op", "add"), ("stream_names", r#"["design"]"#)],
    );
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], "Invalid channel name 'design'");
}
