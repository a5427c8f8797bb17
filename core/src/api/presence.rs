//! POST /users/me/presence                update_presence
//! GET  /realm/presence                   get_presence
//! GET  /users/{user_id_or_email}/presence get_user_presence
//!
//! Presence is stored as Zulip's modern pair of times; the legacy per-client format that
//! zulip-terminal reads is derived from it, as Zulip derives it.
//!
//! Presence is incremental, as Zulip's (feature level 263): every recorded change takes the
//! next number of its organization's presence sequence, and a client that sends the
//! `presence_last_update_id` it last saw as `last_update_id` gets only the presences changed
//! since. A check-in records nothing when it would tell others nothing new (within
//! `PRESENCE_UPDATE_MIN_FREQ_SECS` of the last change), so a client polling every minute moves
//! the sequence about once a minute, not once per open window.

use serde_json::{Map, Value, json};

use crate::command::{Actor, Event, Outcome, require_human};
use crate::error::{ApiError, ApiResult};
use crate::ids::{RealmId, UserId};
use crate::model::{Presence, User};
use crate::params::Params;
use crate::store::{Change, Store};

use super::users::UserRef;

/// Zulip's `PRESENCE_PING_INTERVAL_SECS`: how often clients report.
pub const PRESENCE_PING_INTERVAL_SECS: i64 = 60;
/// Zulip's `OFFLINE_THRESHOLD_SECS`: a user not heard from for this long is offline.
pub const OFFLINE_THRESHOLD_SECS: i64 = 140;
/// Zulip's `PRESENCE_UPDATE_MIN_FREQ_SECONDS`: a time is moved only once it is this old, so
/// several windows checking in each minute write once.
const PRESENCE_UPDATE_MIN_FREQ_SECS: i64 = 55;
/// Zulip's `PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS`: in the legacy format a user
/// active this recently before their last check-in still shows as active.
const LEGACY_ACTIVITY_OFFSET_SECS: i64 = 70;
/// Zulip's `USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS`: past this many active users, others
/// learn of presence changes only by polling. Each event goes to everyone and everyone comes
/// online each day, so the work would grow with the square of the organization.
const PRESENCE_EVENTS_USER_LIMIT: usize = 100;
/// How old a presence may be and still be sent, when the client does not say
/// (`history_limit_days`, register's `presence_history_limit_days`).
pub const DEFAULT_HISTORY_LIMIT_DAYS: i64 = 14;

/// What presence data a client asks for, at a check-in or in register's `presence` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresenceQuery {
    /// The modern form keyed by user id, else the legacy form keyed by email.
    pub slim: bool,
    /// The `presence_last_update_id` the client holds: only presences changed after it are
    /// sent. `None`, `-1` and `0` ask for all.
    pub last_update_id: Option<i64>,
    /// How many days old a presence may be; ignored once the client holds data
    /// (`last_update_id` > 0); 0 asks for none.
    pub history_limit_days: i64,
}

/// A check-in's parameters, read once: the host records the check-in through the writer
/// ([`update_presence`]) and then reads the answer on a snapshot ([`update_presence_answer`]),
/// so the answer, which may hold everyone, is not built on the writer's thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresencePing {
    pub active: bool,
    /// Record only: no presences in the answer.
    pub ping_only: bool,
    pub query: PresenceQuery,
}

impl PresencePing {
    pub fn parse(params: &Params) -> ApiResult<PresencePing> {
        let status: String = params.required("status")?;
        let active = match status.as_str() {
            "active" => true,
            "idle" => false,
            other => return Err(ApiError::bad_request(format!("Invalid status: {other}"))),
        };
        let last_update_id = params.optional::<i64>("last_update_id")?;
        // Sending `last_update_id` is asking for the modern API (Zulip's rule).
        let slim = params.or("slim_presence", false)? || last_update_id.is_some();
        params.or("new_user_input", false)?;
        Ok(PresencePing {
            active,
            ping_only: params.or("ping_only", false)?,
            query: PresenceQuery {
                slim,
                last_update_id,
                history_limit_days: params.or("history_limit_days", DEFAULT_HISTORY_LIMIT_DAYS)?,
            },
        })
    }
}

/// The legacy per-client entry (`client`, `status`, `timestamp`, `pushable`).
fn legacy_entry(last_active_time: i64, last_connected_time: i64) -> Value {
    let (status, timestamp) = if last_active_time + LEGACY_ACTIVITY_OFFSET_SECS >= last_connected_time {
        ("active", last_active_time)
    } else {
        ("idle", last_connected_time)
    };
    json!({"client": "website", "status": status, "timestamp": timestamp, "pushable": false})
}

/// A user's presence in the legacy format: `aggregated` and one client entry.
pub fn legacy_presence(last_active_time: i64, last_connected_time: i64) -> Value {
    let entry = legacy_entry(last_active_time, last_connected_time);
    json!({
        "aggregated": {"client": entry["client"], "status": entry["status"], "timestamp": entry["timestamp"]},
        "website": entry,
    })
}

/// A user's presence in the modern ("slim") format.
pub fn slim_presence(last_active_time: i64, last_connected_time: i64) -> Value {
    json!({"active_timestamp": last_active_time, "idle_timestamp": last_connected_time})
}

/// The organization's presences a client asks for, with the `presence_last_update_id` to send
/// next time: the latest change among them, else what the client sent, else -1 (nothing).
/// Reads only the presences changed after the client's `last_update_id` (Zulip's
/// `get_presence_dict_by_realm`).
pub fn realm_presences(
    store: &impl Store,
    actor: &Actor,
    query: &PresenceQuery,
    now: i64,
) -> ApiResult<(Value, i64)> {
    let mut presences = Map::new();
    let mut latest = None;
    // A guest whose access to users is limited sees only the presence of those she sees (as in
    // a Zulip that sets `CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE`).
    let access = crate::user_access::UserAccess::of(store, &actor.realm, &actor.user)?;
    if query.history_limit_days != 0 {
        let after = query.last_update_id.unwrap_or(0).max(0);
        // A client that holds data wants every change since, however old.
        let oldest =
            (after == 0).then(|| now.saturating_sub(query.history_limit_days.saturating_mul(86_400)));
        for presence in store.presences_changed_after(actor.realm.id, after as u64)? {
            if oldest.is_some_and(|oldest| presence.last_connected_time < oldest) {
                continue;
            }
            let Some(user) =
                shown_user(store, actor.realm.id, presence.user_id)?.filter(|u| access.can_see(u))
            else {
                continue;
            };
            latest = latest.max(Some(presence.last_update_id));
            let (active, connected) = (presence.last_active_time, presence.last_connected_time);
            if query.slim {
                presences.insert(user.id.to_string(), slim_presence(active, connected));
            } else {
                presences.insert(user.email, legacy_presence(active, connected));
            }
        }
    }
    let last_update_id = match latest {
        Some(id) => i64::try_from(id).map_err(ApiError::internal)?,
        None => query.last_update_id.unwrap_or(-1),
    };
    Ok((Value::Object(presences), last_update_id))
}

/// Whose presence others see: active humans of the organization.
fn shown_user(store: &impl Store, realm: RealmId, id: UserId) -> ApiResult<Option<User>> {
    Ok(store.user(id)?.filter(|u| u.realm_id == realm && u.is_active && !u.is_bot()))
}

/// The presence after a check-in, or `None` when it changes nothing: a time moves only once it
/// is `PRESENCE_UPDATE_MIN_FREQ_SECS` old (Zulip's `do_update_user_presence`). The new presence
/// has no place in the sequence yet.
fn checked_in(previous: Option<Presence>, actor: &Actor, active: bool, now: i64) -> Option<Presence> {
    let Some(previous) = previous else {
        return Some(Presence {
            user_id: actor.user.id,
            realm_id: actor.realm.id,
            last_active_time: now,
            last_connected_time: now,
            last_update_id: 0,
        });
    };
    let mut next = previous;
    if now - previous.last_connected_time > PRESENCE_UPDATE_MIN_FREQ_SECS {
        next.last_connected_time = now;
    }
    if active && now - previous.last_active_time > PRESENCE_UPDATE_MIN_FREQ_SECS {
        next.last_active_time = now;
        next.last_connected_time = next.last_connected_time.max(now);
    }
    (next != previous).then_some(next)
}

/// Who hears of a presence change at once: every active user, unless there are more than
/// `PRESENCE_EVENTS_USER_LIMIT` (then nobody: they poll). Reads users only until it knows.
fn presence_event_recipients(store: &impl Store, realm: RealmId) -> ApiResult<Option<Vec<UserId>>> {
    let mut active = Vec::new();
    for id in store.realm_user_ids(realm)? {
        if store.user(id)?.is_some_and(|u| u.is_active) {
            if active.len() == PRESENCE_EVENTS_USER_LIMIT {
                return Ok(None);
            }
            active.push(id);
        }
    }
    Ok(Some(active))
}

/// The presence event other users get when someone comes online or goes idle. Its form follows
/// the receiving client's `simplified_presence_events` capability; both are sent here and the
/// event system gives each queue the one it asked for.
fn presence_event(users: Vec<UserId>, actor: &Actor, presence: &Presence, now: i64) -> Event {
    let (active, connected) = (presence.last_active_time, presence.last_connected_time);
    Event::Other {
        users,
        body: json!({
            "type": "presence",
            "user_id": actor.user.id,
            "email": actor.user.email,
            "server_timestamp": now,
            "presence": {"website": legacy_entry(active, connected)},
            "presences": {actor.user.id.to_string(): slim_presence(active, connected)},
        }),
    }
}

/// `POST /users/me/presence`, the write: records a check-in that changes something, as the
/// organization's next presence change. The presences it answers with are
/// [`update_presence_answer`]'s, read once this is durable.
pub fn update_presence(
    store: &impl Store,
    actor: &Actor,
    ping: &PresencePing,
    now: i64,
) -> ApiResult<Outcome> {
    require_human(actor)?;
    let mut outcome = Outcome::default().reply("server_timestamp", now as f64);
    let previous = store.presence(actor.user.id)?;
    let Some(mut presence) = checked_in(previous, actor, ping.active, now) else { return Ok(outcome) };
    presence.last_update_id = store.presence_sequence(actor.realm.id)? + 1;
    outcome.changes.push(Change::PutPresence(presence));
    // Zulip tells others only when something they see changes: the user comes online, or
    // switches between active and idle.
    let was_online = previous.is_some_and(|p| now - p.last_connected_time < OFFLINE_THRESHOLD_SECS);
    let status = |p: &Presence| legacy_entry(p.last_active_time, p.last_connected_time)["status"].clone();
    let status_changed = previous.is_none_or(|p| status(&p) != status(&presence));
    if (!was_online || status_changed)
        && let Some(users) = presence_event_recipients(store, actor.realm.id)?
    {
        outcome.events.push(presence_event(users, actor, &presence, now));
    }
    Ok(outcome)
}

/// `POST /users/me/presence`, the answer: the presences the check-in asked for (none when
/// `ping_only`) and `presence_last_update_id`.
pub fn update_presence_answer(
    store: &impl Store,
    actor: &Actor,
    ping: &PresencePing,
    now: i64,
) -> ApiResult<Outcome> {
    let outcome = Outcome::default().reply("server_timestamp", now as f64);
    if ping.ping_only {
        return Ok(outcome);
    }
    let (presences, last_update_id) = realm_presences(store, actor, &ping.query, now)?;
    Ok(outcome.reply("presences", presences).reply("presence_last_update_id", last_update_id))
}

/// `GET /realm/presence`.
pub fn get_presence(store: &impl Store, actor: &Actor, now: i64) -> ApiResult<Outcome> {
    let query =
        PresenceQuery { slim: false, last_update_id: None, history_limit_days: DEFAULT_HISTORY_LIMIT_DAYS };
    let (presences, last_update_id) = realm_presences(store, actor, &query, now)?;
    Ok(Outcome::default()
        .reply("presences", presences)
        .reply("server_timestamp", now as f64)
        .reply("presence_last_update_id", last_update_id))
}

/// `GET /users/{user_id_or_email}/presence`, as Zulip's `get_presence_backend`: one active
/// human's presence in the legacy format, without the per-client `client` and `pushable`
/// keys, and `aggregated` marked offline past the offline threshold.
pub fn get_user_presence(
    store: &impl Store,
    actor: &Actor,
    who: UserRef<'_>,
    now: i64,
) -> ApiResult<Outcome> {
    let segment = match who {
        UserRef::Id(id) => id.to_string(),
        UserRef::Email(email) => email.to_owned(),
    };
    let user: Option<User> = match who {
        UserRef::Id(id) => store.user(id)?,
        UserRef::Email(email) => match crate::api::users::user_by_api_email(store, actor.realm.id, email)? {
            Some(id) => store.user(id)?,
            None => None,
        },
    };
    // Someone a guest cannot see has no presence for her, as in a Zulip that sets
    // `CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE`.
    let access = crate::user_access::UserAccess::of(store, &actor.realm, &actor.user)?;
    let user = user
        .filter(|u| u.realm_id == actor.realm.id && u.is_active && access.can_see(u))
        .ok_or_else(ApiError::no_such_user)?;
    if user.is_bot() {
        return Err(ApiError::bad_request("Presence is not supported for bot users."));
    }
    let presence = store
        .presence(user.id)?
        .ok_or_else(|| ApiError::bad_request(format!("No presence data for {segment}")))?;
    let mut shown = legacy_presence(presence.last_active_time, presence.last_connected_time);
    if now - shown["aggregated"]["timestamp"].as_i64().unwrap_or(0) > OFFLINE_THRESHOLD_SECS {
        shown["aggregated"]["status"] = "offline".into();
    }
    for entry in shown.as_object_mut().into_iter().flat_map(|m| m.values_mut()) {
        if let Some(fields) = entry.as_object_mut() {
            fields.remove("client");
            fields.remove("pushable");
        }
    }
    Ok(Outcome::default().reply("presence", shown))
}
