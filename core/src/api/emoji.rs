//! Zulip's emoji triple (`emoji_name`, `emoji_code`, `reaction_type`) and its checks, in
//! Zulip's order (`zerver/lib/emoji.py`): shared by reactions and user status.

use crate::error::{ApiError, ApiResult};
use crate::ids::RealmId;
use crate::markdown::{unicode_emoji_code, unicode_emoji_name};
use crate::store::Store;

pub const UNICODE_EMOJI: &str = "unicode_emoji";
pub const REALM_EMOJI: &str = "realm_emoji";
pub const ZULIP_EXTRA_EMOJI: &str = "zulip_extra_emoji";
/// The only emoji of the `zulip_extra_emoji` namespace: Zulip's logo.
pub const ZULIP_EMOJI: &str = "zulip";

/// A reaction type as stored and shown. The spec's `service_extra_emoji` is the name real
/// clients know as `zulip_extra_emoji`; both are accepted, the latter is stored.
pub fn reaction_type(value: &str) -> ApiResult<&'static str> {
    match value {
        UNICODE_EMOJI => Ok(UNICODE_EMOJI),
        REALM_EMOJI => Ok(REALM_EMOJI),
        ZULIP_EXTRA_EMOJI | "service_extra_emoji" => Ok(ZULIP_EXTRA_EMOJI),
        _ => Err(ApiError::bad_request("Invalid emoji type.")),
    }
}

/// The code and type of an emoji by name (Zulip's `get_emoji_data`): the organization's active
/// custom emoji first (its id is the code), then Zulip's own, then Unicode.
pub fn emoji_by_name(store: &impl Store, realm: RealmId, name: &str) -> ApiResult<(String, &'static str)> {
    if let Some(custom) = store.realm_emoji(realm)?.into_iter().find(|e| !e.deactivated && e.name == name) {
        return Ok((custom.id.to_string(), REALM_EMOJI));
    }
    if name == ZULIP_EMOJI {
        return Ok((ZULIP_EMOJI.to_owned(), ZULIP_EXTRA_EMOJI));
    }
    if let Some(code) = unicode_emoji_code(name) {
        return Ok((code.to_owned(), UNICODE_EMOJI));
    }
    Err(ApiError::bad_request(format!("Emoji '{name}' does not exist")))
}

/// Checks that a name and code name the same emoji of a type (Zulip's `check_emoji_request`).
pub fn check_emoji(store: &impl Store, realm: RealmId, name: &str, code: &str, kind: &str) -> ApiResult<()> {
    match kind {
        REALM_EMOJI => {
            let custom = store
                .realm_emoji(realm)?
                .into_iter()
                .find(|e| e.id.to_string() == code)
                .ok_or_else(|| ApiError::bad_request("Invalid custom emoji."))?;
            if custom.name != name {
                return Err(ApiError::bad_request("Invalid custom emoji name."));
            }
            if custom.deactivated {
                return Err(ApiError::bad_request("This custom emoji has been deactivated."));
            }
        }
        UNICODE_EMOJI => {
            if unicode_emoji_name(code).is_none() {
                return Err(ApiError::bad_request("Invalid emoji code"));
            }
            if unicode_emoji_code(name) != Some(code) {
                return Err(ApiError::bad_request("Invalid emoji name."));
            }
        }
        ZULIP_EXTRA_EMOJI => {
            if code != ZULIP_EMOJI {
                return Err(ApiError::bad_request("Invalid emoji code"));
            }
            if name != code {
                return Err(ApiError::bad_request("Invalid emoji name."));
            }
        }
        _ => return Err(ApiError::bad_request("Invalid custom emoji.")),
    }
    Ok(())
}
