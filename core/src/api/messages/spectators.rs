//! GET /messages without an account: a spectator reading an organization's web-public
//! channels, as Zulip allows when the organization enables spectator access. The narrow must
//! say so (`channels:web-public`) and use only operators a spectator may: anything else is
//! answered as a request that lacks credentials, so a client with broken authentication gets
//! an authentication error rather than an empty list.

use serde_json::Value;

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::model::{Realm, User};
use crate::params::Params;
use crate::store::Store;

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

/// `GET /messages` for a spectator of `realm`.
pub fn get_messages_as_spectator(
    store: &impl Store,
    realm: &Realm,
    realm_url: String,
    params: &Params,
) -> ApiResult<Outcome> {
    let properties = crate::model::realm_properties::realm_properties(&realm.settings.properties);
    if properties["enable_spectator_access"] != Value::Bool(true)
        || !is_web_public_narrow(params.raw("narrow"))
    {
        return Err(ApiError::not_logged_in());
    }
    let spectator =
        Actor { user: User::spectator(realm), realm: realm.clone(), client: String::new(), realm_url };
    super::get_messages(store, &spectator, params)
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
