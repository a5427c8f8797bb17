//! `presences`: keyed by email in the legacy form (`aggregated` and one entry per client), by
//! user id in the modern (`slim_presence`) form of `active_timestamp` and `idle_timestamp`.
//! Events come in the form the client asked for, which need not be its state's form.

use serde_json::{Map, Value, json};

use crate::api::presence::{legacy_presence, slim_presence};
use crate::events::server_event::PresenceEvent;

pub(super) fn apply_presence(state: &mut Map<String, Value>, event: &PresenceEvent) {
    let email_of = |state: &Map<String, Value>, id: &str| -> Option<Value> {
        let id: u64 = id.parse().ok()?;
        let users = state.get("realm_users")?.as_array()?;
        users.iter().find(|u| u["user_id"].as_u64() == Some(id)).map(|u| u["email"].clone())
    };
    let Some(Value::Object(presences)) = state.get("presences") else { return };
    // An empty state tells nothing of its form: clients with the modern events keep the
    // modern form, as Zulip intends them to.
    let legacy_state = presences.keys().any(|k| k.contains('@'));
    let mut updates: Vec<(String, Value)> = Vec::new();
    if let Some(modern) = &event.presences {
        for (id, times) in modern {
            let (Some(active), Some(idle)) =
                (times["active_timestamp"].as_i64(), times["idle_timestamp"].as_i64())
            else {
                continue;
            };
            if !legacy_state {
                updates.push((id.clone(), times.clone()));
            } else if let Some(Value::String(email)) = email_of(state, id) {
                updates.push((email, legacy_presence(active, idle)));
            }
        }
    } else if let (Some(clients), Some(user_id)) = (&event.presence, event.user_id) {
        let id = user_id.to_string();
        // The newest client entry is the user's aggregate.
        let newest = clients.values().max_by_key(|c| c["timestamp"].as_i64());
        let Some(newest) = newest else { return };
        match &event.email {
            // A legacy client (the email is dropped for slim ones).
            Some(email) => {
                let mut shown = json!({
                    "aggregated": {"client": newest["client"], "status": newest["status"], "timestamp": newest["timestamp"]},
                });
                for (client, entry) in clients {
                    shown[client.as_str()] = entry.clone();
                }
                updates.push((email.clone(), shown));
            }
            None => {
                // The legacy entry keeps only the time of the status it shows: the other time
                // is the check-in's own (`server_timestamp`) when idle, or stays as it was.
                let checked_in =
                    event.rest.get("server_timestamp").and_then(Value::as_f64).unwrap_or_default() as i64;
                let previous = presences.get(&id).and_then(|p| p["active_timestamp"].as_i64());
                let timestamp = newest["timestamp"].as_i64().unwrap_or(checked_in);
                let last_active_time =
                    if newest["status"] == "active" { timestamp } else { previous.unwrap_or(checked_in) };
                updates.push((id, slim_presence(last_active_time, checked_in)));
            }
        }
    }
    if let Some(Value::Object(presences)) = state.get_mut("presences") {
        presences.extend(updates);
    }
}
