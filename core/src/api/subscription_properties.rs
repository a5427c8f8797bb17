//! POST /users/me/subscriptions/properties   update_subscription_settings
//!
//! A user's own settings for channels they are subscribed to (spec 4.3): every change is
//! checked before any is made, and each change tells the user's clients with a `subscription`
//! `update` event (two for muting: `is_muted` and the legacy inverse `in_home_view`).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::StreamId;
use crate::model::Subscription;
use crate::params::{Json, Params};
use crate::store::{Change, Store};

use super::streams::{has_content_access, stream_in_realm};

/// One requested change, as sent.
#[derive(serde::Deserialize)]
struct Requested {
    stream_id: u64,
    property: String,
    value: Value,
}

fn boolean(property: &str, value: &Value) -> ApiResult<bool> {
    value.as_bool().ok_or_else(|| ApiError::bad_request(format!("{property} is not a boolean")))
}

/// Zulip's `check_color`: `#` and six hex digits.
fn color(value: &Value) -> ApiResult<String> {
    let text = value.as_str().ok_or_else(|| ApiError::bad_request("color is not a string"))?;
    let hex = text.strip_prefix('#').filter(|h| h.len() == 6 && h.chars().all(|c| c.is_ascii_hexdigit()));
    match hex {
        Some(_) => Ok(text.to_owned()),
        None => Err(ApiError::bad_request("color is not a valid hex color code")),
    }
}

/// Applies one change to a subscription; returns the events it causes, as `(property, value)`.
fn apply(sub: &mut Subscription, property: &str, value: &Value) -> ApiResult<Vec<(&'static str, Value)>> {
    let notification =
        |slot: &mut Option<bool>, name: &'static str| -> ApiResult<Vec<(&'static str, Value)>> {
            let on = boolean(name, value)?;
            *slot = Some(on);
            Ok(vec![(name, on.into())])
        };
    match property {
        "color" => {
            sub.color = color(value)?;
            Ok(vec![("color", sub.color.clone().into())])
        }
        "is_muted" | "in_home_view" => {
            let on = boolean(property, value)?;
            sub.is_muted = if property == "is_muted" { on } else { !on };
            Ok(vec![("is_muted", sub.is_muted.into()), ("in_home_view", (!sub.is_muted).into())])
        }
        "pin_to_top" => {
            sub.pin_to_top = boolean(property, value)?;
            Ok(vec![("pin_to_top", sub.pin_to_top.into())])
        }
        "desktop_notifications" => notification(&mut sub.desktop_notifications, "desktop_notifications"),
        "audible_notifications" => notification(&mut sub.audible_notifications, "audible_notifications"),
        "push_notifications" => notification(&mut sub.push_notifications, "push_notifications"),
        "email_notifications" => notification(&mut sub.email_notifications, "email_notifications"),
        "wildcard_mentions_notify" => {
            notification(&mut sub.wildcard_mentions_notify, "wildcard_mentions_notify")
        }
        _ => Err(ApiError::bad_request(format!("Unknown subscription property: {property}"))),
    }
}

/// `POST /users/me/subscriptions/properties` (spec 4.3).
pub fn update_subscription_settings(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
) -> ApiResult<Outcome> {
    let Json(requested) = params.required::<Json<Vec<Requested>>>("subscription_data")?;
    // Later changes to the same channel apply on top of earlier ones.
    let mut changed: BTreeMap<StreamId, Subscription> = BTreeMap::new();
    let mut events = Vec::new();
    for change in &requested {
        let stream_id = StreamId(change.stream_id);
        let invalid = || ApiError::bad_request("Invalid channel ID");
        let stream = stream_in_realm(store, actor, stream_id)?.ok_or_else(invalid)?;
        let sub = match changed.remove(&stream_id) {
            Some(sub) => Some(sub),
            None => store.subscription(actor.user.id, stream_id)?.filter(|s| s.active),
        };
        let Some(mut sub) = sub else {
            // A private channel one cannot see answers like a missing one.
            return Err(if has_content_access(store, &actor.user, &stream)? {
                ApiError::bad_request(format!("Not subscribed to channel ID {}", change.stream_id))
            } else {
                invalid()
            });
        };
        for (property, value) in apply(&mut sub, &change.property, &change.value)? {
            events.push(Event::Other {
                users: vec![actor.user.id],
                body: json!({"type": "subscription", "op": "update", "stream_id": stream.id, "property": property, "value": value}),
            });
        }
        changed.insert(stream_id, sub);
    }
    Ok(Outcome {
        changes: changed.into_values().map(Change::PutSubscription).collect(),
        events,
        ..Outcome::default()
    })
}
