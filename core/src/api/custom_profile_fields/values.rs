//! PATCH  /users/me/profile_data   update_profile_data
//! DELETE /users/me/profile_data   remove_profile_data
//!
//! Users' values for their organization's custom profile fields: checked by the field's type
//! with Zulip's texts, kept as the text clients read (a list of users as its JSON), rendered
//! as Markdown for the text types, and announced as `realm_user` updates. Administrators set
//! anyone's values through `PATCH /users/{user_id}` ([`set_profile_data_as_admin`]); users
//! change their own only where the field is `editable_by_user`.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome, active_user_ids};
use crate::error::{ApiError, ApiResult};
use crate::model::{ProfileField, ProfileFieldType, ProfileValue, User};
use crate::params::{BadValue, Json, Params, refuse_nul};
use crate::store::{Change, Store};

use super::field_data::FieldData;
use super::url::is_url;

/// Zulip's `check_short_string` limit, for short text, pronouns and external accounts.
pub const MAX_SHORT_VALUE_LENGTH: usize = 50;
/// Zulip's `check_long_string` limit.
pub const MAX_LONG_VALUE_LENGTH: usize = 500;

/// One element of `data`.
#[derive(Debug, Deserialize)]
struct Item {
    id: i64,
    #[serde(default)]
    value: Value,
}

/// What a value may be sent as.
enum Sent {
    Text(String),
    Ids(Vec<i64>),
    /// `null`, `""` or `[]`: an administrator clearing a value.
    Empty,
}

fn sent(index: usize, value: &Value) -> ApiResult<Sent> {
    let invalid = || BadValue::Invalid.error(&format!("data[{index}][\"value\"]"));
    Ok(match value {
        Value::String(text) => Sent::Text(text.clone()),
        Value::Array(items) => {
            Sent::Ids(items.iter().map(|i| i.as_i64().ok_or_else(invalid)).collect::<ApiResult<_>>()?)
        }
        Value::Null => Sent::Empty,
        _ => return Err(invalid()),
    })
}

fn not_found(id: i64) -> ApiError {
    ApiError::bad_request(format!("Field id {id} not found."))
}

fn not_editable() -> ApiError {
    ApiError::bad_request("You are not allowed to change this field. Contact an administrator to update it.")
}

fn human_only(actor: &Actor) -> ApiResult<()> {
    if actor.user.is_bot() {
        return Err(ApiError::bad_request("This endpoint does not accept bot requests."));
    }
    Ok(())
}

/// The field `id` of the actor's organization, if the actor may change values of it.
fn editable_field(fields: &[ProfileField], actor: &Actor, id: i64) -> ApiResult<ProfileField> {
    let field = fields.iter().find(|f| f.id as i64 == id).cloned().ok_or_else(|| not_found(id))?;
    if !actor.user.is_admin() && !field.editable_by_user {
        return Err(not_editable());
    }
    Ok(field)
}

/// A value checked against its field's type (Zulip's field validators, named after the field),
/// as the text that is stored.
fn checked_value(store: &impl Store, actor: &Actor, field: &ProfileField, value: Sent) -> ApiResult<String> {
    let name = &field.name;
    let text = |value: Sent| match value {
        Sent::Text(text) => Ok(text),
        _ => Err(ApiError::bad_request(format!("{name} is not a string"))),
    };
    let capped = |value: Sent, limit: usize| {
        let value = text(value)?;
        refuse_nul(name, &value)?;
        if value.chars().count() > limit {
            return Err(ApiError::bad_request(format!("{name} is too long (limit: {limit} characters)")));
        }
        Ok(value)
    };
    match field.field_type {
        ProfileFieldType::ShortText | ProfileFieldType::Pronouns | ProfileFieldType::ExternalAccount => {
            capped(value, MAX_SHORT_VALUE_LENGTH)
        }
        ProfileFieldType::LongText => capped(value, MAX_LONG_VALUE_LENGTH),
        ProfileFieldType::Date => {
            let value = text(value)?;
            if !is_iso_date(&value) {
                return Err(ApiError::bad_request(format!("{name} is not a date")));
            }
            Ok(value)
        }
        ProfileFieldType::Url => {
            let value = text(value)?;
            if !is_url(&value) {
                return Err(ApiError::bad_request(format!("{name} is not a URL")));
            }
            Ok(value)
        }
        ProfileFieldType::Select => {
            let value = text(value)?;
            if !FieldData::from_stored(&field.field_data).keys().any(|k| k == value) {
                return Err(ApiError::bad_request(format!("'{value}' is not a valid choice for '{name}'.")));
            }
            Ok(value)
        }
        ProfileFieldType::User => {
            let ids = match value {
                Sent::Ids(ids) => ids,
                _ => return Err(ApiError::bad_request("User IDs is not a list")),
            };
            checked_user_ids(store, actor, &ids)?;
            Ok(json!(ids).to_string())
        }
    }
}

/// Zulip's `check_valid_user_ids`: every id an active human of the organization.
fn checked_user_ids(store: &impl Store, actor: &Actor, ids: &[i64]) -> ApiResult<()> {
    let mut users = Vec::new();
    let mut invalid = Vec::new();
    for id in ids {
        let found = match u64::try_from(*id) {
            Ok(id) => store.user(crate::ids::UserId(id))?.filter(|u| u.realm_id == actor.realm.id),
            Err(_) => None,
        };
        match found {
            Some(user) => users.push(user),
            None => invalid.push(id.to_string()),
        }
    }
    if !invalid.is_empty() {
        return Err(ApiError::bad_request(format!("Invalid user IDs: {}", invalid.join(", "))));
    }
    for user in users {
        if !user.is_active {
            return Err(ApiError::bad_request(format!("User with ID {} is deactivated", user.id)));
        }
        if user.is_bot() {
            return Err(ApiError::bad_request(format!("User with ID {} is a bot", user.id)));
        }
    }
    Ok(())
}

/// `YYYY-MM-DD` naming a real day, the only form Python's `date.isoformat` gives back.
fn is_iso_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| bytes[range].iter().all(u8::is_ascii_digit);
    if bytes.len() != 10
        || bytes[4] != b'-'
        || bytes[7] != b'-'
        || !digits(0..4)
        || !digits(5..7)
        || !digits(8..10)
    {
        return false;
    }
    let number = |range: std::ops::Range<usize>| text[range].parse::<u32>().unwrap_or(0);
    let (year, month, day) = (number(0..4), number(5..7), number(8..10));
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    };
    year >= 1 && (1..=days).contains(&day)
}

/// A user's values as `profile_data` in user objects: field id → `{value, rendered_value}`.
pub fn profile_data_json(values: &[ProfileValue]) -> Value {
    let mut data = serde_json::Map::new();
    for value in values {
        let mut shown = json!({"value": value.value});
        if let Some(rendered) = &value.rendered_value {
            shown["rendered_value"] = rendered.clone().into();
        }
        data.insert(value.field_id.to_string(), shown);
    }
    Value::Object(data)
}

/// The `realm_user` update for one value (`value` null when it was removed).
fn value_event(
    store: &impl Store,
    actor: &Actor,
    user: &User,
    field: u64,
    value: Option<&ProfileValue>,
) -> ApiResult<Event> {
    let mut data = json!({"id": field, "value": value.map(|v| v.value.clone())});
    if let Some(rendered) = value.and_then(|v| v.rendered_value.as_ref()).filter(|r| !r.is_empty()) {
        data["rendered_value"] = rendered.clone().into();
    }
    Ok(Event::Other {
        users: active_user_ids(store, actor.realm.id)?,
        body: json!({"type": "realm_user", "op": "update", "person": {"user_id": user.id, "custom_profile_field": data}}),
    })
}

/// Sets checked values, skipping those that do not change (Zulip's
/// `do_update_user_custom_profile_data_if_changed`); a field sent twice takes the last value.
fn set_values(
    store: &impl Store,
    actor: &Actor,
    user: &User,
    checked: Vec<(ProfileField, String)>,
    outcome: &mut Outcome,
) -> ApiResult<()> {
    let mut current = store.profile_values(user.id)?;
    for (field, text) in checked {
        if current.iter().any(|v| v.field_id == field.id && v.value == text) {
            continue;
        }
        let rendered_value = if field.field_type.is_rendered() {
            Some(crate::api::messages::render_message(store, actor, user, &text)?.html)
        } else {
            None
        };
        let value = ProfileValue { field_id: field.id, value: text, rendered_value };
        outcome.events.push(value_event(store, actor, user, field.id, Some(&value))?);
        current.retain(|v| v.field_id != field.id);
        current.push(value.clone());
        outcome.changes.push(Change::PutProfileValue { user: user.id, field: field.id, value: Some(value) });
    }
    Ok(())
}

/// Removes a user's value for a field, if there is one.
fn clear_value(
    store: &impl Store,
    actor: &Actor,
    user: &User,
    field: u64,
    outcome: &mut Outcome,
) -> ApiResult<()> {
    let had_value = store.profile_values(user.id)?.iter().any(|v| v.field_id == field)
        && !outcome.changes.iter().any(|c| matches!(c, Change::PutProfileValue { user: u, field: f, value: None } if *u == user.id && *f == field));
    if had_value {
        outcome.events.push(value_event(store, actor, user, field, None)?);
        outcome.changes.push(Change::PutProfileValue { user: user.id, field, value: None });
    }
    Ok(())
}

/// Clears every user's value of `field` that `remove` picks (the options an administrator
/// took out of a list field).
pub(super) fn clear_values_where(
    store: &impl Store,
    actor: &Actor,
    field: &ProfileField,
    remove: impl Fn(&str) -> bool,
    outcome: &mut Outcome,
) -> ApiResult<()> {
    for user in store.realm_users(actor.realm.id)? {
        if store.profile_values(user.id)?.iter().any(|v| v.field_id == field.id && remove(&v.value)) {
            clear_value(store, actor, &user, field.id, outcome)?;
        }
    }
    Ok(())
}

fn items(params: &Params, name: &str) -> ApiResult<Vec<Item>> {
    Ok(params.required::<Json<Vec<Item>>>(name)?.into_inner())
}

/// `PATCH /users/me/profile_data`.
pub fn update_profile_data(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    human_only(actor)?;
    let items = items(params, "data")?;
    let fields = store.profile_fields(actor.realm.id)?;
    let mut checked = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let field = editable_field(&fields, actor, item.id)?;
        let value = match sent(index, &item.value)? {
            // Users clear values with DELETE; an empty value here is checked like any other.
            Sent::Empty => return Err(BadValue::Invalid.error(&format!("data[{index}][\"value\"]"))),
            value => value,
        };
        let text = checked_value(store, actor, &field, value)?;
        checked.push((field, text));
    }
    let mut outcome = Outcome::default();
    set_values(store, actor, &actor.user, checked, &mut outcome)?;
    Ok(outcome)
}

/// `DELETE /users/me/profile_data`: `data` lists field ids.
pub fn remove_profile_data(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    human_only(actor)?;
    let Json(ids) = params.required::<Json<Vec<i64>>>("data")?;
    let fields = store.profile_fields(actor.realm.id)?;
    let mut outcome = Outcome::default();
    for id in ids {
        let field = editable_field(&fields, actor, id)?;
        clear_value(store, actor, &actor.user, field.id, &mut outcome)?;
    }
    Ok(outcome)
}

/// `profile_data` of `PATCH /users/{user_id}`: an administrator sets `target`'s values, an
/// empty value (`null`, `""`, `[]`) removing one.
pub fn set_profile_data_as_admin(
    store: &impl Store,
    actor: &Actor,
    target: &User,
    params: &Params,
    outcome: &mut Outcome,
) -> ApiResult<()> {
    let items = items(params, "profile_data")?;
    let fields = store.profile_fields(actor.realm.id)?;
    let mut checked = Vec::new();
    let mut cleared = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let field = editable_field(&fields, actor, item.id)?;
        match sent(index, &item.value)? {
            Sent::Empty => cleared.push(field.id),
            Sent::Text(text) if text.is_empty() => cleared.push(field.id),
            Sent::Ids(ids) if ids.is_empty() => cleared.push(field.id),
            value => {
                let text = checked_value(store, actor, &field, value)?;
                checked.push((field, text));
            }
        }
    }
    for field in cleared {
        clear_value(store, actor, target, field, outcome)?;
    }
    set_values(store, actor, target, checked, outcome)
}

#[cfg(test)]
mod tests {
    use super::is_iso_date;

    #[test]
    fn dates_are_real_days_in_iso_form() {
        for good in ["2024-02-29", "1999-12-31", "0001-01-01"] {
            assert!(is_iso_date(good), "{good}");
        }
        for bad in [
            "2023-02-29",
            "2024-13-01",
            "2024-1-01",
            "20240101",
            "2024-01-01T00:00",
            "0000-01-01",
            "abcd-ef-gh",
        ] {
            assert!(!is_iso_date(bad), "{bad}");
        }
    }
}
