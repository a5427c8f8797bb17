//! What a queue was registered with: register's parameters that shape delivery, already decoded
//! by the caller, and the two JSON parameters this module decodes itself (`client_capabilities`
//! and `narrow`).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{ApiError, ApiResult};

/// Register's parameters that decide what a queue receives and in which shape.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct QueueOptions {
    /// Event types wanted; `None` is every type. Matched against each event's `type`.
    pub event_types: Option<BTreeSet<String>>,
    /// Register's `narrow`: `(operator, operand)` pairs, all of which a message must satisfy
    /// (see [`parse_event_narrow`]). Empty is no filter.
    pub narrow: Vec<(String, String)>,
    /// Also receive the messages of public channels the user did not receive (never for guests).
    pub all_public_streams: bool,
    /// Message `content` as HTML (else the Markdown source).
    pub apply_markdown: bool,
    /// `avatar_url` may be null for users whose avatar a client computes from their email.
    pub client_gravatar: bool,
    /// Presence events without the legacy `email`.
    pub slim_presence: bool,
    pub capabilities: ClientCapabilities,
}

/// The client's declared capabilities (spec 4.2); an absent key is false.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct ClientCapabilities {
    /// Channel notification settings may be null (inherit). Read by register's state.
    pub notification_settings_null: bool,
    /// `delete_message` with `message_ids`; otherwise one event per message, with `message_id`.
    pub bulk_message_deletion: bool,
    /// `avatar_url` may be left out of user records. Read by register's state.
    pub user_avatar_url_field_optional: bool,
    /// `typing` events for channel messages; otherwise only direct-message typing.
    pub stream_typing_notifications: bool,
    /// `user_settings` only; otherwise also the legacy `update_display_settings` and
    /// `update_global_notifications`.
    pub user_settings_object: bool,
    /// `realm_linkifiers` events are sent; otherwise dropped.
    pub linkifier_url_template: bool,
    /// Inaccessible users are left out of `realm_users`. Read by register's state.
    pub user_list_incomplete: bool,
    /// Group deactivation arrives as `user_group/update`; otherwise as `user_group/remove`.
    pub include_deactivated_groups: bool,
    /// `stream/update` events for `is_archived` are sent; otherwise dropped.
    pub archived_channels: bool,
    /// The empty topic stays `""`; otherwise it reads `"general chat"`.
    pub empty_topic_name: bool,
    /// Presence events in the modern format. Shaping them is the caller's (see module docs).
    pub simplified_presence_events: bool,
}

/// Reads `client_capabilities`: a JSON object of booleans. Unknown keys are ignored, as Zulip
/// ignores them, so newer clients work; a known key with a non-boolean value is an error.
pub fn parse_client_capabilities(value: &Value) -> ApiResult<ClientCapabilities> {
    let Value::Object(fields) = value else {
        return Err(ApiError::bad_request("client_capabilities is not a dict"));
    };
    let mut caps = ClientCapabilities::default();
    for (key, value) in fields {
        let Some(slot) = capability_slot(&mut caps, key) else { continue };
        match value {
            Value::Bool(on) => *slot = *on,
            _ => {
                return Err(ApiError::bad_request(format!(
                    "client_capabilities[\"{key}\"] is not a boolean"
                )));
            }
        }
    }
    Ok(caps)
}

fn capability_slot<'a>(caps: &'a mut ClientCapabilities, key: &str) -> Option<&'a mut bool> {
    Some(match key {
        "notification_settings_null" => &mut caps.notification_settings_null,
        "bulk_message_deletion" => &mut caps.bulk_message_deletion,
        "user_avatar_url_field_optional" => &mut caps.user_avatar_url_field_optional,
        "stream_typing_notifications" => &mut caps.stream_typing_notifications,
        "user_settings_object" => &mut caps.user_settings_object,
        "linkifier_url_template" => &mut caps.linkifier_url_template,
        "user_list_incomplete" => &mut caps.user_list_incomplete,
        "include_deactivated_groups" => &mut caps.include_deactivated_groups,
        "archived_channels" => &mut caps.archived_channels,
        "empty_topic_name" => &mut caps.empty_topic_name,
        "simplified_presence_events" => &mut caps.simplified_presence_events,
        _ => return None,
    })
}

/// Operators a queue narrow may use (`narrow_predicate.check_narrow_for_events`; Zulip's newest
/// `exact-topic` is not in zulip-semantics §2.5, so it is refused like any unknown operator).
const EVENT_NARROW_OPERATORS: &[&str] = &["channel", "stream", "topic", "sender", "is"];

/// `is:` operands a queue narrow may not use: they need data a queue does not have.
const UNSUPPORTED_IS_OPERANDS: &[&str] = &["followed"];

/// Reads register's `narrow`: an array of terms, each `["operator", "operand"]` (the form Zulip
/// documents) or `{"operator": ..., "operand": ..., "negated": false}`. JSON `null` is the empty
/// narrow (zulip-js sends it). Negation is refused: queue narrows cannot express it.
pub fn parse_event_narrow(value: &Value) -> ApiResult<Vec<(String, String)>> {
    let terms = match value {
        Value::Null => return Ok(Vec::new()),
        Value::Array(terms) => terms,
        _ => return Err(ApiError::bad_request("narrow is not a list")),
    };
    let mut narrow = Vec::with_capacity(terms.len());
    for (i, term) in terms.iter().enumerate() {
        narrow.push(parse_term(i, term)?);
    }
    check_event_narrow(&narrow)?;
    Ok(narrow)
}

fn parse_term(i: usize, term: &Value) -> ApiResult<(String, String)> {
    let text = |value: Option<&Value>, what: &str| match value {
        Some(Value::String(s)) => Ok(s.clone()),
        _ => Err(ApiError::bad_request(format!("narrow[{i}]{what} is not a string"))),
    };
    match term {
        Value::Array(pair) if pair.len() == 2 => Ok((text(pair.first(), "[0]")?, text(pair.get(1), "[1]")?)),
        Value::Array(_) => Err(ApiError::bad_request(format!("narrow[{i}] does not have 2 elements"))),
        Value::Object(fields) => {
            match fields.get("negated") {
                None | Some(Value::Bool(false)) => {}
                Some(Value::Bool(true)) => {
                    return Err(ApiError::bad_request("Negated narrow terms are not supported for events."));
                }
                Some(_) => {
                    return Err(ApiError::bad_request(format!("narrow[{i}][\"negated\"] is not a boolean")));
                }
            }
            Ok((
                text(fields.get("operator"), "[\"operator\"]")?,
                text(fields.get("operand"), "[\"operand\"]")?,
            ))
        }
        _ => Err(ApiError::bad_request(format!("narrow[{i}] is not a list"))),
    }
}

/// Zulip's `check_narrow_for_events`, with its texts.
pub(crate) fn check_event_narrow(narrow: &[(String, String)]) -> ApiResult<()> {
    for (operator, operand) in narrow {
        if !EVENT_NARROW_OPERATORS.contains(&operator.as_str()) {
            return Err(ApiError::bad_request(format!("Operator {operator} not supported.")));
        }
        if operator == "is" && UNSUPPORTED_IS_OPERANDS.contains(&operand.as_str()) {
            return Err(ApiError::bad_request(format!("Operand {operand} not supported.")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn capabilities_read_known_keys_and_ignore_others() {
        let caps = parse_client_capabilities(&json!({
            "bulk_message_deletion": true, "empty_topic_name": true,
            "individual_emoji_changes": "whatever", "notification_settings_null": false
        }))
        .expect("valid");
        assert_eq!(
            caps,
            ClientCapabilities { bulk_message_deletion: true, empty_topic_name: true, ..Default::default() }
        );
    }

    #[test]
    fn every_spec_key_is_read() {
        let keys = [
            "notification_settings_null",
            "bulk_message_deletion",
            "user_avatar_url_field_optional",
            "stream_typing_notifications",
            "user_settings_object",
            "linkifier_url_template",
            "user_list_incomplete",
            "include_deactivated_groups",
            "archived_channels",
            "empty_topic_name",
            "simplified_presence_events",
        ];
        let all: serde_json::Map<String, Value> =
            keys.iter().map(|k| ((*k).to_owned(), json!(true))).collect();
        let caps = parse_client_capabilities(&Value::Object(all)).expect("valid");
        // Every field set: serialized, no value is false.
        let serialized = serde_json::to_value(caps).expect("serializes");
        assert!(serialized.as_object().expect("object").values().all(|v| v == &json!(true)));
        assert_eq!(serialized.as_object().map(|o| o.len()), Some(keys.len()));
    }

    #[test]
    fn capability_errors() {
        let err = parse_client_capabilities(&json!({"bulk_message_deletion": "true"})).expect_err("string");
        assert_eq!(err.msg, "client_capabilities[\"bulk_message_deletion\"] is not a boolean");
        assert_eq!(err.code.wire(), "BAD_REQUEST");
        let err = parse_client_capabilities(&json!([true])).expect_err("list");
        assert_eq!(err.msg, "client_capabilities is not a dict");
    }

    /// The `narrow` parameter and its terms or error text.
    type Case = (Value, Result<Vec<(&'static str, &'static str)>, &'static str>);

    #[test]
    fn narrow_forms() {
        let cases: &[Case] = &[
            (json!([]), Ok(vec![])),
            (json!(null), Ok(vec![])),
            (json!([["stream", "Denmark"], ["topic", "x"]]), Ok(vec![("stream", "Denmark"), ("topic", "x")])),
            (
                json!([{"operator": "channel", "operand": "a"}, {"operator": "is", "operand": "dm", "negated": false}]),
                Ok(vec![("channel", "a"), ("is", "dm")]),
            ),
            (
                json!([{"operator": "is", "operand": "dm", "negated": true}]),
                Err("Negated narrow terms are not supported for events."),
            ),
            (json!([["is", "followed"]]), Err("Operand followed not supported.")),
            (json!([["is", "muted"]]), Ok(vec![("is", "muted")])),
            (json!([["search", "pizza"]]), Err("Operator search not supported.")),
            (json!([["exact-topic", "x"]]), Err("Operator exact-topic not supported.")),
            (json!([["stream", 5]]), Err("narrow[0][1] is not a string")),
            (json!([["stream"]]), Err("narrow[0] does not have 2 elements")),
            (json!([{"operand": "x"}]), Err("narrow[0][\"operator\"] is not a string")),
            (json!("stream:x"), Err("narrow is not a list")),
            (json!([5]), Err("narrow[0] is not a list")),
        ];
        for (input, expected) in cases {
            let got = parse_event_narrow(input);
            match (got, expected) {
                (Ok(got), Ok(want)) => {
                    let want: Vec<(String, String)> =
                        want.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect();
                    assert_eq!(got, want, "{input}");
                }
                (Err(err), Err(msg)) => {
                    assert_eq!(err.msg, *msg, "{input}");
                    assert_eq!(err.code.wire(), "BAD_REQUEST");
                }
                (got, want) => panic!("{input}: got {got:?}, want {want:?}"),
            }
        }
    }
}
