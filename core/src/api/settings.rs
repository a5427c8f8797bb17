//! PATCH /settings   update_settings
//!
//! A user's own settings (Zulip's `UserBaseSettings`): each is checked against its type and
//! choices, saved as a change from the defaults, and told to the user's clients as a
//! `user_settings` event (the event system adds the legacy forms for older clients). Two are
//! kept on the user record because user objects show them, and others hear of them as
//! `realm_user` updates: `timezone` (an IANA name, a link stored as its zone) and
//! `email_address_visibility` (who sees the real email; see `email_visibility_events`).

use serde_json::{Map, Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::model::settings::{
    Allowed, READ_ONLY_SETTINGS, allowed_values, default_user_settings, user_settings,
};
use crate::model::{EmailVisibility, RecordKind, User};
use crate::params::Params;
use crate::store::{Change, Store};

use super::users::validate_full_name;

fn invalid(name: &str) -> ApiError {
    ApiError::bad_request(format!("Invalid {name}"))
}

/// Reads one setting, typed like its default and within its choices.
pub(crate) fn read_setting(params: &Params, name: &str, default: &Value) -> ApiResult<Option<Value>> {
    let value: Value = match default {
        Value::Bool(_) => match params.optional::<bool>(name)? {
            Some(on) => on.into(),
            None => return Ok(None),
        },
        Value::Number(_) => match params.optional::<i64>(name)? {
            Some(n) => {
                let ok = match allowed_values(name) {
                    Allowed::Ints(choices) => choices.contains(&n),
                    Allowed::Range(low, high) => (low..=high).contains(&n),
                    _ => true,
                };
                if !ok {
                    return Err(invalid(name));
                }
                n.into()
            }
            None => return Ok(None),
        },
        Value::String(_) => match params.optional::<String>(name)? {
            Some(text) => {
                let ok = match allowed_values(name) {
                    Allowed::Strings(choices) => choices.contains(&text.as_str()),
                    _ if name == "timezone" => crate::timezones::is_known(&text),
                    _ => true,
                };
                if !ok {
                    return Err(invalid(name));
                }
                // Zulip stores a link's zone (`Asia/Calcutta` as `Asia/Kolkata`).
                if name == "timezone" { crate::timezones::canonical(&text).into() } else { text.into() }
            }
            None => return Ok(None),
        },
        _ => return Ok(None),
    };
    Ok(Some(value))
}

/// The settings kept on the user record rather than with the others, because user objects
/// show them or depend on them.
fn with_record_settings(user: &User, mut settings: Map<String, Value>) -> Map<String, Value> {
    settings.insert("email_address_visibility".into(), user.email_address_visibility.value().into());
    settings
}

/// `PATCH /settings`.
pub fn update_settings(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let user = &actor.user;
    if user.is_bot() {
        return Err(ApiError::bad_request("This endpoint does not accept bot requests."));
    }
    let defaults = default_user_settings(&user.timezone);
    let mut changed = store.user_settings(user.id)?;
    let current = with_record_settings(user, user_settings(&user.timezone, &changed));
    let mut outcome = Outcome::default();
    let mut updated_user: Option<User> = None;
    if let Some(name) = params.optional::<String>("full_name")? {
        let name = validate_full_name(&name)?;
        if name != user.full_name {
            let everyone = crate::command::active_user_ids(store, actor.realm.id)?;
            outcome.events.push(Event::Other {
                users: everyone,
                body: json!({"type": "realm_user", "op": "update", "person": {"user_id": user.id, "full_name": name}}),
            });
            updated_user = Some(User { full_name: name, ..user.clone() });
        }
    }
    let mut events: Vec<(String, Value)> = Vec::new();
    for (name, default) in &defaults {
        if READ_ONLY_SETTINGS.contains(&name.as_str()) {
            continue;
        }
        let Some(value) = read_setting(params, name, default)? else { continue };
        if current.get(name) == Some(&value) {
            continue;
        }
        if name == "timezone" {
            // The time zone is also the user's (realm_user) field.
            let base = updated_user.take().unwrap_or_else(|| user.clone());
            updated_user = Some(User { timezone: value.as_str().unwrap_or_default().to_owned(), ..base });
        } else if name == "email_address_visibility" {
            let base = updated_user.take().unwrap_or_else(|| user.clone());
            let visibility = value.as_i64().and_then(EmailVisibility::from_value).unwrap_or_default();
            let mut updated = User { email_address_visibility: visibility, ..base };
            updated.email = super::users::api_email(&updated, &actor.realm_url);
            updated_user = Some(updated);
        } else if *default == value {
            changed.remove(name);
        } else {
            changed.insert(name.clone(), value.clone());
        }
        events.push((name.clone(), value));
    }
    if events.iter().any(|(name, value)| name == "enable_drafts_synchronization" && *value == false) {
        // Zulip deletes the server's copies, without events: each client keeps its own drafts.
        for (id, _) in store.records(user.id, RecordKind::Draft)? {
            outcome.changes.push(Change::DeleteRecord { user: user.id, kind: RecordKind::Draft, id });
        }
    }
    for (property, value) in events {
        let mut body = json!({"type": "user_settings", "op": "update", "property": property, "value": value});
        if property == "default_language" {
            body["language_name"] = "English".into();
        }
        outcome.events.push(Event::Other { users: vec![user.id], body });
        if property == "timezone" {
            // Everyone sees users' time zones (with the API email, for older clients).
            let person = json!({"email": user.email, "user_id": user.id, "timezone": value});
            outcome.events.push(Event::Other {
                users: crate::command::active_user_ids(store, actor.realm.id)?,
                body: json!({"type": "realm_user", "op": "update", "person": person}),
            });
        }
        if property == "allow_private_data_export" {
            let consented = value.as_bool().unwrap_or(false);
            outcome.events.push(super::realm_export::consent_event(
                store,
                actor.realm.id,
                user.id,
                consented,
            )?);
        }
        if property == "email_address_visibility"
            && let Some(updated) = &updated_user
        {
            email_visibility_events(store, actor, updated, &mut outcome)?;
        }
    }
    outcome.changes.push(Change::PutUserSettings(user.id, changed));
    if let Some(updated) = updated_user {
        outcome.changes.push(Change::PutUser(updated));
    }
    Ok(outcome)
}

/// What others learn when a user changes who may see their real email (Zulip's
/// `do_change_user_setting`): those who gain access get it and those who lose it get null;
/// when the API email changes (to or from `Everyone`), everyone gets the new one.
fn email_visibility_events(
    store: &impl Store,
    actor: &Actor,
    updated: &User,
    outcome: &mut Outcome,
) -> ApiResult<()> {
    let before = &actor.user;
    let (mut gained, mut lost) = (Vec::new(), Vec::new());
    for other in store.realm_users(actor.realm.id)?.iter().filter(|u| u.is_active) {
        match (other.can_see_delivery_email(before), other.can_see_delivery_email(updated)) {
            (false, true) => gained.push(other.id),
            (true, false) => lost.push(other.id),
            _ => {}
        }
    }
    for (users, delivery_email) in [(gained, Some(&updated.delivery_email)), (lost, None)] {
        if !users.is_empty() {
            let person = json!({"user_id": updated.id, "delivery_email": delivery_email});
            outcome.events.push(Event::Other {
                users,
                body: json!({"type": "realm_user", "op": "update", "person": person}),
            });
        }
    }
    if updated.email != before.email {
        let person = json!({"user_id": updated.id, "new_email": updated.email});
        outcome.events.push(Event::Other {
            users: crate::command::active_user_ids(store, actor.realm.id)?,
            body: json!({"type": "realm_user", "op": "update", "person": person}),
        });
    }
    Ok(())
}

/// A user's settings as register shows them.
pub fn settings_of(store: &impl Store, user: &User) -> ApiResult<Map<String, Value>> {
    Ok(with_record_settings(user, user_settings(&user.timezone, &store.user_settings(user.id)?)))
}
