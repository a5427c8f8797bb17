//! `PATCH /realm` for the organization's plain properties (`model::realm_properties`): each
//! given one parsed as Zulip's `update_realm` does, checked, and reported in its own
//! `realm`/`update` event.

use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::ids::StreamId;
use crate::model::Realm;
use crate::model::realm_properties::{Kind, REALM_PROPERTIES, allowed, realm_properties};
use crate::params::{Params, refuse_nul};
use crate::store::Store;

/// The value a request gives for one property, in the property's JSON type.
fn requested(params: &Params, name: &str, kind: Kind) -> ApiResult<Option<Value>> {
    Ok(match kind {
        Kind::Bool => params.optional::<bool>(name)?.map(Value::from),
        Kind::Ints(_) | Kind::Range(..) | Kind::Channel => params.optional::<i64>(name)?.map(Value::from),
        Kind::Language | Kind::Text(_) => match params.optional::<String>(name)? {
            Some(text) => {
                refuse_nul(name, &text)?;
                Some(Value::from(text))
            }
            None => None,
        },
        // Zulip's `jitsi_server_url`: a JSON string, or "default" for the server's own.
        Kind::OptionalUrl => params.raw(name).map(|raw| {
            let text = serde_json::from_str::<String>(raw).unwrap_or_else(|_| raw.to_owned());
            if text == "default" { Value::Null } else { Value::from(text) }
        }),
    })
}

fn invalid(name: &str, kind: Kind, value: &Value) -> ApiError {
    match kind {
        Kind::Language => {
            ApiError::bad_request(format!("Invalid language '{}'", value.as_str().unwrap_or_default()))
        }
        Kind::Channel => ApiError::bad_request("Invalid channel ID"),
        // Zulip checks its length with the parameter's own constraint, and that one's text.
        Kind::Text(limit) if name == "welcome_message_custom_text" => {
            ApiError::bad_request(format!("{name} is too long (limit: {limit} characters)"))
        }
        Kind::Ints(_) if name == "video_chat_provider" => {
            ApiError::bad_request(format!("Invalid video_chat_provider {value}"))
        }
        _ => ApiError::bad_request(format!("Invalid {name}")),
    }
}

/// The properties a request changes, checked; the realm is updated and each change comes
/// back with its `realm`/`update` event body.
pub fn apply_property_changes(
    store: &impl Store,
    realm: &mut Realm,
    params: &Params,
) -> ApiResult<Vec<Value>> {
    let current = realm_properties(&realm.settings.properties);
    let mut bodies = Vec::new();
    for (name, default, kind) in REALM_PROPERTIES {
        let Some(value) = requested(params, name, *kind)? else { continue };
        if !allowed(*kind, &value) {
            return Err(invalid(name, *kind, &value));
        }
        if *kind == Kind::Channel && value != json!(-1) {
            let id = StreamId(value.as_u64().unwrap_or_default());
            let usable = store.stream(id)?.is_some_and(|s| s.realm_id == realm.id && !s.is_archived);
            if !usable {
                return Err(invalid(name, *kind, &value));
            }
        }
        if current.get(*name) == Some(&value) {
            continue;
        }
        if value == default() {
            realm.settings.properties.remove(*name);
        } else {
            realm.settings.properties.insert((*name).to_owned(), value.clone());
        }
        bodies.push(json!({"type": "realm", "op": "update", "property": name, "value": value}));
    }
    Ok(bodies)
}
