//! GET /server_settings   get_server_settings (no authentication)

use serde_json::{Value, json};

use crate::command::Outcome;
use crate::error::ApiResult;
use crate::store::Store;
use crate::subdomains::{HostOrganization, Site, invalid_subdomain_for_settings, organization};
use crate::version::{FEATURE_LEVEL, MERGE_BASE, ZULIP_VERSION};

/// The server settings (spec 4.24), under Zulip's names and the spec's, for the organization
/// the request's host names (`subdomain`, from [`Site::subdomain_of`]).
///
/// On the root of a server whose organizations all live on subdomains, the organization's name,
/// icon and description are left out, and `realm_url` is the root's URL, as Zulip answers
/// there (its `realm_url` falls back to `ROOT_DOMAIN_URI`, and web-public access to false).
/// A host with no organization is Zulip's `Invalid subdomain`.
pub fn get_server_settings(store: &impl Store, site: &Site, subdomain: Option<&str>) -> ApiResult<Outcome> {
    let realm = match organization(store, subdomain)? {
        HostOrganization::Found(realm) => Some(*realm),
        HostOrganization::EmptyRoot => None,
        HostOrganization::Unknown => return Err(invalid_subdomain_for_settings()),
    };
    let realm_url = realm.as_ref().map_or_else(|| site.root_url(), |r| site.realm_url(&r.subdomain));
    let mut body = json!({
        "authentication_methods": {
            "password": true, "dev": false, "email": true, "ldap": false, "remoteuser": false,
            "github": false, "azuread": false, "gitlab": false, "apple": false, "google": false,
            "saml": false, "openid connect": false,
        },
        "external_authentication_methods": [],
        "zulip_feature_level": FEATURE_LEVEL,
        "service_feature_level": FEATURE_LEVEL,
        "zulip_version": ZULIP_VERSION,
        "service_version": ZULIP_VERSION,
        "zulip_merge_base": MERGE_BASE,
        "service_merge_base": MERGE_BASE,
        "push_notifications_enabled": false,
        "is_incompatible": false,
        "email_auth_enabled": true,
        "require_email_format_usernames": true,
        "realm_url": realm_url,
        "realm_uri": realm_url,
        "realm_web_public_access_enabled": false,
    });
    if let Some(realm) = &realm {
        body["realm_name"] = realm.name.clone().into();
        body["realm_icon"] = format!("{realm_url}/static/images/logo/zulip-icon-128x128.png").into();
        body["realm_description"] = crate::markdown::render_description(&realm.description).into();
    }
    let Value::Object(reply) = body else { unreachable!("json! of an object is an object") };
    Ok(Outcome { reply, ..Outcome::default() })
}
