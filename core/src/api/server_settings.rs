//! GET /server_settings   get_server_settings (no authentication)

use serde_json::{Value, json};

use crate::model::Realm;
use crate::version::{FEATURE_LEVEL, MERGE_BASE, ZULIP_VERSION};

/// The server settings (spec 4.24), under Zulip's names and the spec's. `realm` is the
/// organization the request's host names; without one, the realm-specific fields are left out.
pub fn get_server_settings(realm: Option<&Realm>, realm_url: &str) -> Value {
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
    });
    if let Some(realm) = realm {
        body["realm_url"] = realm_url.into();
        body["realm_uri"] = realm_url.into();
        body["realm_name"] = realm.name.clone().into();
        body["realm_icon"] = format!("{realm_url}/static/images/logo/zulip-icon-128x128.png").into();
        body["realm_description"] = crate::markdown::render_description(&realm.description).into();
        body["realm_web_public_access_enabled"] = false.into();
    }
    body
}
