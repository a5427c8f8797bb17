//! POST   /realm/playgrounds                 add_playground
//! DELETE /realm/playgrounds/{playground_id} remove_playground
//!
//! Code playgrounds (Zulip's `RealmPlayground`, feature levels 49 and 196): an administrator
//! names a site that runs code of a Pygments language, by an RFC 6570 URL template whose only
//! variable is `code`. Clients offer "view in playground" on code blocks. Register's
//! `realm_playgrounds` and the `realm_playgrounds` event carry the organization's list.

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome, active_user_ids, require_admin};
use crate::error::{ApiError, ApiResult};
use crate::model::{Playground, Realm};
use crate::params::{Params, refuse_nul};
use crate::store::{Change, Store};

/// Zulip's `RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH`.
const MAX_PYGMENTS_LANGUAGE_LENGTH: usize = 40;

/// The list register and events carry.
pub fn playgrounds_json(realm: &Realm) -> Value {
    Value::Array(
        realm
            .settings
            .playgrounds
            .iter()
            .map(|p| json!({"id": p.id, "name": p.name, "pygments_language": p.pygments_language, "url_template": p.url_template}))
            .collect(),
    )
}

/// The organization with its new list, and the event that tells everyone.
fn changed(store: &impl Store, realm: Realm) -> ApiResult<Outcome> {
    let event = Event::Other {
        users: active_user_ids(store, realm.id)?,
        body: json!({"type": "realm_playgrounds", "realm_playgrounds": playgrounds_json(&realm)}),
    };
    Ok(Outcome { changes: vec![Change::PutRealm(realm)], events: vec![event], ..Outcome::default() })
}

/// Zulip's checks, in its order: the language's characters and length, then the template
/// (`url_template_validator`, then `RealmPlayground.clean`).
fn check_playground(name: &str, language: &str, template: &str) -> ApiResult<()> {
    refuse_nul("name", name)?;
    refuse_nul("url_template", template)?;
    if language.chars().count() > MAX_PYGMENTS_LANGUAGE_LENGTH {
        return Err(ApiError::bad_request(format!(
            "pygments_language is too long (limit: {MAX_PYGMENTS_LANGUAGE_LENGTH} characters)"
        )));
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || " _+-./#".contains(c);
    if !language.chars().all(allowed) {
        return Err(ApiError::bad_request("Invalid characters in pygments language"));
    }
    if name.is_empty() {
        return Err(ApiError::bad_request("Name cannot be blank."));
    }
    let variables = crate::markdown::template_variables(template)
        .ok_or_else(|| ApiError::bad_request("Invalid URL template."))?;
    if !variables.contains("code") {
        return Err(ApiError::bad_request("Missing the required variable \"code\" in the URL template"));
    }
    if variables.len() != 1 {
        return Err(ApiError::bad_request(
            "\"code\" should be the only variable present in the URL template",
        ));
    }
    Ok(())
}

/// `POST /realm/playgrounds`: administrators only; answers the new playground's `id`.
pub fn add_playground(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let name = params.required::<String>("name")?.trim().to_owned();
    let template = params.required::<String>("url_template")?.trim().to_owned();
    let language = params.required::<String>("pygments_language")?.trim().to_owned();
    check_playground(&name, &language, &template)?;
    let mut realm = actor.realm.clone();
    if realm.settings.playgrounds.iter().any(|p| p.name == name && p.pygments_language == language) {
        return Err(ApiError::bad_request(
            "Realm playground with this Realm, Pygments language and Name already exists.",
        ));
    }
    let id = realm.settings.next_playground_id.max(1);
    realm.settings.next_playground_id = id + 1;
    realm.settings.playgrounds.push(Playground {
        id,
        name,
        pygments_language: language,
        url_template: template,
    });
    Ok(changed(store, realm)?.reply("id", id))
}

/// `DELETE /realm/playgrounds/{playground_id}`: administrators only.
pub fn remove_playground(store: &impl Store, actor: &Actor, id: Option<u64>) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let mut realm = actor.realm.clone();
    let index = id
        .and_then(|id| realm.settings.playgrounds.iter().position(|p| p.id == id))
        .ok_or_else(|| ApiError::bad_request("Invalid playground"))?;
    realm.settings.playgrounds.remove(index);
    changed(store, realm)
}
