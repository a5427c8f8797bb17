//! `POST /realm/deactivate` (Zulip's `deactivate_realm`): an owner closes the organization.
//! Its users' requests then answer `REALM_DEACTIVATED`, logins are refused, and scheduled
//! messages are not sent (see `http/auth.rs`, `fetch_api_key`, `scheduled_delivery`).
//!
//! `deletion_delay_days` is checked against the bounds register announces
//! (`server_min_deactivated_realm_deletion_days`, `server_max_…`, feature level 332) and kept
//! with the organization; Confab deletes nothing by itself, so the data stays until an
//! operator removes the data directory.

use serde_json::json;

use crate::command::{Actor, Event, Outcome, active_user_ids};
use crate::error::{ApiError, ApiResult};
use crate::model::Role;
use crate::params::Params;
use crate::store::{Change, Store};

/// Zulip's `MIN_DEACTIVATED_REALM_DELETION_DAYS` default.
pub const MIN_DELETION_DAYS: i64 = 14;
/// Zulip's `MAX_DEACTIVATED_REALM_DELETION_DAYS` default: no upper bound.
pub const MAX_DELETION_DAYS: Option<i64> = None;

pub fn deactivate_realm(store: &impl Store, actor: &Actor, params: &Params, now: i64) -> ApiResult<Outcome> {
    if actor.user.role != Role::Owner {
        return Err(ApiError::owner_required());
    }
    let delay = params.optional::<i64>("deletion_delay_days")?;
    if let Some(max) = MAX_DELETION_DAYS
        && delay.is_none_or(|d| d > max)
    {
        return Err(ApiError::bad_request(format!(
            "Data deletion time must be at most {max} days in the future."
        )));
    }
    if delay.is_some_and(|d| d < MIN_DELETION_DAYS) {
        return Err(ApiError::bad_request(format!(
            "Data deletion time must be at least {MIN_DELETION_DAYS} days in the future."
        )));
    }
    let mut realm = actor.realm.clone();
    realm.deactivated = true;
    realm.settings.scheduled_deletion = delay.map(|days| now.saturating_add(days.saturating_mul(86_400)));
    let event = Event::Other {
        users: active_user_ids(store, realm.id)?,
        body: json!({"type": "realm", "op": "deactivated", "realm_id": realm.id}),
    };
    Ok(Outcome { changes: vec![Change::PutRealm(realm)], events: vec![event], ..Outcome::default() })
}
