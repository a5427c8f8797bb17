//! GET    /realm/profile_fields              get_custom_profile_fields
//! POST   /realm/profile_fields              create_custom_profile_field
//! PATCH  /realm/profile_fields              reorder_custom_profile_fields
//! PATCH  /realm/profile_fields/{field_id}   update_custom_profile_field
//! DELETE /realm/profile_fields/{field_id}   remove_custom_profile_field
//!
//! The fields an organization adds to its users' profiles (Zulip's `CustomProfileField`).
//! Anyone reads them; administrators define them. Every change sends the whole list as a
//! `custom_profile_fields` event. Users' values are in [`values`].

mod external_accounts;
mod field_data;
mod url;
pub mod values;

use serde_json::{Map, Value, json};

use crate::command::{Actor, Event, Outcome, active_user_ids, require_admin};
use crate::error::{ApiError, ApiResult};
use crate::ids::IdKind;
use crate::model::{ProfileField, ProfileFieldType};
use crate::params::{Json, Params, refuse_nul};
use crate::store::{Change, IdAllocator, Store};

use external_accounts::default_account;
pub use external_accounts::default_external_accounts_json;
use field_data::{FieldData, validate_external_account_field_data, validate_select_field_data};

/// Zulip's `CustomProfileField.NAME_MAX_LENGTH`.
pub const MAX_NAME_LENGTH: usize = 40;
/// Zulip's `CustomProfileField.HINT_MAX_LENGTH`.
pub const MAX_HINT_LENGTH: usize = 80;
/// Zulip's `MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS`.
pub const MAX_SUMMARY_FIELDS: usize = 2;

/// The organization's fields in display order.
pub fn realm_fields(store: &impl Store, actor: &Actor) -> ApiResult<Vec<ProfileField>> {
    let mut fields = store.profile_fields(actor.realm.id)?;
    fields.sort_by_key(|f| (f.order, f.id));
    Ok(fields)
}

/// A field as clients see it (Zulip's `CustomProfileField.as_dict`).
pub fn field_json(field: &ProfileField) -> Value {
    let mut shown = json!({
        "id": field.id,
        "name": field.name,
        "type": field.field_type.value(),
        "hint": field.hint,
        "field_data": field.field_data,
        "order": field.order,
        "required": field.required,
        "editable_by_user": field.editable_by_user,
    });
    if field.display_in_profile_summary {
        shown["display_in_profile_summary"] = true.into();
    }
    shown
}

/// `custom_profile_field_types` in register: each type by its keyword.
pub fn field_types_json() -> Value {
    let mut types = Map::new();
    for kind in ProfileFieldType::ALL {
        types.insert(kind.keyword().into(), json!({"id": kind.value(), "name": kind.display_name()}));
    }
    Value::Object(types)
}

/// The whole list after a change, to every active user.
fn fields_event(store: &impl Store, actor: &Actor, fields: &[ProfileField]) -> ApiResult<Event> {
    let mut sorted: Vec<&ProfileField> = fields.iter().collect();
    sorted.sort_by_key(|f| (f.order, f.id));
    let shown: Vec<Value> = sorted.into_iter().map(field_json).collect();
    Ok(Event::Other {
        users: active_user_ids(store, actor.realm.id)?,
        body: json!({"type": "custom_profile_fields", "fields": shown}),
    })
}

fn not_found(id: u64) -> ApiError {
    ApiError::bad_request(format!("Field id {id} not found."))
}

/// The field `id` of the actor's organization.
fn field_in_realm(store: &impl Store, actor: &Actor, id: u64) -> ApiResult<ProfileField> {
    store.profile_fields(actor.realm.id)?.into_iter().find(|f| f.id == id).ok_or_else(|| not_found(id))
}

fn summary_limit_reached(fields: &[ProfileField], except: Option<u64>) -> bool {
    fields.iter().filter(|f| f.display_in_profile_summary && Some(f.id) != except).count()
        >= MAX_SUMMARY_FIELDS
}

fn summary_limit_error() -> ApiError {
    ApiError::bad_request(format!(
        "Only {MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary."
    ))
}

/// An external-account field naming one of Zulip's default services, whose label and hint
/// come from the table.
fn is_default_external(kind: Option<ProfileFieldType>, data: &FieldData) -> bool {
    kind == Some(ProfileFieldType::ExternalAccount) && data.text("subtype").is_some_and(|s| s != "custom")
}

/// Zulip's `validate_custom_profile_field`, in its order: the type's `field_data`, the label
/// and hint (unless a default service supplies them), the type, the summary rule.
fn validate_field(
    name: &str,
    hint: &str,
    kind: Option<ProfileFieldType>,
    data: &FieldData,
    display_in_profile_summary: bool,
) -> ApiResult<ProfileFieldType> {
    match kind {
        Some(ProfileFieldType::Select) => validate_select_field_data(data)?,
        Some(ProfileFieldType::ExternalAccount) => validate_external_account_field_data(data)?,
        _ => {}
    }
    refuse_nul("name", name)?;
    refuse_nul("hint", hint)?;
    if !is_default_external(kind, data) {
        if name.trim().is_empty() {
            return Err(ApiError::bad_request("Label cannot be blank."));
        }
        if hint.chars().count() > MAX_HINT_LENGTH {
            return Err(ApiError::bad_request(format!(
                "hint is too long (limit: {MAX_HINT_LENGTH} characters)"
            )));
        }
        if name.chars().count() > MAX_NAME_LENGTH {
            return Err(ApiError::bad_request(format!(
                "name is too long (limit: {MAX_NAME_LENGTH} characters)"
            )));
        }
    }
    let kind = kind.ok_or_else(|| ApiError::bad_request("Invalid field type."))?;
    if display_in_profile_summary && matches!(kind, ProfileFieldType::LongText | ProfileFieldType::User) {
        return Err(ApiError::bad_request("Field type not supported for display in profile summary."));
    }
    Ok(kind)
}

/// Labels are unique within an organization (compared exactly, as Zulip's database does).
fn check_name_free(fields: &[ProfileField], name: &str, except: Option<u64>) -> ApiResult<()> {
    if fields.iter().any(|f| f.name == name && Some(f.id) != except) {
        return Err(ApiError::bad_request("A field with that label already exists."));
    }
    Ok(())
}

/// `GET /realm/profile_fields`.
pub fn get_custom_profile_fields(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    let fields: Vec<Value> = realm_fields(store, actor)?.iter().map(field_json).collect();
    Ok(Outcome::default().reply("custom_fields", fields))
}

/// `POST /realm/profile_fields`.
pub fn create_custom_profile_field(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let name = params.or("name", String::new())?.trim().to_owned();
    let hint: String = params.or("hint", String::new())?;
    let data = FieldData::from_params(params)?.unwrap_or_default();
    let type_value: i64 = params.required("field_type")?;
    let display_in_profile_summary = params.or("display_in_profile_summary", false)?;
    let required = params.or("required", false)?;
    let editable_by_user = params.or("editable_by_user", true)?;
    let fields = store.profile_fields(actor.realm.id)?;
    if display_in_profile_summary && summary_limit_reached(&fields, None) {
        return Err(summary_limit_error());
    }
    let requested = ProfileFieldType::from_value(type_value);
    let kind = validate_field(&name, &hint, requested, &data, display_in_profile_summary)?;
    let (name, hint, field_data) = match data.text("subtype").and_then(default_account) {
        Some((label, default_hint)) if is_default_external(requested, &data) => {
            let subtype = data.text("subtype").unwrap_or_default();
            let stored =
                FieldData(vec![("subtype".into(), field_data::FieldDataValue::Text(subtype.into()))]);
            (label.to_owned(), default_hint.to_owned(), stored.to_json_text())
        }
        _ => {
            let stored = match kind {
                ProfileFieldType::Select | ProfileFieldType::ExternalAccount => data.to_json_text(),
                _ => String::new(),
            };
            (name, hint, stored)
        }
    };
    check_name_free(&fields, &name, None)?;
    let id = IdAllocator::new(store, IdKind::ProfileField)?.take();
    let field = ProfileField {
        id,
        realm_id: actor.realm.id,
        name,
        hint,
        field_type: kind,
        field_data,
        // A new field goes last: Zulip sets its order to its id.
        order: id as i64,
        display_in_profile_summary,
        required,
        editable_by_user,
    };
    let mut all = fields;
    all.push(field.clone());
    let event = fields_event(store, actor, &all)?;
    Ok(Outcome { changes: vec![Change::PutProfileField(field)], events: vec![event], ..Outcome::default() }
        .reply("id", id))
}

/// `PATCH /realm/profile_fields/{field_id}`: what is sent changes; the type never does.
pub fn update_custom_profile_field(
    store: &impl Store,
    actor: &Actor,
    id: u64,
    params: &Params,
) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let name = params.optional::<String>("name")?.map(|n| n.trim().to_owned());
    let hint: Option<String> = params.optional("hint")?;
    let data = FieldData::from_params(params)?;
    let required: Option<bool> = params.optional("required")?;
    let display_in_profile_summary: Option<bool> = params.optional("display_in_profile_summary")?;
    let editable_by_user: Option<bool> = params.optional("editable_by_user")?;
    let fields = store.profile_fields(actor.realm.id)?;
    let field = field_in_realm(store, actor, id)?;
    if display_in_profile_summary == Some(true) && summary_limit_reached(&fields, Some(id)) {
        return Err(summary_limit_error());
    }
    let stored_data = FieldData::from_stored(&field.field_data);
    if is_default_external(Some(field.field_type), &stored_data) {
        // Only the summary setting of a default service's field may change; the label, hint
        // and service may be sent only as they are.
        let changes_text = name.as_ref().is_some_and(|n| *n != field.name)
            || hint.as_ref().is_some_and(|h| *h != field.hint)
            || data.as_ref().is_some_and(|d| d.to_value() != stored_data.to_value());
        if changes_text {
            return Err(ApiError::bad_request("Default custom field cannot be updated."));
        }
    }
    let new_name = name.unwrap_or_else(|| field.name.clone());
    let new_hint = hint.unwrap_or_else(|| field.hint.clone());
    let new_summary = display_in_profile_summary.unwrap_or(field.display_in_profile_summary);
    validate_field(
        &new_name,
        &new_hint,
        Some(field.field_type),
        data.as_ref().unwrap_or(&stored_data),
        new_summary,
    )?;
    check_name_free(&fields, &new_name, Some(id))?;
    let mut outcome = Outcome::default();
    let mut updated = ProfileField {
        name: new_name,
        hint: new_hint,
        display_in_profile_summary: new_summary,
        required: required.unwrap_or(field.required),
        editable_by_user: editable_by_user.unwrap_or(field.editable_by_user),
        ..field.clone()
    };
    if matches!(field.field_type, ProfileFieldType::Select | ProfileFieldType::ExternalAccount) {
        if let (Some(data), ProfileFieldType::Select) = (&data, field.field_type) {
            let kept: Vec<&str> = data.keys().collect();
            values::clear_values_where(store, actor, &field, |value| !kept.contains(&value), &mut outcome)?;
        }
        if let Some(data) = &data {
            updated.field_data = data.to_json_text();
        } else if field.field_data.is_empty() {
            updated.field_data = "{}".into();
        }
    }
    let all: Vec<ProfileField> =
        fields.into_iter().map(|f| if f.id == id { updated.clone() } else { f }).collect();
    // As in Zulip, the events of values dropped with their option come before the list's.
    outcome.events.push(fields_event(store, actor, &all)?);
    outcome.changes.push(Change::PutProfileField(updated));
    Ok(outcome)
}

/// `DELETE /realm/profile_fields/{field_id}`: the field and every user's value for it.
pub fn remove_custom_profile_field(store: &impl Store, actor: &Actor, id: u64) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let field = field_in_realm(store, actor, id)?;
    let mut changes = Vec::new();
    for user in store.realm_users(actor.realm.id)? {
        if store.profile_values(user.id)?.iter().any(|v| v.field_id == id) {
            changes.push(Change::PutProfileValue { user: user.id, field: id, value: None });
        }
    }
    changes.push(Change::DeleteProfileField { realm: actor.realm.id, id });
    let remaining: Vec<ProfileField> =
        store.profile_fields(actor.realm.id)?.into_iter().filter(|f| f.id != field.id).collect();
    let event = fields_event(store, actor, &remaining)?;
    Ok(Outcome { changes, events: vec![event], ..Outcome::default() })
}

/// `PATCH /realm/profile_fields`: `order` lists every field's id in the new order (ids of no
/// field of the organization are ignored, as in Zulip).
pub fn reorder_custom_profile_fields(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let Json(order) = params.required::<Json<Vec<i64>>>("order")?;
    let mut fields = store.profile_fields(actor.realm.id)?;
    for field in &mut fields {
        // A repeated id takes its last place, as Zulip's mapping does.
        let position = order.iter().rposition(|id| *id == field.id as i64);
        field.order = position.ok_or_else(|| ApiError::bad_request("Invalid order mapping."))? as i64;
    }
    let event = fields_event(store, actor, &fields)?;
    let changes = fields.into_iter().map(Change::PutProfileField).collect();
    Ok(Outcome { changes, events: vec![event], ..Outcome::default() })
}
