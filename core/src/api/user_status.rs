//! POST /users/me/status        update_status
//! GET  /users/{user_id}/status get_user_status
//! POST /users/{user_id}/status update_status_for_user (an administrator, feature level 407)
//!
//! A user's status (spec 4.7, 2.12): a short text and an emoji, shown to everyone in the
//! organization, and `away`, which Zulip keeps as the inverse of the `presence_enabled`
//! setting. Every change is a `user_status` event to the organization.

use serde_json::{Map, Value, json};

use crate::command::{Actor, Event, Outcome, active_user_ids, require_human};
use crate::error::{ApiError, ApiResult};
use crate::ids::UserId;
use crate::model::{RecordKind, User};
use crate::params::{Params, refuse_nul};
use crate::store::{Change, Store};

use super::emoji::{UNICODE_EMOJI, check_emoji, emoji_by_name, reaction_type};
use super::records::record;

/// Zulip's `UserStatus.MAX_STATUS_TEXT_LENGTH`.
pub const MAX_STATUS_TEXT_LENGTH: usize = 60;

/// The only record of its kind a user has.
const STATUS_ID: u64 = 0;

/// What a user set: text and emoji, empty when cleared.
fn stored_status(store: &impl Store, user: UserId) -> ApiResult<Map<String, Value>> {
    Ok(match record(store, user, RecordKind::UserStatus, STATUS_ID)? {
        Some(Value::Object(status)) => status,
        _ => Map::new(),
    })
}

/// A user's status as clients see it: only what is set, with `away` when the user hides
/// their presence.
pub fn status_json(store: &impl Store, user: &User) -> ApiResult<Map<String, Value>> {
    let mut shown = Map::new();
    let stored = stored_status(store, user.id)?;
    if let Some(text) = stored.get("status_text").filter(|t| t.as_str().is_some_and(|t| !t.is_empty())) {
        shown.insert("status_text".into(), text.clone());
    }
    if stored.get("emoji_name").is_some_and(|n| n.as_str().is_some_and(|n| !n.is_empty())) {
        for key in ["emoji_name", "emoji_code", "reaction_type"] {
            shown.insert(key.into(), stored.get(key).cloned().unwrap_or_default());
        }
    }
    let settings = super::settings::settings_of(store, user)?;
    if settings.get("presence_enabled") == Some(&Value::Bool(false)) {
        shown.insert("away".into(), true.into());
    }
    Ok(shown)
}

/// Register's `user_status`: every active user of the organization who has one, by id.
pub fn user_statuses(store: &impl Store, actor: &Actor) -> ApiResult<Value> {
    let mut all = Map::new();
    for user in store.realm_users(actor.realm.id)?.iter().filter(|u| u.is_active) {
        let status = status_json(store, user)?;
        if !status.is_empty() {
            all.insert(user.id.to_string(), Value::Object(status));
        }
    }
    Ok(Value::Object(all))
}

/// `GET /users/{user_id}/status`: anyone of the organization but bots (Zulip's
/// `access_user_by_id`).
pub fn get_user_status(store: &impl Store, actor: &Actor, user: UserId) -> ApiResult<Outcome> {
    let user = store
        .user(user)?
        .filter(|u| u.realm_id == actor.realm.id && !u.is_bot())
        .ok_or_else(|| ApiError::bad_request("No such user"))?;
    if !user.is_active {
        return Err(ApiError::bad_request("User is deactivated"));
    }
    Ok(Outcome::default().reply("status", Value::Object(status_json(store, &user)?)))
}

/// The emoji a request sets, if it names one (Zulip's `check_update_user_status`): an empty
/// name clears it; a name alone takes the code and type it has now; a code or type sent with
/// the name is used as sent and must agree with it.
fn requested_emoji(
    store: &impl Store,
    realm: crate::ids::RealmId,
    name: Option<String>,
    code: Option<String>,
    kind: Option<String>,
) -> ApiResult<Option<(String, String, String)>> {
    let Some(name) = name else {
        if code.is_some() || kind.is_some() {
            return Err(ApiError::bad_request(
                "Client must pass emoji_name if they pass either emoji_code or reaction_type.",
            ));
        }
        return Ok(None);
    };
    if name.is_empty() {
        return Ok(Some((String::new(), String::new(), UNICODE_EMOJI.to_owned())));
    }
    let (code, kind) = match (code, kind) {
        (Some(code), Some(kind)) => (code, kind),
        (code, kind) => {
            let (found_code, found_kind) = emoji_by_name(store, realm, &name)?;
            (code.unwrap_or(found_code), kind.unwrap_or_else(|| found_kind.to_owned()))
        }
    };
    let kind = reaction_type(&kind)?;
    check_emoji(store, realm, &name, &code, kind)?;
    Ok(Some((name, code, kind.to_owned())))
}

/// `POST /users/me/status` (spec 4.7): only the given fields change.
pub fn update_status(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    require_human(actor)?;
    let away = params.optional::<bool>("away")?;
    set_status(store, actor, &actor.user, away, params)
}

/// `POST /users/{user_id}/status`: an administrator sets someone's text and emoji (not
/// `away`, which is the user's own presence setting), as Zulip's `update_user_status_admin`.
pub fn update_status_for_user(
    store: &impl Store,
    actor: &Actor,
    target: UserId,
    params: &Params,
) -> ApiResult<Outcome> {
    let user = store
        .user(target)?
        .filter(|u| u.realm_id == actor.realm.id && u.is_active && !u.is_bot())
        .ok_or_else(|| ApiError::bad_request("No such user"))?;
    let owner_only = user.role == crate::model::Role::Owner && actor.user.role != crate::model::Role::Owner;
    if !actor.user.is_admin() || owner_only {
        return Err(ApiError::bad_request("Insufficient permission"));
    }
    set_status(store, actor, &user, None, params)
}

/// Sets `user`'s status from the request's fields, `away` as given.
fn set_status(
    store: &impl Store,
    actor: &Actor,
    user: &User,
    away: Option<bool>,
    params: &Params,
) -> ApiResult<Outcome> {
    let status_text = params.optional::<String>("status_text")?.map(|t| t.trim().to_owned());
    let emoji_name = params.optional::<String>("emoji_name")?;
    let emoji_code = params.optional::<String>("emoji_code")?;
    let kind = params.optional::<String>("reaction_type")?;
    if let Some(text) = &status_text {
        refuse_nul("status_text", text)?;
    }
    if let Some(text) = &status_text
        && text.chars().count() > MAX_STATUS_TEXT_LENGTH
    {
        return Err(ApiError::bad_request(format!(
            "status_text is too long (limit: {MAX_STATUS_TEXT_LENGTH} characters)"
        )));
    }
    // An emoji code or type alone is no new value: Zulip asks for a value first.
    if away.is_none() && status_text.is_none() && emoji_name.is_none() {
        return Err(ApiError::bad_request("Client did not pass any new values."));
    }
    let emoji = requested_emoji(store, actor.realm.id, emoji_name, emoji_code, kind)?;

    let mut status = stored_status(store, user.id)?;
    let mut event = json!({"type": "user_status", "user_id": user.id});
    if let Some(text) = status_text {
        status.insert("status_text".into(), text.clone().into());
        event["status_text"] = text.into();
    }
    if let Some((name, code, kind)) = emoji {
        for (key, value) in [("emoji_name", name), ("emoji_code", code), ("reaction_type", kind)] {
            status.insert(key.into(), value.clone().into());
            event[key] = value.into();
        }
    }
    let mut outcome = Outcome::default();
    if let Some(away) = away {
        event["away"] = away.into();
        // Zulip keeps `away` as the inverse of `presence_enabled`, and tells the user's
        // clients of the setting too.
        let settings_params = Params::from_pairs([("presence_enabled".to_owned(), (!away).to_string())]);
        let settings = super::settings::update_settings(store, actor, &settings_params)?;
        outcome.changes.extend(settings.changes);
        outcome.events.extend(settings.events);
    }
    outcome.changes.push(Change::PutRecord {
        user: user.id,
        kind: RecordKind::UserStatus,
        id: STATUS_ID,
        value: Value::Object(status),
    });
    outcome.events.push(Event::Other { users: active_user_ids(store, actor.realm.id)?, body: event });
    Ok(outcome)
}
