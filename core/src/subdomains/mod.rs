//! Several organizations on one server, told apart by subdomain, as in Zulip.
//!
//! - [`Site`]: where clients reach the server (`--external-host`), which organization a
//!   request's `Host` names (Zulip's `get_subdomain`) and each organization's URL
//!   (`Realm.url`).
//! - [`check_subdomain_available`]: which subdomains a new organization may take (Zulip's rule
//!   of the same name, with its texts), and the reserved names behind it.
//! - [`organization`]: the organization a subdomain names, or why there is none; with Zulip's
//!   answers for an unknown organization.

mod host;
mod names;
mod reserved;

pub use host::{ROOT_SUBDOMAIN_ALIASES, Site};
pub use names::{MAX_REALM_SUBDOMAIN_LENGTH, MIN_REALM_SUBDOMAIN_LENGTH, check_subdomain_available};
pub use reserved::is_reserved_subdomain;

use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::model::Realm;
use crate::store::Store;

/// Zulip's text for a request to a host with no organization.
const INVALID_SUBDOMAIN: &str = "Invalid subdomain";

/// What a request's host leads to.
#[derive(Clone, Debug, PartialEq)]
pub enum HostOrganization {
    /// The organization on that subdomain (possibly deactivated; callers decide).
    Found(Box<Realm>),
    /// The server's root host, where no organization lives: the server's other organizations
    /// are all on subdomains.
    EmptyRoot,
    /// A subdomain without an organization, or a host that is neither the root nor under it.
    Unknown,
}

impl HostOrganization {
    /// The organization, or Zulip's `InvalidSubdomainError` (404 `NONEXISTENT_SUBDOMAIN`), as
    /// its `get_valid_realm_from_request` answers endpoints that need an organization but no
    /// credentials (`POST /fetch_api_key`, `POST /register` without credentials).
    pub fn valid(self) -> ApiResult<Realm> {
        match self {
            HostOrganization::Found(realm) => Ok(*realm),
            HostOrganization::EmptyRoot | HostOrganization::Unknown => Err(invalid_subdomain()),
        }
    }

    /// The organization, if there is one.
    pub fn realm(&self) -> Option<&Realm> {
        match self {
            HostOrganization::Found(realm) => Some(realm),
            HostOrganization::EmptyRoot | HostOrganization::Unknown => None,
        }
    }
}

/// The organization `subdomain` names. `None` is a host that matched neither the root nor a
/// subdomain of it ([`Site::subdomain_of`]); it answers like a subdomain without an
/// organization, as in Zulip, where such a host can only be an unknown organization.
pub fn organization(store: &impl Store, subdomain: Option<&str>) -> ApiResult<HostOrganization> {
    let Some(subdomain) = subdomain else { return Ok(HostOrganization::Unknown) };
    match store.realm_by_subdomain(subdomain)? {
        Some(id) => {
            Ok(store.realm(id)?.map_or(HostOrganization::Unknown, |r| HostOrganization::Found(Box::new(r))))
        }
        None if subdomain.is_empty() => Ok(HostOrganization::EmptyRoot),
        None => Ok(HostOrganization::Unknown),
    }
}

/// Zulip's `InvalidSubdomainError`: 404 `NONEXISTENT_SUBDOMAIN`, `Invalid subdomain`.
pub fn invalid_subdomain() -> ApiError {
    ApiError::new(ErrorCode::NonexistentSubdomain, INVALID_SUBDOMAIN)
}

/// What `GET /server_settings` answers on a host without an organization. Zulip's
/// `get_auth_backends_data` raises a plain `JsonableError` there, so this one is 400
/// `BAD_REQUEST` with the same text, not the 404 of [`invalid_subdomain`].
pub fn invalid_subdomain_for_settings() -> ApiError {
    ApiError::bad_request(INVALID_SUBDOMAIN)
}

/// Valid credentials of an account in another organization: Zulip's
/// `validate_account_and_subdomain` refuses them, and its API authentication turns that into
/// 401 `UNAUTHORIZED`.
pub fn account_not_in_subdomain() -> ApiError {
    ApiError::new(ErrorCode::Unauthorized, "Account is not associated with this subdomain")
}
