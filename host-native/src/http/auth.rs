//! Who is asking: the organization from the Host header, the user from HTTP Basic credentials.

use confab_core::model::{Realm, User};
use confab_core::store::Store as _;
use confab_core::subdomains::{HostOrganization, account_not_in_subdomain, organization};
use confab_core::{Actor, ApiError, ApiResult};

use super::request::{ApiRequest, client_name};
use crate::secrets::constant_time_eq;
use crate::store::ReadTables;

/// The organization the request's host names, or why there is none.
pub fn host_organization(tables: &ReadTables, request: &ApiRequest) -> ApiResult<HostOrganization> {
    organization(tables, request.subdomain.as_deref())
}

/// Authenticates an API request with its Basic credentials (email and API key), in Zulip's
/// order: the account the credentials open, then its organization's and its own activity, then
/// whether it belongs to the host's organization. Credentials that are valid on another
/// organization answer 401 `Account is not associated with this subdomain`, as in Zulip.
/// The request counts against its user's rate limit, and credentials that open no account
/// against its address's limit on failures (`rate_limits.rs`).
pub fn authenticate(tables: &ReadTables, request: &ApiRequest) -> ApiResult<Actor> {
    let Some((email, key)) = &request.basic else {
        return Err(if request.has_authorization {
            ApiError::invalid_api_key()
        } else {
            ApiError::not_logged_in()
        });
    };
    request.limits.before_credentials()?;
    let host = host_organization(tables, request)?;
    let Some((user, realm)) = account(tables, host.realm(), email, key)? else {
        request.limits.credentials_failed();
        return Err(ApiError::invalid_api_key());
    };
    if realm.deactivated {
        return Err(ApiError::realm_deactivated());
    }
    if !user.is_active {
        return Err(ApiError::user_deactivated());
    }
    if host.realm().is_none_or(|r| r.id != realm.id) {
        tracing::info!(
            user = user.id.0,
            subdomain = realm.subdomain,
            host = request.subdomain.as_deref().unwrap_or("(unknown)"),
            "credentials used on another organization's host"
        );
        return Err(account_not_in_subdomain());
    }
    request.limits.authenticated(user.id)?;
    let client = client_name(&request.params, request.user_agent.as_deref());
    // The organization's URL is the host's to know; the routes fill it in.
    Ok(Actor { user, realm, client, realm_url: String::new() })
}

/// The account these credentials open: in the host's organization first, else in any other.
/// Zulip finds an account by its API key alone; here emails are unique only within an
/// organization, so each organization is asked for the email, and the key must match.
fn account(
    tables: &ReadTables,
    host: Option<&Realm>,
    email: &str,
    key: &str,
) -> ApiResult<Option<(User, Realm)>> {
    if let Some(realm) = host
        && let Some(user) = account_in(tables, realm, email, key)?
    {
        return Ok(Some((user, realm.clone())));
    }
    for realm in tables.realms()? {
        if host.is_some_and(|h| h.id == realm.id) {
            continue;
        }
        if let Some(user) = account_in(tables, &realm, email, key)? {
            return Ok(Some((user, realm)));
        }
    }
    Ok(None)
}

/// The user of `realm` with this email, if the key is theirs.
fn account_in(tables: &ReadTables, realm: &Realm, email: &str, key: &str) -> ApiResult<Option<User>> {
    let Some(id) = tables.user_by_delivery_email(realm.id, email)? else { return Ok(None) };
    let Some(user) = tables.user(id)? else { return Ok(None) };
    let Some(credentials) = tables.credentials(user.id)? else { return Ok(None) };
    Ok(constant_time_eq(&credentials.api_key, key).then_some(user))
}

/// Re-reads the actor inside the writer's transaction, so a command acts on current state (the
/// user may have been deactivated between authentication and the command's turn).
pub fn refresh(store: &impl confab_core::store::Store, actor: &Actor) -> ApiResult<Actor> {
    let user = store.user(actor.user.id)?.filter(|u| u.is_active).ok_or_else(ApiError::user_deactivated)?;
    let realm = store.realm(actor.realm.id)?.ok_or_else(ApiError::invalid_api_key)?;
    Ok(Actor { user, realm, client: actor.client.clone(), realm_url: actor.realm_url.clone() })
}
