//! POST   /users/me/android_push_reg_id     add_android_push_token
//! DELETE /users/me/android_push_reg_id     remove_android_push_token
//! POST   /users/me/apns_device_token       add_apns_device_token   (also .../ios_push_device_token)
//! DELETE /users/me/apns_device_token       remove_apns_device_token
//! POST   /mobile_push/register             register_push_device
//!
//! Push device tokens (spec 4.20, 4.21), kept per user. Delivering notifications needs a push
//! service (Zulip's bouncer, or FCM and APNs credentials), which this server does not have; the
//! tokens are kept so that one can be added without the apps registering again.

use serde_json::{Value, json};

use crate::command::{Actor, Outcome, require_human};
use crate::error::{ApiError, ApiResult};
use crate::model::RecordKind;
use crate::params::Params;
use crate::store::{Change, Store};

use super::records::{new_ids, records};

/// Zulip's limit on a token's length.
const MAX_TOKEN_LENGTH: usize = 4096;

/// Which push service a token belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PushService {
    /// Firebase Cloud Messaging (Android), Zulip's `GCM` kind.
    Fcm,
    /// Apple Push Notification service (iOS).
    Apns,
}

impl PushService {
    fn key(self) -> &'static str {
        match self {
            PushService::Fcm => "fcm",
            PushService::Apns => "apns",
        }
    }
}

/// Whether Python's lenient `base64.b64decode` (which Zulip's `b64_to_hex` uses) accepts the
/// token: characters outside the alphabet are skipped, and what is left must be padded whole.
fn decodes_as_base64(token: &str) -> bool {
    let kept: Vec<char> = token.chars().filter(|c| c.is_ascii_alphanumeric() || "+/=".contains(*c)).collect();
    let data_end = kept.iter().position(|c| *c == '=').unwrap_or(kept.len());
    let padding = kept.len() - data_end;
    kept[data_end..].iter().all(|c| *c == '=') && padding <= 2 && kept.len().is_multiple_of(4)
}

/// Zulip's `validate_token`.
fn checked_token(params: &Params, service: PushService) -> ApiResult<String> {
    let token: String = params.required("token")?;
    if token.is_empty() || token.chars().count() > MAX_TOKEN_LENGTH {
        return Err(ApiError::bad_request("Empty or invalid length token"));
    }
    if service == PushService::Apns && !decodes_as_base64(&token) {
        return Err(ApiError::bad_request("Invalid APNS token"));
    }
    Ok(token)
}

/// Zulip's `ApnsAppId`: a bundle identifier.
fn checked_app_id(params: &Params) -> ApiResult<String> {
    let app_id: String = params.required("appid")?;
    if app_id.is_empty() || !app_id.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-') {
        return Err(ApiError::bad_request("Invalid app ID"));
    }
    Ok(app_id)
}

fn is_token(device: &Value, service: PushService, token: &str) -> bool {
    device["kind"] == service.key() && device["token"] == token
}

/// Registers a device. A token moves to the user who registers it last: a device that changed
/// hands without logging out stops notifying its previous user.
fn add(
    store: &impl Store,
    actor: &Actor,
    service: PushService,
    token: String,
    app_id: Option<String>,
    now: i64,
) -> ApiResult<Outcome> {
    require_human(actor)?;
    let mut outcome = Outcome::default();
    let mut existing = None;
    for user in store.realm_users(actor.realm.id)? {
        for (id, device) in records(store, user.id, RecordKind::PushDevice)? {
            if !is_token(&device, service, &token) {
                continue;
            }
            if user.id == actor.user.id {
                existing = Some(id);
            } else {
                outcome.changes.push(Change::DeleteRecord {
                    user: user.id,
                    kind: RecordKind::PushDevice,
                    id,
                });
            }
        }
    }
    let id = match existing {
        Some(id) => id,
        None => new_ids(store)?.take(),
    };
    let device = json!({"kind": service.key(), "token": token, "ios_app_id": app_id, "last_updated": now});
    outcome.changes.push(Change::PutRecord {
        user: actor.user.id,
        kind: RecordKind::PushDevice,
        id,
        value: device,
    });
    Ok(outcome)
}

fn remove(store: &impl Store, actor: &Actor, service: PushService, token: &str) -> ApiResult<Outcome> {
    require_human(actor)?;
    let found = records(store, actor.user.id, RecordKind::PushDevice)?
        .into_iter()
        .find(|(_, d)| is_token(d, service, token));
    let (id, _) = found.ok_or_else(|| ApiError::bad_request("Token does not exist"))?;
    Ok(Outcome {
        changes: vec![Change::DeleteRecord { user: actor.user.id, kind: RecordKind::PushDevice, id }],
        ..Outcome::default()
    })
}

/// `POST /users/me/android_push_reg_id` (spec 4.20).
pub fn add_android_push_token(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    let token = checked_token(params, PushService::Fcm)?;
    add(store, actor, PushService::Fcm, token, None, now)
}

/// `DELETE /users/me/android_push_reg_id`.
pub fn remove_android_push_token(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let token = checked_token(params, PushService::Fcm)?;
    remove(store, actor, PushService::Fcm, &token)
}

/// `POST /users/me/apns_device_token`.
pub fn add_apns_device_token(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    let token = checked_token(params, PushService::Apns)?;
    let app_id = checked_app_id(params)?;
    add(store, actor, PushService::Apns, token, Some(app_id), now)
}

/// `DELETE /users/me/apns_device_token` (spec 4.21).
pub fn remove_apns_device_token(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let token = checked_token(params, PushService::Apns)?;
    remove(store, actor, PushService::Apns, &token)
}

/// `POST /mobile_push/register` (feature level 406): an E2EE push registration, which goes
/// through the push bouncer. With no push service, Zulip reads the request and then refuses
/// it with `PUSH_SERVICE_NOT_CONFIGURED`; so does Confab, which writes nothing.
pub fn register_push_device(actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    require_human(actor)?;
    let kind: String = params.required("token_kind")?;
    if ![PushService::Fcm.key(), PushService::Apns.key()].contains(&kind.as_str()) {
        return Err(ApiError::bad_request("Invalid token_kind"));
    }
    params.required::<i64>("push_account_id")?;
    Err(ApiError::new(
        crate::error::ErrorCode::PushServiceNotConfigured,
        "Server is not configured to use push notification service.",
    ))
}

#[cfg(test)]
mod tests {
    use super::decodes_as_base64;

    #[test]
    fn apns_tokens_are_checked_as_zulips_lenient_base64() {
        assert!(decodes_as_base64("c0ffee00c0ffee00c0ffee00c0ffee00"));
        assert!(decodes_as_base64("YWJjZA=="));
        assert!(!decodes_as_base64("xyz uses non-hex characters"));
        assert!(!decodes_as_base64("YWJjZA=a"));
    }
}
