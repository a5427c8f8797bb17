//! Who may subscribe and unsubscribe whom (Zulip's `add_subscriptions_backend` and
//! `remove_subscriptions_backend` at feature level 419), what channels a subscription request
//! creates, what it tells the users it adds, and the access a channel's groups give to those
//! who are not subscribed.

use confab_tests::{Api, Creds, Reply, TestServer};
use serde_json::{Value, json};

/// The owner and three members, Ada, Bob and Cat, with their ids.
struct Org {
    server: TestServer,
    owner: Creds,
    ada: Creds,
    bob: Creds,
    cat: Creds,
    ids: [u64; 4],
}

fn org() -> Org {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let cat = api.create_user(&owner, "cat@example.com", "Cat");
    let ids = [api.user_id(&owner), api.user_id(&ada), api.user_id(&bob), api.user_id(&cat)];
    Org { server, owner, ada, bob, cat, ids }
}

/// `POST /users/me/subscriptions` of channels by name for users by id (none: oneself).
fn subscribe(api: &Api, who: &Creds, channels: &[&str], principals: &[u64], extra: &[(&str, &str)]) -> Reply {
    let channels: Vec<Value> = channels.iter().map(|name| json!({"name": name})).collect();
    let channels = Value::Array(channels).to_string();
    let principals = json!(principals).to_string();
    let mut params = vec![("subscriptions", channels.as_str())];
    if principals != "[]" {
        params.push(("principals", principals.as_str()));
    }
    params.extend_from_slice(extra);
    api.post("/users/me/subscriptions", Some(who), &params)
}

fn unsubscribe(api: &Api, who: &Creds, channels: &[&str], principals: &[u64]) -> Reply {
    let channels = json!(channels).to_string();
    let principals = json!(principals).to_string();
    let mut params = vec![("subscriptions", channels.as_str())];
    if principals != "[]" {
        params.push(("principals", principals.as_str()));
    }
    api.delete("/users/me/subscriptions", Some(who), &params)
}

/// A channel made by `who` with its subscribers and settings; its id.
fn create(api: &Api, who: &Creds, name: &str, subscribers: &[u64], extra: &[(&str, &str)]) -> u64 {
    let subscribers = json!(subscribers).to_string();
    let mut params = vec![("name", name), ("subscribers", subscribers.as_str())];
    params.extend_from_slice(extra);
    api.post("/channels/create", Some(who), &params).ok()["id"].as_u64().expect("id")
}

/// A group-setting value naming these users only.
fn only(users: &[u64]) -> String {
    json!({"direct_members": users, "direct_subgroups": []}).to_string()
}

/// A change of a group setting, as `PATCH /streams` and `PATCH /realm` take it.
fn change_to(value: &str) -> String {
    format!(r#"{{"new": {value}}}"#)
}

fn system_group(api: &Api, who: &Creds, name: &str) -> u64 {
    let groups = api.get("/user_groups", Some(who), &[]).ok();
    groups["user_groups"].as_array().expect("list").iter().find(|g| g["name"] == name).expect("group")["id"]
        .as_u64()
        .expect("id")
}

fn patch_channel(api: &Api, who: &Creds, id: u64, params: &[(&str, &str)]) -> Reply {
    api.patch(&format!("/streams/{id}"), Some(who), params)
}

fn refused(reply: Reply, msg: &str) {
    assert_eq!(reply.error(400, "BAD_REQUEST")["msg"], msg);
}

fn members(api: &Api, who: &Creds, id: u64) -> Value {
    api.get(&format!("/streams/{id}/members"), Some(who), &[]).ok()["subscribers"].clone()
}

#[test]
fn subscribing_others_takes_one_of_zulips_permissions() {
    let Org { server, owner, ada, bob, cat, ids: [owner_id, ada_id, bob_id, cat_id] } = org();
    let api = server.api();
    let nobody = system_group(&api, &owner, "role:nobody").to_string();
    // Nobody may subscribe others to every channel they can read.
    api.patch("/realm", Some(&owner), &[("can_add_subscribers_group", &change_to(&nobody))]).ok();
    let town = create(&api, &owner, "town", &[owner_id], &[]);

    refused(subscribe(&api, &ada, &["town"], &[bob_id], &[]), "Insufficient permission");
    // Not even with the other errors forgiven, nor with herself among the principals.
    let forgiving = [("authorization_errors_fatal", "false")];
    refused(subscribe(&api, &ada, &["town"], &[ada_id, bob_id], &forgiving), "Insufficient permission");
    assert_eq!(members(&api, &owner, town), json!([owner_id]), "nothing changed");
    let joined = subscribe(&api, &ada, &["town"], &[], &[]).ok();
    assert_eq!(joined["subscribed"], json!({ada_id.to_string(): ["town"]}));

    // The channel's own group lets Ada add others.
    let ada_only = only(&[ada_id]);
    patch_channel(&api, &owner, town, &[("can_add_subscribers_group", &change_to(&ada_only))]).ok();
    let added = subscribe(&api, &ada, &["town"], &[bob_id, ada_id], &[]).ok();
    assert_eq!(added["subscribed"], json!({bob_id.to_string(): ["town"]}));
    assert_eq!(added["already_subscribed"], json!({ada_id.to_string(): ["town"]}));
    assert_eq!(added["new_subscription_messages_sent"], true);

    // So does administering the channel: Cat made this one.
    create(&api, &cat, "cats", &[cat_id], &[]);
    subscribe(&api, &cat, &["cats"], &[bob_id], &[]).ok();
    refused(subscribe(&api, &bob, &["cats"], &[ada_id], &[]), "Insufficient permission");
    // And being an organization administrator.
    subscribe(&api, &owner, &["cats"], &[ada_id], &[]).ok();
    // A channel created by the request is the creator's to fill.
    let made = subscribe(&api, &bob, &["bobs"], &[cat_id], &[]).ok();
    assert_eq!(made["subscribed"], json!({cat_id.to_string(): ["bobs"]}));

    // The organization's group lets anyone in it add others anywhere they can read.
    let members_group = system_group(&api, &owner, "role:members").to_string();
    api.patch("/realm", Some(&owner), &[("can_add_subscribers_group", &change_to(&members_group))]).ok();
    subscribe(&api, &bob, &["cats"], &[cat_id, owner_id], &[]).ok();

    // Guests may not use the endpoint at all.
    api.patch(&format!("/users/{cat_id}"), Some(&owner), &[("role", "600")]).ok();
    refused(subscribe(&api, &cat, &["town"], &[], &[]), "Not allowed for guest users");
}

#[test]
fn private_channels_take_content_access_to_add_anyone() {
    let Org { server, owner, ada, bob, cat, ids: [owner_id, ada_id, bob_id, cat_id] } = org();
    let api = server.api();
    // Otherwise every member may add others to any channel they can read.
    let nobody = system_group(&api, &owner, "role:nobody").to_string();
    api.patch("/realm", Some(&owner), &[("can_add_subscribers_group", &change_to(&nobody))]).ok();
    let vault = create(&api, &owner, "vault", &[owner_id], &[("invite_only", "true")]);
    refused(subscribe(&api, &ada, &["vault"], &[], &[]), "Unable to access channel (vault).");
    let forgiving = subscribe(&api, &ada, &["vault"], &[], &[("authorization_errors_fatal", "false")]).ok();
    assert_eq!(forgiving["unauthorized"], json!(["vault"]));
    assert_eq!(forgiving["subscribed"], json!({}));

    // `can_subscribe_group`: Ada may join, but not bring Bob.
    let ada_only = only(&[ada_id]);
    patch_channel(&api, &owner, vault, &[("can_subscribe_group", &change_to(&ada_only))]).ok();
    refused(subscribe(&api, &ada, &["vault"], &[bob_id], &[]), "Insufficient permission");
    subscribe(&api, &ada, &["vault"], &[], &[]).ok();

    // `can_add_subscribers_group`: Bob may bring others without being subscribed himself.
    let bob_only = only(&[bob_id]);
    patch_channel(&api, &owner, vault, &[("can_add_subscribers_group", &change_to(&bob_only))]).ok();
    subscribe(&api, &bob, &["vault"], &[cat_id], &[]).ok();
    assert_eq!(members(&api, &owner, vault), json!([owner_id, ada_id, cat_id]));

    // Administering a private channel shows it, but gives no access to its content.
    let admins = create(&api, &owner, "admins only", &[owner_id], &[("invite_only", "true")]);
    let cat_only = only(&[cat_id]);
    patch_channel(&api, &owner, admins, &[("can_administer_channel_group", &change_to(&cat_only))]).ok();
    refused(
        subscribe(&api, &cat, &["admins only"], &[bob_id], &[]),
        "Unable to access channel (admins only).",
    );
    // Nor does administering the organization.
    let mine = create(&api, &ada, "adas", &[ada_id], &[("invite_only", "true")]);
    refused(subscribe(&api, &owner, &["adas"], &[bob_id], &[]), "Unable to access channel (adas).");
    assert_eq!(members(&api, &owner, mine), json!([ada_id]));
}

#[test]
fn removing_others_takes_administration_or_the_channels_group() {
    let Org { server, owner, ada, bob, cat, ids: [owner_id, ada_id, bob_id, cat_id] } = org();
    let api = server.api();
    let town = create(&api, &owner, "town", &[owner_id, bob_id, cat_id], &[]);
    refused(unsubscribe(&api, &ada, &["town"], &[bob_id]), "Insufficient permission");
    let ada_only = only(&[ada_id]);
    patch_channel(&api, &owner, town, &[("can_remove_subscribers_group", &change_to(&ada_only))]).ok();
    let removed = unsubscribe(&api, &ada, &["town"], &[bob_id]).ok();
    assert_eq!((removed["removed"].clone(), removed["not_removed"].clone()), (json!(["town"]), json!([])));

    // A channel's administrators remove anyone from it.
    create(&api, &bob, "bobs", &[bob_id, cat_id], &[]);
    unsubscribe(&api, &bob, &["bobs"], &[cat_id]).ok();
    // Organization administrators anywhere, even where they are not subscribed.
    let vault = create(&api, &ada, "vault", &[ada_id, cat_id], &[("invite_only", "true")]);
    unsubscribe(&api, &owner, &["vault"], &[cat_id]).ok();
    // The group alone is not enough where the channel is hidden from its member.
    let bob_only = only(&[bob_id]);
    patch_channel(&api, &ada, vault, &[("can_remove_subscribers_group", &change_to(&bob_only))]).ok();
    refused(unsubscribe(&api, &bob, &["vault"], &[ada_id]), "Insufficient permission");
    // Every channel of the request must allow it.
    patch_channel(&api, &owner, town, &[("can_remove_subscribers_group", &change_to(&bob_only))]).ok();
    subscribe(&api, &owner, &["town"], &[ada_id], &[]).ok();
    refused(unsubscribe(&api, &bob, &["town", "vault"], &[ada_id]), "Insufficient permission");
    unsubscribe(&api, &bob, &["town"], &[ada_id]).ok();
    // Anyone may leave, and leaving a channel one is not in changes nothing.
    let left = unsubscribe(&api, &cat, &["town", "vault"], &[]).ok();
    assert_eq!((left["removed"].clone(), left["not_removed"].clone()), (json!(["town"]), json!(["vault"])));
}

#[test]
fn channel_groups_open_a_private_channel_to_its_members() {
    let Org { server, owner, ada, bob, cat, ids: [owner_id, ada_id, _, cat_id] } = org();
    let api = server.api();
    let watch = |who: &Creds| {
        api.post(
            "/register",
            Some(who),
            &[("event_types", r#"["stream"]"#), ("fetch_event_types", r#"["subscription"]"#)],
        )
        .ok()
    };
    let ada_only = only(&[ada_id]);
    let cat_only = only(&[cat_id]);
    let vault = create(
        &api,
        &owner,
        "vault",
        &[owner_id],
        &[
            ("invite_only", "true"),
            ("history_public_to_subscribers", "true"),
            ("can_subscribe_group", &ada_only),
            ("can_administer_channel_group", &cat_only),
        ],
    );
    let said = [("type", "stream"), ("to", "vault"), ("topic", "plans"), ("content", "The plan")];
    api.post("/messages", Some(&owner), &said).ok();

    // Ada (may join) reads and posts; Cat (administers) sees the channel but not its messages;
    // Bob sees nothing.
    let read = |who: &Creds| {
        let narrow = r#"[{"operator": "channel", "operand": "vault"}]"#;
        let params = [("anchor", "newest"), ("num_before", "10"), ("num_after", "0"), ("narrow", narrow)];
        api.get("/messages", Some(who), &params)
    };
    let contents: Vec<Value> =
        read(&ada).ok()["messages"].as_array().expect("list").iter().map(|m| m["content"].clone()).collect();
    assert_eq!(contents.last(), Some(&json!("<p>The plan</p>")), "after the creation notice");
    assert_eq!(read(&cat).ok()["messages"], json!([]));
    let reply = [("type", "stream"), ("to", "vault"), ("topic", "plans"), ("content", "Agreed")];
    api.post("/messages", Some(&ada), &reply).ok();
    refused(api.post("/messages", Some(&cat), &reply), "Not authorized to send to channel 'vault'");

    for (who, sees) in [(&ada, true), (&cat, true), (&bob, false)] {
        let state = watch(who);
        let never: Vec<&Value> =
            state["never_subscribed"].as_array().expect("list").iter().map(|s| &s["name"]).collect();
        assert_eq!(never.contains(&&json!("vault")), sees, "{} in never_subscribed", who.email);
        let all = api.get("/streams", Some(who), &[("include_all", "true")]).ok();
        let listed = all["streams"].as_array().expect("list").iter().any(|s| s["stream_id"] == vault);
        assert_eq!(listed, sees, "{} in GET /streams?include_all", who.email);
        let by_id = api.get(&format!("/streams/{vault}"), Some(who), &[]);
        if sees {
            assert_eq!(by_id.ok()["stream"]["subscriber_count"], 1);
        } else {
            refused(by_id, "Invalid channel ID");
        }
    }
    let content = api.get("/streams", Some(&cat), &[("include_can_access_content", "true")]).ok();
    assert!(!content["streams"].as_array().expect("list").iter().any(|s| s["stream_id"] == vault));

    // Its watchers hear of its changes: Cat administers it without being subscribed.
    let cats = watch(&cat);
    let bobs = watch(&bob);
    patch_channel(&api, &cat, vault, &[("description", "Plans")]).ok();
    let events = api.queued(&cat, &cats)["events"].clone();
    assert_eq!(events[0]["op"], "update");
    assert_eq!(events[0]["property"], "description");
    assert_eq!(events[0]["value"], "Plans");
    assert_eq!(api.queued(&bob, &bobs)["events"], json!([]));
    // Who may read the channel is the content's business: administering is not enough.
    let bob_id = api.user_id(&bob);
    let bob_only = only(&[bob_id]);
    refused(
        patch_channel(&api, &cat, vault, &[("can_subscribe_group", &change_to(&bob_only))]),
        "Channel content access is required.",
    );
    refused(
        patch_channel(&api, &cat, vault, &[("is_private", "false")]),
        "Channel content access is required.",
    );
}

#[test]
fn subscribing_creates_channels_with_every_setting_channels_create_takes() {
    let Org { server, owner, ada, ids: [owner_id, ada_id, ..], .. } = org();
    let api = server.api();
    let owner_only = only(&[owner_id]);
    let settings = [
        ("topics_policy", "disable_empty_topic"),
        ("can_send_message_group", owner_only.as_str()),
        ("can_move_messages_within_channel_group", owner_only.as_str()),
        ("can_move_messages_out_of_channel_group", owner_only.as_str()),
        ("can_resolve_topics_group", owner_only.as_str()),
        ("can_delete_own_message_group", owner_only.as_str()),
        ("can_subscribe_group", owner_only.as_str()),
    ];
    subscribe(&api, &owner, &["rules"], &[owner_id, ada_id], &settings).ok();
    let listed = api.get("/streams", Some(&ada), &[]).ok();
    let rules =
        listed["streams"].as_array().expect("list").iter().find(|s| s["name"] == "rules").expect("made");
    assert_eq!(rules["topics_policy"], "disable_empty_topic");
    for (setting, _) in &settings[1..] {
        assert_eq!(
            rules[*setting],
            json!({"direct_members": [owner_id], "direct_subgroups": []}),
            "{setting}"
        );
    }
    refused(
        api.post(
            "/messages",
            Some(&ada),
            &[("type", "stream"), ("to", "rules"), ("topic", "t"), ("content", "hi")],
        ),
        "You do not have permission to post in this channel.",
    );

    // Values are checked as `POST /channels/create` checks them, channels made or not.
    for (params, msg) in [
        ([("topics_policy", "sometimes")], "Invalid topics_policy"),
        ([("can_send_message_group", "99999")], "Invalid user group ID: 99999"),
        ([("can_send_message_group", r#""x""#)], "can_send_message_group is not an integer or a dict"),
        ([("message_retention_days", "zero")], "Bad value for 'message_retention_days': zero"),
    ] {
        refused(subscribe(&api, &owner, &["general"], &[], &params), msg);
    }

    // Who may set the topics and deletion policies: the organization decides.
    let members = system_group(&api, &owner, "role:members").to_string();
    let nobody = system_group(&api, &owner, "role:nobody").to_string();
    let moderators = system_group(&api, &owner, "role:moderators").to_string();
    let state = api.post("/register", Some(&ada), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(state["realm_can_set_topics_policy_group"].to_string(), members);
    assert_eq!(state["realm_can_set_delete_message_policy_group"].to_string(), moderators);
    let everyone_deletes = system_group(&api, &owner, "role:everyone").to_string();
    refused(
        subscribe(&api, &ada, &["hers"], &[], &[("can_delete_own_message_group", everyone_deletes.as_str())]),
        "Insufficient permission",
    );
    subscribe(&api, &ada, &["hers"], &[], &[("can_delete_own_message_group", nobody.as_str())]).ok();
    subscribe(&api, &ada, &["also hers"], &[], &[("topics_policy", "allow_empty_topic")]).ok();
    let administrators = system_group(&api, &owner, "role:administrators").to_string();
    api.patch("/realm", Some(&owner), &[("can_set_topics_policy_group", &change_to(&administrators))]).ok();
    refused(
        subscribe(&api, &ada, &["not hers"], &[], &[("topics_policy", "allow_empty_topic")]),
        "Insufficient permission",
    );
    subscribe(&api, &ada, &["hers too"], &[], &[("topics_policy", "inherit")]).ok();

    // The same rules when the channel's administrator changes them later.
    let hers =
        api.get("/get_stream_id", Some(&ada), &[("stream", "hers")]).ok()["stream_id"].as_u64().expect("id");
    refused(
        patch_channel(&api, &ada, hers, &[("topics_policy", "empty_topic_only")]),
        "Insufficient permission",
    );
    refused(
        patch_channel(&api, &ada, hers, &[("can_delete_any_message_group", &change_to(&members))]),
        "Insufficient permission",
    );
    patch_channel(&api, &owner, hers, &[("topics_policy", "empty_topic_only")]).ok();
    patch_channel(&api, &owner, hers, &[("can_delete_any_message_group", &change_to(&members))]).ok();
}

#[test]
fn users_added_by_someone_else_are_told_unless_asked_not_to() {
    let Org { server, owner, bob, cat, ids: [_, _, bob_id, cat_id], .. } = org();
    let api = server.api();
    let notices = |who: &Creds| {
        let narrow = r#"[{"operator": "is", "operand": "dm"}]"#;
        let params = [("anchor", "newest"), ("num_before", "10"), ("num_after", "0"), ("narrow", narrow)];
        api.get("/messages", Some(who), &params).ok()["messages"].as_array().expect("list").len()
    };
    create(&api, &owner, "news", &[], &[]);
    let quiet =
        subscribe(&api, &owner, &["news"], &[bob_id], &[("send_new_subscription_messages", "false")]).ok();
    assert_eq!(quiet["subscribed"], json!({bob_id.to_string(): ["news"]}));
    assert!(quiet.get("new_subscription_messages_sent").is_none(), "{quiet}");
    assert_eq!(notices(&bob), 0);
    let told = subscribe(&api, &owner, &["news"], &[cat_id], &[]).ok();
    assert_eq!(told["new_subscription_messages_sent"], true);
    assert_eq!(notices(&cat), 1);
    refused(
        subscribe(&api, &owner, &["news"], &[cat_id], &[("send_new_subscription_messages", "maybe")]),
        "send_new_subscription_messages is not valid JSON",
    );
    let state = api.post("/register", Some(&bob), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(state["max_bulk_new_subscription_messages"], 100);
}

#[test]
fn subscriber_lists_leave_out_deactivated_users_and_say_how_many_there_are() {
    let Org { server, owner, ada, ids: [owner_id, ada_id, bob_id, cat_id], .. } = org();
    let api = server.api();
    let town = create(&api, &owner, "town", &[owner_id, ada_id, bob_id], &[]);
    let old = create(&api, &owner, "old", &[owner_id, bob_id], &[]);
    api.delete(&format!("/streams/{old}"), Some(&owner), &[]).ok();
    let count = |who: &Creds, id: u64| {
        api.get(&format!("/streams/{id}"), Some(who), &[]).ok()["stream"]["subscriber_count"].clone()
    };
    assert_eq!(count(&ada, town), 3);
    let queue = api
        .post(
            "/register",
            Some(&ada),
            &[
                ("event_types", r#"["subscription"]"#),
                ("include_subscribers", "true"),
                ("client_capabilities", r#"{"archived_channels": true}"#),
            ],
        )
        .ok();
    let sub =
        queue["subscriptions"].as_array().expect("list").iter().find(|s| s["stream_id"] == town).cloned();
    let sub = sub.expect("subscribed");
    assert_eq!(
        (sub["subscribers"].clone(), sub["subscriber_count"].clone()),
        (json!([owner_id, ada_id, bob_id]), json!(3))
    );

    api.delete(&format!("/users/{bob_id}"), Some(&owner), &[]).ok();
    // Every channel of Bob's, the archived one too, loses him for those who see it.
    let events = api.queued(&ada, &queue)["events"].clone();
    let general = api.get("/get_stream_id", Some(&ada), &[("stream", "general")]).ok()["stream_id"].clone();
    assert_eq!(
        events,
        json!([
            {"id": 0, "type": "subscription", "op": "peer_remove", "stream_ids": [general], "user_ids": [bob_id]},
            {"id": 1, "type": "subscription", "op": "peer_remove", "stream_ids": [town], "user_ids": [bob_id]},
            {"id": 2, "type": "subscription", "op": "peer_remove", "stream_ids": [old], "user_ids": [bob_id]},
        ])
    );
    assert_eq!(members(&api, &ada, town), json!([owner_id, ada_id]));
    assert_eq!(count(&ada, town), 2);
    let state = api.post("/register", Some(&ada), &[("include_subscribers", "true")]).ok();
    let sub =
        state["subscriptions"].as_array().expect("list").iter().find(|s| s["stream_id"] == town).cloned();
    assert_eq!(sub.expect("subscribed")["subscribers"], json!([owner_id, ada_id]));
    let listed =
        api.get("/users/me/subscriptions", Some(&ada), &[("include_subscribers", "true")]).ok()["subscriptions"]
            .clone();
    let sub =
        listed.as_array().expect("list").iter().find(|s| s["stream_id"] == town).cloned().expect("listed");
    assert_eq!(
        (sub["subscribers"].clone(), sub["subscriber_count"].clone()),
        (json!([owner_id, ada_id]), json!(2))
    );

    // The others are told of a new subscriber.
    let cats = api.post("/register", Some(&owner), &[("event_types", r#"["subscription"]"#)]).ok();
    subscribe(&api, &owner, &["town"], &[cat_id], &[]).ok();
    let peers = api.queued(&owner, &cats)["events"].clone();
    assert_eq!(peers[0]["op"], "peer_add");
    assert_eq!(peers[0]["user_ids"], json!([cat_id]));

    let back = api.post("/register", Some(&ada), &[("event_types", r#"["subscription"]"#)]).ok();
    api.post(&format!("/users/{bob_id}/reactivate"), Some(&owner), &[]).ok();
    let events = api.queued(&ada, &back)["events"].clone();
    let ops: Vec<(Value, Value)> =
        events.as_array().expect("list").iter().map(|e| (e["op"].clone(), e["stream_ids"].clone())).collect();
    assert_eq!(
        ops,
        vec![
            (json!("peer_add"), json!([general])),
            (json!("peer_add"), json!([town])),
            (json!("peer_add"), json!([old]))
        ]
    );
    assert_eq!(count(&ada, town), 4);
}

#[test]
fn subscriptions_list_partial_subscribers_as_register_does() {
    let Org { server, owner, ids: [owner_id, ada_id, ..], .. } = org();
    let api = server.api();
    let town = create(&api, &owner, "town", &[owner_id, ada_id], &[]);
    for include in ["partial", "true"] {
        let listed =
            api.get("/users/me/subscriptions", Some(&owner), &[("include_subscribers", include)]).ok();
        let sub = listed["subscriptions"].as_array().expect("list").iter().find(|s| s["stream_id"] == town);
        let sub = sub.expect("subscribed");
        // A small channel lists them all, as register does under `partial`.
        assert_eq!(sub["subscribers"], json!([owner_id, ada_id]), "{include}");
        assert!(sub.get("partial_subscribers").is_none());
    }
    let plain = api.get("/users/me/subscriptions", Some(&owner), &[]).ok();
    assert!(plain["subscriptions"][0].get("subscribers").is_none());
    refused(
        api.get("/users/me/subscriptions", Some(&owner), &[("include_subscribers", "some")]),
        "Invalid include_subscribers",
    );
}

#[test]
fn a_new_user_joining_the_default_channels_is_announced_to_their_subscribers() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let queue = api.post("/register", Some(&owner), &[("event_types", r#"["subscription"]"#)]).ok();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let ada_id = api.user_id(&ada);
    let general = api.get("/get_stream_id", Some(&owner), &[("stream", "general")]).ok()["stream_id"].clone();
    let events = api.queued(&owner, &queue)["events"].clone();
    let joined = events.as_array().expect("events").iter().find(|e| e["op"] == "peer_add").cloned();
    let joined = joined.expect("a peer_add");
    assert_eq!(joined["stream_ids"], serde_json::json!([general]));
    assert_eq!(joined["user_ids"], serde_json::json!([ada_id]));
}

#[test]
fn content_access_through_a_group_lets_a_non_subscriber_act_on_messages() {
    let Org { server, owner, ada, bob, ids: [owner_id, ada_id, _, _], .. } = org();
    let api = server.api();
    api.patch("/realm", Some(&owner), &[("enable_read_receipts", "true")]).ok();
    let ada_only = only(&[ada_id]);
    create(
        &api,
        &owner,
        "vault",
        &[owner_id],
        &[
            ("invite_only", "true"),
            ("history_public_to_subscribers", "true"),
            ("can_subscribe_group", &ada_only),
        ],
    );
    let send = |who: &Creds, content: &str| {
        let params = [("type", "stream"), ("to", "vault"), ("topic", "plans"), ("content", content)];
        api.post("/messages", Some(who), &params).ok()["id"].as_u64().expect("id")
    };
    let poll = send(&owner, "/poll Where?\n- Here\n- There");
    // Feature level 354: Ada may join, so she reaches the channel's content unsubscribed.
    let mine = send(&ada, "Here, I think");
    let vote = json!({"type": "vote", "key": "canned,0", "vote": 1}).to_string();
    let poll_id = poll.to_string();
    let (poll_path, mine_path) = (format!("/messages/{poll}"), format!("/messages/{mine}"));
    // A method, a path and its parameters.
    type Request<'a> = (&'a str, String, Vec<(&'a str, &'a str)>);
    let acts: [Request; 6] = [
        ("GET", format!("{poll_path}/read_receipts"), vec![]),
        ("POST", format!("{poll_path}/reactions"), vec![("emoji_name", "tada")]),
        ("DELETE", format!("{poll_path}/reactions"), vec![("emoji_name", "tada")]),
        (
            "POST",
            "/submessage".to_owned(),
            vec![("message_id", &poll_id), ("msg_type", "widget"), ("content", &vote)],
        ),
        ("PATCH", mine_path.clone(), vec![("content", "There, I think")]),
        ("POST", format!("{mine_path}/typing"), vec![("op", "start")]),
    ];
    let act = |who: &Creds, (method, path, params): &Request| match *method {
        "GET" => api.get(path, Some(who), params),
        "POST" => api.post(path, Some(who), params),
        "PATCH" => api.patch(path, Some(who), params),
        _ => api.delete(path, Some(who), params),
    };
    for done in &acts {
        act(&ada, done).ok();
    }
    assert_eq!(api.get(&mine_path, Some(&owner), &[]).ok()["message"]["content"], "<p>There, I think</p>");
    let votes = api.get(&poll_path, Some(&owner), &[]).ok()["message"]["submessages"].clone();
    assert_eq!(votes.as_array().map(Vec::len), Some(2), "the widget and Ada's vote: {votes}");

    // Bob is in no group of the channel: to him the messages do not exist.
    for refused in &acts[..4] {
        assert_eq!(
            act(&bob, refused).error(400, "BAD_REQUEST")["msg"],
            "Invalid message(s)",
            "{}",
            refused.1
        );
    }
}
