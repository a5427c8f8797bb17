//! The organization data export's consents (Zulip's `realm_export.py`, feature levels 295
//! and 312).
//!
//! - `GET /export/realm/consents` — `get_realm_export_consents`
//!
//! Only the consents exist so far: `POST /export/realm`, `GET /export/realm` and
//! `DELETE /export/realm/{export_id}` (the export itself) are not built yet.

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome, require_admin};
use crate::error::ApiResult;
use crate::ids::{RealmId, UserId};
use crate::model::User;
use crate::store::Store;

/// `GET /export/realm/consents`: administrators only; each active human user's
/// `allow_private_data_export`, as `consented` (Zulip's `get_users_export_consents`).
pub fn get_realm_export_consents(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let mut consents = Vec::new();
    for user in store.realm_users(actor.realm.id)?.iter().filter(|u| u.is_active && !u.is_bot()) {
        let settings = super::settings::settings_of(store, user)?;
        let consented = settings.get("allow_private_data_export").and_then(Value::as_bool).unwrap_or(false);
        consents.push(json!({"user_id": user.id, "consented": consented}));
    }
    Ok(Outcome::default().reply("export_consents", consents))
}

/// The `realm_export_consent` event a change of `allow_private_data_export` sends: only the
/// organization's active human administrators hear it (Zulip's `get_human_admin_users`).
pub fn consent_event(store: &impl Store, realm: RealmId, user: UserId, consented: bool) -> ApiResult<Event> {
    let admins: Vec<UserId> = store
        .realm_users(realm)?
        .iter()
        .filter(|u: &&User| u.is_active && !u.is_bot() && u.is_admin())
        .map(|u| u.id)
        .collect();
    Ok(Event::Other {
        users: admins,
        body: json!({"type": "realm_export_consent", "user_id": user, "consented": consented}),
    })
}
