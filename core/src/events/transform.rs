//! How one event becomes what a particular queue receives: dropped, reshaped, split, or joined
//! by legacy companions, depending on the queue's `event_types`, capabilities and options.
//!
//! Two kinds of rule, kept apart: [`accepts`] decides whether a queue takes a body at all
//! (Zulip's `ClientDescriptor.accepts_event`), and [`expand`] reshapes a body for a class of
//! queues (Zulip's `process_*_event` special cases). `expand` depends only on a [`Shape`], so
//! one push computes it once per distinct shape and the queues share the results.

use serde_json::{Map, Value};

use super::EMPTY_TOPIC_FALLBACK_NAME;
use super::legacy_settings::legacy_settings_event;
use super::options::{ClientCapabilities, QueueOptions};

/// What decides the reshaping of a body for a queue.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Shape<'a> {
    pub caps: ClientCapabilities,
    pub slim_presence: bool,
    /// The queue owner's email, for the legacy settings events; only set for `user_settings`
    /// bodies so that other bodies are shared across users.
    pub email: Option<&'a str>,
}

fn event_type(body: &Value) -> &str {
    body.get("type").and_then(Value::as_str).unwrap_or_default()
}

fn str_field<'a>(body: &'a Value, name: &str) -> Option<&'a str> {
    body.get(name).and_then(Value::as_str)
}

/// Whether a queue takes this body (after [`expand`]). Message events have their own check
/// (the narrow), in the registry.
pub(crate) fn accepts(options: &QueueOptions, body: &Value) -> bool {
    let kind = event_type(body);
    if !wanted_type(options, kind) {
        return false;
    }
    let caps = &options.capabilities;
    match kind {
        // Channel typing is only for clients that asked for it.
        "typing" if body.get("stream_id").is_some() => caps.stream_typing_notifications,
        "typing_edit_message" if body.get("recipient").and_then(|r| r.get("channel_id")).is_some() => {
            caps.stream_typing_notifications
        }
        // The legacy pair is for clients that do not read `user_settings`.
        "update_display_settings" | "update_global_notifications" => !caps.user_settings_object,
        // Linkifiers changed from URL format strings to URL templates; older clients get none.
        "realm_linkifiers" => caps.linkifier_url_template,
        "user_group" => match str_field(body, "op") {
            // A deactivated group is removed for clients that cannot filter it out ...
            Some("remove") => !caps.include_deactivated_groups,
            // ... and updated with `deactivated` for those that can.
            Some("update") if body.get("data").and_then(|d| d.get("deactivated")).is_some() => {
                caps.include_deactivated_groups
            }
            _ => true,
        },
        "stream"
            if str_field(body, "op") == Some("update")
                && str_field(body, "property") == Some("is_archived") =>
        {
            caps.archived_channels
        }
        _ => true,
    }
}

/// The field that marks a `stream` or `subscription` event as one only clients without the
/// `archived_channels` capability get (archiving's `delete`, unarchiving's `create` and what
/// follows it: those clients dropped the channel, the others kept it); never sent.
pub const ARCHIVED_MARK: &str = "archived";

/// The field that marks a `user_group` `add` event as a reactivated group's, which only
/// clients without `include_deactivated_groups` (who dropped the group) receive; never sent.
pub const REACTIVATED_MARK: &str = "reactivated";

/// The field that marks a `user_group` `update` event as one about a deactivated group, which
/// only clients with `include_deactivated_groups` (who kept the group) receive (feature level
/// 294); never sent.
pub const DEACTIVATED_GROUP_MARK: &str = "deactivated_group";

/// The field of a `subscription` `add` event that carries what the user's unset notification
/// settings stand for (`wire::inherited_notification_values`); never sent.
pub const INHERITED_NOTIFICATIONS_MARK: &str = "inherited_notifications";

/// `event_types` matching: by `type`, exactly. `muted_topics` is suppressed for clients that
/// also asked for its replacement `user_topic`, so asking for both yields one copy.
pub(crate) fn wanted_type(options: &QueueOptions, kind: &str) -> bool {
    match &options.event_types {
        None => true,
        Some(types) => types.contains(kind) && !(kind == "muted_topics" && types.contains("user_topic")),
    }
}

/// The bodies a queue of this shape receives for `body`, in order.
pub(crate) fn expand(body: &Value, shape: &Shape<'_>) -> Vec<Value> {
    let mut body = body.clone();
    if !shape.caps.empty_topic_name {
        name_empty_topic(&mut body);
    }
    // Archiving also sends `delete`, and unarchiving `create` and the subscriptions, marked
    // `archived`, for clients that do not keep archived channels; the mark is never sent.
    if matches!(event_type(&body), "stream" | "subscription")
        && let Value::Object(fields) = &mut body
        && fields.remove(ARCHIVED_MARK).is_some()
        && shape.caps.archived_channels
    {
        return Vec::new();
    }
    // A reactivated group comes back as `add` for clients that dropped it; those that kept it
    // get an `update` instead.
    if event_type(&body) == "user_group"
        && let Value::Object(fields) = &mut body
        && fields.remove(REACTIVATED_MARK).is_some()
        && shape.caps.include_deactivated_groups
    {
        return Vec::new();
    }
    // News of a deactivated group is for the clients that kept it.
    if event_type(&body) == "user_group"
        && let Value::Object(fields) = &mut body
        && fields.remove(DEACTIVATED_GROUP_MARK).is_some()
        && !shape.caps.include_deactivated_groups
    {
        return Vec::new();
    }
    // A placeholder for a user one cannot see is for clients that need every user listed.
    if event_type(&body) == "realm_user"
        && let Value::Object(fields) = &mut body
        && fields.remove(crate::user_access::PLACEHOLDER_MARK).is_some()
        && shape.caps.user_list_incomplete
    {
        return Vec::new();
    }
    if matches!(event_type(&body), "subscription" | "stream") {
        inherited_notification_settings(&mut body, shape.caps.notification_settings_null);
    }
    if event_type(&body) == "presence" {
        presence_form(&mut body, shape);
    }
    match event_type(&body) {
        "delete_message" if !shape.caps.bulk_message_deletion => split_bulk_deletion(body),
        "user_settings" if !shape.caps.user_settings_object => with_legacy_settings(body, shape.email),
        _ => vec![body],
    }
}

/// For clients without `empty_topic_name`: the empty topic reads "general chat" wherever an
/// event names a topic (Zulip's `process_*_event` functions list these fields).
fn name_empty_topic(body: &mut Value) {
    let kind = event_type(body).to_owned();
    let Value::Object(fields) = body else { return };
    let fields_named: &[&str] = match kind.as_str() {
        "update_message" => &["subject", "orig_subject"],
        "delete_message" | "typing" => &["topic"],
        "user_topic" => &["topic_name"],
        "typing_edit_message" => {
            if let Some(Value::Object(recipient)) = fields.get_mut("recipient") {
                name_empty_topic_fields(recipient, &["topic"]);
            }
            return;
        }
        "update_message_flags" => {
            // Mark-as-unread carries each message's conversation.
            if let Some(Value::Object(details)) = fields.get_mut("message_details") {
                for detail in details.values_mut() {
                    if str_field(detail, "type") == Some("stream")
                        && let Value::Object(detail) = detail
                    {
                        name_empty_topic_fields(detail, &["topic"]);
                    }
                }
            }
            return;
        }
        _ => return,
    };
    name_empty_topic_fields(fields, fields_named);
}

fn name_empty_topic_fields(fields: &mut Map<String, Value>, names: &[&str]) {
    for name in names {
        if let Some(value) = fields.get_mut(*name)
            && value.as_str() == Some("")
        {
            *value = EMPTY_TOPIC_FALLBACK_NAME.into();
        }
    }
}

/// The message dict's topic, for clients without `empty_topic_name` (Zulip's
/// `MessageDict.finalize_payload`).
pub(crate) fn name_empty_message_topic(message: &mut Value) {
    if let Value::Object(fields) = message {
        name_empty_topic_fields(fields, &["subject"]);
    }
}

/// For clients without `notification_settings_null`: the unset notification settings of the
/// subscriptions an event brings (a `subscription` `add`'s, a `stream` `create`'s
/// `unsubscribed`) read as what they stand for, the user's own settings, which the event
/// carries under [`INHERITED_NOTIFICATIONS_MARK`] (never sent), as register fills them for such
/// clients. Zulip sends these clients the nulls; filling them keeps their state what register
/// would give.
fn inherited_notification_settings(body: &mut Value, null_ok: bool) {
    let Value::Object(fields) = body else { return };
    let Some(Value::Object(values)) = fields.remove(INHERITED_NOTIFICATIONS_MARK) else { return };
    if null_ok {
        return;
    }
    for key in ["subscriptions", "unsubscribed"] {
        if let Some(Value::Array(subs)) = fields.get_mut(key) {
            for sub in subs.iter_mut() {
                crate::wire::fill_inherited_notification_settings(sub, &values);
            }
        }
    }
}

/// A presence event carries both forms; each client gets one (Zulip's
/// `process_presence_event`): with `simplified_presence_events` only `presences` (the modern
/// times by user id), else the legacy per-client `presence`, without `email` for
/// `slim_presence` clients.
fn presence_form(body: &mut Value, shape: &Shape<'_>) {
    let Value::Object(fields) = body else { return };
    if shape.caps.simplified_presence_events {
        fields.retain(|key, _| key == "type" || key == "presences");
        return;
    }
    fields.remove("presences");
    if shape.slim_presence {
        fields.remove("email");
    }
}

/// For clients without `bulk_message_deletion`: one event per message, with `message_id`.
fn split_bulk_deletion(body: Value) -> Vec<Value> {
    let Value::Object(mut fields) = body else { return vec![body] };
    let Some(Value::Array(ids)) = fields.remove("message_ids") else {
        // Already in the single form.
        return vec![Value::Object(fields)];
    };
    ids.into_iter()
        .map(|id| {
            let mut single = fields.clone();
            single.insert("message_id".into(), id);
            Value::Object(single)
        })
        .collect()
}

/// For clients without `user_settings_object`: `user_settings` followed by its legacy event.
fn with_legacy_settings(body: Value, email: Option<&str>) -> Vec<Value> {
    let legacy = legacy_settings_event(&body, email.unwrap_or_default());
    let mut bodies = vec![body];
    bodies.extend(legacy);
    bodies
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::json;

    use super::*;

    fn shape(caps: ClientCapabilities) -> Shape<'static> {
        Shape { caps, slim_presence: false, email: Some("me@x") }
    }

    fn types(names: &[&str]) -> QueueOptions {
        QueueOptions {
            event_types: Some(names.iter().map(|s| (*s).to_owned()).collect::<BTreeSet<_>>()),
            ..QueueOptions::default()
        }
    }

    #[test]
    fn bulk_deletion_is_split_for_old_clients() {
        let body = json!({"type": "delete_message", "message_type": "stream", "message_ids": [3, 4], "stream_id": 1, "topic": "t"});
        assert_eq!(
            expand(&body, &shape(ClientCapabilities::default())),
            vec![
                json!({"type": "delete_message", "message_type": "stream", "message_id": 3, "stream_id": 1, "topic": "t"}),
                json!({"type": "delete_message", "message_type": "stream", "message_id": 4, "stream_id": 1, "topic": "t"}),
            ]
        );
        let bulk =
            ClientCapabilities { bulk_message_deletion: true, empty_topic_name: true, ..Default::default() };
        assert_eq!(expand(&body, &shape(bulk)), vec![body]);
    }

    #[test]
    fn news_of_a_deactivated_group_is_only_for_clients_that_kept_it() {
        let body = json!({"type": "user_group", "op": "update", "group_id": 7, "data": {"name": "n"}, "deactivated_group": true});
        assert_eq!(expand(&body, &shape(ClientCapabilities::default())), Vec::<Value>::new());
        let keeps = ClientCapabilities { include_deactivated_groups: true, ..Default::default() };
        assert_eq!(
            expand(&body, &shape(keeps)),
            vec![json!({"type": "user_group", "op": "update", "group_id": 7, "data": {"name": "n"}})]
        );
    }

    #[test]
    fn empty_topics_read_general_chat_for_old_clients() {
        let old = shape(ClientCapabilities::default());
        let new = shape(ClientCapabilities { empty_topic_name: true, ..Default::default() });
        let cases = [
            (
                json!({"type": "update_message", "subject": "", "orig_subject": "", "message_id": 1}),
                json!({"type": "update_message", "subject": "general chat", "orig_subject": "general chat", "message_id": 1}),
            ),
            (
                json!({"type": "update_message", "subject": "x", "orig_subject": ""}),
                json!({"type": "update_message", "subject": "x", "orig_subject": "general chat"}),
            ),
            (
                json!({"type": "typing", "op": "start", "message_type": "stream", "stream_id": 1, "topic": ""}),
                json!({"type": "typing", "op": "start", "message_type": "stream", "stream_id": 1, "topic": "general chat"}),
            ),
            (
                json!({"type": "user_topic", "stream_id": 1, "topic_name": ""}),
                json!({"type": "user_topic", "stream_id": 1, "topic_name": "general chat"}),
            ),
            (
                json!({"type": "update_message_flags", "op": "remove", "flag": "read", "message_details": {"5": {"type": "stream", "topic": ""}, "6": {"type": "private"}}}),
                json!({"type": "update_message_flags", "op": "remove", "flag": "read", "message_details": {"5": {"type": "stream", "topic": "general chat"}, "6": {"type": "private"}}}),
            ),
            // Other events keep their fields.
            (json!({"type": "stream", "topic": ""}), json!({"type": "stream", "topic": ""})),
        ];
        for (body, want) in cases {
            assert_eq!(expand(&body, &old), vec![want], "{body}");
            assert_eq!(expand(&body, &new), vec![body.clone()], "{body}");
        }
        let deletion = json!({"type": "delete_message", "message_ids": [1], "topic": ""});
        assert_eq!(
            expand(&deletion, &old),
            vec![json!({"type": "delete_message", "message_id": 1, "topic": "general chat"})]
        );
    }

    #[test]
    fn user_settings_bring_legacy_events_for_old_clients() {
        let body =
            json!({"type": "user_settings", "op": "update", "property": "enable_sounds", "value": false});
        assert_eq!(
            expand(&body, &shape(ClientCapabilities::default())),
            vec![
                body.clone(),
                json!({"type": "update_global_notifications", "user": "me@x", "notification_name": "enable_sounds", "setting": false}),
            ]
        );
        let modern = ClientCapabilities { user_settings_object: true, ..Default::default() };
        assert_eq!(expand(&body, &shape(modern)), vec![body]);
    }

    #[test]
    fn presence_comes_in_the_form_each_client_reads() {
        let body = json!({"type": "presence", "user_id": 5, "email": "a@x", "server_timestamp": 1.0, "presence": {}, "presences": {"5": {}}});
        let legacy = Shape { caps: ClientCapabilities::default(), slim_presence: false, email: None };
        assert_eq!(
            expand(&body, &legacy),
            vec![
                json!({"type": "presence", "user_id": 5, "email": "a@x", "server_timestamp": 1.0, "presence": {}})
            ]
        );
        let slim = Shape { caps: ClientCapabilities::default(), slim_presence: true, email: None };
        assert_eq!(
            expand(&body, &slim),
            vec![json!({"type": "presence", "user_id": 5, "server_timestamp": 1.0, "presence": {}})]
        );
        let simplified = ClientCapabilities { simplified_presence_events: true, ..Default::default() };
        for slim_presence in [false, true] {
            let shape = Shape { caps: simplified, slim_presence, email: None };
            assert_eq!(expand(&body, &shape), vec![json!({"type": "presence", "presences": {"5": {}}})]);
        }
    }

    #[test]
    fn acceptance_rules() {
        let all = QueueOptions::default();
        let caps = |caps: ClientCapabilities| QueueOptions { capabilities: caps, ..QueueOptions::default() };
        let modern = caps(ClientCapabilities {
            stream_typing_notifications: true,
            user_settings_object: true,
            linkifier_url_template: true,
            include_deactivated_groups: true,
            archived_channels: true,
            ..Default::default()
        });
        let cases = [
            (json!({"type": "typing", "message_type": "stream", "stream_id": 1, "topic": "t"}), false, true),
            (json!({"type": "typing", "message_type": "direct", "recipients": []}), true, true),
            (json!({"type": "update_display_settings", "setting_name": "x"}), true, false),
            (json!({"type": "update_global_notifications"}), true, false),
            (json!({"type": "realm_linkifiers", "realm_linkifiers": []}), false, true),
            (json!({"type": "user_group", "op": "remove", "group_id": 1}), true, false),
            (
                json!({"type": "user_group", "op": "update", "group_id": 1, "data": {"deactivated": true}}),
                false,
                true,
            ),
            (json!({"type": "user_group", "op": "update", "group_id": 1, "data": {"name": "n"}}), true, true),
            (
                json!({"type": "stream", "op": "update", "property": "is_archived", "value": true}),
                false,
                true,
            ),
            (json!({"type": "stream", "op": "update", "property": "name", "value": "n"}), true, true),
            (json!({"type": "reaction", "op": "add"}), true, true),
        ];
        for (body, old_wants, modern_wants) in cases {
            assert_eq!(accepts(&all, &body), old_wants, "old client, {body}");
            assert_eq!(accepts(&modern, &body), modern_wants, "modern client, {body}");
        }
    }

    #[test]
    fn event_types_match_by_type() {
        let options = types(&["update_display_settings", "muted_topics", "user_topic"]);
        assert!(accepts(&options, &json!({"type": "update_display_settings"})));
        assert!(!accepts(&options, &json!({"type": "user_settings"})));
        assert!(accepts(&options, &json!({"type": "user_topic"})));
        assert!(!accepts(&options, &json!({"type": "muted_topics"})));
        assert!(accepts(&types(&["muted_topics"]), &json!({"type": "muted_topics"})));
        assert!(!accepts(&options, &json!({"no_type": true})));
    }
}
