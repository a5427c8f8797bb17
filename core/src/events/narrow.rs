//! Whether a message event passes a queue's narrow (zulip-semantics §2.5, Zulip's
//! `narrow_predicate.build_narrow_predicate`).
//!
//! This is deliberately not [`crate::api::narrow`]: Zulip evaluates queue narrows in Python on
//! the message dict a client is about to receive, with `.lower()` comparisons, the sender by
//! email only, and `is:mentioned` meaning the `mentioned` flag alone. Reproducing that exactly
//! means reading the same dict fields.

use serde_json::Value;

use crate::model::MessageFlags;

/// The topic prefix of resolved topics (Zulip's `RESOLVED_TOPIC_PREFIX`).
const RESOLVED_TOPIC_PREFIX: &str = "✔ ";

/// Whether `message` (as this queue receives it: `subject` already shaped for its capabilities),
/// with the receiving user's `flags`, satisfies every term of `narrow`.
pub(crate) fn message_matches(narrow: &[(String, String)], message: &Value, flags: MessageFlags) -> bool {
    narrow.iter().all(|(operator, operand)| term_matches(operator, operand, message, flags))
}

fn term_matches(operator: &str, operand: &str, message: &Value, flags: MessageFlags) -> bool {
    let field = |name: &str| message.get(name).and_then(Value::as_str).unwrap_or_default();
    let is_stream = field("type") == "stream";
    let same = |a: &str, b: &str| a.to_lowercase() == b.to_lowercase();
    match (operator, operand) {
        // For channel messages `display_recipient` is the channel's name.
        ("channel" | "stream", _) => is_stream && same(operand, field("display_recipient")),
        ("topic", _) => is_stream && same(operand, field("subject")),
        ("sender", _) => same(operand, field("sender_email")),
        ("is", "dm" | "private") => field("type") == "private",
        ("is", "starred") => flags.contains(MessageFlags::STARRED),
        ("is", "unread") => !flags.contains(MessageFlags::READ),
        // Only a personal mention: wildcard and group mention flags do not count here.
        ("is", "mentioned" | "alerted") => flags.contains(MessageFlags::MENTIONED),
        ("is", "resolved") => is_stream && field("subject").starts_with(RESOLVED_TOPIC_PREFIX),
        // Any other `is:` operand (e.g. `muted`) passes, as in Zulip; other operators were
        // refused at registration.
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn stream_message(channel: &str, topic: &str, sender: &str) -> Value {
        json!({"type": "stream", "display_recipient": channel, "subject": topic, "sender_email": sender})
    }

    fn dm(sender: &str) -> Value {
        json!({
            "type": "private", "subject": "", "sender_email": sender,
            "display_recipient": [{"id": 1, "email": sender, "full_name": "A"}]
        })
    }

    /// A narrow, a message, the receiving user's flags, and whether it matches.
    type Case = (&'static [(&'static str, &'static str)], Value, MessageFlags, bool);

    #[test]
    fn cases() {
        let none = MessageFlags::empty();
        let cases: &[Case] = &[
            (&[], dm("a@x"), none, true),
            (&[("channel", "denmark")], stream_message("Denmark", "t", "a@x"), none, true),
            (&[("stream", "DENMARK")], stream_message("Denmark", "t", "a@x"), none, true),
            (&[("channel", "Denmark")], stream_message("Verona", "t", "a@x"), none, false),
            (&[("channel", "Denmark")], dm("a@x"), none, false),
            (&[("topic", "LUNCH")], stream_message("Denmark", "lunch", "a@x"), none, true),
            (&[("topic", "lunch")], stream_message("Denmark", "lunch time", "a@x"), none, false),
            (&[("topic", "")], dm("a@x"), none, false),
            (&[("sender", "A@X")], dm("a@x"), none, true),
            (&[("sender", "b@x")], dm("a@x"), none, false),
            (&[("is", "private")], dm("a@x"), none, true),
            (&[("is", "dm")], stream_message("D", "t", "a@x"), none, false),
            (&[("is", "starred")], dm("a@x"), MessageFlags::STARRED, true),
            (&[("is", "starred")], dm("a@x"), MessageFlags::READ, false),
            (&[("is", "unread")], dm("a@x"), none, true),
            (&[("is", "unread")], dm("a@x"), MessageFlags::READ, false),
            (&[("is", "mentioned")], dm("a@x"), MessageFlags::MENTIONED, true),
            (&[("is", "mentioned")], dm("a@x"), MessageFlags::STREAM_WILDCARD_MENTIONED, false),
            (&[("is", "mentioned")], dm("a@x"), MessageFlags::TOPIC_WILDCARD_MENTIONED, false),
            (&[("is", "mentioned")], dm("a@x"), MessageFlags::GROUP_MENTIONED, false),
            (&[("is", "alerted")], dm("a@x"), MessageFlags::MENTIONED, true),
            (&[("is", "alerted")], dm("a@x"), MessageFlags::HAS_ALERT_WORD, false),
            (&[("is", "resolved")], stream_message("D", "✔ done", "a@x"), none, true),
            (&[("is", "resolved")], stream_message("D", "done", "a@x"), none, false),
            (&[("is", "muted")], dm("a@x"), none, true),
            (&[("channel", "D"), ("topic", "t")], stream_message("d", "T", "a@x"), none, true),
            (&[("channel", "D"), ("topic", "u")], stream_message("d", "T", "a@x"), none, false),
        ];
        for (narrow, message, flags, want) in cases {
            let narrow: Vec<(String, String)> =
                narrow.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect();
            assert_eq!(
                message_matches(&narrow, message, *flags),
                *want,
                "{narrow:?} on {message} with {flags:?}"
            );
        }
    }
}
