//! Incremental presence (Zulip feature level 263): a check-in that sends the
//! `presence_last_update_id` it last saw as `last_update_id` gets only the presences changed
//! since; register's `presence_last_update_id` is where such a client starts; without the
//! parameter (or with `-1`) the answer is everyone's, as before.

use std::collections::BTreeSet;

use confab_tests::{Api, Creds, TestServer};
use serde_json::Value;

fn check_in(api: &Api, who: &Creds, extra: &[(&str, &str)]) -> Value {
    let mut params = vec![("status", "active")];
    params.extend_from_slice(extra);
    api.post("/users/me/presence", Some(who), &params).ok()
}

fn since(api: &Api, who: &Creds, last_update_id: i64) -> Value {
    check_in(api, who, &[("last_update_id", &last_update_id.to_string())])
}

fn keys(answer: &Value) -> BTreeSet<String> {
    answer["presences"].as_object().expect("presences").keys().cloned().collect()
}

fn user_id(api: &Api, who: &Creds) -> String {
    api.get("/users/me", Some(who), &[]).ok()["user_id"].to_string()
}

fn last_update_id(answer: &Value) -> i64 {
    answer["presence_last_update_id"].as_i64().expect("presence_last_update_id")
}

#[test]
fn check_ins_with_last_update_id_answer_only_what_changed() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    check_in(&api, &owner, &[]);
    let registered = api
        .post(
            "/register",
            Some(&owner),
            &[("fetch_event_types", r#"["presence"]"#), ("slim_presence", "true")],
        )
        .ok();
    let start = last_update_id(&registered);
    assert!(start > 0, "{registered}");
    assert_eq!(keys(&registered), BTreeSet::from([user_id(&api, &owner)]));

    // Register's id and the check-in's agree: nothing changed since, so nothing is sent.
    let unchanged = since(&api, &owner, start);
    assert_eq!(unchanged["presences"], serde_json::json!({}), "{unchanged}");
    assert_eq!(last_update_id(&unchanged), start);

    // A bulk of people come online, one after another; each of them, asking from where the
    // owner's register stood, gets exactly those who came online since, themselves included.
    let mut online = BTreeSet::new();
    let mut latest = start;
    for n in 0..12 {
        let someone = api.create_user(&owner, &format!("user{n}@example.com"), &format!("User {n}"));
        online.insert(user_id(&api, &someone));
        let answer = since(&api, &someone, start);
        assert_eq!(keys(&answer), online, "user {n}: {answer}");
        assert!(last_update_id(&answer) > latest, "the sequence moves on: {answer}");
        latest = last_update_id(&answer);
        let entry = answer["presences"].as_object().and_then(|p| p.values().next()).expect("an entry");
        assert!(entry["active_timestamp"].is_i64() && entry["idle_timestamp"].is_i64(), "slim: {answer}");
    }

    let delta = since(&api, &owner, start);
    assert_eq!(keys(&delta), online);
    assert_eq!(last_update_id(&delta), latest);
    // Checking in again within the minute moves nobody: the next delta is empty.
    let again = since(&api, &owner, latest);
    assert_eq!(keys(&again), BTreeSet::new(), "{again}");
    assert_eq!(last_update_id(&again), latest);
    // Register agrees with the check-ins.
    let registered = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["presence"]"#)]).ok();
    assert_eq!(last_update_id(&registered), latest);
}

#[test]
fn without_last_update_id_or_with_minus_one_the_answer_is_everyones() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    check_in(&api, &ada, &[]);
    let everyone = BTreeSet::from([user_id(&api, &owner), user_id(&api, &ada)]);

    // An old client: everyone, in the legacy form keyed by email, with the id to go on from.
    let legacy = check_in(&api, &owner, &[]);
    let emails: BTreeSet<String> = ["ada@example.com", "owner@confab.localhost"].map(String::from).into();
    assert_eq!(keys(&legacy), emails, "{legacy}");
    let latest = last_update_id(&legacy);
    // `-1`: everyone, in the modern form (sending the parameter asks for it).
    let first = since(&api, &owner, -1);
    assert_eq!(keys(&first), everyone, "{first}");
    assert_eq!(last_update_id(&first), latest);
    // `0` is no different.
    assert_eq!(keys(&since(&api, &owner, 0)), everyone);
    // No history wanted: nothing, and the id sent comes back.
    let none = check_in(&api, &owner, &[("last_update_id", "-1"), ("history_limit_days", "0")]);
    assert_eq!(keys(&none), BTreeSet::new());
    assert_eq!(last_update_id(&none), -1);
    // `ping_only` records without answering presences.
    let ping = check_in(&api, &owner, &[("ping_only", "true"), ("last_update_id", "-1")]);
    assert!(ping.get("presences").is_none() && ping.get("presence_last_update_id").is_none(), "{ping}");
}

#[test]
fn bad_check_ins_are_refused_in_zulips_shape() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    for bad in ["x", "1.5", "99999999999999999999999"] {
        check_in_refused(&api, &owner, &[("last_update_id", bad)]);
        check_in_refused(&api, &owner, &[("history_limit_days", bad)]);
    }
    // Extreme values are answered, not overflowed.
    for extreme in [i64::MIN, i64::MAX] {
        let answer = check_in(&api, &owner, &[("history_limit_days", &extreme.to_string())]);
        assert!(answer["presences"].is_object(), "{answer}");
        assert!(since(&api, &owner, extreme)["presences"].is_object());
    }
    let made = api.post("/bots", Some(&owner), &[("full_name", "Helper"), ("short_name", "helper")]).ok();
    let host = server.base_url.trim_start_matches("http://").split(':').next().expect("host").to_owned();
    let bot =
        Creds { email: format!("helper-bot@{host}"), api_key: made["api_key"].as_str().expect("key").into() };
    let refused =
        api.post("/users/me/presence", Some(&bot), &[("status", "active")]).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "This endpoint does not accept bot requests.");
}

fn check_in_refused(api: &Api, who: &Creds, extra: &[(&str, &str)]) {
    let mut params = vec![("status", "active")];
    params.extend_from_slice(extra);
    api.post("/users/me/presence", Some(who), &params).error(400, "BAD_REQUEST");
}

/// Register's `presence_history_limit_days` (feature level 288) bounds the presences it sends,
/// as a check-in's `history_limit_days` does: `0` wants none, a day or more gets those seen
/// since; without it, the last 14 days.
#[test]
fn register_sends_the_presence_history_asked_for() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    check_in(&api, &ada, &[]);
    let ada_id = user_id(&api, &ada);
    let registered = |limit: Option<&str>| -> Value {
        let mut params = vec![("fetch_event_types", r#"["presence"]"#), ("slim_presence", "true")];
        if let Some(days) = limit {
            params.push(("presence_history_limit_days", days));
        }
        api.post("/register", Some(&owner), &params).ok()
    };
    let default = registered(None);
    assert!(keys(&default).contains(&ada_id), "{default}");
    let one_day = registered(Some("1"));
    assert!(keys(&one_day).contains(&ada_id), "{one_day}");
    assert!(one_day.get("ignored_parameters_unsupported").is_none(), "{one_day}");
    assert_eq!(keys(&registered(Some("0"))), BTreeSet::new());
}
