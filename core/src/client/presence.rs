//! The user's own presence check-ins, and others' presence by polling, as Zulip's web app
//! keeps them (`activity.ts`, `presence.ts`): every check-in sends the
//! `presence_last_update_id` of the last answer (register's at first) and gets back only the
//! presences changed since, which are merged into the state. Organizations of more than 100
//! people send no presence events, so this poll is how their sidebar stays current.
//!
//! Who is offline is judged on the host's clock: [`Engine::note_time`] is told the time with
//! every answer, and users whose bucket (active, idle, offline) moves as time passes are
//! reported as changed at each check-in.

use serde_json::Value;

use super::Engine;
use super::request::{HttpRequest, Method, Reply};
use super::types::PresenceStatus;

impl Engine {
    /// `POST /users/me/presence`: reports the user active (or idle) and asks for the presences
    /// changed since the last answer. `new_user_input` says whether there was input since the
    /// last report.
    pub fn presence_request(&self, active: bool, new_user_input: bool) -> HttpRequest {
        let last_update_id = self.state.get("presence_last_update_id").and_then(Value::as_i64).unwrap_or(-1);
        HttpRequest::new(Method::Post, "/api/v1/users/me/presence")
            .param("status", if active { "active" } else { "idle" })
            .param("new_user_input", new_user_input.to_string())
            .param("last_update_id", last_update_id.to_string())
            // Only when starting from nothing: once the client has data, the server sends
            // every change since, however old (Zulip's web app asks for a year).
            .param("history_limit_days", "365")
    }

    /// A check-in's answer: the changed presences join the state, and users whose presence
    /// shows differently now (changed, or aged past a threshold) are reported. A failed
    /// check-in changes nothing; the next one asks again from the same point.
    pub fn handle_presence(&mut self, reply: Reply, now_ms: i64) {
        let Reply::Success(fields) = reply else { return };
        let before = self.presence_buckets();
        self.note_time(now_ms);
        if let Some(Value::Object(changed)) = fields.get("presences")
            && let Some(Value::Object(presences)) = self.state.get_mut("presences")
        {
            presences.extend(changed.iter().map(|(id, p)| (id.clone(), p.clone())));
        }
        if let Some(id) = fields.get("presence_last_update_id").filter(|id| id.is_i64()) {
            self.state.insert("presence_last_update_id".into(), id.clone());
        }
        for (id, status) in self.presence_buckets() {
            if before.get(&id) != Some(&status) {
                self.changes.user(id);
            }
        }
    }

    /// Tells the engine the time (the host's clock), against which presence ages.
    pub fn note_time(&mut self, now_ms: i64) {
        self.clock = Some(now_ms.div_euclid(1000));
    }

    /// The time presence is judged against: the host's clock once told, else the state's.
    pub(super) fn presence_now(&self) -> i64 {
        self.clock.unwrap_or_else(|| {
            self.state.get("server_timestamp").and_then(Value::as_f64).unwrap_or_default() as i64
        })
    }

    /// Every user with a presence, and how it shows now.
    fn presence_buckets(&self) -> std::collections::BTreeMap<u64, PresenceStatus> {
        let ids: Vec<u64> = match self.state.get("presences") {
            Some(Value::Object(presences)) => presences.keys().filter_map(|id| id.parse().ok()).collect(),
            _ => Vec::new(),
        };
        ids.into_iter().map(|id| (id, self.presence_status(id))).collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::fixture::{HAMLET, engine_with, state};
    use super::super::types::PresenceStatus;
    use super::*;

    const NOW: i64 = 1_700_000_000;

    fn answer(fields: Value) -> Reply {
        let Value::Object(fields) = fields else { unreachable!() };
        Reply::Success(fields)
    }

    fn param<'a>(request: &'a HttpRequest, name: &str) -> &'a str {
        request.params.iter().find(|(n, _)| n == name).map_or("", |(_, v)| v.as_str())
    }

    #[test]
    fn a_check_in_sends_the_last_update_id_it_holds() {
        let mut state = state();
        state["presence_last_update_id"] = json!(41);
        let mut engine = engine_with(state);
        let request = engine.presence_request(true, false);
        assert_eq!(param(&request, "status"), "active");
        assert_eq!(param(&request, "last_update_id"), "41");
        engine.handle_presence(answer(json!({"presences": {}, "presence_last_update_id": 57})), NOW * 1000);
        assert_eq!(param(&engine.presence_request(false, false), "last_update_id"), "57");
        assert_eq!(param(&engine.presence_request(false, false), "status"), "idle");
    }

    #[test]
    fn changed_presences_are_merged_and_reported() {
        let mut state = state();
        state["presences"] = json!({"1": {"active_timestamp": NOW - 1000, "idle_timestamp": NOW - 1000}});
        let mut engine = engine_with(state);
        engine.take_changes();
        let changed = json!({HAMLET.to_string(): {"active_timestamp": NOW, "idle_timestamp": NOW}});
        engine
            .handle_presence(answer(json!({"presences": changed, "presence_last_update_id": 3})), NOW * 1000);
        assert_eq!(engine.presence_status(HAMLET), PresenceStatus::Active);
        assert_eq!(engine.state()["presences"]["1"]["active_timestamp"], NOW - 1000, "others are kept");
        let changes = engine.take_changes().expect("changes");
        assert!(changes.users.contains(&HAMLET));
    }

    #[test]
    fn people_go_offline_as_time_passes() {
        let mut state = state();
        // Register's time is when Hamlet was last seen: he shows active at first.
        state["server_timestamp"] = json!(NOW as f64);
        state["presences"] = json!({HAMLET.to_string(): {"active_timestamp": NOW, "idle_timestamp": NOW}});
        let mut engine = engine_with(state);
        assert_eq!(engine.presence_status(HAMLET), PresenceStatus::Active);
        engine.take_changes();
        // Ten minutes later nothing about him changed, but he is offline.
        engine.handle_presence(
            answer(json!({"presences": {}, "presence_last_update_id": 3})),
            (NOW + 600) * 1000,
        );
        assert_eq!(engine.presence_status(HAMLET), PresenceStatus::Offline);
        assert!(engine.take_changes().expect("changes").users.contains(&HAMLET));
    }

    #[test]
    fn a_failed_check_in_changes_nothing() {
        let mut state = state();
        state["presence_last_update_id"] = json!(9);
        let mut engine = engine_with(state);
        engine.handle_presence(Reply::Unreachable("offline".into()), NOW * 1000);
        assert_eq!(param(&engine.presence_request(true, true), "last_update_id"), "9");
    }
}
