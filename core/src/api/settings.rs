//! PATCH /settings   update_settings
//!
//! A user's own settings (Zulip's `UserBaseSettings`): each is checked against its type and
//! choices, saved as a change from the defaults, and told to the user's clients as a
//! `user_settings` event (the event system adds the legacy forms for older clients).

use serde_json::{Map, Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::model::settings::{
    Allowed, READ_ONLY_SETTINGS, allowed_values, default_user_settings, user_settings,
};
use crate::model::{RecordKind, User};
use crate::params::Params;
use crate::store::{Change, Store};

use super::users::validate_full_name;

/// The longest time zone name accepted (the IANA database's longest is 32 characters).
const MAX_TIMEZONE_LENGTH: usize = 40;

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
                    _ if name == "timezone" => valid_timezone(&text),
                    _ => true,
                };
                if !ok {
                    return Err(invalid(name));
                }
                text.into()
            }
            None => return Ok(None),
        },
        _ => return Ok(None),
    };
    Ok(Some(value))
}

/// An IANA-style zone name (`Area/City`, `UTC`) or empty for "not set". Without a zone
/// database in core, the shape is checked, not the name.
fn valid_timezone(name: &str) -> bool {
    name.len() <= MAX_TIMEZONE_LENGTH && name.chars().all(|c| c.is_ascii_alphanumeric() || "/_+-".contains(c))
}

/// `PATCH /settings`.
pub fn update_settings(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let user = &actor.user;
    let defaults = default_user_settings(&user.timezone);
    let mut changed = store.user_settings(user.id)?;
    let current = user_settings(&user.timezone, &changed);
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
    }
    outcome.changes.push(Change::PutUserSettings(user.id, changed));
    if let Some(updated) = updated_user {
        outcome.changes.push(Change::PutUser(updated));
    }
    Ok(outcome)
}

/// A user's settings as register shows them.
pub fn settings_of(store: &impl Store, user: &User) -> ApiResult<Map<String, Value>> {
    Ok(user_settings(&user.timezone, &store.user_settings(user.id)?))
}
