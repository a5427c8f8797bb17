//! POST /users/me/presence                update_presence
//! GET  /realm/presence                   get_presence
//! GET  /users/{user_id_or_email}/presence get_user_presence
//!
//! Presence is stored as Zulip's modern pair of times; the legacy per-client format that
//! zulip-terminal reads is derived from it, as Zulip derives it.

use serde_json::{Map, Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::model::{Presence, User};
use crate::params::Params;
use crate::store::{Change, Store};

use super::users::UserRef;

/// Zulip's `PRESENCE_PING_INTERVAL_SECS`: how often clients report.
pub const PRESENCE_PING_INTERVAL_SECS: i64 = 60;
/// Zulip's `OFFLINE_THRESHOLD_SECS`: a user not heard from for this long is offline.
pub const OFFLINE_THRESHOLD_SECS: i64 = 140;
/// Zulip's `PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS`: in the legacy format a user
/// active this recently before their last check-in still shows as active.
const LEGACY_ACTIVITY_OFFSET_SECS: i64 = 70;

/// The legacy per-client entry (`client`, `status`, `timestamp`, `pushable`).
fn legacy_entry(presence: &Presence) -> Value {
    let (status, timestamp) =
        if presence.last_active_time + LEGACY_ACTIVITY_OFFSET_SECS >= presence.last_connected_time {
            ("active", presence.last_active_time)
        } else {
            ("idle", presence.last_connected_time)
        };
    json!({"client": "website", "status": status, "timestamp": timestamp, "pushable": false})
}

/// A user's presence in the legacy format: `aggregated` and one client entry.
pub fn legacy_presence(presence: &Presence) -> Value {
    let entry = legacy_entry(presence);
    json!({
        "aggregated": {"client": entry["client"], "status": entry["status"], "timestamp": entry["timestamp"]},
        "website": entry,
    })
}

/// A user's presence in the modern ("slim") format.
pub fn slim_presence(presence: &Presence) -> Value {
    json!({"active_timestamp": presence.last_active_time, "idle_timestamp": presence.last_connected_time})
}

/// The organization's presences newer than `history_limit_days`, keyed by email (legacy) or
/// by user id (slim).
pub fn realm_presences(
    store: &impl Store,
    actor: &Actor,
    slim: bool,
    now: i64,
    history_limit_days: i64,
) -> ApiResult<Value> {
    let oldest = now - history_limit_days.max(0) * 86_400;
    let mut presences = Map::new();
    for user in store.realm_users(actor.realm.id)?.iter().filter(|u| u.is_active && !u.is_bot()) {
        let Some(presence) = store.presence(user.id)? else { continue };
        if presence.last_connected_time < oldest {
            continue;
        }
        if slim {
            presences.insert(user.id.to_string(), slim_presence(&presence));
        } else {
            presences.insert(user.email.clone(), legacy_presence(&presence));
        }
    }
    Ok(Value::Object(presences))
}

/// The presence event other users get when someone comes online or goes idle. Its form follows
/// the receiving client's `simplified_presence_events` capability; both are sent here and the
/// event system gives each queue the one it asked for.
fn presence_event(store: &impl Store, actor: &Actor, presence: &Presence, now: i64) -> ApiResult<Event> {
    let users = crate::command::active_user_ids(store, actor.realm.id)?;
    Ok(Event::Other {
        users,
        body: json!({
            "type": "presence",
            "user_id": actor.user.id,
            "email": actor.user.email,
            "server_timestamp": now,
            "presence": {"website": legacy_entry(presence)},
            "presences": {actor.user.id.to_string(): slim_presence(presence)},
        }),
    })
}

/// `POST /users/me/presence`: records a check-in and answers with everyone's presence.
pub fn update_presence(store: &impl Store, actor: &Actor, params: &Params, now: i64) -> ApiResult<Outcome> {
    let status: String = params.required("status")?;
    let active = match status.as_str() {
        "active" => true,
        "idle" => false,
        other => return Err(ApiError::bad_request(format!("Invalid status: {other}"))),
    };
    let ping_only = params.or("ping_only", false)?;
    let slim = params.or("slim_presence", false)?;
    params.or("new_user_input", false)?;
    let history_limit_days = params.or("history_limit_days", 14i64)?;
    params.mark_used("last_update_id");

    let previous = store.presence(actor.user.id)?;
    let presence = Presence {
        user_id: actor.user.id,
        last_active_time: if active { now } else { previous.map_or(now, |p| p.last_active_time) },
        last_connected_time: now,
    };
    let mut outcome = Outcome { changes: vec![Change::PutPresence(presence)], ..Outcome::default() };
    // Zulip tells others only when something they see changes: the user comes online, or
    // switches between active and idle.
    let was_online = previous.is_some_and(|p| now - p.last_connected_time < OFFLINE_THRESHOLD_SECS);
    let status_changed =
        previous.is_none_or(|p| legacy_entry(&p)["status"] != legacy_entry(&presence)["status"]);
    if !was_online || status_changed {
        outcome.events.push(presence_event(store, actor, &presence, now)?);
    }
    outcome = outcome.reply("server_timestamp", now as f64);
    if !ping_only {
        outcome = outcome.reply("presences", realm_presences(store, actor, slim, now, history_limit_days)?);
    }
    Ok(outcome)
}

/// `GET /realm/presence`.
pub fn get_presence(store: &impl Store, actor: &Actor, now: i64) -> ApiResult<Outcome> {
    Ok(Outcome::default()
        .reply("presences", realm_presences(store, actor, false, now, 14)?)
        .reply("server_timestamp", now as f64))
}

/// `GET /users/{user_id_or_email}/presence`.
pub fn get_user_presence(store: &impl Store, actor: &Actor, who: UserRef<'_>) -> ApiResult<Outcome> {
    let user: Option<User> = match who {
        UserRef::Id(id) => store.user(id)?,
        UserRef::Email(email) => match crate::api::users::user_by_api_email(store, actor.realm.id, email)? {
            Some(id) => store.user(id)?,
            None => None,
        },
    };
    let user = user.filter(|u| u.realm_id == actor.realm.id).ok_or_else(ApiError::no_such_user)?;
    let presence =
        store.presence(user.id)?.ok_or_else(|| ApiError::bad_request("No presence data for user"))?;
    Ok(Outcome::default().reply("presence", legacy_presence(&presence)))
}
