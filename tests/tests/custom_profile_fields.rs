//! Custom profile fields: administrators define them (every type Zulip has, its limits and
//! errors), everyone reads them and sets their own values (checked by type, Markdown
//! rendered), administrators set anyone's; every change reaches clients as events.

use confab_tests::{Creds, TestServer};
use serde_json::{Value, json};

fn create(api: &confab_tests::Api, admin: &Creds, params: &[(&str, &str)]) -> u64 {
    api.post("/realm/profile_fields", Some(admin), params).ok()["id"].as_u64().expect("id")
}

fn refused(reply: confab_tests::Reply) -> String {
    reply.error(400, "BAD_REQUEST")["msg"].as_str().expect("msg").to_owned()
}

#[test]
fn administrators_define_fields_of_every_type() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["custom_profile_fields"]"#)]).ok();
    assert_eq!(queue["custom_profile_fields"], json!([]));
    assert_eq!(queue["custom_profile_field_types"]["SHORT_TEXT"], json!({"id": 1, "name": "Text (short)"}));
    assert_eq!(queue["custom_profile_field_types"]["USER"], json!({"id": 6, "name": "Users"}));
    assert_eq!(queue["custom_profile_field_types"].as_object().expect("types").len(), 8);

    let phone = create(&api, &owner, &[("name", " Phone "), ("hint", "Work number"), ("field_type", "1")]);
    let bio = create(&api, &owner, &[("name", "Biography"), ("field_type", "2")]);
    let editors = r#"{"vim": {"text": "Vim", "order": "2"}, "emacs": {"text": "Emacs", "order": "1"}}"#;
    let editor = create(
        &api,
        &owner,
        &[
            ("name", "Editor"),
            ("field_type", "3"),
            ("field_data", editors),
            ("display_in_profile_summary", "true"),
        ],
    );
    let birthday = create(&api, &owner, &[("name", "Birthday"), ("field_type", "4"), ("required", "true")]);
    let website = create(&api, &owner, &[("name", "Website"), ("field_type", "5")]);
    let mentor =
        create(&api, &owner, &[("name", "Mentor"), ("field_type", "6"), ("editable_by_user", "false")]);
    // A default service: its label and hint come from Zulip's table, whatever is sent.
    let github = create(
        &api,
        &owner,
        &[("name", "ignored"), ("field_type", "7"), ("field_data", r#"{"subtype": "github"}"#)],
    );
    let custom_account = r#"{"subtype": "custom", "url_pattern": "https://lists.example/%(username)s"}"#;
    let lists =
        create(&api, &owner, &[("name", "Lists"), ("field_type", "7"), ("field_data", custom_account)]);
    let pronouns = create(&api, &owner, &[("name", "Pronouns"), ("field_type", "8")]);

    let listed = api.get("/realm/profile_fields", Some(&ada), &[]).ok();
    let fields = listed["custom_fields"].as_array().expect("custom_fields");
    assert_eq!(fields.len(), 9);
    assert_eq!(
        fields[0],
        json!({"id": phone, "name": "Phone", "type": 1, "hint": "Work number", "field_data": "", "order": phone,
               "required": false, "editable_by_user": true})
    );
    assert_eq!(
        fields[2],
        json!({"id": editor, "name": "Editor", "type": 3, "hint": "",
               "field_data": r#"{"vim":{"text":"Vim","order":"2"},"emacs":{"text":"Emacs","order":"1"}}"#,
               "order": editor, "required": false, "editable_by_user": true, "display_in_profile_summary": true})
    );
    assert_eq!(fields[3]["required"], true);
    assert_eq!(fields[5]["editable_by_user"], false);
    assert_eq!(fields[6]["name"], "GitHub username");
    assert_eq!(fields[6]["field_data"], r#"{"subtype":"github"}"#);
    assert_eq!(
        fields[7]["field_data"],
        r#"{"subtype":"custom","url_pattern":"https://lists.example/%(username)s"}"#
    );
    let ids: Vec<u64> = fields.iter().map(|f| f["id"].as_u64().expect("id")).collect();
    assert_eq!(ids, vec![phone, bio, editor, birthday, website, mentor, github, lists, pronouns]);

    let events = api.queued(&ada, &queue)["events"].clone();
    assert_eq!(events.as_array().expect("events").len(), 9);
    assert_eq!(events[8]["type"], "custom_profile_fields");
    assert_eq!(events[8]["fields"], listed["custom_fields"]);

    // Reordering takes every field's id.
    let mut reversed = ids.clone();
    reversed.reverse();
    let order = json!(reversed).to_string();
    api.patch("/realm/profile_fields", Some(&owner), &[("order", order.as_str())]).ok();
    let listed = api.get("/realm/profile_fields", Some(&ada), &[]).ok();
    assert_eq!(listed["custom_fields"][0]["id"], pronouns);
    assert_eq!(listed["custom_fields"][0]["order"], 0);
    let partial = json!([phone]).to_string();
    assert_eq!(
        refused(api.patch("/realm/profile_fields", Some(&owner), &[("order", partial.as_str())])),
        "Invalid order mapping."
    );

    // Updating changes what is sent; a default service's label stays.
    let path = format!("/realm/profile_fields/{phone}");
    api.patch(&path, Some(&owner), &[("name", "Mobile"), ("editable_by_user", "false")]).ok();
    let listed = api.get("/realm/profile_fields", Some(&ada), &[]).ok();
    let mobile =
        listed["custom_fields"].as_array().expect("fields").iter().find(|f| f["id"] == phone).cloned();
    let mobile = mobile.expect("the field");
    assert_eq!((mobile["name"].clone(), mobile["hint"].clone()), (json!("Mobile"), json!("Work number")));
    assert_eq!(mobile["editable_by_user"], false);
    let github_path = format!("/realm/profile_fields/{github}");
    assert_eq!(
        refused(api.patch(&github_path, Some(&owner), &[("name", "Code")])),
        "Default custom field cannot be updated."
    );
    api.patch(
        &github_path,
        Some(&owner),
        &[("name", "GitHub username"), ("display_in_profile_summary", "true")],
    )
    .ok();
    assert_eq!(
        refused(api.patch(
            &format!("/realm/profile_fields/{website}"),
            Some(&owner),
            &[("display_in_profile_summary", "true")]
        )),
        "Only 2 custom profile fields can be displayed in the profile summary."
    );

    // Deleting removes the field.
    api.delete(&format!("/realm/profile_fields/{bio}"), Some(&owner), &[]).ok();
    let listed = api.get("/realm/profile_fields", Some(&ada), &[]).ok();
    assert!(listed["custom_fields"].as_array().expect("fields").iter().all(|f| f["id"] != bio));
    assert_eq!(
        refused(api.delete(&format!("/realm/profile_fields/{bio}"), Some(&owner), &[])),
        format!("Field id {bio} not found.")
    );
}

#[test]
fn field_definitions_are_checked_with_zulips_errors() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let post = |params: &[(&str, &str)]| refused(api.post("/realm/profile_fields", Some(&owner), params));
    assert_eq!(post(&[("name", "  "), ("field_type", "1")]), "Label cannot be blank.");
    assert_eq!(
        post(&[("name", &"n".repeat(41)), ("field_type", "1")]),
        "name is too long (limit: 40 characters)"
    );
    let long_hint = "h".repeat(81);
    assert_eq!(
        post(&[("name", "N"), ("hint", long_hint.as_str()), ("field_type", "1")]),
        "hint is too long (limit: 80 characters)"
    );
    assert_eq!(post(&[("name", "N"), ("field_type", "9")]), "Invalid field type.");
    let missing = api.post("/realm/profile_fields", Some(&owner), &[("name", "N")]);
    assert_eq!(missing.error(400, "REQUEST_VARIABLE_MISSING")["msg"], "Missing 'field_type' argument");
    assert_eq!(post(&[("name", "N"), ("field_type", "3")]), "Field must have at least one choice.");
    assert_eq!(
        post(&[("name", "N"), ("field_type", "3"), ("field_data", r#"{"a": {"text": "A"}}"#)]),
        "order key is missing from field_data"
    );
    assert_eq!(
        post(&[("name", "N"), ("field_type", "7"), ("field_data", r#"{"subtype": "myspace"}"#)]),
        "Invalid external account type"
    );
    assert_eq!(
        post(&[("name", "N"), ("field_type", "2"), ("display_in_profile_summary", "true")]),
        "Field type not supported for display in profile summary."
    );
    assert_eq!(
        post(&[("name", "N"), ("field_type", "1"), ("field_data", "[1]")]),
        "field_data is not a dict"
    );
    create(&api, &owner, &[("name", "Team"), ("field_type", "1")]);
    assert_eq!(post(&[("name", "Team"), ("field_type", "2")]), "A field with that label already exists.");

    // Members read the fields but may not change them.
    let denied = api.post("/realm/profile_fields", Some(&ada), &[("name", "X"), ("field_type", "1")]);
    assert_eq!(denied.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");
    let denied = api.patch("/realm/profile_fields", Some(&ada), &[("order", "[]")]);
    assert_eq!(denied.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");
    let denied = api.delete("/realm/profile_fields/1", Some(&ada), &[]);
    assert_eq!(denied.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");
    assert_eq!(
        api.get("/realm/profile_fields", Some(&ada), &[]).ok()["custom_fields"].as_array().map(Vec::len),
        Some(1)
    );
    assert_eq!(
        refused(api.patch("/realm/profile_fields/999", Some(&owner), &[("name", "X")])),
        "Field id 999 not found."
    );
}

#[test]
fn users_set_their_values_and_administrators_anyones() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let bob = api.create_user(&owner, "bob@example.com", "Bob");
    let team = create(&api, &owner, &[("name", "Team"), ("field_type", "1")]);
    let bio = create(&api, &owner, &[("name", "Bio"), ("field_type", "2")]);
    let editors = r#"{"vim": {"text": "Vim", "order": "1"}, "emacs": {"text": "Emacs", "order": "2"}}"#;
    let editor = create(&api, &owner, &[("name", "Editor"), ("field_type", "3"), ("field_data", editors)]);
    let birthday = create(&api, &owner, &[("name", "Birthday"), ("field_type", "4")]);
    let website = create(&api, &owner, &[("name", "Website"), ("field_type", "5")]);
    let mentor = create(&api, &owner, &[("name", "Mentor"), ("field_type", "6")]);
    let badge =
        create(&api, &owner, &[("name", "Badge"), ("field_type", "1"), ("editable_by_user", "false")]);
    let bob_queue = api.post("/register", Some(&bob), &[("event_types", r#"["realm_user"]"#)]).ok();

    let ada_id = api.get("/users/me", Some(&ada), &[]).ok()["user_id"].as_u64().expect("id");
    let bob_id = api.get("/users/me", Some(&bob), &[]).ok()["user_id"].as_u64().expect("id");
    let data = json!([
        {"id": team, "value": "**Core**"},
        {"id": editor, "value": "vim"},
        {"id": birthday, "value": "1815-12-10"},
        {"id": website, "value": "https://ada.example"},
        {"id": mentor, "value": [bob_id]},
    ])
    .to_string();
    api.patch("/users/me/profile_data", Some(&ada), &[("data", data.as_str())]).ok();
    let me = api.get("/users/me", Some(&ada), &[]).ok();
    assert_eq!(
        me["profile_data"],
        json!({
            team.to_string(): {"value": "**Core**", "rendered_value": "<p><strong>Core</strong></p>"},
            editor.to_string(): {"value": "vim"},
            birthday.to_string(): {"value": "1815-12-10"},
            website.to_string(): {"value": "https://ada.example"},
            mentor.to_string(): {"value": format!("[{bob_id}]")},
        })
    );
    let events = api.queued(&bob, &bob_queue)["events"].clone();
    assert_eq!(events.as_array().map(Vec::len), Some(5));
    assert_eq!(
        events[0],
        json!({"id": events[0]["id"], "type": "realm_user", "op": "update", "person": {"user_id": ada_id,
               "custom_profile_field": {"id": team, "value": "**Core**", "rendered_value": "<p><strong>Core</strong></p>"}}})
    );
    assert_eq!(
        events[4]["person"]["custom_profile_field"],
        json!({"id": mentor, "value": format!("[{bob_id}]")})
    );

    // Values show in user lists only when asked for, and always in register.
    let users = api.get("/users", Some(&bob), &[]).ok();
    assert!(users["members"][0].get("profile_data").is_none());
    let users = api.get("/users", Some(&bob), &[("include_custom_profile_fields", "true")]).ok();
    let shown =
        users["members"].as_array().expect("members").iter().find(|u| u["user_id"] == ada_id).cloned();
    assert_eq!(shown.expect("ada")["profile_data"], me["profile_data"]);
    let one =
        api.get(&format!("/users/{ada_id}"), Some(&bob), &[("include_custom_profile_fields", "true")]).ok();
    assert_eq!(one["user"]["profile_data"], me["profile_data"]);
    let state = api.post("/register", Some(&bob), &[("fetch_event_types", r#"["realm_user"]"#)]).ok();
    let shown =
        state["realm_users"].as_array().expect("users").iter().find(|u| u["user_id"] == ada_id).cloned();
    assert_eq!(shown.expect("ada")["profile_data"], me["profile_data"]);

    // Each type checks its values with Zulip's texts.
    let set = |who: &Creds, id: u64, value: Value| {
        let data = json!([{"id": id, "value": value}]).to_string();
        api.patch("/users/me/profile_data", Some(who), &[("data", data.as_str())])
    };
    assert_eq!(refused(set(&ada, team, json!("x".repeat(51)))), "Team is too long (limit: 50 characters)");
    assert_eq!(refused(set(&ada, bio, json!("x".repeat(501)))), "Bio is too long (limit: 500 characters)");
    assert_eq!(refused(set(&ada, team, json!([1]))), "Team is not a string");
    assert_eq!(refused(set(&ada, editor, json!("nano"))), "'nano' is not a valid choice for 'Editor'.");
    assert_eq!(refused(set(&ada, birthday, json!("1815-02-30"))), "Birthday is not a date");
    assert_eq!(refused(set(&ada, website, json!("ada.example"))), "Website is not a URL");
    assert_eq!(refused(set(&ada, mentor, json!("bob"))), "User IDs is not a list");
    assert_eq!(refused(set(&ada, mentor, json!([bob_id, 9999, 9998]))), "Invalid user IDs: 9999, 9998");
    let added = api.post("/bots", Some(&owner), &[("full_name", "Helper"), ("short_name", "helper")]).ok();
    let bot = added["user_id"].as_u64().expect("bot id");
    let bot_email = api.get(&format!("/users/{bot}"), Some(&owner), &[]).ok()["user"]["email"].clone();
    let bot_creds = Creds {
        email: bot_email.as_str().expect("email").to_owned(),
        api_key: added["api_key"].as_str().expect("api_key").to_owned(),
    };
    assert_eq!(refused(set(&ada, mentor, json!([bot]))), format!("User with ID {bot} is a bot"));
    api.delete(&format!("/users/{bob_id}"), Some(&owner), &[]).ok();
    assert_eq!(refused(set(&ada, mentor, json!([bob_id]))), format!("User with ID {bob_id} is deactivated"));
    api.post(&format!("/users/{bob_id}/reactivate"), Some(&owner), &[]).ok();
    assert_eq!(refused(set(&ada, 9999, json!("x"))), "Field id 9999 not found.");
    assert_eq!(
        refused(set(&ada, badge, json!("Gold"))),
        "You are not allowed to change this field. Contact an administrator to update it."
    );
    let ids = json!([badge]).to_string();
    assert_eq!(
        refused(api.delete("/users/me/profile_data", Some(&ada), &[("data", ids.as_str())])),
        "You are not allowed to change this field. Contact an administrator to update it."
    );

    // Administrators set and clear anyone's values, non-editable ones included.
    let data = json!([{"id": badge, "value": "Gold"}, {"id": team, "value": ""}]).to_string();
    api.patch(&format!("/users/{ada_id}"), Some(&owner), &[("profile_data", data.as_str())]).ok();
    let me = api.get("/users/me", Some(&ada), &[]).ok();
    assert_eq!(
        me["profile_data"][badge.to_string()],
        json!({"value": "Gold", "rendered_value": "<p>Gold</p>"})
    );
    assert!(me["profile_data"].get(team.to_string()).is_none());
    let data = json!([{"id": badge, "value": "Silver"}]).to_string();
    let denied = api.patch(&format!("/users/{ada_id}"), Some(&bob), &[("profile_data", data.as_str())]);
    assert_eq!(denied.error(400, "UNAUTHORIZED_PRINCIPAL")["msg"], "Must be an organization administrator");

    // Users clear their own values; taking an option away clears it too; so does deleting the field.
    let ids = json!([website]).to_string();
    api.delete("/users/me/profile_data", Some(&ada), &[("data", ids.as_str())]).ok();
    let only_emacs = r#"{"emacs": {"text": "Emacs", "order": "1"}}"#;
    api.patch(&format!("/realm/profile_fields/{editor}"), Some(&owner), &[("field_data", only_emacs)]).ok();
    api.delete(&format!("/realm/profile_fields/{birthday}"), Some(&owner), &[]).ok();
    let me = api.get("/users/me", Some(&ada), &[]).ok();
    let left: Vec<String> = me["profile_data"].as_object().expect("data").keys().cloned().collect();
    let mut expected = vec![mentor.to_string(), badge.to_string()];
    expected.sort();
    assert_eq!(left, expected);

    // Bots have no profile.
    assert_eq!(refused(set(&bot_creds, team, json!("x"))), "This endpoint does not accept bot requests.");
}
