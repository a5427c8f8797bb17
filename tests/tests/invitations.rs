//! Invitations as Zulip has them at feature level 419: email invitations and reusable links
//! are created, listed, resent and revoked by those allowed to; administrators (and the
//! inviter) hear `invites_changed`; a link's holder signs up on its page and gets the role,
//! channels and groups it carries; a used, revoked or expired link is refused. Confab mails
//! nothing: an email invitation's link is in the server's log.

use confab_tests::{Creds, TestServer, python};
use serde_json::{Value, json};

fn group_id(server: &TestServer, who: &Creds, name: &str) -> u64 {
    let groups = server.api().get("/user_groups", Some(who), &[]).ok();
    groups["user_groups"].as_array().expect("list").iter().find(|g| g["name"] == name).expect("group")["id"]
        .as_u64()
        .expect("id")
}

fn channel_id(server: &TestServer, who: &Creds, name: &str) -> u64 {
    server.api().get("/get_stream_id", Some(who), &[("stream", name)]).ok()["stream_id"].as_u64().expect("id")
}

/// The path of a link, for requests to this server.
fn path_of(link: &str, server: &TestServer) -> String {
    link.strip_prefix(&server.base_url).unwrap_or(link).to_owned()
}

fn page(server: &TestServer, method: &str, path: &str, form: &[(&str, &str)]) -> (u16, String) {
    let client = reqwest::blocking::Client::new();
    let url = format!("{}{path}", server.base_url);
    let response = if method == "GET" { client.get(url).send() } else { client.post(url).form(form).send() }
        .expect("the page answers");
    let status = response.status().as_u16();
    (status, response.text().expect("text"))
}

/// The server's log once it holds `count` lines containing `needle`: the log reaches us
/// through a pipe, a moment after the reply that caused it.
fn log_with(server: &TestServer, needle: &str, count: usize) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let log = server.log_so_far();
        if log.matches(needle).count() >= count || std::time::Instant::now() > deadline {
            return log;
        }
        std::thread::yield_now();
    }
}

fn event_types(events: &Value) -> Vec<String> {
    events["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["type"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn email_invitations_are_sent_listed_resent_and_revoked() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let owner_queue = api.post("/register", Some(&owner), &[("event_types", r#"["invites_changed"]"#)]).ok();
    let general = channel_id(&server, &owner, "general").to_string();
    let channels = format!("[{general}]");

    let sent = api.post(
        "/invites",
        Some(&ada),
        &[
            ("invitee_emails", "Bo <bo@example.com>, cy@example.com\ncy@example.com"),
            ("stream_ids", &channels),
        ],
    );
    sent.ok();
    let events = api.queued(&owner, &owner_queue);
    assert_eq!(event_types(&events), ["invites_changed"]);

    let mine = api.get("/invites", Some(&ada), &[]).ok();
    let invites = mine["invites"].as_array().expect("invites");
    assert_eq!(invites.len(), 2, "{mine}");
    let bo = invites.iter().find(|i| i["email"] == "bo@example.com").expect("bo's invitation");
    assert_eq!(bo["invited_as"], 400);
    assert_eq!(bo["is_multiuse"], false);
    assert_eq!(bo["notify_referrer_on_join"], true);
    assert_eq!(
        bo["expiry_date"].as_i64().expect("present") - bo["invited"].as_i64().expect("present"),
        10 * 24 * 60 * 60
    );
    // The owner, an administrator, sees everyone's.
    assert_eq!(api.get("/invites", Some(&owner), &[]).ok()["invites"].as_array().expect("present").len(), 2);
    // Confab sends no mail: each link is in the log, saying so.
    let log = log_with(&server, "invitation email to bo@example.com", 1);
    assert!(log.contains("invitation email to bo@example.com not sent (no mail server configured)"), "{log}");

    let bo_id = bo["id"].to_string();
    api.post(&format!("/invites/{bo_id}/resend"), Some(&ada), &[]).ok();
    let resent = log_with(&server, "invitation email to bo@example.com", 2)
        .matches("invitation email to bo@example.com")
        .count();
    assert_eq!(resent, 2);
    api.delete(&format!("/invites/{bo_id}"), Some(&ada), &[]).ok();
    assert_eq!(api.get("/invites", Some(&ada), &[]).ok()["invites"].as_array().expect("present").len(), 1);
    let again = api.delete(&format!("/invites/{bo_id}"), Some(&ada), &[]).error(400, "BAD_REQUEST");
    assert_eq!(again["msg"], "No such invitation");
    assert_eq!(event_types(&api.queued(&owner, &owner_queue)), ["invites_changed", "invites_changed"]);
}

#[test]
fn bad_invitations_get_zulips_errors() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let general = format!("[{}]", channel_id(&server, &owner, "general"));
    let invite = |who: &Creds, params: &[(&str, &str)]| api.post("/invites", Some(who), params);

    let invalid =
        invite(&owner, &[("invitee_emails", "bo@example.com, not-an-address"), ("stream_ids", &general)])
            .error(400, "INVITATION_FAILED");
    assert_eq!(invalid["msg"], "Some emails did not validate, so we didn't send any invitations.");
    assert_eq!(invalid["errors"], json!([["not-an-address", "Invalid address.", false]]));
    assert_eq!(invalid["sent_invitations"], false);

    let member = invite(&owner, &[("invitee_emails", "ada@example.com"), ("stream_ids", &general)])
        .error(400, "INVITATION_FAILED");
    assert_eq!(member["msg"], "We weren't able to invite anyone.");
    assert_eq!(member["errors"], json!([["ada@example.com", "Already has an account.", false]]));

    // Some addresses invited, others not: the invitations are made, the answer names the rest.
    let partly =
        invite(&owner, &[("invitee_emails", "ada@example.com, bo@example.com"), ("stream_ids", &general)])
            .error(400, "INVITATION_FAILED");
    assert_eq!(partly["sent_invitations"], true);
    assert_eq!(
        partly["msg"],
        "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!"
    );
    assert_eq!(api.get("/invites", Some(&owner), &[]).ok()["invites"].as_array().expect("present").len(), 1);

    let empty = invite(&owner, &[("invitee_emails", ""), ("stream_ids", &general)]).error(400, "BAD_REQUEST");
    assert_eq!(empty["msg"], "You must specify at least one email address.");
    let missing =
        invite(&owner, &[("invitee_emails", "cy@example.com")]).error(400, "REQUEST_VARIABLE_MISSING");
    assert_eq!(missing["msg"], "Missing 'stream_ids' argument");
    let nowhere = invite(&owner, &[("invitee_emails", "cy@example.com"), ("stream_ids", "[9999]")])
        .error(400, "BAD_REQUEST");
    assert_eq!(nowhere["msg"], "Invalid channel ID 9999. No invites were sent.");
    let role =
        invite(&owner, &[("invitee_emails", "cy@example.com"), ("stream_ids", "[]"), ("invite_as", "500")])
            .error(400, "BAD_REQUEST");
    assert_eq!(role["msg"], "Invalid invite_as");

    // Members may invite members, not moderators or owners.
    let as_admin =
        invite(&ada, &[("invitee_emails", "cy@example.com"), ("stream_ids", "[]"), ("invite_as", "200")])
            .error(400, "BAD_REQUEST");
    assert_eq!(as_admin["msg"], "Must be an organization administrator");
    invite(&ada, &[("invitee_emails", "cy@example.com"), ("stream_ids", "[]"), ("invite_as", "100")])
        .error(400, "UNAUTHORIZED_PRINCIPAL");
    let welcome =
        [("invitee_emails", "cy@example.com"), ("stream_ids", "[]"), ("welcome_message_custom_text", "Hi")];
    assert_eq!(
        invite(&ada, &welcome).error(400, "BAD_REQUEST")["msg"],
        "Must be an organization administrator"
    );
    // Someone else's invitation is an administrator's to revoke.
    let bo = api.get("/invites", Some(&owner), &[]).ok()["invites"][0]["id"].to_string();
    let theirs = api.delete(&format!("/invites/{bo}"), Some(&ada), &[]).error(400, "BAD_REQUEST");
    assert_eq!(theirs["msg"], "Must be an organization administrator");
}

#[test]
fn the_group_settings_decide_who_invites_and_register_says_so() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let state = api.post("/register", Some(&ada), &[]).ok();
    assert_eq!(state["can_invite_others_to_realm"], true);
    let admins = group_id(&server, &owner, "role:administrators");
    assert_eq!(state["realm_create_multiuse_invite_group"], admins);

    // Links are administrators' by default.
    let link = api.post("/invites/multiuse", Some(&ada), &[]).error(400, "BAD_REQUEST");
    assert_eq!(link["msg"], "Insufficient permission");

    let queue = api.post("/register", Some(&ada), &[("event_types", r#"["realm"]"#)]).ok();
    let members = group_id(&server, &owner, "role:members");
    let change = json!({"new": admins, "old": members}).to_string();
    api.patch("/realm", Some(&owner), &[("can_invite_users_group", change.as_str())]).ok();
    let refused =
        api.post("/invites", Some(&ada), &[("invitee_emails", "bo@example.com"), ("stream_ids", "[]")]);
    assert_eq!(refused.error(400, "BAD_REQUEST")["msg"], "Insufficient permission");
    assert_eq!(api.post("/register", Some(&ada), &[]).ok()["can_invite_others_to_realm"], false);
    let events = api.queued(&ada, &queue);
    assert_eq!(events["events"][0]["data"], json!({"can_invite_users_group": admins}));
}

#[test]
fn a_reusable_link_signs_up_two_people_who_then_use_the_python_client() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let queue = api
        .post(
            "/register",
            Some(&owner),
            &[("event_types", r#"["realm_user","invites_changed","user_group","subscription"]"#)],
        )
        .ok();
    let created =
        api.post("/channels/create", Some(&owner), &[("name", "design"), ("subscribers", "[]")]).ok();
    let design = created["id"].as_u64().expect("channel id");
    api.post(
        "/user_groups/create",
        Some(&owner),
        &[("name", "crew"), ("description", ""), ("members", "[]")],
    )
    .ok();
    let crew = group_id(&server, &owner, "crew");

    let made = api
        .post(
            "/invites/multiuse",
            Some(&owner),
            &[
                ("stream_ids", &format!("[{design}]")),
                ("group_ids", &format!("[{crew}]")),
                ("invite_as", "300"),
            ],
        )
        .ok();
    let link = made["invite_link"].as_str().expect("invite_link").to_owned();
    assert!(link.starts_with(&format!("{}/join/", server.base_url)) && link.ends_with('/'), "{link}");
    let listed = api.get("/invites", Some(&owner), &[]).ok();
    assert_eq!(listed["invites"][0]["link_url"], link);
    assert_eq!(listed["invites"][0]["is_multiuse"], true);

    let path = path_of(&link, &server);
    let (status, form) = page(&server, "GET", &path, &[]);
    assert_eq!(status, 200);
    assert!(form.contains("name=\"email\"") && form.contains("name=\"password\""), "{form}");
    let (status, weak) = page(
        &server,
        "POST",
        &path,
        &[("email", "bo@example.com"), ("full_name", "Bo"), ("password", "abc")],
    );
    assert_eq!(status, 400);
    assert!(weak.contains("The password is too weak."), "{weak}");

    for (email, name) in [("bo@example.com", "Bo"), ("cy@example.com", "Cy")] {
        let (status, done) = page(
            &server,
            "POST",
            &path,
            &[("email", email), ("full_name", name), ("password", "correct horse")],
        );
        assert_eq!(status, 200, "{done}");
        assert!(done.contains("Your account is ready"), "{done}");
    }
    let (status, taken) = page(
        &server,
        "POST",
        &path,
        &[("email", "bo@example.com"), ("full_name", "Bo"), ("password", "correct horse")],
    );
    assert_eq!(status, 400);
    assert!(taken.contains("bo@example.com already has an account"), "{taken}");

    let events = api.queued(&owner, &queue);
    let types = event_types(&events);
    assert!(types.iter().filter(|t| *t == "realm_user").count() >= 2, "{types:?}");
    let added: Vec<&Value> = events["events"]
        .as_array()
        .expect("present")
        .iter()
        .filter(|e| e["op"] == "add_members" && e["group_id"] == crew)
        .collect();
    assert_eq!(added.len(), 2, "{events}");

    // They sign in with the password as any Zulip client does, then post with the real
    // Python client.
    for (email, name) in [("bo@example.com", "Bo"), ("cy@example.com", "Cy")] {
        let key =
            api.post("/fetch_api_key", None, &[("username", email), ("password", "correct horse")]).ok();
        let creds = Creds { email: email.into(), api_key: key["api_key"].as_str().expect("key").into() };
        let me = api.get("/users/me", Some(&creds), &[]).ok();
        assert_eq!(me["role"], 300);
        assert_eq!(me["full_name"], name);
        let subscribed = api.get("/users/me/subscriptions", Some(&creds), &[]).ok();
        let names: Vec<&Value> =
            subscribed["subscriptions"].as_array().expect("present").iter().map(|s| &s["name"]).collect();
        assert_eq!(names, [&json!("design")]);
        let script = "import sys, zulip\n\
             c = zulip.Client(email=sys.argv[1], api_key=sys.argv[2], site=sys.argv[3])\n\
             r = c.send_message({'type': 'stream', 'to': 'design', 'topic': 'hello', 'content': 'Joined!'})\n\
             assert r['result'] == 'success', r\nprint('sent', r['id'])\n";
        let output = std::process::Command::new(python::python())
            .args(["-c", script, email, &creds.api_key, &server.base_url])
            .output()
            .expect("python runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    let history = api
        .get(
            "/messages",
            Some(&owner),
            &[
                ("anchor", "newest"),
                ("num_before", "5"),
                ("num_after", "0"),
                ("narrow", r#"[["channel","design"]]"#),
            ],
        )
        .ok();
    let joined = history["messages"]
        .as_array()
        .expect("present")
        .iter()
        .filter(|m| m["content"] == "<p>Joined!</p>")
        .count();
    assert_eq!(joined, 2, "{history}");

    // Revoked, the link is refused.
    let id = listed["invites"][0]["id"].to_string();
    api.delete(&format!("/invites/multiuse/{id}"), Some(&owner), &[]).ok();
    let (status, gone) = page(&server, "GET", &path, &[]);
    assert_eq!(status, 404);
    assert!(gone.contains("The confirmation link has expired or been deactivated."), "{gone}");
    let twice = api.delete(&format!("/invites/multiuse/{id}"), Some(&owner), &[]).error(400, "BAD_REQUEST");
    assert_eq!(twice["msg"], "Invitation has already been revoked");
}

#[test]
fn an_email_invitation_is_used_once_and_an_expired_link_is_refused() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let general = format!("[{}]", channel_id(&server, &owner, "general"));
    api.post(
        "/invites",
        Some(&owner),
        &[("invitee_emails", "bo@example.com"), ("stream_ids", &general), ("invite_as", "600")],
    )
    .ok();
    let log = log_with(&server, "its link: ", 1);
    let link =
        log.lines().find_map(|l| l.split("its link: ").nth(1)).expect("the link is logged").trim().to_owned();
    let path = path_of(&link, &server);
    assert!(path.starts_with("/accounts/do_confirm/"), "{path}");
    let (status, form) = page(&server, "GET", &path, &[]);
    assert_eq!(status, 200);
    assert!(form.contains("bo@example.com") && !form.contains("name=\"email\""), "{form}");
    let (status, done) = page(&server, "POST", &path, &[("full_name", "Bo"), ("password", "correct horse")]);
    assert_eq!(status, 200, "{done}");
    let key = api
        .post("/fetch_api_key", None, &[("username", "bo@example.com"), ("password", "correct horse")])
        .ok();
    let bo =
        Creds { email: "bo@example.com".into(), api_key: key["api_key"].as_str().expect("present").into() };
    assert_eq!(api.get("/users/me", Some(&bo), &[]).ok()["role"], 600);
    // Used, it is gone from the list and its link refused; the inviter heard of the new user.
    assert_eq!(api.get("/invites", Some(&owner), &[]).ok()["invites"], json!([]));
    let (status, used) = page(&server, "GET", &path, &[]);
    assert_eq!(status, 404);
    assert!(used.contains("expired or been deactivated"), "{used}");
    let dms = api
        .get(
            "/messages",
            Some(&owner),
            &[("anchor", "newest"), ("num_before", "1"), ("num_after", "0"), ("narrow", r#"[["is","dm"]]"#)],
        )
        .ok();
    let notice = dms["messages"][0]["content"].as_str().unwrap_or_default();
    assert!(notice.contains("accepted your invitation to join Zulip!"), "{dms}");

    // An invitation that expired at once, and a key nobody made.
    api.post("/invites/multiuse", Some(&owner), &[("invite_expires_in_minutes", "0")]).ok();
    let expired = api.get("/invites", Some(&owner), &[]).ok();
    assert_eq!(expired["invites"], json!([]), "an expired link is not listed");
    let (status, unknown) = page(&server, "GET", "/join/nosuchkey/", &[]);
    assert_eq!(status, 404);
    assert!(unknown.contains("We couldn&#39;t find your confirmation link in the system."), "{unknown}");
}

/// The welcome text (feature level 416) reaches the new user when they sign up: the
/// invitation's, or else the organization's. Zulip's Welcome Bot sends it; Confab, which has
/// none, has its Notification Bot send it, as for `POST /realm/test_welcome_bot_custom_message`.
#[test]
fn the_welcome_text_reaches_the_new_user_at_sign_up() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    api.patch("/realm", Some(&owner), &[("welcome_message_custom_text", "Welcome to *our* team")]).ok();
    let invite = [
        ("invitee_emails", "bo@example.com"),
        ("stream_ids", "[]"),
        ("welcome_message_custom_text", "Bo, read the **handbook** first"),
    ];
    api.post("/invites", Some(&owner), &invite).ok();
    let log = log_with(&server, "its link: ", 1);
    let link =
        log.lines().find_map(|l| l.split("its link: ").nth(1)).expect("the link is logged").trim().to_owned();
    let (status, done) = page(
        &server,
        "POST",
        &path_of(&link, &server),
        &[("full_name", "Bo"), ("password", "correct horse")],
    );
    assert_eq!(status, 200, "{done}");
    let reusable = api.post("/invites/multiuse", Some(&owner), &[("stream_ids", "[]")]).ok();
    let path = path_of(reusable["invite_link"].as_str().expect("link"), &server);
    let form = [("full_name", "Cy"), ("email", "cy@example.com"), ("password", "correct horse")];
    assert_eq!(page(&server, "POST", &path, &form).0, 200);

    let dms = |email: &str| {
        let key =
            api.post("/fetch_api_key", None, &[("username", email), ("password", "correct horse")]).ok();
        let who = Creds { email: email.into(), api_key: key["api_key"].as_str().expect("key").into() };
        let params =
            [("anchor", "newest"), ("num_before", "10"), ("num_after", "0"), ("narrow", r#"[["is","dm"]]"#)];
        api.get("/messages", Some(&who), &params).ok()["messages"].as_array().expect("messages").clone()
    };
    let bo = dms("bo@example.com");
    assert_eq!(bo.len(), 1, "{bo:?}");
    assert_eq!(bo[0]["content"], "<p>Bo, read the <strong>handbook</strong> first</p>");
    assert_eq!(bo[0]["sender_email"], "notification-bot@confab.invalid");
    let cy = dms("cy@example.com");
    assert_eq!(cy.len(), 1, "{cy:?}");
    assert_eq!(cy[0]["content"], "<p>Welcome to <em>our</em> team</p>");
}

/// `include_realm_default_subscriptions` (feature level 261): an invitation that says so adds
/// the organization's default channels to the channels it names; one that does not gives only
/// those it names.
#[test]
fn an_invitation_may_add_the_default_channels_to_its_own() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let design =
        api.post("/channels/create", Some(&owner), &[("name", "design"), ("subscribers", "[]")]).ok()["id"]
            .as_u64()
            .expect("channel id");
    let streams = format!("[{design}]");
    let signed_up = |include: &str, email: &str| -> Vec<String> {
        let params = [("stream_ids", streams.as_str()), ("include_realm_default_subscriptions", include)];
        let made = api.post("/invites/multiuse", Some(&owner), &params).ok();
        let path = path_of(made["invite_link"].as_str().expect("invite_link"), &server);
        let form = [("email", email), ("full_name", "New"), ("password", "correct horse")];
        let (status, done) = page(&server, "POST", &path, &form);
        assert_eq!(status, 200, "{done}");
        let key =
            api.post("/fetch_api_key", None, &[("username", email), ("password", "correct horse")]).ok();
        let new = Creds { email: email.into(), api_key: key["api_key"].as_str().expect("api_key").into() };
        let mut names: Vec<String> =
            api.get("/users/me/subscriptions", Some(&new), &[]).ok()["subscriptions"]
                .as_array()
                .expect("subscriptions")
                .iter()
                .map(|s| s["name"].as_str().unwrap_or_default().to_owned())
                .collect();
        names.sort();
        names
    };
    assert_eq!(signed_up("true", "bo@example.com"), ["design", "general"]);
    assert_eq!(signed_up("false", "cy@example.com"), ["design"]);
}

#[test]
fn invitations_may_always_include_the_default_channels() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    api.subscribe(&owner, &["general", "town"], &["owner@confab.localhost", "ada@example.com"]);
    // Only administrators subscribe others; members may create links.
    let admins = group_id(&server, &owner, "role:administrators");
    let members = group_id(&server, &owner, "role:members");
    let only_admins = json!({"new": admins}).to_string();
    api.patch("/realm", Some(&owner), &[("can_add_subscribers_group", only_admins.as_str())]).ok();
    let members_link = json!({"new": members}).to_string();
    api.patch("/realm", Some(&owner), &[("create_multiuse_invite_group", members_link.as_str())]).ok();
    let (general, town) = (channel_id(&server, &owner, "general"), channel_id(&server, &owner, "town"));

    // Feature level 342: `general`, a default channel, is always allowed.
    let defaults = json!([general]).to_string();
    api.post("/invites", Some(&ada), &[("invitee_emails", "bo@example.com"), ("stream_ids", &defaults)]).ok();
    api.post("/invites/multiuse", Some(&ada), &[("stream_ids", &defaults)]).ok();
    for channels in [json!([town]), json!([general, town])] {
        let channels = channels.to_string();
        let email = api.post(
            "/invites",
            Some(&ada),
            &[("invitee_emails", "cy@example.com"), ("stream_ids", &channels)],
        );
        let link = api.post("/invites/multiuse", Some(&ada), &[("stream_ids", &channels)]);
        for refused in [email, link] {
            let refused = refused.error(400, "BAD_REQUEST");
            assert_eq!(refused["msg"], "You do not have permission to subscribe other users to channels.");
        }
    }
    let invites = api.get("/invites", Some(&owner), &[]).ok()["invites"].clone();
    assert_eq!(invites.as_array().map(Vec::len), Some(2), "{invites}");
}
