//! PATCH /realm/user_settings_defaults   update_realm_user_settings_defaults
//!
//! The personal settings an organization's new users start with (Zulip's `RealmUserDefault`):
//! administrators change them; register shows them as `realm_user_settings_defaults`; each
//! change is a `realm_user_settings_defaults` event to everyone.

use serde_json::{Map, Value, json};

use crate::command::{Actor, Event, Outcome, active_user_ids, require_admin};
use crate::error::ApiResult;
use crate::model::Realm;
use crate::model::settings::{READ_ONLY_SETTINGS, default_user_settings};
use crate::params::Params;
use crate::store::{Change, Store};

use super::settings::read_setting;

/// Settings that belong to a person, not to a default: the time zone is each user's own.
const NOT_DEFAULTS: &[&str] = &["timezone"];

/// The organization's defaults for new users: Zulip's, with what the organization changed.
pub fn realm_user_defaults(realm: &Realm) -> Map<String, Value> {
    let mut defaults = default_user_settings("");
    defaults.retain(|name, _| !NOT_DEFAULTS.contains(&name.as_str()));
    defaults.extend(realm.settings.user_defaults.iter().map(|(k, v)| (k.clone(), v.clone())));
    defaults
}

/// `PATCH /realm/user_settings_defaults`.
pub fn update_realm_user_settings_defaults(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let zulip_defaults = default_user_settings("");
    let current = realm_user_defaults(&actor.realm);
    let mut realm = actor.realm.clone();
    let mut events = Vec::new();
    let users = active_user_ids(store, realm.id)?;
    for (name, zulip_default) in &zulip_defaults {
        if READ_ONLY_SETTINGS.contains(&name.as_str()) || NOT_DEFAULTS.contains(&name.as_str()) {
            continue;
        }
        let Some(value) = read_setting(params, name, zulip_default)? else { continue };
        if current.get(name) == Some(&value) {
            continue;
        }
        if value == *zulip_default {
            realm.settings.user_defaults.remove(name);
        } else {
            realm.settings.user_defaults.insert(name.clone(), value.clone());
        }
        let body =
            json!({"type": "realm_user_settings_defaults", "op": "update", "property": name, "value": value});
        events.push(Event::Other { users: users.clone(), body });
    }
    if events.is_empty() {
        return Ok(Outcome::default());
    }
    Ok(Outcome { changes: vec![Change::PutRealm(realm)], events, ..Outcome::default() })
}
