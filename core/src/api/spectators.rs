//! POST /register                    register::spectator_state
//! GET  /messages                    get_messages_as_spectator
//! GET  /messages/{message_id}       get_message_as_spectator
//! GET  /users/me/{stream_id}/topics get_stream_topics_as_spectator
//! GET  /users                       get_users_as_spectator
//!
//! What someone without an account may ask: the endpoints Zulip opens to anonymous requests
//! (`allow_anonymous_user_web` in its URL table) that Confab has, when the organization enables
//! spectator access. Each runs the ordinary operation as `User::spectator`, whose only content
//! access is to web-public channels; what this module adds is who may ask what, and how a
//! refusal reads. Every other endpoint refuses a request without credentials (401), as does
//! every one of these in an organization without spectator access, whatever the request asks.

use serde_json::Value;

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{MessageId, StreamId};
use crate::model::{Realm, User};
use crate::params::Params;
use crate::store::Store;

/// The spectator of `realm`, if the organization lets anyone read what it made web-public
/// (`enable_spectator_access`); otherwise the request lacks credentials, as Zulip answers it.
pub fn spectator(realm: &Realm, realm_url: String) -> ApiResult<Actor> {
    let properties = crate::model::realm_properties::realm_properties(&realm.settings.properties);
    if properties["enable_spectator_access"] != Value::Bool(true) {
        return Err(ApiError::not_logged_in());
    }
    Ok(Actor { user: User::spectator(realm), realm: realm.clone(), client: String::new(), realm_url })
}

/// `GET /messages` for a spectator. The narrow must say what it asks for
/// (`channels:web-public`) and use only operators a spectator may: anything else is answered as
/// a request that lacks credentials, so a client with broken authentication gets an
/// authentication error rather than an empty list.
pub fn get_messages_as_spectator(
    store: &impl Store,
    realm: &Realm,
    realm_url: String,
    params: &Params,
) -> ApiResult<Outcome> {
    let spectator = spectator(realm, realm_url)?;
    if !is_web_public_narrow(params.raw("narrow")) {
        return Err(ApiError::not_logged_in());
    }
    super::messages::get_messages(store, &spectator, params)
}

/// `GET /messages/{message_id}` for a spectator: a message of a web-public channel. Any other
/// id (missing, not a number, another organization's, a direct message, a channel not
/// web-public) answers as a request that lacks credentials, as Zulip's
/// `access_web_public_message` does, so the answer never tells whether the message exists.
pub fn get_message_as_spectator(
    store: &impl Store,
    realm: &Realm,
    realm_url: String,
    id: Option<MessageId>,
    params: &Params,
) -> ApiResult<Outcome> {
    let spectator = spectator(realm, realm_url)?;
    let id = id.ok_or_else(ApiError::not_logged_in)?;
    super::messages::one_message(store, &spectator, id, params, ApiError::not_logged_in)
}

/// `GET /users/me/{stream_id}/topics` for a spectator: a web-public channel's topics. Any other
/// channel answers `Invalid channel ID`, as Zulip's `access_web_public_stream` does (unlike a
/// message, a channel that is not web-public answers as a missing one, not as a refusal).
pub fn get_stream_topics_as_spectator(
    store: &impl Store,
    realm: &Realm,
    realm_url: String,
    id: Option<StreamId>,
    params: &Params,
) -> ApiResult<Outcome> {
    let spectator = spectator(realm, realm_url)?;
    let id = id.ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
    super::messages::get_stream_topics(store, &spectator, id, params)
}

/// Zulip's `is_spectator_compatible` operators.
const SPECTATOR_OPERATORS: &[&str] = &[
    "channel", "channels", "stream", "streams", "topic", "subject", "sender", "has", "search", "near", "id",
    "with",
];

/// A narrow's terms as `(operator, operand, negated)`, in either wire form.
fn terms(raw: &str) -> Option<Vec<(String, Value, bool)>> {
    let Value::Array(items) = serde_json::from_str::<Value>(raw).ok()? else { return None };
    items
        .into_iter()
        .map(|item| match item {
            Value::Array(pair) if pair.len() == 2 => {
                Some((pair[0].as_str()?.to_owned(), pair[1].clone(), false))
            }
            Value::Object(term) => Some((
                term.get("operator")?.as_str()?.to_owned(),
                term.get("operand")?.clone(),
                term.get("negated").and_then(Value::as_bool).unwrap_or(false),
            )),
            _ => None,
        })
        .collect()
}

/// Whether the narrow asks for web-public channels with spectator-compatible operators only.
fn is_web_public_narrow(raw: Option<&str>) -> bool {
    let Some(terms) = raw.and_then(terms) else { return false };
    let web_public = terms.iter().any(|(op, operand, negated)| {
        matches!(op.as_str(), "channels" | "streams") && operand == "web-public" && !negated
    });
    web_public && terms.iter().all(|(op, _, _)| SPECTATOR_OPERATORS.contains(&op.as_str()))
}

/// `GET /users` for a spectator (feature level 387): the organization's directory, as anyone
/// without an account sees it (no real email addresses).
pub fn get_users_as_spectator(
    store: &impl Store,
    realm: &Realm,
    realm_url: String,
    params: &Params,
) -> ApiResult<Outcome> {
    let spectator = spectator(realm, realm_url)?;
    super::users::get_users(store, &spectator, params)
}

#[cfg(test)]
mod tests {
    use super::is_web_public_narrow;

    #[test]
    fn spectators_must_ask_for_web_public_channels() {
        assert!(is_web_public_narrow(Some(r#"[["channels", "web-public"], ["topic", "lunch"]]"#)));
        assert!(is_web_public_narrow(Some(r#"[{"operator": "channels", "operand": "web-public"}]"#)));
        assert!(!is_web_public_narrow(Some(r#"[["channel", "general"]]"#)));
        assert!(!is_web_public_narrow(Some(r#"[["channels", "web-public"], ["is", "starred"]]"#)));
        assert!(!is_web_public_narrow(Some(
            r#"[{"operator": "channels", "operand": "web-public", "negated": true}]"#
        )));
        assert!(!is_web_public_narrow(None));
    }
}
