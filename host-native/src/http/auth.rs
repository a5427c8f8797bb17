//! Who is asking: the organization from the Host header, the user from HTTP Basic credentials.

use confab_core::model::Realm;
use confab_core::store::Store as _;
use confab_core::{Actor, ApiError, ApiResult};

use super::request::{ApiRequest, client_name};
use crate::secrets::constant_time_eq;
use crate::store::ReadTables;

/// The organization a request belongs to. One organization lives on the root host for now;
/// subdomains arrive with multi-organization support.
pub fn realm_for_host(tables: &ReadTables, _host: Option<&str>) -> ApiResult<Option<Realm>> {
    match tables.realm_by_subdomain("")? {
        Some(id) => tables.realm(id),
        None => Ok(None),
    }
}

/// Authenticates an API request with its Basic credentials (email and API key).
pub fn authenticate(tables: &ReadTables, request: &ApiRequest) -> ApiResult<Actor> {
    let Some((email, key)) = &request.basic else {
        return Err(if request.has_authorization {
            ApiError::invalid_api_key()
        } else {
            ApiError::not_logged_in()
        });
    };
    let realm = realm_for_host(tables, request.host.as_deref())?.ok_or_else(ApiError::invalid_api_key)?;
    let user = match tables.user_by_email(realm.id, email)? {
        Some(id) => tables.user(id)?,
        None => None,
    };
    let user = user.ok_or_else(ApiError::invalid_api_key)?;
    let credentials = tables.credentials(user.id)?.ok_or_else(ApiError::invalid_api_key)?;
    if !constant_time_eq(&credentials.api_key, key) {
        return Err(ApiError::invalid_api_key());
    }
    if realm.deactivated {
        return Err(ApiError::realm_deactivated());
    }
    if !user.is_active {
        return Err(ApiError::user_deactivated());
    }
    let client = client_name(&request.params, request.user_agent.as_deref());
    Ok(Actor { user, realm, client })
}

/// Re-reads the actor inside the writer's transaction, so a command acts on current state (the
/// user may have been deactivated between authentication and the command's turn).
pub fn refresh(store: &impl confab_core::store::Store, actor: &Actor) -> ApiResult<Actor> {
    let user = store.user(actor.user.id)?.filter(|u| u.is_active).ok_or_else(ApiError::user_deactivated)?;
    let realm = store.realm(actor.realm.id)?.ok_or_else(ApiError::invalid_api_key)?;
    Ok(Actor { user, realm, client: actor.client.clone() })
}
